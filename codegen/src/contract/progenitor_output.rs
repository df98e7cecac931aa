//! What progenitor 0.15 writes, as `emit`, the API surface and the CLI table recognise it:
//! the modules and types it names, the statements each operation builds and sends its request
//! with, and its builders' setters. Every comparison is with tokens quoted here from what
//! progenitor writes, so an upgrade that changes one fails the recogniser, and the step
//! reports what it passed over.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

/// The module progenitor puts every type in (typify's output, and the items `emit` splices in).
pub const TYPES_MODULE: &str = "types";

/// The module of the builder types: under the builder interface, one per operation at the
/// root, and one per struct inside [`TYPES_MODULE`] (typify's).
pub const BUILDER_MODULE: &str = "builder";

/// progenitor's client type, whose inherent methods are the operations (positional interface)
/// or return their builders.
pub const CLIENT_TYPE: &str = "Client";

/// progenitor's constructor of [`CLIENT_TYPE`] that builds its own `reqwest::Client` (beside
/// `new_with_client`, which takes one).
pub const CLIENT_NEW: &str = "new";

/// progenitor's `Client::new` among `items` (the root of its file): the one inherent
/// `impl Client` function named [`CLIENT_NEW`].
pub fn client_constructor(items: &mut [syn::Item]) -> Option<&mut syn::ImplItemFn> {
    items.iter_mut().find_map(|item| match item {
        syn::Item::Impl(block)
            if block.trait_.is_none()
                && matches!(&*block.self_ty, syn::Type::Path(path) if path.path.is_ident(CLIENT_TYPE)) =>
        {
            block.items.iter_mut().find_map(|member| match member {
                syn::ImplItem::Fn(function) if function.sig.ident == CLIENT_NEW => Some(function),
                _ => None,
            })
        }
        _ => None,
    })
}

/// The constructor that takes a `reqwest::Client` (then the transport, when there is one),
/// which `Client::new` calls.
pub const CLIENT_NEW_WITH_CLIENT: &str = "new_with_client";

/// The methods [`CLIENT_TYPE`] has besides the operations: its constructors, and those of
/// `ClientInfo` and `ClientHooks`, which progenitor's code (and the shared `reply::send`) calls
/// as `self.pre(..)`; an operation's method of one of these names would shadow it.
pub const CLIENT_METHODS: &[&str] = &[
    CLIENT_NEW,
    CLIENT_NEW_WITH_CLIENT,
    "api_version",
    "baseurl",
    "client",
    "inner",
    "pre",
    "exec",
    "post",
];

/// The `ClientHooks` impl of a standalone crate whose `Client` carries `credentials` (the inner
/// type, defined beside it in `src/auth.rs` with `accepted(operation)` and `SCHEMES`): before a
/// request is sent, the credentials its operation (progenitor's method name) accepts are put on
/// it; after, a query credential is cut from the URL of the response or error.
pub fn credential_hooks(credentials: &str) -> String {
    format!(
        "\nimpl progenitor_client::ClientHooks<{credentials}> for crate::Client {{\n\
         \x20   async fn pre<E>(\n\
         \x20       &self,\n\
         \x20       request: &mut reqwest::Request,\n\
         \x20       info: &progenitor_client::OperationInfo,\n\
         \x20   ) -> Result<(), progenitor_client::Error<E>> {{\n\
         \x20       let credentials = &progenitor_client::ClientInfo::inner(self).0;\n\
         \x20       credentials\n\
         \x20           .apply(accepted(info.operation_id), request)\n\
         \x20           .map_err(|error| progenitor_client::Error::InvalidRequest(error.to_string()))\n\
         \x20   }}\n\n\
         \x20   async fn exec(\n\
         \x20       &self,\n\
         \x20       request: reqwest::Request,\n\
         \x20       _info: &progenitor_client::OperationInfo,\n\
         \x20   ) -> reqwest::Result<reqwest::Response> {{\n\
         \x20       let client = progenitor_client::ClientInfo::client(self);\n\
         \x20       credentials::execute(client, request, SCHEMES).await\n\
         \x20   }}\n\
         }}\n"
    )
}

/// Whether a positional method's argument is an optional parameter: progenitor writes each
/// as an `Option` of its type, and a required one as the type itself.
pub fn is_optional_argument(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path)
        if path.qself.is_none()
            && path.path.segments.last().is_some_and(|last| last.ident == "Option"))
}

/// The arguments a first program passes to an operation's method of the positional interface
/// (`signature`): `None` for an `Option<_>` argument and `"<name>"` for a `&str` one; `None` when an argument
/// is anything else.
pub fn literal_arguments(signature: &syn::Signature) -> Option<Vec<String>> {
    let mut arguments = Vec::new();
    for input in &signature.inputs {
        let syn::FnArg::Typed(typed) = input else {
            continue;
        };
        let argument = match &*typed.ty {
            ty if is_optional_argument(ty) => "None".to_owned(),
            syn::Type::Reference(reference) if matches!(&*reference.elem, syn::Type::Path(path) if path.path.is_ident("str")) =>
            {
                let syn::Pat::Ident(name) = &*typed.pat else {
                    return None;
                };
                format!("{:?}", name.ident.to_string())
            }
            _ => return None,
        };
        arguments.push(argument);
    }
    Some(arguments)
}

/// The method of an operation's builder that sends the request.
pub const BUILDER_SEND: &str = "send";

/// The constructor of an operation's builder, which the client's method calls.
pub const BUILDER_NEW: &str = "new";

/// The variable progenitor builds an operation's request headers in.
pub const HEADER_MAP: &str = "header_map";

/// How progenitor 0.15 reads a response body in one arm of an operation's status `match`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BodyRead {
    /// `ResponseValue::from_response(response).await`: JSON of the operation's type.
    Json,
    /// `ResponseValue::empty(response)`: no body (`()`).
    Empty,
    /// `ResponseValue::stream(response)`: the raw bytes (`ByteStream`).
    Stream,
}

/// One arm of the status `match` progenitor 0.15 ends every operation with. A WebSocket
/// upgrade arm is none of these: an operation with one keeps progenitor's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProgenitorReply {
    /// A documented success: `Ok` with the body read.
    Success(BodyRead),
    /// A documented error: `Err(Error::ErrorResponse(..))` with the body read.
    Failure(BodyRead),
    /// The catch-all for undocumented statuses: `Err(Error::UnexpectedResponse(response))`.
    Unexpected,
}

impl ProgenitorReply {
    /// Every arm progenitor writes, each tried where an arm's body may be one.
    pub const ALL: [ProgenitorReply; 7] = [
        Self::Success(BodyRead::Json),
        Self::Success(BodyRead::Empty),
        Self::Success(BodyRead::Stream),
        Self::Failure(BodyRead::Json),
        Self::Failure(BodyRead::Empty),
        Self::Failure(BodyRead::Stream),
        Self::Unexpected,
    ];

    /// The arm's expression exactly as progenitor writes it over `response`, to recognise it by.
    pub fn as_progenitor_writes(self, response: &syn::Ident) -> TokenStream {
        let read = |body: BodyRead, failure: bool| match (body, failure) {
            (BodyRead::Json, false) => quote!(ResponseValue::from_response(#response).await),
            (BodyRead::Json, true) => quote!(ResponseValue::from_response(#response).await?),
            (BodyRead::Empty, _) => quote!(ResponseValue::empty(#response)),
            (BodyRead::Stream, _) => quote!(ResponseValue::stream(#response)),
        };
        match self {
            Self::Success(BodyRead::Json) => read(BodyRead::Json, false),
            Self::Success(body) => {
                let read = read(body, false);
                quote!(Ok(#read))
            }
            Self::Failure(body) => {
                let read = read(body, true);
                quote!(Err(Error::ErrorResponse(#read)))
            }
            Self::Unexpected => quote!(Err(Error::UnexpectedResponse(#response))),
        }
    }
}

/// The names in the statements progenitor 0.15 writes between building an operation's request
/// and its status `match`:
///
/// ```text
/// let info = OperationInfo { operation_id: "<id>" };
/// <client>.pre(&mut <request>, &info).await?;
/// let <result> = <client>.exec(<request>, &info).await;
/// <client>.post(&<result>, &info).await?;
/// let <response> = <result>?;
/// match <response>.status().as_u16() { <arms> }
/// ```
///
/// `<client>` is `self` in a positional method and `client` in a builder's `send`.
pub struct ProgenitorSend {
    /// The client expression (`self`, `client`).
    pub client: TokenStream,
    /// The request variable.
    pub request: syn::Ident,
    /// The variable holding what `exec` returned.
    pub result: syn::Ident,
    /// The response variable the arms read.
    pub response: syn::Ident,
}

impl ProgenitorSend {
    /// The four statements after `let info = ...;`, exactly as progenitor writes them, and the
    /// `match` scrutinee, to recognise them by.
    pub fn as_progenitor_writes(&self) -> (Vec<TokenStream>, TokenStream) {
        let Self {
            client,
            request,
            result,
            response,
        } = self;
        let statements = vec![
            quote!(#client.pre(&mut #request, &info).await?;),
            quote!(let #result = #client.exec(#request, &info).await;),
            quote!(#client.post(&#result, &info).await?;),
            quote!(let #response = #result?;),
        ];
        (statements, quote!(#response.status().as_u16()))
    }
}

/// The header progenitor 0.15 appends to every request it builds, with the description's
/// `info.version` as its value (`HeaderName::from_static("api-version")`); operations'
/// declared headers are appended by their names as text.
pub const PROGENITOR_VERSION_HEADER: &str = "api-version";

/// The method progenitor calls on the request builder to send a typed
/// `application/x-www-form-urlencoded` body (`.form_urlencoded(&body)?`, from
/// `progenitor_client::RequestBuilderExt`); `emit` renames it for a multipart body.
pub const PROGENITOR_FORM_CALL: &str = "form_urlencoded";

/// The media types progenitor sends a request body as, each by its own call: a typed JSON
/// body with `.json(&body)` (reqwest labels it `application/json` unless the request already
/// has a `Content-Type`), bytes and text with `.header(CONTENT_TYPE, from_static("<type>"))`
/// before `.body(body)`.
pub const JSON_BODY: &str = "application/json";
/// See [`JSON_BODY`].
pub const BYTES_BODY: &str = "application/octet-stream";
/// See [`JSON_BODY`].
pub const TEXT_BODY: &str = "text/plain";
/// The request builder's method progenitor sends a typed JSON body with.
const JSON_CALL: &str = "json";

/// `block` (an operation's function) with its request body labelled `declared` instead of
/// `sent`, the media type progenitor labels it: a `Content-Type` header set before `.json(..)`
/// for JSON, the label's text replaced for bytes and text. `None` when the block has no such
/// call or label.
pub fn label_request_body(block: &syn::Block, sent: &str, declared: &str) -> Option<syn::Block> {
    let mut found = false;
    let tokens = block.to_token_stream();
    let relabelled = if sent == JSON_BODY {
        let header = quote! {
            header(
                ::reqwest::header::CONTENT_TYPE,
                ::reqwest::header::HeaderValue::from_static(#declared),
            ) .
        };
        insert_before_call(tokens, JSON_CALL, &header, &mut found)
    } else {
        replace_string_literal(tokens, sent, declared, &mut found)
    };
    found.then(|| syn::parse2(relabelled).ok()).flatten()
}

/// `block` (an operation's function) sending the parameter progenitor knows as `argument` by
/// its name on the wire: progenitor writes a query parameter's or header's name as a string
/// literal (`QueryParam::new("name", &name)`, `header_map.append("name", ..)`), the only
/// literal of that text in the function. `None` when there is none.
pub fn send_parameter_as(block: &syn::Block, argument: &str, wire: &str) -> Option<syn::Block> {
    let mut found = false;
    let renamed = replace_string_literal(block.to_token_stream(), argument, wire, &mut found);
    found.then(|| syn::parse2(renamed).ok()).flatten()
}

/// The HTTP methods progenitor sends by a method of `reqwest::Client` named after them, which
/// reqwest does not have (`self.client.options(url)`): such a call is made through
/// `request(Method::OPTIONS, url)` instead.
pub const METHODS_WITHOUT_A_CLIENT_CALL: &[(&str, &str)] =
    &[("options", "OPTIONS"), ("trace", "TRACE")];

/// `block` (an operation's function) with progenitor's `.options(url)` (or another call of
/// [`METHODS_WITHOUT_A_CLIENT_CALL`]) made `.request(::reqwest::Method::OPTIONS, url)`; `None`
/// when it has no such call.
pub fn request_by_method(block: &syn::Block, call: &str, method: &str) -> Option<syn::Block> {
    let mut found = false;
    let method = syn::Ident::new(method, proc_macro2::Span::call_site());
    let rewritten = rename_method_call(
        block.to_token_stream(),
        call,
        "request",
        (&quote!(::reqwest::Method::#method,), &TokenStream::new()),
        &mut found,
    );
    found.then(|| syn::parse2(rewritten).ok()).flatten()
}

/// `tokens` with every method call `. from (args)` made `. to (before args after)`, at any
/// depth; `found` is set when there was one. How each rewrite of a call of progenitor's
/// request builder is made (the multipart form's, an `OPTIONS` request's).
pub(crate) fn rename_method_call(
    tokens: TokenStream,
    from: &str,
    to: &str,
    (before, after): (&TokenStream, &TokenStream),
    found: &mut bool,
) -> TokenStream {
    let trees: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    let mut arguments_next = false;
    for (index, tree) in trees.iter().enumerate() {
        let is_call = matches!(tree, proc_macro2::TokenTree::Ident(ident) if ident == from)
            && index > 0
            && matches!(&trees[index - 1], proc_macro2::TokenTree::Punct(dot) if dot.as_char() == '.')
            && matches!(trees.get(index + 1), Some(proc_macro2::TokenTree::Group(group))
                if group.delimiter() == proc_macro2::Delimiter::Parenthesis);
        if is_call {
            *found = true;
            arguments_next = true;
            out.push(proc_macro2::TokenTree::Ident(proc_macro2::Ident::new(
                to,
                proc_macro2::Span::call_site(),
            )));
            continue;
        }
        out.push(match tree {
            proc_macro2::TokenTree::Group(group) if arguments_next => {
                let mut arguments = before.clone();
                arguments.extend(group.stream());
                arguments.extend(after.clone());
                let mut rebuilt = proc_macro2::Group::new(group.delimiter(), arguments);
                rebuilt.set_span(group.span());
                proc_macro2::TokenTree::Group(rebuilt)
            }
            proc_macro2::TokenTree::Group(group) => {
                let inner = rename_method_call(group.stream(), from, to, (before, after), found);
                let mut rebuilt = proc_macro2::Group::new(group.delimiter(), inner);
                rebuilt.set_span(group.span());
                proc_macro2::TokenTree::Group(rebuilt)
            }
            other => other.clone(),
        });
        arguments_next = false;
    }
    out.into_iter().collect()
}

/// `tokens` with `insert` placed before every call of the method `method` (`. json (..)`), at
/// any depth.
fn insert_before_call(
    tokens: TokenStream,
    method: &str,
    insert: &TokenStream,
    found: &mut bool,
) -> TokenStream {
    let trees: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
    let mut out = Vec::with_capacity(trees.len());
    for (index, tree) in trees.iter().enumerate() {
        let is_call = matches!(tree, proc_macro2::TokenTree::Ident(ident) if ident == method)
            && index > 0
            && matches!(&trees[index - 1], proc_macro2::TokenTree::Punct(dot) if dot.as_char() == '.')
            && matches!(trees.get(index + 1), Some(proc_macro2::TokenTree::Group(group))
                if group.delimiter() == proc_macro2::Delimiter::Parenthesis);
        if is_call {
            *found = true;
            out.extend(insert.clone());
        }
        out.push(match tree {
            proc_macro2::TokenTree::Group(group) => {
                let inner = insert_before_call(group.stream(), method, insert, found);
                let mut rebuilt = proc_macro2::Group::new(group.delimiter(), inner);
                rebuilt.set_span(group.span());
                proc_macro2::TokenTree::Group(rebuilt)
            }
            other => other.clone(),
        });
    }
    out.into_iter().collect()
}

/// `tokens` with every string literal whose text is `from` made `to`, at any depth.
fn replace_string_literal(
    tokens: TokenStream,
    from: &str,
    to: &str,
    found: &mut bool,
) -> TokenStream {
    tokens
        .into_iter()
        .map(|tree| match tree {
            proc_macro2::TokenTree::Literal(literal)
                if syn::parse2::<syn::LitStr>(literal.to_token_stream())
                    .is_ok_and(|text| text.value() == from) =>
            {
                *found = true;
                let mut replaced = proc_macro2::Literal::string(to);
                replaced.set_span(literal.span());
                proc_macro2::TokenTree::Literal(replaced)
            }
            proc_macro2::TokenTree::Group(group) => {
                let inner = replace_string_literal(group.stream(), from, to, found);
                let mut rebuilt = proc_macro2::Group::new(group.delimiter(), inner);
                rebuilt.set_span(group.span());
                proc_macro2::TokenTree::Group(rebuilt)
            }
            other => other,
        })
        .collect()
}

/// Whether `statement` is progenitor's append of the version header,
/// `header_map.append(HeaderName::from_static("api-version"), ...);`.
pub fn appends_version_header(statement: &syn::Stmt) -> bool {
    let syn::Stmt::Expr(syn::Expr::MethodCall(call), Some(_)) = statement else {
        return false;
    };
    let Some(syn::Expr::Call(name)) = call.args.first() else {
        return false;
    };
    let is_header_name = name.func.to_token_stream().to_string()
        == quote!(::reqwest::header::HeaderName::from_static).to_string();
    let is_version = matches!(
        name.args.first(),
        Some(syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }))
            if text.value() == PROGENITOR_VERSION_HEADER
    );
    call.method == "append" && call.args.len() == 2 && is_header_name && is_version
}

/// Whether `statement` declares progenitor's header map (`let mut header_map = ...;`), which
/// every operation's request is built with.
pub fn declares_header_map(statement: &syn::Stmt) -> bool {
    matches!(statement, syn::Stmt::Local(syn::Local { pat: syn::Pat::Ident(binding), .. })
        if binding.ident == HEADER_MAP)
}

/// What an inherent method's statements are, read as progenitor writes an operation.
pub enum OperationShape<'a> {
    /// No `let info = OperationInfo { .. };`: not an operation.
    NotAnOperation,
    /// A WebSocket upgrade (`101u16 => ResponseValue::upgrade(response).await`), a known shape
    /// that `emit` leaves as progenitor wrote it.
    Upgrade,
    /// progenitor's known shape ([`ProgenitorSend`], then [`ProgenitorReply`] arms).
    Known(Operation<'a>),
    /// An operation, but neither of those shapes.
    Unknown,
}

/// An operation's statements from `let info` on, read: what [`ProgenitorSend`] names, the
/// statuses of its arms by outcome with how each outcome reads its body, and the types of the
/// method's `Result<ResponseValue<T>, Error<E>>`.
pub struct Operation<'a> {
    /// The operation id literal of `OperationInfo`.
    pub operation_id: &'a syn::LitStr,
    /// The names in the statements between the request and the `match`.
    pub send: ProgenitorSend,
    /// The statuses of the success arms, in order (`(0, u16::MAX)` for a catch-all).
    pub success: Vec<(u16, u16)>,
    /// How every success arm reads the body.
    pub success_body: Option<BodyRead>,
    /// The statuses of the error arms, in order.
    pub failure: Vec<(u16, u16)>,
    /// How every error arm reads the body.
    pub failure_body: Option<BodyRead>,
    /// `T` of the method's result.
    pub success_type: &'a syn::Type,
    /// `E` of the method's result.
    pub error_type: &'a syn::Type,
}

/// The index of `let info = OperationInfo { .. };` among `statements`, where progenitor's
/// sending of an operation's request starts.
pub fn operation_start(statements: &[syn::Stmt]) -> Option<usize> {
    statements
        .iter()
        .position(|statement| operation_info(statement).is_some())
}

/// Reads `function` as progenitor writes an operation.
pub fn read_operation(function: &syn::ImplItemFn) -> OperationShape<'_> {
    let statements = &function.block.stmts;
    let Some(info) = operation_start(statements) else {
        return OperationShape::NotAnOperation;
    };
    if let Some(syn::Stmt::Expr(syn::Expr::Match(matched), None)) = statements.last()
        && let Some(response) = statements.get(info + 4).and_then(let_name)
        && matched.arms.iter().any(|arm| {
            same(
                &arm_expression(&arm.body).to_token_stream(),
                &quote!(ResponseValue::upgrade(#response).await),
            )
        })
    {
        return OperationShape::Upgrade;
    }
    match known_operation(function, info) {
        Some(operation) => OperationShape::Known(operation),
        None => OperationShape::Unknown,
    }
}

fn known_operation(function: &syn::ImplItemFn, info: usize) -> Option<Operation<'_>> {
    let statements = &function.block.stmts;
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
    let (success_type, error_type) = result_types(&function.sig.output)?;
    let mut operation = Operation {
        operation_id,
        send,
        success: Vec::new(),
        success_body: None,
        failure: Vec::new(),
        failure_body: None,
        success_type,
        error_type,
    };
    read_arms(&mut operation, &matched.arms)?;
    Some(operation)
}

/// Reads progenitor's arms into `operation`: success arms first, then error arms, then at
/// most one catch-all, each outcome reading its body one way; `None` for anything else.
/// progenitor writes its own `_ => Err(Error::UnexpectedResponse(..))` even after the
/// catch-all of a `default` response, where it is unreachable (and warned of): it is read as
/// nothing.
fn read_arms(operation: &mut Operation<'_>, arms: &[syn::Arm]) -> Option<()> {
    let mut ended = false;
    for arm in arms {
        if arm.guard.is_some() {
            return None;
        }
        let statuses = statuses(&arm.pat)?;
        let body = arm_expression(&arm.body);
        let reply = ProgenitorReply::ALL.into_iter().find(|reply| {
            same(
                &body.to_token_stream(),
                &reply.as_progenitor_writes(&operation.send.response),
            )
        })?;
        if ended {
            let unreachable =
                matches!(reply, ProgenitorReply::Unexpected) && statuses == (0, u16::MAX);
            if unreachable {
                continue;
            }
            return None;
        }
        // A catch-all ends the match; nothing may follow it.
        ended = statuses == (0, u16::MAX);
        match reply {
            ProgenitorReply::Success(body) if operation.failure.is_empty() => {
                operation.success.push(statuses);
                *operation.success_body.get_or_insert(body) == body
            }
            ProgenitorReply::Failure(body) => {
                operation.failure.push(statuses);
                *operation.failure_body.get_or_insert(body) == body
            }
            ProgenitorReply::Unexpected => ended,
            ProgenitorReply::Success(_) => false,
        }
        .then_some(())?;
    }
    Some(())
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

/// Whether `ty` is progenitor's type of a body read as a stream, `ByteStream`.
pub fn is_byte_stream(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path)
        if path.qself.is_none() && path.path.is_ident("ByteStream"))
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

/// Each builder's setters in progenitor's `builder` module, by builder type name, with the
/// type each converts its value into (`fn p<V>(..) where V: TryInto<T>` gives `p -> T`).
pub fn builder_setters(file: &syn::File) -> BTreeMap<String, BTreeMap<String, syn::Type>> {
    let mut builders: BTreeMap<String, BTreeMap<String, syn::Type>> = BTreeMap::new();
    let builder_items = file.items.iter().find_map(|item| match item {
        syn::Item::Mod(module) if module.ident == BUILDER_MODULE => {
            module.content.as_ref().map(|(_, items)| items)
        }
        _ => None,
    });
    for item in builder_items.into_iter().flatten() {
        let syn::Item::Impl(block) = item else {
            continue;
        };
        let syn::Type::Path(self_type) = block.self_ty.as_ref() else {
            continue;
        };
        let Some(name) = self_type
            .path
            .segments
            .last()
            .map(|segment| segment.ident.to_string())
        else {
            continue;
        };
        let setters = builders.entry(name).or_default();
        for item in &block.items {
            let syn::ImplItem::Fn(function) = item else {
                continue;
            };
            if let Some(target) = converted_type(&function.sig) {
                setters.insert(function.sig.ident.to_string(), target.clone());
            }
        }
    }
    builders
}

/// `T` of a setter's `where V: std::convert::TryInto<T>`.
fn converted_type(signature: &syn::Signature) -> Option<&syn::Type> {
    let predicates = &signature.generics.where_clause.as_ref()?.predicates;
    predicates.iter().find_map(|predicate| {
        let syn::WherePredicate::Type(bound) = predicate else {
            return None;
        };
        bound.bounds.iter().find_map(|bound| {
            let syn::TypeParamBound::Trait(bound) = bound else {
                return None;
            };
            let last = bound.path.segments.last()?;
            if !super::typify_output::is_setter_conversion(last) {
                return None;
            }
            let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
                return None;
            };
            arguments.args.iter().find_map(|argument| match argument {
                syn::GenericArgument::Type(target) => Some(target),
                _ => None,
            })
        })
    })
}
