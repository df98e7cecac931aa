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
//! reply::send::<reply::Json<types::Page>, reply::Json<types::Error>>(
//!     self, request, "list_models", &[(200, 200)], &[(400, 499)],
//! ).await
//! ```
//!
//! where `send` (emitted once, in the `reply` module) runs the same hooks in the same order and
//! tries the success ranges, then the error ranges, as progenitor's arms are ordered; any other
//! status is `Error::UnexpectedResponse`, as progenitor's catch-all. Signatures, behaviour and
//! errors are unchanged.
//!
//! An operation whose statements or arms are not exactly progenitor's known shape (a WebSocket
//! upgrade, hooks set in the generation settings) keeps progenitor's code: the table is a size
//! optimisation, and nothing is lost by skipping it.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::contract::{BodyRead, ProgenitorReply, ProgenitorSend};

/// The module `send` and the body readers are emitted in, at the root of the generated code.
const MODULE: &str = "reply";

/// Rewrites every operation of `file` whose response handling is progenitor's known shape, and
/// adds the `reply` module when any was; returns how many were rewritten.
pub(super) fn share_response_handling(file: &mut syn::File) -> usize {
    let rewritten = super::change_methods(
        &mut file.items,
        &TokenStream::new(),
        &mut |function, root| {
            shared_send(function, root)
                .map(|tail| replace_tail(function, tail))
                .is_some()
        },
    );
    if rewritten > 0 {
        let module = syn::Ident::new(MODULE, proc_macro2::Span::call_site());
        let body = reply_module();
        file.items.push(syn::parse_quote!(mod #module { #body }));
    }
    rewritten
}

/// The `reply::send(..).await` call that stands for `function`'s statements from `let info`
/// on, or `None` when they are not progenitor's known shape.
fn shared_send(function: &syn::ImplItemFn, root: &TokenStream) -> Option<TokenStream> {
    let statements = &function.block.stmts;
    let info = statements.iter().position(is_operation_info)?;
    let operation_id = operation_id(&statements[info])?;
    let [
        pre,
        exec,
        post,
        response,
        syn::Stmt::Expr(syn::Expr::Match(matched), None),
    ] = &statements[info + 1..]
    else {
        return None;
    };
    let send = ProgenitorSend {
        client: hook_receiver(pre)?,
        request: hook_request(pre)?,
        result: let_name(exec)?,
        response: let_name(response)?,
    };
    let (expected, scrutinee) = send.as_progenitor_writes();
    let found = [pre, exec, post, response].map(|statement| statement.to_token_stream());
    if !same_tokens(&found, &expected) || !same(&matched.expr.to_token_stream(), &scrutinee) {
        return None;
    }
    let arms = Arms::read(&matched.arms, &send.response)?;
    let (success_type, error_type) = result_types(&function.sig.output)?;
    let module = syn::Ident::new(MODULE, proc_macro2::Span::call_site());
    let success_reader = reader(arms.success_body, success_type, root, &module)?;
    let error_reader = reader(arms.failure_body, error_type, root, &module)?;
    let (success, failure) = (table(&arms.success), table(&arms.failure));
    let ProgenitorSend {
        client, request, ..
    } = send;
    Some(quote! {
        #root #module::send::<#success_reader, #error_reader>(
            #client, #request, #operation_id, &[#(#success),*], &[#(#failure),*],
        ).await
    })
}

/// The statuses of an operation's arms, by outcome, with how each outcome reads its body.
struct Arms {
    success: Vec<(u16, u16)>,
    success_body: Option<BodyRead>,
    failure: Vec<(u16, u16)>,
    failure_body: Option<BodyRead>,
}

impl Arms {
    /// Reads progenitor's arms: success arms first, then error arms, then at most one
    /// catch-all, each outcome reading its body one way; `None` for anything else.
    fn read(arms: &[syn::Arm], response: &syn::Ident) -> Option<Self> {
        let mut read = Arms {
            success: Vec::new(),
            success_body: None,
            failure: Vec::new(),
            failure_body: None,
        };
        let mut ended = false;
        for arm in arms {
            if ended || arm.guard.is_some() {
                return None;
            }
            let statuses = statuses(&arm.pat)?;
            let body = arm_expression(&arm.body);
            let reply = ProgenitorReply::ALL.into_iter().find(|reply| {
                same(
                    &body.to_token_stream(),
                    &reply.as_progenitor_writes(response),
                )
            })?;
            // A catch-all ends the match; nothing may follow it.
            ended = statuses == (0, u16::MAX);
            match reply {
                ProgenitorReply::Success(body) if read.failure.is_empty() => {
                    read.success.push(statuses);
                    *read.success_body.get_or_insert(body) == body
                }
                ProgenitorReply::Failure(body) => {
                    read.failure.push(statuses);
                    *read.failure_body.get_or_insert(body) == body
                }
                ProgenitorReply::Unexpected => ended,
                ProgenitorReply::Success(_) => false,
            }
            .then_some(())?;
        }
        Some(read)
    }
}

/// The statuses an arm's pattern matches: `200u16`, `400u16..=499u16` or `_`.
fn statuses(pattern: &syn::Pat) -> Option<(u16, u16)> {
    let status = |expression: &syn::Expr| match expression {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Int(int),
            ..
        }) => int.base10_parse::<u16>().ok(),
        _ => None,
    };
    match pattern {
        syn::Pat::Wild(_) => Some((0, u16::MAX)),
        syn::Pat::Lit(literal) => {
            let code = status(&syn::Expr::Lit(literal.clone()))?;
            Some((code, code))
        }
        syn::Pat::Range(syn::PatRange {
            start: Some(start),
            end: Some(end),
            limits: syn::RangeLimits::Closed(_),
            ..
        }) => Some((status(start)?, status(end)?)),
        _ => None,
    }
}

/// An arm's expression without the block progenitor wraps it in.
fn arm_expression(body: &syn::Expr) -> &syn::Expr {
    if let syn::Expr::Block(block) = body
        && let [syn::Stmt::Expr(inner, None)] = block.block.stmts.as_slice()
        && block.label.is_none()
        && block.attrs.is_empty()
    {
        return inner;
    }
    body
}

/// The reader type of one outcome: `Json<T>`, `Empty` (`()`) or `Stream` (`ByteStream`). An
/// outcome without arms reads nothing, so its type must be `()`.
fn reader(
    body: Option<BodyRead>,
    value_type: &syn::Type,
    root: &TokenStream,
    module: &syn::Ident,
) -> Option<TokenStream> {
    let is_unit = matches!(value_type, syn::Type::Tuple(tuple) if tuple.elems.is_empty());
    let is_stream = matches!(value_type, syn::Type::Path(path)
        if path.qself.is_none() && path.path.is_ident("ByteStream"));
    match body.unwrap_or(BodyRead::Empty) {
        BodyRead::Json => Some(quote!(#root #module::Json<#value_type>)),
        BodyRead::Empty if is_unit => Some(quote!(#root #module::Empty)),
        BodyRead::Stream if is_stream => Some(quote!(#root #module::Stream)),
        BodyRead::Empty | BodyRead::Stream => None,
    }
}

/// `T` and `E` of an operation's `Result<ResponseValue<T>, Error<E>>`.
fn result_types(output: &syn::ReturnType) -> Option<(&syn::Type, &syn::Type)> {
    let syn::ReturnType::Type(_, result) = output else {
        return None;
    };
    let [success, error] = generic_arguments(result, "Result")?[..] else {
        return None;
    };
    let [success] = generic_arguments(success, "ResponseValue")?[..] else {
        return None;
    };
    let [error] = generic_arguments(error, "Error")?[..] else {
        return None;
    };
    Some((success, error))
}

/// The type arguments of `ty` when it is the plain path `name<..>`.
fn generic_arguments<'a>(ty: &'a syn::Type, name: &str) -> Option<Vec<&'a syn::Type>> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let [segment] = path.path.segments.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let syn::PathArguments::AngleBracketed(arguments) = &segment.arguments else {
        return None;
    };
    (path.qself.is_none() && segment.ident == name).then_some(())?;
    arguments
        .args
        .iter()
        .map(|argument| match argument {
            syn::GenericArgument::Type(ty) => Some(ty),
            _ => None,
        })
        .collect()
}

/// `let info = OperationInfo { .. };`
fn is_operation_info(statement: &syn::Stmt) -> bool {
    operation_info(statement).is_some()
}

fn operation_info(statement: &syn::Stmt) -> Option<&syn::ExprStruct> {
    let syn::Stmt::Local(local) = statement else {
        return None;
    };
    let syn::Pat::Ident(name) = &local.pat else {
        return None;
    };
    let syn::Expr::Struct(info) = local.init.as_ref()?.expr.as_ref() else {
        return None;
    };
    (name.ident == "info" && info.path.is_ident("OperationInfo")).then_some(info)
}

/// The operation id literal of `let info = OperationInfo { operation_id: "..." };`.
fn operation_id(statement: &syn::Stmt) -> Option<&syn::LitStr> {
    let info = operation_info(statement)?;
    let [field] = info.fields.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    match (&field.member, &field.expr) {
        (
            syn::Member::Named(member),
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(id),
                ..
            }),
        ) if member == "operation_id" && info.rest.is_none() => Some(id),
        _ => None,
    }
}

/// The `pre` hook call of `<client>.pre(&mut <request>, &info).await?;`.
fn pre_call(statement: &syn::Stmt) -> Option<&syn::ExprMethodCall> {
    let syn::Stmt::Expr(syn::Expr::Try(tried), Some(_)) = statement else {
        return None;
    };
    let syn::Expr::Await(awaited) = tried.expr.as_ref() else {
        return None;
    };
    match awaited.base.as_ref() {
        syn::Expr::MethodCall(call) if call.method == "pre" => Some(call),
        _ => None,
    }
}

/// `<client>` of the `pre` hook statement.
fn hook_receiver(pre: &syn::Stmt) -> Option<TokenStream> {
    Some(pre_call(pre)?.receiver.to_token_stream())
}

/// `<request>` of the `pre` hook statement.
fn hook_request(pre: &syn::Stmt) -> Option<syn::Ident> {
    let call = pre_call(pre)?;
    match call.args.first()? {
        syn::Expr::Reference(reference) => match reference.expr.as_ref() {
            syn::Expr::Path(path) => path.path.get_ident().cloned(),
            _ => None,
        },
        _ => None,
    }
}

/// The variable a `let <name> = ...;` statement binds.
fn let_name(statement: &syn::Stmt) -> Option<syn::Ident> {
    match statement {
        syn::Stmt::Local(syn::Local {
            pat: syn::Pat::Ident(name),
            ..
        }) => Some(name.ident.clone()),
        _ => None,
    }
}

fn same(found: &TokenStream, expected: &TokenStream) -> bool {
    found.to_string() == expected.to_string()
}

fn same_tokens(found: &[TokenStream], expected: &[TokenStream]) -> bool {
    found.len() == expected.len()
        && found
            .iter()
            .zip(expected)
            .all(|(found, expected)| same(found, expected))
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

/// Replaces `function`'s statements from `let info` on with `tail`.
fn replace_tail(function: &mut syn::ImplItemFn, tail: TokenStream) {
    let statements = &mut function.block.stmts;
    if let Some(info) = statements.iter().position(is_operation_info) {
        statements.truncate(info);
        statements.push(syn::Stmt::Expr(
            syn::parse2(tail).expect("the shared send call is an expression"),
            None,
        ));
    }
}

/// The `reply` module: the body readers and `send`, which does what progenitor's statements
/// after building the request did, for every operation.
fn reply_module() -> TokenStream {
    quote! {
        //! Response handling shared by every operation: each passes its status table to
        //! [`send`], which the compiler checks once rather than once per operation.
        use progenitor_client::{ByteStream, ClientHooks, Error, OperationInfo, ResponseValue};

        /// How a response body is read into the value an operation returns.
        pub(super) trait Read {
            /// What the body is read into.
            type Value;
            /// Reads the body of `response`.
            async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<Self::Value>, Error<E>>;
        }

        /// A JSON body of type `T`.
        pub(super) struct Json<T>(::std::marker::PhantomData<T>);

        impl<T: ::serde::de::DeserializeOwned> Read for Json<T> {
            type Value = T;
            async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<T>, Error<E>> {
                ResponseValue::from_response(response).await
            }
        }

        /// No body.
        pub(super) enum Empty {}

        impl Read for Empty {
            type Value = ();
            async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<()>, Error<E>> {
                Ok(ResponseValue::empty(response))
            }
        }

        /// The body as a stream of bytes.
        pub(super) enum Stream {}

        impl Read for Stream {
            type Value = ByteStream;
            async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<ByteStream>, Error<E>> {
                Ok(ResponseValue::stream(response))
            }
        }

        /// Sends `request` for the operation `operation_id` through the client's hooks, and
        /// reads a status within `success` as `S`, then one within `failure` as the error
        /// body `F`; any other status is `Error::UnexpectedResponse`.
        pub(super) async fn send<S: Read, F: Read>(
            client: &super::Client,
            mut request: reqwest::Request,
            operation_id: &'static str,
            success: &'static [(u16, u16)],
            failure: &'static [(u16, u16)],
        ) -> Result<ResponseValue<S::Value>, Error<F::Value>> {
            let info = OperationInfo { operation_id };
            client.pre(&mut request, &info).await?;
            let result = client.exec(request, &info).await;
            client.post(&result, &info).await?;
            let response = result?;
            let status = response.status().as_u16();
            let within = |statuses: &[(u16, u16)]| {
                statuses.iter().any(|&(low, high)| (low..=high).contains(&status))
            };
            if within(success) {
                S::read(response).await
            } else if within(failure) {
                Err(Error::ErrorResponse(F::read(response).await?))
            } else {
                Err(Error::UnexpectedResponse(response))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(share_response_handling(&mut file), 1);
        assert_eq!(
            tail(&file),
            quote! {
                reply::send::<reply::Json<types::Thing>, reply::Json<types::Problem> >(
                    self, request, "get_thing", &[(200, 200)], &[(400, 499)],
                ).await
            }
            .to_string()
        );
        assert!(
            matches!(file.items.last(), Some(syn::Item::Mod(module)) if module.ident == MODULE)
        );
    }

    #[test]
    fn a_default_response_is_every_other_status() {
        let mut file = method(quote! {
            200u16..=299u16 => { ResponseValue::from_response(response).await }
            _ => { Err(Error::ErrorResponse(ResponseValue::from_response(response).await?)) }
        });
        assert_eq!(share_response_handling(&mut file), 1);
        assert!(
            tail(&file).contains("& [(200 , 299)] , & [(0 , 65535)]"),
            "{}",
            tail(&file)
        );
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
        for arms in [upgrade, reordered, mixed] {
            let mut file = method(arms.clone());
            let before = file.to_token_stream().to_string();
            assert_eq!(share_response_handling(&mut file), 0, "{arms}");
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
        assert_eq!(share_response_handling(&mut file), 0);
    }
}
