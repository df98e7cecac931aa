//! Keywords that constrain no instance of the schema's own `type`.
//!
//! JSON Schema applies `minimum` to numbers only, `minLength` to strings only, `minItems` to
//! arrays only ([`crate::rules::KEYWORDS_OF_ONE_TYPE`]). Beside `type: string`, a `minimum`
//! constrains nothing: every string passes it. Real descriptions carry such keywords where the
//! author meant something else (Supabase's `limit` query parameter, `type: string` with
//! `minimum: 1, maximum: 100`; OpenAI's `items: {type: string, minItems: 1}`, a bound meant for
//! the array). The generated code must accept what the schema accepts, so the keyword is
//! dropped, and reported as a defect of the description, which is the place to fix it.
//! Without a stated `type`, a keyword applies to instances of its type and to nothing else,
//! which is a rule, not a defect: it stays.
//!
//! OpenAPI defines `discriminator` only beside `oneOf`, `anyOf` or `allOf`, where it is a hint
//! for choosing the member. Beside none of them (OpenAI's `CodeInterpreterToolCall.outputs`: on
//! the array whose items are the `oneOf`) it says nothing, and is dropped and reported likewise.

use serde_json::{Map, Value};

use crate::model::push;
use crate::report::{Finding, FindingKind};
use crate::rules::{keyword_applies, type_of_keyword};

/// Drops from `object` (the schema at `pointer`) a `discriminator` beside no composition and
/// every keyword that constrains none of the types its `type` lists, with a defect finding each.
pub(super) fn drop_inapplicable_keywords(
    object: &mut Map<String, Value>,
    pointer: &str,
    findings: &mut Vec<Finding>,
) {
    let compositions = ["oneOf", "anyOf", "allOf"];
    if object.contains_key("discriminator")
        && !compositions
            .iter()
            .any(|keyword| object.contains_key(*keyword))
    {
        object.remove("discriminator");
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, "discriminator"),
            "`discriminator` beside no `oneOf`, `anyOf` or `allOf`: OpenAPI defines it only there, so it says nothing here; dropped",
        ));
    }
    let types: Vec<String> = match object.get("type") {
        Some(Value::String(kind)) => vec![kind.clone()],
        Some(Value::Array(kinds)) => kinds
            .iter()
            .filter_map(|kind| kind.as_str().map(str::to_owned))
            .collect(),
        _ => return,
    };
    if types.is_empty() {
        return;
    }
    let listed: Vec<&str> = types.iter().map(String::as_str).collect();
    let inapplicable: Vec<String> = object
        .keys()
        .filter(|keyword| !keyword_applies(keyword, &listed))
        .cloned()
        .collect();
    for keyword in inapplicable {
        object.remove(&keyword);
        findings.push(Finding::new(
            FindingKind::Defect,
            &push(pointer, &keyword),
            format!(
                "`{keyword}` constrains {}s only, and this schema's `type` is `{}`: it constrains nothing here; dropped",
                type_of_keyword(&keyword).unwrap_or_default(),
                listed.join("` or `"),
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn dropped(schema: Value) -> (Value, Vec<String>) {
        let Value::Object(mut object) = schema else {
            unreachable!("the tests pass objects");
        };
        let mut findings = Vec::new();
        drop_inapplicable_keywords(&mut object, "/s", &mut findings);
        (
            Value::Object(object),
            findings.iter().map(ToString::to_string).collect(),
        )
    }

    #[test]
    fn a_keyword_of_another_type_is_dropped_and_reported() {
        let (schema, findings) =
            dropped(json!({"type": "string", "minimum": 1, "maximum": 100, "maxLength": 3}));
        assert_eq!(schema, json!({"type": "string", "maxLength": 3}));
        assert_eq!(findings.len(), 2, "{findings:?}");
        assert!(findings[1].starts_with("defect /s/maximum: `maximum` constrains numbers only, and this schema's `type` is `string`"), "{findings:?}");
        let (schema, findings) = dropped(json!({"type": "string", "minItems": 1}));
        assert_eq!(schema, json!({"type": "string"}));
        assert_eq!(findings.len(), 1);
    }

    #[test]
    fn a_discriminator_beside_no_composition_is_dropped_and_reported() {
        let discriminator = json!({"propertyName": "type"});
        let (schema, findings) = dropped(json!({
            "type": "array", "items": {"oneOf": [{"type": "string"}]}, "discriminator": discriminator,
        }));
        assert_eq!(
            schema,
            json!({"type": "array", "items": {"oneOf": [{"type": "string"}]}})
        );
        assert_eq!(findings.len(), 1);
        assert!(
            findings[0].starts_with("defect /s/discriminator: "),
            "{findings:?}"
        );
        for beside in ["oneOf", "anyOf", "allOf"] {
            let schema = json!({beside: [{"$ref": "#/a"}], "discriminator": discriminator});
            let (kept, findings) = dropped(schema.clone());
            assert_eq!(kept, schema);
            assert!(findings.is_empty(), "{findings:?}");
        }
    }

    #[test]
    fn keywords_of_a_listed_type_stay() {
        for schema in [
            json!({"type": "integer", "minimum": 1, "multipleOf": 2}),
            json!({"type": ["string", "null"], "maxLength": 3, "pattern": "^a"}),
            json!({"type": ["string", "number"], "maxLength": 3, "maximum": 4}),
            json!({"type": "array", "minItems": 1, "uniqueItems": true}),
            json!({"type": "object", "maxProperties": 4}),
            // Without a `type`, each keyword constrains the instances of its own type.
            json!({"minimum": 1, "minLength": 2}),
        ] {
            let (kept, findings) = dropped(schema.clone());
            assert_eq!(kept, schema);
            assert!(findings.is_empty(), "{findings:?}");
        }
    }
}
