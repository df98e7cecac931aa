//! A synthetic OpenAPI 3.1 description shaped like the whole hub's (issue 14): deterministic
//! (the same options give the same document, byte for byte, on any machine), hub-like paths
//! over the hub's 23 areas, no `operationId`, everything inline, and every construct of the
//! issue's table mixed in at roughly its measured share. Tests feed it to the generators and
//! the differential oracle; `cargo xtask bench` measures generated size, `cargo check` time and
//! regen time on it; `cargo xtask synth --out FILE` writes it.
//!
//! [`count`] measures a document (any OpenAPI document, not only this one) by walking it, so
//! the promises about the synthetic one are checked by a test rather than trusted.

mod count;
mod paths;
mod schema;

pub use count::{AnyOfKinds, Counts, count, schemas_with_defaults};
pub use paths::AREA_COUNT;

use serde_json::{Map, Value, json};

use schema::{Built, Schemas};

/// What to generate.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Seeds every random choice.
    pub seed: u64,
    /// How many operations; schema nodes grow in proportion.
    pub operations: usize,
}

impl Default for Options {
    /// The synthetic spec of the tests and benchmarks: 320 operations, about 13,000 schema
    /// nodes (the real description has 314 and 13,478).
    fn default() -> Self {
        Options {
            seed: 0x5e_ed14,
            operations: 320,
        }
    }
}

/// The `$schema` the hub's zod-emitted schemas carry.
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// Every how many operations a rare construct is planted once (the real description's count
/// over its 314 operations): closed objects requiring an undeclared property (10), look-ahead
/// patterns (9), query parameters with an `anyOf` schema and defaults breaking their schema (a
/// few each), operations answering 200 and 207 with different bodies (2).
const UNSATISFIABLE_EVERY: usize = 31;
const LOOKAHEAD_EVERY: usize = 35;
const QUERY_ANY_OF_EVERY: usize = 64;
const BROKEN_DEFAULT_EVERY: usize = 80;
const MULTI_STATUS_EVERY: usize = 157;

/// A small deterministic generator (xorshift64*), so the document never depends on a crate's
/// version or the platform.
pub(crate) struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed.max(1))
    }

    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub(crate) fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }

    /// True `numerator` times in `denominator`.
    pub(crate) fn chance(&mut self, numerator: usize, denominator: usize) -> bool {
        self.below(denominator) < numerator
    }
}

/// The synthetic description as a JSON value.
pub fn spec(options: &Options) -> Value {
    Generator {
        rng: Rng::new(options.seed),
        pending: Pending::default(),
    }
    .document(options.operations)
}

/// The synthetic description as JSON text (YAML readers read it too).
pub fn spec_text(options: &Options) -> String {
    let mut text = serde_json::to_string_pretty(&spec(options)).expect("a JSON value serializes");
    text.push('\n');
    text
}

/// Rare constructs owed to the document, planted at the next operation that can take them.
#[derive(Default)]
struct Pending {
    unsatisfiable: bool,
    lookahead: bool,
    query_any_of: bool,
    broken_default: bool,
    multi_status: bool,
}

struct Generator {
    rng: Rng,
    pending: Pending,
}

/// The methods of a path: `GET` always, the others by chance.
const METHODS: &[(&str, usize)] = &[("post", 30), ("delete", 10), ("put", 6), ("patch", 4)];

impl Generator {
    fn document(mut self, operations: usize) -> Value {
        let shapes = paths::shapes();
        let mut paths = Map::new();
        let mut made = 0;
        let mut round = 0;
        while made < operations {
            for (area, shape) in &shapes {
                if made >= operations {
                    break;
                }
                // Later rounds (specs larger than the hub) repeat the shapes under a version.
                let path = match round {
                    0 => shape.clone(),
                    _ => shape.replacen("/api/", &format!("/api/v{}/", round + 1), 1),
                };
                let mut item = Map::new();
                for method in self.methods() {
                    if made >= operations {
                        break;
                    }
                    let operation = self.operation(made, area, &path, method);
                    item.insert(method.to_owned(), operation);
                    made += 1;
                }
                paths.insert(path, Value::Object(item));
            }
            round += 1;
        }
        json!({
            "openapi": "3.1.0",
            "info": {
                "title": "Synthetic hub",
                "version": "1.0.0",
                "description": "Generated by hub-api-synth: shaped like the whole hub's description, not a real API.",
            },
            "servers": [{"url": "https://hub.example"}],
            "paths": paths,
            "components": {"schemas": components()},
        })
    }

    fn methods(&mut self) -> Vec<&'static str> {
        let mut methods = vec!["get"];
        for (method, percent) in METHODS {
            if self.rng.chance(*percent, 100) {
                methods.push(method);
            }
        }
        methods
    }

    fn operation(&mut self, index: usize, area: &str, path: &str, method: &str) -> Value {
        for (every, flag) in [
            (UNSATISFIABLE_EVERY, &mut self.pending.unsatisfiable),
            (LOOKAHEAD_EVERY, &mut self.pending.lookahead),
            (QUERY_ANY_OF_EVERY, &mut self.pending.query_any_of),
            (BROKEN_DEFAULT_EVERY, &mut self.pending.broken_default),
            (MULTI_STATUS_EVERY, &mut self.pending.multi_status),
        ] {
            if index % every == every / 2 {
                *flag = true;
            }
        }
        let mut operation = json!({
            "summary": format!("{} {}", method.to_uppercase(), path),
            "tags": [area],
        });
        let parameters = self.parameters(path, method);
        if !parameters.is_empty() {
            operation["parameters"] = Value::Array(parameters);
        }
        if method != "get" && method != "delete" {
            let properties = 3 + self.rng.below(7);
            let body = self.body(properties, 1);
            operation["requestBody"] = json!({
                "required": true,
                "content": {"application/json": {"schema": body}},
            });
        }
        // 68 of the real description's 314 operations have no `responses`.
        if self.rng.chance(68, 314) {
            return operation;
        }
        let mut responses = Map::new();
        let properties = 10 + self.rng.below(12);
        responses.insert("200".into(), response(self.body(properties, 2)));
        if self.pending.multi_status && method == "post" {
            self.pending.multi_status = false;
            let mut partial = Schemas { rng: &mut self.rng }.object(3, 1);
            partial.schema["properties"]["failed"] =
                json!({"type": "array", "items": {"type": "string"}});
            partial.sample["failed"] = json!(["acme/broken"]);
            responses.insert("207".into(), response(with_dialect(partial)));
        }
        if self.rng.chance(1, 2) {
            responses.insert(
                "4XX".into(),
                json!({
                    "description": "The hub refused the request.",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                }),
            );
        }
        operation["responses"] = Value::Object(responses);
        operation
    }

    /// A body schema (`$schema`, an object, and its one example) with any owed rare construct.
    fn body(&mut self, properties: usize, depth: u32) -> Value {
        let mut schemas = Schemas { rng: &mut self.rng };
        let mut object = schemas.object(properties, depth);
        if std::mem::take(&mut self.pending.unsatisfiable) {
            // Optional, so the example (what the authors meant) stays valid.
            let broken = schemas.unsatisfiable_object();
            object.schema["properties"]["constraints"] = broken.schema;
        }
        if std::mem::take(&mut self.pending.lookahead) {
            let handle = schemas.lookahead_string();
            object.schema["properties"]["handle"] = handle.schema;
            object.sample["handle"] = handle.sample;
        }
        with_dialect(object)
    }

    fn parameters(&mut self, path: &str, method: &str) -> Vec<Value> {
        let mut out: Vec<Value> = paths::parameters(path)
            .into_iter()
            .map(|name| {
                json!({"name": name, "in": "path", "required": true, "schema": {"type": "string"}})
            })
            .collect();
        if method != "get" {
            return out;
        }
        let mut taken = Vec::new();
        for _ in 0..self.rng.below(5) {
            let (name, schema) = self.query_parameter();
            if !taken.contains(&name) {
                taken.push(name);
                out.push(json!({"name": name, "in": "query", "schema": schema}));
            }
        }
        if std::mem::take(&mut self.pending.query_any_of) {
            out.push(json!({
                "name": "expand",
                "in": "query",
                "schema": {"anyOf": [
                    {"type": "string", "enum": ["author", "cardData", "siblings"]},
                    {"type": "array", "items": {"type": "string", "enum": ["author", "cardData", "siblings"]}},
                ]},
            }));
        }
        if std::mem::take(&mut self.pending.broken_default) {
            // A default that breaks its own schema (`minimum: 1`, default 0).
            out.push(json!({
                "name": "page",
                "in": "query",
                "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 0},
            }));
        }
        out
    }

    /// A query parameter: most beyond a bare type (path parameters are all bare), so that about
    /// a fifth of all parameter schemas are, as in the real description.
    fn query_parameter(&mut self) -> (&'static str, Value) {
        match self.rng.below(10) {
            0 => ("search", json!({"type": "string"})),
            1 => ("author", json!({"type": "string"})),
            2 => ("full", json!({"type": "boolean"})),
            3 => ("cursor", json!({"type": "string"})),
            4 => ("filter", json!({"type": "string", "minLength": 1})),
            5 => (
                "limit",
                json!({"type": "integer", "minimum": 1, "maximum": 1000, "default": 20}),
            ),
            6 => (
                "sort",
                json!({"enum": ["lastModified", "likes", "downloads", "trendingScore"]}),
            ),
            7 => (
                "direction",
                json!({"type": "string", "enum": ["asc", "desc"], "default": "desc"}),
            ),
            8 => ("offset", json!({"type": "integer"})),
            _ => ("since", json!({"type": "string", "format": "date-time"})),
        }
    }
}

fn with_dialect(object: Built) -> Value {
    let mut schema = Map::new();
    schema.insert("$schema".into(), json!(DIALECT));
    schema.extend(object.schema.as_object().cloned().unwrap_or_default());
    schema.insert("examples".into(), json!([object.sample]));
    Value::Object(schema)
}

fn response(schema: Value) -> Value {
    json!({"description": "OK", "content": {"application/json": {"schema": schema}}})
}

/// The real description's two component schemas.
fn components() -> Value {
    json!({
        "Error": {
            "type": "object",
            "properties": {"error": {"type": "string"}},
            "required": ["error"],
            "examples": [{"error": "Repository not found"}],
        },
        "RepoId": {
            "type": "string",
            "pattern": "^[\\w.-]+/[\\w.-]+$",
            "examples": ["acme/bert"],
        },
    })
}
