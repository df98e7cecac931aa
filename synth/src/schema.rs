//! Inline schemas in the shape of the whole hub's description (zod-emitted JSON Schema 2020-12):
//! each built together with one instance it accepts, which becomes the schema's `examples` so
//! the differential oracle has seeds to mutate.
//!
//! Every construct of issue 14's table is drawn at roughly its measured share of the 13,478
//! schema nodes; the rare ones that must appear a set number of times (unsatisfiable closed
//! objects, defaults that break their schema, look-ahead patterns) are planted by the caller.

use serde_json::{Map, Value, json};

use crate::Rng;

/// Patterns the hub uses, each with a string it matches. Rust's `regex` reads all of them.
const PATTERNS: &[(&str, &str)] = &[
    ("^[0-9a-f]{24}$", "6729a1f0c3d4e5f6a7b8c901"),
    ("^[0-9a-f]{40}$", "0123456789abcdef0123456789abcdef01234567"),
    ("^[\\w.-]+/[\\w.-]+$", "acme/bert-base"),
    ("^[a-z0-9][a-z0-9-]{0,95}$", "bert-base"),
    ("^#[0-9a-fA-F]{6}$", "#1f2e3d"),
    ("^[A-Z]{3}$", "EUR"),
    ("^\\d+(\\.\\d+){0,2}$", "1.4.2"),
    ("^(?:[a-z]+:)?[\\w/.-]+$", "hf:models/bert"),
];

/// Patterns with look-ahead (ECMA-262 syntax that Rust's `regex` lacks), with a matching string.
pub(crate) const LOOKAHEAD_PATTERNS: &[(&str, &str)] = &[
    ("^(?!.*--)[a-z][a-z0-9-]*$", "my-repo"),
    ("^(?=.{1,96}$)[\\w.-]+$", "model.v1"),
    ("^(?![.-])[\\w.-]+(?<![.-])$", "weights.bin"),
];

/// zod's `datetime()` pattern, which the hub writes beside `format: date-time`.
const DATE_TIME_PATTERN: &str =
    "^(?:\\d{4}-\\d{2}-\\d{2})T(?:\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?)(?:Z|[+-]\\d{2}:\\d{2})$";

/// Property names: the hub's vocabulary.
const WORDS: &[&str] = &[
    "id",
    "name",
    "author",
    "sha",
    "lastModified",
    "createdAt",
    "private",
    "gated",
    "disabled",
    "downloads",
    "likes",
    "tags",
    "pipelineTag",
    "libraryName",
    "siblings",
    "cardData",
    "config",
    "spaces",
    "models",
    "datasets",
    "status",
    "stage",
    "hardware",
    "storage",
    "gcTimeout",
    "title",
    "summary",
    "url",
    "avatarUrl",
    "fullname",
    "isPro",
    "isOrg",
    "type",
    "kind",
    "num",
    "events",
    "comments",
    "reactions",
    "isPinned",
    "isReport",
    "repo",
    "repoType",
    "secrets",
    "variables",
    "domains",
    "region",
    "vendor",
    "accelerator",
    "instanceType",
    "instanceSize",
    "minReplica",
    "maxReplica",
    "scaleToZeroTimeout",
    "framework",
    "task",
    "revision",
    "image",
    "env",
    "command",
    "arguments",
    "flavor",
    "timeout",
    "schedule",
    "suspend",
    "lastJob",
    "nextRun",
    "owner",
    "role",
    "email",
    "username",
    "user",
    "organization",
    "members",
    "resourceGroup",
    "upvotes",
    "paper",
    "publishedAt",
    "authors",
    "slug",
    "position",
    "note",
    "theme",
    "description",
    "items",
    "gallery",
    "usage",
    "total",
    "price",
    "currency",
    "period",
    "quota",
    "used",
    "path",
    "size",
    "oid",
    "lfs",
    "xetHash",
    "securityStatus",
    "license",
    "language",
    "widgetData",
    "inference",
    "trendingScore",
];

/// The tag values of the hub's const-told unions (21 distinct sets in the real description).
const TAG_SETS: &[&[&str]] = &[
    &["model", "dataset", "space"],
    &["user", "org"],
    &[
        "comment",
        "status-change",
        "title-change",
        "commit",
        "pinning-change",
    ],
    &["paper", "collection", "model", "dataset", "space"],
    &["discussion", "paper", "post"],
    &["cpu", "gpu", "tpu"],
    &["scheduled", "running", "completed", "error"],
    &["public", "protected", "private"],
    &["add", "remove", "update"],
    &["text", "image", "video"],
    &["webhook", "job"],
    &["file", "directory"],
    &["lfs", "xet", "regular"],
    &["stripe", "invoice"],
    &["like", "follow", "mention"],
    &["created", "updated", "deleted"],
    &["read", "write", "fineGrained"],
    &["aws", "azure", "gcp"],
    &["daily", "weekly", "monthly"],
    &["markdown", "html"],
    &["accepted", "rejected", "pending"],
];

/// Enum value sets (written without `type`, as zod does for `z.enum`).
const ENUMS: &[&[&str]] = &[
    &["asc", "desc"],
    &["public", "private"],
    &[
        "RUNNING",
        "SLEEPING",
        "PAUSED",
        "BUILD_ERROR",
        "RUNTIME_ERROR",
        "STOPPED",
    ],
    &["admin", "write", "contributor", "read"],
    &[
        "cpu-basic",
        "cpu-upgrade",
        "t4-small",
        "a10g-small",
        "a100-large",
    ],
    &[
        "lastModified",
        "likes",
        "downloads",
        "trendingScore",
        "createdAt",
    ],
    &["open", "closed", "merged", "draft"],
];

/// One schema and an instance it accepts.
pub(crate) struct Built {
    pub schema: Value,
    pub sample: Value,
}

fn built(schema: Value, sample: Value) -> Built {
    Built { schema, sample }
}

/// Makes one kind of property schema at a nesting depth.
type Maker<'s> = fn(&mut Schemas<'s>, u32) -> Built;

/// Draws schemas; `depth` bounds nesting.
pub(crate) struct Schemas<'a> {
    pub rng: &'a mut Rng,
}

impl Schemas<'_> {
    /// An object with `properties` properties, about two thirds required, half of them closed
    /// (`additionalProperties: false`, as zod's `strict()`).
    pub fn object(&mut self, properties: usize, depth: u32) -> Built {
        let mut names = Vec::new();
        while names.len() < properties {
            let name = self.name();
            if !names.contains(&name) {
                names.push(name);
            }
        }
        let mut schema_properties = Map::new();
        let mut sample = Map::new();
        let mut required = Vec::new();
        for name in names {
            let property = self.property(depth);
            if self.rng.chance(2, 3) {
                required.push(json!(name));
                sample.insert(name.clone(), property.sample);
            } else if self.rng.chance(1, 2) {
                sample.insert(name.clone(), property.sample);
            }
            schema_properties.insert(name, property.schema);
        }
        let mut schema = json!({"type": "object", "properties": schema_properties});
        if !required.is_empty() {
            schema["required"] = Value::Array(required);
        }
        if self.rng.chance(1, 2) {
            schema["additionalProperties"] = json!(false);
        }
        built(schema, Value::Object(sample))
    }

    /// A closed object that requires a property it does not declare: no instance satisfies it
    /// (a defect of the description, planted on purpose). Its sample is what the authors meant.
    pub fn unsatisfiable_object(&mut self) -> Built {
        let mut inner = self.object(2, 0);
        inner.schema["additionalProperties"] = json!(false);
        let mut required = inner.schema["required"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        required.push(json!("undeclaredId"));
        inner.schema["required"] = Value::Array(required);
        inner
    }

    fn name(&mut self) -> String {
        WORDS[self.rng.below(WORDS.len())].to_owned()
    }

    /// One property's schema, drawn by the construct shares of the real description.
    fn property(&mut self, depth: u32) -> Built {
        // Weights per 1,000 property schemas; nesting only while depth remains.
        let nested = if depth > 0 { 1 } else { 0 };
        let table: &[(u32, Maker<'_>)] = &[
            (210, Self::plain_string),
            (45, Self::patterned_string),
            (22, Self::date_time),
            (65, Self::bare_enum),
            (20, Self::typed_enum),
            (20, Self::bare_const),
            (9, Self::integer),
            (6, Self::number),
            (80, Self::boolean),
            (6, Self::formatted_string),
            (45, Self::string_array),
            (25 * nested, Self::object_array),
            (75 * nested, Self::nested_object),
            (6, Self::string_map),
            (1, Self::tuple),
            (11, Self::nullable),
            (1, Self::nullable_enum),
            (10 * nested, Self::tagged_union),
            (3 * nested, Self::untagged_union),
            (2, Self::literal_set),
            (1, Self::open_enum),
            (7, Self::other_mix),
        ];
        let total: u32 = table.iter().map(|(weight, _)| weight).sum();
        let mut pick = self.rng.below(total as usize) as u32;
        for (weight, make) in table {
            if pick < *weight {
                return make(self, depth);
            }
            pick -= weight;
        }
        unreachable!("the pick is below the total weight")
    }

    fn plain_string(&mut self, _: u32) -> Built {
        if self.rng.chance(1, 4) {
            built(
                json!({"type": "string", "minLength": 1, "maxLength": 200}),
                json!("bert"),
            )
        } else {
            built(json!({"type": "string"}), json!("value"))
        }
    }

    fn patterned_string(&mut self, _: u32) -> Built {
        let (pattern, sample) = PATTERNS[self.rng.below(PATTERNS.len())];
        built(json!({"type": "string", "pattern": pattern}), json!(sample))
    }

    /// A look-ahead pattern; planted by the caller (9 in the real description).
    pub fn lookahead_string(&mut self) -> Built {
        let (pattern, sample) = LOOKAHEAD_PATTERNS[self.rng.below(LOOKAHEAD_PATTERNS.len())];
        built(json!({"type": "string", "pattern": pattern}), json!(sample))
    }

    fn date_time(&mut self, _: u32) -> Built {
        let sample = json!("2026-11-02T09:15:00.000Z");
        if self.rng.chance(9, 10) {
            built(
                json!({"type": "string", "format": "date-time", "pattern": DATE_TIME_PATTERN}),
                sample,
            )
        } else {
            built(json!({"type": "string", "format": "date-time"}), sample)
        }
    }

    fn bare_enum(&mut self, _: u32) -> Built {
        let values = ENUMS[self.rng.below(ENUMS.len())];
        built(json!({"enum": values}), json!(values[0]))
    }

    fn typed_enum(&mut self, _: u32) -> Built {
        let values = ENUMS[self.rng.below(ENUMS.len())];
        built(
            json!({"type": "string", "enum": values}),
            json!(values[values.len() - 1]),
        )
    }

    fn bare_const(&mut self, _: u32) -> Built {
        let value = match self.rng.below(3) {
            0 => json!(true),
            1 => json!("v1"),
            _ => json!(2),
        };
        built(json!({"const": value}), value)
    }

    fn integer(&mut self, _: u32) -> Built {
        match self.rng.below(4) {
            0 => built(json!({"type": "integer"}), json!(7)),
            1 => built(json!({"type": "integer", "minimum": 0}), json!(42)),
            2 => built(json!({"type": "integer", "exclusiveMinimum": 0}), json!(1)),
            _ => built(json!({"type": "integer"}), json!(20)),
        }
    }

    fn number(&mut self, _: u32) -> Built {
        if self.rng.chance(1, 2) {
            built(
                json!({"type": "number", "minimum": 0, "maximum": 1}),
                json!(0.5),
            )
        } else {
            built(json!({"type": "number"}), json!(3.25))
        }
    }

    fn boolean(&mut self, _: u32) -> Built {
        built(json!({"type": "boolean"}), json!(false))
    }

    fn formatted_string(&mut self, _: u32) -> Built {
        let (format, sample) = match self.rng.below(40) {
            0..=23 => ("uri", "https://example.com/acme/bert"),
            24..=30 => ("email", "user@example.com"),
            31..=34 => ("date", "2026-11-02"),
            35..=37 => ("cidrv4", "10.0.0.0/8"),
            _ => ("cidrv6", "2001:db8::/32"),
        };
        built(json!({"type": "string", "format": format}), json!(sample))
    }

    /// An array of strings; about a quarter bounded below and above (74 `minItems`, 85
    /// `maxItems` over the real description's arrays).
    /// An array of strings, one in eight sized, half of those of an inline enum's values.
    fn string_array(&mut self, _: u32) -> Built {
        let mut schema = json!({"type": "array", "items": {"type": "string"}});
        let draw = self.rng.below(16);
        if draw < 2 {
            schema["minItems"] = json!(1);
            schema["maxItems"] = json!(50);
        }
        if draw == 0 {
            schema["items"]["enum"] = json!(["alpha", "beta"]);
        }
        built(schema, json!(["alpha"]))
    }

    fn object_array(&mut self, depth: u32) -> Built {
        let count = 2 + self.rng.below(4);
        let item = self.object(count, depth - 1);
        built(
            json!({"type": "array", "items": item.schema}),
            json!([item.sample]),
        )
    }

    fn nested_object(&mut self, depth: u32) -> Built {
        let count = 2 + self.rng.below(5);
        self.object(count, depth - 1)
    }

    /// A map with constrained keys (`propertyNames`), a third of them with a pattern or length.
    fn string_map(&mut self, _: u32) -> Built {
        let names = match self.rng.below(5) {
            0 => json!({"type": "string", "pattern": "^[a-z][a-zA-Z0-9_]*$"}),
            1 => json!({"type": "string", "maxLength": 64}),
            _ => json!({"type": "string"}),
        };
        built(
            json!({"type": "object", "propertyNames": names, "additionalProperties": {"type": "string"}}),
            json!({"alpha": "one"}),
        )
    }

    /// A `prefixItems` tuple (zod's `z.tuple`): fixed, closed by `items: false`, with an
    /// optional last position, or with more items of one type after it.
    fn tuple(&mut self, _: u32) -> Built {
        let (schema, sample) = match self.rng.below(4) {
            0 => (
                json!({"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}],
                    "minItems": 2, "maxItems": 2}),
                json!([1.5, 2]),
            ),
            1 => (
                json!({"type": "array", "prefixItems": [{"type": "string", "minLength": 1}, {"type": "integer", "minimum": 0}],
                    "items": false, "minItems": 2}),
                json!(["main", 3]),
            ),
            2 => (
                json!({"type": "array", "prefixItems": [{"type": "string", "enum": ["asc", "desc"]}, {"type": "number"}],
                    "minItems": 1, "maxItems": 2}),
                json!(["asc"]),
            ),
            _ => (
                json!({"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}],
                    "items": {"type": "number"}, "minItems": 2}),
                json!(["a", true, 1, 2.5]),
            ),
        };
        built(schema, sample)
    }

    fn nullable(&mut self, depth: u32) -> Built {
        let inner = match self.rng.below(3) {
            0 => self.plain_string(depth),
            1 => self.date_time(depth),
            _ => self.integer(depth),
        };
        built(
            json!({"anyOf": [inner.schema, {"type": "null"}]}),
            inner.sample,
        )
    }

    fn nullable_enum(&mut self, depth: u32) -> Built {
        let inner = self.typed_enum(depth);
        built(
            json!({"anyOf": [inner.schema, {"type": "null"}]}),
            json!(null),
        )
    }

    /// Objects told apart by a `const` property (`type` or `kind`), each variant closed or open.
    fn tagged_union(&mut self, depth: u32) -> Built {
        let tags = TAG_SETS[self.rng.below(TAG_SETS.len())];
        let tag = if self.rng.chance(3, 4) {
            "type"
        } else {
            "kind"
        };
        let mut members = Vec::new();
        let mut first = Value::Null;
        for value in tags {
            let count = 1 + self.rng.below(3);
            let mut variant = self.object(count, depth - 1);
            let properties = variant.schema["properties"]
                .as_object_mut()
                .expect("an object");
            properties.remove(tag);
            properties.shift_insert(0, tag.to_owned(), json!({"const": value}));
            let mut required: Vec<Value> = variant.schema["required"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .filter(|name| name != tag)
                .collect();
            required.insert(0, json!(tag));
            variant.schema["required"] = Value::Array(required);
            if first.is_null() {
                let mut sample = variant.sample.as_object().cloned().unwrap_or_default();
                sample.shift_insert(0, tag.to_owned(), json!(value));
                first = Value::Object(sample);
            }
            members.push(variant.schema);
        }
        built(json!({"anyOf": members}), first)
    }

    /// Objects without a telling property (either shape may match).
    fn untagged_union(&mut self, depth: u32) -> Built {
        let one = self.object(2, depth - 1);
        let two = self.object(3, depth - 1);
        built(json!({"anyOf": [one.schema, two.schema]}), one.sample)
    }

    fn literal_set(&mut self, _: u32) -> Built {
        let values = ENUMS[self.rng.below(ENUMS.len())];
        let members: Vec<Value> = values.iter().map(|value| json!({"const": value})).collect();
        built(json!({"anyOf": members}), json!(values[0]))
    }

    /// A known set or any string (zod's `z.enum([...]).or(z.string())`).
    fn open_enum(&mut self, _: u32) -> Built {
        let values = ENUMS[self.rng.below(ENUMS.len())];
        built(
            json!({"anyOf": [{"type": "string", "enum": values}, {"type": "string"}]}),
            json!("something-newer"),
        )
    }

    /// The other mixes the real description has.
    fn other_mix(&mut self, _: u32) -> Built {
        match self.rng.below(5) {
            0 => built(
                json!({"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "string"}]}),
                json!(["a", "b"]),
            ),
            1 => built(
                json!({"anyOf": [{"const": "auto"}, {"type": "number"}]}),
                json!(0.7),
            ),
            2 => built(
                json!({"anyOf": [{"type": "boolean"}, {"const": "auto"}]}),
                json!("auto"),
            ),
            3 => built(
                json!({"anyOf": [{"type": "string"}, {"not": {}}]}),
                json!("x"),
            ),
            _ => built(
                json!({"anyOf": [{"type": "string"}, {"type": "string"}]}),
                json!("twice"),
            ),
        }
    }
}
