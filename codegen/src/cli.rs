//! The `hub` command line (`hub-cli/src/generated.rs`): one subcommand per operation of the spec,
//! generated from the down-levelled document and the generated client's builder methods.
//!
//! What is generated is a table (`Operation`s as Rust constants: names, help, parameters,
//! body, paging, secrets in the response) and one dispatch function that calls each operation's
//! builder with typed values; `hub-cli/src/run.rs` builds the clap commands from the table and
//! runs them (through the library's hand-written helpers where it has one). Every name the user
//! types is decided here, in [`noun_verb`], [`flag_name`] and [`value_name`], from the spec
//! alone, by one rule:
//!
//! - a command is `hub <noun> <verb>`, read from the operationId: the verb is its first word,
//!   the noun the words after it up to a linking word (`as`, `to`, `for`, ...), and what follows
//!   the linking word stays with the verb (`listNotifications` is `notifications list`,
//!   `markNotificationsAsRead` is `notifications mark-as-read`, `getMcpSettings` is
//!   `mcp-settings get`, `revokeCredentials` is `credentials revoke`,
//!   `getStorageAccessToken` is `storage-access-token get`);
//! - nouns that differ only by a final `s` are one noun, spelled with it (`createWebhook` and
//!   `listWebhooks` are both under `webhooks`);
//! - an operationId of one word (or a verb and a linking word only) goes under its tag (or its
//!   path's first word) with the whole id as the verb;
//! - the spelling of earlier versions, `hub <tag> <operationId without the tag's words>`
//!   ([`legacy_spelling`]), stays accepted as a hidden command for the operations that had it
//!   (`SPELLED_THE_OLD_WAY`), so scripts keep working; an operation added since has none;
//! - path parameters are positional, in path order; query parameters are options named after
//!   the parameter in kebab case (`readStatus` is `--read-status`; a one-letter name is a short
//!   option, `p` is `-p`, but a one-letter page parameter is `--page`, with `-p` kept as its
//!   short option); the body is `--body FILE` (`-` for standard input). A path
//!   parameter's placeholder is its name in upper snake case (`<WEBHOOK_ID>`).
//!
//! An operation pages when it takes an integer query parameter `p` or `page` and its success
//! body is a list (an array, or an object with one array property): `hub` gets `--paginate` for it.
//!
//! progenitor 0.15's own CLI generator was not used: it needs `schemars::JsonSchema` on every
//! type (the patched types have none), leaves naming and output to hand-written code, and emits
//! `todo!()` and `unwrap()` where this must not panic.

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use serde_json::Value;

use crate::Error;
use crate::contract::progenitor_output;
use crate::model::Document;

/// Where the generated CLI table lives, relative to the workspace root.
pub const CLI_PATH: &str = "hub-cli/src/generated.rs";

/// Options every operation command may have besides its parameters; a parameter with one of
/// these names would be ambiguous.
const RESERVED_FLAGS: &[&str] = &[
    "--body",
    "--base-url",
    "--show-secrets",
    "--paginate",
    "--field",
    "--help",
    "-h",
    "--version",
    "-V",
];

/// Words that end an operationId's noun; they and the words after them stay with the verb
/// (`markNotificationsAsRead` is `notifications mark-as-read`).
const LINKING_WORDS: &[&str] = &[
    "as", "to", "for", "from", "by", "with", "of", "in", "into", "on", "at",
];

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
    // Nouns that differ only by a final `s` are one noun, with the `s`.
    let nouns: BTreeSet<String> = operations.iter().map(|op| op.group.clone()).collect();
    for operation in &mut operations {
        let plural = format!("{}s", operation.group);
        if nouns.contains(&plural) {
            operation.group = plural;
        }
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
    // The old spelling stays where it is not the new one, nor another operation's command.
    for operation in &mut operations {
        if let Some((group, name)) = &operation.legacy
            && seen.contains_key(&format!("{group} {name}"))
        {
            operation.legacy = None;
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
    /// The noun.
    group: String,
    /// The tag (or path word) the operation is under in the spec.
    tag: String,
    /// The old `hub <tag> <command>` spelling, when it differs from the new one.
    legacy: Option<(String, String)>,
    /// The page parameter and the list property (empty for a top-level array).
    paging: Option<(String, String)>,
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
    let builder = crate::contract::builder_name(&id);
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
        // progenitor names a parameter's setter by its rule for method names.
        let setter = crate::contract::method_name(&name);
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

    let paging = paging(document, &params, response_schema);
    let mut params = params;
    if let Some((page, _)) = &paging {
        page_flag(&mut params, page);
    }
    let (noun, verb) = noun_verb(&id, tag);
    // Only a command that was spelled the old way keeps that spelling; a new one has none.
    let legacy = SPELLED_THE_OLD_WAY
        .contains(&id.as_str())
        .then(|| legacy_spelling(&id, tag))
        .filter(|legacy| *legacy != (noun.clone(), verb.clone()));
    Ok(Operation {
        legacy,
        group: noun,
        name: verb,
        tag: tag.to_owned(),
        paging,
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

/// The page parameter and the list property of an operation that pages: an integer query
/// parameter `p` or `page`, and a success body that is an array (list property `""`) or an
/// object with exactly one array property.
fn paging(
    document: &Value,
    params: &[Param],
    response: Option<&Value>,
) -> Option<(String, String)> {
    let param = params.iter().find(|param| {
        !param.positional && param.kind == "Integer" && matches!(param.name.as_str(), "p" | "page")
    })?;
    let schema = resolve(document, response?);
    if text(schema, "type").as_deref() == Some("array") {
        return Some((param.name.clone(), String::new()));
    }
    let arrays: Vec<&String> = object(schema.get("properties"))
        .filter(|(_, property)| {
            text(resolve(document, property), "type").as_deref() == Some("array")
        })
        .map(|(name, _)| name)
        .collect();
    match arrays.as_slice() {
        [items] => Some((param.name.clone(), (*items).clone())),
        _ => None,
    }
}

/// The page parameter of an operation that pages is `--page` when its own name is one letter
/// (`p`): a bare `-p <VALUE>` says nothing in `--help`. `hub-cli` keeps the letter as the
/// short option, so `-p 2` still works. A parameter already spelled `--page` keeps the long
/// name for itself.
fn page_flag(params: &mut [Param], page: &str) {
    const PAGE: &str = "--page";
    if params.iter().any(|param| param.flag == PAGE) {
        return;
    }
    if let Some(param) = params
        .iter_mut()
        .find(|param| param.name == page && !param.flag.starts_with("--"))
    {
        param.flag = PAGE.to_owned();
    }
}

/// `hub <noun> <verb>` for an operation (see the [module documentation](self) for the rule;
/// the merging of singular and plural nouns happens across all operations, in `generate`).
pub fn noun_verb(operation_id: &str, tag: &str) -> (String, String) {
    let all = words(operation_id);
    let Some((verb, rest)) = all.split_first() else {
        return (group_name(tag), operation_id.to_owned());
    };
    let end = rest
        .iter()
        .position(|word| LINKING_WORDS.contains(&word.as_str()))
        .unwrap_or(rest.len());
    let (noun, tail) = rest.split_at(end);
    if noun.is_empty() {
        return (group_name(tag), all.join("-"));
    }
    let verb: Vec<&str> = std::iter::once(verb.as_str())
        .chain(tail.iter().map(String::as_str))
        .collect();
    (noun.join("-"), verb.join("-"))
}

/// The operations `hub` had when its commands were spelled `hub <tag> <command>` (up to
/// 2026-11-26): only these keep that spelling as a hidden alias. An operation added since was
/// never spelled so, and a script cannot be using an alias of it.
const SPELLED_THE_OLD_WAY: &[&str] = &[
    "createWebhook",
    "deleteNotifications",
    "deleteWebhook",
    "disableWebhook",
    "enableWebhook",
    "getMcpSettings",
    "getStorageAccessToken",
    "getWebhook",
    "listNotifications",
    "listWebhooks",
    "markNotificationsAsRead",
    "revokeCredentials",
    "updateNotificationSettings",
    "updateWatchSettings",
    "updateWebhook",
];

/// The spelling of earlier versions, `hub <tag> <command>`, still accepted.
pub fn legacy_spelling(operation_id: &str, tag: &str) -> (String, String) {
    (group_name(tag), command_name(operation_id, tag))
}

/// `hub <group>` of the old spelling: the tag as written, in kebab case.
fn group_name(tag: &str) -> String {
    words(tag).join("-")
}

/// `hub <group> <command>` of the old spelling: the operationId's words without the words of
/// its tag (singular or plural), in kebab case; the whole operationId when nothing else would
/// be left.
fn command_name(operation_id: &str, tag: &str) -> String {
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

/// Each builder's setter methods and the type each one converts its value into, as the CLI
/// crate names it (progenitor's setters, [`progenitor_output::builder_setters`]).
fn builder_methods(client: &syn::File) -> BTreeMap<String, BTreeMap<String, syn::Type>> {
    progenitor_output::builder_setters(client)
        .into_iter()
        .map(|(builder, setters)| {
            let setters = setters
                .into_iter()
                .map(|(setter, target)| (setter, for_cli_crate(&target)))
                .collect();
            (builder, setters)
        })
        .collect()
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
        .rposition(|segment| segment.ident == progenitor_output::TYPES_MODULE)
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

/// The nouns with their help text, ordered by their tag's place in the spec's `tags`, then by
/// their first operation. A noun that is the only one of its tag has the tag's description;
/// otherwise its operations' summaries.
fn groups(document: &Value, operations: &[Operation]) -> Vec<(String, String)> {
    let tags: Vec<(String, String)> = array(document.get("tags"))
        .map(|tag| {
            (
                text(tag, "name").unwrap_or_default(),
                text(tag, "description").unwrap_or_default(),
            )
        })
        .collect();
    let tag_place = |tag: &str| {
        tags.iter()
            .position(|(name, _)| name == tag)
            .unwrap_or(tags.len())
    };
    let mut nouns: Vec<(usize, usize, &Operation)> = Vec::new();
    for (place, operation) in operations.iter().enumerate() {
        if !nouns
            .iter()
            .any(|(_, _, first)| first.group == operation.group)
        {
            nouns.push((tag_place(&operation.tag), place, operation));
        }
    }
    nouns.sort_by_key(|(tag, place, _)| (*tag, *place));
    nouns
        .into_iter()
        .map(|(_, _, first)| {
            let nouns_of_tag: BTreeSet<&str> = operations
                .iter()
                .filter(|op| op.tag == first.tag)
                .map(|op| op.group.as_str())
                .collect();
            let description = tags
                .iter()
                .find(|(name, _)| *name == first.tag)
                .map(|(_, description)| description.as_str())
                .unwrap_or_default();
            let about = if nouns_of_tag.len() == 1 && !description.is_empty() {
                description.to_owned()
            } else {
                operations
                    .iter()
                    .filter(|op| op.group == first.group)
                    .map(|op| op.about.as_str())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            (first.group.clone(), about)
        })
        .collect()
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
            legacy,
            paging,
            ..
        } = operation;
        let legacy = match legacy {
            Some((group, name)) => quote! { Some((#group, #name)) },
            None => quote! { None },
        };
        let paging = match paging {
            Some((param, items)) => quote! { Some(Paging { param: #param, items: #items }) },
            None => quote! { None },
        };
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
                legacy: #legacy,
                paging: #paging,
            }
        }
    });
    let arms = operations.iter().map(|operation| {
        let id = &operation.id;
        let client_method = syn::Ident::new(
            &crate::contract::method_name(id),
            proc_macro2::Span::call_site(),
        );
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

        use crate::run::{Body, Call, Failure, Group, Kind, Operation, Paging, Param, Reply};

        /// One `hub <noun>` per noun of the operations, in the order of the spec's tags.
        pub const GROUPS: &[Group] = &[#(#group_items),*];

        /// Every operation, in the spec's order.
        pub const OPERATIONS: &[Operation] = &[#(#operation_items),*];

        /// Sends `call`'s operation with its arguments through the generated client's builder
        /// (the library's client, with its transport and retries).
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
