//! Access tokens for the content-addressed storage service: the single call
//! ([`Client::storage_access_token`]) and [`StorageTokenProvider`], a cache that refreshes
//! tokens shortly before they expire. Both name the repository with one [`Repository`] value
//! and take it first, then the token type:
//!
//! ```no_run
//! use hub_api::Repository;
//! use hub_api::storage::{StorageTokenProvider, StorageTokenType};
//! # async fn demo(client: hub_api::Client) -> hub_api::Result<()> {
//! let repository = Repository::dataset("acme/squad").at_revision("v1");
//! let once = client.storage_access_token(&repository, StorageTokenType::Read).await?;
//! let provider = StorageTokenProvider::new(client);
//! let cached = provider.token(&repository, StorageTokenType::Read).await?;
//! # let _ = (once, cached);
//! # Ok(()) }
//! ```
//!
//! (Before issue 31 the call took `(type, id, token_type, revision)` and the provider
//! `(type, id, revision, token_type)`; this module re-exported `StorageRepoType`, which
//! [`RepoType`](crate::types::RepoType) in the [`Repository`] replaces.)
//!
//! # The provider's rules
//!
//! - Tokens are cached per (repository type, repository id, revision, read or write); a token is
//!   never served for another repository or revision. A repository that names no revision and
//!   the same one at `main` ([`Repository::DEFAULT_REVISION`]) share their tokens.
//! - A cached token is served until `refresh_margin` (default 30 s) before its `exp`.
//! - A read request is also served by a cached, still fresh write token of the same repository
//!   and revision (write scope can do everything read scope can), and, when its own refresh
//!   fails, by such a write token that has not expired yet.
//! - Concurrent callers of one key share one refresh: the first takes the key's refresh lock and
//!   calls the hub; the others wait for it and take its outcome, whatever it is. One refresh is
//!   one hub call (plus the client's own retries, see [`RetryPolicy`](crate::RetryPolicy)).
//! - A token that arrives already expired, or inside the refresh margin, is not a success: the
//!   refresh fails with [`Error::StaleStorageToken`] (a wrong clock, or a margin longer than the
//!   hub's tokens live), so it is neither cached nor asked for again at once.
//! - A failed refresh while the cached token is still valid (before `exp`) serves the cached
//!   token; once it has expired, the refresh error is returned.
//! - Failed refreshes back off: after `n` failures in a row the key is not refreshed again for
//!   `failure_backoff · 2^(n-1)` (default 1 s, capped at 30 s); callers in that window get the
//!   cached token while it is valid, else the last error, without a hub call.
//!
//! Time comes from a [`Clock`], so tests can move it.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::client::Answer;
use crate::client::Call;
use crate::error::Result;
use crate::{Client, Error, Repository, Secret, generated, types};

pub use crate::types::StorageTokenType;

/// Refresh this long before `exp` unless told otherwise (the hub's recommendation).
pub const DEFAULT_REFRESH_MARGIN: Duration = Duration::from_secs(30);

/// After a failed refresh, wait this long before the next one, doubling with each failure in a
/// row up to [`DEFAULT_MAX_FAILURE_BACKOFF`].
pub const DEFAULT_FAILURE_BACKOFF: Duration = Duration::from_secs(1);

/// The longest wait between failed refreshes.
pub const DEFAULT_MAX_FAILURE_BACKOFF: Duration = Duration::from_secs(30);

/// A source of the current time.
pub trait Clock: Send + Sync {
    /// The current time.
    fn now(&self) -> SystemTime;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> SystemTime {
        SystemTime::now()
    }
}

/// A storage access token as the client and the provider hand it out: the token value (in a
/// [`Secret`]), the storage service's address and the expiry. `Debug` never shows the token
/// value.
///
/// This is the one `StorageToken` of the crate (`hub_api::types::StorageToken` names it too).
/// The hub's response it is read from is the generated [`types::StorageAccessToken`], whose
/// bare `accessToken` string has the generated type `hub_api::generated::types::StorageToken`.
#[derive(Debug, Clone)]
pub struct StorageToken {
    access_token: Secret,
    cas_url: String,
    expires_at: SystemTime,
    token_type: StorageTokenType,
    /// The hub's id of the request that issued it, for [`Error::StaleStorageToken`].
    request_id: Option<String>,
}

impl StorageToken {
    /// The bearer token for the storage service: send `Authorization: Bearer <token>`.
    pub fn access_token(&self) -> &Secret {
        &self.access_token
    }

    /// The base address of the storage service.
    pub fn cas_url(&self) -> &str {
        &self.cas_url
    }

    /// When the token expires (`exp`).
    pub fn expires_at(&self) -> SystemTime {
        self.expires_at
    }

    /// The scope the token was issued with; a provider may answer a read request with a write
    /// token.
    pub fn token_type(&self) -> StorageTokenType {
        self.token_type
    }

    /// Whether the token is still valid at `now`.
    pub fn is_valid_at(&self, now: SystemTime) -> bool {
        now < self.expires_at
    }

    /// Whether the token is valid at `now` and will stay valid for at least `margin`.
    fn is_fresh_at(&self, now: SystemTime, margin: Duration) -> bool {
        now.checked_add(margin)
            .is_some_and(|later| later < self.expires_at)
    }
}

impl Client {
    /// Asks the hub for a storage access token for `repository` with `token_type` scope
    /// (`GET /api/{repo_type}s/{namespace}/{repo}/cas-{token_type}-token/{revision}`, the
    /// revision [`Repository::DEFAULT_REVISION`] when the repository names none). 401, 403 and
    /// 404 come back as [`Error::Unauthorized`], [`Error::Forbidden`] and [`Error::NotFound`].
    /// The token is returned as issued, even if already expired; the provider checks that.
    ///
    /// Storage tokens exist for model, dataset and space repositories; another type, or an id
    /// that is not `<namespace>/<name>`, is refused with [`Error::Validation`] before sending.
    /// The revision is sent percent-encoded (`refs/pr/5` as `refs%2Fpr%2F5`). To reuse tokens
    /// until they are about to expire, use a [`StorageTokenProvider`].
    ///
    /// ```no_run
    /// use hub_api::Repository;
    /// use hub_api::types::StorageTokenType;
    /// # async fn demo(client: hub_api::Client) -> hub_api::Result<()> {
    /// let repository = Repository::model("acme/bert-tiny").at_revision("v1");
    /// let token = client.storage_access_token(&repository, StorageTokenType::Read).await?;
    /// println!("storage at {} until {:?}", token.cas_url(), token.expires_at());
    /// # Ok(()) }
    /// ```
    pub async fn storage_access_token(
        &self,
        repository: &Repository,
        token_type: StorageTokenType,
    ) -> Result<StorageToken> {
        let (repo_type, repository) = repository.for_storage()?;
        let (namespace, name) = repository.namespace_and_name()?;
        let request = self
            .api()
            .get_storage_access_token()
            .repo_type(repo_type)
            .namespace(namespace)
            .repo(name)
            .token_type(token_type)
            .revision(repository.effective_revision())
            .send();
        let special = |error: &generated::Error<()>, request_id: Option<&str>| {
            let generated::Error::ErrorResponse(response) = error else {
                return None;
            };
            let request_id = request_id.map(str::to_owned);
            match response.status().as_u16() {
                403 => Some(Error::Forbidden {
                    repository: repository.clone(),
                    token_type,
                    request_id,
                }),
                404 => Some(Error::NotFound {
                    repository: repository.clone(),
                    request_id,
                }),
                _ => None,
            }
        };
        let answer: Answer<types::StorageAccessToken> = self
            .send_with(Call::new("getStorageAccessToken"), request, special)
            .await?;
        let token = answer.value;
        let expires_at = Duration::try_from_secs_f64(token.exp)
            .ok()
            .and_then(|since_epoch| UNIX_EPOCH.checked_add(since_epoch))
            .ok_or_else(|| Error::Decode {
                operation: "getStorageAccessToken",
                path: "exp".into(),
                message: "not a representable Unix timestamp".into(),
                request_id: answer.request_id.clone(),
            })?;
        Ok(StorageToken {
            access_token: Secret::new(String::from(token.access_token)),
            cas_url: String::from(token.cas_url),
            expires_at,
            token_type,
            request_id: answer.request_id,
        })
    }
}

/// A cache of storage access tokens with single-flight refresh; see the
/// [module documentation](self) for its rules. Cheap to clone: clones share the cache.
///
/// ```no_run
/// use hub_api::Repository;
/// use hub_api::storage::{StorageTokenProvider, StorageTokenType};
/// # async fn demo(client: hub_api::Client) -> hub_api::Result<()> {
/// let provider = StorageTokenProvider::new(client);
/// let token = provider
///     .token(&Repository::model("acme/bert-tiny"), StorageTokenType::Read)
///     .await?;
/// println!("storage at {} until {:?}", token.cas_url(), token.expires_at());
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct StorageTokenProvider {
    inner: Arc<ProviderInner>,
}

struct ProviderInner {
    client: Client,
    clock: Arc<dyn Clock>,
    refresh_margin: Duration,
    failure_backoff: Duration,
    max_failure_backoff: Duration,
    /// One entry per key, created on first use and kept for the provider's lifetime.
    entries: Mutex<HashMap<TokenKey, Arc<Entry>>>,
}

impl fmt::Debug for StorageTokenProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("StorageTokenProvider")
            .field("client", &self.inner.client)
            .field("refresh_margin", &self.inner.refresh_margin)
            .field("failure_backoff", &self.inner.failure_backoff)
            .field("max_failure_backoff", &self.inner.max_failure_backoff)
            .finish_non_exhaustive()
    }
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct TokenKey {
    /// Checked, with its revision explicit (see `Repository::for_storage`).
    repository: Repository,
    token_type: StorageTokenType,
}

#[derive(Default)]
struct Entry {
    /// The cached token and the outcome of the last refresh; locked only briefly, never across
    /// an await.
    state: Mutex<EntryState>,
    /// Held for the whole of a refresh: the single flight.
    refresh: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct EntryState {
    /// The last token received that was fresh on arrival.
    token: Option<StorageToken>,
    /// Completed refresh attempts; a waiter that sees it change knows someone refreshed while
    /// it waited, and takes that outcome instead of calling the hub again.
    attempts: u64,
    /// What the last refresh returned to its callers.
    last_outcome: Option<Result<StorageToken>>,
    /// Why the last refresh failed, while failures go on.
    last_error: Option<Error>,
    /// Failed refreshes in a row, and the time before which no new refresh starts.
    failures: u32,
    backoff_until: Option<SystemTime>,
}

impl EntryState {
    /// During a failure backoff: the cached token while it is valid, else the last error.
    fn during_backoff(&self, now: SystemTime) -> Option<Result<StorageToken>> {
        if self.backoff_until.is_none_or(|until| now >= until) {
            return None;
        }
        if let Some(token) = self.token.as_ref().filter(|token| token.is_valid_at(now)) {
            return Some(Ok(token.clone()));
        }
        self.last_error.clone().map(Err)
    }
}

/// Configures a [`StorageTokenProvider`]; see [`StorageTokenProvider::builder`].
#[must_use]
pub struct StorageTokenProviderBuilder {
    client: Client,
    clock: Arc<dyn Clock>,
    refresh_margin: Duration,
    failure_backoff: Duration,
    max_failure_backoff: Duration,
}

impl StorageTokenProviderBuilder {
    /// Refreshes this long before `exp` (default [`DEFAULT_REFRESH_MARGIN`]).
    pub fn refresh_margin(mut self, margin: Duration) -> Self {
        self.refresh_margin = margin;
        self
    }

    /// Takes the time from `clock` (default [`SystemClock`]).
    pub fn clock(mut self, clock: Arc<dyn Clock>) -> Self {
        self.clock = clock;
        self
    }

    /// After a failed refresh, waits `initial` before the next one, doubling with each failure
    /// in a row up to `max` (defaults [`DEFAULT_FAILURE_BACKOFF`] and
    /// [`DEFAULT_MAX_FAILURE_BACKOFF`]). `Duration::ZERO` turns the backoff off.
    pub fn failure_backoff(mut self, initial: Duration, max: Duration) -> Self {
        self.failure_backoff = initial;
        self.max_failure_backoff = max;
        self
    }

    /// Builds the provider.
    pub fn build(self) -> StorageTokenProvider {
        StorageTokenProvider {
            inner: Arc::new(ProviderInner {
                client: self.client,
                clock: self.clock,
                refresh_margin: self.refresh_margin,
                failure_backoff: self.failure_backoff,
                max_failure_backoff: self.max_failure_backoff,
                entries: Mutex::new(HashMap::new()),
            }),
        }
    }
}

impl StorageTokenProvider {
    /// A provider with the system clock and the default refresh margin.
    pub fn new(client: Client) -> Self {
        Self::builder(client).build()
    }

    /// Starts configuring a provider that gets its tokens through `client`.
    pub fn builder(client: Client) -> StorageTokenProviderBuilder {
        StorageTokenProviderBuilder {
            client,
            clock: Arc::new(SystemClock),
            refresh_margin: DEFAULT_REFRESH_MARGIN,
            failure_backoff: DEFAULT_FAILURE_BACKOFF,
            max_failure_backoff: DEFAULT_MAX_FAILURE_BACKOFF,
        }
    }

    /// A token for `repository` (at its revision, `main` when it names none) with at least
    /// `token_type` scope: the cached one while fresh, otherwise a refreshed one. The arguments
    /// are those of [`Client::storage_access_token`], in the same order, and refused the same
    /// way before anything is sent.
    pub async fn token(
        &self,
        repository: &Repository,
        token_type: StorageTokenType,
    ) -> Result<StorageToken> {
        let (_, repository) = repository.for_storage()?;
        let key = TokenKey {
            repository,
            token_type,
        };
        let repository = &key.repository;
        let write_key = (token_type == StorageTokenType::Read).then(|| TokenKey {
            token_type: StorageTokenType::Write,
            ..key.clone()
        });
        let now = self.inner.clock.now();
        if let Some(token) = write_key.as_ref().and_then(|write_key| {
            self.cached_token(write_key, |token| {
                token.is_fresh_at(now, self.inner.refresh_margin)
            })
        }) {
            tracing::trace!(
                %repository,
                "storage token: read served by a cached write token"
            );
            return Ok(token);
        }
        let outcome = self.token_for_key(&key).await;
        // A read whose refresh failed may still use a write token that has not expired.
        match (outcome, write_key) {
            (Err(error), Some(write_key)) => {
                let now = self.inner.clock.now();
                let write_token = self.cached_token(&write_key, |token| token.is_valid_at(now));
                if write_token.is_some() {
                    tracing::warn!(
                        %repository, error = %error,
                        "storage token refresh failed; serving the cached write token until it expires"
                    );
                }
                write_token.ok_or(error)
            }
            (outcome, _) => outcome,
        }
    }

    /// The token of exactly this key: cached while fresh, otherwise refreshed once for all
    /// concurrent callers (unless failures put the key in backoff).
    async fn token_for_key(&self, key: &TokenKey) -> Result<StorageToken> {
        let token_type = key.token_type;
        let repository = &key.repository;
        let now = self.inner.clock.now();
        let entry = self.entry(key);
        let observed_attempts = {
            let state = lock(&entry.state);
            if let Some(token) = state
                .token
                .as_ref()
                .filter(|token| token.is_fresh_at(now, self.inner.refresh_margin))
            {
                tracing::trace!(%repository, %token_type, "storage token: cache hit");
                return Ok(token.clone());
            }
            if let Some(outcome) = state.during_backoff(now) {
                tracing::trace!(%repository, %token_type, "storage token: in failure backoff");
                return outcome;
            }
            state.attempts
        };

        let _refreshing = entry.refresh.lock().await;
        {
            let state = lock(&entry.state);
            if state.attempts != observed_attempts
                && let Some(outcome) = &state.last_outcome
            {
                // Someone refreshed while this caller waited: share that outcome, whatever it
                // is, so that one refresh is one hub call.
                return outcome.clone();
            }
        }
        let outcome = self.refresh(key).await;
        let now = self.inner.clock.now();
        let mut state = lock(&entry.state);
        state.attempts += 1;
        let outcome = match outcome {
            Ok(token) => {
                state.token = Some(token.clone());
                state.failures = 0;
                state.backoff_until = None;
                state.last_error = None;
                Ok(token)
            }
            Err(error) => {
                state.failures = state.failures.saturating_add(1);
                state.backoff_until = now.checked_add(self.failure_backoff(state.failures));
                state.last_error = Some(error.clone());
                match state.token.as_ref().filter(|token| token.is_valid_at(now)) {
                    Some(token) => {
                        tracing::warn!(
                            %repository, %token_type, error = %error,
                            "storage token refresh failed; serving the cached token until it expires"
                        );
                        Ok(token.clone())
                    }
                    None => Err(error),
                }
            }
        };
        state.last_outcome = Some(outcome.clone());
        outcome
    }

    /// One hub call; a token that is not fresh on arrival is [`Error::StaleStorageToken`].
    async fn refresh(&self, key: &TokenKey) -> Result<StorageToken> {
        tracing::debug!(
            repository = %key.repository,
            token_type = %key.token_type,
            "storage token: refreshing"
        );
        let token = self
            .inner
            .client
            .storage_access_token(&key.repository, key.token_type)
            .await?;
        let received_at = self.inner.clock.now();
        if !token.is_fresh_at(received_at, self.inner.refresh_margin) {
            return Err(Error::StaleStorageToken {
                expires_at: token.expires_at,
                received_at,
                refresh_margin: self.inner.refresh_margin,
                request_id: token.request_id,
            });
        }
        Ok(token)
    }

    /// The wait after `failures` failed refreshes in a row.
    fn failure_backoff(&self, failures: u32) -> Duration {
        let exponent = failures.saturating_sub(1).min(20);
        self.inner
            .failure_backoff
            .saturating_mul(1 << exponent)
            .min(self.inner.max_failure_backoff)
    }

    fn entry(&self, key: &TokenKey) -> Arc<Entry> {
        let mut entries = lock(&self.inner.entries);
        Arc::clone(entries.entry(key.clone()).or_default())
    }

    /// The cached token of `key`, if there is one that `usable` accepts.
    fn cached_token(
        &self,
        key: &TokenKey,
        usable: impl FnOnce(&StorageToken) -> bool,
    ) -> Option<StorageToken> {
        let entry = lock(&self.inner.entries).get(key).cloned()?;
        let state = lock(&entry.state);
        state.token.as_ref().filter(|token| usable(token)).cloned()
    }
}

/// These locks guard plain data that no panic can leave half-written; a poisoned lock is still
/// consistent, so it is used rather than turned into a panic.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repo_ids_have_exactly_two_parts() {
        assert!(matches!(
            Repository::model("acme/bert").namespace_and_name(),
            Ok(("acme", "bert"))
        ));
        for bad in ["acme", "/bert", "acme/", "acme/bert/x", ""] {
            assert!(
                Repository::model(bad).namespace_and_name().is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn freshness_respects_the_margin() {
        let expires_at = UNIX_EPOCH + Duration::from_secs(1000);
        let token = StorageToken {
            access_token: Secret::new("t"),
            cas_url: "https://cas".into(),
            expires_at,
            token_type: StorageTokenType::Read,
            request_id: None,
        };
        let margin = Duration::from_secs(30);
        assert!(token.is_fresh_at(UNIX_EPOCH + Duration::from_secs(969), margin));
        assert!(!token.is_fresh_at(UNIX_EPOCH + Duration::from_secs(970), margin));
        assert!(token.is_valid_at(UNIX_EPOCH + Duration::from_secs(999)));
        assert!(!token.is_valid_at(expires_at));
    }
}
