//! Checks of `spec/openapi.yaml` itself: every `$ref` resolves, every example (component,
//! request, response and parameter) is valid under its schema with a JSON Schema 2020-12
//! validator, and every rule of the service description is present at its JSON pointer, so a
//! rule dropped from the spec fails here by name.
//!
//! Which examples and descriptions the spec must carry is not decided here: that is
//! `hub_api_codegen::conventions`, which `cargo xtask regen` enforces before it generates (and
//! codegen's `hub_spec` test on the checked-in spec), so that regen and these tests agree on
//! what a valid spec is. A component or a response without examples is valid (nothing sends
//! or needs them); one that has them must be right. A value added to an enum the description
//! pins is valid too: only a pinned value that is gone fails.

use serde_json::{Value, json};

fn spec() -> Value {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/openapi.yaml")).unwrap();
    serde_norway::from_str(&text).unwrap()
}

/// A validator for `schema` (inline or a `$ref`) in the context of the spec's components.
fn validator(spec: &Value, schema: &Value) -> jsonschema::Validator {
    let mut root = schema.clone();
    if let Value::Object(map) = &mut root {
        map.insert("components".into(), spec["components"].clone());
    }
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|error| panic!("schema does not compile: {error}\n{schema}"))
}

fn walk<'a>(value: &'a Value, at: String, visit: &mut impl FnMut(&str, &'a Value)) {
    visit(&at, value);
    match value {
        Value::Object(map) => map.iter().for_each(|(key, child)| {
            walk(
                child,
                format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")),
                visit,
            )
        }),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .for_each(|(index, child)| walk(child, format!("{at}/{index}"), visit)),
        _ => {}
    }
}

#[test]
fn every_ref_resolves() {
    let spec = spec();
    let mut refs = 0;
    walk(&spec, String::new(), &mut |at, value| {
        if let Some(reference) = value.get("$ref").and_then(Value::as_str) {
            refs += 1;
            let pointer = reference
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("{at}: `{reference}` is not local"));
            assert!(
                spec.pointer(pointer).is_some(),
                "{at}: `{reference}` does not resolve"
            );
        }
    });
    assert!(
        refs > 100,
        "only {refs} references found; is the walk broken?"
    );
}

#[test]
fn every_example_is_valid_under_its_schema() {
    let spec = spec();
    let mut checked = 0;
    let mut check = |what: String, schema: &Value, example: &Value| {
        let validator = validator(&spec, schema);
        let errors: Vec<String> = validator
            .iter_errors(example)
            .map(|error| format!("{error} at {}", error.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{what}: example is invalid: {errors:?}\n{example}"
        );
        checked += 1;
    };

    let components = spec["components"]["schemas"].as_object().unwrap();
    for (name, schema) in components {
        for example in schema
            .get("examples")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            check(
                format!("component {name}"),
                &json!({"$ref": format!("#/components/schemas/{name}")}),
                example,
            );
        }
    }
    for (name, parameter) in spec["components"]["parameters"].as_object().unwrap() {
        if let Some(example) = parameter.get("example") {
            check(format!("parameter {name}"), &parameter["schema"], example);
        }
    }

    let mut operations = 0;
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, operation) in item
            .as_object()
            .unwrap()
            .iter()
            .filter(|(key, _)| *key != "parameters")
        {
            operations += 1;
            let id = operation["operationId"].as_str().unwrap();
            let mut media = Vec::new();
            if let Some(content) = operation
                .pointer("/requestBody/content")
                .and_then(Value::as_object)
            {
                media.extend(content.values());
            }
            for response in operation["responses"].as_object().unwrap().values() {
                if let Some(content) = response.get("content").and_then(Value::as_object) {
                    media.extend(content.values());
                }
            }
            for media in media {
                for (example_name, example) in media
                    .get("examples")
                    .and_then(Value::as_object)
                    .into_iter()
                    .flatten()
                {
                    check(
                        format!(
                            "{id} ({} {path}) example {example_name}",
                            method.to_uppercase()
                        ),
                        &media["schema"],
                        &example["value"],
                    );
                }
            }
            for parameter in operation
                .get("parameters")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(example) = parameter.get("example") {
                    check(
                        format!("{id} parameter {}", parameter["name"]),
                        &parameter["schema"],
                        example,
                    );
                }
            }
        }
    }
    // The description's 15 operations are each pinned in `RULES`; an operation added to the
    // spec is not an error here (the change report says what it means).
    assert!(operations >= 15, "only {operations} operations found");
    println!(
        "spec: {checked} examples valid over {} components and {operations} operations",
        components.len()
    );
}

/// Every rule of `shared/api-description.md` the spec encodes, where it encodes it.
const RULES: &[(&str, &str, &str)] = &[
    // Document.
    ("OpenAPI 3.1.0", "/openapi", r#""3.1.0""#),
    ("interface version 0.0.1", "/info/version", r#""0.0.1""#),
    (
        "paths are relative to {base_url}",
        "/servers/0/url",
        r#""{base_url}""#,
    ),
    (
        "bearer authentication by default",
        "/security",
        r#"[{"bearerAuth": []}]"#,
    ),
    (
        "bearer scheme",
        "/components/securitySchemes/bearerAuth/scheme",
        r#""bearer""#,
    ),
    (
        "revocation needs no authentication",
        "/paths/~1api~1credentials~1revoke/post/security",
        "[]",
    ),
    // Operations.
    (
        "listNotifications",
        "/paths/~1api~1notifications/get/operationId",
        r#""listNotifications""#,
    ),
    (
        "deleteNotifications",
        "/paths/~1api~1notifications/delete/operationId",
        r#""deleteNotifications""#,
    ),
    (
        "markNotificationsAsRead",
        "/paths/~1api~1notifications~1mark-as-read/post/operationId",
        r#""markNotificationsAsRead""#,
    ),
    (
        "updateNotificationSettings",
        "/paths/~1api~1settings~1notifications/patch/operationId",
        r#""updateNotificationSettings""#,
    ),
    (
        "updateWatchSettings",
        "/paths/~1api~1settings~1watch/patch/operationId",
        r#""updateWatchSettings""#,
    ),
    (
        "revokeCredentials",
        "/paths/~1api~1credentials~1revoke/post/operationId",
        r#""revokeCredentials""#,
    ),
    (
        "getMcpSettings",
        "/paths/~1api~1settings~1mcp/get/operationId",
        r#""getMcpSettings""#,
    ),
    (
        "listWebhooks",
        "/paths/~1api~1settings~1webhooks/get/operationId",
        r#""listWebhooks""#,
    ),
    (
        "createWebhook",
        "/paths/~1api~1settings~1webhooks/post/operationId",
        r#""createWebhook""#,
    ),
    (
        "getWebhook",
        "/paths/~1api~1settings~1webhooks~1{webhookId}/get/operationId",
        r#""getWebhook""#,
    ),
    (
        "updateWebhook",
        "/paths/~1api~1settings~1webhooks~1{webhookId}/post/operationId",
        r#""updateWebhook""#,
    ),
    (
        "deleteWebhook (public hub)",
        "/paths/~1api~1settings~1webhooks~1{webhookId}/delete/x-source",
        r#""public-hub""#,
    ),
    (
        "enableWebhook (public hub)",
        "/paths/~1api~1settings~1webhooks~1{webhookId}~1enable/post/x-source",
        r#""public-hub""#,
    ),
    (
        "disableWebhook (public hub)",
        "/paths/~1api~1settings~1webhooks~1{webhookId}~1disable/post/x-source",
        r#""public-hub""#,
    ),
    (
        "getStorageAccessToken",
        "/paths/~1api~1{repo_type}s~1{namespace}~1{repo}~1cas-{token_type}-token~1{revision}/get/operationId",
        r#""getStorageAccessToken""#,
    ),
    (
        "revocation answers 202",
        "/paths/~1api~1credentials~1revoke/post/responses/202/description",
        r#""Accepted, whether or not any token existed. The body is not described.""#,
    ),
    (
        "storage token 401",
        "/paths/~1api~1{repo_type}s~1{namespace}~1{repo}~1cas-{token_type}-token~1{revision}/get/responses/401/description",
        r#""The hub token is invalid or missing.""#,
    ),
    (
        "storage token 403",
        "/paths/~1api~1{repo_type}s~1{namespace}~1{repo}~1cas-{token_type}-token~1{revision}/get/responses/403/description",
        r#""The hub token lacks the permission the requested token type needs.""#,
    ),
    (
        "storage token 404",
        "/paths/~1api~1{repo_type}s~1{namespace}~1{repo}~1cas-{token_type}-token~1{revision}/get/responses/404/description",
        r#""The repository or revision does not exist.""#,
    ),
    // Shared scalars.
    (
        "<oid> is 24 lowercase hex",
        "/components/schemas/ObjectId/pattern",
        r#""^[0-9a-f]{24}$""#,
    ),
    (
        "hex ids in either case",
        "/components/schemas/HexId/pattern",
        r#""^[0-9a-fA-F]{24}$""#,
    ),
    (
        "timestamps are UTC ending in Z",
        "/components/schemas/Timestamp/pattern",
        r#""^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?Z$""#,
    ),
    (
        "timestamps are date-time",
        "/components/schemas/Timestamp/format",
        r#""date-time""#,
    ),
    (
        "repository types",
        "/components/schemas/RepoType/enum",
        r#"["dataset", "model", "space", "bucket", "kernel", "container"]"#,
    ),
    (
        "RepoId: no additional properties",
        "/components/schemas/RepoId/additionalProperties",
        "false",
    ),
    (
        "RepoId: name and type required",
        "/components/schemas/RepoId/required",
        r#"["name", "type"]"#,
    ),
    (
        "Participant fields required",
        "/components/schemas/Participant/required",
        r#"["_id", "avatar", "user"]"#,
    ),
    // Notification query parameters.
    ("p from 0", "/components/schemas/PageNumber/minimum", "0"),
    (
        "p up to 9007199254740991",
        "/components/schemas/PageNumber/maximum",
        "9007199254740991",
    ),
    (
        "p defaults to 0",
        "/components/schemas/PageNumber/default",
        "0",
    ),
    (
        "readStatus is the shared ReadStatus schema",
        "/components/parameters/ReadStatus/schema/$ref",
        r##""#/components/schemas/ReadStatus""##,
    ),
    (
        "readStatus values",
        "/components/schemas/ReadStatus/enum",
        r#"["all", "unread"]"#,
    ),
    (
        "readStatus defaults to all",
        "/components/schemas/ReadStatus/default",
        r#""all""#,
    ),
    (
        "mention is the shared Mention schema",
        "/components/parameters/Mention/schema/$ref",
        r##""#/components/schemas/Mention""##,
    ),
    (
        "mention values",
        "/components/schemas/Mention/enum",
        r#"["all", "participating", "mentions"]"#,
    ),
    (
        "mention defaults to all",
        "/components/schemas/Mention/default",
        r#""all""#,
    ),
    (
        "lastUpdate is a date-time",
        "/components/parameters/LastUpdate/schema/$ref",
        r##""#/components/schemas/Timestamp""##,
    ),
    // Notifications.
    (
        "Notification: discriminated by type",
        "/components/schemas/Notification/discriminator/propertyName",
        r#""type""#,
    ),
    (
        "paper variant tag",
        "/components/schemas/PaperNotification/properties/type/const",
        r#""paper""#,
    ),
    (
        "repo variant tag",
        "/components/schemas/RepoNotification/properties/type/const",
        r#""repo""#,
    ),
    (
        "post variant tag",
        "/components/schemas/PostNotification/properties/type/const",
        r#""post""#,
    ),
    (
        "community_blog variant tag",
        "/components/schemas/CommunityBlogNotification/properties/type/const",
        r#""community_blog""#,
    ),
    (
        "paper variant: closed",
        "/components/schemas/PaperNotification/additionalProperties",
        "false",
    ),
    (
        "repo variant: closed",
        "/components/schemas/RepoNotification/additionalProperties",
        "false",
    ),
    (
        "post variant: closed",
        "/components/schemas/PostNotification/additionalProperties",
        "false",
    ),
    (
        "community_blog variant: closed",
        "/components/schemas/CommunityBlogNotification/additionalProperties",
        "false",
    ),
    (
        "paper variant: required",
        "/components/schemas/PaperNotification/required",
        r#"["type", "updatedAt", "read", "paper", "paperDiscussion"]"#,
    ),
    (
        "repo variant: required",
        "/components/schemas/RepoNotification/required",
        r#"["type", "updatedAt", "read", "repo", "discussion"]"#,
    ),
    (
        "post variant: required",
        "/components/schemas/PostNotification/required",
        r#"["type", "updatedAt", "read", "post"]"#,
    ),
    (
        "post fields all required",
        "/components/schemas/PostNotification/properties/post/required",
        r#"["id", "slug", "authorName", "title", "participating"]"#,
    ),
    (
        "blog authorName optional",
        "/components/schemas/CommunityBlogNotification/properties/blog/required",
        r#"["id", "slug", "title", "canonical", "participating"]"#,
    ),
    (
        "discussion status values",
        "/components/schemas/DiscussionStatus/enum",
        r#"["draft", "open", "closed", "merged"]"#,
    ),
    (
        "notification list: all three required",
        "/components/schemas/NotificationList/required",
        r#"["notifications", "count", "start"]"#,
    ),
    (
        "delete body: at least one discussion id",
        "/components/schemas/DiscussionIds/minItems",
        "1",
    ),
    (
        "delete body: hex ids either case",
        "/components/schemas/DiscussionIds/items/$ref",
        r##""#/components/schemas/HexId""##,
    ),
    (
        "delete body is optional",
        "/paths/~1api~1notifications/delete/requestBody/required",
        "false",
    ),
    (
        "mark-as-read: ids default empty",
        "/components/schemas/MarkAsReadRequest/properties/discussionIds/default",
        "[]",
    ),
    (
        "mark-as-read: read defaults to true",
        "/components/schemas/MarkAsReadRequest/properties/read/default",
        "true",
    ),
    // Settings.
    (
        "notification settings required",
        "/components/schemas/NotificationSettingsRequest/required",
        r#"["notifications"]"#,
    ),
    (
        "prepaidAmount at most 24 characters",
        "/components/schemas/NotificationSettingsRequest/properties/prepaidAmount/maxLength",
        "24",
    ),
    (
        "product_updates_after is a date-time",
        "/components/schemas/NotificationSettings/properties/product_updates_after/$ref",
        r##""#/components/schemas/Timestamp""##,
    ),
    (
        "watch: add defaults empty",
        "/components/schemas/WatchSettingsRequest/properties/add/default",
        "[]",
    ),
    (
        "watch: delete defaults empty",
        "/components/schemas/WatchSettingsRequest/properties/delete/default",
        "[]",
    ),
    (
        "watch target types",
        "/components/schemas/WatchTarget/properties/type/enum",
        r#"["org", "user", "repo"]"#,
    ),
    (
        "watch target: both required",
        "/components/schemas/WatchTarget/required",
        r#"["id", "type"]"#,
    ),
    (
        "MCP settings required",
        "/components/schemas/McpSettings/required",
        r#"["builtInTools", "spaceTools"]"#,
    ),
    (
        "MCP space tool fields required",
        "/components/schemas/McpSpaceTool/required",
        r#"["_id", "name", "emoji", "subdomain"]"#,
    ),
    // Revocation.
    (
        "credentials required",
        "/components/schemas/RevokeCredentialsRequest/required",
        r#"["credentials"]"#,
    ),
    (
        "at least 1 credential",
        "/components/schemas/Credentials/minItems",
        "1",
    ),
    (
        "at most 1000 credentials",
        "/components/schemas/Credentials/maxItems",
        "1000",
    ),
    (
        "credential at least 1 character",
        "/components/schemas/Credential/minLength",
        "1",
    ),
    (
        "credential at most 200 characters",
        "/components/schemas/Credential/maxLength",
        "200",
    ),
    // Jobs.
    (
        "the 29 flavors (more may follow)",
        "/components/schemas/Flavor/enum",
        r#"["cpu-basic", "cpu-upgrade", "cpu-performance", "cpu-xl", "sprx8", "zero-a10g", "t4-small", "t4-medium", "l4x1", "l4x4", "l40sx1", "l40sx4", "l40sx8", "a10g-small", "a10g-large", "a10g-largex2", "a10g-largex4", "a100-large", "a100x4", "a100x8", "h200", "h200x2", "h200x4", "h200x8", "rtx-pro-6000", "rtx-pro-6000x2", "rtx-pro-6000x4", "rtx-pro-6000x8", "inf2x6"]"#,
    ),
    (
        "job stages",
        "/components/schemas/JobStage/enum",
        r#"["COMPLETED", "CANCELED", "ERROR", "DELETED", "RUNNING", "SCHEDULING"]"#,
    ),
    (
        "arch values",
        "/components/schemas/Arch/enum",
        r#"["amd64", "arm64"]"#,
    ),
    (
        "job record required",
        "/components/schemas/Job/required",
        r#"["id", "createdAt", "owner", "environment", "flavor", "status", "createdBy"]"#,
    ),
    (
        "job record: closed",
        "/components/schemas/Job/additionalProperties",
        "false",
    ),
    (
        "job secrets: values are null",
        "/components/schemas/Job/properties/secrets/additionalProperties/type",
        r#""null""#,
    ),
    (
        "job owner: both required",
        "/components/schemas/JobIdentity/required",
        r#"["id", "name"]"#,
    ),
    (
        "job status: stage and message required",
        "/components/schemas/JobStatus/required",
        r#"["stage", "message"]"#,
    ),
    (
        "job status message: string or null",
        "/components/schemas/JobStatus/properties/message/type",
        r#"["string", "null"]"#,
    ),
    (
        "volume: type, source, mountPath required",
        "/components/schemas/Volume/required",
        r#"["type", "source", "mountPath"]"#,
    ),
    (
        "volume types in requests",
        "/components/schemas/VolumeRequest/properties/type/enum",
        r#"["bucket", "model", "dataset", "space"]"#,
    ),
    (
        "mountPath is absolute",
        "/components/schemas/MountPath/pattern",
        r#""^/""#,
    ),
    (
        "expose: ports required",
        "/components/schemas/Expose/required",
        r#"["ports"]"#,
    ),
    (
        "at most 20 ports",
        "/components/schemas/Ports/maxItems",
        "20",
    ),
    ("ports from 1", "/components/schemas/Port/minimum", "1"),
    (
        "ports up to 65535",
        "/components/schemas/Port/maximum",
        "65535",
    ),
    (
        "network group at most 46 characters",
        "/components/schemas/NetworkGroup/maxLength",
        "46",
    ),
    (
        "network group characters",
        "/components/schemas/NetworkGroup/pattern",
        r#""^[a-z0-9]([a-z0-9-]*[a-z0-9])?$""#,
    ),
    (
        "network alias at most 34 characters",
        "/components/schemas/NetworkAlias/maxLength",
        "34",
    ),
    (
        "network alias characters",
        "/components/schemas/NetworkAlias/pattern",
        r#""^[a-z0-9]([a-z0-9-]*[a-z0-9])?$""#,
    ),
    (
        "at most 20 aliases",
        "/components/schemas/NetworkAliases/maxItems",
        "20",
    ),
    (
        "network record: group and aliases",
        "/components/schemas/Network/required",
        r#"["group", "aliases"]"#,
    ),
    (
        "network request: group",
        "/components/schemas/NetworkRequest/required",
        r#"["group"]"#,
    ),
    (
        "network request: aliases default empty",
        "/components/schemas/NetworkRequest/properties/aliases/default",
        "[]",
    ),
    // Webhook jobs.
    (
        "environment keys",
        "/components/schemas/EnvironmentMap/propertyNames/pattern",
        r#""^[A-Za-z][A-Za-z0-9_]+$""#,
    ),
    (
        "secret keys",
        "/components/schemas/SecretMap/propertyNames/pattern",
        r#""^[A-Za-z][A-Za-z0-9_]+$""#,
    ),
    (
        "label keys",
        "/components/schemas/LabelMap/propertyNames/pattern",
        r#""^[A-Za-z0-9_-]{1,100}$""#,
    ),
    (
        "label values",
        "/components/schemas/LabelValue/pattern",
        r#""^[A-Za-z0-9_-]{0,100}$""#,
    ),
    (
        "command: at least 1 item",
        "/components/schemas/Command/minItems",
        "1",
    ),
    (
        "command items non-empty",
        "/components/schemas/NonEmptyString/minLength",
        "1",
    ),
    (
        "timeoutSeconds greater than 0",
        "/components/schemas/TimeoutSeconds/exclusiveMinimum",
        "0",
    ),
    (
        "timeoutSeconds null by default",
        "/components/schemas/WebhookJobRequestFromSpace/properties/timeoutSeconds/default",
        "null",
    ),
    (
        "attempts at least 1",
        "/components/schemas/Attempts/minimum",
        "1",
    ),
    (
        "attempts default 1",
        "/components/schemas/Attempts/default",
        "1",
    ),
    (
        "at least 1 volume",
        "/components/schemas/VolumeRequests/minItems",
        "1",
    ),
    (
        "ssh disabled by default",
        "/components/schemas/SshRequest/properties/enabled/default",
        "false",
    ),
    (
        "resourceGroupId is hex",
        "/components/schemas/WebhookJobRequestFromImage/properties/resourceGroupId/$ref",
        r##""#/components/schemas/HexId""##,
    ),
    (
        "webhook job from a space",
        "/components/schemas/WebhookJobFromSpace/required",
        r#"["spaceId", "environment", "flavor", "timeoutSeconds"]"#,
    ),
    (
        "webhook job from an image",
        "/components/schemas/WebhookJobFromImage/required",
        r#"["dockerImage", "environment", "flavor", "timeoutSeconds"]"#,
    ),
    (
        "webhook job: closed",
        "/components/schemas/WebhookJobFromImage/additionalProperties",
        "false",
    ),
    (
        "spaceId non-empty",
        "/components/schemas/WebhookJobFromSpace/properties/spaceId/minLength",
        "1",
    ),
    (
        "requested job from a space",
        "/components/schemas/WebhookJobRequestFromSpace/required",
        r#"["spaceId", "flavor"]"#,
    ),
    (
        "requested job from an image",
        "/components/schemas/WebhookJobRequestFromImage/required",
        r#"["dockerImage", "flavor"]"#,
    ),
    // Webhooks.
    (
        "webhook record required",
        "/components/schemas/Webhook/required",
        r#"["id", "disabled", "watched", "hasSecret", "domains"]"#,
    ),
    (
        "webhook record: closed",
        "/components/schemas/Webhook/additionalProperties",
        "false",
    ),
    (
        "webhook disabled: boolean or suspended-after-failure",
        "/components/schemas/WebhookDisabled/oneOf",
        r#"[{"type": "boolean"}, {"const": "suspended-after-failure"}]"#,
    ),
    (
        "webhook url is a URI",
        "/components/schemas/Uri/format",
        r#""uri""#,
    ),
    (
        "watched types",
        "/components/schemas/WatchedType/enum",
        r#"["dataset", "model", "space", "bucket", "kernel", "container", "user", "org"]"#,
    ),
    (
        "domains",
        "/components/schemas/WebhookDomain/enum",
        r#"["repo", "discussion"]"#,
    ),
    (
        "request: watched and domains required",
        "/components/schemas/WebhookRequest/required",
        r#"["watched", "domains"]"#,
    ),
    (
        "request: at least 1 watched",
        "/components/schemas/WatchedItemRequests/minItems",
        "1",
    ),
    (
        "request: at least 1 domain",
        "/components/schemas/RequestedDomains/minItems",
        "1",
    ),
    (
        "webhook secret: 0x20 to 0x7F",
        "/components/schemas/WebhookSecret/pattern",
        r#""^[\\x20-\\x7F]*$""#,
    ),
    // Deliveries.
    (
        "payload: event and repo required",
        "/components/schemas/WebhookPayload/required",
        r#"["event", "repo"]"#,
    ),
    (
        "payload: event.action required",
        "/components/schemas/WebhookEvent/required",
        r#"["action"]"#,
    ),
    (
        "payload: repo.type required",
        "/components/schemas/WebhookPayloadRepo/required",
        r#"["type"]"#,
    ),
    (
        "payload: unknown fields allowed",
        "/components/schemas/WebhookPayload/additionalProperties",
        "{}",
    ),
    // Storage tokens.
    (
        "storage repo types",
        "/components/schemas/StorageRepoType/enum",
        r#"["model", "dataset", "space"]"#,
    ),
    (
        "storage token types",
        "/components/schemas/StorageTokenType/enum",
        r#"["read", "write"]"#,
    ),
    (
        "accessToken at most 64000 characters",
        "/components/schemas/StorageToken/maxLength",
        "64000",
    ),
    (
        "casUrl at most 64000 characters",
        "/components/schemas/StorageAccessToken/properties/casUrl/maxLength",
        "64000",
    ),
    // SCIM user attributes.
    (
        "SCIM userName is a string",
        "/components/schemas/ScimUser/properties/userName/type",
        r#""string""#,
    ),
    (
        "SCIM name is givenName and familyName",
        "/components/schemas/ScimUser/properties/name/$ref",
        r##""#/components/schemas/ScimUserName""##,
    ),
    (
        "SCIM name.givenName is a string",
        "/components/schemas/ScimUserName/properties/givenName/type",
        r#""string""#,
    ),
    (
        "SCIM name.familyName is a string",
        "/components/schemas/ScimUserName/properties/familyName/type",
        r#""string""#,
    ),
    (
        "SCIM emails is an array",
        "/components/schemas/ScimUser/properties/emails/type",
        r#""array""#,
    ),
    (
        "SCIM externalId is a string",
        "/components/schemas/ScimUser/properties/externalId/type",
        r#""string""#,
    ),
    (
        "SCIM id is a string",
        "/components/schemas/ScimUser/properties/id/type",
        r#""string""#,
    ),
    (
        "SCIM active is a boolean",
        "/components/schemas/ScimUser/properties/active/type",
        r#""boolean""#,
    ),
];

/// Whether `found` keeps the rule `expected` states at `pointer`: an equal value, or for an
/// `enum`, every pinned value still allowed (a value the hub adds is a new allowed value, not a
/// rule dropped).
fn keeps_rule(pointer: &str, found: &Value, expected: &Value) -> bool {
    match (found, expected) {
        (Value::Array(found), Value::Array(expected)) if pointer.ends_with("/enum") => {
            expected.iter().all(|value| found.contains(value))
        }
        _ => found == expected,
    }
}

#[test]
fn an_enum_rule_fails_on_a_removed_value_only() {
    let pinned = json!(["cpu-basic", "inf2x6"]);
    let pointer = "/components/schemas/Flavor/enum";
    assert!(keeps_rule(
        pointer,
        &json!(["cpu-basic", "inf2x6", "b200"]),
        &pinned
    ));
    assert!(!keeps_rule(pointer, &json!(["cpu-basic"]), &pinned));
    // Any other rule is the value itself.
    let required = "/components/schemas/Job/required";
    assert!(!keeps_rule(
        required,
        &json!(["id", "flavor"]),
        &json!(["id"])
    ));
}

#[test]
fn every_rule_of_the_description_is_in_the_spec() {
    let spec = spec();
    let mut missing = Vec::new();
    for (rule, pointer, expected) in RULES {
        let expected: Value = serde_json::from_str(expected)
            .unwrap_or_else(|error| panic!("{rule}: bad expectation: {error}"));
        match spec.pointer(pointer) {
            Some(found) if keeps_rule(pointer, found, &expected) => {}
            // An enum's values the description pins and the spec no longer allows, by name.
            Some(Value::Array(found)) if pointer.ends_with("/enum") => {
                let gone: Vec<String> = expected
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|value| !found.contains(value))
                    .map(Value::to_string)
                    .collect();
                missing.push(format!(
                    "{rule}: {pointer} no longer allows {}",
                    gone.join(", ")
                ));
            }
            found => missing.push(format!(
                "{rule}: {pointer} is {found:?}, expected {expected}"
            )),
        }
    }
    assert!(
        missing.is_empty(),
        "rules missing from the spec:\n{}",
        missing.join("\n")
    );
    println!(
        "spec: all {} rules of the description found at their pointers",
        RULES.len()
    );
}
