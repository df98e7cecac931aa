//! [`Report`]: an error as `main` should print it (the type's docs say how and why).

use std::error::Error as StdError;
use std::fmt;

/// Any error, printed by `Debug` as its message and its causes. `?` converts every error type
/// into it, as `anyhow` or `Box<dyn Error>` would; only the printing differs. Like every
/// message of this crate, what it prints is safe to log.
///
/// A `main` that returns `Result<(), E>` prints a failure with `E`'s `Debug`, which for
/// [`Error`](crate::Error) is the variant and its fields (`Validation { field: "HUB_BASE_URL",
/// .. }`); returning `Result<(), hub_api::Report>` prints the message instead, then each cause
/// the message does not already say.
///
/// ```no_run
/// use hub_api::prelude::*;
///
/// #[tokio::main]
/// async fn main() -> Result<(), hub_api::Report> {
///     let client = Client::from_env()?;
///     let settings = client.mcp_settings().await?;
///     println!("{} built-in tools", settings.built_in_tools.len());
///     Ok(())
/// }
/// ```
///
/// A failure then reads `Error: listNotifications: transport error: error sending request for
/// url (...)` followed by `caused by: tcp connect error: Connection refused (os error 111)`.
pub struct Report(Box<dyn StdError + Send + Sync + 'static>);

impl Report {
    /// A report of `message` alone, for a failure that is no error value (a usage line):
    /// `option(&args, "--base-url").ok_or_else(|| Report::msg(USAGE))?`.
    pub fn msg(message: impl Into<String>) -> Self {
        Self(Box::new(Message(message.into())))
    }

    /// The error reported.
    pub fn error(&self) -> &(dyn StdError + Send + Sync + 'static) {
        &*self.0
    }

    /// The error reported, if it is an `E` (a [`crate::Error`], to ask it
    /// [`is_retryable`](crate::Error::is_retryable) and the like).
    pub fn downcast_ref<E: StdError + 'static>(&self) -> Option<&E> {
        self.0.downcast_ref()
    }
}

/// The error of [`Report::msg`]: its message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Message(String);

// No `impl Error for Report`: it would overlap with this conversion (`From<T> for T`).
impl<E: StdError + Send + Sync + 'static> From<E> for Report {
    fn from(error: E) -> Self {
        Self(Box::new(error))
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// The message, then one `caused by:` line per cause, skipping a cause whose text the message
/// already holds (this crate's messages quote their first cause, `transport error: {cause}`).
impl fmt::Debug for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut said = self.0.to_string();
        f.write_str(&said)?;
        let mut cause = self.0.source();
        while let Some(error) = cause {
            let text = error.to_string();
            if !said.contains(&text) {
                write!(f, "\n  caused by: {text}")?;
                said.push_str(&text);
            }
            cause = error.source();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("reading the config: {0}")]
    struct Quoting(#[source] std::io::Error);

    #[derive(Debug, thiserror::Error)]
    #[error("starting up")]
    struct Outer(#[source] Quoting);

    #[test]
    fn debug_is_the_message_and_each_cause_not_yet_said() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
        let report = Report::from(Outer(Quoting(io)));
        assert_eq!(
            format!("{report:?}"),
            "starting up\n  caused by: reading the config: no such file"
        );
        assert_eq!(report.to_string(), "starting up");
        assert!(report.downcast_ref::<Outer>().is_some());
        let usage = Report::msg("usage: tool --base-url URL\n  more");
        assert_eq!(format!("{usage:?}"), "usage: tool --base-url URL\n  more");
    }
}
