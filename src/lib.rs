//! `hub-api`: a typed, validated Rust client for the hub's notifications, settings, token
//! revocation, webhooks and storage access tokens.
//!
//! The operations and types are generated from `spec/openapi.yaml` into the `hub-api-client`
//! crate, re-exported here as [`generated`] and [`types`]. This crate adds what a generator
//! cannot: authentication, typed errors, pagination, batching, the storage-token provider and
//! the webhook receiver.

pub use hub_api_client as generated;
pub use hub_api_client::types;

mod secret;

pub use secret::Secret;

mod client;
mod error;
pub mod notifications;
pub mod partial;
mod payload;
mod request_check;
pub mod revocation;
pub mod storage;
mod transport;
pub mod webhook_admin;

pub use client::{
    Client, ClientBuilder, DEFAULT_CONNECT_TIMEOUT, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT,
    DEFAULT_USER_AGENT, TOKEN_ENV_VAR,
};
pub use error::{Error, MAX_ERROR_BODY_TEXT, Result};
pub use payload::{PAYLOAD_ENV_VAR, PayloadError, WebhookPayloadExt};
pub use storage::{StorageToken, StorageTokenProvider};
pub use transport::{MAX_REDIRECTS, RetryPolicy};

#[cfg(feature = "receiver")]
pub mod webhooks;

/// The README's Rust snippets, compiled by `cargo test --doc` so they cannot drift from the API.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
