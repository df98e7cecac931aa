//! Step 5f: requests carry what the description asks for, and only that.
//!
//! Three rewrites send what progenitor cannot write as it should: a request built for an
//! `OPTIONS` or `TRACE` operation goes through `request(Method::OPTIONS, ..)` (progenitor calls
//! `.options(..)`, which reqwest's client does not have); and what `normalize` had to hand
//! progenitor under another name: a request
//! body's declared media type ([`mark::MEDIA_TYPE`]: `application/merge-patch+json` sent as
//! JSON is labelled so), and a parameter's name on the wire ([`mark::WIRE_NAME`]: a query
//! parameter renamed `id_query` because a path parameter is `id` is still sent as `id`).
//!
//! progenitor adds an `api-version` header, set to the description's `info.version`, to every
//! request it builds ([`crate::contract::PROGENITOR_VERSION_HEADER`]). No operation of the
//! description declares it: it tells the server nothing it asked for, and a description's
//! version is not an API version the server negotiates on. This step removes the statement
//! that appends it; the header parameters an operation declares stay in the same map.

use quote::ToTokens;
use serde_json::Value;

use crate::contract::progenitor_output::{self, HEADER_MAP};
use crate::model::{Document, mark};

/// What one operation sends otherwise than progenitor would: its body's declared media type
/// (with the one progenitor sends it as), and its renamed parameters' names on the wire.
#[derive(Debug, Default)]
pub(super) struct AsDeclared {
    media_type: Option<(String, String)>,
    wire_names: Vec<(String, String)>,
    /// progenitor's client call and the HTTP method it stands for, when reqwest's client has
    /// no such call (`options`, `trace`).
    method: Option<(&'static str, &'static str)>,
}

/// The operations of `document` that send something under another name, by `operationId`.
pub(super) fn as_declared(document: &Value) -> Vec<(String, AsDeclared)> {
    let model = Document::new(document);
    let mut operations = Vec::new();
    for operation in model.operations() {
        let Some(id) = operation.id() else {
            continue;
        };
        let mut declared = AsDeclared::default();
        if let Some(body) = operation
            .value
            .get("requestBody")
            .and_then(|body| model.resolve(body))
            && let Some(media_type) = body.get(mark::MEDIA_TYPE).and_then(Value::as_str)
            && let Some(sent) = body
                .get("content")
                .and_then(Value::as_object)
                .and_then(|content| content.keys().next())
        {
            declared.media_type = Some((sent.clone(), media_type.to_owned()));
        }
        for parameter in operation
            .value
            .get("parameters")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|parameter| model.resolve(parameter))
        {
            if let (Some(name), Some(wire)) = (
                parameter.get("name").and_then(Value::as_str),
                parameter.get(mark::WIRE_NAME).and_then(Value::as_str),
            ) {
                declared.wire_names.push((name.to_owned(), wire.to_owned()));
            }
        }
        declared.method = progenitor_output::METHODS_WITHOUT_A_CLIENT_CALL
            .iter()
            .find(|(call, _)| *call == operation.method)
            .copied();
        if declared.media_type.is_some()
            || !declared.wire_names.is_empty()
            || declared.method.is_some()
        {
            operations.push((id.to_owned(), declared));
        }
    }
    operations
}

/// Sends each operation of `operations` as declared (see the module doc), in its function. The
/// tally counts the functions changed and names each one where a rewrite found nothing to
/// change, which would send the request under progenitor's name.
pub(super) fn send_as_declared(
    items: &mut [syn::Item],
    operations: &[(String, AsDeclared)],
) -> super::Tally {
    let mut passed_over = Vec::new();
    let matched = super::change_operation_functions(
        items,
        operations,
        &mut |function, declared| {
            let method = function.sig.ident.to_string();
            let mut block = function.block.clone();
            let mut missed = Vec::new();
            if let Some((sent, media_type)) = &declared.media_type {
                match progenitor_output::label_request_body(&block, sent, media_type) {
                    Some(labelled) => block = labelled,
                    None => {
                        missed.push(format!("its body is labelled `{sent}`, not `{media_type}`"))
                    }
                }
            }
            if let Some((call, method)) = declared.method {
                match progenitor_output::request_by_method(&block, call, method) {
                Some(requested) => block = requested,
                None => missed.push(format!("its request is built by `.{call}(..)`, which reqwest's client does not have")),
            }
            }
            for (argument, wire) in &declared.wire_names {
                match progenitor_output::send_parameter_as(&block, argument, wire) {
                    Some(renamed) => block = renamed,
                    None => missed.push(format!("parameter `{wire}` is sent as `{argument}`")),
                }
            }
            if !missed.is_empty() {
                passed_over.push(super::PassedOver::of_method(
                    &method,
                    format!("operation method `{method}`: {}", missed.join("; ")),
                ));
            }
            function.block = block;
            missed.is_empty()
        },
    );
    super::Tally {
        matched,
        passed_over,
    }
}

/// Removes progenitor's `api-version` append from every function of the inherent impls in
/// `items` and, recursively, in their modules. The tally counts the functions it was removed
/// from and names each one passed over: a function that builds progenitor's header map (every
/// operation does) without the append.
pub(super) fn leave_out_version_header(items: &mut [syn::Item]) -> super::Tally {
    let mut passed_over = Vec::new();
    let matched = super::change_methods(
        items,
        &proc_macro2::TokenStream::new(),
        &mut |function, _| {
            let before = function.block.stmts.len();
            function
                .block
                .stmts
                .retain(|statement| !progenitor_output::appends_version_header(statement));
            let removed = function.block.stmts.len() < before;
            if removed {
                unmut_unchanged_maps(&mut function.block.stmts);
            } else if function
                .block
                .stmts
                .iter()
                .any(progenitor_output::declares_header_map)
            {
                passed_over.push(super::PassedOver::of_method(
                    &function.sig.ident.to_string(),
                    format!(
                        "operation method `{}`: progenitor's `{}` header was not found, so it is still sent",
                        function.sig.ident,
                        crate::contract::PROGENITOR_VERSION_HEADER
                    ),
                ));
            }
            removed
        },
    );
    super::Tally {
        matched,
        passed_over,
    }
}

/// Drops `mut` from progenitor's `let mut header_map` when no later statement calls a method
/// on it: a map that only held the version header is now built and used as it is
/// (`.headers(header_map)`), and `unused_mut` would warn in every crate that compiles it.
fn unmut_unchanged_maps(statements: &mut [syn::Stmt]) {
    let texts: Vec<String> = statements
        .iter()
        .map(|statement| statement.to_token_stream().to_string())
        .collect();
    for (index, statement) in statements.iter_mut().enumerate() {
        if let syn::Stmt::Local(syn::Local {
            pat: syn::Pat::Ident(binding),
            ..
        }) = statement
            && binding.mutability.is_some()
            && binding.ident == HEADER_MAP
        {
            let called = format!("{} .", binding.ident);
            if !texts[index + 1..].iter().any(|text| text.contains(&called)) {
                binding.mutability = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_header_goes_and_declared_headers_stay() {
        let mut file: syn::File = syn::parse_quote! {
            impl Client {
                pub async fn op<'a>(&'a self, trace: &'a str) -> Result<(), Error<()>> {
                    let mut header_map = ::reqwest::header::HeaderMap::with_capacity(2usize);
                    header_map.append(
                        ::reqwest::header::HeaderName::from_static("api-version"),
                        ::reqwest::header::HeaderValue::from_static(Self::api_version()),
                    );
                    header_map.append("x-trace", trace.to_string().try_into()?);
                    todo!()
                }
            }
            pub mod builder {
                impl<'a> Op<'a> {
                    pub async fn send(self) -> Result<(), Error<()>> {
                        let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
                        header_map.append(
                            ::reqwest::header::HeaderName::from_static("api-version"),
                            ::reqwest::header::HeaderValue::from_static(super::Client::api_version()),
                        );
                        todo!()
                    }
                }
            }
        };
        let tally = leave_out_version_header(&mut file.items);
        assert_eq!((tally.matched, tally.passed_over.len()), (2, 0));
        let text = file.to_token_stream().to_string();
        assert!(!text.contains("api-version"), "{text}");
        assert!(text.contains("\"x-trace\""), "{text}");
        // The map that still takes a declared header stays mutable; the one that held only
        // the version header does not.
        assert_eq!(text.matches("let mut header_map").count(), 1, "{text}");
        assert_eq!(text.matches("let header_map").count(), 1, "{text}");
    }

    #[test]
    fn a_header_map_without_the_version_header_is_passed_over() {
        let mut file: syn::File = syn::parse_quote! {
            impl Client {
                pub async fn op<'a>(&'a self) -> Result<(), Error<()>> {
                    let mut header_map = ::reqwest::header::HeaderMap::with_capacity(1usize);
                    header_map.append("api-version", "1".try_into()?);
                    todo!()
                }
            }
        };
        let tally = leave_out_version_header(&mut file.items);
        assert_eq!(tally.matched, 0);
        assert_eq!(tally.passed_over.len(), 1);
        assert!(tally.passed_over[0].message.contains("`op`"));
    }
}
