//! The `hub` command line (`hub-cli/src/generated.rs`): one subcommand per operation of the spec,
//! generated from the down-levelled document and the generated client's builder methods.
//!
//! What is generated is a table (`Operation`s as Rust constants: names, help, parameters,
//! body, secrets in the response) and one dispatch function that calls each operation's builder
//! with typed values; `hub-cli/src/main.rs` builds the clap commands from the table and runs
//! them. Every name the user types is decided here, in [`group_name`], [`command_name`] and
//! [`flag_name`], from the spec alone:
//!
//! - the group is the operation's first tag (`notifications`, `webhooks`, ...);
//! - the command is the operationId in kebab case without the words of its tag
//!   (`listNotifications` under `notifications` is `list`, `getStorageAccessToken` under
//!   `storage` is `get-access-token`);
//! - path parameters are positional, in path order; query parameters are options named after
//!   the parameter in kebab case (`readStatus` is `--read-status`; a one-letter name is a short
//!   option, `p` is `-p`); the body is `--body FILE` (`-` for standard input). A path
//!   parameter's placeholder is its name in upper snake case (`<WEBHOOK_ID>`).
//!
//! progenitor 0.15's own CLI generator was not used: it needs `schemars::JsonSchema` on every
//! type (the patched types have none), leaves naming and output to hand-written code, and emits
//! `todo!()` and `unwrap()` where this must not panic.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use serde_json::Value;

use crate::Error;
use crate::model::Document;

/// Where the generated CLI table lives, relative to the workspace root.
pub const CLI_PATH: &str = "hub-cli/src/generated.rs";

/// Options every operation command may have besides its parameters; a parameter with one of
/// these names would be ambiguous.
const RESERVED_FLAGS: &[&str] = &["--body", "--base-url", "--show-secrets", "--help", "-h"];

/// Generates the CLI file for `document` (the down-levelled, patched spec) and `client` (the
/// generated client's Rust text, for the builder method names and parameter types). `header` is
/// the `@generated` line, so that the file names the spec it came from.
pub fn generate(
    document: &Value,
    client: &str,
    secret_schemas: &BTreeSet<String>,
    header: &str,
) -> Result<String, Error> {
    let client = syn::parse_file(client).map_err(|error| Error::Syntax(error.to_string()))?;
    let builders = builder_methods(&client);
    let mut operations = Vec::new();
    for operation in Document::new(document).operations() {
        operations.push(describe(
            document,
            operation.path,
            operation.method,
            operation.item,
            operation.value,
            &builders,
            secret_schemas,
        )?);
    }
    let mut seen = BTreeMap::new();
    for operation in &operations {
        let name = format!("{} {}", operation.group, operation.name);
        if let Some(other) = seen.insert(name.clone(), operation.id.clone()) {
            return Err(preflight(
                &operation.id,
                format!("its command `hub {name}` is also `{other}`'s; rename one operationId"),
            ));
        }
    }
    let groups = groups(document, &operations);
    let tokens = emit(&groups, &operations);
    let file =
        syn::parse2::<syn::File>(tokens).map_err(|error| Error::Syntax(error.to_string()))?;
    Ok(format!("{header}{}", prettyplease::unparse(&file)))
}

/// One operation as the command line sees it.
struct Operation {
    id: String,
    group: String,
    name: String,
    method: String,
    path: String,
    about: String,
    long_about: String,
    params: Vec<Param>,
    /// The body's Rust type, whether it is required, its schema name and an example.
    body: Option<(syn::Type, bool, String, String)>,
    anonymous: bool,
    returns_body: bool,
    response: String,
    secrets: Vec<String>,
}

struct Param {
    name: String,
    flag: String,
    positional: bool,
    required: bool,
    kind: &'static str,
    help: String,
    example: String,
    setter: syn::Ident,
    rust_type: syn::Type,
}

fn describe(
    document: &Value,
    path: &str,
    method: &str,
    item: &Value,
    operation: &Value,
    builders: &BTreeMap<String, BTreeMap<String, syn::Type>>,
    secret_schemas: &BTreeSet<String>,
) -> Result<Operation, Error> {
    let id = text(operation, "operationId").ok_or_else(|| {
        preflight(
            &format!("{} {path}", method.to_uppercase()),
            "has no operationId",
        )
    })?;
    // An operation without a tag goes under its path's first word (`/api/settings/papers` is
    // `hub settings`), beside the tagged operations of the same resource.
    let untagged_group = path_group(path);
    let tag = operation
        .get("tags")
        .and_then(Value::as_array)
        .and_then(|tags| tags.first())
        .and_then(Value::as_str)
        .or(untagged_group.as_deref())
        .ok_or_else(|| {
            preflight(
                &id,
                "has no tag and its path no word, so no `hub <group>` to put it under",
            )
        })?;
    let builder = upper_camel(&id);
    let setters = builders
        .get(&builder)
        .ok_or_else(|| preflight(&id, format!("the client has no builder `{builder}`")))?;

    let mut params = Vec::new();
    let declared = array(item.get("parameters")).chain(array(operation.get("parameters")));
    for param in declared {
        let param = resolve(document, param);
        let name = text(param, "name").unwrap_or_default();
        let location = text(param, "in").unwrap_or_default();
        if location != "path" && location != "query" {
            return Err(preflight(
                &id,
                format!(
                    "parameter `{name}` is in `{location}`; the CLI sends path and query parameters only"
                ),
            ));
        }
        let schema = resolve(document, param.get("schema").unwrap_or(&Value::Null));
        let positional = location == "path";
        let flag = if positional {
            value_name(&name)
        } else {
            flag_name(&name)
        };
        if !positional && RESERVED_FLAGS.contains(&flag.as_str()) {
            return Err(preflight(
                &id,
                format!("parameter `{name}` would be `{flag}`, which the CLI uses itself"),
            ));
        }
        let setter = snake_case(&name);
        let rust_type = setters.get(&setter).cloned().ok_or_else(|| {
            preflight(
                &id,
                format!("the builder has no method `{setter}` for `{name}`"),
            )
        })?;
        params.push(Param {
            positional,
            required: positional || param.get("required") == Some(&Value::Bool(true)),
            kind: match text(schema, "type").as_deref() {
                Some("integer") => "Integer",
                Some("number") => "Number",
                Some("boolean") => "Boolean",
                _ => "String",
            },
            help: param_help(param, schema),
            example: param
                .get("example")
                .or_else(|| schema.get("examples").and_then(|examples| examples.get(0)))
                .map(|example| {
                    example
                        .as_str()
                        .map_or_else(|| example.to_string(), str::to_owned)
                })
                .unwrap_or_default(),
            setter: syn::Ident::new(&setter, proc_macro2::Span::call_site()),
            rust_type,
            flag,
            name,
        });
    }
    // Path parameters in the order the path names them, so the positional order reads like it.
    params.sort_by_key(|param| {
        if param.positional {
            path.find(&format!("{{{}}}", param.name))
                .unwrap_or(usize::MAX)
        } else {
            usize::MAX
        }
    });

    let body = match operation.get("requestBody") {
        Some(body) => {
            let body = resolve(document, body);
            let rust_type = setters
                .get("body")
                .cloned()
                .ok_or_else(|| preflight(&id, "the builder has no `body` method"))?;
            let schema = body
                .pointer("/content/application~1json/schema/$ref")
                .and_then(Value::as_str)
                .and_then(|reference| reference.rsplit('/').next())
                .unwrap_or("JSON value")
                .to_owned();
            let media = body.pointer("/content/application~1json");
            let example = media
                .and_then(|media| media.get("examples"))
                .and_then(Value::as_object)
                .and_then(|examples| examples.values().next())
                .and_then(|example| resolve(document, example).get("value"))
                .or_else(|| media.and_then(|media| media.get("example")))
                .map(Value::to_string)
                .unwrap_or_default();
            Some((
                rust_type,
                body.get("required") == Some(&Value::Bool(true)),
                schema,
                example,
            ))
        }
        None => None,
    };

    let success = object(operation.get("responses"))
        .find(|(status, _)| status.starts_with('2'))
        .map(|(_, response)| resolve(document, response));
    let response_schema =
        success.and_then(|response| response.pointer("/content/application~1json/schema"));
    let mut secrets = Vec::new();
    if let Some(schema) = response_schema {
        secret_paths(
            document,
            schema,
            secret_schemas,
            "",
            &mut Vec::new(),
            &mut secrets,
        );
    }

    Ok(Operation {
        group: group_name(tag),
        name: command_name(&id, tag),
        method: method.to_uppercase(),
        path: path.to_owned(),
        about: text(operation, "summary").unwrap_or_else(|| id.clone()),
        long_about: text(operation, "description").unwrap_or_default(),
        params,
        body,
        // `security: []` on the operation: the hub takes it without a token, and none is sent.
        anonymous: operation.get("security") == Some(&Value::Array(Vec::new())),
        returns_body: response_schema.is_some(),
        response: response_schema
            .and_then(|schema| schema.get("$ref"))
            .and_then(Value::as_str)
            .and_then(|reference| reference.rsplit('/').next())
            .unwrap_or_default()
            .to_owned(),
        secrets,
        id,
    })
}

/// The group of an operation without a tag: its path's first segment that is neither `api`
/// nor a parameter (`/api/settings/papers` is `settings`).
fn path_group(path: &str) -> Option<String> {
    path.split('/')
        .find(|segment| !segment.is_empty() && *segment != "api" && !segment.starts_with('{'))
        .map(str::to_owned)
}

/// `hub <group>`: the tag as written, in kebab case.
pub fn group_name(tag: &str) -> String {
    words(tag).join("-")
}

/// `hub <group> <command>`: the operationId's words without the words of its tag (singular or
/// plural), in kebab case; the whole operationId when nothing else would be left.
pub fn command_name(operation_id: &str, tag: &str) -> String {
    let tag_words: Vec<String> = words(tag)
        .into_iter()
        .flat_map(|word| {
            let singular = word.strip_suffix('s').unwrap_or(&word).to_owned();
            [format!("{singular}s"), singular]
        })
        .collect();
    let all = words(operation_id);
    let kept: Vec<String> = all
        .iter()
        .filter(|word| !tag_words.contains(word))
        .cloned()
        .collect();
    if kept.is_empty() { all } else { kept }.join("-")
}

/// The option for a query parameter: `--kebab-case`, or `-x` for a one-letter name.
pub fn flag_name(parameter: &str) -> String {
    let kebab = words(parameter).join("-");
    if kebab.chars().count() == 1 {
        format!("-{kebab}")
    } else {
        format!("--{kebab}")
    }
}

/// The placeholder of a path parameter in usage lines: `webhookId` is `WEBHOOK_ID`.
pub fn value_name(parameter: &str) -> String {
    words(parameter).join("_").to_uppercase()
}

/// Lowercase words of a camelCase, snake_case or kebab-case name.
fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    let mut previous_lower = false;
    for c in name.chars() {
        if c == '_' || c == '-' || c == ' ' {
            if !current.is_empty() {
                out.push(std::mem::take(&mut current));
            }
            previous_lower = false;
            continue;
        }
        if c.is_uppercase() && previous_lower && !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
        current.extend(c.to_lowercase());
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// progenitor's method name for an operationId or parameter.
fn snake_case(name: &str) -> String {
    words(name).join("_")
}

/// progenitor's builder type name for an operationId.
fn upper_camel(name: &str) -> String {
    words(name)
        .iter()
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect::<String>())
                .unwrap_or_default()
        })
        .collect()
}

fn param_help(param: &Value, schema: &Value) -> String {
    let mut help = text(param, "description")
        .or_else(|| text(schema, "description"))
        .unwrap_or_default();
    let values: Vec<&str> = array(schema.get("enum"))
        .filter_map(Value::as_str)
        .collect();
    if !values.is_empty() {
        help.push_str(&format!(" [one of: {}]", values.join(", ")));
    }
    if let Some(default) = schema.get("default") {
        let default = default
            .as_str()
            .map_or_else(|| default.to_string(), str::to_owned);
        help.push_str(&format!(" [default: {default}]"));
    }
    help.trim().to_owned()
}

/// JSON paths (`/`-separated, `*` for any item or map value) of the response values whose
/// schema is a secret component.
fn secret_paths(
    document: &Value,
    schema: &Value,
    secret_schemas: &BTreeSet<String>,
    at: &str,
    visiting: &mut Vec<String>,
    out: &mut Vec<String>,
) {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or_default().to_owned();
        if secret_schemas.contains(&name) {
            out.push(if at.is_empty() {
                "/".to_owned()
            } else {
                at.to_owned()
            });
            return;
        }
        if visiting.contains(&name) {
            return;
        }
        visiting.push(name);
        let target = resolve(document, schema);
        secret_paths(document, target, secret_schemas, at, visiting, out);
        visiting.pop();
        return;
    }
    for (_, child) in crate::model::subschemas(schema) {
        let inner = match (child.keyword, child.key) {
            ("properties", Some(key)) => format!("{at}/{key}"),
            ("items" | "additionalProperties", _) if child.schema.is_object() => {
                format!("{at}/*")
            }
            ("allOf" | "oneOf" | "anyOf", _) => at.to_owned(),
            _ => continue,
        };
        secret_paths(
            document,
            child.schema,
            secret_schemas,
            &inner,
            visiting,
            out,
        );
    }
}

/// Each builder's setter methods and the type each one converts its value into
/// (`fn p<V>(..) where V: TryInto<T>` gives `p -> T`).
fn builder_methods(client: &syn::File) -> BTreeMap<String, BTreeMap<String, syn::Type>> {
    let mut builders: BTreeMap<String, BTreeMap<String, syn::Type>> = BTreeMap::new();
    let builder_items = client.items.iter().find_map(|item| match item {
        syn::Item::Mod(module) if module.ident == "builder" => {
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
                setters.insert(function.sig.ident.to_string(), target);
            }
        }
    }
    builders
}

/// `T` of `where V: std::convert::TryInto<T>`, written as a path the CLI crate can name.
fn converted_type(signature: &syn::Signature) -> Option<syn::Type> {
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
            if last.ident != "TryInto" {
                return None;
            }
            let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
                return None;
            };
            arguments.args.iter().find_map(|argument| match argument {
                syn::GenericArgument::Type(target) => Some(for_cli_crate(target)),
                _ => None,
            })
        })
    })
}

/// A type of the generated client as the CLI crate names it: anything under a `types` module
/// is `hub_api::types::...`; other paths (`::std::string::String`) stay as they are.
fn for_cli_crate(target: &syn::Type) -> syn::Type {
    let syn::Type::Path(path) = target else {
        return target.clone();
    };
    let segments: Vec<&syn::PathSegment> = path.path.segments.iter().collect();
    match segments
        .iter()
        .rposition(|segment| segment.ident == "types")
    {
        Some(at) => {
            let rest = segments[at + 1..]
                .iter()
                .map(|segment| segment.to_token_stream());
            syn::parse_quote!(::hub_api::types #(:: #rest)*)
        }
        None => target.clone(),
    }
}

fn groups(document: &Value, operations: &[Operation]) -> Vec<(String, String)> {
    let mut groups: Vec<(String, String)> = Vec::new();
    for tag in array(document.get("tags")) {
        let name = text(tag, "name").unwrap_or_default();
        let group = group_name(&name);
        if operations.iter().any(|operation| operation.group == group) {
            groups.push((group, text(tag, "description").unwrap_or_default()));
        }
    }
    for operation in operations {
        if !groups.iter().any(|(name, _)| *name == operation.group) {
            groups.push((operation.group.clone(), String::new()));
        }
    }
    groups
}

fn emit(groups: &[(String, String)], operations: &[Operation]) -> TokenStream {
    let group_items = groups.iter().map(|(name, about)| {
        quote! { Group { name: #name, about: #about } }
    });
    let operation_items = operations.iter().map(|operation| {
        let Operation {
            id,
            group,
            name,
            method,
            path,
            about,
            long_about,
            anonymous,
            returns_body,
            response,
            secrets,
            ..
        } = operation;
        let params = operation.params.iter().map(|param| {
            let Param {
                name,
                flag,
                positional,
                required,
                help,
                example,
                ..
            } = param;
            let kind = syn::Ident::new(param.kind, proc_macro2::Span::call_site());
            quote! {
                Param {
                    name: #name,
                    flag: #flag,
                    positional: #positional,
                    required: #required,
                    kind: Kind::#kind,
                    help: #help,
                    example: #example,
                }
            }
        });
        let body = match &operation.body {
            Some((_, required, schema, example)) => quote! {
                Some(Body { schema: #schema, required: #required, example: #example })
            },
            None => quote! { None },
        };
        quote! {
            Operation {
                id: #id,
                group: #group,
                name: #name,
                method: #method,
                path: #path,
                about: #about,
                long_about: #long_about,
                params: &[#(#params),*],
                body: #body,
                anonymous: #anonymous,
                returns_body: #returns_body,
                response: #response,
                secrets: &[#(#secrets),*],
            }
        }
    });
    let arms = operations.iter().map(|operation| {
        let id = &operation.id;
        let client_method = syn::Ident::new(&snake_case(id), proc_macro2::Span::call_site());
        let setters = operation.params.iter().map(|param| {
            let name = &param.name;
            let setter = &param.setter;
            let rust_type = &param.rust_type;
            quote! {
                if let Some(value) = call.param::<#rust_type>(#name)? {
                    request = request.#setter(value);
                }
            }
        });
        let body = operation.body.as_ref().map(|(rust_type, _, _, _)| {
            quote! {
                if let Some(body) = call.body::<#rust_type>()? {
                    request = request.body(body);
                }
            }
        });
        quote! {
            #id => {
                let mut request = call.client().#client_method();
                #(#setters)*
                #body
                call.reply(request.send().await).await
            }
        }
    });
    quote! {
        //! The `hub` commands, one per operation of the spec: what `cargo xtask regen` derives
        //! from `spec/openapi.yaml` (see `hub-api-codegen`'s `cli` module). Never edited by hand.

        use crate::run::{Body, Call, Failure, Group, Kind, Operation, Param, Reply};

        /// One `hub <group>` per tag that has operations, in the spec's order.
        pub const GROUPS: &[Group] = &[#(#group_items),*];

        /// Every operation, in the spec's order.
        pub const OPERATIONS: &[Operation] = &[#(#operation_items),*];

        /// Sends `call`'s operation with its arguments through the generated client's builder.
        #[allow(unused_mut, clippy::too_many_lines)]
        pub async fn send(call: &Call<'_>) -> Result<Reply, Failure> {
            match call.operation().id {
                #(#arms)*
                other => Err(Failure::unknown_operation(other)),
            }
        }
    }
}

fn preflight(operation: &str, reason: impl Into<String>) -> Error {
    Error::Preflight {
        operation: operation.to_owned(),
        reason: reason.into(),
    }
}

/// Follows local `$ref`s; a broken one gives `null`, which describes nothing.
fn resolve<'a>(document: &'a Value, value: &'a Value) -> &'a Value {
    Document::new(document)
        .resolve(value)
        .unwrap_or(&Value::Null)
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn object(value: Option<&Value>) -> impl Iterator<Item = (&String, &Value)> {
    value.and_then(Value::as_object).into_iter().flatten()
}

fn array(value: Option<&Value>) -> impl Iterator<Item = &Value> {
    value.and_then(Value::as_array).into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_operation_without_a_tag_goes_under_its_path_s_first_word() {
        assert_eq!(
            path_group("/api/settings/papers").as_deref(),
            Some("settings")
        );
        assert_eq!(path_group("/{namespace}/models").as_deref(), Some("models"));
        assert_eq!(path_group("/api/{id}"), None);
    }

    #[test]
    fn names_come_from_tags_and_operation_ids() {
        assert_eq!(command_name("listNotifications", "notifications"), "list");
        assert_eq!(
            command_name("markNotificationsAsRead", "notifications"),
            "mark-as-read"
        );
        assert_eq!(command_name("createWebhook", "webhooks"), "create");
        assert_eq!(
            command_name("getStorageAccessToken", "storage"),
            "get-access-token"
        );
        assert_eq!(
            command_name("updateWatchSettings", "settings"),
            "update-watch"
        );
        assert_eq!(
            command_name("revokeCredentials", "tokens"),
            "revoke-credentials"
        );
        // Nothing left without the tag's words: the whole id.
        assert_eq!(command_name("webhooks", "webhooks"), "webhooks");
        assert_eq!(group_name("storage"), "storage");
        assert_eq!(flag_name("readStatus"), "--read-status");
        assert_eq!(flag_name("p"), "-p");
        assert_eq!(upper_camel("getMcpSettings"), "GetMcpSettings");
        assert_eq!(
            snake_case("markNotificationsAsRead"),
            "mark_notifications_as_read"
        );
    }

    #[test]
    fn types_of_the_client_are_named_from_the_cli_crate() {
        let local: syn::Type = syn::parse_quote!(crate::generated::types::PageNumber);
        let relative: syn::Type = syn::parse_quote!(types::RepoType);
        let std: syn::Type = syn::parse_quote!(::std::string::String);
        let text = |target: &syn::Type| for_cli_crate(target).to_token_stream().to_string();
        assert_eq!(text(&local), ":: hub_api :: types :: PageNumber");
        assert_eq!(text(&relative), ":: hub_api :: types :: RepoType");
        assert_eq!(text(&std), ":: std :: string :: String");
    }
}
