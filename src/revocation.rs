//! Public revocation of leaked tokens (`POST /api/credentials/revoke`): length checks before
//! anything is sent, batches of at most 1,000 tokens, 202 from the hub itself as the only
//! success (redirects are never followed for it), no `Authorization` header, no token (nor a
//! request or response body) in any log line or error message, and resumption: a [`Revocation`]
//! remembers which batches the hub accepted, so a retry sends only the others.

use std::fmt;
use std::ops::Range;

use serde_json::json;

use crate::client::Call;
use crate::error::{Redactor, Result, build_request};
use crate::{Client, Error, Secret, types};

/// At most this many tokens go in one request.
pub const MAX_CREDENTIALS_PER_REQUEST: usize = 1000;

/// What a successful revocation did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RevocationReport {
    /// Tokens revoked: all the tokens given (the hub answers 202 whether or not they existed).
    pub tokens: usize,
    /// Requests sent by this run (a resumed run sends only the batches not yet accepted).
    pub requests: usize,
}

impl RevocationReport {
    /// The batches the hub accepted, as ranges of indexes into the tokens given, in order: all
    /// of them, since the revocation succeeded.
    pub fn accepted_batches(&self) -> Vec<Range<usize>> {
        batch_ranges(self.tokens)
    }
}

/// Tokens to revoke, checked and cut into batches, with the batches the hub has accepted so
/// far. Build one with [`Revocation::new`] and send it with [`Client::revoke`]; after a failure,
/// call [`Client::revoke`] again with the same value (or the one in
/// [`Error::revocation`]) and only the batches not accepted yet are sent.
///
/// `Debug` shows counts and ranges, never a token.
///
/// ```no_run
/// use hub_api::revocation::Revocation;
/// # async fn demo(client: hub_api::Client, leaked: Vec<String>) -> hub_api::Result<()> {
/// let mut revocation = Revocation::new(leaked)?;
/// while let Err(error) = client.revoke(&mut revocation).await {
///     if !error.is_retryable() {
///         return Err(error);
///     }
///     eprintln!("{} batches still pending: {error}", revocation.pending_batches().len());
///     tokio::time::sleep(error.retry_after().unwrap_or(std::time::Duration::from_secs(5))).await;
/// }
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Revocation {
    tokens: Vec<Secret>,
    /// One flag per batch of [`MAX_CREDENTIALS_PER_REQUEST`] tokens.
    accepted: Vec<bool>,
}

impl fmt::Debug for Revocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Revocation")
            .field("tokens", &self.tokens.len())
            .field("accepted_batches", &self.accepted_batches())
            .field("pending_batches", &self.pending_batches())
            .finish()
    }
}

impl Revocation {
    /// Checks every token (1 to 200 characters; at least one token) and cuts them into batches
    /// of at most [`MAX_CREDENTIALS_PER_REQUEST`], in order. A refusal names the token by its
    /// index, never by value.
    pub fn new<I>(tokens: I) -> Result<Self>
    where
        I: IntoIterator,
        I::Item: Into<Secret>,
    {
        let tokens: Vec<Secret> = tokens.into_iter().map(Into::into).collect();
        if tokens.is_empty() {
            return Err(Error::validation("credentials", "at least 1 token"));
        }
        let redactor = Redactor::new().with_all(&tokens);
        for (index, token) in tokens.iter().enumerate() {
            types::Credential::new(token.expose()).map_err(|error| {
                Error::validation(
                    format!("credentials[{index}]"),
                    redactor.scrub(error.message()),
                )
            })?;
        }
        let batches = tokens.len().div_ceil(MAX_CREDENTIALS_PER_REQUEST);
        Ok(Self {
            tokens,
            accepted: vec![false; batches],
        })
    }

    /// Tokens in all.
    pub fn total(&self) -> usize {
        self.tokens.len()
    }

    /// Tokens in the batches the hub accepted.
    pub fn accepted_tokens(&self) -> usize {
        self.accepted_batches()
            .iter()
            .map(ExactSizeIterator::len)
            .sum()
    }

    /// The batches the hub accepted (202), as ranges of indexes into the tokens given.
    pub fn accepted_batches(&self) -> Vec<Range<usize>> {
        self.batches_where(true)
    }

    /// The batches not accepted yet: what the next [`Client::revoke`] sends.
    pub fn pending_batches(&self) -> Vec<Range<usize>> {
        self.batches_where(false)
    }

    /// Whether every batch was accepted.
    pub fn is_complete(&self) -> bool {
        self.accepted.iter().all(|accepted| *accepted)
    }

    fn batches_where(&self, accepted: bool) -> Vec<Range<usize>> {
        batch_ranges(self.tokens.len())
            .into_iter()
            .zip(&self.accepted)
            .filter(|(_, flag)| **flag == accepted)
            .map(|(range, _)| range)
            .collect()
    }
}

/// The batches of `total` tokens, as index ranges.
fn batch_ranges(total: usize) -> Vec<Range<usize>> {
    (0..total)
        .step_by(MAX_CREDENTIALS_PER_REQUEST)
        .map(|start| start..(start + MAX_CREDENTIALS_PER_REQUEST).min(total))
        .collect()
}

impl Client {
    /// Revokes leaked access tokens: each is fully invalidated and its owner is notified by
    /// email. Sent without authentication, even when this client has a token.
    ///
    /// Every token is checked first (see [`Revocation::new`]), so bad input sends nothing.
    /// Tokens then go in batches of at most 1,000, in order; a failed batch stops the run with
    /// [`Error::RevocationIncomplete`] when earlier batches were accepted (its
    /// [`Error::revocation`] resumes with only the rest), or with the batch's own error when
    /// none were. Only a 202 from the hub itself counts: a redirect is an error. The status is
    /// 202 whether or not a token existed, so success says nothing about token validity.
    pub async fn revoke_credentials<I>(&self, tokens: I) -> Result<RevocationReport>
    where
        I: IntoIterator,
        I::Item: Into<Secret>,
    {
        let mut revocation = Revocation::new(tokens)?;
        self.revoke(&mut revocation).await.map_err(|error| {
            if revocation.accepted_tokens() == 0 {
                error
            } else {
                Error::RevocationIncomplete {
                    accepted: revocation.accepted_tokens(),
                    total: revocation.total(),
                    source: Box::new(error),
                    revocation: Box::new(revocation),
                }
            }
        })
    }

    /// Sends the batches of `revocation` not accepted yet, in order, and marks each one the hub
    /// accepts; stops at the first failure with that batch's error. Calling it again after a
    /// failure resumes: accepted batches are never sent twice. A complete revocation sends
    /// nothing and reports 0 requests.
    pub async fn revoke(&self, revocation: &mut Revocation) -> Result<RevocationReport> {
        let batches = batch_ranges(revocation.total());
        let redactor = Redactor::new().with_all(&revocation.tokens);
        let mut requests = 0;
        for (index, range) in batches.iter().enumerate() {
            if revocation.accepted[index] {
                continue;
            }
            let batch = &revocation.tokens[range.clone()];
            let values: Vec<&str> = batch.iter().map(Secret::expose).collect();
            let body: types::RevokeCredentialsRequest =
                build_request(json!({ "credentials": values }), &redactor)?;
            tracing::debug!(
                batch = index + 1,
                batches = batches.len(),
                tokens = batch.len(),
                "revoking a batch of tokens"
            );
            let request = self.anonymous_api().revoke_credentials().body(body);
            // The response body could echo the tokens: it never reaches an error.
            let call = Call::new("revokeCredentials")
                .with_secrets(batch)
                .withholding_body()
                .unauthenticated();
            requests += 1;
            self.send::<(), _>(call, request.send()).await?;
            revocation.accepted[index] = true;
        }
        Ok(RevocationReport {
            tokens: revocation.total(),
            requests,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_cover_every_token_once() {
        assert_eq!(batch_ranges(1), [Range { start: 0, end: 1 }]);
        assert_eq!(
            batch_ranges(1000),
            [Range {
                start: 0,
                end: 1000
            }]
        );
        assert_eq!(batch_ranges(2500), [0..1000, 1000..2000, 2000..2500]);
    }

    #[test]
    fn debug_shows_no_token() {
        let revocation = Revocation::new(["hub_leaked_SECRET"]).expect("valid");
        let printed = format!("{revocation:?}");
        assert!(!printed.contains("SECRET"), "{printed}");
        assert!(printed.contains("pending_batches: [0..1]"), "{printed}");
    }
}
