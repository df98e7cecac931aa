//! One small spec per construct of a real-world description (issue 14's table), under
//! `tests/fixtures/normalize_*.yaml`, run through the non-strict pipeline (`generate_module`).
//! Each fixture's report and generated Rust are snapshots; `hub-api-codegen-fixtures` compiles
//! every accepted Rust snapshot. Beside the snapshots, each fixture names what its report and
//! its code must contain, so a change that loses a repair fails here even before review.

use std::collections::BTreeSet;
use std::path::Path;

use hub_api_codegen::CrateOptions;
use hub_api_codegen::standalone::{generate_module, render_report};

/// Every fixture, with text its report must contain and text its generated Rust must contain.
const FIXTURES: &[(&str, &[&str], &[&str])] = &[
    (
        "normalize_dollar_schema",
        &[
            "repaired /paths/~1api~1settings/get/responses/200/content/application~1json/schema/$schema",
        ],
        &["pub theme: ::std::option::Option<::std::string::String>"],
    ),
    (
        "normalize_identical_schemas",
        &["0 rules not enforced, 0 left out"],
        &[
            "pub owner: Owner,",
            "pub struct Owner {",
            "Error<types::Error>",
            "pub struct Error {",
            "pub stars: ::std::option::Option<i64>,",
            "pub struct SettingsNotificationPreferencesWebhookDeliveryRetrySchedule {",
            "pub type NotificationPreferencesWebhookDeliveryRetryScheduleAttempts = BoundedInteger<",
        ],
    ),
    (
        "normalize_inline_schemas",
        &["named `post_repos_create`"],
        &[
            "pub struct PostReposCreateBody",
            "pub struct PostReposCreateBodyOptions",
            // A body only requests use, with a required field: built by `new`.
            "default_object!(new PostReposCreateBody(name : ::std::string::String) { options });",
        ],
    ),
    (
        "normalize_literal_set",
        &[],
        &["pub enum Sort", "pub enum Visibility"],
    ),
    (
        "normalize_lookahead",
        &["unenforced /components/schemas/Broken/pattern"],
        &["(?!-)(?!.*--)[a-zA-Z0-9-]+(?<!-)"],
    ),
    (
        "normalize_mixed_any_of",
        &[
            "repaired /components/schemas/Filter/properties/never/anyOf/1: a union member that admits nothing",
        ],
        &[
            "pub enum FilterTags",
            "never: ::std::option::Option<FilterNever>",
        ],
    ),
    (
        "normalize_no_responses",
        &["repaired /paths/~1api~1repos~1{id}~1ping/post: no `responses`"],
        &["pub async fn post_repo_ping<'a>("],
    ),
    (
        "normalize_nullable_any_of",
        &[],
        &[
            "pub name: ::std::option::Option<::std::string::String>",
            "pub size: ::std::option::Option<f64>",
        ],
    ),
    (
        "normalize_open_enum",
        &["repaired /components/schemas/Repo/properties/library/anyOf: open enum"],
        &[
            "pub library: RepoLibrary",
            "Other(::std::string::String)",
            "RepoLibrary[open]",
        ],
    ),
    (
        "normalize_operation_ids",
        &[
            "named `get_model_tree`",
            "named `post_model_discussion_comment`",
            "named `post_model_comment`",
            "named `delete_space_secret`",
            "named `get_models`",
        ],
        &[
            "pub async fn get_model_tree<'a>(",
            "pub async fn delete_space_secret<'a>(",
        ],
    ),
    (
        "normalize_query_any_of",
        &[
            "defect /paths/~1api~1models/get/parameters/1/schema/default",
            "defect /paths/~1api~1models/get/parameters/2/schema/default",
        ],
        &["search: Option<&'a str>,"],
    ),
    (
        "normalize_rules",
        &[
            "0 rules not enforced",
            "repaired /components/schemas/Limits/properties/id/format",
        ],
        &["[0-9a-fA-F]{8}-"],
    ),
    (
        "normalize_alike_hidden",
        &[
            "repaired /paths/~1jobs~1{jobId}/get/parameters/0/schema: typify would give it the type name `DescribeJobJobId` of /components/schemas/DescribeJobJobId, the same schema",
            "repaired /components/schemas/AccountBillTo: typify would copy it as `AccountBillTo`, its own type name",
            "repaired /components/schemas/Package/allOf/1/properties/catalog: typify would give it the type name `PackageCatalog` of /components/schemas/PackageCatalog and one type to both; moved into `components/schemas` as `PackageCatalog2`",
            "0 rules not enforced, 0 left out",
        ],
        &[
            "pub type DescribeJobJobId = ValidatedString<rules::DescribeJobJobId>;",
            "pub bill_to: AccountBillTo,",
            "pub struct AccountBillTo {",
            "pub catalog: ::std::option::Option<PackageCatalog2>,",
            "pub struct PackageCatalog {",
        ],
    ),
    (
        "normalize_alike_names",
        &[
            "repaired /components/schemas/Hook/properties/kind: typify would give it the type name `HookKind` of /components/schemas/HookKind and one type to both; moved into `components/schemas` as `HookKind2`",
            "/schema/properties/repoType: typify would give it the type name `GetWebhooksResponseRepoType` of /paths/~1api~1webhooks/get/responses/200/content/application~1json/schema/properties/repo/properties/type and one type to both; moved into `components/schemas` as `GetWebhooksResponseRepoType2`",
            "0 rules not enforced",
        ],
        &[
            "pub kind: HookKind2",
            "pub struct HookKind {",
            "pub type_: GetWebhooksResponseRepoType,",
            "pub repo_type: ::std::option::Option<GetWebhooksResponseRepoType2>,",
            "GetWebhooksResponseRepoType2[tolerant] { Model = \"model\", Dataset = \"dataset\", }",
            "pub status: ::std::option::Option<HookStatus>",
        ],
    ),
    (
        "normalize_shared_names",
        &[
            "repaired /components/schemas/CheckedString: renamed to `CheckedStringSchema`",
            "repaired /components/schemas/object_visitor: renamed to `ObjectVisitorSchema`",
            "repaired /components/schemas/StringEnum: renamed to `StringEnumSchema`",
            "repaired /components/schemas/ValidationError: renamed to `ValidationErrorSchema`",
            "repaired /components/schemas/check_result: renamed to `CheckResult2`: the type of /components/schemas/CheckResult is named `CheckResult`",
            "0 rules not enforced",
        ],
        &[
            "pub type CheckedStringSchema = ValidatedString<rules::CheckedStringSchema>",
            "pub struct ObjectVisitorSchema",
            "pub enum StringEnumSchema",
            "pub type ValidationErrorSchema = ValidatedString<rules::ValidationErrorSchema>",
            "pub use ::hub_api_support::ValidationError;",
            "pub result: ::std::option::Option<CheckResult>,",
            "pub verdict: ::std::option::Option<CheckResult2>,",
        ],
    ),
    (
        "normalize_success_bodies",
        &[
            "responses 200, 207 have different body types; their bodies become one union, `PostRepoCommitSuccess`",
        ],
        &[
            "pub enum PostRepoCommitSuccess",
            "ResponseValue<types::PostRepoCommitSuccess>",
        ],
    ),
    (
        "normalize_tagged_union",
        &[],
        &["#[serde(tag = \"type\")]", "Created(EventPayloadVariant0)"],
    ),
    (
        "normalize_tuple",
        &["0 rules not enforced"],
        &[
            "pub struct SpanRange(pub SpanRangeItem0, pub SpanRangeItem1);",
            "pub struct SpanPair(pub ::std::string::String, pub ::std::option::Option<f64>);",
            "pub struct SpanTagged(pub SpanTaggedItem0, pub Point, pub ::std::vec::Vec<bool>);",
        ],
    ),
    (
        "normalize_unsatisfiable",
        &["defect /components/schemas/Grant/required/scope: unsatisfiable"],
        &["pub scope: ::serde_json::Value"],
    ),
    ("normalize_untagged_union", &[], &["pub enum Target"]),
    (
        "normalize_one_of_first_fit",
        &["0 rules not enforced"],
        &["OneOf Contact {", "AnyOf Reachable {", "AnyOf Amount {"],
    ),
    (
        "normalize_real_world",
        &[
            "0 rules not enforced, 0 left out",
            "defect /paths/~1things/get/operationId: `operationId` `list` is also an earlier operation's; named `get_things`",
            "repaired /paths/~1items/get/parameters/0/content: a parameter given as `application/json` content",
            "repaired /paths/~1items/get/parameters/1/schema: a header parameter cannot be sent as `null`",
            "repaired /paths/~1items/get/responses/default: `default` beside successes of another body is read as the error statuses 4XX and 5XX",
            "defect /components/schemas/Level/enum: values listed more than once: \"info\"",
            "defect /components/schemas/Level/enum: values the schema's `type` refuses, so no instance can have them: null",
            "defect /components/schemas/ItemPage/properties/kind/format: `format: string` without a `type`",
            "defect /components/schemas/ItemPage/properties/count/nullable",
            "repaired /components/schemas/Settings/$defs/Granularity: a local definition, which progenitor cannot resolve; moved into `components/schemas` as `SettingsGranularity`",
            "repaired /components/schemas/Settings/$defs/Unused: a local definition no `$ref` uses; dropped",
        ],
        &[
            "pub struct CreatedTeamApiKey {",
            "pub struct ItemPageExhaustive {",
            "pub struct ProxyInner {",
            "pub async fn get_things<'a>(",
            "metadata: Option<&'a str>,",
            "last_event_id: Option<&'a str>,",
            "True,",
            "TrueString,",
            "Minus2,",
            "Level[tolerant Unlisted] {",
            "pub struct Box(pub ::std::option::Option<BoxInner>);",
            "pub granularity: ::std::option::Option<SettingsGranularity>,",
            "pub async fn create_thing<'a>(",
            "impl NumberDefault for rules::ItemPageTemperature {",
            "Unlisted(::std::string::String)",
        ],
    ),
    (
        "normalize_multipart",
        &["0 rules not enforced, 0 left out"],
        &[
            "pub file: crate::normalize_multipart::types::FormFile,",
            "&[(\"file\", \"image/png\"), (\"purpose\", \"application/sdp\")],",
            "pub mod multipart {",
        ],
    ),
    (
        "normalize_swagger2",
        &[
            "repaired /swagger: Swagger 2.0 converted to OpenAPI 3.0.3",
            "0 rules not enforced, 0 left out",
        ],
        &[
            "pub async fn get_pet<'a>(",
            "pub nickname: ::std::option::Option<::std::string::String>,",
        ],
    ),
    (
        "normalize_all_of",
        &["0 repaired, 0 defects of the description, 0 rules not enforced, 0 left out"],
        &["pub struct CreatedKey {"],
    ),
    (
        "normalize_dangling",
        &[
            "defect /paths/~1items~1{id}/get/parameters/2/$ref: `$ref` to `#/components/parameters/Gone`: a place the document does not have; left out",
            "defect /paths/~1items~1{id}/get/parameters/3/schema/$ref: `$ref` to `#/components/schemas/Gone`: a place the document does not have; read as any JSON value",
            "defect /paths/~1items~1{id}/get/responses/404/$ref: `$ref` to `#/components/responses/Gone`: a place the document does not have; the response is kept without a body",
            "defect /components/schemas/Item/properties/owner/$ref: `$ref` to `shared.yaml#/Owner`: another file, which was not bundled or has no such place; read as any JSON value",
            "repaired /paths/~1items~1{id}/get/parameters/1: query parameter `id`: another parameter of the operation has the same Rust argument name; the argument is `id_query`, sent as `id`",
            "unenforced /components/schemas/Item/properties/source/not:",
        ],
        &[
            "pub async fn get_item<'a>(",
            "QueryParam::new(\"id\", &p.id_query)",
            "pub struct ItemSource {",
            "pub owner: ::std::option::Option<::serde_json::Value>,",
        ],
    ),
    (
        "normalize_media_and_more",
        &[
            "1 rules not enforced, 0 left out",
            "unenforced /paths/~1forms/post/requestBody/content/application~1x-www-form-urlencoded/encoding",
            "repaired /paths/~1things~1{id}/put/requestBody/content/*~1*: a request body of any media type (`*/*`), which progenitor cannot send; sent as `application/json`",
            "repaired /paths/~1things~1{id}/put/responses/200/content/application~1json: JSON without a schema",
            "repaired /paths/~1things~1{id}/put/responses: responses 401, 403 write one body schema inline in each; it becomes one component, `PutThingError`",
            "repaired /paths/~1things~1{id}/put/parameters/0: query parameter `expand` is an array in `deepObject` style",
            "repaired /paths/~1uploads/post/requestBody/content/application~1octet-stream/schema: a byte body whose schema is not bytes",
            "repaired /paths/~1uploads/post/responses: responses 4XX, 5XX write one body schema inline in each",
            "repaired /components/schemas/Field/properties/links/format: a `format` on a type no format applies to, dropped",
            "repaired /components/schemas/Field/properties/cavv/contentEncoding",
        ],
        &[
            "pub async fn put_thing<'a>(",
            "pub async fn upload<'a, B: Into<reqwest::Body>>(",
            "pub async fn post_form<'a>(",
            "pub struct Field {",
            "Plus1,",
            "\"expand[]\"",
        ],
    ),
    (
        "normalize_parameter_styles",
        &[
            "repaired /paths/~1jobs/get/parameters/1: query parameter `filter` in `deepObject` style, which progenitor does not write; sent as 3 parameters",
            "repaired /paths/~1jobs/get/parameters/0: query parameter `metadata` in `deepObject` style over a map, which progenitor does not write; sent as `metadata[<key>]=<value>` per entry",
            "skipped /paths/~1jobs/get/parameters/2: cookie parameter `session`",
            "repaired /paths/~1jobs/get/parameters/3: query parameter `ids` is sent unexploded (`,` between items)",
            "repaired /paths/~1jobs/get/parameters/4: query parameter `tags` is sent unexploded (`|` between items)",
            "repaired /paths/~1jobs/get/parameters/5: query parameter `created` in `deepObject` style over a union; each member's form sent as its own optional parameters (3 in all)",
        ],
        &[
            "pub async fn list_jobs<'a>(",
            "QueryParam::new(\"filter[state]\"",
            "\"filter[range][from]\",",
            "ids: Option<&'a str>,",
        ],
    ),
    (
        "normalize_openapi_30",
        &["repaired /openapi: OpenAPI 3.0.3 read as 3.1"],
        &["pub next: ::std::option::Option<::std::string::String>"],
    ),
    (
        "normalize_type_union",
        &[
            "repaired /paths/~1api~1items~1{id}/get/parameters/0/schema/type: a union of types",
            "defect /paths/~1api~1items~1{id}/get: path parameter `id` is in the template but not declared",
        ],
        &["pub async fn get_item<'a>(", "pub enum GetItemLimit"],
    ),
    (
        "normalize_webhooks",
        &[],
        &[
            "pub mod webhooks",
            "JobDone(super::types::JobDone)",
            "RepoCreated(super::types::RepoCreatedWebhook)",
            "Log(::std::vec::Vec<u8>)",
        ],
    ),
    (
        "normalize_world",
        &[
            "14 repaired, 1 defects of the description, 1 rules not enforced, 2 left out",
            "defect /paths/~1vendors/get/parameters/1/schema/items/$ref: `$ref` to `#/paths/~1vendors~1%7Bvendor%7D/delete/parameters/1`, a parameter, where a schema belongs; read as any JSON value",
            "repaired /paths/~1vendors~1{vendor}/delete/parameters/0/schema: a `$ref` points to this schema outside the components, which the generators do not follow; it becomes the component `DisconnectVendorVendor`",
            "repaired /paths/~1vendors~1{vendor}/get/responses/200/content/application~1json/schema: a `$ref` points to this schema outside the components, which the generators do not follow; it becomes the component `GetVendorResponse`",
            "repaired /x-shapes/Colour: a `$ref` points to this schema outside the components",
            "repaired /paths/~1vendors/get/parameters/0/$ref: a `$ref` to `#/paths/~1vendors~1{vendor}/delete/parameters/1`, a parameter that is not a component, which progenitor cannot follow; replaced by a copy of its target",
            "skipped /paths/~1vendors/get/callbacks/onChange: a callback (a request the API sends) is not generated",
            "skipped /components/callbacks/VendorChanged:",
            "repaired /paths/~1things~1{id}/get/parameters/3: query parameter `limit`: another parameter of the operation has the same Rust argument name; the argument is `limit_query`, sent as `limit`",
            "repaired /paths/~1things~1{id}/get/responses/200/content/application~1vnd.api+json: JSON spelled `application/vnd.api+json`; read as JSON",
            "repaired /paths/~1things~1{id}/patch/requestBody/content/application~1merge-patch+json: a request body of a media type progenitor cannot send; sent as JSON, labelled `application/merge-patch+json`",
            "repaired /paths/~1things~1{id}~1photo/put/requestBody/content/image~1jpeg: a request body of a media type progenitor cannot send; sent as the bytes given, labelled `image/jpeg`",
            "unenforced /paths/~1imports/post/requestBody/content/text~1csv/schema: a text body is sent as the text given",
        ],
        &[
            "pub type String = ValidatedString<rules::String>;",
            "impl ::std::convert::TryFrom<::std::string::String> for Boolean",
            "QueryParam::new(\"id\", &p.id_query)",
            "QueryParam::new(\"limit[]\", &p.limit)",
            "header_map.append(\"Limit\"",
            "\"application/merge-patch+json\",",
            "from_static(\"image/jpeg\")",
            "from_static(\"text/csv\")",
            "ResponseValue<types::Thing>",
            "ImportCsvDirection::Minus1",
            "request(::reqwest::Method::OPTIONS,",
            "pub enum DisconnectVendorVendor {",
            "pub vendor: ::std::option::Option<DisconnectVendorVendor>,",
            "pub colour: ::std::option::Option<Colour>,",
            "vendor: types::DisconnectVendorVendor,\n    ) -> Result<ResponseValue<types::GetVendorResponse>, Error<()>>",
            "pub fields: Option<&'a ::std::vec::Vec<::serde_json::Value>>,\n        pub reason: Option<&'a str>,",
            "ResponseValue<::std::vec::Vec<types::GetVendorResponse>>",
            "pub async fn add_vendor<'a>(\n        &'a self,\n        body: &'a types::GetVendorResponse,",
        ],
    ),
];

fn fixtures_dir() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures"))
}

#[test]
fn every_normalize_fixture_is_listed() {
    let on_disk: BTreeSet<String> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter_map(|path| Some(path.file_name()?.to_str()?.to_owned()))
        .filter_map(|name| Some(name.strip_suffix(".yaml")?.to_owned()))
        .filter(|name| name.starts_with("normalize_"))
        .collect();
    let listed: BTreeSet<String> = FIXTURES
        .iter()
        .map(|(name, ..)| (*name).to_owned())
        .collect();
    assert_eq!(on_disk, listed);
}

#[test]
fn normalize_fixtures() {
    let mut failures = Vec::new();
    for (name, in_report, in_rust) in FIXTURES {
        let spec_name = format!("codegen/tests/fixtures/{name}.yaml");
        let spec_text =
            std::fs::read_to_string(fixtures_dir().join(format!("{name}.yaml"))).unwrap();
        let (output, report) = generate_module(
            &spec_text,
            &spec_name,
            &format!("crate::{name}"),
            &CrateOptions::default(),
        )
        .unwrap_or_else(|error| panic!("fixture {name}: {error}"));
        let report = render_report(&report);
        for needle in *in_report {
            if !report.contains(needle) {
                failures.push(format!("{name}: report lacks {needle:?}"));
            }
        }
        for needle in *in_rust {
            if !output.rust.contains(needle) {
                failures.push(format!("{name}: Rust lacks {needle:?}"));
            }
        }
        insta::assert_snapshot!(format!("{name}__report"), report);
        insta::assert_snapshot!(format!("{name}__rust"), output.rust);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn strict_refuses_what_the_lenient_run_reports() {
    let spec_text =
        std::fs::read_to_string(fixtures_dir().join("normalize_unsatisfiable.yaml")).unwrap();
    let error = generate_module(
        &spec_text,
        "normalize_unsatisfiable.yaml",
        "crate::generated",
        &CrateOptions {
            strict: true,
            ..CrateOptions::default()
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        error.contains("/components/schemas/Grant/required/scope"),
        "{error}"
    );
}
