//! The HTTP client of a standalone generated crate: HTTPS, timeouts, and redirects that never
//! carry a credential to another origin.
//!
//! reqwest is built with `rustls-no-provider` (its own default provider, aws-lc-rs, is heavy to
//! build) and then cannot build a client until a rustls crypto provider is installed for the
//! process: with the `rustls` feature, [`install_provider`] installs `ring`. A standalone
//! generated crate has a feature of that name, default on; its `Client::new` and
//! `http_client_builder` start from [`client_builder`].

use std::time::Duration;

/// How long [`client_builder`]'s client waits to connect.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
/// How long it waits for the next bytes of a response; a response may take as long as it
/// keeps sending (a stream, a long generation), so there is no timeout on the whole.
pub const READ_TIMEOUT: Duration = Duration::from_secs(60);
/// The most redirects it follows.
pub const MAX_REDIRECTS: usize = 10;

/// Installs `ring` as the process's rustls crypto provider, unless the application installed
/// one already, which then stays. Without the `rustls` feature it does nothing: whoever builds
/// the `reqwest::Client` chooses its TLS.
pub fn install_provider() {
    #[cfg(feature = "rustls")]
    {
        // Err only says a provider is installed already: the application's choice stands.
        let _already_installed = rustls::crypto::ring::default_provider().install_default();
    }
}

/// A `reqwest::ClientBuilder` with the crypto provider installed, [`CONNECT_TIMEOUT`],
/// [`READ_TIMEOUT`], and redirects followed only within one origin (scheme, host and port).
///
/// reqwest drops `Authorization` and `Cookie` when a redirect leaves the host, but not an API
/// key sent in a header of the API's own name, nor does it refuse `https` to `http`: a redirect
/// to another origin is not followed, and its 3xx response is what the operation receives.
pub fn client_builder() -> reqwest::ClientBuilder {
    install_provider();
    reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .read_timeout(READ_TIMEOUT)
        .redirect(reqwest::redirect::Policy::custom(|attempt| {
            let same_origin = attempt
                .previous()
                .last()
                .is_some_and(|previous| previous.origin() == attempt.url().origin());
            if !same_origin {
                attempt.stop()
            } else if attempt.previous().len() > MAX_REDIRECTS {
                attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
            } else {
                attempt.follow()
            }
        }))
}
