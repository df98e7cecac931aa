//! The generator contract: everything this crate knows about what progenitor 0.15 and typify
//! 0.8 do, in one place, so that upgrading either is one module to revisit.
//!
//! - what typify keeps of a schema's rules and what it drops ([`typify_keeps`]); a dropped
//!   rule must be enforced by a patch, or [`crate::patch`]'s coverage check stops generation;
//! - how they name things: types and variants in typify's UpperCamelCase ([`rust_ident`]),
//!   an inline schema's type `<Parent><Property>...` ([`type_name_at`], [`type_names`]), operation
//!   methods in snake_case ([`method_name`]) and builder types in UpperCamelCase
//!   ([`builder_name`]);
//! - which inputs make progenitor panic: [`preflight`] (step 4, a submodule so that this
//!   knowledge stays here) lists them in its module doc and refuses each, naming the
//!   operation;
//! - every recogniser of what they write, so that no step outside this module matches their
//!   output by its tokens or its shape: [`typify_output`] (string newtypes and the impls typify
//!   writes for them, string enums and their conversions, an open object's `extra` map,
//!   optional and required-nullable fields, closed structs) and [`progenitor_output`] (the
//!   `types` and `builder` modules and the `Client`, the `api-version` header, the form call,
//!   the hooks and status `match` each operation ends with, the builders' setters), and the
//!   one reader of the `#[serde(...)]` attributes both put on their items ([`serde_attrs`]).
//!   Each recogniser says what is the known shape, what is a known other shape the step
//!   leaves alone, and what is neither, which `emit` reports (an error in a strict run);
//! - what other crates read back from the generated code. typify's builder messages
//!   (`no value supplied for <field>`, `error converting supplied value for <field>: <rule>`)
//!   are parsed by `hub-api`'s `src/error.rs` (`Error::from_conversion_message`) to name the
//!   field; its test `the_generated_builders_messages_have_the_shape_read_here` runs the
//!   generated builders, so it fails when an upgrade words them differently. progenitor's
//!   `Error::InvalidResponsePayload` keeps the response bytes, which `hub-api`'s `partial.rs`
//!   decodes item by item.

pub mod preflight;
pub mod probe;
pub mod progenitor_output;
pub mod run;
pub mod serde_attrs;
pub mod typify_output;

pub use progenitor_output::{
    BodyRead, PROGENITOR_FORM_CALL, PROGENITOR_VERSION_HEADER, ProgenitorReply, ProgenitorSend,
};
pub use typify_output::{TypifyCheck, typify_string_newtype_impls};

use quote::format_ident;
use std::collections::BTreeSet;

use serde_json::Value;

use crate::Error;
use crate::model::{Document, Owner, SchemaAt, mark};
use crate::rules::Rule;

/// Whether typify 0.8 turns `not: excluded` into a type rather than panicking
/// (`convert_not`): a boolean, the empty schema, or a set of literals of one scalar JSON type
/// (with that `type` or none).
pub fn typify_converts_not(excluded: &Value) -> bool {
    let Some(object) = excluded.as_object() else {
        return excluded.is_boolean();
    };
    if object
        .keys()
        .all(|key| key.starts_with("x-") || key == "description")
    {
        return true;
    }
    let Some(Value::Array(values)) = object.get("enum") else {
        return false;
    };
    let kind = |value: &Value| match value {
        Value::Bool(_) => Some("boolean"),
        Value::Number(_) => Some("number"),
        Value::String(_) => Some("string"),
        _ => None,
    };
    let kinds: BTreeSet<Option<&str>> = values.iter().map(kind).collect();
    let only_keys = object.keys().all(|key| {
        matches!(key.as_str(), "enum" | "type" | "description") || key.starts_with("x-")
    });
    only_keys
        && kinds.len() == 1
        && !kinds.contains(&None)
        && object.get("type").is_none_or(Value::is_string)
}

/// Whether typify 0.8 enforces `rule` in the type it generates for a schema stating `all`
/// (the rule among them). `Err` says what it drops, for the coverage message.
///
/// typify keeps `required`, `enum` (but not of booleans), `additionalProperties: false`,
/// `nullable` and string `pattern`/`minLength`/`maxLength` (without `format`). Its
/// `format: date-time` is `chrono::DateTime`, which re-spells the text and is laxer than RFC
/// 3339, so it counts as dropped. Integers count as dropped: serde refuses `1.0` where JSON
/// Schema counts it as the integer 1, and typify reads bounds only to pick a type; except a
/// plain one where the decoder reads it ([`is_plain_integer`]), which stays typify's `i64`.
pub fn typify_keeps(rule: &Rule, all: &[Rule]) -> Result<(), &'static str> {
    let has_format = |wanted: &str| {
        all.iter()
            .any(|rule| matches!(rule, Rule::Format(format) if format == wanted))
    };
    match rule {
        // typify reads an `enum` of booleans as `bool`: `const: true` would take `false`.
        Rule::Literals(values) if values.iter().any(Value::is_boolean) => Err("boolean literals"),
        Rule::Required(_) | Rule::Literals(_) | Rule::Closed | Rule::Nullable => Ok(()),
        Rule::MinLength(_) | Rule::MaxLength(_) => Ok(()),
        Rule::Pattern(_) if has_format("date-time") => Err("the `pattern` of a `date-time` string"),
        Rule::Pattern(_) => Ok(()),
        // typify's `chrono::DateTime` writes the instant back in its own spelling
        // (`.000Z` becomes `Z`) and takes years JSON Schema refuses (`-2026-...`).
        Rule::Format(format) if format == "date-time" => Err("`format: date-time` kept as sent"),
        // typify types an integer of a width format as the Rust integer of that width
        // (`int32` is `i32`), which holds exactly the format's range.
        Rule::Format(format) if crate::rules::integer_width(format).is_some() => Ok(()),
        Rule::Format(_) => Err("this `format`"),
        Rule::Integer => Err("integers written as `1.0` and integer bounds"),
        Rule::Minimum { .. } | Rule::Maximum { .. } => Err("numeric bounds"),
        Rule::MultipleOf(_) => Err("`multipleOf`"),
        // `minItems == maxItems > 0` (without `uniqueItems`) is typify's fixed-size array
        // `[T; N]`, which holds exactly that many items.
        Rule::MinItems(_) | Rule::MaxItems(_) if fixed_size(all).is_some() => Ok(()),
        Rule::MinItems(_) | Rule::MaxItems(_) => Err("array sizes"),
        Rule::UniqueItems => Err("unique items"),
        // 3.0, which progenitor reads, has no tuples.
        Rule::Tuple(_) => Err("tuple positions (`prefixItems`)"),
        Rule::MinProperties(_) | Rule::MaxProperties(_) => Err("object sizes"),
        Rule::PropertyNames => Err("map key rules (`propertyNames`)"),
        Rule::Not => Err("`not`"),
        Rule::Discriminator => Err("discriminators"),
        // typify's untagged enum decodes the first member that fits; emit's first-fit unions
        // make strict decoding of a `oneOf` try every member (and report an enum they cannot
        // rewrite).
        Rule::ExactlyOne => Ok(()),
    }
}

/// Whether the schema at `pointer` of the down-levelled `document` is an integer that stays
/// typify's plain Rust integer (`i64`, or its width format's type): it states no bound, step or
/// list, and sits where only the generated code reads it whole: a property (or the one part of
/// a property's `allOf`, which is how a nullable union `anyOf: [integer, null]` reads in 3.0:
/// typify writes `Option<i64>`), which the shared object decoder reads as any number without a
/// fraction (`3.0` is the integer 3 to JSON Schema, and to the decoder), or a parameter, which
/// is only sent; or the items of such a property's or parameter's plain list (`Vec<i64>`).
/// Anywhere else (the items of a counted list, a union member, a map's values, a component)
/// an integer keeps its checked type, whose decoder does the same.
pub fn is_plain_integer(document: &Value, schema: &Value, pointer: &str) -> bool {
    let Some(object) = schema.as_object() else {
        return false;
    };
    let integer = object.get("type").and_then(Value::as_str) == Some("integer");
    let checked = [
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "enum",
        "const",
    ]
    .iter()
    .any(|keyword| object.contains_key(*keyword));
    let mut tokens = pointer.rsplit('/');
    // The value the schema sits in: an `allOf`'s list, an array schema.
    let holder = || {
        pointer
            .rsplit_once('/')
            .and_then(|(holder, _)| document.pointer(holder))
    };
    let place = match (tokens.next(), tokens.next(), tokens.next(), tokens.next()) {
        (Some(_), Some("properties"), ..) | (Some("schema"), Some(_), Some("parameters"), _) => {
            true
        }
        (Some(_), Some("allOf"), Some(_), Some("properties")) => holder()
            .and_then(Value::as_array)
            .is_some_and(|parts| parts.len() == 1),
        // The items of a property's list that typify writes as a bare `Vec` (no count or
        // uniqueness to check), which the decoder reads item by item; or of a parameter's.
        (Some("items"), Some(_), Some("properties"), _)
        | (Some("items"), Some("schema"), Some(_), Some("parameters")) => {
            holder().and_then(Value::as_object).is_some_and(|array| {
                array.get("type").and_then(Value::as_str) == Some("array")
                    && ["minItems", "maxItems", "uniqueItems", "x-prefixItems"]
                        .iter()
                        .all(|keyword| !array.contains_key(*keyword))
            })
        }
        _ => false,
    };
    integer && !checked && place
}

/// `N` when typify emits the array schema stating `all` as the fixed-size array `[T; N]`.
pub fn fixed_size(all: &[Rule]) -> Option<u64> {
    let min = all.iter().find_map(|rule| match rule {
        Rule::MinItems(min) => Some(*min),
        _ => None,
    })?;
    let max = all.iter().find_map(|rule| match rule {
        Rule::MaxItems(max) => Some(*max),
        _ => None,
    })?;
    // serde implements `Deserialize` and `Serialize` for arrays of at most 32 items only;
    // a longer fixed size is a bounded array (a `Vec` whose count is checked).
    (min == max && min > 0 && min <= 32 && !all.contains(&Rule::UniqueItems)).then_some(min)
}

/// The Rust type or variant identifier for a schema name or tag value, spelled by typify's
/// rule ([`typify_name`]). `pointer` names the place for the error when the name has no letter
/// or digit at all (typify would call it `X`, which says nothing).
pub fn rust_ident(name: &str, pointer: &str) -> Result<syn::Ident, Error> {
    if !name.chars().any(char::is_alphanumeric) {
        return Err(Error::patch(
            pointer,
            format!("`{name}` does not make a Rust identifier"),
        ));
    }
    Ok(format_ident!("{}", typify_name(name)))
}

/// Every name a component schema takes: its key and the name typify gives its type
/// (`searchResponse` is `SearchResponse`), so that a schema moved or added among them takes
/// neither.
pub(crate) fn component_names_in_use(document: &Value) -> std::collections::BTreeSet<String> {
    document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|schemas| schemas.keys())
        .flat_map(|key| [key.clone(), typify_name(key)])
        .collect()
}

/// typify's rule for names: every character that cannot continue an identifier is a word
/// break, the words are joined in UpperCamelCase by `heck` (`CreatedTeamAPIKey` ->
/// `CreatedTeamApiKey`, `community_blog` -> `CommunityBlog`), a name that cannot start an
/// identifier is prefixed with `X` (`2fa` -> `X2fa`, `""` -> `X`), and a keyword gains a
/// trailing `_`. Every place that finds a type or variant typify named goes through here.
pub fn typify_name(name: &str) -> String {
    use heck::ToPascalCase;
    let out = match name {
        // typify's two special cases, so that `+1` and `-1` stay apart.
        "+1" => "Plus1".to_owned(),
        "-1" => "Minus1".to_owned(),
        _ => name
            .replace('\'', "")
            .replace(|c: char| !unicode_ident::is_xid_continue(c), "-")
            .to_pascal_case(),
    };
    let out = if out.starts_with(unicode_ident::is_xid_start) {
        out
    } else {
        format!("X{out}")
    };
    match syn::parse_str::<syn::Ident>(&out) {
        Ok(_) if out != "Self" => out,
        _ => format!("{out}_"),
    }
}

/// The variant names typify gives a string enum's values, or `None` where it cannot make them
/// unique and panics instead: first each value by [`typify_name`]; if two collide, again with
/// every `_` and every character that cannot continue an identifier spelled `X`.
pub fn typify_variant_names(values: &[&str]) -> Option<Vec<String>> {
    let unique = |names: &[String]| {
        let mut seen = std::collections::BTreeSet::new();
        names.iter().all(|name| seen.insert(name))
    };
    let first: Vec<String> = values.iter().map(|value| typify_name(value)).collect();
    if unique(&first) {
        return Some(first);
    }
    let second: Vec<String> = values
        .iter()
        .map(|value| {
            typify_name(&value.replace(
                |c: char| c == '_' || !unicode_ident::is_xid_continue(c),
                "X",
            ))
        })
        .collect();
    unique(&second).then_some(second)
}

/// progenitor's method name for an `operationId` (`listNotifications` -> `list_notifications`,
/// `getMCPSettings` -> `get_mcp_settings`): its snake-case rule ([`progenitor_name`]).
pub fn method_name(operation_id: &str) -> String {
    progenitor_name(operation_id, heck::ToSnakeCase::to_snake_case)
}

/// The argument progenitor passes an operation's request body as, beside its parameters.
pub const BODY_ARGUMENT: &str = "body";

/// progenitor's builder type name for an `operationId` (`getMcpSettings` -> `GetMcpSettings`).
pub fn builder_name(operation_id: &str) -> String {
    progenitor_name(operation_id, heck::ToPascalCase::to_pascal_case)
}

/// progenitor's own rule for the names it makes from an `operationId`, which differs from
/// typify's ([`typify_name`]) in one respect: a name that cannot start an identifier gains a
/// leading `_`, not `X`, and an empty one is `x` in the case.
fn progenitor_name(name: &str, case: fn(&str) -> String) -> String {
    let out = match name {
        "+1" => case("plus1"),
        "-1" => case("minus1"),
        _ => case(
            &name
                .replace('\'', "")
                .replace(|c: char| !unicode_ident::is_xid_continue(c), "-"),
        ),
    };
    let out = match out.chars().next() {
        None => case("x"),
        Some(first) if unicode_ident::is_xid_start(first) => out,
        Some(_) => format!("_{out}"),
    };
    match syn::parse_str::<syn::Ident>(&out) {
        Ok(_) if out != "Self" => out,
        _ => format!("{out}_"),
    }
}

/// The type name typify and progenitor give the schema at `pointer` under the schema root at
/// `root` (owned by `owner`): the owner's type name (a component's, or `<OperationId>Body`,
/// `<OperationId>Response`, `<OperationId><Parameter>`), then one word per step
/// (`<Property>`, `Item`, `Item<i>` for a tuple's position, `Value`, `Key`, `Variant<i>`). Inline schemas hoisted for a patch
/// get the same name, so a hub name stays when a rule moves from typify to a patch.
pub fn type_name_at(
    document: &Value,
    root: &str,
    owner: &Owner,
    pointer: &str,
) -> Result<String, Error> {
    let fail = |why: &str| Error::Inline {
        pointer: pointer.to_owned(),
        reason: format!("it needs a patch but {why}; give it a name in `components/schemas`"),
    };
    let mut name = match owner {
        Owner::Schema(component) => rust_ident(component, pointer)?.to_string(),
        Owner::Operation(id) => {
            let operation = rust_ident(id, pointer)?;
            if root.contains("/requestBody/") {
                format!("{operation}Body")
            } else if root.contains("/responses/") {
                format!("{operation}Response")
            } else {
                let parameter = root
                    .strip_suffix("/schema")
                    .and_then(|parameter| document.pointer(parameter))
                    .and_then(|parameter| parameter.get("name"))
                    .and_then(Value::as_str)
                    .ok_or_else(|| fail("its parameter has no name"))?;
                format!("{operation}{}", rust_ident(parameter, pointer)?)
            }
        }
        Owner::Component(component) => {
            let last = component.rsplit('/').next().unwrap_or(component);
            rust_ident(last, pointer)?.to_string()
        }
        Owner::Path(_) => return Err(fail("it belongs to a path item's shared parameters")),
    };
    let rest = pointer.strip_prefix(root).unwrap_or_default();
    let mut tokens = rest.split('/').skip(1).map(crate::model::unescape);
    // The schema the next step starts from, while the pointer leads through the document: a
    // union member's word depends on its siblings.
    let mut here = document.pointer(root);
    while let Some(keyword) = tokens.next() {
        let takes_key = crate::model::SUBSCHEMA_KEYWORDS
            .iter()
            .any(|(known, nesting)| *known == keyword && *nesting != crate::model::Nesting::One);
        let key = if takes_key { tokens.next() } else { None };
        let members = here.and_then(|schema| schema.get(&keyword));
        let member_word = union_word(&keyword, members, key.as_deref());
        name.push_str(&match member_word {
            Some(word) => word,
            None => step_word(&keyword, key.as_deref(), pointer)?,
        });
        here = match (members, &key) {
            (Some(Value::Array(list)), Some(key)) => {
                key.parse().ok().and_then(|i: usize| list.get(i))
            }
            (Some(Value::Object(map)), Some(key)) => map.get(key.as_str()),
            (Some(child), None) => Some(child),
            _ => None,
        };
    }
    Ok(name)
}

/// The word of a `oneOf` or `anyOf` member (its index `key`) among `members`:
/// [`union_member_words`]. `None` for any other step.
fn union_word(keyword: &str, members: Option<&Value>, key: Option<&str>) -> Option<String> {
    if !matches!(keyword, "oneOf" | "anyOf") {
        return None;
    }
    let members = members?.as_array()?;
    let index: usize = key?.parse().ok()?;
    union_member_words(members).into_iter().nth(index)
}

/// The names typify gives the members of a union it writes as an untagged enum
/// (`untagged_enum`), which are also the last word of an inline member's type name
/// (`<Enum><Variant>`): each member named by [`union_member_name`], then the prefix the names
/// share (in whole words) cut off; `Variant<i>` for every member when one has no name, two
/// share one, or one is nothing but the shared prefix. The one member of a union of one adds
/// no word.
pub fn union_member_words(members: &[Value]) -> Vec<String> {
    use heck::{ToKebabCase, ToPascalCase};
    // typify writes a union of one member as that member (`maybe_singleton_subschema`), under
    // the union's own name.
    if members.len() == 1 {
        return vec![String::new()];
    }
    let fallback = || {
        (0..members.len())
            .map(|index| format!("Variant{index}"))
            .collect()
    };
    let Some(names) = members
        .iter()
        .map(union_member_name)
        .collect::<Option<Vec<String>>>()
    else {
        return fallback();
    };
    if names.iter().collect::<BTreeSet<_>>().len() != names.len() {
        return fallback();
    }
    // typify compares the names word by word in kebab case and cuts the shared words, spelled
    // again in UpperCamelCase, off the front of each name by their length.
    let common = |a: &str, b: &str| {
        a.to_kebab_case()
            .split('-')
            .zip(b.to_kebab_case().split('-'))
            .take_while(|(a, b)| a == b)
            .map(|(a, _)| a.to_owned())
            .collect::<Vec<_>>()
            .join("-")
            .to_pascal_case()
    };
    let Some(prefix) = names.iter().cloned().reduce(|a, b| common(&a, &b)) else {
        return fallback();
    };
    names
        .iter()
        .map(|name| {
            name.get(prefix.len()..)
                .filter(|rest| !rest.is_empty())
                .map(str::to_owned)
        })
        .collect::<Option<Vec<_>>>()
        .unwrap_or_else(fallback)
}

/// The name typify reads off one union member (`schema_is_named`), as the down-levelled
/// document spells it: a `$ref`'s last segment, a `title`, the one member of a composition
/// that states nothing else, or a single non-nullable `type` (its `format`, when it has one:
/// `date-time` is `DateTime`, `string` is `String`). `None` for anything else.
fn union_member_name(member: &Value) -> Option<String> {
    let object = member.as_object()?;
    if let Some(reference) = object.get("$ref").and_then(Value::as_str) {
        let (_, last) = reference.rsplit_once('/')?;
        return Some(typify_name(last));
    }
    if let Some(title) = object.get("title").and_then(Value::as_str) {
        return Some(typify_name(title));
    }
    let annotation = |key: &str| {
        key.starts_with("x-")
            || matches!(
                key,
                "description"
                    | "example"
                    | "default"
                    | "deprecated"
                    | "readOnly"
                    | "writeOnly"
                    | "externalDocs"
                    | "discriminator"
            )
    };
    let compositions: Vec<&Value> = ["allOf", "anyOf", "oneOf"]
        .iter()
        .filter_map(|keyword| object.get(*keyword))
        .collect();
    if let [Value::Array(parts)] = compositions.as_slice() {
        let alone = object
            .keys()
            .all(|key| annotation(key) || matches!(key.as_str(), "allOf" | "anyOf" | "oneOf"));
        return match parts.as_slice() {
            [part] if alone => union_member_name(part),
            _ => None,
        };
    }
    if object.get("nullable") == Some(&Value::Bool(true)) {
        return None;
    }
    let kind = object.get("type")?.as_str()?;
    match object.get("format").and_then(Value::as_str) {
        Some(format) if !format.is_empty() => Some(typify_name(format)),
        _ => Some(typify_name(kind)),
    }
}

/// The word one step down adds to a type name: `<Property>` for `properties/<name>`, `Item`,
/// `Item<i>` for a tuple's position, `Value`, `Key`, `Variant<i>`; any other keyword (and its
/// key) spelled as an identifier.
fn step_word(keyword: &str, key: Option<&str>, pointer: &str) -> Result<String, Error> {
    Ok(match (keyword, key) {
        ("properties", Some(name)) => rust_ident(name, pointer)?.to_string(),
        ("items", _) => "Item".to_owned(),
        ("additionalProperties", _) => "Value".to_owned(),
        (mark::PROPERTY_NAMES, _) => "Key".to_owned(),
        ("prefixItems" | mark::PREFIX_ITEMS, index) => format!("Item{}", index.unwrap_or_default()),
        ("allOf" | "anyOf" | "oneOf", index) => format!("Variant{}", index.unwrap_or_default()),
        (other, None) => rust_ident(other, pointer)?.to_string(),
        (other, Some(key)) => format!(
            "{}{}",
            rust_ident(other, pointer)?,
            rust_ident(key, pointer)?
        ),
    })
}

/// A type typify 0.8 writes that no schema of the document states: merging an `allOf` of
/// several parts into one type (`merge_so_object`), it reads a part's (through `$ref`)
/// `additionalProperties` schema as the schema of every property another part declares and
/// that part does not, and types such a property as the `allOf` of the two (`filter_prop`,
/// `merge_additional`; only `true` or no `additionalProperties` leaves the property as it is).
/// A property given by `$ref` keeps its referenced type when that merge leaves the referenced
/// schema as it is; a composition (`allOf`) is merged flat, into a copy named
/// `<Composer><Property>`, which is often the name of the referenced component itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergedCopy {
    /// The copy's type name: the composer's, then the property's word.
    pub name: String,
    /// The schema whose `allOf` typify merges.
    pub composer: String,
    /// The `additionalProperties` typify merges into the property.
    pub additional: String,
    /// The composition the property's `$ref` leads to.
    pub target: String,
}

/// Every [`MergedCopy`] typify would write, composers named as [`type_names_with_merged_parts`]
/// names them (a composer merged into another is merged again there).
pub fn merged_copies(document: &Value) -> Vec<MergedCopy> {
    fn properties(schema: &Value) -> impl Iterator<Item = (&String, &Value)> {
        schema
            .get("properties")
            .and_then(Value::as_object)
            .into_iter()
            .flatten()
    }
    let model = Document::new(document);
    let mut copies: Vec<MergedCopy> = Vec::new();
    for (name, at) in type_names_with_merged_parts(document) {
        let Some(Value::Array(parts)) = at.schema.get("allOf") else {
            continue;
        };
        // typify writes an `allOf` of one as its part, merging nothing.
        if parts.len() < 2 {
            continue;
        }
        let resolved: Vec<(String, &Value)> = parts
            .iter()
            .enumerate()
            .filter_map(|(index, part)| {
                let (target, schema) = model.resolve_at(part)?;
                let pointer = target.unwrap_or_else(|| format!("{}/allOf/{index}", at.pointer));
                Some((pointer, schema))
            })
            .collect();
        for (index, (pointer, part)) in resolved.iter().enumerate() {
            if !part
                .get("additionalProperties")
                .is_some_and(Value::is_object)
            {
                continue;
            }
            let own: BTreeSet<&String> = properties(part).map(|(key, _)| key).collect();
            for (other, (_, schema)) in resolved.iter().enumerate() {
                if other == index {
                    continue;
                }
                for (key, property) in properties(schema) {
                    if own.contains(key) {
                        continue;
                    }
                    let Some((Some(target), referenced)) = model.resolve_at(property) else {
                        continue;
                    };
                    if referenced.get("allOf").is_none() {
                        continue;
                    }
                    let Ok(word) = step_word("properties", Some(key), &at.pointer) else {
                        continue;
                    };
                    let copy = MergedCopy {
                        name: format!("{name}{word}"),
                        composer: at.pointer.clone(),
                        additional: format!("{pointer}/additionalProperties"),
                        target,
                    };
                    if !copies.contains(&copy) {
                        copies.push(copy);
                    }
                }
            }
        }
    }
    copies
}

/// Every schema of the document (roots first, then depth first) with the name typify gives the
/// type it would generate for it ([`rust_ident`] for a component, [`type_name_at`] below).
/// Schemas that cannot be named (under a path item's shared parameters) are left out.
pub fn type_names(document: &Value) -> Vec<(String, SchemaAt<'_>)> {
    names_of_types(document, false)
}

/// [`type_names`], and then every schema inside an `allOf` part once more under the name typify
/// gives it when it merges the parts into one type: the part's properties are the merged
/// type's (`<Parent><Property>`, not `<Parent>Variant0<Property>`). The first entry of a name
/// is the one [`type_names`] gives.
pub fn type_names_with_merged_parts(document: &Value) -> Vec<(String, SchemaAt<'_>)> {
    let mut named = names_of_types(document, false);
    named.extend(names_of_types(document, true));
    named
}

fn names_of_types(document: &Value, merge_all_of: bool) -> Vec<(String, SchemaAt<'_>)> {
    let mut named = Vec::new();
    let merging = merge_all_of.then(|| Document::new(document));
    for root in Document::new(document).schema_roots() {
        // progenitor types no header of a response (nor of a component or an encoding): its
        // schema takes no name, so it can clash with none.
        if root.pointer.contains("/headers/") {
            continue;
        }
        let name = match &root.owner {
            Owner::Schema(component) => {
                rust_ident(component, &root.pointer).map(|ident| ident.to_string())
            }
            owner => type_name_at(document, &root.pointer, owner, &root.pointer),
        };
        // A schema that cannot be named leaves its subschemas unnamed too: their names
        // extend it.
        let Ok(name) = name else { continue };
        // typify gives a nullable component the component's name as a newtype of `Option`,
        // and the type inside it (the struct, for an object) the name `<Name>Inner`, which
        // its subschemas' names then extend.
        if matches!(root.owner, Owner::Schema(_)) && is_nullable_object(root.schema) {
            named.push((name.clone(), root.clone()));
            name_below(root, format!("{name}Inner"), merging, &mut named);
        } else {
            name_below(root, name, merging, &mut named);
        }
    }
    named
}

/// Whether typify reads `schema` as `Option` of a struct it names apart: an object, in the
/// down-levelled spelling, marked `nullable`.
fn is_nullable_object(schema: &Value) -> bool {
    schema.get("nullable") == Some(&Value::Bool(true))
        && (schema.get("type").and_then(Value::as_str) == Some("object")
            || schema.get("properties").is_some())
}

/// Names `at` and, depth first, everything below it, each name extending its parent's by one
/// [`step_word`] (what [`type_name_at`] reads off the pointer). When `merging`, an `allOf`
/// part adds no word: it is named as the type it is merged into, and a part given by `$ref` is
/// followed, its schemas named there too (at their own places).
fn name_below<'a>(
    at: SchemaAt<'a>,
    name: String,
    merging: Option<Document<'a>>,
    named: &mut Vec<(String, SchemaAt<'a>)>,
) {
    // Deeper than this, `$ref`ed parts go round a cycle through several schemas.
    const MAX_DEPTH: usize = 64;
    let children = crate::model::subschemas(at.schema);
    // A union member's word depends on all its siblings: read once per union, not per member.
    let member_words = |keyword: &str| {
        at.schema
            .get(keyword)
            .and_then(Value::as_array)
            .map(|members| union_member_words(members))
    };
    let (one_of, any_of) = (member_words("oneOf"), member_words("anyOf"));
    let single_all_of = at
        .schema
        .get("allOf")
        .and_then(Value::as_array)
        .is_some_and(|parts| parts.len() == 1);
    let (pointer, owner, depth) = (at.pointer.clone(), at.owner.clone(), at.depth);
    named.push((name.clone(), at));
    if depth >= MAX_DEPTH {
        return;
    }
    for (suffix, child) in children {
        let mut child_pointer = format!("{pointer}{suffix}");
        let index = child.index.map(|index| index.to_string());
        let key = child.key.or(index.as_deref());
        let mut schema = child.schema;
        let word = match merging {
            Some(model) if child.keyword == "allOf" => {
                match model.resolve_at(child.schema) {
                    // A part that is (through `$ref`s) a schema it is inside of is a cycle:
                    // no type is merged from it.
                    Some((Some(target), _))
                        if pointer == target || pointer.starts_with(&format!("{target}/")) =>
                    {
                        continue;
                    }
                    // typify writes an `allOf` of one `$ref` (3.0's `$ref` with a sibling) as
                    // the referenced type: nothing is merged, nothing named anew.
                    Some((Some(_), _)) if single_all_of => continue,
                    Some((Some(target), resolved)) => {
                        child_pointer = target;
                        schema = resolved;
                    }
                    _ => {}
                }
                Ok(String::new())
            }
            _ => {
                let words = match child.keyword {
                    "oneOf" => one_of.as_ref(),
                    "anyOf" => any_of.as_ref(),
                    _ => None,
                };
                match words
                    .zip(child.index)
                    .and_then(|(words, index)| words.get(index))
                {
                    Some(word) => Ok(word.clone()),
                    None => step_word(child.keyword, key, &child_pointer),
                }
            }
        };
        if let Ok(word) = word {
            let child_at = SchemaAt {
                pointer: child_pointer,
                owner: owner.clone(),
                schema,
                depth: depth + 1,
            };
            name_below(child_at, format!("{name}{word}"), merging, named);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_plain_integer_is_one_the_decoder_reads_whole() {
        let integer = json!({"type": "integer", "format": "int64"});
        let document = json!({"components": {"schemas": {"A": {"properties": {
            "count": integer,
            // `anyOf: [integer, null]` down-levelled: the one part of a nullable `allOf`.
            "expires": {"nullable": true, "allOf": [integer]},
            "both": {"allOf": [integer, {"description": "d"}]},
            "list": {"type": "array", "items": integer},
            "counted": {"type": "array", "items": integer, "maxItems": 3},
            "nested": {"type": "array", "items": {"type": "array", "items": integer}},
            "map": {"type": "object", "additionalProperties": integer},
            "bounded": {"type": "integer", "minimum": 1},
        }}}}});
        let plain = |pointer: &str| {
            let schema = document.pointer(pointer).expect(pointer);
            is_plain_integer(&document, schema, pointer)
        };
        let at = "/components/schemas/A/properties";
        assert!(plain(&format!("{at}/count")));
        assert!(plain(&format!("{at}/expires/allOf/0")));
        assert!(
            !plain(&format!("{at}/both/allOf/0")),
            "a part beside another"
        );
        assert!(plain(&format!("{at}/list/items")), "a plain list's item");
        assert!(
            !plain(&format!("{at}/counted/items")),
            "the item of a counted list keeps its checked type (typify's `Vec` is wrapped)"
        );
        assert!(
            !plain(&format!("{at}/nested/items/items")),
            "a list's list is read by serde"
        );
        assert!(!plain(&format!("{at}/map/additionalProperties")));
        assert!(!plain(&format!("{at}/bounded")), "a bound is checked");
    }

    #[test]
    fn union_members_are_named_as_typify_names_them() {
        let words = |members: Value| union_member_words(members.as_array().unwrap());
        // By `$ref`, by type, by format.
        assert_eq!(
            words(json!([
                {"$ref": "#/components/schemas/SubscriberPayloadDto"},
                {"type": "integer"},
                {"type": "array", "items": {"type": "string"}},
                {"type": "string", "format": "date-time"},
            ])),
            ["SubscriberPayloadDto", "Integer", "Array", "DateTime"]
        );
        // The words the names share at the front are cut off...
        assert_eq!(
            words(json!([
                {"$ref": "#/components/schemas/FilterByName"},
                {"$ref": "#/components/schemas/FilterByTag"},
            ])),
            ["Name", "Tag"]
        );
        // ... but not when a name would be left empty: then every member is `Variant<i>`, as
        // when one has no name (an enum without `type`, a nullable type) or two share one.
        let numbered = ["Variant0", "Variant1"];
        for members in [
            json!([{"$ref": "#/x/Filter"}, {"$ref": "#/x/FilterByTag"}]),
            json!([{"enum": ["a"]}, {"type": "integer"}]),
            json!([{"type": "string", "nullable": true}, {"type": "integer"}]),
            json!([{"type": "string"}, {"type": "string", "maxLength": 3}]),
        ] {
            assert_eq!(words(members), numbered);
        }
        // A member that is a composition of one stating nothing else takes its part's name.
        assert_eq!(
            words(json!([{"allOf": [{"$ref": "#/x/Page"}], "description": "d"}, {"type": "null"}])),
            ["Page", "Null"]
        );
        // A union of one is its member, under the union's name.
        assert_eq!(words(json!([{"type": "object"}])), [""]);
    }

    #[test]
    fn a_union_members_inline_parts_are_named_after_its_word() {
        let document = json!({"components": {"schemas": {"To": {"oneOf": [
            {"type": "string"},
            {"type": "array", "items": {"oneOf": [{"$ref": "#/x/A"}, {"type": "string"}]}},
        ]}}}});
        let pointer = "/components/schemas/To/oneOf/1/items";
        let owner = Owner::Schema("To".to_owned());
        assert_eq!(
            type_name_at(&document, "/components/schemas/To", &owner, pointer).unwrap(),
            "ToArrayItem"
        );
        let names: Vec<String> = type_names(&document)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert!(names.contains(&"ToArrayItem".to_owned()), "{names:?}");
        assert!(
            !names.iter().any(|name| name.contains("Variant")),
            "{names:?}"
        );
    }

    #[test]
    fn variant_names_follow_typify_or_are_none_where_it_panics() {
        // `a-b` and `a b` are both `AB` at first, then `AXB` and `AXB`.
        assert_eq!(typify_variant_names(&["a-b", "a b"]), None);
        // `a.b` and `ab` are both... `AB` and `Ab`: told apart at once.
        assert_eq!(
            typify_variant_names(&["a.b", "ab"]),
            Some(vec!["AB".to_owned(), "Ab".to_owned()])
        );
        assert_eq!(
            typify_variant_names(&["open", "closed"]),
            Some(vec!["Open".to_owned(), "Closed".to_owned()])
        );
        // `-2` and `2` are both `X2`, and still are with `-` spelled `X`.
        assert_eq!(typify_variant_names(&["-2", "-1", "0", "1", "2"]), None);
        assert_eq!(typify_variant_names(&["Foo", "foo"]), None);
    }

    #[test]
    fn identifiers_follow_typify() {
        assert_eq!(
            rust_ident("community_blog", "").unwrap().to_string(),
            "CommunityBlog"
        );
        assert_eq!(
            rust_ident("repo.content", "").unwrap().to_string(),
            "RepoContent"
        );
        assert_eq!(rust_ident("2fa", "").unwrap().to_string(), "X2fa");
        assert_eq!(
            rust_ident("CreatedTeamAPIKey", "").unwrap().to_string(),
            "CreatedTeamApiKey"
        );
        assert_eq!(rust_ident("-1", "").unwrap().to_string(), "Minus1");
        assert_eq!(typify_name(""), "X");
        assert_eq!(typify_name("type"), "Type");
        assert_eq!(typify_name("self"), "Self_");
        assert!(rust_ident("---", "").is_err());
        let document = serde_json::json!({"components": {"schemas": {"Settings": {
            "properties": {"ui_theme": {"items": {"enum": ["a"]}}}}}}});
        let names: Vec<String> = type_names(&document)
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        assert_eq!(
            names,
            ["Settings", "SettingsUiTheme", "SettingsUiThemeItem"]
        );
    }

    #[test]
    fn names_built_down_the_tree_are_the_names_read_off_pointers() {
        let document = serde_json::json!({
            "paths": {"/a": {"post": {"operationId": "make",
                "parameters": [{"name": "page_size", "in": "query", "schema": {"anyOf": [{"type": "integer"}]}}],
                "requestBody": {"content": {"application/json": {"schema": {"properties": {
                    "pair": {"x-prefixItems": [{"type": "string"}, {"items": {"type": "integer"}}]},
                    "env": {"x-propertyNames": {"pattern": "^a"}, "additionalProperties": {"not": {}}}}}}}},
                "responses": {"200": {"description": "d"}}}}},
            "components": {"schemas": {"S": {"oneOf": [{"properties": {"a-b": {}}}]}}}});
        let named = type_names(&document);
        assert_eq!(named.len(), 14);
        let roots: Vec<SchemaAt<'_>> = Document::new(&document).schema_roots();
        for (name, at) in &named {
            let root = roots
                .iter()
                .filter(|root| at.pointer.starts_with(&root.pointer))
                .max_by_key(|root| root.pointer.len())
                .unwrap();
            if at.pointer == root.pointer && matches!(at.owner, Owner::Schema(_)) {
                continue;
            }
            let read = type_name_at(&document, &root.pointer, &at.owner, &at.pointer).unwrap();
            assert_eq!(*name, read, "{}", at.pointer);
        }
        let names: Vec<&str> = named.iter().map(|(name, _)| name.as_str()).collect();
        assert!(names.contains(&"MakeBodyPairItem1Item"), "{names:?}");
        assert!(names.contains(&"MakeBodyEnvValueNot"), "{names:?}");
        // The one member of a union of one is the union: no `Variant0`.
        assert!(names.contains(&"SAB"), "{names:?}");
    }

    #[test]
    fn the_schemas_of_merged_all_of_parts_are_named_also_as_the_merged_type_names_them() {
        // typify merges the parts into one `Page`, so the union of the first part's
        // `errors` is `PageErrorsItem`, not `PageVariant0ErrorsItem`.
        let document = serde_json::json!({"components": {"schemas": {"Page": {"allOf": [
            {"properties": {"errors": {"items": {"oneOf": [{"type": "string"}, {}]}}}},
            {"properties": {"next": {"type": "string"}}}]}}}});
        let pointer_of = |named: &[(String, SchemaAt<'_>)], wanted: &str| {
            named
                .iter()
                .find(|(name, _)| name == wanted)
                .map(|(_, at)| at.pointer.clone())
        };
        let plain = type_names(&document);
        assert_eq!(pointer_of(&plain, "PageErrorsItem"), None);
        let merged = type_names_with_merged_parts(&document);
        assert_eq!(
            pointer_of(&merged, "PageErrorsItem").as_deref(),
            Some("/components/schemas/Page/allOf/0/properties/errors/items")
        );
        // A part given by `$ref` is merged too: its schemas are named after the composer.
        let document = serde_json::json!({"components": {"schemas": {
            "Page": {"allOf": [{"$ref": "#/components/schemas/Base"}, {"properties": {"next": {}}}]},
            "Base": {"properties": {"errors": {"items": {"oneOf": [{"type": "string"}, {}]}}}}}}});
        assert_eq!(
            pointer_of(&type_names_with_merged_parts(&document), "PageErrorsItem").as_deref(),
            Some("/components/schemas/Base/properties/errors/items")
        );
        // An `allOf` of one `$ref` (3.0's `$ref` with a sibling) is the referenced type: typify
        // merges nothing and names nothing after the composer.
        let document = serde_json::json!({"components": {"schemas": {
            "Page": {"allOf": [{"$ref": "#/components/schemas/Base"}], "description": "d"},
            "Base": {"properties": {"errors": {"items": {"oneOf": [{"type": "string"}, {}]}}}}}}});
        assert_eq!(
            pointer_of(&type_names_with_merged_parts(&document), "PageErrorsItem"),
            None
        );
        // A part that refers to its own composer is a cycle, not followed.
        let document = serde_json::json!({"components": {"schemas": {
            "Loop": {"allOf": [{"$ref": "#/components/schemas/Loop"}, {"$ref": "#/components/schemas/Loop"}]}}}});
        // `Loop` and its two parts as `type_names` names them, then `Loop` alone.
        assert_eq!(type_names_with_merged_parts(&document).len(), 4);
        let document = serde_json::json!({"components": {"schemas": {"Page": {"allOf": [
            {"properties": {"errors": {"items": {"oneOf": [{"type": "string"}, {}]}}}},
            {"properties": {"next": {"type": "string"}}}]}}}});
        let merged = type_names_with_merged_parts(&document);
        // The names `type_names` gives come first, so they win where both name a type.
        let pointers = |named: &[(String, SchemaAt<'_>)]| -> Vec<(String, String)> {
            named
                .iter()
                .map(|(name, at)| (name.clone(), at.pointer.clone()))
                .collect()
        };
        assert_eq!(pointers(&merged[..plain.len()]), pointers(&plain));
        assert_eq!(
            pointer_of(&merged, "Page").as_deref(),
            Some("/components/schemas/Page")
        );
    }

    #[test]
    fn case_conversions_match_progenitor() {
        assert_eq!(method_name("listNotifications"), "list_notifications");
        assert_eq!(builder_name("getMcpSettings"), "GetMcpSettings");
    }

    #[test]
    fn what_typify_keeps() {
        let date_time = [Rule::Format("date-time".into()), Rule::Pattern("Z$".into())];
        assert!(typify_keeps(&date_time[0], &date_time).is_err());
        assert!(typify_keeps(&date_time[1], &date_time).is_err());
        assert!(typify_keeps(&Rule::Literals(vec![serde_json::json!("a")]), &[]).is_ok());
        assert_eq!(
            typify_keeps(&Rule::Literals(vec![serde_json::json!(true)]), &[]),
            Err("boolean literals")
        );
        assert!(typify_keeps(&Rule::Pattern("a".into()), &[]).is_ok());
        assert_eq!(typify_keeps(&Rule::MaxItems(3), &[]), Err("array sizes"));
    }
}
