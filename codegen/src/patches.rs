//! The hub spec's patches: what progenitor and typify drop from `spec/openapi.yaml`, restored.
//! Data only; [`crate::patch::apply`] is the mechanism, and it refuses to generate while any
//! rule typify drops is left without a patch here.

use crate::patch::{Action, Patch};

const fn patch(target: &'static str, action: Action, reason: &'static str) -> Patch {
    Patch {
        target,
        action,
        reason,
    }
}

const DROPS_BOUNDS: &str =
    "typify reads numeric bounds only to pick a type, and serde refuses `3.0`.";
const DROPS_SIZES: &str = "typify ignores `minItems` and `maxItems`.";
const UNIFORM: &str =
    "one message shape, `must match <pattern>; got <value>`, for every string rule.";
const SECRET: &str =
    "a secret: checked like any string, but never shown by `Debug` or in an error.";

/// Every patch `cargo xtask regen` applies to the hub spec, in order.
pub const HUB: &[Patch] = &[
    // Unions.
    patch(
        "/components/schemas/Notification",
        Action::TaggedUnion { tag: "type" },
        "typify makes a `oneOf` of `$ref`s an untagged enum and drops `const` tags.",
    ),
    patch(
        "/components/schemas/WebhookJob",
        Action::ExclusiveUnion {
            keys: &["spaceId", "dockerImage"],
        },
        "an untagged enum would accept a job with both `spaceId` and `dockerImage`.",
    ),
    patch(
        "/components/schemas/WebhookJobRequest",
        Action::ExclusiveUnion {
            keys: &["spaceId", "dockerImage"],
        },
        "an untagged enum would accept a job with both `spaceId` and `dockerImage`.",
    ),
    patch(
        "/components/schemas/WebhookDisabled",
        Action::LiteralUnion {
            variants: &[
                ("Enabled", "false"),
                ("Disabled", "true"),
                ("SuspendedAfterFailure", "\"suspended-after-failure\""),
            ],
        },
        "`false | true | \"suspended-after-failure\"` reads better as three named states.",
    ),
    // Integers.
    patch(
        "/components/schemas/PageNumber",
        Action::BoundedInteger,
        DROPS_BOUNDS,
    ),
    patch(
        "/components/schemas/Port",
        Action::BoundedInteger,
        DROPS_BOUNDS,
    ),
    patch(
        "/components/schemas/Attempts",
        Action::BoundedInteger,
        DROPS_BOUNDS,
    ),
    patch(
        "/components/schemas/TimeoutSeconds",
        Action::BoundedInteger,
        DROPS_BOUNDS,
    ),
    patch(
        "/components/schemas/WebhookVersion",
        Action::BoundedInteger,
        "serde refuses `3.0`, an integer to JSON Schema.",
    ),
    // Arrays.
    patch(
        "/components/schemas/Credentials",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    patch(
        "/components/schemas/DiscussionIds",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    patch(
        "/components/schemas/Ports",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    patch(
        "/components/schemas/NetworkAliases",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    patch(
        "/components/schemas/Command",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    patch(
        "/components/schemas/VolumeRequests",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    patch(
        "/components/schemas/WatchedItemRequests",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    patch(
        "/components/schemas/RequestedDomains",
        Action::BoundedArray,
        DROPS_SIZES,
    ),
    // Maps with validated keys.
    patch(
        "/components/schemas/EnvironmentMap",
        Action::ValidatedMap { secret: false },
        "typify ignores `propertyNames`.",
    ),
    patch(
        "/components/schemas/LabelMap",
        Action::ValidatedMap { secret: false },
        "typify ignores `propertyNames`.",
    ),
    patch(
        "/components/schemas/SecretMap",
        Action::ValidatedMap { secret: true },
        "typify ignores `propertyNames`; the values are secrets and never printed.",
    ),
    // Strings.
    patch(
        "/components/schemas/Timestamp",
        Action::ValidatedString { secret: false },
        "typify decodes `date-time` with chrono, which drops the `Z` pattern and rewrites the text.",
    ),
    patch(
        "/components/schemas/Uri",
        Action::ValidatedString { secret: false },
        "typify ignores `format: uri`.",
    ),
    patch(
        "/components/schemas/ObjectId",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/HexId",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/RepoName",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/NonEmptyString",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/MountPath",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/NetworkGroup",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/NetworkAlias",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/LabelValue",
        Action::ValidatedString { secret: false },
        UNIFORM,
    ),
    patch(
        "/components/schemas/Credential",
        Action::ValidatedString { secret: true },
        SECRET,
    ),
    patch(
        "/components/schemas/WebhookSecret",
        Action::ValidatedString { secret: true },
        SECRET,
    ),
    patch(
        "/components/schemas/StorageToken",
        Action::ValidatedString { secret: true },
        SECRET,
    ),
];
