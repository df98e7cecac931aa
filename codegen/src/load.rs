//! Step 1: spec text (YAML or JSON; JSON is YAML) to a JSON value, with the exact location of
//! a parse error. Map order is kept so generated structs list fields in spec order.

use serde_json::Value;

use crate::Error;

/// Parses `text`; `file` names it in error messages.
pub fn load(text: &str, file: &str) -> Result<Value, Error> {
    // Through the YAML library's own value first: it refuses duplicate keys, which a direct
    // decode into a JSON map would silently collapse to the last one.
    let yaml = serde_norway::from_str::<serde_norway::Value>(text).map_err(|error| {
        let (line, column) = error
            .location()
            .map_or((0, 0), |at| (at.line(), at.column()));
        // The library's message repeats the location; keep only the reason.
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
    })?;
    serde_json::to_value(&yaml).map_err(|error| Error::Parse {
        file: file.to_owned(),
        line: 0,
        column: 0,
        message: format!("not representable as JSON: {error}"),
    })
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
        assert_eq!(
            error.to_string(),
            "t.yaml:3:3: b: duplicate entry with key \"c\""
        );
    }
}
