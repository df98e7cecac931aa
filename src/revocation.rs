//! Public revocation of leaked tokens (`POST /api/credentials/revoke`): length checks before
//! anything is sent, batches of at most 1,000 tokens, 202 as success, no `Authorization` header,
//! and no token (nor a request or response body) in any log line or error message.

use serde_json::json;

use crate::client::Call;
use crate::error::{Redactor, Result, build_request};
use crate::{Client, Error, Secret, types};

/// At most this many tokens go in one request.
pub const MAX_CREDENTIALS_PER_REQUEST: usize = 1000;

/// What a successful revocation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RevocationReport {
    /// Tokens submitted (the hub answers 202 whether or not they existed).
    pub tokens: usize,
    /// Requests sent.
    pub requests: usize,
}

impl Client {
    /// Revokes leaked access tokens: each is fully invalidated and its owner is notified by
    /// email. Sent without authentication, even when this client has a token.
    ///
    /// Every token is checked first (1 to 200 characters; at least one token), so bad input
    /// sends nothing. Tokens then go in batches of at most 1,000, in order; a failed batch stops
    /// the run with [`Error::RevocationIncomplete`] when earlier batches were accepted, or with
    /// the batch's own error when none were. The status is 202 whether or not a token existed,
    /// so success says nothing about token validity.
    pub async fn revoke_credentials<I>(&self, tokens: I) -> Result<RevocationReport>
    where
        I: IntoIterator,
        I::Item: Into<Secret>,
    {
        let tokens: Vec<Secret> = tokens.into_iter().map(Into::into).collect();
        let redactor = self.redactor().with_all(&tokens);
        // Every batch is built (and so every token checked) before the first is sent.
        let bodies = batch_bodies(&tokens, &redactor)?;
        let total = tokens.len();
        let mut accepted = 0;
        for (index, (body, batch)) in bodies
            .into_iter()
            .zip(tokens.chunks(MAX_CREDENTIALS_PER_REQUEST))
            .enumerate()
        {
            tracing::debug!(
                batch = index + 1,
                batches = total.div_ceil(MAX_CREDENTIALS_PER_REQUEST),
                tokens = batch.len(),
                "revoking a batch of tokens"
            );
            let request = self.anonymous_api().revoke_credentials().body(body);
            // The response body could echo the tokens: it never reaches an error.
            let call = Call::new("revokeCredentials")
                .with_secrets(batch)
                .withholding_body();
            if let Err(error) = self.send::<(), _>(call, request.send()).await {
                return Err(if accepted == 0 {
                    error
                } else {
                    Error::RevocationIncomplete {
                        accepted,
                        total,
                        source: Box::new(error),
                    }
                });
            }
            accepted += batch.len();
        }
        Ok(RevocationReport {
            tokens: total,
            requests: total.div_ceil(MAX_CREDENTIALS_PER_REQUEST),
        })
    }
}

/// One request body per batch of at most [`MAX_CREDENTIALS_PER_REQUEST`] tokens. The generated
/// types check each token's length; a refusal names the token by its index in `tokens` (never
/// by value).
fn batch_bodies(
    tokens: &[Secret],
    redactor: &Redactor<'_>,
) -> Result<Vec<types::RevokeCredentialsRequest>> {
    if tokens.is_empty() {
        return Err(Error::validation("credentials", "at least 1 token"));
    }
    for (index, token) in tokens.iter().enumerate() {
        types::Credential::new(token.expose()).map_err(|error| {
            Error::validation(
                format!("credentials[{index}]"),
                redactor.scrub(error.message()),
            )
        })?;
    }
    tokens
        .chunks(MAX_CREDENTIALS_PER_REQUEST)
        .map(|batch| {
            let values: Vec<&str> = batch.iter().map(Secret::expose).collect();
            build_request(json!({ "credentials": values }), redactor)
        })
        .collect()
}
