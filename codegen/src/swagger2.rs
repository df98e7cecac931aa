//! Swagger 2.0 to OpenAPI 3.0.3, before everything else: the pipeline reads OpenAPI 3.0 and
//! 3.1, and many published descriptions are still Swagger 2.0. [`convert`] rewrites the
//! document in place with the standard mapping, and reports (with the pointer of the source in
//! the Swagger document) whatever the mapping loses or has to guess.
//!
//! | Swagger 2.0                                   | OpenAPI 3.0.3                                 |
//! |-----------------------------------------------|-----------------------------------------------|
//! | `swagger: "2.0"`                              | `openapi: 3.0.3`                              |
//! | `host`, `basePath`, `schemes`                 | `servers` (the first scheme, else https)      |
//! | `definitions`                                 | `components/schemas`                          |
//! | `parameters` (global)                         | `components/parameters`, or `components/requestBodies` for body and form ones |
//! | `responses` (global)                          | `components/responses`                        |
//! | `securityDefinitions`                         | `components/securitySchemes` (basic is http basic; oauth2 flows renamed) |
//! | `consumes` and an `in: body` parameter        | `requestBody` with one `content` per type     |
//! | `in: formData` parameters                     | one `requestBody` of an object schema, url-encoded or multipart |
//! | `type`, `format`, ... of a parameter          | its `schema`                                  |
//! | `collectionFormat`                            | `style` and `explode`                         |
//! | `produces` and a response `schema`            | `content` with one entry per type             |
//! | response `examples` per media type            | `content/<type>/example`                      |
//! | `x-nullable`, `type: file`, `discriminator: p` | `nullable`, `type: string` + `format: binary`, `discriminator: {propertyName: p}` |
//! | `$ref: #/definitions/X` (and the other sections) | `$ref: #/components/schemas/X` (...)       |
//!
//! Everything else of a schema is the same in both (the JSON Schema draft 4 subset). Key order is
//! kept as in the source: maps are rebuilt in order rather than edited with removals.

use std::collections::BTreeSet;

use serde_json::{Map, Value, json};

use crate::model::{Nesting, SUBSCHEMA_KEYWORDS, push, unescape};
use crate::report::{Finding, FindingKind};

/// The media type an operation consumes and produces when neither it nor the document says.
const JSON: &str = "application/json";
/// The url-encoded form media type.
const URL_ENCODED: &str = "application/x-www-form-urlencoded";
/// The multipart form media type, the only one that carries a file.
const MULTIPART: &str = "multipart/form-data";

/// The fields of a non-body parameter (and of a header or an items object) that describe its
/// value: in OpenAPI 3 they are the parameter's `schema`.
const SCHEMA_FIELDS: &[&str] = &[
    "type",
    "format",
    "items",
    "enum",
    "default",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
    "multipleOf",
    "x-nullable",
];

/// Whether `document` is a Swagger 2.0 description (`swagger: "2.0"`).
pub(crate) fn is_swagger2(document: &Value) -> bool {
    match document.get("swagger") {
        Some(Value::String(version)) => version == "2.0",
        // An unquoted `swagger: 2.0` in YAML reads as a number; its author meant the version.
        Some(Value::Number(version)) => version.as_f64() == Some(2.0),
        _ => false,
    }
}

/// Converts a Swagger 2.0 document to OpenAPI 3.0.3 in place. Returns a finding for every
/// conversion that loses or guesses something (and one `Repaired` finding at "/swagger" saying the
/// document was converted). Never panics and never fails: anything it cannot convert is dropped
/// or kept as-is and reported.
///
/// A document that is not Swagger 2.0 ([`is_swagger2`]) is left alone, with no findings.
pub(crate) fn convert(document: &mut Value) -> Vec<Finding> {
    if !is_swagger2(document) {
        return Vec::new();
    }
    let Some(root) = document.as_object_mut() else {
        return Vec::new();
    };
    let source = std::mem::take(root);
    let mut converter = Converter::new(&source);
    *root = converter.root(source);
    rewrite_refs(document, &converter.bodies);
    converter.finish()
}

/// A parameter that becomes (part of) a request body, as written in the source.
#[derive(Clone, Debug)]
struct Param {
    /// The parameter object (the global one, when the operation refers to it).
    source: Map<String, Value>,
    /// Where the parameter object is in the source.
    pointer: String,
    /// The name of the global parameter the operation refers to, if it does.
    component: Option<String>,
}

impl Param {
    fn name(&self) -> Option<&str> {
        self.source.get("name").and_then(Value::as_str)
    }
}

/// The parameters of an operation or a path, sorted by what they become.
#[derive(Clone, Debug, Default)]
struct Inputs {
    /// The ones that stay parameters, converted (or `$ref`s to global ones).
    parameters: Vec<Value>,
    /// The `in: body` parameter.
    body: Option<Param>,
    /// The `in: formData` parameters.
    fields: Vec<Param>,
}

/// One form parameter as a property of the form body's schema.
struct Field {
    name: String,
    schema: Value,
    required: bool,
    file: bool,
    /// Its `encoding` in a url-encoded body (`style`, `explode`), for an array.
    encoding: Map<String, Value>,
    /// Its `collectionFormat`, for an array that multipart cannot send that way.
    unsent_format: Option<String>,
    pointer: String,
}

/// The state of one conversion: the document-wide defaults and the findings so far.
struct Converter {
    /// The document's `consumes`, or `application/json`.
    consumes: Vec<String>,
    /// The document's `produces`, or `application/json`.
    produces: Vec<String>,
    /// The global parameters as written, to see what a `$ref` in a parameter list stands for.
    parameters: Map<String, Value>,
    /// The names of the global parameters that become request bodies (body and form ones), whose
    /// `$ref`s point at `components/requestBodies`.
    bodies: BTreeSet<String>,
    findings: Vec<Finding>,
}

impl Converter {
    fn new(source: &Map<String, Value>) -> Self {
        let mut converter = Self {
            consumes: Vec::new(),
            produces: Vec::new(),
            parameters: Map::new(),
            bodies: BTreeSet::new(),
            findings: Vec::new(),
        };
        converter.report(
            FindingKind::Repaired,
            "/swagger",
            "Swagger 2.0 converted to OpenAPI 3.0.3",
        );
        if source.get("swagger").is_some_and(Value::is_number) {
            converter.report(
                FindingKind::Defect,
                "/swagger",
                "the version is a number, not the string \"2.0\"; read as \"2.0\"",
            );
        }
        converter.consumes = converter
            .media_types(source.get("consumes"), "/consumes")
            .unwrap_or_else(|| vec![JSON.to_owned()]);
        converter.produces = converter
            .media_types(source.get("produces"), "/produces")
            .unwrap_or_else(|| vec![JSON.to_owned()]);
        if let Some(parameters) = converter.mapping(source, "parameters") {
            converter.parameters = parameters.clone();
        }
        converter.bodies = converter
            .parameters
            .iter()
            .filter(|(_, parameter)| {
                let location = parameter.get("in").and_then(Value::as_str);
                matches!(location, Some("body" | "formData"))
            })
            .map(|(name, _)| name.clone())
            .collect();
        converter
    }

    fn report(&mut self, kind: FindingKind, pointer: &str, message: impl Into<String>) {
        self.findings.push(Finding::new(kind, pointer, message));
    }

    /// The findings, each once: a global parameter converted again for an operation that
    /// consumes other media types would otherwise report the same thing twice.
    fn finish(self) -> Vec<Finding> {
        let mut seen = BTreeSet::new();
        self.findings
            .into_iter()
            .filter(|finding| seen.insert(finding.clone()))
            .collect()
    }

    /// The object under `key` of `source`, reporting a value of the wrong shape.
    fn mapping<'a>(
        &mut self,
        source: &'a Map<String, Value>,
        key: &str,
    ) -> Option<&'a Map<String, Value>> {
        let value = source.get(key)?;
        if value.as_object().is_none() {
            self.report(
                FindingKind::Defect,
                &push("", key),
                "not a mapping; dropped",
            );
        }
        value.as_object()
    }

    /// A `consumes` or `produces` list; `None` when absent, empty or malformed (the caller then
    /// falls back to the wider default).
    fn media_types(&mut self, value: Option<&Value>, pointer: &str) -> Option<Vec<String>> {
        let value = value?;
        let Some(list) = value.as_array() else {
            self.report(
                FindingKind::Defect,
                pointer,
                "not a list of media types; ignored",
            );
            return None;
        };
        let types: Vec<String> = list
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect();
        if types.len() != list.len() {
            self.report(
                FindingKind::Defect,
                pointer,
                "entries that are not strings are ignored",
            );
        }
        (!types.is_empty()).then_some(types)
    }

    /// The whole document: each top-level field converted, moved or dropped, in source order.
    fn root(&mut self, source: Map<String, Value>) -> Map<String, Value> {
        let mut servers = self.servers(&source);
        let components = self.components(&source);
        let mut components = (!components.is_empty()).then_some(Value::Object(components));
        let mut out = Map::new();
        out.insert("openapi".into(), json!("3.0.3"));
        let mut has_paths = false;
        for (key, value) in source {
            match key.as_str() {
                "swagger" | "consumes" | "produces" => {}
                "host" | "basePath" | "schemes" | "servers" => {
                    if let Some(servers) = servers.take() {
                        out.insert("servers".into(), servers);
                    }
                }
                "definitions" | "parameters" | "responses" | "securityDefinitions" => {
                    if let Some(components) = components.take() {
                        out.insert("components".into(), components);
                    }
                }
                "paths" => {
                    has_paths = true;
                    let paths = self.paths(value);
                    out.insert(key, paths);
                }
                "info" | "tags" | "security" | "externalDocs" => {
                    out.insert(key, value);
                }
                _ if key.starts_with("x-") => {
                    out.insert(key, value);
                }
                _ => self.report(
                    FindingKind::Defect,
                    &push("", &key),
                    "not a Swagger 2.0 field; dropped",
                ),
            }
        }
        if !has_paths {
            self.report(
                FindingKind::Defect,
                "/paths",
                "missing, though required; read as no paths",
            );
            out.insert("paths".into(), json!({}));
        }
        out
    }

    /// `servers` from `host`, `basePath` and `schemes`; a `servers` list already in the
    /// document (not Swagger 2.0, but someone wrote it for OpenAPI 3 readers) wins.
    fn servers(&mut self, source: &Map<String, Value>) -> Option<Value> {
        let derived = self.server_url(source);
        match source.get("servers") {
            Some(Value::Array(servers)) => {
                let over = derived
                    .map(|url| format!(", over `{url}` from host, basePath and schemes"))
                    .unwrap_or_default();
                self.report(
                    FindingKind::Defect,
                    "/servers",
                    format!("`servers` is not a Swagger 2.0 field; kept as written{over}"),
                );
                Some(Value::Array(servers.clone()))
            }
            Some(_) => {
                self.report(
                    FindingKind::Defect,
                    "/servers",
                    "`servers` is not a Swagger 2.0 field, nor a list; dropped",
                );
                derived.map(|url| json!([{"url": url}]))
            }
            None => derived.map(|url| json!([{"url": url}])),
        }
    }

    /// The server URL: `<first scheme>://<host><basePath>`, or the bare `basePath` (relative
    /// to wherever the description is served) when there is no host.
    fn server_url(&mut self, source: &Map<String, Value>) -> Option<String> {
        let base_path = match source.get("basePath") {
            Some(Value::String(path)) => path.as_str(),
            Some(_) => {
                self.report(FindingKind::Defect, "/basePath", "not a string; ignored");
                ""
            }
            None => "",
        };
        let host = match source.get("host") {
            Some(Value::String(host)) if !host.is_empty() => host,
            Some(Value::String(_)) | None => {
                return (!base_path.is_empty()).then(|| base_path.to_owned());
            }
            Some(_) => {
                self.report(FindingKind::Defect, "/host", "not a string; ignored");
                return (!base_path.is_empty()).then(|| base_path.to_owned());
            }
        };
        let scheme = source
            .get("schemes")
            .and_then(Value::as_array)
            .and_then(|schemes| schemes.first())
            .and_then(Value::as_str);
        let scheme = match scheme {
            Some(scheme) => scheme.to_owned(),
            None => {
                self.report(
                    FindingKind::Repaired,
                    "/host",
                    "no `schemes`: the server is read as https",
                );
                "https".to_owned()
            }
        };
        Some(format!("{scheme}://{host}{base_path}"))
    }

    /// `components`: schemas, parameters, request bodies, responses and security schemes, each
    /// present only when the source has something for it.
    fn components(&mut self, source: &Map<String, Value>) -> Map<String, Value> {
        let mut components = Map::new();
        if let Some(definitions) = self.mapping(source, "definitions") {
            let schemas = definitions
                .iter()
                .map(|(name, schema)| {
                    let mut schema = schema.clone();
                    convert_schema(&mut schema, &push("/definitions", name), &mut self.findings);
                    (name.clone(), schema)
                })
                .collect();
            components.insert("schemas".into(), Value::Object(schemas));
        }
        let (parameters, bodies) = self.global_parameters();
        if !parameters.is_empty() {
            components.insert("parameters".into(), Value::Object(parameters));
        }
        if !bodies.is_empty() {
            components.insert("requestBodies".into(), Value::Object(bodies));
        }
        if let Some(responses) = self.mapping(source, "responses") {
            let produces = self.produces.clone();
            let mut converted = Map::new();
            for (name, response) in responses {
                let pointer = push("/responses", name);
                if let Some(response) = self.response(response.clone(), &pointer, &produces) {
                    converted.insert(name.clone(), response);
                }
            }
            components.insert("responses".into(), Value::Object(converted));
        }
        if let Some(schemes) = self.mapping(source, "securityDefinitions") {
            let mut converted = Map::new();
            for (name, scheme) in schemes {
                let pointer = push("/securityDefinitions", name);
                if let Some(scheme) = self.security_scheme(scheme, &pointer) {
                    converted.insert(name.clone(), scheme);
                }
            }
            components.insert("securitySchemes".into(), Value::Object(converted));
        }
        components
    }

    /// The global parameters: `(components/parameters, components/requestBodies)`.
    fn global_parameters(&mut self) -> (Map<String, Value>, Map<String, Value>) {
        let (mut parameters, mut bodies) = (Map::new(), Map::new());
        let consumes = self.consumes.clone();
        for (name, parameter) in self.parameters.clone() {
            let pointer = push("/parameters", &name);
            let Value::Object(source) = parameter else {
                self.report(
                    FindingKind::Defect,
                    &pointer,
                    "not a parameter object; dropped",
                );
                continue;
            };
            let param = Param {
                source,
                pointer: pointer.clone(),
                component: None,
            };
            match location(&param.source) {
                "body" => {
                    let body = self.body(&param, &consumes);
                    bodies.insert(name, body);
                }
                "formData" => {
                    let body = self.form_body(std::slice::from_ref(&param), &consumes, &pointer);
                    bodies.insert(name, body);
                }
                _ => {
                    if let Some(parameter) = self.parameter(param.source, &pointer) {
                        parameters.insert(name, parameter);
                    }
                }
            }
        }
        (parameters, bodies)
    }

    fn paths(&mut self, paths: Value) -> Value {
        let Value::Object(paths) = paths else {
            self.report(
                FindingKind::Defect,
                "/paths",
                "not a mapping; read as no paths",
            );
            return json!({});
        };
        let mut out = Map::new();
        for (path, item) in paths {
            if path.starts_with("x-") {
                out.insert(path, item);
                continue;
            }
            let pointer = push("/paths", &path);
            if let Some(item) = self.path_item(item, &pointer) {
                out.insert(path, item);
            }
        }
        Value::Object(out)
    }

    /// One path: its shared non-body parameters stay on the path; its shared body and form
    /// parameters (which OpenAPI 3 has no place for on a path) go down to every operation.
    fn path_item(&mut self, item: Value, pointer: &str) -> Option<Value> {
        let Value::Object(item) = item else {
            self.report(
                FindingKind::Defect,
                pointer,
                "not a path item object; dropped",
            );
            return None;
        };
        let mut shared = self.inputs(item.get("parameters"), &push(pointer, "parameters"));
        let parameters = std::mem::take(&mut shared.parameters);
        let mut out = Map::new();
        for (key, value) in item {
            if crate::model::is_method(&key) {
                let at = push(pointer, &key);
                if let Some(operation) = self.operation(value, &at, &shared) {
                    out.insert(key, operation);
                }
            } else if key == "parameters" {
                if !parameters.is_empty() {
                    out.insert(key, Value::Array(parameters.clone()));
                }
            } else {
                out.insert(key, value);
            }
        }
        Some(Value::Object(out))
    }

    fn operation(&mut self, operation: Value, pointer: &str, shared: &Inputs) -> Option<Value> {
        let Value::Object(source) = operation else {
            self.report(
                FindingKind::Defect,
                pointer,
                "not an operation object; dropped",
            );
            return None;
        };
        let consumes = self
            .media_types(source.get("consumes"), &push(pointer, "consumes"))
            .unwrap_or_else(|| self.consumes.clone());
        let produces = self
            .media_types(source.get("produces"), &push(pointer, "produces"))
            .unwrap_or_else(|| self.produces.clone());
        let mut own = self.inputs(source.get("parameters"), &push(pointer, "parameters"));
        inherit(&mut own, shared);
        let mut request_body = self.request_body(&own, &consumes, pointer);
        let mut parameters = Some(own.parameters);
        let mut out = Map::new();
        for (key, value) in source {
            match key.as_str() {
                "consumes" | "produces" => {}
                "parameters" => {
                    if let Some(parameters) = parameters.take().filter(|list| !list.is_empty()) {
                        out.insert(key, Value::Array(parameters));
                    }
                    if let Some(body) = request_body.take() {
                        out.insert("requestBody".into(), body);
                    }
                }
                "responses" => {
                    if let Some(body) = request_body.take() {
                        out.insert("requestBody".into(), body);
                    }
                    let at = push(pointer, "responses");
                    if let Some(responses) = self.responses(value, &at, &produces) {
                        out.insert(key, responses);
                    }
                }
                "schemes" => self.report(
                    FindingKind::Unenforced,
                    &push(pointer, "schemes"),
                    "operation-level schemes have no OpenAPI 3.0 counterpart; dropped (the document's servers apply)",
                ),
                _ => {
                    out.insert(key, value);
                }
            }
        }
        if let Some(parameters) = parameters.filter(|list| !list.is_empty()) {
            out.insert("parameters".into(), Value::Array(parameters));
        }
        if let Some(body) = request_body {
            out.insert("requestBody".into(), body);
        }
        Some(Value::Object(out))
    }

    /// Sorts a `parameters` list into parameters (converted), the body and the form fields.
    fn inputs(&mut self, list: Option<&Value>, pointer: &str) -> Inputs {
        let mut inputs = Inputs::default();
        let Some(list) = list else {
            return inputs;
        };
        let Some(list) = list.as_array() else {
            self.report(FindingKind::Defect, pointer, "not a list; dropped");
            return inputs;
        };
        for (index, entry) in list.iter().enumerate() {
            self.sort_parameter(entry, &format!("{pointer}/{index}"), &mut inputs);
        }
        inputs
    }

    fn sort_parameter(&mut self, entry: &Value, pointer: &str, inputs: &mut Inputs) {
        if entry.get("$ref").is_some() {
            match self.referenced(entry) {
                Some((name, target)) if matches!(location(&target), "body" | "formData") => {
                    let param = Param {
                        source: target,
                        pointer: push("/parameters", &name),
                        component: Some(name),
                    };
                    self.add_input(param, pointer, inputs);
                }
                // Any other reference stays one, pointed at its new place with every `$ref`.
                _ => inputs.parameters.push(entry.clone()),
            }
            return;
        }
        let Some(source) = entry.as_object() else {
            self.report(
                FindingKind::Defect,
                pointer,
                "not a parameter object; dropped",
            );
            return;
        };
        let param = Param {
            source: source.clone(),
            pointer: pointer.to_owned(),
            component: None,
        };
        match location(source) {
            "body" | "formData" => self.add_input(param, pointer, inputs),
            _ => {
                if let Some(parameter) = self.parameter(param.source, pointer) {
                    inputs.parameters.push(parameter);
                }
            }
        }
    }

    /// The global parameter a `$ref` entry names, with its (unescaped) name.
    fn referenced(&self, entry: &Value) -> Option<(String, Map<String, Value>)> {
        let reference = entry.get("$ref")?.as_str()?;
        let name = unescape(reference.strip_prefix("#/parameters/")?);
        let target = self.parameters.get(&name)?.as_object()?.clone();
        Some((name, target))
    }

    /// Adds a body or form parameter, used at `pointer`; an operation has one body.
    fn add_input(&mut self, param: Param, pointer: &str, inputs: &mut Inputs) {
        if location(&param.source) == "formData" {
            inputs.fields.push(param);
        } else if inputs.body.is_some() {
            self.report(
                FindingKind::Defect,
                pointer,
                "a second body parameter (an operation has one body); dropped",
            );
        } else {
            inputs.body = Some(param);
        }
    }

    /// The operation's `requestBody`, from its body parameter or its form parameters.
    fn request_body(
        &mut self,
        inputs: &Inputs,
        consumes: &[String],
        pointer: &str,
    ) -> Option<Value> {
        if let Some(body) = &inputs.body {
            if let Some(field) = inputs.fields.first() {
                self.report(
                    FindingKind::Defect,
                    &field.pointer,
                    "form parameters beside a body parameter (an operation has one body); the form parameters are dropped",
                );
            }
            return Some(self.body(body, consumes));
        }
        (!inputs.fields.is_empty()).then(|| self.form_body(&inputs.fields, consumes, pointer))
    }

    /// The request body of an `in: body` parameter: a `$ref` to its component when it is a
    /// global one sent as the document's media types, else the body itself.
    fn body(&mut self, param: &Param, consumes: &[String]) -> Value {
        if let Some(name) = &param.component
            && consumes == self.consumes.as_slice()
        {
            return json!({"$ref": push("#/components/requestBodies", name)});
        }
        let mut schema = match param.source.get("schema") {
            Some(schema) => schema.clone(),
            None => {
                self.report(
                    FindingKind::Defect,
                    &param.pointer,
                    "a body parameter without a `schema`; read as any value",
                );
                json!({})
            }
        };
        convert_schema(
            &mut schema,
            &push(&param.pointer, "schema"),
            &mut self.findings,
        );
        let mut out = Map::new();
        if let Some(description) = param.source.get("description") {
            out.insert("description".into(), description.clone());
        }
        out.insert("content".into(), content(&schema, consumes));
        if let Some(required) = param.source.get("required") {
            out.insert("required".into(), required.clone());
        }
        extensions(&param.source, &mut out);
        Value::Object(out)
    }

    /// One request body for all the form parameters: an object of the fields, url-encoded or
    /// multipart as the operation consumes (multipart whenever a field is a file). Guesses are
    /// reported at `pointer`.
    fn form_body(&mut self, params: &[Param], consumes: &[String], pointer: &str) -> Value {
        let fields: Vec<Field> = params
            .iter()
            .filter_map(|param| self.form_field(param))
            .collect();
        let types = self.form_types(&fields, consumes, pointer);
        if types.iter().any(|kind| kind == MULTIPART) {
            for field in &fields {
                if let Some(format) = &field.unsent_format {
                    self.report(
                        FindingKind::Unenforced,
                        &push(&field.pointer, "collectionFormat"),
                        format!(
                            "multipart sends each item of an array as its own part; not `{format}`"
                        ),
                    );
                }
            }
        }
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut encoding = Map::new();
        for field in fields {
            if field.required {
                required.push(Value::String(field.name.clone()));
            }
            if !field.encoding.is_empty() {
                encoding.insert(field.name.clone(), Value::Object(field.encoding));
            }
            properties.insert(field.name, field.schema);
        }
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(properties));
        let any_required = !required.is_empty();
        if any_required {
            schema.insert("required".into(), Value::Array(required));
        }
        let schema = Value::Object(schema);
        let mut content = Map::new();
        for kind in types {
            let mut media = Map::new();
            media.insert("schema".into(), schema.clone());
            if kind == URL_ENCODED && !encoding.is_empty() {
                media.insert("encoding".into(), Value::Object(encoding.clone()));
            }
            content.insert(kind, Value::Object(media));
        }
        let mut out = Map::new();
        out.insert("content".into(), Value::Object(content));
        if any_required {
            out.insert("required".into(), json!(true));
        }
        Value::Object(out)
    }

    /// The form media types the operation consumes, in its order; multipart alone when a field
    /// is a file (url-encoding has no place for its bytes).
    fn form_types(&mut self, fields: &[Field], consumes: &[String], pointer: &str) -> Vec<String> {
        let declared: Vec<String> = consumes
            .iter()
            .map(|kind| essence(kind))
            .filter(|kind| kind == URL_ENCODED || kind == MULTIPART)
            .collect();
        if fields.iter().any(|field| field.file) {
            if !declared.iter().any(|kind| kind == MULTIPART) {
                self.report(
                    FindingKind::Defect,
                    pointer,
                    "a file parameter, but the operation does not consume multipart/form-data; sent as multipart/form-data",
                );
            }
            return vec![MULTIPART.to_owned()];
        }
        if declared.is_empty() {
            self.report(
                FindingKind::Defect,
                pointer,
                "form parameters, but the operation consumes no form media type; sent as application/x-www-form-urlencoded",
            );
            return vec![URL_ENCODED.to_owned()];
        }
        declared.into_iter().fold(Vec::new(), |mut unique, kind| {
            if !unique.contains(&kind) {
                unique.push(kind);
            }
            unique
        })
    }

    /// One form parameter as a property: its schema (with its description), and how an array
    /// of it is encoded.
    fn form_field(&mut self, param: &Param) -> Option<Field> {
        let source = &param.source;
        let Some(name) = param.name() else {
            self.report(
                FindingKind::Defect,
                &param.pointer,
                "a form parameter without a name; dropped",
            );
            return None;
        };
        let mut schema = self.value_schema(source, &param.pointer);
        if let Some(description) = source.get("description") {
            schema.shift_insert(0, "description".into(), description.clone());
        }
        extensions(source, &mut schema);
        if source.contains_key("allowEmptyValue") {
            self.report(
                FindingKind::Unenforced,
                &push(&param.pointer, "allowEmptyValue"),
                "a form field's `allowEmptyValue` has no OpenAPI 3.0 counterpart; dropped",
            );
        }
        let array = source.get("type") == Some(&json!("array"));
        let format = source.get("collectionFormat");
        let encoding = if array {
            self.style(format, "formData", &param.pointer)
        } else {
            Map::new()
        };
        let format = format.and_then(Value::as_str).unwrap_or("csv");
        Some(Field {
            name: name.to_owned(),
            schema: Value::Object(schema),
            required: source.get("required") == Some(&Value::Bool(true)),
            file: source.get("type") == Some(&json!("file")),
            encoding,
            unsent_format: (array && format != "multi").then(|| format.to_owned()),
            pointer: param.pointer.clone(),
        })
    }

    /// A path, query or header parameter: its value fields become its `schema`. A parameter of
    /// any other location is dropped.
    fn parameter(&mut self, source: Map<String, Value>, pointer: &str) -> Option<Value> {
        let location = location(&source).to_owned();
        if !matches!(location.as_str(), "path" | "query" | "header") {
            self.report(
                FindingKind::Defect,
                pointer,
                format!("`in: {location}` is not a Swagger 2.0 parameter location; dropped"),
            );
            return None;
        }
        let mut parameter = self.simple(source, pointer, &location);
        if location == "path" && parameter.get("required") != Some(&Value::Bool(true)) {
            self.report(
                FindingKind::Defect,
                pointer,
                "a path parameter that is not required, though it must be; read as required",
            );
            parameter.insert("required".into(), json!(true));
        }
        Some(Value::Object(parameter))
    }

    /// A non-body parameter or a header (`location` "header"): the value fields move into a
    /// `schema` where the first of them was, followed by the array's `style` and `explode`.
    fn simple(
        &mut self,
        source: Map<String, Value>,
        pointer: &str,
        location: &str,
    ) -> Map<String, Value> {
        let mut style = if source.get("type") == Some(&json!("array")) {
            self.style(source.get("collectionFormat"), location, pointer)
        } else {
            Map::new()
        };
        let typed = source.contains_key("type");
        let written = source.get("schema").cloned().filter(|_| !typed);
        let mut schema = if let Some(mut written) = written {
            self.report(
                FindingKind::Defect,
                pointer,
                "a `schema` instead of a `type` (OpenAPI 3, not Swagger 2.0); kept",
            );
            convert_schema(&mut written, &push(pointer, "schema"), &mut self.findings);
            Some(written)
        } else {
            if !typed {
                self.report(
                    FindingKind::Defect,
                    pointer,
                    "no `type`, though required; read as any value",
                );
            }
            Some(Value::Object(self.value_schema(&source, pointer)))
        };
        let mut out = Map::new();
        for (key, value) in source {
            let key_str = key.as_str();
            if SCHEMA_FIELDS.contains(&key_str) || key_str == "schema" {
                if let Some(schema) = schema.take() {
                    out.insert("schema".into(), schema);
                    out.append(&mut style);
                }
            } else if key_str != "collectionFormat" {
                out.insert(key, value);
            }
        }
        if let Some(schema) = schema {
            out.insert("schema".into(), schema);
            out.append(&mut style);
        }
        out
    }

    /// The schema made of the value fields of a parameter, header or items object.
    fn value_schema(&mut self, source: &Map<String, Value>, pointer: &str) -> Map<String, Value> {
        let mut schema: Map<String, Value> = source
            .iter()
            .filter(|(key, _)| SCHEMA_FIELDS.contains(&key.as_str()))
            .map(|(key, value)| (key.clone(), value.clone()))
            .collect();
        if let Some(items) = schema.get_mut("items") {
            self.items(items, &push(pointer, "items"));
        }
        let mut schema = Value::Object(schema);
        convert_schema(&mut schema, pointer, &mut self.findings);
        match schema {
            Value::Object(schema) => schema,
            _ => Map::new(),
        }
    }

    /// An items object as a schema: only the outermost array of a parameter has a style, so a
    /// nested `collectionFormat` is lost.
    fn items(&mut self, items: &mut Value, pointer: &str) {
        let Some(object) = items.as_object_mut() else {
            return;
        };
        if let Some(format) = object.shift_remove("collectionFormat") {
            let format = format.as_str().unwrap_or("csv").to_owned();
            self.report(
                FindingKind::Unenforced,
                &push(pointer, "collectionFormat"),
                format!("OpenAPI 3 has no style for nested arrays; `{format}` dropped"),
            );
        }
        if let Some(inner) = object.get_mut("items") {
            self.items(inner, &push(pointer, "items"));
        }
    }

    /// `style` and `explode` for an array sent as its `collectionFormat` says (csv when absent)
    /// in `location`: query and form fields have the form styles, paths and headers `simple`.
    fn style(
        &mut self,
        format: Option<&Value>,
        location: &str,
        pointer: &str,
    ) -> Map<String, Value> {
        let at = push(pointer, "collectionFormat");
        let format = match format {
            None => "csv",
            Some(Value::String(format)) => format.as_str(),
            Some(_) => {
                self.report(FindingKind::Defect, &at, "not a string; read as `csv`");
                "csv"
            }
        };
        let format = match format {
            "csv" | "multi" | "ssv" | "pipes" => format,
            "tsv" => {
                self.report(
                    FindingKind::Defect,
                    &at,
                    "tab-separated arrays have no OpenAPI 3 style; sent comma-separated (`csv`)",
                );
                "csv"
            }
            other => {
                self.report(
                    FindingKind::Defect,
                    &at,
                    format!("unknown collectionFormat `{other}`; read as `csv`"),
                );
                "csv"
            }
        };
        let form = matches!(location, "query" | "formData");
        let (style, explode) = match (format, form) {
            ("multi", true) => ("form", Some(true)),
            ("ssv", true) => ("spaceDelimited", None),
            ("pipes", true) => ("pipeDelimited", None),
            (_, true) => ("form", Some(false)),
            ("multi", false) => {
                self.report(
                    FindingKind::Defect,
                    &at,
                    format!("`multi` is only for query and form parameters, not {location}; sent comma-separated"),
                );
                ("simple", None)
            }
            ("ssv" | "pipes", false) => {
                self.report(
                    FindingKind::Unenforced,
                    &at,
                    format!(
                        "OpenAPI 3 has no `{format}` style for {location}; sent comma-separated"
                    ),
                );
                ("simple", None)
            }
            _ => ("simple", None),
        };
        let mut out = Map::new();
        out.insert("style".into(), json!(style));
        if let Some(explode) = explode {
            out.insert("explode".into(), json!(explode));
        }
        out
    }

    fn responses(&mut self, responses: Value, pointer: &str, produces: &[String]) -> Option<Value> {
        let Value::Object(responses) = responses else {
            self.report(FindingKind::Defect, pointer, "not a mapping; dropped");
            return None;
        };
        let mut out = Map::new();
        for (status, response) in responses {
            if status.starts_with("x-") {
                out.insert(status, response);
                continue;
            }
            let at = push(pointer, &status);
            if let Some(response) = self.response(response, &at, produces) {
                out.insert(status, response);
            }
        }
        Some(Value::Object(out))
    }

    /// One response: its `schema` becomes `content` (one entry per produced type, none without
    /// a schema), its `examples` the entries' `example`, its headers header objects.
    fn response(&mut self, response: Value, pointer: &str, produces: &[String]) -> Option<Value> {
        let Value::Object(source) = response else {
            self.report(
                FindingKind::Defect,
                pointer,
                "not a response object; dropped",
            );
            return None;
        };
        if source.contains_key("$ref") {
            return Some(Value::Object(source));
        }
        let mut out = Map::new();
        if !source.contains_key("description") {
            self.report(
                FindingKind::Defect,
                pointer,
                "no description, though required; read as empty",
            );
            out.insert("description".into(), json!(""));
        }
        let mut examples = None;
        for (key, value) in source {
            match key.as_str() {
                "schema" => {
                    let mut schema = value;
                    convert_schema(&mut schema, &push(pointer, "schema"), &mut self.findings);
                    out.insert("content".into(), content(&schema, produces));
                }
                "examples" => examples = Some(value),
                "headers" => {
                    let headers = self.headers(value, &push(pointer, "headers"));
                    out.insert(key, headers);
                }
                _ => {
                    out.insert(key, value);
                }
            }
        }
        if let Some(examples) = examples {
            self.examples(&mut out, examples, &push(pointer, "examples"));
        }
        Some(Value::Object(out))
    }

    /// Each example of a response, by media type, as that media type's `example`.
    fn examples(&mut self, response: &mut Map<String, Value>, examples: Value, pointer: &str) {
        let Value::Object(examples) = examples else {
            self.report(FindingKind::Defect, pointer, "not a mapping; dropped");
            return;
        };
        let has_content = response.contains_key("content");
        for (kind, example) in examples {
            let at = push(pointer, &kind);
            let media = response
                .get_mut("content")
                .and_then(|content| content.get_mut(&kind))
                .and_then(Value::as_object_mut);
            match media {
                Some(media) => {
                    media.insert("example".into(), example);
                }
                None if !has_content => self.report(
                    FindingKind::Defect,
                    &at,
                    "an example of a response without a schema (so without content); dropped",
                ),
                None => self.report(
                    FindingKind::Defect,
                    &at,
                    "an example of a media type the operation does not produce; dropped",
                ),
            }
        }
    }

    fn headers(&mut self, headers: Value, pointer: &str) -> Value {
        let Value::Object(headers) = headers else {
            self.report(FindingKind::Defect, pointer, "not a mapping; dropped");
            return json!({});
        };
        let mut out = Map::new();
        for (name, header) in headers {
            let at = push(pointer, &name);
            match header {
                Value::Object(header) => {
                    let header = self.simple(header, &at, "header");
                    out.insert(name, Value::Object(header));
                }
                _ => self.report(FindingKind::Defect, &at, "not a header object; dropped"),
            }
        }
        Value::Object(out)
    }

    /// A security definition as a security scheme: basic is http basic, apiKey the same, an
    /// oauth2 flow moves under `flows` by its OpenAPI 3 name.
    fn security_scheme(&mut self, scheme: &Value, pointer: &str) -> Option<Value> {
        let Some(source) = scheme.as_object() else {
            self.report(
                FindingKind::Defect,
                pointer,
                "not a security scheme object; dropped",
            );
            return None;
        };
        match source.get("type").and_then(Value::as_str) {
            Some("apiKey") => Some(scheme.clone()),
            Some("basic") => {
                let mut out = Map::new();
                for (key, value) in source {
                    if key == "type" {
                        out.insert("type".into(), json!("http"));
                        out.insert("scheme".into(), json!("basic"));
                    } else {
                        out.insert(key.clone(), value.clone());
                    }
                }
                Some(Value::Object(out))
            }
            Some("oauth2") => Some(self.oauth2(source, pointer)),
            _ => {
                self.report(
                    FindingKind::Defect,
                    &push(pointer, "type"),
                    "not a Swagger 2.0 security scheme type (basic, apiKey, oauth2); kept as written",
                );
                Some(scheme.clone())
            }
        }
    }

    /// An oauth2 definition: its one `flow`, with its URLs and scopes, under `flows`.
    fn oauth2(&mut self, source: &Map<String, Value>, pointer: &str) -> Value {
        let flows = self.flows(source, pointer);
        let mut flows = Some(flows);
        let mut out = Map::new();
        for (key, value) in source {
            match key.as_str() {
                "flow" => {
                    if let Some(flows) = flows.take() {
                        out.insert("flows".into(), flows);
                    }
                }
                "authorizationUrl" | "tokenUrl" | "scopes" => {}
                _ => {
                    out.insert(key.clone(), value.clone());
                }
            }
        }
        if let Some(flows) = flows {
            out.insert("flows".into(), flows);
        }
        Value::Object(out)
    }

    fn flows(&mut self, source: &Map<String, Value>, pointer: &str) -> Value {
        let flow = source
            .get("flow")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let (name, urls): (&str, &[&str]) = match flow {
            "implicit" => ("implicit", &["authorizationUrl"]),
            "password" => ("password", &["tokenUrl"]),
            "application" => ("clientCredentials", &["tokenUrl"]),
            "accessCode" => ("authorizationCode", &["authorizationUrl", "tokenUrl"]),
            _ => {
                self.report(
                    FindingKind::Defect,
                    &push(pointer, "flow"),
                    format!("`{flow}` is not an oauth2 flow (implicit, password, application, accessCode); no flow kept"),
                );
                return json!({});
            }
        };
        let mut out = Map::new();
        for url in urls {
            match source.get(*url) {
                Some(Value::String(value)) => {
                    out.insert((*url).into(), json!(value));
                }
                _ => {
                    self.report(
                        FindingKind::Defect,
                        pointer,
                        format!("no `{url}`, though the {flow} flow requires it; read as empty"),
                    );
                    out.insert((*url).into(), json!(""));
                }
            }
        }
        match source.get("scopes") {
            Some(Value::Object(scopes)) => {
                out.insert("scopes".into(), Value::Object(scopes.clone()));
            }
            _ => {
                self.report(
                    FindingKind::Defect,
                    pointer,
                    "no `scopes` mapping, though required; read as no scopes",
                );
                out.insert("scopes".into(), json!({}));
            }
        }
        json!({ name: out })
    }
}

/// The `in` of a parameter object, empty when absent.
fn location(parameter: &Map<String, Value>) -> &str {
    parameter
        .get("in")
        .and_then(Value::as_str)
        .unwrap_or_default()
}

/// Gives an operation the body and form parameters of its path, unless it has its own body,
/// or its own field of the same name.
fn inherit(own: &mut Inputs, shared: &Inputs) {
    if own.body.is_none() {
        own.body.clone_from(&shared.body);
    }
    let inherited: Vec<Param> = shared
        .fields
        .iter()
        .filter(|field| !own.fields.iter().any(|mine| mine.name() == field.name()))
        .cloned()
        .collect();
    own.fields.splice(0..0, inherited);
}

/// The `content` of a body or response: `schema` under each media type.
fn content(schema: &Value, types: &[String]) -> Value {
    let types: Vec<String> = if types.is_empty() {
        vec![JSON.to_owned()]
    } else {
        types.to_vec()
    };
    let content: Map<String, Value> = types
        .into_iter()
        .map(|kind| (kind, json!({"schema": schema.clone()})))
        .collect();
    Value::Object(content)
}

/// Copies the `x-` extensions of `source` into `out`.
fn extensions(source: &Map<String, Value>, out: &mut Map<String, Value>) {
    for (key, value) in source {
        if key.starts_with("x-") && key != "x-nullable" {
            out.insert(key.clone(), value.clone());
        }
    }
}

/// A media type without its parameters, lower-cased (`Multipart/Form-Data; boundary=x` is
/// `multipart/form-data`), to compare it.
fn essence(kind: &str) -> String {
    kind.split(';')
        .next()
        .unwrap_or(kind)
        .trim()
        .to_ascii_lowercase()
}

/// Converts one schema and every schema below it: `x-nullable` to `nullable`, `type: file` to a
/// binary string, a property-name `discriminator` to a discriminator object. Every keyword
/// stays where it was.
fn convert_schema(schema: &mut Value, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    let source = std::mem::take(object);
    let mut file = false;
    for (key, value) in source {
        match (key.as_str(), value) {
            ("x-nullable", Value::Bool(nullable)) => {
                if nullable {
                    object.insert("nullable".into(), json!(true));
                }
            }
            ("x-nullable", _) => findings.push(Finding::new(
                FindingKind::Defect,
                &push(pointer, "x-nullable"),
                "not a boolean; dropped",
            )),
            ("type", Value::String(kind)) if kind == "file" => {
                file = true;
                object.insert("type".into(), json!("string"));
                object.insert("format".into(), json!("binary"));
            }
            // A file's bytes are binary whatever format it named.
            ("format", _) if file => {}
            ("discriminator", Value::String(property)) => {
                object.insert("discriminator".into(), json!({"propertyName": property}));
            }
            ("discriminator", value @ Value::Object(_)) => {
                object.insert(key, value);
            }
            ("discriminator", _) => findings.push(Finding::new(
                FindingKind::Defect,
                &push(pointer, "discriminator"),
                "not a property name; dropped",
            )),
            (_, value) => {
                object.insert(key, value);
            }
        }
    }
    for (keyword, nesting) in SUBSCHEMA_KEYWORDS {
        let Some(value) = object.get_mut(*keyword) else {
            continue;
        };
        let at = push(pointer, keyword);
        match (nesting, value) {
            (Nesting::One, value @ Value::Object(_)) => convert_schema(value, &at, findings),
            // `items` may be a list (a draft 4 tuple) as well as one schema.
            (Nesting::One | Nesting::List, Value::Array(members)) => {
                for (index, member) in members.iter_mut().enumerate() {
                    convert_schema(member, &format!("{at}/{index}"), findings);
                }
            }
            (Nesting::Map, Value::Object(entries)) => {
                for (name, member) in entries.iter_mut() {
                    convert_schema(member, &push(&at, name), findings);
                }
            }
            _ => {}
        }
    }
}

/// Points every `$ref` at the section its target moved to: definitions to
/// `components/schemas`, parameters to `components/parameters` (or `components/requestBodies`
/// for the `bodies`), responses to `components/responses`.
fn rewrite_refs(value: &mut Value, bodies: &BTreeSet<String>) {
    match value {
        Value::Object(object) => {
            for (key, child) in object.iter_mut() {
                match child {
                    Value::String(reference) if key == "$ref" => {
                        if let Some(moved) = moved_ref(reference, bodies) {
                            *reference = moved;
                        }
                    }
                    child => rewrite_refs(child, bodies),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                rewrite_refs(item, bodies);
            }
        }
        _ => {}
    }
}

/// Where a Swagger 2.0 local reference points in OpenAPI 3, if it moved.
fn moved_ref(reference: &str, bodies: &BTreeSet<String>) -> Option<String> {
    if let Some(rest) = reference.strip_prefix("#/definitions/") {
        return Some(format!("#/components/schemas/{rest}"));
    }
    if let Some(rest) = reference.strip_prefix("#/responses/") {
        return Some(format!("#/components/responses/{rest}"));
    }
    let rest = reference.strip_prefix("#/parameters/")?;
    let name = unescape(rest.split('/').next().unwrap_or(rest));
    let section = if bodies.contains(&name) {
        "requestBodies"
    } else {
        "parameters"
    };
    Some(format!("#/components/{section}/{rest}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Swagger 2.0 document of `paths` and the given top-level fields.
    fn swagger(paths: Value, rest: Value) -> Value {
        let mut document = json!({"swagger": "2.0", "info": {"title": "t", "version": "1"}});
        if let (Some(object), Value::Object(rest)) = (document.as_object_mut(), rest) {
            object.insert("paths".into(), paths);
            object.extend(rest);
        }
        document
    }

    /// A document of one `post /a` operation.
    fn operation(operation: Value, rest: Value) -> Value {
        swagger(json!({"/a": {"post": operation}}), rest)
    }

    fn converted(mut document: Value) -> (Value, Vec<Finding>) {
        let findings = convert(&mut document);
        (document, findings)
    }

    fn has(findings: &[Finding], kind: FindingKind, pointer: &str) -> bool {
        findings
            .iter()
            .any(|finding| finding.kind == kind && finding.pointer == pointer)
    }

    fn keys(value: &Value) -> Vec<&str> {
        value
            .as_object()
            .map(|object| object.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    #[test]
    fn recognises_swagger_2_only() {
        assert!(is_swagger2(&json!({"swagger": "2.0"})));
        assert!(is_swagger2(&json!({"swagger": 2.0})));
        assert!(!is_swagger2(&json!({"swagger": "1.2"})));
        assert!(!is_swagger2(&json!({"openapi": "3.0.3"})));
        assert!(!is_swagger2(&json!(["swagger", "2.0"])));
        let mut openapi = json!({"openapi": "3.1.0", "paths": {}});
        assert!(convert(&mut openapi).is_empty());
        assert_eq!(openapi, json!({"openapi": "3.1.0", "paths": {}}));
    }

    #[test]
    fn sets_the_version_and_reports_the_conversion() {
        let (document, findings) = converted(swagger(json!({}), json!({})));
        assert_eq!(document["openapi"], "3.0.3");
        assert!(document.get("swagger").is_none());
        assert_eq!(findings[0].kind, FindingKind::Repaired);
        assert_eq!(findings[0].pointer, "/swagger");
        assert_eq!(findings.len(), 1, "{findings:?}");
    }

    #[test]
    fn servers_from_host_base_path_and_schemes() {
        let (document, _) = converted(swagger(
            json!({}),
            json!({"host": "api.example.com", "basePath": "/v1", "schemes": ["http", "https"]}),
        ));
        assert_eq!(
            document["servers"],
            json!([{"url": "http://api.example.com/v1"}])
        );
        for key in ["host", "basePath", "schemes"] {
            assert!(document.get(key).is_none());
        }

        let (document, findings) =
            converted(swagger(json!({}), json!({"host": "api.example.com"})));
        assert_eq!(
            document["servers"],
            json!([{"url": "https://api.example.com"}])
        );
        assert!(has(&findings, FindingKind::Repaired, "/host"));

        let (document, _) = converted(swagger(
            json!({}),
            json!({"basePath": "/v1", "schemes": ["http"]}),
        ));
        assert_eq!(document["servers"], json!([{"url": "/v1"}]));

        let (document, _) = converted(swagger(json!({}), json!({})));
        assert!(document.get("servers").is_none());
    }

    #[test]
    fn a_servers_list_already_written_is_kept_and_reported() {
        let (document, findings) = converted(swagger(
            json!({}),
            json!({"servers": [{"url": "http://localhost/v1"}], "basePath": "/v1"}),
        ));
        assert_eq!(document["servers"], json!([{"url": "http://localhost/v1"}]));
        assert!(has(&findings, FindingKind::Defect, "/servers"));
    }

    #[test]
    fn keeps_info_tags_security_external_docs_and_extensions_and_drops_the_rest() {
        let (document, findings) = converted(swagger(
            json!({}),
            json!({
                "tags": [{"name": "pets"}],
                "security": [{"key": []}],
                "externalDocs": {"url": "https://example.com"},
                "x-logo": {"url": "logo.png"},
                "consumes": ["application/json"],
                "produces": ["application/json"],
                "definitions": {},
                "parameters": {},
                "responses": {},
                "securityDefinitions": {"key": {"type": "apiKey", "name": "k", "in": "header"}},
                "bogus": 1,
            }),
        ));
        assert_eq!(
            keys(&document),
            [
                "openapi",
                "info",
                "paths",
                "tags",
                "security",
                "externalDocs",
                "x-logo",
                "components"
            ]
        );
        assert!(has(&findings, FindingKind::Defect, "/bogus"));
    }

    #[test]
    fn definitions_become_component_schemas_and_every_ref_follows() {
        let (document, _) = converted(operation(
            json!({"parameters": [{"in": "body", "name": "b", "schema": {"$ref": "#/definitions/Pet"}}],
                   "responses": {"200": {"description": "ok", "schema": {"type": "array", "items": {"$ref": "#/definitions/Pet"}}}}}),
            json!({"definitions": {
                "Pet": {"type": "object", "properties": {"owner": {"$ref": "#/definitions/Owner"}}},
                "Owner": {"allOf": [{"$ref": "#/definitions/Pet/properties/owner"}]},
            }}),
        ));
        let schemas = &document["components"]["schemas"];
        assert_eq!(keys(schemas), ["Pet", "Owner"]);
        assert_eq!(
            schemas["Pet"]["properties"]["owner"]["$ref"],
            "#/components/schemas/Owner"
        );
        assert_eq!(
            schemas["Owner"]["allOf"][0]["$ref"],
            "#/components/schemas/Pet/properties/owner"
        );
        let post = &document["paths"]["/a"]["post"];
        assert_eq!(
            post["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/Pet"
        );
        assert_eq!(
            post["responses"]["200"]["content"]["application/json"]["schema"]["items"]["$ref"],
            "#/components/schemas/Pet"
        );
        assert!(document.get("definitions").is_none());
    }

    #[test]
    fn global_parameters_become_parameters_or_request_bodies() {
        let (document, _) = converted(operation(
            json!({"parameters": [
                {"$ref": "#/parameters/Limit"},
                {"$ref": "#/parameters/Body"},
            ], "responses": {"200": {"description": "ok"}}}),
            json!({"parameters": {
                "Limit": {"in": "query", "name": "limit", "type": "integer", "format": "int32"},
                "Body": {"in": "body", "name": "body", "required": true, "schema": {"type": "string"}},
                "File": {"in": "formData", "name": "file", "type": "file"},
            }}),
        ));
        let components = &document["components"];
        assert_eq!(
            components["parameters"]["Limit"],
            json!({"in": "query", "name": "limit", "schema": {"type": "integer", "format": "int32"}})
        );
        assert_eq!(
            components["requestBodies"]["Body"],
            json!({"content": {"application/json": {"schema": {"type": "string"}}}, "required": true})
        );
        assert_eq!(
            components["requestBodies"]["File"]["content"]["multipart/form-data"]["schema"]["properties"]
                ["file"],
            json!({"type": "string", "format": "binary"})
        );
        let post = &document["paths"]["/a"]["post"];
        assert_eq!(
            post["parameters"],
            json!([{"$ref": "#/components/parameters/Limit"}])
        );
        assert_eq!(
            post["requestBody"],
            json!({"$ref": "#/components/requestBodies/Body"})
        );
        assert!(document.get("parameters").is_none());
    }

    #[test]
    fn a_global_body_is_inlined_where_the_operation_consumes_other_types() {
        let (document, _) = converted(operation(
            json!({"consumes": ["text/plain"], "parameters": [{"$ref": "#/parameters/Body"}], "responses": {}}),
            json!({"parameters": {"Body": {"in": "body", "name": "body", "schema": {"type": "string"}}}}),
        ));
        assert_eq!(
            document["paths"]["/a"]["post"]["requestBody"],
            json!({"content": {"text/plain": {"schema": {"type": "string"}}}})
        );
    }

    #[test]
    fn refs_to_body_parameters_elsewhere_point_at_request_bodies() {
        let mut bodies = BTreeSet::new();
        bodies.insert("Body".to_owned());
        assert_eq!(
            moved_ref("#/parameters/Body", &bodies).as_deref(),
            Some("#/components/requestBodies/Body")
        );
        assert_eq!(
            moved_ref("#/parameters/Limit", &bodies).as_deref(),
            Some("#/components/parameters/Limit")
        );
        assert_eq!(
            moved_ref("#/responses/NotFound", &bodies).as_deref(),
            Some("#/components/responses/NotFound")
        );
        assert_eq!(moved_ref("other.json#/definitions/X", &bodies), None);
        assert_eq!(moved_ref("#/components/schemas/X", &bodies), None);
    }

    #[test]
    fn global_responses_become_component_responses() {
        let (document, _) = converted(operation(
            json!({"responses": {"404": {"$ref": "#/responses/NotFound"}}}),
            json!({"produces": ["application/xml"], "responses": {
                "NotFound": {"description": "missing", "schema": {"$ref": "#/definitions/Error"}},
            }, "definitions": {"Error": {"type": "string"}}}),
        ));
        assert_eq!(
            document["components"]["responses"]["NotFound"],
            json!({"description": "missing", "content": {"application/xml": {"schema": {"$ref": "#/components/schemas/Error"}}}})
        );
        assert_eq!(
            document["paths"]["/a"]["post"]["responses"]["404"],
            json!({"$ref": "#/components/responses/NotFound"})
        );
    }

    #[test]
    fn security_definitions_become_security_schemes() {
        let (document, findings) = converted(swagger(
            json!({}),
            json!({"securityDefinitions": {
                "basic": {"type": "basic", "description": "b"},
                "key": {"type": "apiKey", "name": "X-Key", "in": "header"},
                "implicit": {"type": "oauth2", "flow": "implicit", "authorizationUrl": "https://a", "scopes": {"r": "read"}},
                "password": {"type": "oauth2", "flow": "password", "tokenUrl": "https://t", "scopes": {}},
                "application": {"type": "oauth2", "flow": "application", "tokenUrl": "https://t", "scopes": {}},
                "accessCode": {"type": "oauth2", "flow": "accessCode", "authorizationUrl": "https://a", "tokenUrl": "https://t", "scopes": {}, "x-extra": 1},
                "noScopes": {"type": "oauth2", "flow": "implicit", "authorizationUrl": "https://a"},
            }}),
        ));
        let schemes = &document["components"]["securitySchemes"];
        assert_eq!(
            schemes["basic"],
            json!({"type": "http", "scheme": "basic", "description": "b"})
        );
        assert_eq!(
            schemes["key"],
            json!({"type": "apiKey", "name": "X-Key", "in": "header"})
        );
        assert_eq!(
            schemes["implicit"],
            json!({"type": "oauth2", "flows": {"implicit": {"authorizationUrl": "https://a", "scopes": {"r": "read"}}}})
        );
        assert_eq!(
            schemes["password"]["flows"],
            json!({"password": {"tokenUrl": "https://t", "scopes": {}}})
        );
        assert_eq!(
            schemes["application"]["flows"],
            json!({"clientCredentials": {"tokenUrl": "https://t", "scopes": {}}})
        );
        assert_eq!(
            schemes["accessCode"],
            json!({"type": "oauth2", "flows": {"authorizationCode": {"authorizationUrl": "https://a", "tokenUrl": "https://t", "scopes": {}}}, "x-extra": 1})
        );
        assert_eq!(
            schemes["noScopes"]["flows"]["implicit"]["scopes"],
            json!({})
        );
        assert!(has(
            &findings,
            FindingKind::Defect,
            "/securityDefinitions/noScopes"
        ));
        assert!(document.get("securityDefinitions").is_none());
    }

    #[test]
    fn a_body_parameter_becomes_the_request_body_for_each_consumed_type() {
        let body = json!({"in": "body", "name": "pet", "description": "the pet", "required": true,
                          "schema": {"type": "object"}, "x-note": 1});
        let (document, _) = converted(operation(
            json!({"parameters": [body], "responses": {"200": {"description": "ok"}}}),
            json!({"consumes": ["application/json", "application/xml"]}),
        ));
        let post = &document["paths"]["/a"]["post"];
        assert_eq!(
            post["requestBody"],
            json!({"description": "the pet", "content": {
                "application/json": {"schema": {"type": "object"}},
                "application/xml": {"schema": {"type": "object"}},
            }, "required": true, "x-note": 1})
        );
        assert!(post.get("parameters").is_none());
        assert_eq!(keys(post), ["requestBody", "responses"]);

        // The operation's own `consumes` wins, and JSON is the default.
        let (document, _) = converted(operation(
            json!({"consumes": ["text/plain"], "parameters": [body], "responses": {}}),
            json!({"consumes": ["application/xml"]}),
        ));
        assert_eq!(
            keys(&document["paths"]["/a"]["post"]["requestBody"]["content"]),
            ["text/plain"]
        );
        let (document, _) = converted(operation(
            json!({"parameters": [body], "responses": {}}),
            json!({}),
        ));
        assert_eq!(
            keys(&document["paths"]["/a"]["post"]["requestBody"]["content"]),
            ["application/json"]
        );
    }

    #[test]
    fn two_bodies_keep_the_first() {
        let (document, findings) = converted(operation(
            json!({"parameters": [
                {"in": "body", "name": "a", "schema": {"type": "string"}},
                {"in": "body", "name": "b", "schema": {"type": "integer"}},
            ]}),
            json!({}),
        ));
        assert_eq!(
            document["paths"]["/a"]["post"]["requestBody"]["content"]["application/json"]["schema"],
            json!({"type": "string"})
        );
        assert!(has(
            &findings,
            FindingKind::Defect,
            "/paths/~1a/post/parameters/1"
        ));
    }

    #[test]
    fn form_parameters_become_one_url_encoded_body() {
        let (document, findings) = converted(operation(
            json!({"consumes": ["application/x-www-form-urlencoded"], "parameters": [
                {"in": "formData", "name": "name", "type": "string", "required": true, "description": "who"},
                {"in": "formData", "name": "tags", "type": "array", "items": {"type": "string"}},
                {"in": "formData", "name": "ids", "type": "array", "items": {"type": "integer"}, "collectionFormat": "multi"},
                {"in": "query", "name": "q", "type": "string"},
            ]}),
            json!({}),
        ));
        let post = &document["paths"]["/a"]["post"];
        assert_eq!(
            post["requestBody"],
            json!({"content": {"application/x-www-form-urlencoded": {
                "schema": {"type": "object", "properties": {
                    "name": {"description": "who", "type": "string"},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "ids": {"type": "array", "items": {"type": "integer"}},
                }, "required": ["name"]},
                "encoding": {
                    "tags": {"style": "form", "explode": false},
                    "ids": {"style": "form", "explode": true},
                },
            }}, "required": true})
        );
        assert_eq!(
            post["parameters"],
            json!([{"in": "query", "name": "q", "schema": {"type": "string"}}])
        );
        assert_eq!(findings.len(), 1, "{findings:?}");
    }

    #[test]
    fn a_file_field_makes_the_body_multipart() {
        let (document, findings) = converted(operation(
            json!({"consumes": ["multipart/form-data", "application/x-www-form-urlencoded"], "parameters": [
                {"in": "formData", "name": "upload", "type": "file", "required": true},
                {"in": "formData", "name": "note", "type": "string"},
            ]}),
            json!({}),
        ));
        assert_eq!(
            document["paths"]["/a"]["post"]["requestBody"],
            json!({"content": {"multipart/form-data": {"schema": {"type": "object", "properties": {
                "upload": {"type": "string", "format": "binary"},
                "note": {"type": "string"},
            }, "required": ["upload"]}}}, "required": true})
        );
        assert_eq!(findings.len(), 1, "{findings:?}");

        // Form fields the operation does not say how to send are a guess, and reported.
        let (document, findings) = converted(operation(
            json!({"parameters": [{"in": "formData", "name": "upload", "type": "file"}]}),
            json!({}),
        ));
        assert_eq!(
            keys(&document["paths"]["/a"]["post"]["requestBody"]["content"]),
            ["multipart/form-data"]
        );
        assert!(has(&findings, FindingKind::Defect, "/paths/~1a/post"));
        let (document, findings) = converted(operation(
            json!({"parameters": [{"in": "formData", "name": "a", "type": "string"}]}),
            json!({}),
        ));
        assert_eq!(
            keys(&document["paths"]["/a"]["post"]["requestBody"]["content"]),
            ["application/x-www-form-urlencoded"]
        );
        assert!(has(&findings, FindingKind::Defect, "/paths/~1a/post"));
    }

    #[test]
    fn value_fields_of_a_parameter_move_into_its_schema() {
        let (document, findings) = converted(swagger(
            json!({"/a/{id}": {"get": {"parameters": [{
                "name": "id", "in": "path", "required": true, "description": "d",
                "type": "integer", "format": "int64", "minimum": 1, "maximum": 9,
                "exclusiveMinimum": true, "exclusiveMaximum": false, "multipleOf": 2,
                "default": 2, "enum": [2, 4], "x-nullable": true, "x-extra": "kept",
            }, {
                "name": "s", "in": "query", "type": "string", "minLength": 1, "maxLength": 5,
                "pattern": "^a", "allowEmptyValue": true,
            }], "responses": {}}}}),
            json!({}),
        ));
        let parameters = &document["paths"]["/a/{id}"]["get"]["parameters"];
        assert_eq!(
            parameters[0],
            json!({"name": "id", "in": "path", "required": true, "description": "d",
                   "schema": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 9,
                              "exclusiveMinimum": true, "exclusiveMaximum": false, "multipleOf": 2,
                              "default": 2, "enum": [2, 4], "nullable": true},
                   "x-extra": "kept"})
        );
        assert_eq!(
            keys(&parameters[0]),
            ["name", "in", "required", "description", "schema", "x-extra"]
        );
        assert_eq!(
            parameters[1],
            json!({"name": "s", "in": "query", "schema": {"type": "string", "minLength": 1,
                   "maxLength": 5, "pattern": "^a"}, "allowEmptyValue": true})
        );
        assert_eq!(findings.len(), 1, "{findings:?}");
    }

    #[test]
    fn path_parameters_are_required() {
        let (document, findings) = converted(swagger(
            json!({"/a/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "type": "string"}]}}}),
            json!({}),
        ));
        assert_eq!(
            document["paths"]["/a/{id}"]["get"]["parameters"][0]["required"],
            true
        );
        assert!(has(
            &findings,
            FindingKind::Defect,
            "/paths/~1a~1{id}/get/parameters/0"
        ));
    }

    #[test]
    fn collection_formats_become_styles() {
        let array = |location: &str, format: Option<&str>| {
            let mut parameter = json!({"name": "p", "in": location, "required": true,
                                       "type": "array", "items": {"type": "string"}});
            if let (Some(format), Some(object)) = (format, parameter.as_object_mut()) {
                object.insert("collectionFormat".into(), json!(format));
            }
            let (document, findings) = converted(swagger(
                json!({"/a/{p}": {"get": {"parameters": [parameter]}}}),
                json!({}),
            ));
            let parameter = document["paths"]["/a/{p}"]["get"]["parameters"][0].clone();
            let style = (
                parameter.get("style").cloned(),
                parameter.get("explode").cloned(),
            );
            let reported = findings
                .iter()
                .skip(1)
                .map(|finding| finding.kind.clone())
                .collect::<Vec<_>>();
            (style, reported)
        };
        let style =
            |style: &str, explode: Option<bool>| (Some(json!(style)), explode.map(|e| json!(e)));
        assert_eq!(array("query", None), (style("form", Some(false)), vec![]));
        assert_eq!(
            array("query", Some("csv")),
            (style("form", Some(false)), vec![])
        );
        assert_eq!(
            array("query", Some("multi")),
            (style("form", Some(true)), vec![])
        );
        assert_eq!(
            array("query", Some("ssv")),
            (style("spaceDelimited", None), vec![])
        );
        assert_eq!(
            array("query", Some("pipes")),
            (style("pipeDelimited", None), vec![])
        );
        assert_eq!(
            array("query", Some("tsv")),
            (style("form", Some(false)), vec![FindingKind::Defect])
        );
        assert_eq!(array("path", Some("csv")), (style("simple", None), vec![]));
        assert_eq!(array("header", None), (style("simple", None), vec![]));
        assert_eq!(
            array("header", Some("multi")),
            (style("simple", None), vec![FindingKind::Defect])
        );
        assert_eq!(
            array("path", Some("pipes")),
            (style("simple", None), vec![FindingKind::Unenforced])
        );
        // A scalar has no style, whatever its `collectionFormat`.
        let (document, _) = converted(swagger(
            json!({"/a": {"get": {"parameters": [{"name": "p", "in": "query", "type": "string", "collectionFormat": "csv"}]}}}),
            json!({}),
        ));
        assert_eq!(
            document["paths"]["/a"]["get"]["parameters"][0],
            json!({"name": "p", "in": "query", "schema": {"type": "string"}})
        );
    }

    #[test]
    fn nested_collection_formats_are_reported() {
        let (document, findings) = converted(swagger(
            json!({"/a": {"get": {"parameters": [{"name": "p", "in": "query", "type": "array",
                "items": {"type": "array", "collectionFormat": "pipes", "items": {"type": "string"}}}]}}}),
            json!({}),
        ));
        assert_eq!(
            document["paths"]["/a"]["get"]["parameters"][0]["schema"]["items"],
            json!({"type": "array", "items": {"type": "string"}})
        );
        assert!(has(
            &findings,
            FindingKind::Unenforced,
            "/paths/~1a/get/parameters/0/items/collectionFormat"
        ));
    }

    #[test]
    fn path_level_parameters_stay_on_the_path_and_bodies_go_to_each_operation() {
        let (document, _) = converted(swagger(
            json!({"/a/{id}": {
                "parameters": [
                    {"name": "id", "in": "path", "required": true, "type": "string"},
                    {"name": "body", "in": "body", "schema": {"type": "string"}},
                    {"name": "f", "in": "formData", "type": "string"},
                ],
                "put": {"responses": {}},
                "post": {"parameters": [{"name": "own", "in": "body", "schema": {"type": "integer"}}], "responses": {}},
            }}),
            json!({}),
        ));
        let item = &document["paths"]["/a/{id}"];
        assert_eq!(
            item["parameters"],
            json!([{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}])
        );
        assert_eq!(
            item["put"]["requestBody"],
            json!({"content": {"application/json": {"schema": {"type": "string"}}}})
        );
        assert_eq!(
            item["post"]["requestBody"],
            json!({"content": {"application/json": {"schema": {"type": "integer"}}}})
        );
        assert_eq!(keys(&item["put"]), ["requestBody", "responses"]);
    }

    #[test]
    fn path_level_form_fields_merge_with_the_operations() {
        let (document, _) = converted(swagger(
            json!({"/a": {
                "parameters": [{"name": "a", "in": "formData", "type": "string"},
                               {"name": "b", "in": "formData", "type": "string"}],
                "post": {"consumes": ["application/x-www-form-urlencoded"],
                         "parameters": [{"name": "b", "in": "formData", "type": "integer"}]},
            }}),
            json!({}),
        ));
        let schema = &document["paths"]["/a"]["post"]["requestBody"]["content"]["application/x-www-form-urlencoded"]
            ["schema"];
        assert_eq!(
            schema["properties"],
            json!({"a": {"type": "string"}, "b": {"type": "integer"}})
        );
    }

    #[test]
    fn responses_get_content_headers_and_examples() {
        let (document, findings) = converted(operation(
            json!({"produces": ["application/json", "text/csv"], "responses": {
                "200": {
                    "description": "ok",
                    "examples": {"application/json": {"a": 1}, "application/xml": "<a/>"},
                    "schema": {"type": "object"},
                    "headers": {
                        "X-Rate": {"type": "integer", "description": "left"},
                        "X-Tags": {"type": "array", "items": {"type": "string"}, "collectionFormat": "csv"},
                    },
                    "x-extra": true,
                },
                "204": {"description": "none"},
                "default": {"description": "error", "examples": {"application/json": {}}},
                "x-ext": 1,
            }}),
            json!({}),
        ));
        let responses = &document["paths"]["/a"]["post"]["responses"];
        assert_eq!(
            responses["200"],
            json!({
                "description": "ok",
                "content": {
                    "application/json": {"schema": {"type": "object"}, "example": {"a": 1}},
                    "text/csv": {"schema": {"type": "object"}},
                },
                "headers": {
                    "X-Rate": {"schema": {"type": "integer"}, "description": "left"},
                    "X-Tags": {"schema": {"type": "array", "items": {"type": "string"}}, "style": "simple"},
                },
                "x-extra": true,
            })
        );
        assert_eq!(
            keys(&responses["200"]),
            ["description", "content", "headers", "x-extra"]
        );
        assert_eq!(responses["204"], json!({"description": "none"}));
        assert_eq!(responses["default"], json!({"description": "error"}));
        assert_eq!(responses["x-ext"], 1);
        assert!(has(
            &findings,
            FindingKind::Defect,
            "/paths/~1a/post/responses/200/examples/application~1xml"
        ));
        assert!(has(
            &findings,
            FindingKind::Defect,
            "/paths/~1a/post/responses/default/examples/application~1json"
        ));
    }

    #[test]
    fn a_response_without_description_gets_an_empty_one() {
        let (document, findings) = converted(operation(
            json!({"responses": {"200": {"schema": {"type": "string"}}}}),
            json!({}),
        ));
        assert_eq!(
            document["paths"]["/a"]["post"]["responses"]["200"]["description"],
            ""
        );
        assert!(has(
            &findings,
            FindingKind::Defect,
            "/paths/~1a/post/responses/200"
        ));
    }

    #[test]
    fn schemas_are_converted_at_every_depth() {
        let (document, findings) = converted(operation(
            json!({"responses": {"200": {"description": "ok", "schema": {"type": "file"}}}}),
            json!({"definitions": {
                "Pet": {
                    "type": "object",
                    "discriminator": "kind",
                    "required": ["kind"],
                    "x-nullable": true,
                    "properties": {
                        "kind": {"type": "string"},
                        "photo": {"type": "file", "format": "jpeg"},
                        "tags": {"type": "array", "items": {"type": "string", "x-nullable": true}},
                        "extra": {"type": "object", "additionalProperties": {"type": "integer", "x-nullable": false}},
                        "x-nullable": {"type": "string"},
                    },
                },
                "Cat": {"allOf": [{"$ref": "#/definitions/Pet"}, {"x-nullable": true}]},
            }}),
        ));
        let pet = &document["components"]["schemas"]["Pet"];
        assert_eq!(
            pet,
            &json!({
                "type": "object",
                "discriminator": {"propertyName": "kind"},
                "required": ["kind"],
                "nullable": true,
                "properties": {
                    "kind": {"type": "string"},
                    "photo": {"type": "string", "format": "binary"},
                    "tags": {"type": "array", "items": {"type": "string", "nullable": true}},
                    "extra": {"type": "object", "additionalProperties": {"type": "integer"}},
                    "x-nullable": {"type": "string"},
                },
            })
        );
        assert_eq!(
            keys(pet),
            [
                "type",
                "discriminator",
                "required",
                "nullable",
                "properties"
            ]
        );
        assert_eq!(
            document["components"]["schemas"]["Cat"]["allOf"][1],
            json!({"nullable": true})
        );
        assert_eq!(
            document["paths"]["/a"]["post"]["responses"]["200"]["content"]["application/json"]["schema"],
            json!({"type": "string", "format": "binary"})
        );
        assert_eq!(findings.len(), 1, "{findings:?}");
    }

    #[test]
    fn malformed_parts_are_dropped_and_reported_never_panicking() {
        let (document, findings) = converted(swagger(
            json!({
                "/a": {"get": {"parameters": "nope", "responses": {"200": 3}}},
                "/b": {"get": {"parameters": [3, {"in": "cookie", "name": "c", "type": "string"}, {"name": "x"}],
                               "responses": []}},
                "/c": 7,
                "/d": {"post": "x", "put": {"consumes": "text/plain",
                       "parameters": [{"in": "body", "name": "b"}, {"in": "formData", "type": "string"}]}},
            }),
            json!({"definitions": "nope", "parameters": {"P": 1}, "responses": [],
                   "securityDefinitions": {"s": {"type": "oauth2", "flow": "magic"}, "t": {"type": "jwt"}, "u": 1},
                   "host": 5, "basePath": ["x"], "consumes": {}, "produces": [1]}),
        ));
        assert_eq!(document["openapi"], "3.0.3");
        assert!(document["paths"].get("/c").is_none());
        assert!(document["paths"]["/a"]["get"].get("parameters").is_none());
        for pointer in [
            "/definitions",
            "/parameters/P",
            "/responses",
            "/securityDefinitions/s/flow",
            "/securityDefinitions/t/type",
            "/securityDefinitions/u",
            "/host",
            "/basePath",
            "/consumes",
            "/produces",
            "/paths/~1a/get/parameters",
            "/paths/~1a/get/responses/200",
            "/paths/~1b/get/parameters/0",
            "/paths/~1b/get/parameters/1",
            "/paths/~1b/get/parameters/2",
            "/paths/~1b/get/responses",
            "/paths/~1c",
            "/paths/~1d/post",
            "/paths/~1d/put/consumes",
            "/paths/~1d/put/parameters/0",
            "/paths/~1d/put/parameters/1",
        ] {
            assert!(
                has(&findings, FindingKind::Defect, pointer),
                "{pointer}: {findings:#?}"
            );
        }
        assert_eq!(
            document["components"]["securitySchemes"]["s"],
            json!({"type": "oauth2", "flows": {}})
        );
    }

    #[test]
    fn the_order_of_the_source_is_kept() {
        let (document, _) = converted(swagger(
            json!({"/z": {"get": {"responses": {}}}, "/a": {"delete": {"responses": {}}, "get": {"responses": {}}}}),
            json!({"definitions": {"Z": {"properties": {"z": {}, "a": {}}}, "A": {}}}),
        ));
        assert_eq!(keys(&document["paths"]), ["/z", "/a"]);
        assert_eq!(keys(&document["paths"]["/a"]), ["delete", "get"]);
        assert_eq!(keys(&document["components"]["schemas"]), ["Z", "A"]);
        assert_eq!(
            keys(&document["components"]["schemas"]["Z"]["properties"]),
            ["z", "a"]
        );
    }

    /// The one real Swagger 2.0 description of the corpus, converted, reads as OpenAPI 3.0 with
    /// every operation.
    #[test]
    fn weaviate_converts_to_openapi_3() {
        let path = "/work/shared/corpus/Weaviate.json";
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("{path} not found; skipped");
            return;
        };
        let mut document: Value = serde_json::from_str(&text).expect("Weaviate.json is JSON");
        assert!(is_swagger2(&document));
        let findings = convert(&mut document);
        let openapi: openapiv3::OpenAPI =
            serde_json::from_value(document.clone()).expect("an OpenAPI 3.0 document");
        assert_eq!(openapi.operations().count(), 68);
        assert_eq!(openapi.openapi, "3.0.3");
        let text = document.to_string();
        assert!(!text.contains("#/definitions/"));
        assert!(!text.contains("#/parameters/"));
        assert!(!text.contains("x-nullable"));
        for finding in &findings {
            eprintln!("{finding}");
        }
    }
}
