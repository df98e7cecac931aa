//! Step 1: spec text (YAML or JSON) to a JSON value, with the exact location of a parse error.
//! Map order is kept so generated structs list fields in spec order.
//!
//! A text whose first character (after white space and a byte-order mark) is `{` or `[` is
//! JSON and is read by the JSON reader: JSON is YAML in principle, but the YAML reader refuses
//! valid JSON that holds C1 control characters (U+0080 to U+009F) or other characters YAML
//! does not print, and its error positions differ from JSON's.
//!
//! The YAML reader's events go straight into a `serde_json::Value` through [`JsonValue`], a
//! visitor of our own, rather than through the YAML library's value type, for two reasons: a
//! duplicate key must be refused (a decode into a JSON map would silently keep the last one),
//! and integers beyond 64 bits must load. Real descriptions state bounds such as
//! `minimum: -9223372036854776000` (i64::MIN printed through a double), which the YAML
//! library reads as an `i128` and its own value type refuses; here such an integer becomes the
//! nearest double, which is what its publisher's tools meant by it.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::Error;

/// Parses `text`; `file` names it in error messages.
pub fn load(text: &str, file: &str) -> Result<Value, Error> {
    let body = text.strip_prefix('\u{feff}').unwrap_or(text);
    if body.trim_start().starts_with(['{', '[']) {
        return load_json(body, file);
    }
    let deserializer = serde_norway::Deserializer::from_str(text);
    JsonValue.deserialize(deserializer).map_err(|error| {
        let (line, column) = error
            .location()
            .map_or((0, 0), |at| (at.line(), at.column()));
        parse_error(file, line, column, &error)
    })
}

/// A parse error at `line` and `column` of `file`, with the reader's reason: both readers'
/// messages repeat the location, which the error already names.
fn parse_error(file: &str, line: usize, column: usize, error: &dyn std::fmt::Display) -> Error {
    let message = error.to_string();
    let message = message
        .split(" at line ")
        .next()
        .unwrap_or(&message)
        .to_owned();
    Error::Parse {
        file: file.to_owned(),
        line,
        column,
        message,
    }
}

/// Parses JSON `text` through the same visitor as YAML (duplicate keys refused, integers beyond
/// 64 bits read as the nearest double), with serde_json's line and column.
fn load_json(text: &str, file: &str) -> Result<Value, Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let parsed = JsonValue
        .deserialize(&mut deserializer)
        .and_then(|value| deserializer.end().map(|()| value));
    parsed.map_err(|error| parse_error(file, error.line(), error.column(), &error))
}

/// Reads any YAML or JSON node as a JSON value.
struct JsonValue;

impl<'de> DeserializeSeed<'de> for JsonValue {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for JsonValue {
    type Value = Value;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("any YAML value")
    }

    fn visit_bool<E>(self, value: bool) -> Result<Value, E> {
        Ok(Value::Bool(value))
    }

    fn visit_i64<E>(self, value: i64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_u64<E>(self, value: u64) -> Result<Value, E> {
        Ok(Value::Number(value.into()))
    }

    fn visit_i128<E: de::Error>(self, value: i128) -> Result<Value, E> {
        match i64::try_from(value) {
            Ok(small) => Ok(Value::Number(small.into())),
            Err(_) => self.visit_f64(value as f64),
        }
    }

    fn visit_u128<E: de::Error>(self, value: u128) -> Result<Value, E> {
        match u64::try_from(value) {
            Ok(small) => Ok(Value::Number(small.into())),
            Err(_) => self.visit_f64(value as f64),
        }
    }

    fn visit_f64<E: de::Error>(self, value: f64) -> Result<Value, E> {
        Number::from_f64(value)
            .map(Value::Number)
            .ok_or_else(|| E::custom(format!("{value} is not a JSON number")))
    }

    fn visit_str<E>(self, value: &str) -> Result<Value, E> {
        Ok(Value::String(value.to_owned()))
    }

    fn visit_string<E>(self, value: String) -> Result<Value, E> {
        Ok(Value::String(value))
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut sequence: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = sequence.next_element_seed(JsonValue)? {
            items.push(item);
        }
        Ok(Value::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        let mut map = Map::new();
        while let Some(key) = entries.next_key_seed(JsonKey)? {
            if map.contains_key(&key) {
                return Err(de::Error::custom(format_args!(
                    "duplicate entry with key {key:?}"
                )));
            }
            let value = entries.next_value_seed(JsonValue)?;
            map.insert(key, value);
        }
        Ok(Value::Object(map))
    }
}

/// A mapping key as JSON spells it: YAML lets a key be a number or a boolean (`200:` under
/// `responses`), which JSON writes as its text.
struct JsonKey;

impl<'de> DeserializeSeed<'de> for JsonKey {
    type Value = String;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<String, D::Error> {
        match JsonValue.deserialize(deserializer)? {
            Value::String(text) => Ok(text),
            Value::Null => Ok("null".to_owned()),
            scalar @ (Value::Bool(_) | Value::Number(_)) => Ok(scalar.to_string()),
            Value::Array(_) | Value::Object(_) => {
                Err(de::Error::custom("a mapping key must be a scalar"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_yaml_and_json() {
        assert_eq!(
            load("a: 1\nb: [x]\n", "t.yaml").unwrap(),
            serde_json::json!({"a": 1, "b": ["x"]})
        );
        assert_eq!(
            load(r#"{"a": {"b": null}}"#, "t.json").unwrap(),
            serde_json::json!({"a": {"b": null}})
        );
    }

    #[test]
    fn reads_json_with_control_characters_as_json() {
        // U+0085 and U+009F are valid in a JSON string; the YAML reader refuses them.
        // (C0 characters must be escaped in JSON; C1 characters need not be.)
        let text = "{\"info\": {\"description\": \"a\u{85}b\u{9f}c\\r\\n\"}}";
        let value = load(text, "t.json").unwrap();
        assert_eq!(value["info"]["description"], "a\u{85}b\u{9f}c\r\n");
        let with_bom = format!("\u{feff}  \n{text}");
        assert_eq!(load(&with_bom, "t.json").unwrap(), value);
    }

    #[test]
    fn names_the_line_and_column_of_a_json_error() {
        let error = load("{\n  \"a\": 1,\n  \"b\": ]\n}", "t.json").unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("t.json:3:8:"), "{text}");
        let error = load("{\"a\": 1,\n \"a\": 2}", "t.json").unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("t.json:2:"), "{text}");
        assert!(text.contains("duplicate entry with key \"a\""), "{text}");
        let error = load("{\"a\": 1} x", "t.json").unwrap_err();
        assert!(error.to_string().starts_with("t.json:1:10:"), "{error}");
    }

    #[test]
    fn keeps_key_order() {
        let value = load("z: 1\na: 2\n", "t.yaml").unwrap();
        assert_eq!(
            value.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["z", "a"]
        );
    }

    #[test]
    fn names_the_line_and_column_of_a_syntax_error() {
        let error = load("a:\n  b: c: d\n", "spec/openapi.yaml").unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("spec/openapi.yaml:2:"), "{text}");
        assert!(text.contains("mapping values are not allowed"), "{text}");
    }

    #[test]
    fn refuses_duplicate_keys() {
        let error = load("a: 1\nb:\n  c: 1\n  c: 2\n", "t.yaml").unwrap_err();
        let text = error.to_string();
        assert!(text.starts_with("t.yaml:3:"), "{text}");
        assert!(text.contains("duplicate entry with key \"c\""), "{text}");
    }

    #[test]
    fn reads_integers_beyond_64_bits_as_the_nearest_double() {
        let value = load(
            "minimum: -9223372036854776000\nmaximum: 18446744073709552000\nsmall: -5\n",
            "t.yaml",
        )
        .unwrap();
        assert_eq!(
            value["minimum"].as_f64(),
            Some(-9_223_372_036_854_775_808.0)
        );
        assert_eq!(
            value["maximum"].as_f64(),
            Some(18_446_744_073_709_551_616.0)
        );
        assert_eq!(value["small"].as_i64(), Some(-5));
        let json = load(r#"{"maximum": 18446744073709552000}"#, "t.json").unwrap();
        assert_eq!(json["maximum"].as_f64(), Some(18_446_744_073_709_551_616.0));
    }

    #[test]
    fn reads_scalar_keys_as_their_json_text() {
        let value = load(
            "responses:\n  200: {description: ok}\n  true: x\n",
            "t.yaml",
        )
        .unwrap();
        assert_eq!(
            value["responses"]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["200", "true"]
        );
    }
}
