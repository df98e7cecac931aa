//! The tuple patch: a `prefixItems` tuple (down-levelled `x-prefixItems`), which 3.0 and so
//! progenitor cannot express, becomes a tuple struct with one field per position.
//!
//! Positions the array must have (below `minItems`) are plain fields, the others `Option`s;
//! when items may follow the tuple (no `items: false`, a `maxItems` beyond its length) a last
//! `Vec` field holds them, of the `items` type or any JSON value. Decoding checks each position's
//! type and the counts (a tolerant tuple skips items after a closed tuple unless decoding is
//! strict, as a tolerant closed object skips unknown properties); encoding refuses what JSON cannot say (a position left empty before a
//! filled one) and counts the schema refuses, so the hub never receives a tuple it would reject.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use super::newtypes::{number, only_keywords};
use super::{Applied, Target, rust_type_of};
use crate::Error;
use crate::model::mark;

/// The shape of a tuple, read from its schema.
struct Shape {
    /// The Rust type of each position, in order.
    positions: Vec<TokenStream>,
    /// How many positions every value has (the rest are `Option`s).
    required: usize,
    /// The items after the tuple, when any may follow: their type and how many at least and at
    /// most.
    rest: Option<(TokenStream, usize, Option<usize>)>,
}

fn shape(target: &Target<'_>) -> Result<Shape, Error> {
    only_keywords(
        target,
        &[mark::PREFIX_ITEMS, "items", "minItems", "maxItems"],
    )?;
    if target
        .schema
        .get("type")
        .is_some_and(|kind| kind.as_str() != Some("array"))
    {
        return Err(target.error("a tuple is an array"));
    }
    let members = target
        .schema
        .get(mark::PREFIX_ITEMS)
        .and_then(Value::as_array)
        .ok_or_else(|| target.error("expected `x-prefixItems`, a list of schemas"))?;
    let count = |keyword: &str| -> Result<Option<usize>, Error> {
        number(target, keyword)?
            .map(|count| {
                usize::try_from(count)
                    .map_err(|_| target.error(format!("`{keyword}` out of range")))
            })
            .transpose()
    };
    let min = count("minItems")?.unwrap_or(0);
    let max = count("maxItems")?;
    // Positions at or beyond `maxItems` can never be filled.
    let length = members.len().min(max.unwrap_or(usize::MAX));
    let positions = members[..length]
        .iter()
        .enumerate()
        .map(|(index, member)| rust_type_of(member, target, &format!("position {index}")))
        .collect::<Result<Vec<_>, _>>()?;
    let rest = match max {
        Some(max) if max <= length => None,
        max => {
            let item = match target.schema.get("items") {
                Some(items) => rust_type_of(items, target, "`items`")?,
                None => quote! { ::serde_json::Value },
            };
            Some((
                item,
                min.saturating_sub(length),
                max.map(|max| max - length),
            ))
        }
    };
    if rest.is_none() && min > length {
        return Err(target.error(format!(
            "`minItems` {min} exceeds the {length} items the tuple can hold: no value meets it"
        )));
    }
    Ok(Shape {
        required: min.min(length),
        positions,
        rest,
    })
}

impl Shape {
    fn length(&self) -> usize {
        self.positions.len()
    }

    /// How many items a value has at least and at most (`usize::MAX`: no upper bound).
    fn counts(&self) -> (usize, usize) {
        let least = self.required + self.rest.as_ref().map_or(0, |(_, min, _)| *min);
        let most = match &self.rest {
            None => Some(self.length()),
            Some((_, _, max)) => max.map(|max| self.length() + max),
        };
        (least, most.unwrap_or(usize::MAX))
    }
}

pub(super) fn tuple(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
    let shape = shape(target)?;
    let ident = &target.ident;
    let fields: Vec<TokenStream> = shape
        .positions
        .iter()
        .enumerate()
        .map(|(position, ty)| {
            if position < shape.required {
                quote! { pub #ty }
            } else {
                quote! { pub ::std::option::Option<#ty> }
            }
        })
        .chain(
            shape
                .rest
                .iter()
                .map(|(item, ..)| quote! { pub ::std::vec::Vec<#item> }),
        )
        .collect();
    let (least, most) = shape.counts();
    let counts = counted(least, most);
    let length = shape.length();
    let rules = match &shape.rest {
        None => format!("a tuple of {counts}"),
        Some(_) => format!(
            "a tuple of {length} position{} then more items, {counts} in all",
            if length == 1 { "" } else { "s" }
        ),
    };
    let doc = target.doc(&rules);
    let serialize = serialize_impl(target, &shape);
    let deserialize = deserialize_impl(target, &shape);
    let item = quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub struct #ident(#(#fields),*);
        #serialize
        #deserialize
    };
    target.replace(applied, item, Vec::new());
    Ok(())
}

/// Decoding: every required position must be there, then optional ones while they last, then
/// the rest (or nothing, for a closed tuple).
fn deserialize_impl(target: &Target<'_>, shape: &Shape) -> TokenStream {
    let is_strict = crate::runtime::is_strict();
    let ident = &target.ident;
    let length = shape.length();
    let locals: Vec<syn::Ident> = (0..length)
        .map(|position| format_ident!("position{position}"))
        .collect();
    let reads = shape.positions.iter().zip(&locals).enumerate().map(|(position, (ty, local))| {
        if position < shape.required {
            quote! {
                let #local = seq.next_element::<#ty>()?.ok_or_else(|| A::Error::invalid_length(#position, &self))?;
            }
        } else {
            quote! { let #local = seq.next_element::<#ty>()?; }
        }
    });
    let (read_rest, rest_local) = match &shape.rest {
        Some((item, min, max)) => {
            let too_few = (*min > 0).then(|| {
                quote! {
                    if rest.len() < #min {
                        return Err(A::Error::invalid_length(#length + rest.len(), &self));
                    }
                }
            });
            let too_many = max.map(|max| {
                quote! {
                    if rest.len() > #max {
                        return Err(A::Error::invalid_length(#length + rest.len(), &self));
                    }
                }
            });
            (
                quote! {
                    let mut rest = ::std::vec::Vec::new();
                    while let Some(item) = seq.next_element::<#item>()? {
                        rest.push(item);
                    }
                    #too_few
                    #too_many
                },
                quote! { rest },
            )
        }
        None => {
            // Like an unknown property of a tolerant closed object, an item a newer hub adds
            // after a closed tuple is skipped, unless decoding is strict.
            let refused = if target.tolerant {
                quote! { extra > 0 && #is_strict }
            } else {
                quote! { extra > 0 }
            };
            (
                quote! {
                    let mut extra = 0;
                    while seq.next_element::<::serde::de::IgnoredAny>()?.is_some() {
                        extra += 1;
                    }
                    if #refused {
                        return Err(A::Error::invalid_length(#length + extra, &self));
                    }
                },
                TokenStream::new(),
            )
        }
    };
    let built = locals
        .iter()
        .map(|local| quote! { #local })
        .chain((!rest_local.is_empty()).then_some(rest_local));
    // The trait is in scope only where a missing position or a count can be refused.
    let refuses = shape.required > 0
        || shape
            .rest
            .as_ref()
            .is_none_or(|(_, min, max)| *min > 0 || max.is_some());
    let error_trait = refuses.then(|| quote! { use ::serde::de::Error as _; });
    let (least, most) = shape.counts();
    let expecting = format!(
        "a `{}` tuple: an array of {}",
        target.name,
        counted(least, most)
    );
    quote! {
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                struct Visitor;
                impl<'de> ::serde::de::Visitor<'de> for Visitor {
                    type Value = #ident;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str(#expecting)
                    }
                    fn visit_seq<A: ::serde::de::SeqAccess<'de>>(self, mut seq: A) -> ::std::result::Result<#ident, A::Error> {
                        #error_trait
                        #(#reads)*
                        #read_rest
                        Ok(#ident(#(#built),*))
                    }
                }
                deserializer.deserialize_seq(Visitor)
            }
        }
    }
}

/// Encoding: an empty optional position ends the array, so nothing may follow it; the items
/// after the tuple are counted as the schema counts them.
fn serialize_impl(target: &Target<'_>, shape: &Shape) -> TokenStream {
    let ident = &target.ident;
    let length = shape.length();
    let required = shape.required;
    let index = |position: usize| syn::Index::from(position);
    let gap = format!(
        "a `{}` position is empty but a later one is filled: JSON cannot leave a position out",
        target.name
    );
    let writes = (0..length).map(|position| {
        let field = index(position);
        if position < required {
            quote! { seq.serialize_element(&self.#field)?; }
        } else {
            quote! {
                if let Some(value) = &self.#field {
                    seq.serialize_element(value)?;
                }
            }
        }
    });
    let filled: Vec<TokenStream> = (required..length)
        .map(|position| {
            let field = index(position);
            quote! { self.#field.is_some() }
        })
        .chain(shape.rest.iter().map(|_| {
            let field = index(length);
            quote! { !self.#field.is_empty() }
        }))
        .collect();
    let gap_check = (filled.len() > 1).then(|| {
        quote! {
            if [#(#filled),*].windows(2).any(|pair| !pair[0] && pair[1]) {
                return Err(S::Error::custom(#gap));
            }
        }
    });
    let write_rest = shape.rest.as_ref().map(|(_, min, max)| {
        let field = index(length);
        let max = max.unwrap_or(usize::MAX);
        let message = format!(
            "a `{}` must have {} after its {length} positions; got {{}}",
            target.name,
            counted(*min, max)
        );
        let too_few = (*min > 0).then(|| quote! { self.#field.len() < #min });
        let too_many = (max < usize::MAX).then(|| quote! { self.#field.len() > #max });
        let broken: Vec<TokenStream> = too_few.into_iter().chain(too_many).collect();
        let bounds = (!broken.is_empty()).then(|| {
            quote! {
                if #(#broken)||* {
                    return Err(S::Error::custom(::std::format!(#message, self.#field.len())));
                }
            }
        });
        quote! {
            #bounds
            for item in &self.#field {
                seq.serialize_element(item)?;
            }
        }
    });
    // The trait is in scope only where a gap or a count can be refused.
    let refuses = gap_check.is_some()
        || shape
            .rest
            .as_ref()
            .is_some_and(|(_, min, max)| *min > 0 || max.is_some());
    let error_trait = refuses.then(|| quote! { use ::serde::ser::Error as _; });
    // The tuple of no positions (`items: false`) writes nothing into its array.
    let seq = if length == 0 && shape.rest.is_none() {
        quote! { seq }
    } else {
        quote! { mut seq }
    };
    quote! {
        impl ::serde::Serialize for #ident {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                use ::serde::ser::SerializeSeq as _;
                #error_trait
                #gap_check
                let #seq = serializer.serialize_seq(None)?;
                #(#writes)*
                #write_rest
                seq.end()
            }
        }
    }
}

/// `2 items`, `1 to 3 items`, `at least 2 items`, `no items` (`usize::MAX` is no upper bound).
fn counted(least: usize, most: usize) -> String {
    let noun = |count: usize| if count == 1 { "item" } else { "items" };
    match (least, most) {
        (0, 0) => "no items".to_owned(),
        (least, most) if least == most => format!("{least} {}", noun(least)),
        (0, usize::MAX) => "any number of items".to_owned(),
        (least, usize::MAX) => format!("at least {least} {}", noun(least)),
        (0, most) => format!("at most {most} {}", noun(most)),
        (least, most) => format!("{least} to {most} items"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_worded_as_a_reader_says_them() {
        assert_eq!(counted(0, 0), "no items");
        assert_eq!(counted(1, 1), "1 item");
        assert_eq!(counted(2, 2), "2 items");
        assert_eq!(counted(0, usize::MAX), "any number of items");
        assert_eq!(counted(1, usize::MAX), "at least 1 item");
        assert_eq!(counted(0, 3), "at most 3 items");
        assert_eq!(counted(1, 3), "1 to 3 items");
    }
}
