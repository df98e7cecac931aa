//! The commands that go through the library's hand-written helpers instead of the generated
//! builders: what the library adds there is what the command line needs too.
//!
//! - `notifications list`: `Client::list_notifications` (an item that breaks the spec is left
//!   out and named on standard error instead of failing the page) and, with `--paginate`,
//!   `Client::notification_pages` (the library's end-of-list rule);
//! - `webhooks list`: `Client::list_webhooks`, tolerant the same way;
//! - `credentials revoke`: `Client::revoke_credentials`, batches of 1,000 tokens (the request
//!   type takes at most 1,000, so the generated builder refused more);
//! - `storage-access-token get`: `Client::storage_access_token` with the arguments as one
//!   `hub_api::Repository` (its 403 and 404 errors).
//!
//! [`HELPERS`] lists each with the parameters it reads, and a test checks them against the
//! generated table, so that a parameter added to the spec cannot be silently dropped here.

use std::pin::pin;

use hub_api::Repository;
use hub_api::notifications::NotificationFilter;
use hub_api::prelude::TryStreamExt;
use hub_api::types;
use serde::Serialize;
use serde_json::{Value, json};

use crate::run::{Call, Failure, Reply};

/// The operations sent through a helper, and the parameters each reads.
pub const HELPERS: &[(&str, &[&str])] = &[
    (
        "listNotifications",
        &[
            "p",
            "readStatus",
            "repoType",
            "repoName",
            "postAuthor",
            "paperId",
            "articleId",
            "mention",
            "lastUpdate",
        ],
    ),
    ("listWebhooks", &[]),
    ("revokeCredentials", &[]),
    (
        "getStorageAccessToken",
        &["repo_type", "namespace", "repo", "token_type", "revision"],
    ),
];

/// Sends `call` through the library's helper for it; `None` when it has none.
pub async fn send(call: &Call<'_>) -> Option<Result<Reply, Failure>> {
    Some(match call.operation().id {
        "listNotifications" => list_notifications(call).await,
        "listWebhooks" => list_webhooks(call).await,
        "revokeCredentials" => revoke_credentials(call).await,
        "getStorageAccessToken" => storage_access_token(call).await,
        _ => return None,
    })
}

async fn list_notifications(call: &Call<'_>) -> Result<Reply, Failure> {
    let filter = NotificationFilter {
        read_status: call.param("readStatus")?,
        repo_type: call.param("repoType")?,
        repo_name: call.param("repoName")?,
        post_author: call.param("postAuthor")?,
        paper_id: call.param("paperId")?,
        article_id: call.param("articleId")?,
        mention: call.param("mention")?,
        last_update: call.param("lastUpdate")?,
    };
    let client = call.library();
    let mut warnings = Vec::new();
    if call.paginate() {
        let mut pages = pin!(client.notification_pages(filter));
        let mut all = Vec::new();
        while let Some(page) = pages
            .try_next()
            .await
            .map_err(|error| call.library_failure(error))?
        {
            warnings.extend(page.invalid.iter().map(|item| format!("skipped {item}")));
            let page = call.redacted(to_json(call, &page.value)?);
            all.extend(crate::run::page_items(Some(page), "notifications"));
        }
        return Ok(Reply {
            body: Some(Value::Array(all)),
            warnings,
        });
    }
    let page: u64 = call.param("p")?.unwrap_or(0);
    let list = client
        .list_notifications(&filter, page)
        .await
        .map_err(|error| call.library_failure(error))?;
    warnings.extend(list.invalid.iter().map(|item| format!("skipped {item}")));
    Ok(Reply {
        body: Some(call.redacted(to_json(call, &list.value)?)),
        warnings,
    })
}

async fn list_webhooks(call: &Call<'_>) -> Result<Reply, Failure> {
    let list = call
        .library()
        .list_webhooks()
        .await
        .map_err(|error| call.library_failure(error))?;
    Ok(Reply {
        body: Some(call.redacted(to_json(call, &list.value)?)),
        warnings: list
            .invalid
            .iter()
            .map(|item| format!("skipped {item}"))
            .collect(),
    })
}

/// The body is read as plain JSON, not as the generated request type (which holds at most
/// 1,000 tokens); the library checks each token, naming it by index only. No error message
/// here quotes the body, which holds the tokens.
async fn revoke_credentials(call: &Call<'_>) -> Result<Reply, Failure> {
    let shape = || {
        Failure::Usage(r#"invalid --body: expected {"credentials": ["<token>", ...]}"#.to_owned())
    };
    let body: Value = call.body()?.ok_or_else(shape)?;
    let Value::Object(mut body) = body else {
        return Err(shape());
    };
    let Some(Value::Array(items)) = body.remove("credentials") else {
        return Err(shape());
    };
    if let Some(key) = body.keys().next() {
        return Err(Failure::Usage(format!(
            "invalid --body: unknown property `{key}` (only `credentials`)"
        )));
    }
    let tokens = items
        .into_iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::String(token) => Ok(token),
            _ => Err(Failure::Usage(format!(
                "invalid --body at `credentials[{index}]`: not a string"
            ))),
        })
        .collect::<Result<Vec<String>, Failure>>()?;
    call.library()
        .revoke_credentials(tokens)
        .await
        .map_err(|error| call.library_failure(error))?;
    Ok(Reply {
        body: None,
        warnings: Vec::new(),
    })
}

/// Printed in the response's own shape (`accessToken`, `exp`, `casUrl`). The positional
/// arguments become one [`Repository`], as the library and its provider take it.
async fn storage_access_token(call: &Call<'_>) -> Result<Reply, Failure> {
    let missing = |name: &str| Failure::Usage(format!("missing <{}>", name.to_uppercase()));
    let required = |name: &str| -> Result<String, Failure> {
        call.param::<String>(name)?.ok_or_else(|| missing(name))
    };
    // Checked against the generated types (the repository types that have storage tokens,
    // the patterns), then used as given.
    call.param::<types::StorageRepoType>("repo_type")?;
    call.param::<types::GetStorageAccessTokenNamespace>("namespace")?;
    call.param::<types::GetStorageAccessTokenRepo>("repo")?;
    call.param::<types::GetStorageAccessTokenRevision>("revision")?;
    let kind: types::RepoType = call
        .param("repo_type")?
        .ok_or_else(|| missing("repo_type"))?;
    let token_type: types::StorageTokenType = call
        .param("token_type")?
        .ok_or_else(|| missing("token_type"))?;
    let repository = Repository::new(
        kind,
        format!("{}/{}", required("namespace")?, required("repo")?),
    )
    .at_revision(required("revision")?);
    let token = call
        .library()
        .storage_access_token(&repository, token_type)
        .await
        .map_err(|error| call.library_failure(error))?;
    let exp = token
        .expires_at()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|since| since.as_secs_f64())
        .unwrap_or_default();
    let exp = if exp.fract() == 0.0 && exp < 9_007_199_254_740_992.0 {
        Value::from(exp as u64)
    } else {
        Value::from(exp)
    };
    let body = json!({
        "accessToken": token.access_token().expose(),
        "exp": exp,
        "casUrl": token.cas_url(),
    });
    Ok(Reply {
        body: Some(call.redacted(body)),
        warnings: Vec::new(),
    })
}

fn to_json<T: Serialize>(call: &Call<'_>, value: &T) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|error| {
        Failure::Api(format!(
            "{}: cannot print the response: {error}",
            call.operation().id
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::HELPERS;
    use crate::OPERATIONS;

    #[test]
    fn every_helper_reads_every_parameter_of_its_operation() {
        for (id, params) in HELPERS {
            let operation = OPERATIONS
                .iter()
                .find(|op| op.id == *id)
                .unwrap_or_else(|| panic!("no operation {id} in the spec"));
            let spec: Vec<&str> = operation.params.iter().map(|p| p.name).collect();
            assert_eq!(&spec, params, "{id}: the helper reads other parameters");
        }
    }
}
