//! HTTPS for a generated client. reqwest is built with `rustls-no-provider` (its own default
//! provider, aws-lc-rs, is heavy to build) and then cannot build a client until a rustls crypto
//! provider is installed for the process: with the `rustls` feature, [`install_provider`]
//! installs `ring`. A standalone generated crate has a feature of that name, default on, and
//! its `Client::new` calls it.

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
