//! The one error type of code generation. Every variant says where (a file location, a JSON
//! pointer or an operation) and why, so a maintainer can fix the spec without reading codegen.

/// Why generation stopped.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The spec text is not valid YAML or JSON.
    #[error("{file}:{line}:{column}: {message}")]
    Parse {
        file: String,
        line: usize,
        column: usize,
        message: String,
    },
    /// The spec uses something OpenAPI 3.0 (as progenitor reads it) cannot express.
    #[error("cannot down-level {pointer}: {reason}")]
    Downlevel { pointer: String, reason: String },
    /// A patch does not fit the document it is applied to.
    #[error("patch on {target} cannot be applied: {reason}")]
    Patch { target: String, reason: String },
    /// An operation would make progenitor panic or generate something wrong.
    #[error("operation {operation}: {reason}")]
    Preflight { operation: String, reason: String },
    /// The down-levelled document is not OpenAPI 3.0 as the `openapiv3` crate reads it.
    #[error("down-levelled document is not valid OpenAPI 3.0 at {pointer}: {message}")]
    NotOpenApi30 { pointer: String, message: String },
    /// progenitor or typify refused the document.
    #[error("progenitor: {0}")]
    Progenitor(String),
    /// The generated tokens are not valid Rust (a bug in a patch's emitted code).
    #[error("generated code does not parse: {0}")]
    Syntax(String),
    /// A strict run met defects, unenforced rules or things it had to leave out; `report`
    /// lists every one of them, one per line.
    #[error("{count} problems in a strict run:{report}")]
    Strict { count: usize, report: String },
    /// An argument of the caller is not usable.
    #[error("{0}")]
    Usage(String),
}

impl Error {
    pub(crate) fn downlevel(pointer: &str, reason: impl Into<String>) -> Self {
        Self::Downlevel {
            pointer: pointer.to_owned(),
            reason: reason.into(),
        }
    }

    pub(crate) fn patch(target: &str, reason: impl Into<String>) -> Self {
        Self::Patch {
            target: target.to_owned(),
            reason: reason.into(),
        }
    }
}
