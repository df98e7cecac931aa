//! Arrays: `bounded_array`, item counts and unique items, which typify drops.

use super::{expect_type, number, only_keywords, value_checks};
use crate::Error;
use crate::patch::{Applied, Target, rust_type_of};
use crate::rules::Subject;
use progenitor::TypeImpl;
use quote::quote;
use serde_json::Value;

pub(crate) fn bounded_array(target: &Target<'_>, applied: &mut Applied) -> Result<(), Error> {
    expect_type(target, "array")?;
    only_keywords(target, &["minItems", "maxItems", "uniqueItems", "items"])?;
    let item_type = rust_type_of(
        target.schema.get("items").unwrap_or(&Value::Null),
        target,
        "`items`",
    )?;
    let min = number(target, "minItems")?.unwrap_or(0);
    let max = number(target, "maxItems")?;
    let min = usize::try_from(min).map_err(|_| target.error("`minItems` out of range"))?;
    let max = max
        .map(usize::try_from)
        .transpose()
        .map_err(|_| target.error("`maxItems` out of range"))?;
    // `uniqueItems: false` says nothing, so it is no keyword to read a rule from.
    let unique = target.schema.get("uniqueItems") == Some(&Value::Bool(true));
    let keywords: &[&str] = if unique {
        &["minItems", "maxItems", "uniqueItems"]
    } else {
        &["minItems", "maxItems"]
    };
    let (checks, _) = value_checks(
        target,
        Subject::Items,
        quote! { items.len() },
        keywords,
        &mut applied.shared,
    )?;
    let ident = &target.ident;
    let mut rules = match max {
        Some(max) if min > 0 => format!("{min} to {max} items"),
        Some(max) => format!("at most {max} items"),
        None if min == 0 && unique => String::new(),
        None => format!("at least {min} item{}", if min == 1 { "" } else { "s" }),
    };
    if unique {
        rules.push_str(if rules.is_empty() {
            "unique items"
        } else {
            ", unique"
        });
    }
    let doc = target.doc(&rules);
    let checks_doc = if unique {
        " Checks the items: their number, and that no two are equal."
    } else {
        " Checks the number of items."
    };
    let default_impl = (min == 0).then(|| {
        quote! {
            impl ::std::default::Default for #ident {
                fn default() -> Self {
                    Self(::std::vec::Vec::new())
                }
            }
        }
    });
    let item = quote! {
        #doc
        #[derive(Clone, Debug, PartialEq)]
        pub struct #ident(::std::vec::Vec<#item_type>);
        impl #ident {
            #[doc = #checks_doc]
            pub fn new(items: ::std::vec::Vec<#item_type>) -> ::std::result::Result<Self, ValidationError> {
                #(#checks)*
                Ok(Self(items))
            }
            /// The items.
            pub fn into_inner(self) -> ::std::vec::Vec<#item_type> {
                self.0
            }
        }
        #default_impl
        impl ::std::ops::Deref for #ident {
            type Target = [#item_type];
            fn deref(&self) -> &[#item_type] {
                &self.0
            }
        }
        impl ::std::convert::TryFrom<::std::vec::Vec<#item_type>> for #ident {
            type Error = ValidationError;
            fn try_from(items: ::std::vec::Vec<#item_type>) -> ::std::result::Result<Self, ValidationError> {
                Self::new(items)
            }
        }
        impl ::std::convert::From<#ident> for ::std::vec::Vec<#item_type> {
            fn from(value: #ident) -> Self {
                value.0
            }
        }
        impl<'a> ::std::iter::IntoIterator for &'a #ident {
            type Item = &'a #item_type;
            type IntoIter = ::std::slice::Iter<'a, #item_type>;
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }
        impl ::serde::Serialize for #ident {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                self.0.serialize(serializer)
            }
        }
        impl<'de> ::serde::Deserialize<'de> for #ident {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                let items = ::std::vec::Vec::<#item_type>::deserialize(deserializer)?;
                Self::new(items).map_err(::serde::de::Error::custom)
            }
        }
    };
    let impls = if min == 0 {
        vec![TypeImpl::Default]
    } else {
        Vec::new()
    };
    target.replace(applied, item, impls);
    Ok(())
}
