//! Step 5e: every operation's response handling as a table for one shared function.
//!
//! progenitor ends each operation (a positional method, or a builder's `send`) with the same
//! statements: the `pre`, `exec` and `post` hooks, then a `match` on the status whose arms read
//! the body as JSON, as nothing or as a stream, into `Ok` or `Err(Error::ErrorResponse(..))`
//! ([`crate::contract::ProgenitorSend`], [`crate::contract::ProgenitorReply`]). Written out per
//! operation, that is an async body of three hook calls and one arm per status for the compiler
//! to check, which was a tenth of a large generated crate's `cargo check` time. This step
//! replaces those statements with one call:
//!
//! ```text
//! send(self, request, "list_models", Json(&[(200, 200)]), Json(&[(400, 499)])).await
//! ```
//!
//! where `send` (written once, in the support code's `reply` module; the readers and the
//! operation's return type pick how and into what the body is read) runs the same hooks in
//! the same order and tries the success ranges, then the error ranges, as progenitor's arms
//! are ordered; any other status is `Error::UnexpectedResponse`, as progenitor's catch-all. Signatures, behaviour and
//! errors are unchanged.
//!
//! An operation whose statements or arms are not exactly progenitor's known shape (a WebSocket
//! upgrade, hooks set in the generation settings) keeps progenitor's code: the table is a size
//! optimisation, and nothing is lost by skipping it.

use proc_macro2::TokenStream;
use quote::quote;

use crate::contract::progenitor_output::{self, CLIENT_TYPE, Operation, OperationShape};
use crate::contract::{BodyRead, ProgenitorSend};

/// The support code's module of `send` and the body readers, whose items are imported at the
/// root of the generated code.
const MODULE: &str = "reply";

/// Rewrites every operation of `file` whose response handling is progenitor's known shape, and
/// imports `send` and the readers from the support code's `reply` module when any was. The
/// tally counts the operations rewritten and names each one passed over: neither that shape
/// nor a WebSocket upgrade (which keeps progenitor's code by design).
pub(super) fn share_response_handling(file: &mut syn::File) -> super::Tally {
    let mut passed_over = Vec::new();
    let rewritten = super::change_methods(
        &mut file.items,
        &TokenStream::new(),
        &mut |function, root| {
            let tail = match progenitor_output::read_operation(function) {
                OperationShape::Known(operation) => shared_send(operation, root),
                OperationShape::Unknown => None,
                OperationShape::NotAnOperation | OperationShape::Upgrade => return false,
            };
            match tail {
                Some(tail) => replace_tail(function, tail),
                None => {
                    passed_over.push(super::PassedOver::of_method(
                        &function.sig.ident.to_string(),
                        format!(
                            "operation method `{}`: its response handling is not progenitor's known shape, so it keeps progenitor's code",
                            function.sig.ident
                        ),
                    ));
                    false
                }
            }
        },
    );
    if rewritten > 0 {
        let module = syn::Ident::new(MODULE, proc_macro2::Span::call_site());
        let support = crate::runtime::support_crate();
        // Private to the generated module (and its `builder`, as `super::send`); a crate may
        // read no body as `Stream`, or every body.
        file.items.push(syn::parse_quote! {
            #[allow(unused_imports)]
            use #support::#module::{send, Empty, Json, Stream};
        });
        hooks_on_the_client(&mut file.items);
    }
    super::Tally {
        matched: rewritten,
        passed_over,
    }
}

/// Moves progenitor's own `impl ClientHooks<()> for &Client {}` (written when the generation
/// settings leave the hooks to it) onto `Client`, where a crate that brings its own hooks
/// implements them (progenitor asserts `Client: ClientHooks<_>`), so `send` takes `&Client`
/// whoever wrote the impl. progenitor's own calls (`client.pre(..)`, on `&Client`)
/// find it either way.
fn hooks_on_the_client(items: &mut [syn::Item]) {
    for item in items {
        let syn::Item::Impl(block) = item else {
            continue;
        };
        let is_hooks = block.trait_.as_ref().is_some_and(|(_, path, _)| {
            path.segments
                .last()
                .is_some_and(|last| last.ident == "ClientHooks")
        });
        if let syn::Type::Reference(reference) = &*block.self_ty
            && is_hooks
            && block.items.is_empty()
            && matches!(&*reference.elem, syn::Type::Path(path) if path.path.is_ident(CLIENT_TYPE))
        {
            block.self_ty = reference.elem.clone();
        }
    }
}

/// The `send(..).await` call that stands for an operation's statements from `let info` on, or
/// `None` when its result types do not fit how its arms read the body.
fn shared_send(operation: Operation<'_>, root: &TokenStream) -> Option<TokenStream> {
    let success = reader(operation.success_body, operation.success_type)?;
    let failure = reader(operation.failure_body, operation.error_type)?;
    let (success_table, failure_table) = (table(&operation.success), table(&operation.failure));
    let operation_id = operation.operation_id;
    let ProgenitorSend {
        client, request, ..
    } = operation.send;
    Some(quote! {
        #root send(
            #client,
            #request,
            #operation_id,
            #root #success(&[#(#success_table),*]),
            #root #failure(&[#(#failure_table),*]),
        ).await
    })
}

/// The reader of one outcome: `Json` (into the operation's type), `Empty` (`()`) or `Stream`
/// (`ByteStream`). An outcome without arms reads nothing, so its type must be `()`.
fn reader(body: Option<BodyRead>, value_type: &syn::Type) -> Option<syn::Ident> {
    let is_unit = matches!(value_type, syn::Type::Tuple(tuple) if tuple.elems.is_empty());
    let name = match body.unwrap_or(BodyRead::Empty) {
        BodyRead::Json => "Json",
        BodyRead::Empty if is_unit => "Empty",
        BodyRead::Stream if progenitor_output::is_byte_stream(value_type) => "Stream",
        BodyRead::Empty | BodyRead::Stream => return None,
    };
    Some(syn::Ident::new(name, proc_macro2::Span::call_site()))
}

/// `(200, 200), (400, 499)`: the statuses of one outcome, in arm order.
fn table(statuses: &[(u16, u16)]) -> Vec<TokenStream> {
    statuses
        .iter()
        .map(|&(low, high)| {
            let (low, high) = (
                proc_macro2::Literal::u16_unsuffixed(low),
                proc_macro2::Literal::u16_unsuffixed(high),
            );
            quote!((#low, #high))
        })
        .collect()
}

/// Replaces `function`'s statements from `let info` on with `tail`; false when it has no
/// `let info`.
fn replace_tail(function: &mut syn::ImplItemFn, tail: TokenStream) -> bool {
    let statements = &mut function.block.stmts;
    let Some(info) = progenitor_output::operation_start(statements) else {
        return false;
    };
    statements.truncate(info);
    statements.push(syn::Stmt::Expr(
        syn::parse2(tail).expect("the shared send call is an expression"),
        None,
    ));
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use quote::ToTokens;

    fn method(body: TokenStream) -> syn::File {
        syn::parse2(quote! {
            impl Client {
                pub async fn get_thing<'a>(&'a self) -> Result<ResponseValue<types::Thing>, Error<types::Problem>> {
                    let url = format!("{}/thing", self.baseurl,);
                    #[allow(unused_mut)]
                    let mut request = self.client.get(url).build()?;
                    let info = OperationInfo { operation_id: "get_thing" };
                    self.pre(&mut request, &info).await?;
                    let result = self.exec(request, &info).await;
                    self.post(&result, &info).await?;
                    let response = result?;
                    match response.status().as_u16() { #body }
                }
            }
            impl ClientHooks<()> for &Client {}
        })
        .expect("test method parses")
    }

    fn tail(file: &syn::File) -> String {
        let syn::Item::Impl(block) = &file.items[0] else {
            panic!("no impl")
        };
        let syn::ImplItem::Fn(function) = &block.items[0] else {
            panic!("no method")
        };
        function
            .block
            .stmts
            .last()
            .expect("a tail")
            .to_token_stream()
            .to_string()
    }

    #[test]
    fn progenitors_arms_become_a_status_table() {
        let mut file = method(quote! {
            200u16 => ResponseValue::from_response(response).await,
            400u16..=499u16 => Err(Error::ErrorResponse(ResponseValue::from_response(response).await?)),
            _ => Err(Error::UnexpectedResponse(response)),
        });
        assert_eq!(share_response_handling(&mut file).matched, 1);
        assert_eq!(
            tail(&file),
            quote! {
                send(
                    self,
                    request,
                    "get_thing",
                    Json(&[(200, 200)]),
                    Json(&[(400, 499)]),
                ).await
            }
            .to_string()
        );
        // progenitor's hooks impl is on `Client`, as a crate's own would be.
        let hooks = &file.items[1];
        assert_eq!(
            quote!(#hooks).to_string(),
            quote!(impl ClientHooks<()> for Client {}).to_string()
        );
        // The support code's module is imported once, at the root.
        assert_eq!(
            file.items.last().map(|item| quote!(#item).to_string()),
            Some(
                quote!(
                    #[allow(unused_imports)]
                    use ::hub_api_support::reply::{send, Empty, Json, Stream};
                )
                .to_string()
            )
        );
    }

    #[test]
    fn a_default_response_is_every_other_status() {
        let mut file = method(quote! {
            200u16..=299u16 => { ResponseValue::from_response(response).await }
            _ => { Err(Error::ErrorResponse(ResponseValue::from_response(response).await?)) }
        });
        assert_eq!(share_response_handling(&mut file).matched, 1);
        assert!(
            tail(&file).contains("Json (& [(200 , 299)]) , Json (& [(0 , 65535)])"),
            "{}",
            tail(&file)
        );
    }

    #[test]
    fn progenitors_unreachable_arm_after_a_default_response_is_dropped() {
        let mut file = method(quote! {
            200u16 => { ResponseValue::from_response(response).await }
            _ => { Err(Error::ErrorResponse(ResponseValue::from_response(response).await?)) }
            _ => Err(Error::UnexpectedResponse(response)),
        });
        let tally = share_response_handling(&mut file);
        assert_eq!((tally.matched, tally.passed_over.len()), (1, 0));
        assert!(
            tail(&file).contains("Json (& [(200 , 200)]) , Json (& [(0 , 65535)])"),
            "{}",
            tail(&file)
        );
        // Any other arm after a catch-all is a shape the rewrite does not know.
        let mut file = method(quote! {
            _ => { Err(Error::ErrorResponse(ResponseValue::from_response(response).await?)) }
            200u16 => { ResponseValue::from_response(response).await }
        });
        assert_eq!(share_response_handling(&mut file).matched, 0);
    }

    #[test]
    fn an_arm_of_another_shape_keeps_progenitors_code() {
        let upgrade = quote! {
            101u16 => ResponseValue::upgrade(response).await,
            _ => Err(Error::UnexpectedResponse(response)),
        };
        // An error arm before a success arm would change which arm wins in a table.
        let reordered = quote! {
            400u16 => Err(Error::ErrorResponse(ResponseValue::from_response(response).await?)),
            200u16 => ResponseValue::from_response(response).await,
        };
        // Two ways of reading success bodies have no one reader.
        let mixed = quote! {
            200u16 => ResponseValue::from_response(response).await,
            204u16 => Ok(ResponseValue::empty(response)),
        };
        // A WebSocket upgrade is a shape progenitor writes, kept by design; the others are
        // passed over and reported.
        for (arms, passed_over) in [(upgrade, 0), (reordered, 1), (mixed, 1)] {
            let mut file = method(arms.clone());
            let before = file.to_token_stream().to_string();
            let tally = share_response_handling(&mut file);
            assert_eq!(tally.matched, 0, "{arms}");
            assert_eq!(tally.passed_over.len(), passed_over, "{arms}");
            assert_eq!(file.to_token_stream().to_string(), before);
        }
    }

    #[test]
    fn an_outcome_without_arms_reads_nothing_and_must_be_unit() {
        let mut file = method(quote! {
            200u16 => ResponseValue::from_response(response).await,
            _ => Err(Error::UnexpectedResponse(response)),
        });
        // `Error<types::Problem>` with no error arm: no reader gives that type.
        let tally = share_response_handling(&mut file);
        assert_eq!(tally.matched, 0);
        assert_eq!(tally.passed_over.len(), 1);
    }
}
