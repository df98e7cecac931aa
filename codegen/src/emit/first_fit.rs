//! First-fit unions decode through a `serde_json::Value`.
//!
//! typify writes a union nothing tags (an `anyOf`, which `normalize` hands on as `oneOf`
//! marked `x-any-of`, or a `oneOf`) as an untagged enum with a derived `Deserialize`. serde's
//! derive buffers the value in its own private `Content` and tries each member on that; but a
//! member that keeps the properties it does not list (its `UnknownFields`, of `RawJson`
//! values) can only be read from one of `serde_json`'s own deserializers, so such a member
//! would refuse every value that has a property of that kind. `normalize` gives every open
//! object member of a union such a map (so that no member drops what another lists), so every
//! such enum's derive is replaced by one `first_fit_union!` invocation, which calls the support
//! crate's `unions::first_fit`: the value is read once into a `serde_json::Value`, then each
//! member is tried on it in order, a unit variant taking `null`, exactly as serde's derive
//! tries them. The enum, its variants and `Serialize` stay typify's; typify's conversion of
//! each member into the union (`From`) is written by the invocation (the member is marked
//! `From`), the same impl in one word instead of six lines.
//!
//! The derive drops `oneOf`'s rule that exactly one member matches; the invocation keeps it.
//! A `oneOf` whose members a value could match two of is invoked `OneOf`, so strict decoding
//! tries every member and refuses a value two take; an `anyOf`, or a `oneOf` of members of
//! distinct JSON types, is invoked `AnyOf` and stops at the first that fits.
//!
//! An untagged enum with a variant of another shape (typify writes an inline object member
//! as a struct variant) keeps serde's derive, and is reported.

use proc_macro2::TokenStream;
use quote::quote;

use super::{Item, PassedOver, Tally};
use crate::Error;
use crate::contract::typify_output;

/// What a first-fit union's schema says of a value that several members take: the invocation's
/// first word, the support crate's `unions::Overlap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Overlap {
    /// Admitted: an `anyOf`, or a `oneOf` of members of distinct JSON types.
    AnyOf,
    /// Refused by strict decoding: a `oneOf`.
    OneOf,
}

/// The schema of an untagged enum, by the enum's name: where it is, and [`Overlap`].
pub(super) type UnionSchema = (String, Overlap);

/// Replaces the derived `Deserialize` of every first-fit union in `types` with one
/// invocation of the support crate's `first_fit_union!`, imported into `types`.
/// `schema_of` gives each enum's schema; an enum it does not know decodes as an `anyOf`, and
/// is reported, as exclusivity its schema may state is not enforced.
pub(super) fn decode_first_fit_unions(
    types: &mut Vec<syn::Item>,
    schema_of: impl Fn(&str) -> Option<UnionSchema>,
) -> Result<Tally, Error> {
    let mut tally = Tally::default();
    let mut invocations = Vec::new();
    // typify's `From` of each member with a type of its own, written by the invocation
    // instead: six lines each, one of the larger shares of a crate's lines.
    let conversions: std::collections::BTreeSet<(String, String)> = types
        .iter()
        .filter_map(typify_output::member_conversion)
        .map(|(union, variant)| (union, variant.to_string()))
        .collect();
    let mut folded = std::collections::BTreeSet::new();
    for item in types.iter_mut() {
        let syn::Item::Enum(enumeration) = item else {
            continue;
        };
        let name = enumeration.ident.clone();
        let schema = schema_of(&name.to_string());
        let (item, overlap) = match schema.clone() {
            Some((pointer, overlap)) => (Item::Schema(pointer), overlap),
            None => (Item::Type(name.to_string()), Overlap::AnyOf),
        };
        match typify_output::untagged_enum_variants(enumeration) {
            None => {}
            Some(Err(why)) => tally.passed_over.push(PassedOver {
                item,
                message: format!(
                    "untagged enum `{name}`: {why}, so it keeps serde's derived decoder, in which a member that keeps unknown properties refuses them{}",
                    if overlap == Overlap::OneOf {
                        ", and a value two members of its `oneOf` take is not refused"
                    } else {
                        ""
                    }
                ),
            }),
            Some(Ok(variants)) => {
                if schema.is_none() {
                    tally.passed_over.push(PassedOver {
                        item,
                        message: format!(
                            "untagged enum `{name}` matches no schema, so it decodes the first member that fits, and a value two members of a `oneOf` take is not refused"
                        ),
                    });
                }
                super::tolerance::retain_derives(&mut enumeration.attrs, |derive| {
                    !typify_output::is_deserialize_derive(derive)
                })
                .map_err(|why| Error::Mismatch(format!("untagged enum `{name}`: {why}")))?;
                let variants = variants.iter().map(|(variant, inner)| {
                    let key = (name.to_string(), variant.to_string());
                    match inner {
                        Some(inner) if conversions.contains(&key) => {
                            folded.insert(key);
                            quote! { #variant(#inner, From) }
                        }
                        Some(inner) => quote! { #variant(#inner) },
                        None => quote! { #variant },
                    }
                });
                let overlap = match overlap {
                    Overlap::AnyOf => quote! { AnyOf },
                    Overlap::OneOf => quote! { OneOf },
                };
                invocations.push(quote! { first_fit_union!(#overlap #name { #(#variants),* }); });
                tally.matched += 1;
            }
        }
    }
    if invocations.is_empty() {
        return Ok(tally);
    }
    types.retain(|item| {
        typify_output::member_conversion(item)
            .is_none_or(|(union, variant)| !folded.contains(&(union, variant.to_string())))
    });
    let parse = |tokens: TokenStream| {
        syn::parse2::<syn::File>(tokens)
            .map(|file| file.items)
            .map_err(|error| Error::Syntax(format!("first-fit unions: {error}")))
    };
    types.splice(0..0, parse(first_fit_support())?);
    types.extend(parse(quote! { #(#invocations)* })?);
    Ok(tally)
}

/// The support crate's `first_fit_union!(OneOf Name { Variant(Type), Other(Type, From), Unit,
/// ... })` (the `Deserialize` of a first-fit union, its members tried in order on the value
/// read once, and the `From` conversions typify writes) and the module its invocations call.
fn first_fit_support() -> TokenStream {
    let support = crate::runtime::support_crate();
    let macros = crate::runtime::support_macros();
    quote! {
        use #macros::first_fit_union;
        use #support::unions;
    }
}

#[cfg(test)]
mod tests {
    use quote::ToTokens;

    use super::*;

    fn rewritten(items: Vec<syn::Item>) -> (Vec<String>, Tally) {
        let mut types = items;
        let tally = decode_first_fit_unions(&mut types, |name| {
            (name == "Body").then(|| ("/components/schemas/Body".to_owned(), Overlap::OneOf))
        })
        .unwrap();
        let texts = types
            .iter()
            .map(|item| item.to_token_stream().to_string())
            .collect();
        (texts, tally)
    }

    #[test]
    fn an_untagged_enum_decodes_through_one_invocation_and_keeps_its_other_derives() {
        let (items, tally) = rewritten(vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize, Clone, Debug, PartialEq)]
                #[serde(untagged)]
                pub enum Body { Variant0(ErrorDto), Variant1(::std::string::String), Variant2 }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                pub struct ErrorDto { pub a: i64 }
            },
        ]);
        assert_eq!(tally.matched, 1);
        assert!(tally.passed_over.is_empty());
        // The support crate's macro, and the module its invocations call.
        assert_eq!(items[0], "use :: hub_api_support :: first_fit_union ;");
        assert_eq!(items[1], "use :: hub_api_support :: unions ;");
        let body = items
            .iter()
            .find(|item| item.contains("enum Body"))
            .unwrap();
        assert!(
            body.contains("derive (:: serde :: Serialize , Clone , Debug , PartialEq)"),
            "{body}"
        );
        assert!(body.contains("serde (untagged)"), "{body}");
        let structure = items.iter().find(|item| item.contains("struct ErrorDto"));
        assert!(
            structure.unwrap().contains("Deserialize"),
            "other items are left alone"
        );
        assert_eq!(
            items.last().unwrap(),
            "first_fit_union ! (OneOf Body { Variant0 (ErrorDto) , Variant1 (:: std :: string :: String) , Variant2 }) ;"
        );
    }

    #[test]
    fn typify_s_member_conversions_are_written_by_the_invocation() {
        let (items, _) = rewritten(vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                #[serde(untagged)]
                pub enum Body { Variant0(ErrorDto), Variant1(i64), Variant2(i64) }
            },
            syn::parse_quote! {
                impl ::std::convert::From<ErrorDto> for Body {
                    fn from(value: ErrorDto) -> Self {
                        Self::Variant0(value)
                    }
                }
            },
            // Another shape is not typify's conversion, and stays.
            syn::parse_quote! {
                impl ::std::convert::From<bool> for Body {
                    fn from(value: bool) -> Self {
                        Self::Variant1(i64::from(value))
                    }
                }
            },
        ]);
        assert_eq!(
            items.last().unwrap(),
            "first_fit_union ! (OneOf Body { Variant0 (ErrorDto , From) , Variant1 (i64) , Variant2 (i64) }) ;"
        );
        let conversions: Vec<_> = items
            .iter()
            .filter(|item| item.starts_with("impl :: std :: convert :: From"))
            .collect();
        assert_eq!(conversions.len(), 1);
        assert!(conversions[0].contains("From < bool >"), "{conversions:?}");
    }

    #[test]
    fn an_enum_of_no_known_schema_decodes_first_fit_and_is_reported() {
        let mut types = vec![syn::parse_quote! {
            #[derive(::serde::Deserialize, ::serde::Serialize)]
            #[serde(untagged)]
            pub enum Stray { Variant0(i64), Variant1(f64) }
        }];
        let tally = decode_first_fit_unions(&mut types, |_| None).unwrap();
        assert_eq!(tally.matched, 1);
        assert_eq!(
            types.last().unwrap().to_token_stream().to_string(),
            "first_fit_union ! (AnyOf Stray { Variant0 (i64) , Variant1 (f64) }) ;"
        );
        assert_eq!(tally.passed_over.len(), 1);
        assert!(
            tally.passed_over[0]
                .message
                .starts_with("untagged enum `Stray` matches no schema"),
            "{}",
            tally.passed_over[0].message
        );
    }

    #[test]
    fn an_enum_of_another_shape_keeps_its_derive_and_is_reported() {
        let (items, tally) = rewritten(vec![
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                #[serde(untagged)]
                pub enum Inline { Variant0 { a: i64 }, Variant1(i64) }
            },
            syn::parse_quote! {
                #[derive(::serde::Deserialize, ::serde::Serialize)]
                #[serde(tag = "kind")]
                pub enum Tagged { A(i64) }
            },
        ]);
        assert_eq!(tally.matched, 0);
        assert_eq!(items.len(), 2, "no macro without an invocation");
        assert!(items[0].contains(":: serde :: Deserialize"), "{}", items[0]);
        assert_eq!(tally.passed_over.len(), 1);
        assert!(
            tally.passed_over[0]
                .message
                .starts_with("untagged enum `Inline`: variant `Variant0` is not a newtype"),
            "{}",
            tally.passed_over[0].message
        );
    }
}
