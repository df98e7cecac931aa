//! The Rust half of the change report: two public API surfaces (the text
//! [`crate::surface::render`] writes, as the snapshot holds it) compared item by item, each
//! change classed for users of the crate by semver.
//!
//! cargo-semver-checks' lints are the reference, and a change names the lint that reports it
//! (`constructible_struct_adds_field`, `enum_variant_missing`, ...). A struct of public fields
//! is built by users with a literal, so a field it gains breaks them unless it is
//! `#[non_exhaustive]`; a variant added to an enum breaks a `match` unless the enum is
//! `#[non_exhaustive]`. The surface says `(non_exhaustive)`; an enum with an `Unknown` variant
//! is one too (the tolerance step adds both), which is how a surface written before the
//! marker existed still reads right.

use std::collections::{BTreeMap, BTreeSet};

use super::{Area, Change, Class, code};
use crate::surface::NON_EXHAUSTIVE;

/// Every Rust change from the `old` surface to the `new` one.
pub fn diff(old: &str, new: &str) -> Vec<Change> {
    let (old, new) = (Surface::parse(old), Surface::parse(new));
    let mut out = Vec::new();
    operations(&old, &new, &mut out);
    types(&old, &new, &mut out);
    out
}

/// The `Client` methods a surface lists.
pub fn client_methods(surface: &str) -> BTreeSet<String> {
    Surface::parse(surface)
        .operations
        .into_values()
        .filter_map(|operation| operation.client.map(|(name, _)| name))
        .collect()
}

/// The `Client` methods of a surface by the operation they send, `(operationId, method)`.
pub(crate) fn client_methods_by_operation(surface: &str) -> Vec<(String, String)> {
    Surface::parse(surface)
        .operations
        .into_iter()
        .filter_map(|(id, operation)| Some((id, operation.client?.0)))
        .collect()
}

#[derive(Debug, Default)]
struct Operation {
    /// `GET /api/whoami`.
    route: String,
    /// The `Client` method: its name and signature.
    client: Option<(String, String)>,
    /// The builder's methods: name to signature.
    builder: BTreeMap<String, String>,
}

#[derive(Debug)]
struct Type {
    /// The first line, which says its kind and name.
    header: String,
    /// `struct`, `string enum`, `alias`, ...
    kind: String,
    /// Fields or variants: name to their line.
    members: BTreeMap<String, String>,
    non_exhaustive: bool,
}

/// The part of a surface text a line is in (an insta header comes before both).
#[derive(Clone, Copy)]
enum Section {
    Operations,
    Types,
    Other,
}

#[derive(Debug, Default)]
struct Surface {
    operations: BTreeMap<String, Operation>,
    types: BTreeMap<String, Type>,
}

impl Surface {
    fn parse(text: &str) -> Self {
        let mut surface = Surface::default();
        let mut section = Section::Other;
        let mut operation: Option<String> = None;
        let mut item: Option<String> = None;
        for line in text.lines() {
            if let Some(title) = line.strip_prefix("# ") {
                section = match title {
                    "Operations" => Section::Operations,
                    "Types" => Section::Types,
                    _ => Section::Other,
                };
                continue;
            }
            if line.trim().is_empty() {
                continue;
            }
            match section {
                Section::Operations => {
                    if let Some(rest) = line.strip_prefix("  ") {
                        let Some(current) = operation
                            .as_ref()
                            .and_then(|id| surface.operations.get_mut(id))
                        else {
                            continue;
                        };
                        let rest = rest.trim();
                        if let Some(signature) = rest.strip_prefix("Client::") {
                            current.client = Some((fn_name(signature), signature.to_owned()));
                        } else if let Some(rest) = rest.strip_prefix("builder::")
                            && let Some((_, signature)) = rest.split_once("::")
                        {
                            current
                                .builder
                                .insert(fn_name(signature), signature.to_owned());
                        }
                    } else if let Some((id, route)) = line.split_once(": ") {
                        surface.operations.insert(
                            id.to_owned(),
                            Operation {
                                route: route.to_owned(),
                                ..Operation::default()
                            },
                        );
                        operation = Some(id.to_owned());
                    }
                }
                Section::Types => {
                    if let Some(member) = line.strip_prefix("    ") {
                        if let Some(current) =
                            item.as_ref().and_then(|name| surface.types.get_mut(name))
                        {
                            let member = member.trim();
                            if member_name(member) == "Unknown" {
                                current.non_exhaustive = true;
                            }
                            current
                                .members
                                .insert(member_name(member), member.to_owned());
                        }
                    } else {
                        let (kind, name) = kind_and_name(line);
                        surface.types.insert(
                            name.clone(),
                            Type {
                                header: line.to_owned(),
                                kind,
                                members: BTreeMap::new(),
                                non_exhaustive: line.contains(NON_EXHAUSTIVE),
                            },
                        );
                        item = Some(name);
                    }
                }
                Section::Other => {}
            }
        }
        surface
    }
}

/// The name of the function a signature (`async fn send(self) -> ...`) declares.
fn fn_name(signature: &str) -> String {
    let after = signature
        .split_once("fn ")
        .map_or(signature, |(_, rest)| rest);
    after
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// A field's or variant's name: `created_at: ...`, `Paper(PaperNotification) = "paper"`.
fn member_name(member: &str) -> String {
    member
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// A type line's kind (`struct`, `tolerant string enum`, `tagged enum`, `alias`, `use`) and the
/// name it declares (a `use` line's name is its path).
fn kind_and_name(line: &str) -> (String, String) {
    if let Some(path) = line.strip_prefix("use ") {
        return ("use".to_owned(), path.to_owned());
    }
    let (kind, rest) = match line.find("enum ") {
        Some(at) => {
            let kind = line[..at + "enum".len()].to_owned();
            let mut rest = &line[at + "enum ".len()..];
            // `tagged enum (tag = "type") Notification`.
            if rest.starts_with('(')
                && let Some(close) = rest.find(") ")
            {
                rest = &rest[close + 2..];
            }
            (kind, rest)
        }
        None => match line.split_once(' ') {
            Some((kind, rest)) => (kind.to_owned(), rest),
            None => (String::new(), line),
        },
    };
    (kind, member_name(rest))
}

/// The rule of an added item: no lint reports additions; semver makes them minor.
const ITEM_ADDED: &str = "minor: item added";
/// The rule of a member added to a `#[non_exhaustive]` item.
const NON_EXHAUSTIVE_GAINS: &str = "minor: #[non_exhaustive] item gains a member";
/// The rule of a changed signature (cargo-semver-checks lints only some of these, such as
/// `method_parameter_count_changed`; any change of a public signature may break a caller).
const SIGNATURE_CHANGED: &str = "major: signature changed";

/// What a type's kind is called in messages: `struct` (a newtype or tuple struct too), `enum`,
/// `re-export` or `type`.
fn noun(kind: &str) -> &'static str {
    if kind == "use" {
        "re-export"
    } else if matches!(kind, "struct" | "newtype" | "tuple") {
        "struct"
    } else if kind.ends_with("enum") {
        "enum"
    } else {
        "type"
    }
}

/// A header without the `#[non_exhaustive]` marker, which is compared apart (and which a
/// surface written before the marker existed does not show).
fn unmarked(header: &str) -> String {
    header.replace(&format!(" {NON_EXHAUSTIVE}"), "")
}

/// A header without its rule (`where ...`) or marker: what a type is, not what it checks.
fn shape(header: &str) -> String {
    let unmarked = unmarked(header);
    unmarked
        .split(" where ")
        .next()
        .unwrap_or_default()
        .to_owned()
}

/// The rule a header states (after `where`), or `none`.
fn rule_of(header: &str) -> String {
    unmarked(header)
        .split_once(" where ")
        .map_or_else(|| "none".to_owned(), |(_, rule)| rule.to_owned())
}

fn push(out: &mut Vec<Change>, class: Class, subject: &str, what: String, rule: &str) {
    out.push(Change::new(Area::Rust, class, subject, what, rule));
}

fn operations(old: &Surface, new: &Surface, out: &mut Vec<Change>) {
    for (id, operation) in &old.operations {
        let Some((method, _)) = &operation.client else {
            continue;
        };
        if !new.operations.values().any(|other| {
            other
                .client
                .as_ref()
                .is_some_and(|(name, _)| name == method)
        }) {
            let subject = format!("Client::{method}");
            let what = format!("method removed ({id}: {})", operation.route);
            push(
                out,
                Class::Breaking,
                &subject,
                what,
                "inherent_method_missing",
            );
        }
    }
    let old_methods: BTreeMap<&str, &Operation> = old
        .operations
        .values()
        .filter_map(|operation| Some((operation.client.as_ref()?.0.as_str(), operation)))
        .collect();
    for (id, operation) in &new.operations {
        let Some((method, signature)) = &operation.client else {
            continue;
        };
        let subject = format!("Client::{method}");
        let Some(before) = old_methods.get(method.as_str()) else {
            let what = format!("method added ({id}: {})", operation.route);
            push(out, Class::Additive, &subject, what, ITEM_ADDED);
            continue;
        };
        if let Some((_, old_signature)) = &before.client
            && old_signature != signature
        {
            let what = format!(
                "signature changed from {} to {}",
                code(old_signature),
                code(signature)
            );
            push(out, Class::Breaking, &subject, what, SIGNATURE_CHANGED);
        }
        for (name, old_signature) in &before.builder {
            match operation.builder.get(name) {
                None => push(
                    out,
                    Class::Breaking,
                    &subject,
                    format!("builder method `{name}` removed"),
                    "inherent_method_missing",
                ),
                Some(signature) if signature != old_signature => push(
                    out,
                    Class::Breaking,
                    &subject,
                    format!(
                        "builder method `{name}` changed from {} to {}",
                        code(old_signature),
                        code(signature)
                    ),
                    SIGNATURE_CHANGED,
                ),
                Some(_) => {}
            }
        }
        for name in operation.builder.keys() {
            if !before.builder.contains_key(name) {
                push(
                    out,
                    Class::Additive,
                    &subject,
                    format!("builder method `{name}` added"),
                    ITEM_ADDED,
                );
            }
        }
    }
}

fn types(old: &Surface, new: &Surface, out: &mut Vec<Change>) {
    for (name, before) in &old.types {
        if !new.types.contains_key(name) {
            let noun = noun(&before.kind);
            let subject = format!("{noun} {name}");
            let rule = match noun {
                "struct" => "struct_missing",
                "enum" => "enum_missing",
                _ => "major: item removed",
            };
            push(out, Class::Breaking, &subject, "removed".to_owned(), rule);
        }
    }
    for (name, after) in &new.types {
        let noun = noun(&after.kind);
        let subject = format!("{noun} {name}");
        let Some(before) = old.types.get(name) else {
            push(
                out,
                Class::Additive,
                &subject,
                "added".to_owned(),
                ITEM_ADDED,
            );
            continue;
        };
        if shape(&before.header) != shape(&after.header) {
            push(
                out,
                Class::Breaking,
                &subject,
                format!(
                    "changed from {} to {}",
                    code(&shape(&before.header)),
                    code(&shape(&after.header))
                ),
                "major: type changed",
            );
        } else if unmarked(&before.header) != unmarked(&after.header) {
            // Only the rule it checks changed: the same type, other values accepted.
            push(
                out,
                Class::Compatible,
                &subject,
                format!(
                    "rule changed from {} to {}",
                    code(&rule_of(&before.header)),
                    code(&rule_of(&after.header))
                ),
                "patch: same type, other values accepted",
            );
        }
        if !before.non_exhaustive && after.non_exhaustive {
            let rule = if noun == "struct" {
                "struct_marked_non_exhaustive"
            } else {
                "enum_marked_non_exhaustive"
            };
            push(
                out,
                Class::Breaking,
                &subject,
                "marked #[non_exhaustive]".to_owned(),
                rule,
            );
        }
        members(&subject, noun, before, after, out);
    }
}

/// `text` with every path into the types module cut to the type's name
/// (`Option<crate::generated::types::WebhookVersion>` is `Option<WebhookVersion>`): a type
/// named by its path or by its name is one type, and emit writes both.
fn unqualified(text: &str) -> String {
    const MODULE: &str = "types::";
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(MODULE) {
        let (before, after) = rest.split_at(at);
        // The path before `types::` (`crate::generated::`), when it is one, goes too.
        let path_start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(0, |index| index + 1);
        let is_module = before[path_start..].is_empty() || before[path_start..].ends_with("::");
        if is_module {
            out.push_str(&before[..path_start]);
        } else {
            out.push_str(before);
            out.push_str(MODULE);
        }
        rest = &after[MODULE.len()..];
    }
    out.push_str(rest);
    out
}

/// Fields of a struct, variants of an enum.
fn members(subject: &str, noun: &str, before: &Type, after: &Type, out: &mut Vec<Change>) {
    let (word, missing, added) = if noun == "struct" {
        (
            "field",
            "struct_pub_field_missing",
            "constructible_struct_adds_field",
        )
    } else {
        ("variant", "enum_variant_missing", "enum_variant_added")
    };
    for (name, line) in &before.members {
        match after.members.get(name) {
            None => push(
                out,
                Class::Breaking,
                subject,
                format!("{word} `{name}` removed"),
                missing,
            ),
            Some(new_line) if unqualified(new_line) != unqualified(line) => {
                // A wire name alone (`= "inf2x6"`, `// "createdAt"`) is no Rust change.
                let rust = |line: &str| {
                    line.split(" = ")
                        .next()
                        .unwrap_or(line)
                        .split("  //")
                        .next()
                        .unwrap_or(line)
                        .trim()
                        .to_owned()
                };
                let (class, rule) = if rust(line) == rust(new_line) {
                    (Class::Compatible, "patch: wire name changed")
                } else {
                    (Class::Breaking, "major: type changed")
                };
                push(
                    out,
                    class,
                    subject,
                    format!("{word} changed from {} to {}", code(line), code(new_line)),
                    rule,
                );
            }
            Some(_) => {}
        }
    }
    for name in after.members.keys() {
        if before.members.contains_key(name) {
            continue;
        }
        let what = format!("{word} `{name}` added");
        if after.non_exhaustive {
            push(out, Class::Additive, subject, what, NON_EXHAUSTIVE_GAINS);
        } else {
            let what = format!("{what}; the {noun} is not #[non_exhaustive]");
            push(out, Class::Breaking, subject, what, added);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(old: &str, new: &str) -> Vec<String> {
        let mut lines: Vec<String> = diff(old, new)
            .into_iter()
            .map(|change| format!("{} {change}", change.class.word()))
            .collect();
        lines.sort();
        lines
    }

    const OLD: &str = "\
# Operations

getWebhook: GET /api/settings/webhooks/{webhookId}
  Client::fn get_webhook(&self) -> builder::GetWebhook<'_>
  builder::GetWebhook::fn webhook_id<V>(mut self, value: V) -> Self where V: std::convert::TryInto<::std::string::String>
  builder::GetWebhook::async fn send(self) -> Result<ResponseValue<types::Webhook>, Error<()>>

# Types

alias Name = ValidatedString<rules::Name> where at most 10 characters
struct Webhook (deny_unknown_fields)
    id: ::std::string::String
    url: ::std::string::String
tagged enum (tag = \"type\") Event
    Created(Created) = \"created\"
    Unknown(::serde_json::Map<::std::string::String,::serde_json::Value>)
string enum Mode
    Fast = \"fast\"
";

    #[test]
    fn a_type_named_by_its_path_or_its_name_is_one_type() {
        assert_eq!(
            unqualified("version: ::std::option::Option<crate::generated::types::WebhookVersion>"),
            "version: ::std::option::Option<WebhookVersion>"
        );
        assert_eq!(unqualified("Vec<types::Job>"), "Vec<Job>");
        assert_eq!(unqualified("subtypes::Job"), "subtypes::Job");
        let old =
            "# Types\nstruct Webhook\n    version: Option<crate::generated::types::Version>\n";
        let new = "# Types\nstruct Webhook\n    version: Option<Version>\n";
        let changes = diff(old, new);
        assert!(
            changes
                .iter()
                .all(|change| change.class == Class::Compatible),
            "{changes:?}"
        );
    }

    #[test]
    fn an_unchanged_surface_has_no_change() {
        assert!(diff(OLD, OLD).is_empty());
        // A surface written before the marker: an enum with `Unknown` was non-exhaustive then.
        let marked = OLD.replace(
            "tagged enum (tag = \"type\") Event",
            "tagged enum (tag = \"type\") Event (non_exhaustive)",
        );
        assert!(diff(OLD, &marked).is_empty(), "{:?}", diff(OLD, &marked));
    }

    #[test]
    fn each_item_change_is_classed_by_its_lint() {
        let new = OLD
            .replace(
                "    url: ::std::string::String\n",
                "    created_at: ::std::option::Option<::std::string::String>  // \"createdAt\"\n",
            )
            .replace(
                "    Fast = \"fast\"\n",
                "    Fast = \"FAST\"\n    Slow = \"slow\"\n",
            )
            .replace("at most 10", "at most 20")
            .replace(
                "    Created(Created) = \"created\"\n",
                "    Created(Created) = \"created\"\n    Deleted(Deleted) = \"deleted\"\n",
            )
            .replace(
                "  builder::GetWebhook::fn webhook_id",
                "  builder::GetWebhook::fn id",
            );
        assert_eq!(
            lines(OLD, &new),
            [
                "BREAKING Client::get_webhook: builder method `webhook_id` removed [inherent_method_missing]",
                "BREAKING enum Mode: variant `Slow` added; the enum is not #[non_exhaustive] [enum_variant_added]",
                "BREAKING struct Webhook: field `created_at` added; the struct is not #[non_exhaustive] [constructible_struct_adds_field]",
                "BREAKING struct Webhook: field `url` removed [struct_pub_field_missing]",
                "additive Client::get_webhook: builder method `id` added [minor: item added]",
                "additive enum Event: variant `Deleted` added [minor: #[non_exhaustive] item gains a member]",
                "compatible enum Mode: variant changed from `Fast = \"fast\"` to `Fast = \"FAST\"` [patch: wire name changed]",
                "compatible type Name: rule changed from `at most 10 characters` to `at most 20 characters` [patch: same type, other values accepted]",
            ]
        );
    }

    #[test]
    fn a_non_exhaustive_struct_takes_a_field_and_the_marker_itself_breaks() {
        let marked = OLD.replace(
            "struct Webhook (deny_unknown_fields)",
            "struct Webhook (deny_unknown_fields) (non_exhaustive)",
        );
        assert_eq!(
            lines(OLD, &marked),
            ["BREAKING struct Webhook: marked #[non_exhaustive] [struct_marked_non_exhaustive]"]
        );
        let grown = marked.replace(
            "    url: ::std::string::String\n",
            "    url: ::std::string::String\n    zone: ::std::string::String\n",
        );
        assert_eq!(
            lines(&marked, &grown),
            [
                "additive struct Webhook: field `zone` added [minor: #[non_exhaustive] item gains a member]"
            ]
        );
    }

    #[test]
    fn operations_added_and_removed_are_client_methods() {
        let new = OLD
            .replace("getWebhook: GET", "fetchWebhook: GET")
            .replace("fn get_webhook", "fn fetch_webhook");
        assert_eq!(
            lines(OLD, &new),
            [
                "BREAKING Client::get_webhook: method removed (getWebhook: GET /api/settings/webhooks/{webhookId}) [inherent_method_missing]",
                "additive Client::fetch_webhook: method added (fetchWebhook: GET /api/settings/webhooks/{webhookId}) [minor: item added]",
            ]
        );
        assert_eq!(
            client_methods(&new),
            BTreeSet::from(["fetch_webhook".to_owned()])
        );
    }

    #[test]
    fn an_insta_header_and_a_type_kind_are_read() {
        let snapshot = format!("---\nsource: codegen/tests/hub_spec.rs\nexpression: x\n---\n{OLD}");
        let surface = Surface::parse(&snapshot);
        assert_eq!(
            surface.types.keys().collect::<Vec<_>>(),
            ["Event", "Mode", "Name", "Webhook"]
        );
        assert!(surface.types["Event"].non_exhaustive);
        assert_eq!(surface.types["Event"].kind, "tagged enum");
        assert!(!surface.types["Mode"].non_exhaustive);
        assert_eq!(surface.operations["getWebhook"].builder.len(), 2);
    }
}
