//! After the patches: every rule that typify 0.8 would drop must be enforced by a patch. A rule
//! left over (one no patch could be inferred for) stops generation with its JSON pointer in the
//! source document, so a spec change can never quietly widen what the client accepts. What
//! typify keeps is the generator contract's [`typify_keeps`]; the rules are [`Rule`]s.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::Error;
use crate::contract::typify_keeps;
use crate::downlevel::Provenance;
use crate::model::{Document, Owner, Visit, push};
use crate::rules::Rule;

/// Checks every schema of the (down-levelled) document that no patch replaced, at any depth,
/// and reports every rule left unenforced together, each at its place in the source document.
#[cfg(test)]
pub(super) fn check(
    document: &Value,
    replaced: &BTreeSet<&str>,
    provenance: &Provenance,
) -> Result<(), Error> {
    Error::from_problems(unenforced_rules(document, replaced, provenance))
}

/// Every rule typify drops in a schema no patch replaced, as [`Error::Unenforced`], in document
/// order: a strict run stops on them, `cargo xtask generate` reports them.
pub(super) fn unenforced_rules(
    document: &Value,
    replaced: &BTreeSet<&str>,
    provenance: &Provenance,
) -> Vec<Error> {
    let mut problems = Vec::new();
    let model = Document::new(document);
    model.visit_schemas(|at| {
        if at.depth == 0
            && let Owner::Schema(name) = &at.owner
            && replaced.contains(name.as_str())
        {
            return Visit::Skip;
        }
        let rules = Rule::from_schema(at.schema);
        for rule in &rules {
            // Beside a union or a composition, OpenAPI 3.1 makes the discriminator a hint for
            // choosing the member, not a rule: the members decide what validates (and the
            // first-fit union decodes by them, exclusively for a `oneOf`). Only beside none of
            // them (an array's, say) is it a rule nothing states, and reported.
            if *rule == Rule::Discriminator
                && ["oneOf", "anyOf", "allOf"]
                    .iter()
                    .any(|keyword| at.schema.get(*keyword).is_some())
            {
                continue;
            }
            // A plain integer property or parameter: the object decoder reads it.
            if *rule == Rule::Integer && crate::contract::is_plain_integer(document, at.schema, &at.pointer)
            {
                continue;
            }
            if let Err(what) = typify_keeps(rule, &rules) {
                problems.push(Error::Unenforced {
                    pointer: provenance.source_pointer(&push(&at.pointer, rule.keyword())),
                    owner: at.owner.to_string(),
                    rule: what.to_owned(),
                    remedy: "no patch can be inferred for this schema (codegen/src/patch/infer.rs lists what can); restate the rule in a form it reads, or teach it this one".to_owned(),
                });
            }
        }
        Visit::Descend
    });
    problems
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn doc(schema: Value) -> Value {
        json!({"components": {"schemas": {"S": schema}}})
    }

    #[test]
    fn names_an_unenforced_rule() {
        let error = check(
            &doc(json!({"properties": {"ports": {"type": "array", "maxItems": 20}}})),
            &BTreeSet::new(),
            &Provenance::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(error.starts_with("/components/schemas/S/properties/ports/maxItems (schema S): typify drops array sizes and nothing enforces it"), "{error}");
    }

    #[test]
    fn accepts_what_typify_keeps_and_what_patches_replace() {
        let kept = json!({"type": "object", "required": ["a"], "additionalProperties": false, "properties": {
            "a": {"type": "string", "pattern": "^a$", "maxLength": 3},
            "b": {"type": "number"},
            "e": {"type": "string", "enum": ["x", "y"]}}});
        check(&doc(kept), &BTreeSet::new(), &Provenance::default()).unwrap();
        check(
            &doc(json!({"oneOf": [{"type": "string"}]})),
            &BTreeSet::from(["S"]),
            &Provenance::default(),
        )
        .unwrap();
    }

    #[test]
    fn refuses_inexpressible_integer_bounds_and_formats() {
        for (schema, keyword) in [
            (json!({"type": "integer", "minimum": 1}), "type"),
            (json!({"type": "number", "maximum": 5}), "maximum"),
            (json!({"type": "string", "format": "email"}), "format"),
            (json!({"type": "string", "format": "uri"}), "format"),
            (
                json!({"type": "string", "format": "date-time", "pattern": "Z$"}),
                "pattern",
            ),
        ] {
            let error = check(&doc(schema), &BTreeSet::new(), &Provenance::default()).unwrap_err();
            let error = error.problems()[0].to_string();
            assert!(
                error.starts_with(&format!("/components/schemas/S/{keyword} (schema S)")),
                "{error}"
            );
        }
    }
}

#[cfg(test)]
mod exclusivity {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_discriminator_beside_a_union_or_composition_is_a_hint_and_elsewhere_reported() {
        let union = json!({"oneOf": [{"type": "object"}, {"type": "string"}],
            "discriminator": {"propertyName": "kind"}});
        let document = json!({"components": {"schemas": {"S": union}}});
        check(&document, &BTreeSet::new(), &Provenance::default()).unwrap();
        for composed in [
            json!({"anyOf": [{"type": "object"}], "discriminator": {"propertyName": "kind"}}),
            json!({"allOf": [{"type": "object"}], "discriminator": {"propertyName": "kind"}}),
        ] {
            let document = json!({"components": {"schemas": {"S": composed}}});
            check(&document, &BTreeSet::new(), &Provenance::default()).unwrap();
        }
        let alone = json!({"type": "object", "discriminator": {"propertyName": "kind"}});
        let document = json!({"components": {"schemas": {"S": alone}}});
        let error = check(&document, &BTreeSet::new(), &Provenance::default()).unwrap_err();
        assert!(
            error.problems()[0].to_string().starts_with(
                "/components/schemas/S/discriminator (schema S): typify drops discriminators"
            ),
            "{error}"
        );
    }

    #[test]
    fn a_one_of_a_value_can_match_twice_is_enforced_by_the_first_fit_union() {
        // Two members a string can both match: emit's first-fit union refuses such a value
        // when strict (and reports an enum it cannot rewrite), so coverage does not.
        let schema = json!({"oneOf": [{"type": "string"}, {"type": "string", "maxLength": 3}]});
        let document = json!({"components": {"schemas": {"S": schema}}});
        check(&document, &BTreeSet::new(), &Provenance::default()).unwrap();
    }
}

#[cfg(test)]
mod every_problem {
    use serde_json::json;

    use super::*;

    #[test]
    fn reports_every_unenforced_rule_inline_included_at_its_source_pointer() {
        let source = json!({"openapi": "3.1.0", "info": {"title": "t", "version": "1"},
            "paths": {"/a": {"post": {"operationId": "make",
                "requestBody": {"content": {"application/json": {"schema": {"type": "object",
                    "properties": {"ports": {"type": "array", "maxItems": 2, "items": {"type": "string"}},
                        "names": {"propertyNames": {"pattern": "^a"}, "additionalProperties": {"type": "string"}}}}}}},
                "responses": {"204": {"description": "d"}}}}},
            "components": {"schemas": {"S": {"allOf": [{"type": "string"}], "$ref": "#/components/schemas/T", "anyOf": [{"type": "null"}, {"type": "number", "minimum": 1}]},
                "T": {"type": "string"}}}});
        let (down, provenance) = crate::downlevel::downlevel_traced(&source).unwrap();
        let error = check(&down, &BTreeSet::new(), &provenance).unwrap_err();
        let pointers: Vec<String> = error
            .problems()
            .into_iter()
            .map(|problem| match problem {
                Error::Unenforced { pointer, owner, .. } => format!("{owner} {pointer}"),
                other => other.to_string(),
            })
            .collect();
        assert_eq!(
            pointers,
            [
                "schema S /components/schemas/S/anyOf/1/minimum",
                "operation make /paths/~1a/post/requestBody/content/application~1json/schema/properties/ports/maxItems",
                "operation make /paths/~1a/post/requestBody/content/application~1json/schema/properties/names/propertyNames",
            ]
        );
    }

    #[test]
    fn members_of_distinct_types_are_exclusive_without_a_patch() {
        let doc = |schema: Value| json!({"components": {"schemas": {"S": schema}}});
        let disjoint = doc(json!({"oneOf": [{"type": "string"}, {"type": "array", "items": {}}]}));
        assert!(check(&disjoint, &BTreeSet::new(), &Provenance::default()).is_ok());
        // `2` is both an integer and a number.
        let overlapping = doc(json!({"oneOf": [{"type": "integer"}, {"type": "number"}]}));
        assert!(check(&overlapping, &BTreeSet::new(), &Provenance::default()).is_err());
    }
}
