//! The change report over a table of spec changes: each row a small edit of one small
//! document, generated before and after like the hub client (builder interface), and the
//! classes its report must give on the wire and for Rust users, the rules it must name and the
//! version bump it must end with. The first three rows are issue 42's (an optional property
//! added to a response record, an enum value removed, an operation added under a new tag).

use hub_api_codegen::changes::{Bump, Class, Inputs, Report};
use hub_api_codegen::{Input, generate};
use serde_json::{Value, json};

/// The document every row edits: a response record, a request record, an enum both use, a
/// listing with an optional query parameter.
fn base() -> Value {
    let json_body = |schema: Value| json!({"content": {"application/json": {"schema": schema}}});
    let ok = |schema: Value| {
        let mut response = json_body(schema);
        response["description"] = json!("OK");
        json!({"200": response})
    };
    json!({
        "openapi": "3.1.0",
        "info": {"title": "hub", "version": "1.0.0"},
        "tags": [{"name": "webhooks"}, {"name": "jobs"}],
        "paths": {
            "/api/webhooks": {
                "get": {
                    "operationId": "listWebhooks", "tags": ["webhooks"],
                    "parameters": [{"name": "p", "in": "query", "schema": {"type": "integer", "minimum": 0}}],
                    "responses": ok(json!({"type": "array", "items": {"$ref": "#/components/schemas/Webhook"}}))
                },
                "post": {
                    "operationId": "createWebhook", "tags": ["webhooks"],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WebhookRequest"}}}},
                    "responses": ok(json!({"$ref": "#/components/schemas/Webhook"}))
                }
            },
            "/api/jobs": {
                "post": {
                    "operationId": "createJob", "tags": ["jobs"],
                    "requestBody": {"required": true, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/JobRequest"}}}},
                    "responses": ok(json!({"$ref": "#/components/schemas/Job"}))
                }
            }
        },
        "components": {"schemas": {
            "Webhook": {"type": "object", "required": ["id", "url"], "properties": {
                "id": {"type": "string"}, "url": {"type": "string"}}},
            "WebhookRequest": {"type": "object", "required": ["url"], "properties": {
                "url": {"type": "string"}, "secret": {"type": "string"}}},
            "Flavor": {"type": "string", "enum": ["cpu-basic", "t4-small", "inf2x6"]},
            "JobRequest": {"type": "object", "required": ["flavor"], "properties": {
                "flavor": {"$ref": "#/components/schemas/Flavor"}}},
            "Job": {"type": "object", "required": ["id", "flavor"], "properties": {
                "id": {"type": "string"}, "flavor": {"$ref": "#/components/schemas/Flavor"}}}
        }}
    })
}

/// One row: the edit, the worst class on the wire and in Rust (`None`: no change there), rules
/// the report must name, and the bump.
struct Row {
    change: &'static str,
    edit: fn(&mut Value),
    wire: Option<Class>,
    rust: Option<Class>,
    rules: &'static [&'static str],
    bump: Bump,
}

const ROWS: &[Row] = &[
    Row {
        change: "optional createdAt added to the response record Webhook",
        edit: |spec| {
            spec["components"]["schemas"]["Webhook"]["properties"]["createdAt"] =
                json!({"type": "string"})
        },
        // A record the API sends is `#[non_exhaustive]`: users build it with its builder, so
        // a field more is a minor change.
        wire: Some(Class::Additive),
        rust: Some(Class::Additive),
        rules: &[
            "response-optional-property-added",
            "minor: #[non_exhaustive] item gains a member",
        ],
        bump: Bump::Minor,
    },
    Row {
        change: "enum value inf2x6 removed from Flavor",
        edit: |spec| {
            spec["components"]["schemas"]["Flavor"]["enum"] = json!(["cpu-basic", "t4-small"])
        },
        wire: Some(Class::Breaking),
        rust: Some(Class::Breaking),
        rules: &[
            "request-property-enum-value-removed",
            "enum_variant_missing",
        ],
        bump: Bump::Major,
    },
    Row {
        change: "GET /api/whoami-v2 added under a new tag",
        edit: |spec| {
            spec["tags"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": "users"}));
            spec["paths"]["/api/whoami-v2"] = json!({"get": {
                "operationId": "getWhoamiV2", "tags": ["users"],
                "responses": {"200": {"description": "OK", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Whoami"}}}}}
            }});
            spec["components"]["schemas"]["Whoami"] = json!({"type": "object",
                "required": ["name"], "properties": {"name": {"type": "string"}}});
        },
        wire: Some(Class::Additive),
        rust: Some(Class::Additive),
        rules: &["endpoint-added", "minor: item added"],
        bump: Bump::Minor,
    },
    Row {
        change: "operation createJob removed",
        edit: |spec| {
            spec["paths"].as_object_mut().unwrap().remove("/api/jobs");
        },
        wire: Some(Class::Breaking),
        rust: Some(Class::Breaking),
        rules: &["api-removed-without-deprecation", "inherent_method_missing"],
        bump: Bump::Major,
    },
    Row {
        change: "required request property events added to WebhookRequest",
        edit: |spec| {
            let request = &mut spec["components"]["schemas"]["WebhookRequest"];
            request["properties"]["events"] = json!({"type": "array", "items": {"type": "string"}});
            request["required"] = json!(["url", "events"]);
        },
        wire: Some(Class::Breaking),
        rust: Some(Class::Breaking),
        rules: &[
            "new-required-request-property",
            "constructible_struct_adds_field",
        ],
        bump: Bump::Major,
    },
    Row {
        change: "optional request property secretHint added to WebhookRequest",
        edit: |spec| {
            spec["components"]["schemas"]["WebhookRequest"]["properties"]["secretHint"] =
                json!({"type": "string"})
        },
        // A record only requests use stays constructible with a literal, so a field more
        // breaks that literal.
        wire: Some(Class::Additive),
        rust: Some(Class::Breaking),
        rules: &["constructible_struct_adds_field"],
        bump: Bump::Major,
    },
    Row {
        change: "response property url removed from Webhook",
        edit: |spec| {
            let record = &mut spec["components"]["schemas"]["Webhook"];
            record["properties"].as_object_mut().unwrap().remove("url");
            record["required"] = json!(["id"]);
        },
        wire: Some(Class::Breaking),
        rust: Some(Class::Breaking),
        rules: &[
            "response-required-property-removed",
            "struct_pub_field_missing",
        ],
        bump: Bump::Major,
    },
    Row {
        change: "Job.id from string to integer",
        edit: |spec| {
            spec["components"]["schemas"]["Job"]["properties"]["id"] = json!({"type": "integer"})
        },
        wire: Some(Class::Breaking),
        rust: Some(Class::Breaking),
        rules: &["response-property-type-changed", "major: type changed"],
        bump: Bump::Major,
    },
    Row {
        change: "optional query parameter q added to listWebhooks",
        edit: |spec| {
            spec["paths"]["/api/webhooks"]["get"]["parameters"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": "q", "in": "query", "schema": {"type": "string"}}))
        },
        wire: Some(Class::Additive),
        rust: Some(Class::Additive),
        rules: &["new-optional-request-parameter", "minor: item added"],
        bump: Bump::Minor,
    },
    Row {
        change: "required query parameter owner added to listWebhooks",
        edit: |spec| {
            spec["paths"]["/api/webhooks"]["get"]["parameters"]
                .as_array_mut()
                .unwrap()
                .push(json!({"name": "owner", "in": "query", "required": true, "schema": {"type": "string"}}))
        },
        // A builder gains a setter, which compiles; the request without it fails at run time,
        // which the wire line says.
        wire: Some(Class::Breaking),
        rust: Some(Class::Additive),
        rules: &["new-required-request-parameter", "minor: item added"],
        bump: Bump::Major,
    },
    Row {
        change: "enum value h200 added to Flavor (an enum responses carry, so tolerant)",
        edit: |spec| {
            spec["components"]["schemas"]["Flavor"]["enum"] =
                json!(["cpu-basic", "t4-small", "inf2x6", "h200"])
        },
        wire: Some(Class::Additive),
        rust: Some(Class::Additive),
        rules: &[
            "request-property-enum-value-added",
            "minor: #[non_exhaustive] item gains a member",
        ],
        bump: Bump::Minor,
    },
];

fn surface(spec: &Value) -> String {
    let text = serde_json::to_string_pretty(spec).unwrap();
    generate(&Input {
        spec_text: &text,
        spec_name: "openapi.json",
        patches: &[],
        module_path: "crate::generated",
    })
    .unwrap_or_else(|error| panic!("{error}"))
    .surface
}

/// The hand-written client of the table: it wraps every operation of the base document.
fn wrappers() -> Vec<String> {
    vec![
        "self.api().list_webhooks().send(); self.api().create_webhook(); self.api().create_job()"
            .to_owned(),
    ]
}

fn report(old: &Value, old_surface: &str, new: &Value) -> Report {
    let (old_text, new_text) = (old.to_string(), new.to_string());
    let new_surface = surface(new);
    Report::build(&Inputs {
        old_spec: &old_text,
        new_spec: &new_text,
        old_surface,
        new_surface: &new_surface,
        wrapper_sources: &wrappers(),
    })
    .unwrap()
}

#[test]
fn each_spec_change_is_classed_on_the_wire_and_for_rust_users() {
    let old = base();
    let old_surface = surface(&old);
    let mut failures = Vec::new();
    for row in ROWS {
        let mut new = base();
        (row.edit)(&mut new);
        let report = report(&old, &old_surface, &new);
        let worst = |area: &str| {
            report
                .changes
                .iter()
                .filter(|change| format!("{:?}", change.area).eq_ignore_ascii_case(area))
                .map(|change| change.class)
                .min()
        };
        let text = report.render_text();
        let mut problems = Vec::new();
        if worst("wire") != row.wire {
            problems.push(format!("wire {:?}, expected {:?}", worst("wire"), row.wire));
        }
        if worst("rust") != row.rust {
            problems.push(format!("rust {:?}, expected {:?}", worst("rust"), row.rust));
        }
        for rule in row.rules {
            if !report.changes.iter().any(|change| change.rule == *rule) {
                problems.push(format!("no change by rule `{rule}`"));
            }
        }
        if report.bump() != row.bump {
            problems.push(format!("bump {:?}, expected {:?}", report.bump(), row.bump));
        }
        if !problems.is_empty() {
            failures.push(format!("{}: {}\n{text}", row.change, problems.join("; ")));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_issue_rows_read_as_a_reviewer_needs() {
    let old = base();
    let old_surface = surface(&old);
    let mut new = base();
    for row in &ROWS[..3] {
        (row.edit)(&mut new);
    }
    let text = report(&old, &old_surface, &new).render_text();
    println!("{text}");
    for line in [
        "wire additive   schema Webhook: `createdAt` added (optional) [response-optional-property-added]",
        "wire BREAKING   schema Flavor: enum value \"inf2x6\" removed [request-property-enum-value-removed]",
        "wire additive   GET /api/whoami-v2 (getWhoamiV2): operation added [endpoint-added]",
        "rust additive   struct Webhook: field `created_at` added [minor: #[non_exhaustive] item gains a member]",
        "rust BREAKING   enum Flavor: variant `Inf2x6` removed [enum_variant_missing]",
        "rust additive   Client::get_whoami_v2: method added (getWhoamiV2: GET /api/whoami-v2) [minor: item added]",
        "client: hub_api::Client has no wrapper for getWhoamiV2 (generated().get_whoami_v2()), new in this change",
        "version bump: major",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
}

#[test]
fn the_same_spec_and_surface_report_no_change() {
    let old = base();
    let old_surface = surface(&old);
    let report = report(&old, &old_surface, &old);
    assert!(report.changes.is_empty(), "{}", report.render_text());
    assert_eq!(report.bump(), Bump::None);
    assert!(report.unwrapped.is_empty());
}
