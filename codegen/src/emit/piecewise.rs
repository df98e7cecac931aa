//! Parses progenitor's output one item at a time, so that its tokens are freed as the syntax
//! tree grows instead of both being held whole.
//!
//! `syn::parse2` first copies a token stream into a cursor buffer, nested groups included, and
//! only then parses it. On the whole file that means progenitor's tokens, that copy and the
//! finished tree at once: about 1 GB for the 640-operation synthetic spec, and the largest
//! step of a big run. Here each item's tokens are moved out of the stream (never cloned),
//! parsed alone and dropped; a module's body is split the same way, recursively. With
//! [`KeepAll`] the tree is the one `syn::parse2::<syn::File>` builds. A [`Sink`] sees each
//! item as soon as it is parsed, so a rewrite that deletes or folds items can do so before
//! they are ever held together (`emit`'s `TypesAsParsed`); the regen check and the snapshots
//! compare the printed result byte for byte with what the whole-file rewrites gave.
//!
//! Where an item ends is read from its tokens: at the first `;` or `{...}` at its own level,
//! except that `use`, `const`, `static`, `type` and `extern crate` items, whose bodies may hold
//! braces (`use a::{b, c};`, `const X: T = T { .. };`), end only at their `;`.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};

use crate::Error;

/// Where parsed items go: the step may keep an item, drop it, or hold it back until it has
/// seen what follows and then put it, or what stands for it, in the module.
pub(super) trait Sink {
    /// Called with each parsed item of the module at `module` (`""` at the root, `"types"`,
    /// `"types::builder"`), in order; pushes what stays onto `items`, the module's items so far.
    fn item(
        &mut self,
        module: &str,
        item: syn::Item,
        items: &mut Vec<syn::Item>,
    ) -> Result<(), Error>;

    /// Called after the last item of the module at `module`, to push what is held back.
    fn end(&mut self, module: &str, items: &mut Vec<syn::Item>) -> Result<(), Error>;
}

/// The sink that keeps every item as it is.
pub(super) struct KeepAll;

impl Sink for KeepAll {
    fn item(&mut self, _: &str, item: syn::Item, items: &mut Vec<syn::Item>) -> Result<(), Error> {
        items.push(item);
        Ok(())
    }

    fn end(&mut self, _: &str, _: &mut Vec<syn::Item>) -> Result<(), Error> {
        Ok(())
    }
}

/// The items of `tokens`, parsed one by one and handed to `sink` as soon as each is parsed.
pub(super) fn parse_file(tokens: TokenStream, sink: &mut dyn Sink) -> Result<syn::File, Error> {
    Ok(syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: parse_items(tokens, "", sink)?,
    })
}

fn parse_items(
    tokens: TokenStream,
    module: &str,
    sink: &mut dyn Sink,
) -> Result<Vec<syn::Item>, Error> {
    let mut items = Vec::new();
    let mut tokens = tokens.into_iter().peekable();
    while tokens.peek().is_some() {
        let item = parse_item(next_item(&mut tokens)?, module, sink)?;
        sink.item(module, item, &mut items)?;
    }
    sink.end(module, &mut items)?;
    Ok(items)
}

/// Moves the tokens of the next item out of `tokens`.
fn next_item(
    tokens: &mut std::iter::Peekable<proc_macro2::token_stream::IntoIter>,
) -> Result<Vec<TokenTree>, Error> {
    let mut item = Vec::new();
    // Outer attributes: `#` and a bracketed group, any number of times.
    while let Some(TokenTree::Punct(pound)) = tokens.peek()
        && pound.as_char() == '#'
    {
        item.extend(tokens.next());
        match tokens.next() {
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Bracket => {
                item.push(TokenTree::Group(group));
            }
            other => {
                return Err(Error::Syntax(format!(
                    "progenitor's output: `#` followed by {} where an outer attribute was expected",
                    other.map_or_else(|| "nothing".to_owned(), |token| format!("`{token}`")),
                )));
            }
        }
    }
    let mut ends_only_at_semicolon = None;
    for token in tokens.by_ref() {
        if ends_only_at_semicolon.is_none()
            && let Some(keyword) = item_keyword(&token)
        {
            ends_only_at_semicolon = Some(is_semicolon_item(&keyword));
        }
        let ends = match &token {
            TokenTree::Punct(punct) => punct.as_char() == ';',
            TokenTree::Group(group) => {
                group.delimiter() == Delimiter::Brace && ends_only_at_semicolon == Some(false)
            }
            _ => false,
        };
        item.push(token);
        if ends {
            return Ok(item);
        }
    }
    Err(Error::Syntax(format!(
        "progenitor's output ends inside an item: `{}`",
        item.into_iter().take(12).collect::<TokenStream>()
    )))
}

/// The word of `token` when it can say what an item is: an identifier other than those that
/// may come before that keyword (`pub`, `crate`, `unsafe`, `async`, `default`). Attributes
/// and `pub(..)` are groups, so their words are not seen.
fn item_keyword(token: &TokenTree) -> Option<String> {
    let TokenTree::Ident(ident) = token else {
        return None;
    };
    let word = ident.to_string();
    (!matches!(
        word.as_str(),
        "pub" | "crate" | "unsafe" | "async" | "default"
    ))
    .then_some(word)
}

/// Whether an item that starts with this keyword ends only at its `;`. `const fn` and
/// `extern "C" fn` read as `const` and `extern` here, and are not in progenitor's output.
fn is_semicolon_item(keyword: &str) -> bool {
    matches!(keyword, "use" | "const" | "static" | "type" | "extern")
}

/// Parses one item; a module with a body has its body parsed piecewise in turn.
fn parse_item(
    mut tokens: Vec<TokenTree>,
    parent: &str,
    sink: &mut dyn Sink,
) -> Result<syn::Item, Error> {
    let mut body = None;
    if is_module(&tokens)
        && let Some(TokenTree::Group(group)) = tokens.last_mut()
        && group.delimiter() == Delimiter::Brace
    {
        // The module is parsed with an empty body. Once the group that held the body is
        // dropped, the body's stream has one owner, so splitting it moves its tokens.
        let mut empty = Group::new(Delimiter::Brace, TokenStream::new());
        empty.set_span(group.span());
        let full = std::mem::replace(group, empty);
        body = Some(full.stream());
    }
    let mut item: syn::Item = syn::parse2(tokens.into_iter().collect())
        .map_err(|error| Error::Syntax(format!("progenitor's output: {error}")))?;
    if let Some(body) = body
        && let syn::Item::Mod(module) = &mut item
        && let Some((_, items)) = &mut module.content
    {
        let path = match parent {
            "" => module.ident.to_string(),
            parent => format!("{parent}::{}", module.ident),
        };
        *items = parse_items(body, &path, sink)?;
    }
    Ok(item)
}

/// Whether an item's tokens (attributes, visibility, then `mod`) declare a module.
fn is_module(tokens: &[TokenTree]) -> bool {
    tokens
        .iter()
        .find_map(item_keyword)
        .is_some_and(|word| word == "mod")
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::{ToTokens, quote};

    /// The piecewise parse and syn's whole-file parse give the same tree.
    fn same_as_syn(tokens: TokenStream) {
        let whole: syn::File = syn::parse2(tokens.clone()).expect("syn parses the sample");
        let piecewise = parse_file(tokens, &mut KeepAll).expect("the piecewise parse succeeds");
        assert_eq!(
            prettyplease::unparse(&piecewise),
            prettyplease::unparse(&whole)
        );
        assert_eq!(
            piecewise.to_token_stream().to_string(),
            whole.to_token_stream().to_string()
        );
    }

    #[test]
    fn items_of_every_shape_parse_as_syn_parses_them() {
        same_as_syn(quote! {
            use ::std::collections::{BTreeMap, BTreeSet};
            #[doc = "A client."]
            #[derive(Clone, Debug)]
            pub struct Client { base: String }
            pub struct Tuple(pub String);
            pub struct Unit;
            pub(crate) const LIMIT: Limit = Limit { bytes: 10 };
            static NAMES: &[&str] = &["a", "b"];
            pub type Alias = BTreeMap<String, BTreeSet<u8>>;
            impl<T> From<T> for Client where T: Into<String> {
                fn from(base: T) -> Self { Self { base: base.into() } }
            }
            pub enum Kind { A { x: u8 }, B(u8), C }
            macro_rules! twice { ($x:expr) => { $x * 2 }; }
            twice!(3);
            pub async fn send() -> Result<(), ()> { Ok(()) }
            unsafe impl Send for Unit {}
        });
    }

    #[test]
    fn module_bodies_are_split_recursively() {
        same_as_syn(quote! {
            #[allow(clippy::all)]
            pub mod types {
                use super::*;
                pub mod builder {
                    pub struct Thing { a: Result<u8, String> }
                    impl Default for Thing { fn default() -> Self { Self { a: Ok(0) } } }
                }
                pub mod defaults;
                pub mod empty {}
                pub struct Thing;
            }
            pub mod prelude { pub use super::Client; }
        });
    }

    /// Records what it is given, drops `types::Dropped`, and holds `types::Held` back to the
    /// end of its module.
    #[derive(Default)]
    struct Recorder {
        seen: Vec<String>,
        held: Option<syn::Item>,
    }

    impl Sink for Recorder {
        fn item(
            &mut self,
            module: &str,
            item: syn::Item,
            items: &mut Vec<syn::Item>,
        ) -> Result<(), Error> {
            let name = match &item {
                syn::Item::Struct(structure) => structure.ident.to_string(),
                _ => "mod".to_owned(),
            };
            self.seen.push(format!("{module}: {name}"));
            match (module, name.as_str()) {
                ("types", "Dropped") => {}
                ("types", "Held") => self.held = Some(item),
                _ => items.push(item),
            }
            Ok(())
        }

        fn end(&mut self, module: &str, items: &mut Vec<syn::Item>) -> Result<(), Error> {
            self.seen.push(format!("{module}: end"));
            if module == "types" {
                items.extend(self.held.take());
            }
            Ok(())
        }
    }

    #[test]
    fn the_sink_sees_each_item_with_its_module_and_decides_what_stays() {
        let mut recorder = Recorder::default();
        let file = parse_file(
            quote! {
                pub struct Root;
                pub mod types {
                    pub struct Held;
                    pub struct Kept;
                    pub struct Dropped;
                    pub mod builder { pub struct Dropped; }
                }
            },
            &mut recorder,
        )
        .expect("parses");
        assert_eq!(
            recorder.seen,
            [
                ": Root",
                "types: Held",
                "types: Kept",
                "types: Dropped",
                "types::builder: Dropped",
                "types::builder: end",
                "types: mod",
                "types: end",
                ": mod",
                ": end",
            ]
        );
        assert_eq!(
            file.to_token_stream().to_string(),
            quote! {
                pub struct Root;
                pub mod types {
                    pub struct Kept;
                    pub mod builder { pub struct Dropped; }
                    pub struct Held;
                }
            }
            .to_string()
        );
    }

    #[test]
    fn a_cut_off_item_is_an_error_not_a_panic() {
        let error = |tokens: TokenStream| match parse_file(tokens, &mut KeepAll) {
            Ok(_) => panic!("parsed what is not Rust"),
            Err(error) => error.to_string(),
        };
        let cut_off = error(quote!(pub struct Thing(u8)));
        assert!(cut_off.contains("ends inside an item"), "{cut_off}");
        let stray_pound = error("# pub struct Thing;".parse().expect("tokens"));
        assert!(stray_pound.contains("outer attribute"), "{stray_pound}");
        let broken = error(quote!(pub struct Thing { a: }));
        assert!(broken.contains("progenitor's output"), "{broken}");
    }
}
