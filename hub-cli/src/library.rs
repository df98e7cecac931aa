//! The commands that go through the library's hand-written helpers instead of the generated
//! builders: what the library adds there is what the command line needs too.
//!
//! - `notifications list`: `Client::list_notifications` (an item that breaks the spec is left
//!   out and named on standard error instead of failing the page) and, with `--paginate`,
//!   `Client::notification_pages` (the library's end-of-list rule);
//! - `webhooks list`: `Client::list_webhooks`, tolerant the same way;
//! - `credentials revoke`: `Client::revoke_credentials`, batches of 1,000 tokens (the request
//!   type takes at most 1,000, so the generated builder refused more), read as one token per
//!   line or as the JSON body, from `--body FILE` or standard input;
//! - `storage-access-token get`: `Client::storage_access_token`, taking `REPO [--write]` where
//!   `REPO` is `hub_api::Repository`'s text (`[<type>s/]<ns>/<name>[@<rev>]`), as the library
//!   and its examples do; the spec's five positional arguments still work (its 403 and 404
//!   errors name the repository).
//!
//! [`arguments`] gives these two commands their arguments in place of the spec's; the old
//! spellings (`hub storage get-access-token`) keep the spec's.
//!
//! [`HELPERS`] lists each with the parameters it reads, and a test checks them against the
//! generated table, so that a parameter added to the spec cannot be silently dropped here.

use std::io::IsTerminal;
use std::pin::pin;

use clap::{Arg, ArgAction};

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

/// `storage-access-token get`'s repository argument: `[<type>s/]<ns>/<name>[@<rev>]`.
const REPOSITORY: &str = "repository";
/// The four arguments after the first of the spec's form of `storage-access-token get`
/// (`model acme bert-tiny read main`), still accepted.
const SPEC_FORM: &str = "spec-form";

/// The arguments of the helpers' commands whose shape is the library's, not the spec's:
/// `None` for the others.
pub fn arguments(operation_id: &str) -> Option<Vec<Arg>> {
    match operation_id {
        "getStorageAccessToken" => Some(vec![
            Arg::new(REPOSITORY).value_name("REPO").required(true).help(
                "The repository, `[<type>s/]<namespace>/<name>[@<revision>]`: \
                     `acme/bert-tiny` (a model, at `main`), `datasets/acme/squad@v1`, \
                     `spaces/acme/demo@refs/pr/5`",
            ),
            Arg::new("write")
                .long("write")
                .action(ArgAction::SetTrue)
                .conflicts_with(SPEC_FORM)
                .help("A token that may write (default: read only)"),
            // `REPO_TYPE NAMESPACE REPO TOKEN_TYPE REVISION`, the spec's parameters in path
            // order, as earlier versions took them: REPO_TYPE lands in `repository`.
            Arg::new(SPEC_FORM)
                .num_args(4)
                .value_names(["NAMESPACE", "REPO", "TOKEN_TYPE", "REVISION"])
                .hide(true),
        ]),
        "revokeCredentials" => Some(vec![Arg::new("body").long("body").value_name("FILE").help(
            "The tokens to revoke, from FILE (`-`, or no --body: standard input): one \
                     token per line (blank lines and lines starting with `#` skipped), or the \
                     JSON body `{\"credentials\": [\"<token>\", ...]}`. Any number: they \
                     are sent 1,000 per request, without the hub token. Never give tokens as \
                     arguments, where other users of the machine can see them",
        )]),
        _ => None,
    }
}

/// The placeholders of the positional arguments `call`'s command took, for hints, when
/// [`arguments`] gave them.
pub fn positional_names(call: &Call<'_>) -> Option<&'static [&'static str]> {
    (call.operation().id == "getStorageAccessToken" && call.args(SPEC_FORM).is_empty())
        .then_some(&["REPO"])
}

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
        loop {
            let (page, bodies) = hub_api::as_sent::recording(pages.try_next()).await;
            let Some(page) = page.map_err(|error| call.library_failure(error))? else {
                break;
            };
            warnings.extend(page.invalid.iter().map(|item| call.skipped(item)));
            let reply = call.as_sent(
                Reply::typed(to_json(call, &page.value)?),
                &bodies,
                "notifications",
                &invalid_indexes(&page.invalid),
            );
            all.extend(crate::run::page_items(reply.body, "notifications"));
        }
        return Ok(Reply {
            body: Some(Value::Array(all)),
            warnings,
            notes: Vec::new(),
        });
    }
    let page: u64 = call.param("p")?.unwrap_or(0);
    let (list, bodies) =
        hub_api::as_sent::recording(client.list_notifications(&filter, page)).await;
    let list = list.map_err(|error| call.library_failure(error))?;
    warnings.extend(list.invalid.iter().map(|item| call.skipped(item)));
    let mut reply = call.as_sent(
        Reply::typed(to_json(call, &list.value)?),
        &bodies,
        "notifications",
        &invalid_indexes(&list.invalid),
    );
    reply.warnings = warnings;
    Ok(reply)
}

async fn list_webhooks(call: &Call<'_>) -> Result<Reply, Failure> {
    let (list, bodies) = hub_api::as_sent::recording(call.library().list_webhooks()).await;
    let list = list.map_err(|error| call.library_failure(error))?;
    let mut reply = call.as_sent(
        Reply::typed(to_json(call, &list.value)?),
        &bodies,
        "",
        &invalid_indexes(&list.invalid),
    );
    reply.warnings = list.invalid.iter().map(|item| call.skipped(item)).collect();
    Ok(reply)
}

/// The tokens are read as lines or as plain JSON, not as the generated request type (which
/// holds at most 1,000 tokens); the library checks each token, naming it by index only. No
/// error message here quotes the input, which holds the tokens.
async fn revoke_credentials(call: &Call<'_>) -> Result<Reply, Failure> {
    let text = match call.body_text()? {
        Some(text) => text,
        None if std::io::stdin().is_terminal() => {
            return Err(Failure::Usage(
                "no tokens: give them on standard input (one per line) or with --body FILE"
                    .to_owned(),
            ));
        }
        None => call.stdin_text()?,
    };
    let tokens = tokens(&text)?;
    if tokens.is_empty() {
        return Err(Failure::Usage(
            "no tokens to revoke in the input".to_owned(),
        ));
    }
    let report = call
        .library()
        .revoke_credentials(tokens)
        .await
        .map_err(|error| call.library_failure(error))?;
    let plural =
        |count: usize, word: &str| format!("{count} {word}{}", if count == 1 { "" } else { "s" });
    Ok(Reply {
        body: None,
        warnings: Vec::new(),
        notes: vec![format!(
            "revoked {} in {}",
            plural(report.tokens, "token"),
            plural(report.requests, "request")
        )],
    })
}

/// The tokens of a revocation's input: the JSON body `{"credentials": [...]}` when it starts
/// with `{`, else one token per line, surrounding whitespace trimmed, blank lines and `#`
/// comments skipped.
fn tokens(text: &str) -> Result<Vec<String>, Failure> {
    if !text.trim_start().starts_with('{') {
        return Ok(text
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty() && !line.starts_with('#'))
            .map(str::to_owned)
            .collect());
    }
    let shape = || {
        Failure::Usage(
            r#"invalid --body: expected one token per line, or {"credentials": ["<token>", ...]}"#
                .to_owned(),
        )
    };
    let body: Value = serde_json::from_str(text).map_err(|_| shape())?;
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
    items
        .into_iter()
        .enumerate()
        .map(|(index, item)| match item {
            Value::String(token) => Ok(token),
            _ => Err(Failure::Usage(format!(
                "invalid --body at `credentials[{index}]`: not a string"
            ))),
        })
        .collect()
}

/// Printed in the response's own shape (`accessToken`, `exp`, `casUrl`). The positional
/// arguments become one [`Repository`], as the library and its provider take it.
async fn storage_access_token(call: &Call<'_>) -> Result<Reply, Failure> {
    let (repository, token_type) = match call.arg(REPOSITORY) {
        Some(text) => storage_arguments(call, text)?,
        None => spec_storage_arguments(call)?,
    };
    let (token, bodies) =
        hub_api::as_sent::recording(call.library().storage_access_token(&repository, token_type))
            .await;
    let token = token.map_err(|error| call.library_failure(error))?;
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
    Ok(call.as_sent(Reply::typed(body), &bodies, "", &[]))
}

/// The indexes of the items a tolerant list left out.
fn invalid_indexes(invalid: &[hub_api::partial::ItemError]) -> Vec<usize> {
    invalid.iter().map(|item| item.index).collect()
}

/// `REPO [--write]`, or the spec's five arguments given to `storage-access-token get`.
fn storage_arguments(
    call: &Call<'_>,
    text: &str,
) -> Result<(Repository, types::StorageTokenType), Failure> {
    if let [namespace, repo, token_type, revision] = call.args(SPEC_FORM).as_slice() {
        // Checked against the generated types (the repository types that have storage
        // tokens, the patterns), then used as given.
        checked::<types::StorageRepoType>("REPO_TYPE", text)?;
        checked::<types::GetStorageAccessTokenNamespace>("NAMESPACE", namespace)?;
        checked::<types::GetStorageAccessTokenRepo>("REPO", repo)?;
        checked::<types::GetStorageAccessTokenRevision>("REVISION", revision)?;
        let kind: types::RepoType = checked("REPO_TYPE", text)?;
        let repository =
            Repository::new(kind, format!("{namespace}/{repo}")).at_revision(revision.as_str());
        return Ok((repository, checked("TOKEN_TYPE", token_type)?));
    }
    let repository: Repository = text.parse().map_err(|_| {
        Failure::Usage(format!(
            "invalid <REPO> {text:?}: expected `[<type>s/]<namespace>/<name>[@<revision>]`, \
                 e.g. `acme/bert-tiny` or `datasets/acme/squad@v1`"
        ))
    })?;
    let token_type = if call.flag("write") {
        types::StorageTokenType::Write
    } else {
        types::StorageTokenType::Read
    };
    Ok((repository, token_type))
}

/// The spec's five arguments, under the old spelling `hub storage get-access-token`.
fn spec_storage_arguments(
    call: &Call<'_>,
) -> Result<(Repository, types::StorageTokenType), Failure> {
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
    Ok((repository, token_type))
}

/// `text` as the generated type `T`, decoded strictly as a JSON string; a usage error naming
/// the argument `<NAME>` otherwise.
fn checked<T: serde::de::DeserializeOwned>(name: &str, text: &str) -> Result<T, Failure> {
    hub_api::generated::decoding::strict(|| serde_json::from_value(Value::from(text)))
        .map_err(|error| Failure::Usage(format!("invalid <{name}>: {error}")))
}

fn to_json<T: Serialize>(call: &Call<'_>, value: &T) -> Result<Value, Failure> {
    serde_json::to_value(value).map_err(|error| {
        Failure::Api(format!(
            "{}: cannot print the response: {error}",
            call.typed()
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
