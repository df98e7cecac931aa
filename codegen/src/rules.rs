//! Rules as a type: [`Rule`] is one validation rule a schema states, read once from the schema by
//! [`Rule::from_schema`] (from the 3.1 spelling or the down-levelled 3.0 one).
//!
//! A new keyword is one new variant: the compiler then points at every `match` that must say
//! what to do with it ([`Rule::keyword`], [`Rule::describe`] and the generator contract's
//! [`crate::contract::typify_keeps`]).

use serde_json::Value;

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
        if let Some(format) = object.get("format").and_then(Value::as_str) {
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
            .or_else(|| object.get("x-prefixItems"))
            .and_then(Value::as_array)
        {
            rules.push(Rule::Tuple(positions.len()));
        }
        rules.extend(count("minProperties").map(Rule::MinProperties));
        rules.extend(count("maxProperties").map(Rule::MaxProperties));
        if object.contains_key("propertyNames") || object.contains_key("x-propertyNames") {
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
        if object.contains_key("not") {
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
            Rule::Tuple(_) => "x-prefixItems",
            Rule::MinProperties(_) => "minProperties",
            Rule::MaxProperties(_) => "maxProperties",
            Rule::PropertyNames => "x-propertyNames",
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

/// A `oneOf` that `normalize` made of an `anyOf`: typify's first-fit enum keeps its meaning.
pub(crate) fn stands_for_any_of(object: &serde_json::Map<String, Value>) -> bool {
    object.get(crate::normalize::ANY_OF) == Some(&Value::Bool(true))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
