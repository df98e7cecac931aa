//! The wire half of the change report: two OpenAPI documents compared structurally, each
//! change classed for an old client against a new server and a new client against an old one.
//!
//! oasdiff's rules are the reference, and each change names the oasdiff check it corresponds
//! to. Operations are matched by method and path; within one, parameters by location and
//! name, request bodies and responses (by status) by their JSON media type. Component schemas
//! are matched by name and compared once each, in the direction(s) the operations use them
//! (a schema only requests reach is bound by request rules, one only responses reach by
//! response rules, one both reach, or none, by the stricter of the two); a `$ref` to the same
//! component on both sides is not followed, since that component is compared on its own.
//!
//! The direction decides the class. What a request may hold binds the client: a request rule
//! that tightens (a new required property, a removed enum value, a lower `maxLength`) breaks
//! old clients, one that loosens is compatible. What a response may hold binds the server and
//! what a client expects: a response rule that loosens (a property no longer required, a
//! higher `maxLength`, which the generated types check) breaks old clients, one that tightens
//! is compatible. Additions that old clients can ignore are additive: the generated client
//! skips unknown properties and reads an unknown enum value of a response as `Unknown`.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Area, Change, Class, code};
use crate::model::{self, Document};

/// Every wire change from `old` to `new`, both parsed OpenAPI documents (3.0 or 3.1).
pub fn diff(old: &Value, new: &Value) -> Vec<Change> {
    let mut differ = Differ {
        old: Document::new(old),
        new: Document::new(new),
        out: Vec::new(),
    };
    differ.operations();
    differ.components();
    differ.out
}

/// Which way a schema's values travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Direction {
    /// Sent by clients.
    Request,
    /// Sent by servers.
    Response,
    /// Both (or neither known: the stricter reading).
    Both,
}

impl Direction {
    /// The class and oasdiff check of a change that is `request` in a request and `response`
    /// in a response; both ways, the worse of the two.
    fn pick(self, request: (Class, String), response: (Class, String)) -> (Class, String) {
        match self {
            Direction::Request => request,
            Direction::Response => response,
            Direction::Both => {
                // `Class` orders breaking first.
                if request.0 <= response.0 {
                    request
                } else {
                    response
                }
            }
        }
    }
}

struct Differ<'a> {
    old: Document<'a>,
    new: Document<'a>,
    out: Vec<Change>,
}

/// Operations by `METHOD path`.
fn operations_by_label<'a>(document: &Document<'a>) -> BTreeMap<String, model::Operation<'a>> {
    document
        .operations()
        .into_iter()
        .map(|operation| (operation.label(), operation))
        .collect()
}

/// `GET /api/whoami (getWhoami)`.
fn operation_subject(operation: &model::Operation<'_>) -> String {
    match operation.id() {
        Some(id) => format!("{} ({id})", operation.label()),
        None => operation.label(),
    }
}

impl<'a> Differ<'a> {
    fn push(&mut self, class: Class, subject: &str, what: String, rule: impl Into<String>) {
        self.out
            .push(Change::new(Area::Wire, class, subject, what, rule));
    }

    fn operations(&mut self) {
        let old = operations_by_label(&self.old);
        let new = operations_by_label(&self.new);
        for (label, operation) in &old {
            if !new.contains_key(label) {
                let rule = if operation.value.get("deprecated") == Some(&Value::Bool(true)) {
                    "api-removed-with-deprecation"
                } else {
                    "api-removed-without-deprecation"
                };
                let subject = operation_subject(operation);
                self.push(Class::Breaking, &subject, "operation removed".into(), rule);
            }
        }
        for (label, operation) in &new {
            let Some(before) = old.get(label) else {
                let subject = operation_subject(operation);
                self.push(
                    Class::Additive,
                    &subject,
                    "operation added".into(),
                    "endpoint-added",
                );
                continue;
            };
            let subject = operation_subject(operation);
            if before.id() != operation.id() {
                self.push(
                    Class::Compatible,
                    &subject,
                    format!(
                        "operationId changed from `{}`",
                        before.id().unwrap_or_default()
                    ),
                    "api-operation-id-updated",
                );
            }
            self.parameters(&subject, before, operation);
            self.request_body(&subject, before, operation);
            self.responses(&subject, before, operation);
        }
    }

    /// An operation's parameters (its path item's too), resolved, by location and name.
    fn parameters_of(
        document: &Document<'a>,
        operation: &model::Operation<'a>,
    ) -> BTreeMap<(String, String), &'a Value> {
        let mut found = BTreeMap::new();
        for parameter in operation.parameters() {
            let Some(parameter) = document.resolve(parameter) else {
                continue;
            };
            let location = parameter.get("in").and_then(Value::as_str);
            let name = parameter.get("name").and_then(Value::as_str);
            if let (Some(location), Some(name)) = (location, name) {
                // An operation's own parameter overrides its path item's.
                found.insert((location.to_owned(), name.to_owned()), parameter);
            }
        }
        found
    }

    fn parameters(
        &mut self,
        subject: &str,
        old: &model::Operation<'a>,
        new: &model::Operation<'a>,
    ) {
        let before = Self::parameters_of(&self.old, old);
        let after = Self::parameters_of(&self.new, new);
        let required = |parameter: &Value| {
            parameter.get("required") == Some(&Value::Bool(true))
                || parameter.get("in").and_then(Value::as_str) == Some("path")
        };
        for (location, name) in before.keys() {
            if !after.contains_key(&(location.clone(), name.clone())) {
                let what = format!("{location} parameter `{name}` removed");
                self.push(Class::Breaking, subject, what, "request-parameter-removed");
            }
        }
        for ((location, name), parameter) in &after {
            let Some(previous) = before.get(&(location.clone(), name.clone())) else {
                let (class, rule, word) = if required(parameter) {
                    (
                        Class::Breaking,
                        "new-required-request-parameter",
                        "required",
                    )
                } else {
                    (
                        Class::Additive,
                        "new-optional-request-parameter",
                        "optional",
                    )
                };
                let what = format!("{location} parameter `{name}` added ({word})");
                self.push(class, subject, what, rule);
                continue;
            };
            match (required(previous), required(parameter)) {
                (false, true) => self.push(
                    Class::Breaking,
                    subject,
                    format!("{location} parameter `{name}` became required"),
                    "request-parameter-became-required",
                ),
                (true, false) => self.push(
                    Class::Compatible,
                    subject,
                    format!("{location} parameter `{name}` became optional"),
                    "request-parameter-became-optional",
                ),
                _ => {}
            }
            if let (Some(old_schema), Some(new_schema)) =
                (previous.get("schema"), parameter.get("schema"))
            {
                let at = format!("{location} parameter `{name}`");
                self.schema(subject, &at, old_schema, new_schema, Direction::Request, 0);
            }
        }
    }

    fn request_body(
        &mut self,
        subject: &str,
        old: &model::Operation<'a>,
        new: &model::Operation<'a>,
    ) {
        let before = old
            .value
            .get("requestBody")
            .and_then(|body| self.old.resolve(body));
        let after = new
            .value
            .get("requestBody")
            .and_then(|body| self.new.resolve(body));
        let required = |body: &Value| body.get("required") == Some(&Value::Bool(true));
        match (before, after) {
            (None, None) => {}
            (Some(_), None) => self.push(
                Class::Breaking,
                subject,
                "request body removed".into(),
                "request-body-removed",
            ),
            (None, Some(body)) => {
                let (class, rule, word) = if required(body) {
                    (Class::Breaking, "request-body-added-required", "required")
                } else {
                    (Class::Additive, "request-body-added-optional", "optional")
                };
                self.push(class, subject, format!("request body added ({word})"), rule);
            }
            (Some(before), Some(after)) => {
                match (required(before), required(after)) {
                    (false, true) => self.push(
                        Class::Breaking,
                        subject,
                        "request body became required".into(),
                        "request-body-became-required",
                    ),
                    (true, false) => self.push(
                        Class::Compatible,
                        subject,
                        "request body became optional".into(),
                        "request-body-became-optional",
                    ),
                    _ => {}
                }
                self.content(subject, "request body", before, after, Direction::Request);
            }
        }
    }

    fn responses(&mut self, subject: &str, old: &model::Operation<'a>, new: &model::Operation<'a>) {
        let by_status = |document: &Document<'a>, operation: &model::Operation<'a>| {
            operation
                .value
                .get("responses")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(status, response)| {
                    Some((status.clone(), document.resolve(response)?))
                })
                .collect::<BTreeMap<String, &'a Value>>()
        };
        let before = by_status(&self.old, old);
        let after = by_status(&self.new, new);
        let success = |status: &str| status.starts_with('2');
        for status in before.keys() {
            if !after.contains_key(status) {
                let (class, rule) = if success(status) {
                    (Class::Breaking, "response-success-status-removed")
                } else {
                    (Class::Compatible, "response-non-success-status-removed")
                };
                self.push(class, subject, format!("response {status} removed"), rule);
            }
        }
        for (status, response) in &after {
            let Some(previous) = before.get(status) else {
                let rule = if success(status) {
                    "response-success-status-added"
                } else {
                    "response-non-success-status-added"
                };
                self.push(
                    Class::Additive,
                    subject,
                    format!("response {status} added"),
                    rule,
                );
                continue;
            };
            let at = format!("response {status}");
            self.content(subject, &at, previous, response, Direction::Response);
        }
    }

    /// A body's media types, and the schemas of those both sides have.
    fn content(
        &mut self,
        subject: &str,
        at: &str,
        old: &'a Value,
        new: &'a Value,
        direction: Direction,
    ) {
        let media = |body: &'a Value| -> BTreeMap<&'a str, &'a Value> {
            body.get("content")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(media_type, media)| (media_type.as_str(), media))
                .collect()
        };
        let before = media(old);
        let after = media(new);
        let (word, removed_class) = match direction {
            Direction::Request => ("request", Class::Breaking),
            _ => ("response", Class::Breaking),
        };
        for media_type in before.keys() {
            if !after.contains_key(media_type) {
                self.push(
                    removed_class,
                    subject,
                    format!("{at}: media type `{media_type}` removed"),
                    format!("{word}-media-type-removed"),
                );
            }
        }
        for (media_type, media) in &after {
            let Some(previous) = before.get(media_type) else {
                self.push(
                    Class::Additive,
                    subject,
                    format!("{at}: media type `{media_type}` added"),
                    format!("{word}-media-type-added"),
                );
                continue;
            };
            if let (Some(old_schema), Some(new_schema)) =
                (previous.get("schema"), media.get("schema"))
            {
                self.schema(subject, at, old_schema, new_schema, direction, 0);
            }
        }
    }

    /// Every component schema both documents have, in the direction(s) it is used.
    fn components(&mut self) {
        let schemas = |document: &Document<'a>| -> BTreeMap<&'a str, &'a Value> {
            document
                .value()
                .pointer("/components/schemas")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(name, schema)| (name.as_str(), schema))
                .collect()
        };
        let (old_requests, old_responses) = self.old.schema_usage();
        let (new_requests, new_responses) = self.new.schema_usage();
        let before = schemas(&self.old);
        for (name, schema) in schemas(&self.new) {
            let Some(previous) = before.get(name) else {
                continue;
            };
            let requests = old_requests.contains(name) || new_requests.contains(name);
            let responses = old_responses.contains(name) || new_responses.contains(name);
            let direction = match (requests, responses) {
                (true, false) => Direction::Request,
                (false, true) => Direction::Response,
                _ => Direction::Both,
            };
            let subject = format!("schema {name}");
            self.schema(&subject, "", previous, schema, direction, 0);
        }
    }

    /// One schema against its old self. `at` names the place below the subject (a property
    /// path, a parameter), empty at a component's root.
    fn schema(
        &mut self,
        subject: &str,
        at: &str,
        old: &'a Value,
        new: &'a Value,
        direction: Direction,
        depth: usize,
    ) {
        // Deep enough for any real document; a guard against a pathological one.
        if depth > 64 {
            return;
        }
        let place = if at.is_empty() {
            String::new()
        } else {
            format!("{at}: ")
        };
        let site = Site {
            subject,
            place: &place,
            direction,
        };
        let old_ref = old.get("$ref").and_then(Value::as_str);
        let new_ref = new.get("$ref").and_then(Value::as_str);
        let (old, new) = match (old_ref, new_ref) {
            // The component is compared on its own.
            (Some(a), Some(b)) if a == b => return,
            (Some(a), Some(b)) => {
                let name = |reference: &str| {
                    model::schema_ref_name(reference)
                        .unwrap_or(reference)
                        .to_owned()
                };
                self.classed(
                    site,
                    format!("schema changed from `{}` to `{}`", name(a), name(b)),
                    both(Class::Breaking, Class::Breaking, "property-type-changed"),
                );
                return;
            }
            // A schema moved into a component or back is compared by what it says.
            (Some(_), None) => match self.old.resolve(old) {
                Some(resolved) => (resolved, new),
                None => return,
            },
            (None, Some(_)) => match self.new.resolve(new) {
                Some(resolved) => (old, resolved),
                None => return,
            },
            (None, None) => (old, new),
        };
        self.types(site, old, new);
        self.enums(site, old, new);
        self.bounds(site, old, new);
        self.properties(subject, at, old, new, direction, depth);
        for (keyword, suffix) in [("items", "[]"), ("additionalProperties", "{}")] {
            if let (Some(a @ Value::Object(_)), Some(b @ Value::Object(_))) =
                (old.get(keyword), new.get(keyword))
            {
                self.schema(subject, &below(at, suffix), a, b, direction, depth + 1);
            }
        }
        self.closedness(site, old, new);
        self.members(site, old, new);
    }

    /// Reports `what` at `site`, classed as `classes` says for the site's direction.
    fn classed(&mut self, site: Site<'_>, what: String, classes: Classes) {
        let (class, rule) = site.direction.pick(classes.0, classes.1);
        self.push(class, site.subject, format!("{}{what}", site.place), rule);
    }

    fn types(&mut self, site: Site<'_>, old: &Value, new: &Value) {
        let (Some(before), Some(after)) = (type_set(old), type_set(new)) else {
            return;
        };
        if before == after {
            return;
        }
        // A request may now hold more (the server takes what it took), a response less (the
        // client reads what it read): either is compatible; anything else breaks.
        let request = if after.is_superset(&before) {
            Class::Compatible
        } else {
            Class::Breaking
        };
        let response = if after.is_subset(&before) {
            Class::Compatible
        } else {
            Class::Breaking
        };
        let show = |types: &BTreeSet<String>| types.iter().cloned().collect::<Vec<_>>().join(" | ");
        self.classed(
            site,
            format!(
                "type changed from `{}` to `{}`",
                show(&before),
                show(&after)
            ),
            both(request, response, "property-type-changed"),
        );
    }

    fn enums(&mut self, site: Site<'_>, old: &Value, new: &Value) {
        let (Some(before), Some(after)) = (enum_values(old), enum_values(new)) else {
            return;
        };
        for value in before.iter().filter(|value| !after.contains(value)) {
            self.classed(
                site,
                format!("enum value {value} removed"),
                both(
                    Class::Breaking,
                    Class::Compatible,
                    "property-enum-value-removed",
                ),
            );
        }
        for value in after.iter().filter(|value| !before.contains(value)) {
            // Old generated clients read a value they do not know in a response as their
            // enum's `Unknown`.
            self.classed(
                site,
                format!("enum value {value} added"),
                both(
                    Class::Additive,
                    Class::Additive,
                    "property-enum-value-added",
                ),
            );
        }
    }

    fn bounds(&mut self, site: Site<'_>, old: &Value, new: &Value) {
        // (keyword, oasdiff's words for it, an upper bound)
        const BOUNDS: &[(&str, &str, bool)] = &[
            ("maxLength", "max-length", true),
            ("maxItems", "max-items", true),
            ("maxProperties", "max-properties", true),
            ("maximum", "max", true),
            ("exclusiveMaximum", "exclusive-max", true),
            ("minLength", "min-length", false),
            ("minItems", "min-items", false),
            ("minProperties", "min-properties", false),
            ("minimum", "min", false),
            ("exclusiveMinimum", "exclusive-min", false),
        ];
        for (keyword, words, upper) in BOUNDS {
            let before = old.get(*keyword).and_then(Value::as_f64);
            let after = new.get(*keyword).and_then(Value::as_f64);
            let (tightened, change) = match (before, after) {
                (Some(a), Some(b)) if a == b => continue,
                (None, None) => continue,
                (None, Some(_)) => (true, "set"),
                (Some(_), None) => (false, "removed"),
                (Some(a), Some(b)) => {
                    let tightened = if *upper { b < a } else { b > a };
                    let grew = if b > a { "increased" } else { "decreased" };
                    (tightened, grew)
                }
            };
            let show = |value: Option<f64>| value.map_or("none".to_owned(), |v| v.to_string());
            self.classed(
                site,
                format!(
                    "`{keyword}` {} from {} to {}",
                    if tightened { "tightened" } else { "loosened" },
                    show(before),
                    show(after)
                ),
                bound(tightened, &format!("{words}-{change}")),
            );
        }
        for keyword in ["pattern", "format"] {
            let before = old.get(keyword).and_then(Value::as_str);
            let after = new.get(keyword).and_then(Value::as_str);
            let (what, classes) = match (before, after) {
                (a, b) if a == b => continue,
                (None, Some(b)) => (
                    format!("`{keyword}` {} added", code(b)),
                    bound(true, &format!("{keyword}-added")),
                ),
                (Some(a), None) => (
                    format!("`{keyword}` {} removed", code(a)),
                    bound(false, &format!("{keyword}-removed")),
                ),
                // Neither contains the other in general: both ways it may break.
                (Some(a), Some(b)) => (
                    format!("`{keyword}` changed from {} to {}", code(a), code(b)),
                    both(
                        Class::Breaking,
                        Class::Breaking,
                        &format!("property-{keyword}-changed"),
                    ),
                ),
                (None, None) => continue,
            };
            self.classed(site, what, classes);
        }
    }

    fn properties(
        &mut self,
        subject: &str,
        at: &str,
        old: &'a Value,
        new: &'a Value,
        direction: Direction,
        depth: usize,
    ) {
        let properties = |schema: &'a Value| -> BTreeMap<&'a str, &'a Value> {
            schema
                .get("properties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(name, schema)| (name.as_str(), schema))
                .collect()
        };
        let required = |schema: &'a Value| -> BTreeSet<&'a str> {
            schema
                .as_object()
                .map(|object| crate::model::required_names(object).collect())
                .unwrap_or_default()
        };
        let (before, after) = (properties(old), properties(new));
        let (was_required, is_required) = (required(old), required(new));
        // Each message names its property's path itself.
        let site = Site {
            subject,
            place: "",
            direction,
        };
        let path = |name: &str| below(at, &format!(".{name}"));
        for name in before.keys().filter(|name| !after.contains_key(*name)) {
            let kind = if was_required.contains(name) {
                "required"
            } else {
                "optional"
            };
            self.classed(
                site,
                format!("{} removed ({kind})", path(name)),
                (
                    (Class::Breaking, "request-property-removed".into()),
                    (Class::Breaking, format!("response-{kind}-property-removed")),
                ),
            );
        }
        for (name, schema) in &after {
            let Some(previous) = before.get(name) else {
                let (kind, classes) = if is_required.contains(name) {
                    let classes = (
                        (Class::Breaking, "new-required-request-property".into()),
                        (Class::Additive, "response-required-property-added".into()),
                    );
                    ("required", classes)
                } else {
                    let classes = (
                        (Class::Additive, "new-optional-request-property".into()),
                        (Class::Additive, "response-optional-property-added".into()),
                    );
                    ("optional", classes)
                };
                self.classed(site, format!("{} added ({kind})", path(name)), classes);
                continue;
            };
            match (was_required.contains(name), is_required.contains(name)) {
                (false, true) => self.classed(
                    site,
                    format!("{} became required", path(name)),
                    both(
                        Class::Breaking,
                        Class::Compatible,
                        "property-became-required",
                    ),
                ),
                (true, false) => self.classed(
                    site,
                    format!("{} became optional", path(name)),
                    both(
                        Class::Compatible,
                        Class::Breaking,
                        "property-became-optional",
                    ),
                ),
                _ => {}
            }
            self.schema(subject, &path(name), previous, schema, direction, depth + 1);
        }
    }

    /// `additionalProperties: false` set or dropped.
    fn closedness(&mut self, site: Site<'_>, old: &Value, new: &Value) {
        let closed =
            |schema: &Value| schema.get("additionalProperties") == Some(&Value::Bool(false));
        match (closed(old), closed(new)) {
            (false, true) => self.classed(
                site,
                "closed to unknown properties".to_owned(),
                bound(true, "additional-properties-closed"),
            ),
            // The generated client skips unknown properties of a response unless decoding
            // strictly, so a response that opens up is compatible for it.
            (true, false) => self.classed(
                site,
                "open to unknown properties".to_owned(),
                both(
                    Class::Compatible,
                    Class::Compatible,
                    "additional-properties-opened",
                ),
            ),
            _ => {}
        }
    }

    /// The `$ref` members of `oneOf`/`anyOf`, added or removed.
    fn members(&mut self, site: Site<'_>, old: &Value, new: &Value) {
        for keyword in ["oneOf", "anyOf"] {
            let refs = |schema: &Value| -> BTreeSet<String> {
                schema
                    .get(keyword)
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(|member| member.get("$ref").and_then(Value::as_str))
                    .map(|reference| {
                        model::schema_ref_name(reference)
                            .unwrap_or(reference)
                            .to_owned()
                    })
                    .collect()
            };
            let (before, after) = (refs(old), refs(new));
            let words = if keyword == "oneOf" {
                "one-of"
            } else {
                "any-of"
            };
            for member in before.difference(&after) {
                self.classed(
                    site,
                    format!("`{keyword}` member `{member}` removed"),
                    body(
                        Class::Breaking,
                        Class::Compatible,
                        &format!("{words}-removed"),
                    ),
                );
            }
            for member in after.difference(&before) {
                // Old generated clients keep an unknown member of a response as `Unknown`.
                self.classed(
                    site,
                    format!("`{keyword}` member `{member}` added"),
                    body(Class::Additive, Class::Additive, &format!("{words}-added")),
                );
            }
        }
    }
}

/// Where one schema comparison stands: its subject, the place below it (`` `a.b`: ``, empty at
/// the subject's root) and the way its values travel.
#[derive(Clone, Copy)]
struct Site<'s> {
    subject: &'s str,
    place: &'s str,
    direction: Direction,
}

/// A change's class and oasdiff check in a request and in a response.
type Classes = ((Class, String), (Class, String));

/// `request` and `response` under oasdiff's `request-<words>` and `response-<words>`.
fn both(request: Class, response: Class, words: &str) -> Classes {
    (
        (request, format!("request-{words}")),
        (response, format!("response-{words}")),
    )
}

/// [`both`] for a body's union members, `request-body-<words>` and `response-body-<words>`.
fn body(request: Class, response: Class, words: &str) -> Classes {
    both(request, response, &format!("body-{words}"))
}

/// The place one step (`.name`, `[]`, `{}`) below `at`, as the report shows it: a property
/// path in backticks (`` `job.flavor` ``), after the place's own words where it has them
/// (`` response 200 `createdAt` ``).
fn below(at: &str, step: &str) -> String {
    let trimmed = step.trim_start_matches('.');
    if at.is_empty() {
        format!("`{trimmed}`")
    } else if let Some(path) = at.strip_suffix('`') {
        format!("{path}{step}`")
    } else {
        format!("{at} `{trimmed}`")
    }
}

/// The classes of a rule that `tightened` (or loosened): tightening breaks requests and is
/// compatible in responses, loosening the reverse.
fn bound(tightened: bool, words: &str) -> Classes {
    let (request, response) = if tightened {
        (Class::Breaking, Class::Compatible)
    } else {
        (Class::Compatible, Class::Breaking)
    };
    both(request, response, &format!("property-{words}"))
}

/// A schema's `type`, as a set, with 3.0's `nullable` read as `null`; `None` when it states none.
fn type_set(schema: &Value) -> Option<BTreeSet<String>> {
    let mut types: BTreeSet<String> = match schema.get("type")? {
        Value::String(name) => BTreeSet::from([name.clone()]),
        Value::Array(names) => names
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => return None,
    };
    if schema.get("nullable") == Some(&Value::Bool(true)) {
        types.insert("null".to_owned());
    }
    Some(types)
}

/// A schema's `enum` (or `const`) values as JSON text, in document order.
fn enum_values(schema: &Value) -> Option<Vec<String>> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        return Some(values.iter().map(Value::to_string).collect());
    }
    schema.get("const").map(|value| vec![value.to_string()])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document(schemas: Value) -> Value {
        json!({
            "openapi": "3.1.0",
            "paths": {"/things": {
                "post": {"operationId": "make", "requestBody": {"content": {"application/json":
                    {"schema": {"$ref": "#/components/schemas/Asked"}}}},
                    "responses": {"200": {"description": "ok", "content": {"application/json":
                        {"schema": {"$ref": "#/components/schemas/Given"}}}}}}
            }},
            "components": {"schemas": schemas}
        })
    }

    fn lines(old: Value, new: Value) -> Vec<String> {
        let mut lines: Vec<String> = diff(&document(old), &document(new))
            .into_iter()
            .map(|change| format!("{} {change}", change.class.word()))
            .collect();
        lines.sort();
        lines
    }

    #[test]
    fn a_bound_breaks_the_side_it_binds() {
        let old = json!({
            "Asked": {"type": "string", "maxLength": 10},
            "Given": {"type": "string", "maxLength": 10}
        });
        let new = json!({
            "Asked": {"type": "string", "maxLength": 5},
            "Given": {"type": "string", "maxLength": 20}
        });
        assert_eq!(
            lines(old, new),
            [
                "BREAKING schema Asked: `maxLength` tightened from 10 to 5 [request-property-max-length-decreased]",
                "BREAKING schema Given: `maxLength` loosened from 10 to 20 [response-property-max-length-increased]",
            ]
        );
    }

    #[test]
    fn a_schema_moved_into_a_component_is_compared_by_what_it_says() {
        let old = json!({
            "Asked": {"type": "object", "properties": {"tag": {"type": "string", "enum": ["a", "b"]}}},
            "Given": {"type": "string"}
        });
        let new = json!({
            "Asked": {"type": "object", "properties": {"tag": {"$ref": "#/components/schemas/Tag"}}},
            "Tag": {"type": "string", "enum": ["a"]},
            "Given": {"type": "string"}
        });
        assert_eq!(
            lines(old, new),
            [
                "BREAKING schema Asked: `tag`: enum value \"b\" removed [request-property-enum-value-removed]"
            ]
        );
    }

    #[test]
    fn a_type_widened_in_a_request_is_compatible_and_in_a_response_breaks() {
        let old = json!({"Asked": {"type": "string"}, "Given": {"type": "string"}});
        let new =
            json!({"Asked": {"type": ["string", "null"]}, "Given": {"type": ["string", "null"]}});
        assert_eq!(
            lines(old, new),
            [
                "BREAKING schema Given: type changed from `string` to `null | string` [response-property-type-changed]",
                "compatible schema Asked: type changed from `string` to `null | string` [request-property-type-changed]",
            ]
        );
    }
}
