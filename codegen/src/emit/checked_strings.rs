//! Step 5d: typify's string newtypes, folded.
//!
//! For every string with a `pattern`, `minLength` or `maxLength` that no patch replaces, typify
//! writes a newtype and six impls (`Deref`, `From` for `String`, `FromStr`, two `TryFrom`s and
//! `Deserialize`), about 60 lines of which only `FromStr`, holding the check, differs from
//! type to type. A large description has more than a thousand of them. This step keeps the
//! struct and its `FromStr` as typify wrote them and replaces the other five impls with one
//! `checked_string!(Name);`, the macro defined once at the start of `types` whose body is
//! typify's own impls ([`contract::typify_string_newtype_impls`]), so the expansion is the
//! code typify wrote.
//!
//! A newtype whose impls are not exactly typify's known shape is left as typify wrote it: the
//! fold is a size optimisation, and nothing is lost by skipping it.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::Error;
use crate::contract;

/// Folds every typify string newtype of `types` into a `checked_string!` invocation placed
/// right after its struct.
pub(super) fn fold_checked_strings(types: &mut Vec<syn::Item>) -> Result<(), Error> {
    let candidates: BTreeSet<String> = types
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(structure) if is_string_newtype(structure) => {
                Some(structure.ident.to_string())
            }
            _ => None,
        })
        .collect();
    // Each candidate's impls, by index in `types`, in the order typify wrote them.
    let mut impls: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (index, item) in types.iter().enumerate() {
        if let syn::Item::Impl(block) = item
            && let Some(name) = implemented_for(block, &candidates)
        {
            impls.entry(name).or_default().push(index);
        }
    }
    // typify's impls for a placeholder name, as text: each candidate's are these with its name.
    let placeholder = syn::Ident::new(PLACEHOLDER, proc_macro2::Span::call_site());
    let templates: Vec<String> = contract::typify_string_newtype_impls(&quote!(#placeholder))
        .iter()
        .map(ToString::to_string)
        .collect();
    let mut removed = BTreeSet::new();
    let mut invocations = BTreeMap::new();
    for (name, indices) in &impls {
        let found: Vec<&syn::ItemImpl> = indices
            .iter()
            .filter_map(|&index| match &types[index] {
                syn::Item::Impl(block) => Some(block),
                _ => None,
            })
            .collect();
        let Some((mut folded, from_str)) = typify_boilerplate(name, &found, &templates) else {
            continue;
        };
        let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
        // The checks of `from_str` become arguments when they are typify's known ones;
        // otherwise its `FromStr` stays as it wrote it.
        let invocation = match typify_checks(found[from_str]) {
            Some(checks) => {
                folded.push(from_str);
                let checks = checks.iter().map(|(check, argument)| {
                    let keyword = quote::format_ident!("{}", check.keyword());
                    match check {
                        contract::TypifyCheck::Pattern => quote!(, #keyword #argument),
                        _ => {
                            let bound = proc_macro2::Literal::usize_unsuffixed(
                                argument.parse().expect("checked by typify_checks"),
                            );
                            quote!(, #keyword #bound)
                        }
                    }
                });
                quote!(checked_string!(#ident #(#checks)*);)
            }
            None => quote!(checked_string!(#ident);),
        };
        invocations.insert(name.clone(), invocation);
        removed.extend(folded.into_iter().map(|position| indices[position]));
    }
    if invocations.is_empty() {
        return Ok(());
    }
    let mut rewritten = parse(checked_string_macro())?;
    for (index, item) in std::mem::take(types).into_iter().enumerate() {
        if removed.contains(&index) {
            continue;
        }
        let invocation = match &item {
            syn::Item::Struct(structure) => invocations.remove(&structure.ident.to_string()),
            _ => None,
        };
        rewritten.push(item);
        if let Some(invocation) = invocation {
            rewritten.extend(parse(invocation)?);
        }
    }
    *types = rewritten;
    Ok(())
}

/// `checked_string!(Name)`: typify's impls of a string newtype but its `FromStr`;
/// `checked_string!(Name, max 200, min 1, pattern "^a")`: those and its `FromStr`, the checks
/// in the order given.
fn checked_string_macro() -> TokenStream {
    let impls = contract::typify_string_newtype_impls(&quote!($name));
    let checks = contract::TypifyCheck::ALL.map(|check| {
        let keyword = quote::format_ident!("{}", check.keyword());
        let statements = check.as_macro_writes();
        quote! {
            (@check $value:ident #keyword $argument:literal) => { #statements };
        }
    });
    quote! {
        macro_rules! checked_string {
            ($name:ident) => {
                #(#impls)*
            };
            ($name:ident $(, $check:ident $argument:literal)+) => {
                checked_string!($name);
                impl ::std::str::FromStr for $name {
                    type Err = self::error::ConversionError;
                    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
                        $(checked_string!(@check value $check $argument);)+
                        Ok(Self(value.to_string()))
                    }
                }
            };
            #(#checks)*
        }
    }
}

/// The checks of a typify `FromStr`, each with its argument (a bound's digits or a pattern),
/// when its body is exactly typify's statements for them and then `Ok(Self(..))`.
fn typify_checks(from_str: &syn::ItemImpl) -> Option<Vec<(contract::TypifyCheck, String)>> {
    let method = from_str.items.iter().find_map(|item| match item {
        syn::ImplItem::Fn(method) if method.sig.ident == "from_str" => Some(method),
        _ => None,
    })?;
    let (last, mut rest) = method.block.stmts.split_last()?;
    if tokens(last) != "Ok (Self (value . to_string ()))" {
        return None;
    }
    let mut checks = Vec::new();
    while let Some(first) = rest.first() {
        let argument = first_literal(first.to_token_stream())?;
        let (check, length) = contract::TypifyCheck::ALL.into_iter().find_map(|check| {
            let statements = check.as_typify_writes(&argument)?;
            let expected: syn::Block = syn::parse2(quote!({ #statements })).ok()?;
            let length = expected.stmts.len();
            let matches = length > 0
                && rest.len() >= length
                && rest[..length]
                    .iter()
                    .zip(&expected.stmts)
                    .all(|(found, expected)| tokens(found) == tokens(expected));
            matches.then_some((check, length))
        })?;
        checks.push((check, argument));
        rest = &rest[length..];
    }
    (!checks.is_empty()).then_some(checks)
}

/// The first literal in `tokens`, as the text it stands for: an integer's digits, a string's
/// value.
fn first_literal(tokens: TokenStream) -> Option<String> {
    for tree in tokens {
        match tree {
            proc_macro2::TokenTree::Literal(literal) => {
                return match syn::Lit::new(literal) {
                    syn::Lit::Int(int) => Some(int.base10_digits().to_owned()),
                    syn::Lit::Str(text) => Some(text.value()),
                    _ => None,
                };
            }
            proc_macro2::TokenTree::Group(group) => {
                if let Some(found) = first_literal(group.stream()) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// `pub struct Name(::std::string::String);`, serde-transparent: the shape of typify's
/// string newtype.
fn is_string_newtype(structure: &syn::ItemStruct) -> bool {
    let syn::Fields::Unnamed(fields) = &structure.fields else {
        return false;
    };
    fields.unnamed.len() == 1
        && tokens(&fields.unnamed[0].ty) == ":: std :: string :: String"
        && super::serde_attrs::has(&structure.attrs, "transparent")
}

/// The candidate `block` implements something for: its self type, or `T` of a
/// `From<T> for String`.
fn implemented_for(block: &syn::ItemImpl, candidates: &BTreeSet<String>) -> Option<String> {
    let last_ident = |ty: &syn::Type| match ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            path.path.get_ident().map(|i| i.to_string())
        }
        _ => None,
    };
    if let Some(name) = last_ident(&block.self_ty)
        && candidates.contains(&name)
    {
        return Some(name);
    }
    let (_, path, _) = block.trait_.as_ref()?;
    let last = path.segments.last()?;
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.first()? {
        syn::GenericArgument::Type(ty) => last_ident(ty).filter(|name| candidates.contains(name)),
        _ => None,
    }
}

/// The positions in `found` of typify's boilerplate impls for `name`, and of its `FromStr`,
/// when `found` is exactly those (in typify's order) and one `FromStr`.
fn typify_boilerplate(
    name: &str,
    found: &[&syn::ItemImpl],
    templates: &[String],
) -> Option<(Vec<usize>, usize)> {
    // Token text separates an identifier from its neighbours whatever it spells, so the
    // placeholder's text with the name put in is the text of the impls quoted with the name.
    let expected = templates
        .iter()
        .map(|template| template.replace(PLACEHOLDER, name));
    let is_from_str = |block: &syn::ItemImpl| {
        block
            .trait_
            .as_ref()
            .and_then(|(_, path, _)| path.segments.last())
            .is_some_and(|last| last.ident == "FromStr")
    };
    let (from_str, boilerplate): (Vec<_>, Vec<_>) = found
        .iter()
        .enumerate()
        .partition(|(_, block)| is_from_str(block));
    let matches = from_str.len() == 1
        && boilerplate.len() == templates.len()
        && boilerplate
            .iter()
            .zip(expected)
            .all(|((_, found), expected)| tokens(*found) == expected);
    matches.then(|| {
        (
            boilerplate
                .into_iter()
                .map(|(position, _)| position)
                .collect(),
            from_str[0].0,
        )
    })
}

/// A name no schema gives a type: typify names types in UpperCamelCase.
const PLACEHOLDER: &str = "__typify_string_newtype__";

fn parse(tokens: TokenStream) -> Result<Vec<syn::Item>, Error> {
    syn::parse2::<syn::File>(tokens)
        .map(|file| file.items)
        .map_err(|error| Error::Syntax(format!("checked string: {error}")))
}

fn tokens(node: &impl ToTokens) -> String {
    node.to_token_stream().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typify_newtype(name: &str) -> Vec<syn::Item> {
        let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
        let mut items: Vec<syn::Item> = vec![syn::parse_quote! {
            #[derive(::serde::Serialize, Clone, Debug)]
            #[serde(transparent)]
            pub struct #ident(::std::string::String);
        }];
        for tokens in contract::typify_string_newtype_impls(&quote!(#ident)) {
            items.push(syn::parse2(tokens).unwrap());
        }
        items.insert(
            3,
            syn::parse_quote! {
                impl ::std::str::FromStr for #ident {
                    type Err = self::error::ConversionError;
                    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
                        if value.chars().count() < 1usize {
                            return Err("shorter than 1 characters".into());
                        }
                        Ok(Self(value.to_string()))
                    }
                }
            },
        );
        items
    }

    #[test]
    fn typify_impls_become_one_invocation_after_the_struct() {
        let mut types = typify_newtype("Title");
        types.push(syn::parse_quote!(
            pub struct Other;
        ));
        fold_checked_strings(&mut types).unwrap();
        let text: Vec<String> = types.iter().map(tokens).collect();
        assert_eq!(text.len(), 4, "{text:#?}");
        assert!(text[0].starts_with("macro_rules ! checked_string"));
        assert!(text[1].contains("pub struct Title"));
        assert_eq!(text[2], "checked_string ! (Title , min 1) ;");
        assert!(text[3].contains("struct Other"));
    }

    #[test]
    fn typify_s_checks_become_arguments_and_others_keep_their_from_str() {
        let from_str = |body: TokenStream| -> syn::Item {
            syn::parse_quote! {
                impl ::std::str::FromStr for Title {
                    type Err = self::error::ConversionError;
                    fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> #body
                }
            }
        };
        let max = contract::TypifyCheck::MaxLength
            .as_typify_writes("200")
            .unwrap();
        let pattern = contract::TypifyCheck::Pattern
            .as_typify_writes(r"^[\w.-]+$")
            .unwrap();
        let mut types = typify_newtype("Title");
        types[3] = from_str(quote!({ #max #pattern Ok(Self(value.to_string())) }));
        fold_checked_strings(&mut types).unwrap();
        assert_eq!(
            tokens(&types[2]),
            r#"checked_string ! (Title , max 200 , pattern "^[\\w.-]+$") ;"#
        );

        // A check typify does not write this way: its `FromStr` stays.
        let mut types = typify_newtype("Title");
        types[3] = from_str(quote!({
            if value.is_empty() {
                return Err("empty".into());
            }
            Ok(Self(value.to_string()))
        }));
        fold_checked_strings(&mut types).unwrap();
        assert_eq!(tokens(&types[2]), "checked_string ! (Title) ;");
        assert!(tokens(&types[3]).contains("value . is_empty ()"));
    }

    #[test]
    fn a_newtype_whose_impls_differ_from_typify_s_is_left_alone() {
        let mut types = typify_newtype("Title");
        // Someone else's Deref: not typify's shape.
        types[1] = syn::parse_quote! {
            impl ::std::ops::Deref for Title {
                type Target = str;
                fn deref(&self) -> &str { &self.0 }
            }
        };
        let before: Vec<String> = types.iter().map(tokens).collect();
        fold_checked_strings(&mut types).unwrap();
        let after: Vec<String> = types.iter().map(tokens).collect();
        assert_eq!(before, after);
    }
}
