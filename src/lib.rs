//! `hub-api`: a typed, validated Rust client for the hub's notifications, settings, token
//! revocation, webhooks and storage access tokens.
//!
//! The operations and types are generated from `spec/openapi.yaml` into the `hub-api-client`
//! crate, re-exported here as [`generated`] and [`types`]. This crate adds what a generator
//! cannot: authentication, typed errors, pagination, batching, constructors for webhook jobs,
//! the storage-token provider and the webhook receiver.
//!
//! Start with `use hub_api::prelude::*;` (see [`prelude`]):
//!
//! ```no_run
//! use hub_api::prelude::*;
//!
//! # async fn run() -> hub_api::Result<()> {
//! let client = Client::new("https://hub.example.com")?; // token from HUB_TOKEN
//! let unread: Vec<Notification> = client.notifications(NotificationFilter::unread()).try_collect().await?;
//! for notification in &unread {
//!     println!("{}", notification.title().unwrap_or("(a kind newer than this client)"));
//! }
//! # Ok(())
//! # }
//! ```
//!
//! # Generated builders
//!
//! Every generated type has a builder, `types::Expose::builder()`, of the type
//! `types::builder::Expose`: the builder has the type's own name in the `builder` module (the
//! generator names them so), which is why the documentation lists `From<Expose> for Expose`.
//! A builder becomes its type with `try_into()`/`try_from`, which checks the rules. Nested
//! builders are not taken by a parent's setter: convert them first, or use the hand-written
//! constructors ([`jobs::JobSpec`], [`webhooks::WebhookSpec`]) where they exist.
//!
//! # Names changed in issue 31
//!
//! The crate is unpublished 0.1; these changed so that each concept has one name and one shape:
//!
//! | before | now |
//! |---|---|
//! | `hub_api::webhooks` (the receiver, feature `receiver`) | `hub_api::receiver` |
//! | `hub_api::webhook_admin` (list, create, ... webhooks) | [`hub_api::webhooks`](webhooks) |
//! | `storage_access_token(type, id, token_type, revision)` | [`Client::storage_access_token`]`(&repository, token_type)` |
//! | `StorageTokenProvider::token(type, id, revision, token_type)` | [`StorageTokenProvider::token`]`(&repository, token_type)` |
//! | `hub_api::storage::StorageRepoType` (and in the prelude) | [`types::RepoType`] in a [`Repository`] |
//! | `Error::NotFound { repo_id, revision }` | [`Error::NotFound`]` { repository, request_id }` |
//! | `Error::Forbidden { token_type }` | [`Error::Forbidden`]` { repository, token_type, request_id }` |
//! | `Decode`, `ResponseTooLarge`, `StaleStorageToken`, [`partial::ItemError`] | the same, with a `request_id` field ([`Error::request_id`]) |
//! | `hub_api::types::StorageToken` (the generated `accessToken` string) | `hub_api::generated::types::StorageToken`; `types::StorageToken` is [`StorageToken`] |

/// The whole generated client (the `hub-api-client` crate, shown here so that its pages are
/// part of this crate's documentation): the low-level `Client` with one builder per operation,
/// [`types`], the `schemas` registry that decodes any component by name, and the builders.
pub mod generated {
    #[doc(inline)]
    pub use hub_api_client::*;
}

/// The generated types ([`generated::types`]), with one exception: `types::StorageToken` is
/// this crate's [`StorageToken`] (the token the client and the provider hand out), so that a
/// program meets one `StorageToken`. The generated type of the bare `accessToken` string keeps
/// its place as `hub_api::generated::types::StorageToken`.
pub mod types {
    #[doc(inline)]
    pub use hub_api_client::types::*;

    // Shadows the glob's generated `StorageToken`.
    #[doc(no_inline)]
    pub use crate::storage::StorageToken;
}

mod secret;

pub use secret::Secret;

pub mod as_sent;
mod client;
mod error;
pub mod jobs;
pub mod notifications;
pub mod partial;
mod payload;
mod report;
mod repository;
mod request_check;
pub mod revocation;
pub mod storage;
mod transport;
pub mod webhooks;

pub use client::{
    BASE_URL_ENV_VAR, Client, ClientBuilder, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES,
    DEFAULT_TIMEOUT, DEFAULT_USER_AGENT, TOKEN_ENV_VAR,
};
pub use error::{Error, MAX_ERROR_BODY_TEXT, Result};
pub use payload::{PAYLOAD_ENV_VAR, PayloadError, WebhookPayloadExt};
pub use report::Report;
pub use repository::Repository;
pub use storage::{StorageToken, StorageTokenProvider};
pub use transport::{MAX_REDIRECTS, RetryContext, RetryPolicy};

#[cfg(feature = "receiver")]
pub mod receiver;

#[cfg(feature = "test-util")]
pub mod mock;

/// What most programs need, in one import: `use hub_api::prelude::*;`.
///
/// It brings the client, its error type, the hand-written request helpers and the generated
/// types they take, and [`TryStreamExt`](futures_util::TryStreamExt), the stream trait whose
/// `try_collect` and `try_next` read [`Client::notifications`] and
/// [`Client::notification_pages`].
pub mod prelude {
    pub use crate::jobs::JobSpec;
    pub use crate::notifications::{
        Mention, NotificationExt, NotificationFilter, NotificationSelection, ReadStatus,
    };
    pub use crate::storage::{StorageToken, StorageTokenProvider};
    pub use crate::types::{
        self, Arch, Flavor, Notification, RepoType, StorageTokenType, WatchedType, WebhookDomain,
    };
    pub use crate::webhooks::WebhookSpec;
    pub use crate::{Client, Error, Report, Repository, Result, Secret, WebhookPayloadExt};
    pub use futures_util::TryStreamExt;
}

/// The README's Rust snippets, compiled by `cargo test --doc` so they cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
