//! The servers a standalone generated client's description lists, as data the crate writes
//! (`SERVERS`), with the one operation a user needs: a server's URL with its variables filled
//! in, each checked against the values the description allows.

use std::fmt;

/// A server of the description (`servers`), its URL a template over its variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Server {
    /// The URL as the description writes it, `{name}` standing for each variable.
    pub url: &'static str,
    /// What the description says of it (may be empty).
    pub description: &'static str,
    /// Its variables, in the order the description lists them.
    pub variables: &'static [Variable],
}

/// A variable of a server's URL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variable {
    /// Its name, written `{name}` in the URL.
    pub name: &'static str,
    /// The value used when none is given.
    pub default: &'static str,
    /// The values allowed (`enum`); empty when any value is.
    pub allowed: &'static [&'static str],
}

impl Server {
    /// The URL with every variable at its default.
    pub fn default_url(&self) -> String {
        self.fill(|variable| variable.default)
    }

    /// The URL with `values` (`(name, value)`) for the variables they name and the others at
    /// their defaults. Refuses a name the server has no variable for and a value outside a
    /// variable's `enum`.
    pub fn url_with(&self, values: &[(&str, &str)]) -> Result<String, ServerError> {
        for (name, value) in values {
            let Some(variable) = self.variables.iter().find(|v| v.name == *name) else {
                return Err(ServerError::UnknownVariable {
                    url: self.url,
                    name: (*name).to_owned(),
                });
            };
            if !variable.allowed.is_empty() && !variable.allowed.contains(value) {
                return Err(ServerError::NotAllowed {
                    name: variable.name,
                    value: (*value).to_owned(),
                    allowed: variable.allowed,
                });
            }
        }
        Ok(self.fill(|variable| {
            values
                .iter()
                .rev()
                .find(|(name, _)| *name == variable.name)
                .map_or(variable.default, |(_, value)| value)
        }))
    }

    fn fill<'a>(&self, value_of: impl Fn(&Variable) -> &'a str) -> String {
        let mut url = self.url.to_owned();
        for variable in self.variables {
            url = url.replace(&format!("{{{}}}", variable.name), value_of(variable));
        }
        url
    }
}

/// A server URL asked for with values the description does not allow.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerError {
    /// The server has no variable of this name.
    UnknownVariable {
        /// The server's URL template.
        url: &'static str,
        /// The name asked for.
        name: String,
    },
    /// The value is not one the variable's `enum` lists.
    NotAllowed {
        /// The variable.
        name: &'static str,
        /// The value asked for.
        value: String,
        /// The values allowed.
        allowed: &'static [&'static str],
    },
}

impl fmt::Display for ServerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownVariable { url, name } => {
                write!(f, "the server `{url}` has no variable `{name}`")
            }
            Self::NotAllowed {
                name,
                value,
                allowed,
            } => write!(
                f,
                "`{value}` is not a value of the server variable `{name}`: one of {}",
                allowed.join(", ")
            ),
        }
    }
}

impl std::error::Error for ServerError {}

#[cfg(test)]
mod tests {
    use super::*;

    const REGIONAL: Server = Server {
        url: "https://{region}.api.example.com/{version}",
        description: "Regional endpoint",
        variables: &[
            Variable {
                name: "region",
                default: "us",
                allowed: &["us", "eu"],
            },
            Variable {
                name: "version",
                default: "v1",
                allowed: &[],
            },
        ],
    };

    #[test]
    fn variables_take_their_defaults_or_the_values_given() {
        assert_eq!(REGIONAL.default_url(), "https://us.api.example.com/v1");
        assert_eq!(
            REGIONAL.url_with(&[("region", "eu")]).unwrap(),
            "https://eu.api.example.com/v1"
        );
        assert_eq!(
            REGIONAL
                .url_with(&[("version", "v2"), ("region", "eu")])
                .unwrap(),
            "https://eu.api.example.com/v2"
        );
    }

    #[test]
    fn values_the_description_does_not_allow_are_refused() {
        let error = REGIONAL.url_with(&[("region", "mars")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "`mars` is not a value of the server variable `region`: one of us, eu"
        );
        let error = REGIONAL.url_with(&[("zone", "a")]).unwrap_err();
        assert_eq!(
            error.to_string(),
            "the server `https://{region}.api.example.com/{version}` has no variable `zone`"
        );
    }
}
