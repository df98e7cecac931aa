//! [`Secret`]: a string that never prints. Hub tokens, storage tokens, webhook secrets and job
//! secrets are held in it so that no `Debug`, `Display`, log line or error message can carry
//! their value by accident; code that must send the value asks for it with [`Secret::expose`].

use std::fmt;

use subtle::ConstantTimeEq;

/// A secret string. `Debug` and `Display` print `[redacted]`; equality compares in constant
/// time, so comparing secrets does not leak how much of them matched.
#[derive(Clone, Default)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret value.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The secret value, for the one place that must send or compare it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// Whether the value is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Compares with `other` in time that depends only on the lengths, never on the contents.
    pub fn matches(&self, other: &[u8]) -> bool {
        // `subtle` refuses a length mismatch at once (a secret's length is not worth padding
        // for) and compares equal lengths without data-dependent branches.
        self.0.as_bytes().ct_eq(other).into()
    }
}

impl PartialEq for Secret {
    fn eq(&self, other: &Self) -> bool {
        self.matches(other.0.as_bytes())
    }
}

impl Eq for Secret {}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl fmt::Display for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("[redacted]")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Self(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Self(value.to_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_prints_its_value() {
        let secret = Secret::new("hub_abc123");
        assert_eq!(format!("{secret}"), "[redacted]");
        assert_eq!(format!("{secret:?}"), "[redacted]");
        assert_eq!(format!("{:?}", Some(&secret)), "Some([redacted])");
        assert_eq!(secret.expose(), "hub_abc123");
    }

    #[test]
    fn compares_whole_values() {
        let secret = Secret::new("s3cret");
        assert!(secret.matches(b"s3cret"));
        assert!(!secret.matches(b"s3cre"));
        assert!(!secret.matches(b"s3cret!"));
        assert!(!secret.matches(b"S3cret"));
        assert!(Secret::new("").matches(b""));
        assert_eq!(secret, Secret::from("s3cret"));
        assert_ne!(secret, Secret::from("other"));
    }
}
