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
    /// A file of a description split over files cannot be read; `needed_by` names the `$ref`
    /// that needs it (and the file that holds it).
    #[error("{file}: cannot be read ({reason}); {needed_by}")]
    Unreadable {
        file: String,
        reason: String,
        needed_by: String,
    },
    /// The spec uses something OpenAPI 3.0 (as progenitor reads it) cannot express.
    #[error("cannot down-level {pointer}: {reason}")]
    Downlevel { pointer: String, reason: String },
    /// A rule the spec states is dropped by the generators and nothing enforces it: the client
    /// would accept more than the spec. `pointer` is in the source (3.1) document.
    #[error("{pointer} ({owner}): typify drops {rule} and nothing enforces it; {remedy}")]
    Unenforced {
        pointer: String,
        owner: String,
        rule: String,
        remedy: String,
    },
    /// Every problem one run found, in document order (never fewer than two).
    #[error("{} problems:\n{}", .0.len(), list(.0))]
    Problems(Vec<Error>),
    /// An `x-rust-` decision in the spec is malformed, unknown or on a schema it cannot apply to.
    #[error("decision {pointer}: {reason}")]
    Decision { pointer: String, reason: String },
    /// An inline schema needs a patch but cannot be given a type name from its place.
    #[error("inline schema {pointer}: {reason}")]
    Inline { pointer: String, reason: String },
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
    /// What progenitor or typify generated does not have the shape a later step relies on
    /// (a struct that matches no schema, an attribute a step does not know): the generator
    /// contract (`crate::contract`) no longer holds, or the schema needs a name.
    #[error("generated code does not fit: {0}")]
    Mismatch(String),
    /// Like [`Error::Mismatch`], for one generated type, by its Rust name: outside a strict
    /// run the schema that type comes from is read as any JSON value and generation goes on.
    #[error("generated code does not fit: type `{type_name}`: {reason}")]
    TypeMismatch { type_name: String, reason: String },
    /// A strict run met defects, unenforced rules or things it had to leave out; `report`
    /// lists every one of them, one per line.
    #[error("{count} problems in a strict run:{report}")]
    Strict { count: usize, report: String },
    /// An argument of the caller is not usable.
    #[error("{0}")]
    Usage(String),
}

fn list(problems: &[Error]) -> String {
    problems
        .iter()
        .map(|problem| format!("  - {problem}"))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Error {
    /// `Ok` for no problem, the problem itself for one, [`Error::Problems`] for more (nested
    /// lists are flattened).
    pub fn from_problems(problems: Vec<Error>) -> Result<(), Error> {
        let mut flat = Vec::new();
        for problem in problems {
            match problem {
                Self::Problems(inner) => flat.extend(inner),
                other => flat.push(other),
            }
        }
        match flat.len() {
            0 => Ok(()),
            1 => Err(flat.remove(0)),
            _ => Err(Self::Problems(flat)),
        }
    }

    /// Every problem this error holds, one for a single problem.
    pub fn problems(&self) -> Vec<&Error> {
        match self {
            Self::Problems(inner) => inner.iter().collect(),
            other => vec![other],
        }
    }

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

/// The message of a caught panic (`catch_unwind`'s payload), for a report that must name what
/// progenitor or typify panicked on.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| {
            payload
                .downcast_ref::<&str>()
                .map(|text| (*text).to_owned())
        })
        .unwrap_or_else(|| "unknown panic".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn problems_are_flattened_and_one_problem_is_itself() {
        assert!(Error::from_problems(Vec::new()).is_ok());
        let one = Error::from_problems(vec![Error::downlevel("/a", "no")]).unwrap_err();
        assert!(matches!(one, Error::Downlevel { .. }), "{one:?}");
        assert_eq!(one.problems().len(), 1);
        let nested = Error::from_problems(vec![
            Error::Problems(vec![Error::downlevel("/a", "x"), Error::patch("B", "y")]),
            Error::patch("C", "z"),
        ])
        .unwrap_err();
        let problems = nested.problems();
        assert_eq!(problems.len(), 3, "{nested}");
        assert!(
            problems
                .iter()
                .all(|problem| !matches!(problem, Error::Problems(_)))
        );
    }
}
