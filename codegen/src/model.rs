//! The document model every step stands on: a thin typed view over the parsed OpenAPI document
//! (`serde_json::Value`, parsed once by [`crate::load`]) that knows where things are.
//!
//! - [`Document::operations`]: every operation, with its path, method, label and pointer;
//! - [`Document::schema_roots`]: every place a schema starts (components, parameters, request
//!   bodies, responses, headers; never a media type's `examples` map);
//! - [`subschemas`]: the one keyword table of where a schema nests other schemas (`items`,
//!   `prefixItems`, `properties`, `additionalProperties`, `allOf`/`anyOf`/`oneOf`, `not`, ...);
//! - [`Document::visit_schemas`]: every schema at any depth, roots and nested, in document
//!   order, each with its JSON pointer and owner;
//! - [`Document::resolve`]: the one place local `$ref`s are followed;
//! - [`push`] and [`unescape`]: the one place JSON pointer tokens are escaped (RFC 6901),
//!   [`percent_decoded`] the one place a reference's `%XX` escapes are decoded, and
//!   [`target_of`] the one reading of a local reference's fragment as a pointer;
//! - [`place_of`]: what the value at a pointer is (a schema, a parameter, a response, ...).
//!
//! The walker visits the document as it is (3.1 or down-levelled 3.0: both keyword spellings
//! of `propertyNames` and `prefixItems` are in the table), so every step reads the same locations.

use serde_json::Value;

pub use mark::{FORM_FILE, MULTIPART, PART_MEDIA_TYPES};

/// The `x-` marks: what one step writes into the document for the steps after it, and the
/// `x-rust-` extensions a spec's author writes for the generator. Each is spelled here only.
pub mod mark {
    /// The mark `normalize` puts on a request body it hands on as a form that is in truth
    /// `multipart/form-data` (progenitor refuses multipart; `emit` sends the form as multipart).
    pub const MULTIPART: &str = "x-multipart";
    /// The mark of the component schema that stands for a file in a multipart body: typify
    /// replaces it by the emitted `FormFile`.
    pub const FORM_FILE: &str = "x-form-file";
    /// The mark on such a request body that carries the media type its `encoding` gives some
    /// parts (`{"sdp": "application/sdp"}`): `emit` sends each of those parts with it.
    pub const PART_MEDIA_TYPES: &str = "x-part-media-types";
    /// The mark on a `oneOf` that stands for an `anyOf` (any number of members may match):
    /// typify's first-fit enum is exactly `anyOf`, so no exclusivity is lost, and no union that
    /// refuses several matching members may be inferred for it.
    pub const ANY_OF: &str = "x-any-of";
    /// Marks an `enum` of strings that also admits any other string (an open enum, see
    /// `normalize`'s `open_enum`): its type gets an `Other(String)` variant (`emit::tolerance`).
    pub const OPEN_ENUM: &str = "x-open-enum";
    /// `prefixItems` as `downlevel` carries it: OpenAPI 3.0 has no tuples, and typify must not
    /// read the keyword, so a patch enforces it.
    pub const PREFIX_ITEMS: &str = "x-prefixItems";
    /// `propertyNames` as `downlevel` carries it (typify drops the keyword).
    pub const PROPERTY_NAMES: &str = "x-propertyNames";
    /// The mark `normalize` puts on the map schema of a query parameter in `deepObject` style,
    /// the parameter's name its value: the validated map it becomes is sent as
    /// `<name>[<key>]=<value>` per entry.
    pub const DEEP_OBJECT: &str = "x-deep-object";
    /// The mark on the document's root that stands for its `webhooks` (`normalize`'s
    /// `webhooks`): per webhook, its method, its body (a `$ref` to the component of a JSON body,
    /// or the `media` type of another) and its description. `emit` writes the `webhooks` module
    /// from it.
    pub const WEBHOOKS: &str = "x-webhook-bodies";
    /// The mark on a query or header parameter `normalize` renamed because its Rust argument
    /// name clashed with another parameter's: the name it has on the wire, which `emit` sends.
    pub const WIRE_NAME: &str = "x-wire-name";
    /// The mark on a request body whose media type progenitor cannot send as declared and
    /// `normalize` handed on as one it sends the same way (`application/merge-patch+json` as
    /// `application/json`, `image/png` as `application/octet-stream`, `text/csv` as
    /// `text/plain`): the declared type, which `emit` sends as the `Content-Type` instead.
    pub const MEDIA_TYPE: &str = "x-media-type";
    /// A `not` that typify cannot convert, as `downlevel` carries it (reported unenforced).
    pub const NOT: &str = "x-not";
    /// The prefix of the extensions a spec's author writes for the generator (`x-rust-secret`,
    /// ...); `patch::infer` reads them and refuses one it does not know.
    pub const AUTHORED_PREFIX: &str = "x-rust-";
    /// Author's extension: the string is a secret (never printed by `Debug`).
    pub const SECRET: &str = "x-rust-secret";
    /// Author's extension: the Rust names of an enum's variants, `{value, name}` each.
    pub const VARIANT_NAMES: &str = "x-rust-variant-names";
    /// Author's extension: the one-line reason a patch entry reports.
    pub const REASON: &str = "x-rust-reason";
}

/// The keywords that describe a schema without constraining a value (JSON Schema's
/// annotations, and OpenAPI's `example` and `externalDocs`).
pub const ANNOTATIONS: &[&str] = &[
    "description",
    "title",
    "example",
    "examples",
    "externalDocs",
    "$comment",
];

/// `schema` without its [`ANNOTATIONS`] at any depth (through [`SUBSCHEMA_KEYWORDS`], so a
/// property named `description` stays): what it states about a value. Two schemas that
/// state the same are one type.
pub fn without_annotations(schema: &Value) -> Value {
    let Value::Object(object) = schema else {
        return schema.clone();
    };
    let mut out = serde_json::Map::new();
    for (key, value) in object {
        if ANNOTATIONS.contains(&key.as_str()) {
            continue;
        }
        let nesting = SUBSCHEMA_KEYWORDS
            .iter()
            .find(|(keyword, _)| *keyword == key)
            .map(|(_, nesting)| *nesting);
        let value = match (nesting, value) {
            (Some(Nesting::List), Value::Array(members)) => {
                Value::Array(members.iter().map(without_annotations).collect())
            }
            (Some(Nesting::Map), Value::Object(entries)) => Value::Object(
                entries
                    .iter()
                    .map(|(name, member)| (name.clone(), without_annotations(member)))
                    .collect(),
            ),
            (Some(Nesting::One), member) => without_annotations(member),
            (_, value) => value.clone(),
        };
        out.insert(key.clone(), value);
    }
    Value::Object(out)
}

/// The property names an object schema's `required` lists, in its order (none when it lists
/// none or is not an array; entries that are not strings are passed over).
pub fn required_names(schema: &serde_json::Map<String, Value>) -> impl Iterator<Item = &str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

/// Appends one reference token to a pointer, escaping `~` and `/`.
pub fn push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// The text of one escaped reference token.
pub fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// `fragment` with its `%XX` escapes decoded, when it has any and they are valid UTF-8.
pub fn percent_decoded(fragment: &str) -> Option<String> {
    if !fragment.contains('%') {
        return None;
    }
    let bytes = fragment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = fragment.get(index + 1..index + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The pointer of the place a local `$ref` names in `root`: its fragment as written when `root`
/// has that place, else the fragment with its `%XX` escapes decoded (a URI fragment's spelling,
/// `#/paths/~1a~1%7Bid%7D`) when it has that one. `None` for a reference into another document
/// or to a place `root` lacks.
pub fn target_of(root: &Value, reference: &str) -> Option<String> {
    let fragment = reference.strip_prefix('#')?;
    if root.pointer(fragment).is_some() {
        return Some(fragment.to_owned());
    }
    percent_decoded(fragment).filter(|decoded| root.pointer(decoded).is_some())
}

/// What the value at a JSON pointer is, read from the pointer alone by OpenAPI's structure
/// (`/paths/<path>/<method>/parameters/0` is a parameter, `.../schema/items` a schema).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A schema, at any depth.
    Schema,
    /// A parameter object.
    Parameter,
    /// A request body object.
    RequestBody,
    /// A response object.
    Response,
    /// A header object.
    Header,
    /// A media type object (an entry of `content`).
    MediaType,
    /// An example object.
    Example,
    /// A link object.
    Link,
    /// A callback object (expressions to path items).
    Callback,
    /// A path item, under `paths`, `webhooks`, a callback or `components/pathItems`.
    PathItem,
    /// An operation.
    Operation,
    /// Anything else: the document's root, a keyword's data (`example`, `enum`), a security
    /// scheme, or a place OpenAPI does not define (`#/definitions/Pet`, `#/x-shapes/Pet`).
    Other,
}

/// The [`Place`] at `pointer`.
pub fn place_of(pointer: &str) -> Place {
    let mut place = Place::Other;
    let mut tokens = pointer.split('/').skip(1).map(unescape);
    let mut at_root = true;
    // A keyed place (a path, a status, a list position) is the named one once its key follows.
    fn keyed(tokens: &mut impl Iterator<Item = String>, place: Place) -> Place {
        tokens.next().map_or(Place::Other, |_| place)
    }
    while let Some(token) = tokens.next() {
        place = match (at_root, place, token.as_str()) {
            (true, _, "paths" | "webhooks") => keyed(&mut tokens, Place::PathItem),
            (true, _, "components") => match tokens.next().as_deref() {
                Some("schemas") => keyed(&mut tokens, Place::Schema),
                Some("parameters") => keyed(&mut tokens, Place::Parameter),
                Some("requestBodies") => keyed(&mut tokens, Place::RequestBody),
                Some("responses") => keyed(&mut tokens, Place::Response),
                Some("headers") => keyed(&mut tokens, Place::Header),
                Some("examples") => keyed(&mut tokens, Place::Example),
                Some("links") => keyed(&mut tokens, Place::Link),
                Some("callbacks") => keyed(&mut tokens, Place::Callback),
                Some("pathItems") => keyed(&mut tokens, Place::PathItem),
                _ => Place::Other,
            },
            (true, ..) => Place::Other,
            (_, Place::PathItem, method) if is_method(method) => Place::Operation,
            (_, Place::PathItem | Place::Operation, "parameters") => {
                keyed(&mut tokens, Place::Parameter)
            }
            (_, Place::Operation, "requestBody") => Place::RequestBody,
            (_, Place::Operation, "responses") => keyed(&mut tokens, Place::Response),
            (_, Place::Operation, "callbacks") => keyed(&mut tokens, Place::Callback),
            (_, Place::Callback, _) => Place::PathItem,
            (_, Place::Parameter | Place::Header | Place::MediaType, "schema") => Place::Schema,
            (
                _,
                Place::Parameter | Place::Header | Place::RequestBody | Place::Response,
                "content",
            ) => keyed(&mut tokens, Place::MediaType),
            (_, Place::Parameter | Place::Header | Place::MediaType, "examples") => {
                keyed(&mut tokens, Place::Example)
            }
            (_, Place::Response, "headers") => keyed(&mut tokens, Place::Header),
            (_, Place::Response, "links") => keyed(&mut tokens, Place::Link),
            (_, Place::Schema, keyword) => match SUBSCHEMA_KEYWORDS
                .iter()
                .find(|(name, _)| *name == keyword)
                .map(|(_, nesting)| nesting)
            {
                Some(Nesting::One) => Place::Schema,
                Some(Nesting::List | Nesting::Map) => keyed(&mut tokens, Place::Schema),
                None => Place::Other,
            },
            _ => Place::Other,
        };
        at_root = false;
        if place == Place::Other {
            break;
        }
    }
    place
}

/// The component name a local `#/components/schemas/<Name>` reference points to.
pub fn schema_ref_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/components/schemas/")
        .filter(|name| !name.contains('/'))
}

/// The component schema a pointer lies in, `/components/schemas/<Name>/...` -> `Name`.
pub fn component_of(pointer: &str) -> Option<String> {
    let rest = pointer.strip_prefix("/components/schemas/")?;
    Some(unescape(rest.split('/').next().unwrap_or(rest)))
}

/// Whether a path item key is an HTTP method (an operation), not `parameters`, `summary`, ...
pub fn is_method(key: &str) -> bool {
    matches!(
        key,
        "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace"
    )
}

/// How a schema keyword nests subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nesting {
    /// The value is one schema (`items`, `not`, ...).
    One,
    /// The value is a list of schemas (`allOf`, `prefixItems`, ...).
    List,
    /// The value maps names to schemas (`properties`, ...).
    Map,
}

/// Every JSON Schema 2020-12 keyword (and its down-levelled `x-` spelling) whose value holds
/// subschemas. The one list: a keyword added here is walked by every step.
pub const SUBSCHEMA_KEYWORDS: &[(&str, Nesting)] = &[
    ("items", Nesting::One),
    ("not", Nesting::One),
    (mark::NOT, Nesting::One),
    ("additionalProperties", Nesting::One),
    ("propertyNames", Nesting::One),
    (mark::PROPERTY_NAMES, Nesting::One),
    ("contains", Nesting::One),
    ("if", Nesting::One),
    ("then", Nesting::One),
    ("else", Nesting::One),
    ("unevaluatedItems", Nesting::One),
    ("unevaluatedProperties", Nesting::One),
    ("contentSchema", Nesting::One),
    ("allOf", Nesting::List),
    ("anyOf", Nesting::List),
    ("oneOf", Nesting::List),
    ("prefixItems", Nesting::List),
    (mark::PREFIX_ITEMS, Nesting::List),
    ("properties", Nesting::Map),
    ("patternProperties", Nesting::Map),
    ("dependentSchemas", Nesting::Map),
    ("$defs", Nesting::Map),
];

/// One nested schema: the keyword it sits under, and its pointer and value.
#[derive(Clone, Copy, Debug)]
pub struct Child<'a> {
    /// The keyword of the parent it sits under (`properties`, `items`, ...).
    pub keyword: &'static str,
    /// The name under a map keyword (`None` for a single subschema or a list member).
    pub key: Option<&'a str>,
    /// The position under a list keyword (`None` for a single subschema or a map entry).
    pub index: Option<usize>,
    /// The subschema (a boolean schema such as `additionalProperties: false` included).
    pub schema: &'a Value,
}

/// The schemas directly nested in `schema`, in the order of [`SUBSCHEMA_KEYWORDS`] and then of
/// the document. A keyword whose value has the wrong shape (a list where a schema belongs) is
/// skipped: the step that reads the keyword reports it.
pub fn subschemas(schema: &Value) -> Vec<(String, Child<'_>)> {
    let mut children = Vec::new();
    let Some(object) = schema.as_object() else {
        return children;
    };
    for (keyword, nesting) in SUBSCHEMA_KEYWORDS {
        let Some(value) = object.get(*keyword) else {
            continue;
        };
        match (nesting, value) {
            (Nesting::One, Value::Object(_) | Value::Bool(_)) => children.push((
                push("", keyword),
                Child {
                    keyword,
                    key: None,
                    index: None,
                    schema: value,
                },
            )),
            (Nesting::List, Value::Array(members)) => {
                for (index, member) in members.iter().enumerate() {
                    children.push((
                        format!("{}/{index}", push("", keyword)),
                        Child {
                            keyword,
                            key: None,
                            index: Some(index),
                            schema: member,
                        },
                    ));
                }
            }
            (Nesting::Map, Value::Object(entries)) => {
                for (name, member) in entries {
                    children.push((
                        push(&push("", keyword), name),
                        Child {
                            keyword,
                            key: Some(name),
                            index: None,
                            schema: member,
                        },
                    ));
                }
            }
            _ => {}
        }
    }
    children
}

/// Who a schema or problem belongs to, for messages.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Owner {
    /// A component schema, by name.
    Schema(String),
    /// An operation, by `operationId` (or `METHOD /path` when it has none).
    Operation(String),
    /// Another reusable component (`parameters/<Name>`, `responses/<Name>`, ...).
    Component(String),
    /// A path item (its shared parameters), by path template.
    Path(String),
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Schema(name) => write!(f, "schema {name}"),
            Self::Operation(name) => write!(f, "operation {name}"),
            Self::Component(name) => write!(f, "component {name}"),
            Self::Path(path) => write!(f, "path {path}"),
        }
    }
}

/// The pointer of every place a schema starts ([`Document::schema_roots`]), in document order.
pub fn schema_locations(document: &Value) -> Vec<String> {
    Document::new(document)
        .schema_roots()
        .into_iter()
        .map(|at| at.pointer)
        .collect()
}

/// A schema where it sits.
#[derive(Clone, Debug)]
pub struct SchemaAt<'a> {
    /// Its JSON pointer in the document.
    pub pointer: String,
    /// What it belongs to.
    pub owner: Owner,
    /// The schema.
    pub schema: &'a Value,
    /// How deep below its root (0 for a root).
    pub depth: usize,
}

/// One operation of the document.
#[derive(Clone, Debug)]
pub struct Operation<'a> {
    /// The path template, `/repos/{id}`.
    pub path: &'a str,
    /// The method, lower case.
    pub method: &'a str,
    /// The path item the operation sits in (its shared `parameters` live there).
    pub item: &'a Value,
    /// The operation object.
    pub value: &'a Value,
    /// Its JSON pointer.
    pub pointer: String,
}

impl<'a> Operation<'a> {
    /// `GET /repos/{id}`.
    pub fn label(&self) -> String {
        format!("{} {}", self.method.to_uppercase(), self.path)
    }

    /// Its `operationId`, if it has one.
    pub fn id(&self) -> Option<&str> {
        self.value.get("operationId").and_then(Value::as_str)
    }

    /// Its `operationId`, or its label when it has none.
    pub fn name(&self) -> String {
        self.id().map_or_else(|| self.label(), str::to_owned)
    }

    /// Its `parameters` lists: its path item's (shared), then its own, as written.
    pub fn parameter_lists(&self) -> impl Iterator<Item = &'a Value> {
        [self.item.get("parameters"), self.value.get("parameters")]
            .into_iter()
            .flatten()
    }

    /// Every parameter of its `parameters` lists (its path item's first), each `$ref`
    /// unresolved.
    pub fn parameters(&self) -> impl Iterator<Item = &'a Value> {
        self.parameter_lists().filter_map(Value::as_array).flatten()
    }
}

/// What a visitor tells the walker after seeing a schema.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Visit {
    /// Visit the schemas nested in this one too.
    Descend,
    /// Do not look below this schema.
    Skip,
}

/// A typed view over an OpenAPI document.
#[derive(Clone, Copy, Debug)]
pub struct Document<'a> {
    root: &'a Value,
}

impl<'a> Document<'a> {
    /// A view of `root`; nothing is copied.
    pub fn new(root: &'a Value) -> Self {
        Self { root }
    }

    /// The document itself.
    pub fn value(&self) -> &'a Value {
        self.root
    }

    /// Every operation, in document order. A path item given by `$ref` has none here
    /// ([`crate::contract::preflight`] refuses it).
    pub fn operations(&self) -> Vec<Operation<'a>> {
        let mut found = Vec::new();
        for (path, item) in entries(self.root.get("paths")) {
            let item_pointer = push("/paths", path);
            for (method, operation) in entries(Some(item)) {
                if is_method(method) {
                    found.push(Operation {
                        path,
                        method,
                        item,
                        value: operation,
                        pointer: push(&item_pointer, method),
                    });
                }
            }
        }
        found
    }

    /// Every place in the document where a schema (not a reference object or an example)
    /// starts, with its owner.
    pub fn schema_roots(&self) -> Vec<SchemaAt<'a>> {
        let mut found = Vec::new();
        let components = self.root.get("components");
        for (name, schema) in entries(components.and_then(|c| c.get("schemas"))) {
            found.push(SchemaAt {
                pointer: push("/components/schemas", name),
                owner: Owner::Schema(name.clone()),
                schema,
                depth: 0,
            });
        }
        for (kind, reader) in [
            ("parameters", parameter_schemas as Reader<'a>),
            ("headers", parameter_schemas),
            ("requestBodies", content_schemas),
            ("responses", response_schemas),
        ] {
            for (name, value) in entries(components.and_then(|c| c.get(kind))) {
                let owner = Owner::Component(format!("{kind}/{name}"));
                reader(
                    value,
                    &push(&format!("/components/{kind}"), name),
                    &owner,
                    &mut found,
                );
            }
        }
        for (path, item) in entries(self.root.get("paths")) {
            let item_pointer = push("/paths", path);
            for (index, parameter) in list(item.get("parameters")) {
                parameter_schemas(
                    parameter,
                    &format!("{item_pointer}/parameters/{index}"),
                    &Owner::Path(path.clone()),
                    &mut found,
                );
            }
            for (method, operation) in entries(Some(item)).filter(|(key, _)| is_method(key)) {
                let operation = Operation {
                    path,
                    method,
                    item,
                    value: operation,
                    pointer: push(&item_pointer, method),
                };
                let owner = Owner::Operation(operation.name());
                for (index, parameter) in list(operation.value.get("parameters")) {
                    parameter_schemas(
                        parameter,
                        &format!("{}/parameters/{index}", operation.pointer),
                        &owner,
                        &mut found,
                    );
                }
                if let Some(body) = operation.value.get("requestBody") {
                    content_schemas(
                        body,
                        &format!("{}/requestBody", operation.pointer),
                        &owner,
                        &mut found,
                    );
                }
                for (status, response) in entries(operation.value.get("responses")) {
                    response_schemas(
                        response,
                        &push(&format!("{}/responses", operation.pointer), status),
                        &owner,
                        &mut found,
                    );
                }
            }
        }
        found
    }

    /// Calls `visit` on every schema of the document, roots first and then, depth first, every
    /// schema nested in them (boolean schemas included), unless `visit` answers
    /// [`Visit::Skip`].
    pub fn visit_schemas(&self, mut visit: impl FnMut(&SchemaAt<'a>) -> Visit) {
        for root in self.schema_roots() {
            walk(root, &mut visit);
        }
    }

    /// Follows local `$ref`s from `value` until a value without one (at most 32 steps, so a
    /// cycle ends). A `$ref` that does not resolve gives `None`.
    pub fn resolve(&self, value: &'a Value) -> Option<&'a Value> {
        self.resolve_at(value).map(|(_, value)| value)
    }

    /// [`Document::resolve`], with the pointer of the schema the `$ref`s end at (`None` when
    /// `value` has no `$ref`: it is where it is), for a step that changes that schema.
    pub fn resolve_at(&self, value: &'a Value) -> Option<(Option<String>, &'a Value)> {
        let mut value = value;
        let mut at = None;
        for _ in 0..32 {
            let Some(reference) = value.get("$ref").and_then(Value::as_str) else {
                return Some((at, value));
            };
            let pointer = target_of(self.root, reference)?;
            value = self.root.pointer(&pointer)?;
            at = Some(pointer);
        }
        Some((at, value))
    }

    /// Component schemas that only requests use: reachable from a request body or parameter and
    /// from no response. Every other component (responses, deliveries, unreferenced ones) is
    /// decoded tolerantly. A webhook's body is received, like a response.
    pub fn request_only_schemas(&self) -> std::collections::BTreeSet<String> {
        let (from_requests, from_responses) = self.schema_usage();
        from_requests
            .difference(&from_responses)
            .map(|name| (*name).to_owned())
            .collect()
    }

    /// The component schema names requests reach (from a request body or parameter) and those
    /// received ones reach (from a response or a webhook's body), each transitively.
    pub fn schema_usage(
        &self,
    ) -> (
        std::collections::BTreeSet<&'a str>,
        std::collections::BTreeSet<&'a str>,
    ) {
        let mut request_roots = Vec::new();
        let mut response_roots = Vec::new();
        for operation in self.operations() {
            request_roots.extend(operation.parameter_lists());
            request_roots.extend(operation.value.get("requestBody"));
            response_roots.extend(operation.value.get("responses"));
        }
        response_roots.extend(self.root.get(mark::WEBHOOKS));
        (
            self.reachable_schemas(&request_roots),
            self.reachable_schemas(&response_roots),
        )
    }

    /// The component schema names that `roots` reach through `$ref`s, transitively. Every
    /// local `$ref` is followed (`#/components/parameters/...` and the other reusable
    /// components lead to schemas too); only schema names are collected.
    pub fn reachable_schemas(&self, roots: &[&'a Value]) -> std::collections::BTreeSet<&'a str> {
        self.references(roots, true)
            .into_iter()
            .filter_map(schema_ref_name)
            .collect()
    }

    /// Every local `$ref` that `roots` make, transitively, once each. With `through_schemas`
    /// false a `$ref` to a component schema is listed but not followed: the schemas a unit
    /// names itself (through its parameters, bodies and responses), not what those name.
    pub fn references(
        &self,
        roots: &[&'a Value],
        through_schemas: bool,
    ) -> std::collections::BTreeSet<&'a str> {
        let mut followed = std::collections::BTreeSet::new();
        let mut pending: Vec<&Value> = roots.to_vec();
        while let Some(value) = pending.pop() {
            match value {
                Value::Object(map) => {
                    for (key, child) in map {
                        let ("$ref", Value::String(reference)) = (key.as_str(), child) else {
                            pending.push(child);
                            continue;
                        };
                        if !followed.insert(reference.as_str())
                            || (!through_schemas && schema_ref_name(reference).is_some())
                        {
                            continue;
                        }
                        if let Some(target) = reference
                            .strip_prefix('#')
                            .and_then(|pointer| self.root.pointer(pointer))
                        {
                            pending.push(target);
                        }
                    }
                }
                Value::Array(items) => pending.extend(items),
                _ => {}
            }
        }
        followed
    }
}

/// Visits `at` and, unless told to skip, every schema nested in it.
pub fn walk<'a>(at: SchemaAt<'a>, visit: &mut impl FnMut(&SchemaAt<'a>) -> Visit) {
    if visit(&at) == Visit::Skip {
        return;
    }
    for (suffix, child) in subschemas(at.schema) {
        walk(
            SchemaAt {
                pointer: format!("{}{suffix}", at.pointer),
                owner: at.owner.clone(),
                schema: child.schema,
                depth: at.depth + 1,
            },
            visit,
        );
    }
}

type Reader<'a> = fn(&'a Value, &str, &Owner, &mut Vec<SchemaAt<'a>>);

fn entries(value: Option<&Value>) -> impl Iterator<Item = (&String, &Value)> {
    value.and_then(Value::as_object).into_iter().flatten()
}

fn list(value: Option<&Value>) -> impl Iterator<Item = (usize, &Value)> {
    value
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
}

fn parameter_schemas<'a>(
    parameter: &'a Value,
    pointer: &str,
    owner: &Owner,
    found: &mut Vec<SchemaAt<'a>>,
) {
    if let Some(schema) = parameter.get("schema") {
        found.push(SchemaAt {
            pointer: format!("{pointer}/schema"),
            owner: owner.clone(),
            schema,
            depth: 0,
        });
    }
    content_schemas(parameter, pointer, owner, found);
}

fn content_schemas<'a>(
    holder: &'a Value,
    pointer: &str,
    owner: &Owner,
    found: &mut Vec<SchemaAt<'a>>,
) {
    for (media_type, content) in entries(holder.get("content")) {
        if let Some(schema) = content.get("schema") {
            found.push(SchemaAt {
                pointer: format!("{}/schema", push(&format!("{pointer}/content"), media_type)),
                owner: owner.clone(),
                schema,
                depth: 0,
            });
        }
    }
}

fn response_schemas<'a>(
    response: &'a Value,
    pointer: &str,
    owner: &Owner,
    found: &mut Vec<SchemaAt<'a>>,
) {
    content_schemas(response, pointer, owner, found);
    for (name, header) in entries(response.get("headers")) {
        parameter_schemas(
            header,
            &push(&format!("{pointer}/headers"), name),
            owner,
            found,
        );
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn escapes_reference_tokens() {
        assert_eq!(push("/paths", "/api/{id}"), "/paths/~1api~1{id}");
        assert_eq!(push("", "a~b"), "/a~0b");
        assert_eq!(unescape("~1api~0x"), "/api~x");
    }

    #[test]
    fn reads_a_reference_as_written_or_percent_decoded() {
        let document = json!({"paths": {"/a/{id}": {}, "/b%7B": {}}});
        assert_eq!(
            target_of(&document, "#/paths/~1a~1%7Bid%7D").as_deref(),
            Some("/paths/~1a~1{id}")
        );
        // A key that holds `%` itself is read as written.
        assert_eq!(
            target_of(&document, "#/paths/~1b%7B").as_deref(),
            Some("/paths/~1b%7B")
        );
        assert_eq!(target_of(&document, "#/paths/~1c"), None);
        assert_eq!(target_of(&document, "other.yaml#/paths"), None);
        let reference = json!({"$ref": "#/paths/~1a~1%7Bid%7D"});
        assert_eq!(
            Document::new(&document).resolve(&reference),
            Some(&json!({}))
        );
    }

    #[test]
    fn tells_what_sits_at_a_pointer() {
        for (pointer, place) in [
            ("/paths/~1a/get/parameters/0", Place::Parameter),
            ("/paths/~1a/parameters/0/schema/items", Place::Schema),
            (
                "/paths/~1a/get/requestBody/content/application~1json/schema/properties/x/anyOf/1",
                Place::Schema,
            ),
            ("/paths/~1a/get/responses/200", Place::Response),
            (
                "/paths/~1a/get/responses/200/headers/X-Rate/schema",
                Place::Schema,
            ),
            ("/paths/~1a/get/responses/200/links/next", Place::Link),
            (
                "/paths/~1a/get/callbacks/done/{$url}/post",
                Place::Operation,
            ),
            (
                "/paths/~1a/get/responses/200/content/application~1json/example",
                Place::Other,
            ),
            (
                "/paths/~1a/get/responses/200/content/application~1json/schema/enum/0",
                Place::Other,
            ),
            ("/components/schemas/A/properties/b", Place::Schema),
            ("/components/parameters/P", Place::Parameter),
            ("/components/pathItems/X/get", Place::Operation),
            ("/webhooks/done/post/requestBody", Place::RequestBody),
            ("/definitions/Pet", Place::Other),
            ("", Place::Other),
            ("/paths", Place::Other),
        ] {
            assert_eq!(place_of(pointer), place, "{pointer}");
        }
    }

    #[test]
    fn reads_local_schema_refs_only() {
        assert_eq!(schema_ref_name("#/components/schemas/Job"), Some("Job"));
        assert_eq!(schema_ref_name("#/components/parameters/Page"), None);
        assert_eq!(schema_ref_name("other.yaml#/components/schemas/Job"), None);
        assert_eq!(
            component_of("/components/schemas/A~1b/properties/x").as_deref(),
            Some("A/b")
        );
    }

    fn sample() -> Value {
        json!({"paths": {"/a/{id}": {
            "parameters": [{"name": "id", "in": "path", "schema": {"type": "string"}}],
            "post": {
                "operationId": "make",
                "requestBody": {"content": {"application/json": {"schema": {"type": "object",
                    "properties": {"ports": {"type": "array", "items": {"maxLength": 3}}},
                    "additionalProperties": false}}}},
                "responses": {"200": {"description": "d", "headers": {"h": {"schema": {"minimum": 1}}},
                    "content": {"application/json": {"examples": {"one": {"value": {}}},
                        "schema": {"oneOf": [{"$ref": "#/components/schemas/S"}, {"prefixItems": [{"const": 1}]}]}}}}}
            },
            "summary": "not an operation"
        }},
        "components": {"schemas": {"S": {"not": {"type": "null"}, "propertyNames": {"pattern": "^a"}}}}})
    }

    #[test]
    fn visits_every_schema_at_any_depth_with_its_owner() {
        let document = sample();
        let mut seen = Vec::new();
        Document::new(&document).visit_schemas(|at| {
            seen.push(format!("{} {}", at.owner, at.pointer));
            Visit::Descend
        });
        assert_eq!(
            seen,
            [
                "schema S /components/schemas/S",
                "schema S /components/schemas/S/not",
                "schema S /components/schemas/S/propertyNames",
                "path /a/{id} /paths/~1a~1{id}/parameters/0/schema",
                "operation make /paths/~1a~1{id}/post/requestBody/content/application~1json/schema",
                "operation make /paths/~1a~1{id}/post/requestBody/content/application~1json/schema/additionalProperties",
                "operation make /paths/~1a~1{id}/post/requestBody/content/application~1json/schema/properties/ports",
                "operation make /paths/~1a~1{id}/post/requestBody/content/application~1json/schema/properties/ports/items",
                "operation make /paths/~1a~1{id}/post/responses/200/content/application~1json/schema",
                "operation make /paths/~1a~1{id}/post/responses/200/content/application~1json/schema/oneOf/0",
                "operation make /paths/~1a~1{id}/post/responses/200/content/application~1json/schema/oneOf/1",
                "operation make /paths/~1a~1{id}/post/responses/200/content/application~1json/schema/oneOf/1/prefixItems/0",
                "operation make /paths/~1a~1{id}/post/responses/200/headers/h/schema",
            ]
        );
    }

    #[test]
    fn a_visitor_can_skip_a_subtree() {
        let document = sample();
        let mut count = 0;
        Document::new(&document).visit_schemas(|at| {
            count += 1;
            if at.depth == 0 {
                Visit::Skip
            } else {
                Visit::Descend
            }
        });
        assert_eq!(count, 5);
    }

    #[test]
    fn resolves_references_and_lists_operations() {
        let document = sample();
        let model = Document::new(&document);
        let operations = model.operations();
        assert_eq!(operations.len(), 1);
        assert_eq!(operations[0].label(), "POST /a/{id}");
        assert_eq!(operations[0].name(), "make");
        let reference = json!({"$ref": "#/components/schemas/S"});
        assert!(model.resolve(&reference).unwrap().get("not").is_some());
        assert!(model.resolve(&json!({"$ref": "#/nowhere"})).is_none());
        let looping = json!({"a": {"$ref": "#/a"}});
        let model = Document::new(&looping);
        assert!(model.resolve(&looping["a"]).is_some());
    }

    #[test]
    fn request_only_schemas_are_those_no_response_reaches() {
        let document = json!({
            "paths": {"/a": {
                "parameters": [{"schema": {"$ref": "#/components/schemas/Shared"}}],
                "post": {
                    "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Request"}}}},
                    "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Response"}}}}}
                }
            }},
            "components": {"schemas": {
                "Request": {"properties": {"kind": {"$ref": "#/components/schemas/Kind"}, "shared": {"$ref": "#/components/schemas/Shared"}}},
                "Response": {"properties": {"shared": {"$ref": "#/components/schemas/Shared"}}},
                "Kind": {"enum": ["a"]},
                "Shared": {"enum": ["b"]},
                "Delivery": {"enum": ["c"]}
            }}
        });
        assert_eq!(
            Document::new(&document).request_only_schemas(),
            std::collections::BTreeSet::from(["Kind".to_owned(), "Request".to_owned()])
        );
    }

    #[test]
    fn parameters_behind_a_reusable_component_are_requests_too() {
        let document = json!({
            "paths": {"/a": {"get": {
                "parameters": [{"$ref": "#/components/parameters/Status"}],
                "responses": {"200": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Page"}}}}}
            }}},
            "components": {
                "parameters": {"Status": {"name": "status", "in": "query", "schema": {"$ref": "#/components/schemas/Status"}}},
                "schemas": {"Status": {"enum": ["all", "unread"]}, "Page": {"type": "object"}}
            }
        });
        assert_eq!(
            Document::new(&document).request_only_schemas(),
            std::collections::BTreeSet::from(["Status".to_owned()])
        );
    }
}
