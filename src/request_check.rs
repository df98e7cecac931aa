//! Requests stay strict. The generated types decode what the hub sends tolerantly, so a value
//! taken from a response may hold an `Unknown` variant (a value a newer hub added); sending it
//! back would send what this client's spec does not allow. Every typed request value is
//! checked here before sending: serialized, then decoded again under strict decoding, which
//! enforces every rule of the spec and refuses `Unknown` values.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::error::{Redactor, Result};
use crate::{Error, generated};

/// Refuses `value` (sent as `field`, a request field or argument name) unless it is exactly
/// what the spec allows; the error names the path inside it and the rule.
pub(crate) fn check<T: Serialize + DeserializeOwned>(
    field: &str,
    value: &T,
    redactor: &Redactor<'_>,
) -> Result<()> {
    let json = serde_json::to_value(value)
        .map_err(|error| Error::validation(field, redactor.scrub(&error.to_string())))?;
    generated::decoding::strict(|| serde_path_to_error::deserialize::<_, T>(json))
        .map(drop)
        .map_err(|error| {
            let path = error.path().to_string();
            let field = if path == "." {
                field.to_owned()
            } else {
                format!("{field}.{path}")
            };
            Error::validation(field, redactor.scrub(&error.inner().to_string()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types;

    #[test]
    fn an_unknown_value_is_refused_and_a_listed_one_passes() {
        let redactor = Redactor::new();
        check("repoType", &types::RepoType::Model, &redactor).expect("a listed value");
        let error = check(
            "repoType",
            &types::RepoType::Unknown("notebook".into()),
            &redactor,
        )
        .expect_err("an unknown value");
        assert_eq!(
            error.to_string(),
            "invalid `repoType`: unknown variant `notebook`, expected one of `dataset`, `model`, `space`, `bucket`, `kernel`, `container`"
        );
    }
}
