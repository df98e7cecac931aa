//! The hub spec's patches: what progenitor and typify drop from `spec/openapi.yaml`, restored.
//! Data only; [`crate::patch::apply`] is the mechanism.

use crate::patch::{Action, Patch};

/// Every patch `cargo xtask regen` applies to the hub spec, in order.
pub const HUB: &[Patch] = &[Patch {
    target: "/components/schemas/Notification",
    action: Action::TaggedUnion { tag: "type" },
    reason: "typify makes a `oneOf` of `$ref`s an untagged enum and drops `const` tags.",
}];
