//! Step 5d: typify's string newtypes, as aliases of one generic type.
//!
//! For every string with a `pattern`, `minLength` or `maxLength` that no patch replaces, typify
//! writes a newtype, eight derives and six impls (`Deref`, `From` for `String`, `FromStr`, two
//! `TryFrom`s and `Deserialize`), of which only `FromStr`, holding the checks, differs from
//! type to type. A large description has more than a thousand of them, and the compiler checks
//! every one of those fourteen bodies per type. This step writes the impls once, for the
//! generic `CheckedString<R>`, and turns each newtype into `pub type Name =
//! CheckedString<rules::Name>;` and, beside it, `checked_string!(Name, max 200, min 1,
//! pattern "^a")`, which gives the marker `rules::Name` (an uninhabited type of the hidden
//! `rules` module) the checks as constants. Each alias is still a type of its own (its marker
//! differs), with the same conversions, wire form, `Debug` output and error messages as
//! typify's newtype.
//!
//! A newtype whose impls are not exactly typify's known shape, or whose checks are not typify's
//! known ones in typify's order ([`contract::typify_output::StringNewtypeReader`]), is left as
//! typify wrote it: the fold is a size optimisation, and nothing is lost by skipping it. It is
//! reported, though, unless it is a shape typify is known to write (a string with a `default`),
//! since an upgrade that changes typify's impls would otherwise quietly stop the fold.
//!
//! Most newtypes are folded while progenitor's output is parsed ([`EarlyFold`]), so their
//! impls are never held; [`fold_checked_strings`] folds the rest and writes what they share.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::Error;
use crate::contract;
use crate::contract::typify_output::{self, StringNewtype, StringNewtypeReader};

/// Folds every typify string newtype of `types` into an alias of `CheckedString`, in the
/// struct's place with its checks beside it, and its marker into a `rules` module fragment,
/// written last. `early` holds what [`EarlyFold`] folded while the types were parsed; their
/// markers join the fragment, and the shared items are written if either folded any. The
/// tally counts the newtypes folded, here and early, and names each one left whose impls are
/// not a shape typify is known to write.
pub(super) fn fold_checked_strings(
    types: &mut Vec<syn::Item>,
    early: FoldedEarly,
) -> Result<super::Tally, Error> {
    let FoldedEarly(mut markers) = early;
    let candidates: BTreeSet<String> = types
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(structure) if typify_output::is_string_newtype(structure) => {
                Some(structure.ident.to_string())
            }
            _ => None,
        })
        .collect();
    // Each candidate's impls, by index in `types`, in the order typify wrote them.
    let mut impls: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    let mut stray = None;
    for (index, item) in types.iter().enumerate() {
        if let syn::Item::Impl(block) = item {
            if let Some(name) =
                typify_output::newtype_of_impl(block, |name| candidates.contains(name))
            {
                impls.entry(name).or_default().push(index);
            } else if stray.is_none() {
                // Only an impl *for* a folded newtype is a problem: one that converts it into
                // another type (a union's `From<Newtype>`), or into it from another generated
                // type (a wrapping newtype's `From<Wrapper>`), holds through the alias.
                stray = self_type_ident(block)
                    .filter(|name| markers.contains_key(name))
                    .filter(|_| !typify_output::is_conversion_from_another_type(block));
            }
        }
    }
    // The early fold saw a newtype's impls only where typify writes them, right after it; one
    // written elsewhere would have made it a newtype this fold leaves alone.
    if let Some(name) = stray {
        return Err(Error::TypeMismatch {
            reason: "typify wrote an impl for this string newtype apart from the type; it was \
                     folded into `CheckedString` before that impl was seen"
                .into(),
            type_name: name,
        });
    }
    let reader = StringNewtypeReader::default();
    let mut removed = BTreeSet::new();
    let mut folded_here = BTreeMap::new();
    let mut passed_over = Vec::new();
    for name in &candidates {
        let indices = impls.get(name).map_or(&[][..], Vec::as_slice);
        let found: Vec<&syn::ItemImpl> = indices
            .iter()
            .filter_map(|&index| match &types[index] {
                syn::Item::Impl(block) => Some(block),
                _ => None,
            })
            .collect();
        match fold(name, &found, &reader) {
            Ok(invocation) => {
                folded_here.insert(name.clone(), invocation);
                // A fold takes every impl typify wrote for the newtype.
                removed.extend(indices.iter().copied());
            }
            Err(StringNewtype::Unknown) => passed_over.push(super::PassedOver::of_type(
                &name.to_string(),
                format!(
                    "string newtype `{name}`: its impls are not typify's known shape, so it keeps them instead of becoming a `CheckedString`"
                ),
            )),
            Err(_) => {}
        }
    }
    let matched = markers.len() + folded_here.len();
    let tally = super::Tally {
        matched,
        passed_over,
    };
    if markers.is_empty() && folded_here.is_empty() {
        return Ok(tally);
    }
    let mut rewritten = parse(shared_items())?;
    for (index, item) in std::mem::take(types).into_iter().enumerate() {
        if removed.contains(&index) {
            continue;
        }
        match item {
            syn::Item::Struct(structure) => match folded_here.get(&structure.ident.to_string()) {
                Some(invocation) => rewritten.extend(alias(&structure, invocation)?),
                None => rewritten.push(syn::Item::Struct(structure)),
            },
            item => rewritten.push(item),
        }
    }
    markers.extend(folded_here);
    // A fragment: `splice_into_types` gathers every marker into one module.
    let module = super::rules_module();
    let markers = markers
        .keys()
        .map(|name| syn::Ident::new(name, proc_macro2::Span::call_site()));
    rewritten.extend(parse(quote! {
        pub mod #module {
            #(pub enum #markers {})*
        }
    })?);
    *types = rewritten;
    Ok(tally)
}

/// The `checked_string!` invocation of each newtype [`EarlyFold`] folded, by name.
#[derive(Default)]
pub(super) struct FoldedEarly(BTreeMap<String, TokenStream>);

/// Folds each typify string newtype as progenitor's output is parsed, so that its six impls
/// never enter the tree: they are a third of typify's items once the string enums' conversions
/// are gone. typify writes a newtype's impls right after it, so a newtype is held back with the
/// impls that follow it until another item comes, and then folded or put back as it was, by the
/// same test as [`fold_checked_strings`], which folds what is left and checks that no impl of
/// a folded newtype turned up later.
pub(super) struct EarlyFold {
    reader: StringNewtypeReader,
    held: Option<(syn::ItemStruct, Vec<syn::ItemImpl>)>,
    folded: FoldedEarly,
}

impl EarlyFold {
    pub(super) fn new() -> Self {
        Self {
            reader: StringNewtypeReader::default(),
            held: None,
            folded: FoldedEarly::default(),
        }
    }

    /// Takes the next item of the `types` module; pushes onto `items` what is settled.
    pub(super) fn item(
        &mut self,
        item: syn::Item,
        items: &mut Vec<syn::Item>,
    ) -> Result<(), Error> {
        let item = match (item, &mut self.held) {
            (syn::Item::Impl(block), Some((structure, impls)))
                if typify_output::newtype_of_impl(&block, |name| structure.ident == name)
                    .is_some() =>
            {
                impls.push(block);
                return Ok(());
            }
            (item, _) => item,
        };
        self.settle(items)?;
        match item {
            syn::Item::Struct(structure) if typify_output::is_string_newtype(&structure) => {
                self.held = Some((structure, Vec::new()));
            }
            item => items.push(item),
        }
        Ok(())
    }

    /// After the last item of `types`: settles the newtype held back, and gives what was folded
    /// to [`fold_checked_strings`].
    pub(super) fn finish(&mut self, items: &mut Vec<syn::Item>) -> Result<FoldedEarly, Error> {
        self.settle(items)?;
        Ok(std::mem::take(&mut self.folded))
    }

    fn settle(&mut self, items: &mut Vec<syn::Item>) -> Result<(), Error> {
        let Some((structure, impls)) = self.held.take() else {
            return Ok(());
        };
        let name = structure.ident.to_string();
        let found: Vec<&syn::ItemImpl> = impls.iter().collect();
        // `fold` accepts exactly typify's impls, so when it folds, every impl held goes. What
        // it does not fold, [`fold_checked_strings`] meets again, and reports if it must.
        match fold(&name, &found, &self.reader) {
            Ok(invocation) => {
                items.extend(alias(&structure, &invocation)?);
                self.folded.0.insert(name, invocation);
            }
            Err(_) => {
                items.push(syn::Item::Struct(structure));
                items.extend(impls.into_iter().map(syn::Item::Impl));
            }
        }
        Ok(())
    }
}

/// The newtype's `checked_string!` invocation when `found`, the impls typify wrote for the
/// newtype `name`, are exactly its boilerplate and a `FromStr` of known checks in typify's
/// order (all of them then fold away); otherwise what they are instead.
fn fold(
    name: &str,
    found: &[&syn::ItemImpl],
    reader: &StringNewtypeReader,
) -> Result<TokenStream, StringNewtype> {
    let checks = match reader.read(name, found) {
        StringNewtype::Checked(checks) => checks,
        other => return Err(other),
    };
    let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
    let checks = checks.iter().map(|(check, argument)| {
        let keyword = quote::format_ident!("{}", check.keyword());
        match check {
            contract::TypifyCheck::Pattern => quote!(, #keyword #argument),
            _ => {
                let bound = proc_macro2::Literal::usize_unsuffixed(
                    argument.parse().expect("checked by the reader"),
                );
                quote!(, #keyword #bound)
            }
        }
    });
    Ok(quote!(checked_string!(#ident #(#checks)*);))
}

/// What stands in the newtype's place: its docs on `pub type Name = CheckedString<..>;`, then
/// its `checked_string!` invocation.
fn alias(structure: &syn::ItemStruct, invocation: &TokenStream) -> Result<Vec<syn::Item>, Error> {
    let docs = structure
        .attrs
        .iter()
        .filter(|attr| attr.path().is_ident("doc"));
    let ident = &structure.ident;
    let module = super::rules_module();
    parse(quote! {
        #(#docs)*
        pub type #ident = CheckedString<#module::#ident>;
        #invocation
    })
}

/// `CheckedString<R>` with typify's impls written once, generically; its rules trait; and
/// `checked_string!(Name, max 200, min 1, pattern "^a")`, which writes the rules of the marker
/// `rules::Name`.
fn shared_items() -> TokenStream {
    let message = |check: contract::TypifyCheck, argument: TokenStream| {
        let (before, after) = check.message();
        quote!(::std::format!(::std::concat!(#before, "{}", #after), #argument))
    };
    let longer = message(contract::TypifyCheck::MaxLength, quote!(max));
    let shorter = message(contract::TypifyCheck::MinLength, quote!(min));
    let unmatched = message(contract::TypifyCheck::Pattern, quote!(source));
    let impls = contract::typify_string_newtype_impls(&quote!(CheckedString<R>))
        .into_iter()
        .map(generic_over_rules);
    let support = crate::runtime::support_crate();
    let macros = crate::runtime::support_macros();
    quote! {
        /// A string that a schema's `maxLength`, `minLength` or `pattern` constrains, checked
        /// on construction and on decoding. Each such type of the description is an alias of
        /// this one, `R` being its marker in `rules`, which holds its rules.
        pub struct CheckedString<R>(::std::string::String, ::std::marker::PhantomData<fn() -> R>);

        /// The rules of one `CheckedString` alias, as its schema states them.
        pub trait StringRules: AliasMarker {
            /// `maxLength`, in characters.
            const MAX: ::std::option::Option<usize> = ::std::option::Option::None;
            /// `minLength`, in characters.
            const MIN: ::std::option::Option<usize> = ::std::option::Option::None;
            /// `pattern`, as the schema writes it.
            const PATTERN: ::std::option::Option<&'static str> = ::std::option::Option::None;
        }

        /// The compiled `PATTERN`, on first use, kept for the life of the process: one per
        /// distinct pattern of the description, shared by every alias that states it, so an
        /// alias's rules are constants with no code of their own.
        fn compiled_pattern(source: &'static str) -> &'static #support::Pattern {
            static COMPILED: ::std::sync::Mutex<
                ::std::collections::BTreeMap<&'static str, &'static #support::Pattern>,
            > = ::std::sync::Mutex::new(::std::collections::BTreeMap::new());
            // A panic elsewhere cannot leave the map half-written: inserting is its one change.
            let mut compiled = COMPILED.lock().unwrap_or_else(::std::sync::PoisonError::into_inner);
            compiled.entry(source).or_insert_with(|| {
                // Generation compiled every pattern already; one that fails here is a bug.
                ::std::boxed::Box::leak(::std::boxed::Box::new(
                    #support::Pattern::new(source).expect("the generator checked this pattern"),
                ))
            })
        }

        use #macros::checked_string;

        impl<R: StringRules> ::std::str::FromStr for CheckedString<R> {
            type Err = self::error::ConversionError;
            fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
                // Generated crates may be on edition 2021: no `let` chains.
                if let ::std::option::Option::Some(max) = R::MAX {
                    if value.chars().count() > max {
                        return Err(#longer.into());
                    }
                }
                if let ::std::option::Option::Some(min) = R::MIN {
                    if value.chars().count() < min {
                        return Err(#shorter.into());
                    }
                }
                if let ::std::option::Option::Some(source) = R::PATTERN {
                    if !compiled_pattern(source).is_match(value) {
                        return Err(#unmatched.into());
                    }
                }
                Ok(Self(value.to_string(), ::std::marker::PhantomData))
            }
        }

        #(#impls)*

        // What typify derives for its newtype, written without bounds on the marker.
        impl<R> ::serde::Serialize for CheckedString<R> {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                serializer.serialize_str(&self.0)
            }
        }
        impl<R> ::std::clone::Clone for CheckedString<R> {
            fn clone(&self) -> Self {
                Self(self.0.clone(), ::std::marker::PhantomData)
            }
        }
        impl<R: AliasMarker> ::std::fmt::Debug for CheckedString<R> {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_tuple(R::NAME).field(&self.0).finish()
            }
        }
        impl<R> ::std::cmp::PartialEq for CheckedString<R> {
            fn eq(&self, other: &Self) -> bool {
                self.0 == other.0
            }
        }
        impl<R> ::std::cmp::Eq for CheckedString<R> {}
        impl<R> ::std::hash::Hash for CheckedString<R> {
            fn hash<H: ::std::hash::Hasher>(&self, state: &mut H) {
                self.0.hash(state);
            }
        }
        impl<R> ::std::cmp::PartialOrd for CheckedString<R> {
            fn partial_cmp(&self, other: &Self) -> ::std::option::Option<::std::cmp::Ordering> {
                ::std::option::Option::Some(self.cmp(other))
            }
        }
        impl<R> ::std::cmp::Ord for CheckedString<R> {
            fn cmp(&self, other: &Self) -> ::std::cmp::Ordering {
                self.0.cmp(&other.0)
            }
        }
    }
}

/// typify's impl `tokens`, written for `CheckedString<R>`, made generic over `R: StringRules`.
fn generic_over_rules(tokens: TokenStream) -> TokenStream {
    let mut block: syn::ItemImpl = syn::parse2(tokens).expect("typify's impls parse");
    block
        .generics
        .params
        .push(syn::parse_quote!(R: StringRules));
    block.to_token_stream()
}

/// The type an impl is for, when it is named by a bare identifier.
fn self_type_ident(block: &syn::ItemImpl) -> Option<String> {
    match &*block.self_ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            path.path.get_ident().map(|ident| ident.to_string())
        }
        _ => None,
    }
}

fn parse(tokens: TokenStream) -> Result<Vec<syn::Item>, Error> {
    syn::parse2::<syn::File>(tokens)
        .map(|file| file.items)
        .map_err(|error| Error::Syntax(format!("checked string: {error}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(node: &impl ToTokens) -> String {
        node.to_token_stream().to_string()
    }

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

    /// The items after the shared ones: what `fold_checked_strings` wrote for the description.
    fn folded(types: &[syn::Item]) -> Vec<String> {
        let shared = parse(shared_items()).unwrap().len();
        types[shared..].iter().map(tokens).collect()
    }

    fn from_str(body: TokenStream) -> syn::Item {
        syn::parse_quote! {
            impl ::std::str::FromStr for Title {
                type Err = self::error::ConversionError;
                fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> #body
            }
        }
    }

    #[test]
    fn a_typify_newtype_becomes_an_alias_in_its_place_and_a_marker_at_the_end() {
        let mut types = typify_newtype("Title");
        types.push(syn::parse_quote!(
            pub struct Other;
        ));
        fold_checked_strings(&mut types, FoldedEarly::default()).unwrap();
        let text = folded(&types);
        assert_eq!(
            text,
            [
                "pub type Title = CheckedString < rules :: Title > ;",
                "checked_string ! (Title , min 1) ;",
                "pub struct Other ;",
                "pub mod rules { pub enum Title { } }",
            ]
        );
    }

    /// `items` through [`EarlyFold`] and then [`fold_checked_strings`], as `emit` runs them.
    fn fold_early_then_late(items: Vec<syn::Item>) -> Result<Vec<syn::Item>, Error> {
        let mut early = EarlyFold::new();
        let mut types = Vec::new();
        for item in items {
            early.item(item, &mut types)?;
        }
        let folded = early.finish(&mut types)?;
        fold_checked_strings(&mut types, folded)?;
        Ok(types)
    }

    #[test]
    fn folding_early_gives_what_folding_the_whole_list_gives() {
        let other: syn::Item = syn::parse_quote!(
            pub struct Other;
        );
        let mut declined = typify_newtype("Plain");
        declined[3] = syn::parse_quote! {
            impl ::std::str::FromStr for Plain {
                type Err = self::error::ConversionError;
                fn from_str(value: &str) -> ::std::result::Result<Self, self::error::ConversionError> {
                    Ok(Self(value.to_string()))
                }
            }
        };
        let plain = tokens(&declined[0]);
        let mut items = typify_newtype("Title");
        items.push(other);
        items.extend(declined);
        items.extend(typify_newtype("Name"));
        let mut whole = items.clone();
        fold_checked_strings(&mut whole, FoldedEarly::default()).unwrap();
        let early = fold_early_then_late(items).unwrap();
        let text = |items: &[syn::Item]| items.iter().map(tokens).collect::<Vec<_>>();
        assert_eq!(text(&early), text(&whole));
        // The newtype without checks stays a struct with its impls; the other two fold.
        assert_eq!(
            folded(&early).last().map(String::as_str),
            Some("pub mod rules { pub enum Name { } pub enum Title { } }")
        );
        assert!(text(&early).contains(&plain));
    }

    #[test]
    fn an_impl_of_a_newtype_folded_early_met_later_is_refused() {
        // Folded as soon as `Other` comes; folding the whole list would have seen seven impls
        // and left the newtype alone.
        let mut items = typify_newtype("Title");
        items.push(syn::parse_quote!(
            pub struct Other;
        ));
        items.push(syn::parse_quote! {
            impl ::std::default::Default for Title {
                fn default() -> Self { Self(::std::string::String::new()) }
            }
        });
        let Err(error) = fold_early_then_late(items) else {
            panic!("a stray impl of a folded newtype went unnoticed");
        };
        let error = error.to_string();
        assert!(
            error.contains("`Title`") && error.contains("apart from"),
            "{error}"
        );
    }

    #[test]
    fn a_conversion_from_a_newtype_folded_early_into_a_union_is_kept() {
        // typify writes a union's `From<Variant>` after the union, which comes after the
        // newtype; through the alias it still compiles, so the fold keeps it as written.
        let mut items = typify_newtype("Title");
        items.push(syn::parse_quote!(
            pub enum Union {
                Title(Title),
            }
        ));
        let conversion: syn::Item = syn::parse_quote! {
            impl ::std::convert::From<Title> for Union {
                fn from(value: Title) -> Self { Self::Title(value) }
            }
        };
        items.push(conversion.clone());
        let folded = fold_early_then_late(items).expect("kept");
        assert!(
            folded
                .iter()
                .any(|item| tokens(item) == tokens(&conversion))
        );
    }

    #[test]
    fn typify_s_checks_become_arguments_and_others_leave_the_newtype_alone() {
        let max = contract::TypifyCheck::MaxLength
            .as_typify_writes("200")
            .unwrap();
        let pattern = contract::TypifyCheck::Pattern
            .as_typify_writes(r"^[\w.-]+$")
            .unwrap();
        let mut types = typify_newtype("Title");
        types[3] = from_str(quote!({ #max #pattern Ok(Self(value.to_string())) }));
        fold_checked_strings(&mut types, FoldedEarly::default()).unwrap();
        assert!(
            folded(&types)[1]
                .starts_with(r#"checked_string ! (Title , max 200 , pattern "^[\\w.-]+$") ;"#)
        );

        // A check typify does not write this way: the newtype stays as typify wrote it.
        let mut types = typify_newtype("Title");
        types[3] = from_str(quote!({
            if value.is_empty() {
                return Err("empty".into());
            }
            Ok(Self(value.to_string()))
        }));
        let before: Vec<String> = types.iter().map(tokens).collect();
        fold_checked_strings(&mut types, FoldedEarly::default()).unwrap();
        assert_eq!(types.iter().map(tokens).collect::<Vec<_>>(), before);
    }

    #[test]
    fn checks_in_another_order_than_typify_s_leave_the_newtype_alone() {
        // The generic `FromStr` runs them in typify's order; another order could report
        // another message for a value that fails two checks.
        let max = contract::TypifyCheck::MaxLength
            .as_typify_writes("200")
            .unwrap();
        let min = contract::TypifyCheck::MinLength
            .as_typify_writes("1")
            .unwrap();
        let mut types = typify_newtype("Title");
        types[3] = from_str(quote!({ #min #max Ok(Self(value.to_string())) }));
        let before: Vec<String> = types.iter().map(tokens).collect();
        fold_checked_strings(&mut types, FoldedEarly::default()).unwrap();
        assert_eq!(types.iter().map(tokens).collect::<Vec<_>>(), before);
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
        let tally = fold_checked_strings(&mut types, FoldedEarly::default()).unwrap();
        let after: Vec<String> = types.iter().map(tokens).collect();
        assert_eq!(before, after);
        // Passed over, and so reported.
        assert_eq!((tally.matched, tally.passed_over.len()), (0, 1));

        // typify's `Default` for a string with a `default` is a known shape: left, not reported.
        let mut types = typify_newtype("Title");
        types.push(syn::parse_quote! {
            impl ::std::default::Default for Title {
                fn default() -> Self {
                    Title("a".to_string())
                }
            }
        });
        let tally = fold_checked_strings(&mut types, FoldedEarly::default()).unwrap();
        assert_eq!((tally.matched, tally.passed_over.len()), (0, 0));
    }
}
