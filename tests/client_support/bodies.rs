//! Answers of the hub that several test files send, as JSON. Only `serde_json`, so that the
//! `hub` command's tests (`hub-cli/tests/`) include this very file too.

// Each includer uses a different subset of these helpers.
#![allow(dead_code)]

use serde_json::{Value, json};

/// The smallest answer of `GET /api/settings/mcp`.
pub fn mcp_body() -> Value {
    json!({ "builtInTools": [], "spaceTools": [] })
}

/// A `repo` notification of the model `acme/bert-tiny`, its discussion `discussion_id`.
pub fn repo_notification(discussion_id: &str, read: bool) -> Value {
    json!({
        "type": "repo",
        "updatedAt": "2026-11-01T18:42:07Z",
        "read": read,
        "repo": { "name": "acme/bert-tiny", "type": "model" },
        "discussion": {
            "num": 12, "title": "Add safetensors weights", "status": "open",
            "id": discussion_id, "isPullRequest": true, "participating": []
        }
    })
}

/// The answer of the storage-token call: `access_token`, valid until Unix time `exp` (any JSON
/// number: a fraction, or one the client cannot represent).
pub fn storage_token_body(access_token: &str, exp: impl Into<Value>) -> Value {
    let exp = exp.into();
    json!({ "accessToken": access_token, "exp": exp, "casUrl": "https://cas.hub.example.com" })
}
