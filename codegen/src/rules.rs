//! Rules as a type: [`Rule`] is one validation rule a schema states, read once from the schema by
//! [`Rule::from_schema`] (from the 3.1 spelling or the down-levelled 3.0 one).
//!
//! A new keyword is one new variant: the compiler then points at every `match` that must say
//! what to do with it ([`Rule::keyword`], [`Rule::describe`], [`Rule::enforcement`] (the check
//! code a validated type runs) and the generator contract's [`crate::contract::typify_keeps`]).
//! A new `format` is one line of the support crate's table (see [`format_check`]).

use proc_macro2::TokenStream;
use quote::quote;
use serde_json::Value;

use crate::model::mark;
use crate::runtime::support_crate;

/// One rule a schema states about the values it admits.
#[derive(Clone, Debug, PartialEq)]
pub enum Rule {
    /// `type: integer`: a whole number (JSON Schema also counts `1.0`).
    Integer,
    /// `minLength`, in characters.
    MinLength(u64),
    /// `maxLength`, in characters.
    MaxLength(u64),
    /// `pattern`, an ECMA-262 regular expression.
    Pattern(String),
    /// `format`, such as `date-time` or `uri`.
    Format(String),
    /// `minimum` (or 3.1 `exclusiveMinimum`).
    Minimum { bound: f64, exclusive: bool },
    /// `maximum` (or 3.1 `exclusiveMaximum`).
    Maximum { bound: f64, exclusive: bool },
    /// `multipleOf`.
    MultipleOf(f64),
    /// `minItems`.
    MinItems(u64),
    /// `maxItems`.
    MaxItems(u64),
    /// `uniqueItems: true`.
    UniqueItems,
    /// `prefixItems` (`x-prefixItems` once down-levelled): the schema of each of the first
    /// positions, a tuple of this length.
    Tuple(usize),
    /// `minProperties`.
    MinProperties(u64),
    /// `maxProperties`.
    MaxProperties(u64),
    /// `propertyNames` (`x-propertyNames` once down-levelled): a schema every key must meet.
    PropertyNames,
    /// `required`: keys that must be present.
    Required(Vec<String>),
    /// `additionalProperties: false`: no key beyond `properties`.
    Closed,
    /// `enum` (or 3.1 `const`): the only values admitted.
    Literals(Vec<Value>),
    /// `nullable: true` (3.1 `type: [T, "null"]`): `null` is admitted too.
    Nullable,
    /// `not`: values the subschema admits are refused.
    Not,
    /// `discriminator`: the property that names the variant.
    Discriminator,
    /// `oneOf`: exactly one member must match.
    ExactlyOne,
}

impl Rule {
    /// Every rule `schema` states itself, in a fixed order (rules of its subschemas, reached
    /// through [`crate::model::subschemas`], are theirs).
    pub fn from_schema(schema: &Value) -> Vec<Rule> {
        let Some(object) = schema.as_object() else {
            return Vec::new();
        };
        let count = |key: &str| object.get(key).and_then(Value::as_u64);
        let number = |key: &str| object.get(key).and_then(Value::as_f64);
        let flag = |key: &str| object.get(key) == Some(&Value::Bool(true));
        let mut rules = Vec::new();
        let kinds = match object.get("type") {
            Some(Value::String(kind)) => vec![kind.as_str()],
            Some(Value::Array(kinds)) => kinds.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if kinds.contains(&"integer") {
            rules.push(Rule::Integer);
        }
        if kinds.contains(&"null") || flag("nullable") {
            rules.push(Rule::Nullable);
        }
        rules.extend(count("minLength").map(Rule::MinLength));
        rules.extend(count("maxLength").map(Rule::MaxLength));
        if let Some(pattern) = object.get("pattern").and_then(Value::as_str) {
            rules.push(Rule::Pattern(pattern.to_owned()));
        }
        if let Some(format) = object.get("format").and_then(Value::as_str)
            && format_is_a_rule(format)
        {
            rules.push(Rule::Format(format.to_owned()));
        }
        for (inclusive, exclusive, lower) in [
            ("minimum", "exclusiveMinimum", true),
            ("maximum", "exclusiveMaximum", false),
        ] {
            // 3.0 says `minimum: n, exclusiveMinimum: true`; 3.1 says `exclusiveMinimum: n`.
            let bound = match (number(inclusive), object.get(exclusive)) {
                (_, Some(Value::Number(bound))) => bound.as_f64().map(|bound| (bound, true)),
                (Some(bound), exclusive) => Some((bound, exclusive == Some(&Value::Bool(true)))),
                (None, _) => None,
            };
            if let Some((bound, exclusive)) = bound {
                rules.push(if lower {
                    Rule::Minimum { bound, exclusive }
                } else {
                    Rule::Maximum { bound, exclusive }
                });
            }
        }
        rules.extend(number("multipleOf").map(Rule::MultipleOf));
        rules.extend(count("minItems").map(Rule::MinItems));
        rules.extend(count("maxItems").map(Rule::MaxItems));
        if flag("uniqueItems") {
            rules.push(Rule::UniqueItems);
        }
        if let Some(positions) = object
            .get("prefixItems")
            .or_else(|| object.get(mark::PREFIX_ITEMS))
            .and_then(Value::as_array)
        {
            rules.push(Rule::Tuple(positions.len()));
        }
        rules.extend(count("minProperties").map(Rule::MinProperties));
        rules.extend(count("maxProperties").map(Rule::MaxProperties));
        if object.contains_key("propertyNames") || object.contains_key(mark::PROPERTY_NAMES) {
            rules.push(Rule::PropertyNames);
        }
        if let Some(required) = object.get("required").and_then(Value::as_array) {
            let keys = required.iter().filter_map(Value::as_str).map(str::to_owned);
            rules.push(Rule::Required(keys.collect()));
        }
        if object.get("additionalProperties") == Some(&Value::Bool(false)) {
            rules.push(Rule::Closed);
        }
        match (object.get("enum"), object.get("const")) {
            (Some(Value::Array(values)), _) => rules.push(Rule::Literals(values.clone())),
            (_, Some(value)) => rules.push(Rule::Literals(vec![value.clone()])),
            _ => {}
        }
        if object.contains_key("not") || object.contains_key(mark::NOT) {
            rules.push(Rule::Not);
        }
        if object.contains_key("discriminator") {
            rules.push(Rule::Discriminator);
        }
        if object.contains_key("oneOf") && !stands_for_any_of(object) {
            rules.push(Rule::ExactlyOne);
        }
        rules
    }

    /// The keyword that states the rule in the down-levelled (3.0) document, which is what a
    /// generator reads; [`crate::downlevel::Provenance`] maps the place back to the source.
    pub fn keyword(&self) -> &'static str {
        match self {
            Rule::Integer => "type",
            Rule::MinLength(_) => "minLength",
            Rule::MaxLength(_) => "maxLength",
            Rule::Pattern(_) => "pattern",
            Rule::Format(_) => "format",
            Rule::Minimum { .. } => "minimum",
            Rule::Maximum { .. } => "maximum",
            Rule::MultipleOf(_) => "multipleOf",
            Rule::MinItems(_) => "minItems",
            Rule::MaxItems(_) => "maxItems",
            Rule::UniqueItems => "uniqueItems",
            Rule::Tuple(_) => mark::PREFIX_ITEMS,
            Rule::MinProperties(_) => "minProperties",
            Rule::MaxProperties(_) => "maxProperties",
            Rule::PropertyNames => mark::PROPERTY_NAMES,
            Rule::Required(_) => "required",
            Rule::Closed => "additionalProperties",
            Rule::Literals(_) => "enum",
            Rule::Nullable => "nullable",
            Rule::Not => "not",
            Rule::Discriminator => "discriminator",
            Rule::ExactlyOne => "oneOf",
        }
    }

    /// The rule in words, for error messages and the API surface.
    pub fn describe(&self) -> String {
        let bound = |bound: &f64| {
            if bound.fract() == 0.0 && bound.abs() < 1e15 {
                format!("{}", *bound as i64)
            } else {
                bound.to_string()
            }
        };
        match self {
            Rule::Integer => "an integer".into(),
            Rule::MinLength(n) => format!("at least {n} characters"),
            Rule::MaxLength(n) => format!("at most {n} characters"),
            Rule::Pattern(pattern) => format!("matches {pattern:?}"),
            Rule::Format(format) => format!("format `{format}`"),
            Rule::Minimum {
                bound: n,
                exclusive,
            } => {
                format!("{} {}", if *exclusive { ">" } else { ">=" }, bound(n))
            }
            Rule::Maximum {
                bound: n,
                exclusive,
            } => {
                format!("{} {}", if *exclusive { "<" } else { "<=" }, bound(n))
            }
            Rule::MultipleOf(n) => format!("a multiple of {}", bound(n)),
            Rule::MinItems(n) => format!("at least {n} items"),
            Rule::MaxItems(n) => format!("at most {n} items"),
            Rule::UniqueItems => "unique items".into(),
            Rule::Tuple(positions) => {
                format!("a tuple of {positions}, each position of its own type")
            }
            Rule::MinProperties(n) => format!("at least {n} entries"),
            Rule::MaxProperties(n) => format!("at most {n} entries"),
            Rule::PropertyNames => "keys checked by `propertyNames`".into(),
            Rule::Required(keys) => format!("requires {}", keys.join(", ")),
            Rule::Closed => "no other keys".into(),
            Rule::Literals(values) => {
                let values: Vec<String> = values.iter().map(Value::to_string).collect();
                format!("one of {}", values.join(", "))
            }
            Rule::Nullable => "or null".into(),
            Rule::Not => "not what `not` admits".into(),
            Rule::Discriminator => "a discriminator".into(),
            Rule::ExactlyOne => "exactly one `oneOf` member".into(),
        }
    }
}

/// What a check reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A string, `value: &str`.
    Text,
    /// A number, `value: f64`.
    Number,
    /// An array, `items` (its length is checked).
    Items,
    /// A map's number of entries, `entries: usize` (a map that would grow is checked before).
    Entries,
}

/// The code that checks one rule on one value.
#[derive(Clone, Debug)]
pub struct Check {
    /// What `broken` reads.
    pub subject: Subject,
    /// Statements `broken` needs before it (a pattern's compiled expression).
    pub prelude: TokenStream,
    /// An expression over the subject that is `true` when the value breaks the rule.
    pub broken: TokenStream,
    /// The rule in words after "must", for messages: `be at least 3 characters`.
    pub must: String,
}

/// How generated code enforces one rule.
#[derive(Clone, Debug)]
pub enum Enforcement {
    /// A check a validated type runs on every value it decodes or builds.
    Check(Check),
    /// The shape of the generated type: a required field, an enum of the literals, an
    /// `Option`, a tuple's positions, a map's key check ([`Rule::PropertyNames`] is checked
    /// with the text checks of its own schema), an exhaustive union.
    Shape,
    /// Nothing the generator writes checks it; the reason, for the coverage message.
    Unchecked(String),
}

impl Rule {
    /// How generated code enforces the rule (what [`crate::contract::typify_keeps`] says typify
    /// drops is enforced this way by a patch). `Err` when the rule itself is broken: a
    /// `pattern` that is not an ECMA-262 regular expression.
    pub fn enforcement(&self) -> Result<Enforcement, String> {
        let check = |subject, broken, must: String| {
            Ok(Enforcement::Check(Check {
                subject,
                prelude: TokenStream::new(),
                broken,
                must,
            }))
        };
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        match self {
            Rule::MinLength(min) => {
                let min = count(*min);
                check(
                    Subject::Text,
                    quote! { value.chars().count() < #min },
                    format!("be at least {min} characters"),
                )
            }
            Rule::MaxLength(max) => {
                let max = count(*max);
                check(
                    Subject::Text,
                    quote! { value.chars().count() > #max },
                    format!("be at most {max} characters"),
                )
            }
            Rule::Pattern(pattern) => {
                if let Err(error) = hub_api_support::Pattern::check(pattern) {
                    return Err(format!("`pattern` {error}"));
                }
                // One compiled pattern per check function, on first use.
                let support = support_crate();
                Ok(Enforcement::Check(Check {
                    subject: Subject::Text,
                    prelude: quote! {
                        static PATTERN: ::std::sync::LazyLock<#support::Pattern> =
                            ::std::sync::LazyLock::new(|| #support::Pattern::new(#pattern).expect("checked by codegen"));
                    },
                    broken: quote! { !PATTERN.is_match(value) },
                    must: format!("match {pattern}"),
                }))
            }
            Rule::Format(format) => match format_check(format) {
                Some(checked) => {
                    let support = support_crate();
                    let function = quote::format_ident!("{}", checked.function);
                    Ok(Enforcement::Check(Check {
                        subject: Subject::Text,
                        prelude: TokenStream::new(),
                        broken: quote! { !#support::formats::#function(value) },
                        must: checked.rule.to_owned(),
                    }))
                }
                None => Ok(Enforcement::Unchecked(format!(
                    "`format: {format}` is not supported"
                ))),
            },
            Rule::Minimum { bound, exclusive } => {
                let (broken, must) = if *exclusive {
                    (quote! { value <= #bound }, format!("be above {bound}"))
                } else {
                    (quote! { value < #bound }, format!("be at least {bound}"))
                };
                check(Subject::Number, broken, must)
            }
            Rule::Maximum { bound, exclusive } => {
                let (broken, must) = if *exclusive {
                    (quote! { value >= #bound }, format!("be below {bound}"))
                } else {
                    (quote! { value > #bound }, format!("be at most {bound}"))
                };
                check(Subject::Number, broken, must)
            }
            Rule::MinItems(min) => {
                let min = count(*min);
                let noun = if min == 1 { "item" } else { "items" };
                check(
                    Subject::Items,
                    quote! { items.len() < #min },
                    format!("have at least {min} {noun}"),
                )
            }
            Rule::MaxItems(max) => {
                let max = count(*max);
                check(
                    Subject::Items,
                    quote! { items.len() > #max },
                    format!("have at most {max} items"),
                )
            }
            Rule::UniqueItems => {
                let support = support_crate();
                check(
                    Subject::Items,
                    quote! { #support::items::has_duplicates(&items) },
                    "have unique items".to_owned(),
                )
            }
            // A bounded integer's range, an `Option`, the enum of the literals, the tuple
            // struct, the key check of a validated map, the union's exhaustive decoding.
            Rule::Integer
            | Rule::Nullable
            | Rule::Required(_)
            | Rule::Closed
            | Rule::Literals(_)
            | Rule::Tuple(_)
            | Rule::PropertyNames
            | Rule::Discriminator
            | Rule::ExactlyOne => Ok(Enforcement::Shape),
            Rule::MinProperties(min) => {
                let min = count(*min);
                let noun = if min == 1 { "entry" } else { "entries" };
                check(
                    Subject::Entries,
                    quote! { entries < #min },
                    format!("have at least {min} {noun}"),
                )
            }
            Rule::MaxProperties(max) => {
                let max = count(*max);
                let noun = if max == 1 { "entry" } else { "entries" };
                check(
                    Subject::Entries,
                    quote! { entries > #max },
                    format!("have at most {max} {noun}"),
                )
            }
            Rule::MultipleOf(_) => Ok(Enforcement::Unchecked("`multipleOf` is not checked".into())),
            Rule::Not => Ok(Enforcement::Unchecked("`not` is not checked".into())),
        }
    }
}

/// Whether `format` states a rule an instance can break. JSON Schema makes `format` an
/// annotation unless the format is one it (or OpenAPI's registry) defines as an assertion; an
/// unknown format (`unixtime`, `url`, `int`) says nothing a validator checks, and neither do
/// OpenAPI's storage hints `float`, `double`, `password` and `binary`. What stays is every
/// format a check is written for ([`format_check`]), the standard formats no check is written
/// for yet (reported as unenforced), and the integer widths ([`integer_width`]).
pub fn format_is_a_rule(format: &str) -> bool {
    const STANDARD: &[&str] = &[
        "date-time",
        "date",
        "time",
        "duration",
        "email",
        "idn-email",
        "hostname",
        "idn-hostname",
        "ipv4",
        "ipv6",
        "uri",
        "uri-reference",
        "iri",
        "iri-reference",
        "uuid",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
        "byte",
    ];
    format_check(format).is_some() || STANDARD.contains(&format) || integer_width(format).is_some()
}

/// The validation keywords that constrain instances of one JSON type only, by that type (JSON
/// Schema's validation vocabulary: the number keywords constrain integers too). Beside a
/// `type` that excludes their type, they constrain nothing.
pub const KEYWORDS_OF_ONE_TYPE: &[(&str, &[&str])] = &[
    (
        "number",
        &[
            "minimum",
            "maximum",
            "exclusiveMinimum",
            "exclusiveMaximum",
            "multipleOf",
        ],
    ),
    ("string", &["minLength", "maxLength", "pattern"]),
    ("array", &["minItems", "maxItems", "uniqueItems"]),
    ("object", &["minProperties", "maxProperties"]),
];

/// The JSON type `keyword` constrains, when it constrains one type only
/// ([`KEYWORDS_OF_ONE_TYPE`]).
pub fn type_of_keyword(keyword: &str) -> Option<&'static str> {
    KEYWORDS_OF_ONE_TYPE
        .iter()
        .find(|(_, keywords)| keywords.contains(&keyword))
        .map(|(kind, _)| *kind)
}

/// Whether `keyword` can constrain an instance of one of `types` (JSON type names as `type`
/// lists them): always for a keyword not of one type, else when its type is listed (`number`
/// by `integer` too).
pub fn keyword_applies(keyword: &str, types: &[&str]) -> bool {
    match type_of_keyword(keyword) {
        None => true,
        Some("number") => types
            .iter()
            .any(|kind| matches!(*kind, "number" | "integer")),
        Some(kind) => types.contains(&kind),
    }
}

/// The range an integer `format` admits (`int32` is `-2^31..=2^31-1`), which the Rust type of
/// that width holds exactly.
pub fn integer_width(format: &str) -> Option<(i128, i128)> {
    Some(match format {
        "int8" => (i8::MIN.into(), i8::MAX.into()),
        "int16" => (i16::MIN.into(), i16::MAX.into()),
        "int32" => (i32::MIN.into(), i32::MAX.into()),
        "int64" => (i64::MIN.into(), i64::MAX.into()),
        "uint8" => (0, u8::MAX.into()),
        "uint16" => (0, u16::MAX.into()),
        "uint32" => (0, u32::MAX.into()),
        "uint64" => (0, u64::MAX.into()),
        _ => return None,
    })
}

/// The check of a `format`, from the support crate's table: what it requires in words after
/// "must" and the function generated code calls; `None` for a format without a check. A new
/// format is one function and one line of `hub_api_support::formats`: inference, coverage and
/// the docs follow.
pub fn format_check(format: &str) -> Option<&'static hub_api_support::formats::Format> {
    hub_api_support::formats::find(format)
}

/// A `oneOf` that `normalize` made of an `anyOf`: typify's first-fit enum keeps its meaning.
pub(crate) fn stands_for_any_of(object: &serde_json::Map<String, Value>) -> bool {
    object.get(mark::ANY_OF) == Some(&Value::Bool(true))
}

/// Whether no JSON value can match two members of the schema's `oneOf`: each member (its
/// `$ref` followed) states one JSON type (`nullable` adding `null`), and no two share one
/// (`integer` shares with `number`).
pub(crate) fn one_of_members_are_disjoint(
    model: &crate::model::Document<'_>,
    schema: &Value,
) -> bool {
    let Some(members) = schema.get("oneOf").and_then(Value::as_array) else {
        return false;
    };
    let mut seen: std::collections::BTreeSet<&str> = Default::default();
    for member in members {
        let Some(member) = model.resolve(member) else {
            return false;
        };
        let Some(kind) = member.get("type").and_then(Value::as_str) else {
            return false;
        };
        let mut kinds = vec![if kind == "integer" { "number" } else { kind }];
        if member.get("nullable") == Some(&Value::Bool(true)) {
            kinds.push("null");
        }
        for kind in kinds {
            if !seen.insert(kind) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn one_of_members_of_distinct_json_types_are_disjoint() {
        let document = json!({"components": {"schemas": {"Name": {"type": "string"}}}});
        let model = crate::model::Document::new(&document);
        let disjoint =
            |members: Value| one_of_members_are_disjoint(&model, &json!({ "oneOf": members }));
        assert!(disjoint(json!([
            {"$ref": "#/components/schemas/Name"},
            {"type": "integer"},
            {"type": "object", "nullable": true}
        ])));
        // `integer` is a `number`; two strings; `null` twice; a member of no stated type.
        assert!(!disjoint(json!([{"type": "integer"}, {"type": "number"}])));
        assert!(!disjoint(
            json!([{"$ref": "#/components/schemas/Name"}, {"type": "string"}])
        ));
        assert!(!disjoint(json!([
            {"type": "string", "nullable": true},
            {"type": "object", "nullable": true}
        ])));
        assert!(!disjoint(json!([{"type": "string"}, {"minimum": 1}])));
        assert!(!disjoint(json!([{"$ref": "#/components/schemas/Missing"}])));
    }

    #[test]
    fn reads_both_spellings_of_bounds_once() {
        let three_one = Rule::from_schema(
            &json!({"type": ["integer", "null"], "exclusiveMinimum": 0, "maximum": 9}),
        );
        let three_oh = Rule::from_schema(&json!({"type": "integer", "nullable": true,
            "minimum": 0, "exclusiveMinimum": true, "maximum": 9}));
        assert_eq!(three_one, three_oh);
        assert_eq!(
            three_one,
            [
                Rule::Integer,
                Rule::Nullable,
                Rule::Minimum {
                    bound: 0.0,
                    exclusive: true
                },
                Rule::Maximum {
                    bound: 9.0,
                    exclusive: false
                },
            ]
        );
        let described: Vec<String> = three_one.iter().map(Rule::describe).collect();
        assert_eq!(described, ["an integer", "or null", "> 0", "<= 9"]);
    }

    #[test]
    fn says_how_each_rule_is_enforced() {
        let checked = |rule: Rule| match rule.enforcement() {
            Ok(Enforcement::Check(check)) => (check.subject, check.broken.to_string(), check.must),
            other => panic!("{rule:?}: {other:?}"),
        };
        assert_eq!(
            checked(Rule::MaxLength(3)),
            (
                Subject::Text,
                "value . chars () . count () > 3usize".to_owned(),
                "be at most 3 characters".to_owned(),
            )
        );
        assert_eq!(
            checked(Rule::Format("uri".into())),
            (
                Subject::Text,
                "! :: hub_api_support :: formats :: is_uri (value)".to_owned(),
                "be an absolute URI (RFC 3986)".to_owned(),
            )
        );
        assert_eq!(
            checked(Rule::Minimum {
                bound: 0.5,
                exclusive: true
            }),
            (
                Subject::Number,
                "value <= 0.5f64".to_owned(),
                "be above 0.5".to_owned(),
            )
        );
        assert_eq!(checked(Rule::MinItems(1)).2, "have at least 1 item");
        assert_eq!(
            checked(Rule::MaxProperties(16)),
            (
                Subject::Entries,
                "entries > 16usize".to_owned(),
                "have at most 16 entries".to_owned(),
            )
        );
        assert_eq!(checked(Rule::MinProperties(1)).2, "have at least 1 entry");
        assert_eq!(
            checked(Rule::UniqueItems),
            (
                Subject::Items,
                ":: hub_api_support :: items :: has_duplicates (& items)".to_owned(),
                "have unique items".to_owned(),
            )
        );
        assert!(matches!(
            Rule::Tuple(2).enforcement(),
            Ok(Enforcement::Shape)
        ));
        assert!(matches!(
            Rule::Format("iri".into()).enforcement(),
            Ok(Enforcement::Unchecked(reason)) if reason == "`format: iri` is not supported"
        ));
        assert_eq!(
            Rule::Pattern("(".into()).enforcement().unwrap_err(),
            "`pattern` \"(\" is not an ECMA-262 regular expression: Unbalanced parenthesis"
        );
    }

    #[test]
    fn reads_string_array_and_object_rules() {
        let rules = Rule::from_schema(&json!({"minLength": 1, "pattern": "^a", "format": "uri",
            "maxItems": 3, "uniqueItems": true, "required": ["a"], "additionalProperties": false,
            "const": "x", "propertyNames": {}, "oneOf": []}));
        let keywords: Vec<&str> = rules.iter().map(Rule::keyword).collect();
        assert_eq!(
            keywords,
            [
                "minLength",
                "pattern",
                "format",
                "maxItems",
                "uniqueItems",
                "x-propertyNames",
                "required",
                "additionalProperties",
                "enum",
                "oneOf"
            ]
        );
        assert!(Rule::from_schema(&json!(true)).is_empty());
    }
}
