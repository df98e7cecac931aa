//! The `webhooks` module: the requests the API sends to a receiver of the user's, one variant
//! of `Webhook` per webhook, holding its body decoded into its generated type, and
//! `Webhook::decode(name, body)`. It is written from the root's `x-webhook-bodies` mark (see
//! `normalize`'s `webhooks`); the decoding itself is the support crate's (`webhooks`).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde_json::Value;

use crate::Error;
use crate::model::{mark, push};

/// The module, or `None` when the description has no webhooks.
pub(crate) fn webhooks_module(document: &Value) -> Result<Option<TokenStream>, Error> {
    let Some(webhooks) = document.get(mark::WEBHOOKS).and_then(Value::as_object) else {
        return Ok(None);
    };
    if webhooks.is_empty() {
        return Ok(None);
    }
    let mut taken = std::collections::BTreeSet::new();
    let mut variants = Vec::new();
    let mut decoders = Vec::new();
    let mut names = Vec::new();
    for (index, (name, webhook)) in webhooks.iter().enumerate() {
        let variant = variant_name(name, index, &mut taken);
        let doc = variant_doc(name, webhook);
        let (payload, decode) = body(name, webhook)?;
        variants.push(match &payload {
            Some(payload) => quote! { #[doc = #doc] #variant(#payload), },
            None => quote! { #[doc = #doc] #variant, },
        });
        decoders.push(match decode {
            Some(decode) => quote! { #name => Self::#variant(#decode), },
            None => quote! { #name => Self::#variant, },
        });
        names.push(match payload {
            Some(_) => quote! { Self::#variant(_) => #name, },
            None => quote! { Self::#variant => #name, },
        });
    }
    let listed = webhooks.keys();
    let support = crate::runtime::support_crate();
    Ok(Some(quote! {
        /// The requests the API sends to a receiver of yours (the description's `webhooks`),
        /// each webhook's body decoded into its generated type. Decoding is tolerant, as for a
        /// response; inside [`decoding::strict`](super::decoding::strict) it accepts exactly
        /// what the description accepts.
        pub mod webhooks {
            pub use #support::webhooks::WebhookError;
            #[allow(unused_imports)]
            use #support::webhooks::json_body;

            /// A request the API sends, by webhook, with its body.
            #[derive(Clone, Debug, PartialEq)]
            pub enum Webhook {
                #(#variants)*
            }

            impl Webhook {
                /// The webhooks' names, in the description's order.
                pub const NAMES: &'static [&'static str] = &[#(#listed),*];

                /// Decodes the body of a request the API sent to the webhook `name`.
                pub fn decode(name: &str, body: &[u8]) -> ::std::result::Result<Self, WebhookError> {
                    ::std::result::Result::Ok(match name {
                        #(#decoders)*
                        _ => return ::std::result::Result::Err(WebhookError::unknown(name, Self::NAMES)),
                    })
                }

                /// The webhook's name, as the description writes it.
                pub fn name(&self) -> &'static str {
                    match self {
                        #(#names)*
                    }
                }
            }
        }
    }))
}

/// The webhook's variant: its name in typify's spelling, numbered when an earlier webhook's
/// takes it, or `Webhook<i>` for a name without a letter or digit.
fn variant_name(
    name: &str,
    index: usize,
    taken: &mut std::collections::BTreeSet<String>,
) -> syn::Ident {
    let base = if name.chars().any(char::is_alphanumeric) {
        crate::contract::typify_name(name)
    } else {
        format!("Webhook{index}")
    };
    let unique = crate::normalize::unique_name(&base, taken);
    taken.insert(unique.clone());
    format_ident!("{unique}")
}

/// `` `name` (`POST`): `` and the first paragraph of the webhook's description.
fn variant_doc(name: &str, webhook: &Value) -> String {
    let method = webhook
        .get("method")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_ascii_uppercase();
    let description = webhook
        .get("description")
        .and_then(Value::as_str)
        .and_then(|text| text.split("\n\n").next())
        .map(|text| text.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    if description.is_empty() {
        format!("`{name}` (`{method}`).")
    } else {
        format!("`{name}` (`{method}`): {description}")
    }
}

/// The variant's payload type and the expression that decodes `body` into it: the body's
/// component type; the bytes of a body that is not JSON; nothing for a webhook without a body.
fn body(name: &str, webhook: &Value) -> Result<(Option<TokenStream>, Option<TokenStream>), Error> {
    if webhook.get("media").is_some() {
        return Ok((
            Some(quote!(::std::vec::Vec<u8>)),
            Some(quote!(body.to_vec())),
        ));
    }
    let Some(body) = webhook.get("body") else {
        return Ok((None, None));
    };
    let Some(component) = body
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(crate::model::schema_ref_name)
    else {
        let payload = quote!(::serde_json::Value);
        return Ok((Some(payload), Some(quote!(json_body(#name, body)?))));
    };
    // The body is a use of its component, so a variant of a tagged union keeps its tag
    // (`patch::unions`) and its own type decodes the whole body.
    let component = crate::model::unescape(component);
    let payload =
        crate::contract::rust_ident(&component, &push("/components/schemas", &component))?;
    Ok((
        Some(quote!(super::types::#payload)),
        Some(quote!(json_body(#name, body)?)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_named_once_and_documented_by_their_first_paragraph() {
        let mut taken = Default::default();
        assert_eq!(
            variant_name("batch_cancelled", 0, &mut taken),
            "BatchCancelled"
        );
        assert_eq!(
            variant_name("batch-cancelled", 1, &mut taken),
            "BatchCancelled2"
        );
        assert_eq!(variant_name("+", 2, &mut taken), "Webhook2");
        let webhook = serde_json::json!({"method": "post", "description": "Sent when\na batch ends.\n\nMore."});
        assert_eq!(
            variant_doc("batch_cancelled", &webhook),
            "`batch_cancelled` (`POST`): Sent when a batch ends."
        );
    }
}
