//! Which generated operations the hand-written `hub_api::Client` wraps.
//!
//! The root crate calls the generated client through two accessors, `self.api()` (the
//! authenticated client) and `self.anonymous_api()` (the one that sends no token), each call
//! naming the generated method right after: `self.api().list_webhooks().send()`. An operation
//! whose method no such call names is reachable only through `Client::generated()`, the raw
//! escape hatch, and the report says so: a new operation is not wrapped by itself.

use std::collections::BTreeSet;

/// The accessors of `hub_api::Client` that return a generated client (`src/client.rs`).
pub const ACCESSORS: &[&str] = &["api", "anonymous_api"];

/// The generated methods the `sources` call through one of [`ACCESSORS`], however the call is
/// spaced or broken over lines.
pub fn wrapped_methods(sources: &[String]) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for source in sources {
        // Whitespace and line breaks are free between the parts of a method chain.
        let compact: String = source.chars().filter(|c| !c.is_whitespace()).collect();
        for accessor in ACCESSORS {
            let call = format!(".{accessor}().");
            let mut rest = compact.as_str();
            while let Some(at) = rest.find(&call) {
                rest = &rest[at + call.len()..];
                let method: String = rest
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !method.is_empty() {
                    found.insert(method);
                }
            }
        }
    }
    found
}

/// The operations of `surface` (`operationId`, `Client` method) that no call in `sources`
/// wraps, sorted by `operationId`.
pub fn unwrapped(surface: &str, sources: &[String]) -> Vec<(String, String)> {
    let wrapped = wrapped_methods(sources);
    super::surface::client_methods_by_operation(surface)
        .into_iter()
        .filter(|(_, method)| !wrapped.contains(method))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_through_either_accessor_are_wrappers_however_spaced() {
        let sources = vec![
            "let request = self.api().list_webhooks().send();".to_owned(),
            "let call = self\n    .api()\n    .update_webhook()\n    .webhook_id(id);".to_owned(),
            "self.anonymous_api().revoke_credentials().body(body)".to_owned(),
            // Not an accessor of the generated client: not a wrapper.
            "self.generated().get_whoami().send()".to_owned(),
        ];
        assert_eq!(
            wrapped_methods(&sources),
            BTreeSet::from([
                "list_webhooks".to_owned(),
                "revoke_credentials".to_owned(),
                "update_webhook".to_owned(),
            ])
        );
        let surface = "# Operations\n\n\
            getWhoami: GET /api/whoami\n  Client::fn get_whoami(&self) -> builder::GetWhoami<'_>\n\n\
            listWebhooks: GET /api/settings/webhooks\n  Client::fn list_webhooks(&self) -> builder::ListWebhooks<'_>\n";
        assert_eq!(
            unwrapped(surface, &sources),
            [("getWhoami".to_owned(), "get_whoami".to_owned())]
        );
    }
}
