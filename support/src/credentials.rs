//! The credentials a standalone generated client sends: one per security scheme of its
//! description, each put where the scheme says (`Authorization`, a header, the query, a
//! cookie), and only on the operations whose `security` accepts that scheme.
//!
//! A credential is a secret: `Debug` prints the schemes that are set, never a value; header
//! values are marked sensitive (HTTP/2 never indexes them); and a query credential is cut from
//! the URL that a transport error or a response carries ([`execute`]), since both are printed
//! by users (`{error}`, `{response:?}`). The generated crate writes the table of its schemes
//! ([`Scheme`]) and, per operation, the names of the schemes it accepts.

use std::fmt;

use reqwest::header::{AUTHORIZATION, COOKIE, HeaderName, HeaderValue};

/// What the URL of an error or response shows in place of a query credential.
pub const REDACTED: &str = "REDACTED";

/// Where a scheme's credential goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// `Authorization: <scheme> <credential>`: `Bearer` (HTTP bearer, OAuth 2.0, OpenID
    /// Connect), `Basic` (the credential is already `base64(user:password)`), or another HTTP
    /// authentication scheme as the description names it.
    Authorization(&'static str),
    /// A request header of this name (`apiKey` in `header`).
    Header(&'static str),
    /// A query parameter of this name (`apiKey` in `query`).
    Query(&'static str),
    /// A cookie of this name (`apiKey` in `cookie`).
    Cookie(&'static str),
}

/// A security scheme of the description: its name there and where its credential goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scheme {
    /// The scheme's key under `components/securitySchemes`.
    pub name: &'static str,
    /// Where its credential goes.
    pub placement: Placement,
}

/// The credentials set, at most one per scheme, in the order they were first set.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credentials {
    values: Vec<(Scheme, String)>,
}

impl Credentials {
    /// Sets the credential of `scheme` (replacing an earlier one).
    pub fn set(&mut self, scheme: Scheme, value: String) {
        match self
            .values
            .iter_mut()
            .find(|(set, _)| set.name == scheme.name)
        {
            Some(entry) => entry.1 = value,
            None => self.values.push((scheme, value)),
        }
    }

    /// Sets the credential of an HTTP `Basic` scheme: `user:password`, base64-encoded.
    pub fn set_basic(&mut self, scheme: Scheme, user: &str, password: &str) {
        self.set(scheme, base64(format!("{user}:{password}").as_bytes()));
    }

    /// Whether no credential is set.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// Puts on `request` the credential of each scheme `accepted` names that is set. One value
    /// per header: when two accepted schemes both go in `Authorization`, the one set first is
    /// sent (an operation's security requirements are alternatives, and a server reads one).
    pub fn apply(
        &self,
        accepted: &[&str],
        request: &mut reqwest::Request,
    ) -> Result<(), CredentialError> {
        for (scheme, value) in &self.values {
            if !accepted.contains(&scheme.name) {
                continue;
            }
            let invalid = || CredentialError::NotAHeaderValue {
                scheme: scheme.name,
            };
            match scheme.placement {
                Placement::Authorization(prefix) => {
                    if !request.headers().contains_key(AUTHORIZATION) {
                        let value = sensitive(&format!("{prefix} {value}")).ok_or_else(invalid)?;
                        request.headers_mut().insert(AUTHORIZATION, value);
                    }
                }
                Placement::Header(name) => {
                    let name = HeaderName::from_bytes(name.as_bytes())
                        .map_err(|_| CredentialError::NotAHeaderName { name })?;
                    if !request.headers().contains_key(&name) {
                        let value = sensitive(value).ok_or_else(invalid)?;
                        request.headers_mut().insert(name, value);
                    }
                }
                Placement::Query(name) => {
                    request.url_mut().query_pairs_mut().append_pair(name, value);
                }
                Placement::Cookie(name) => {
                    let pair = format!("{name}={value}");
                    let cookie = match request.headers().get(COOKIE) {
                        Some(earlier) => {
                            let earlier = earlier.to_str().map_err(|_| invalid())?;
                            format!("{earlier}; {pair}")
                        }
                        None => pair,
                    };
                    let value = sensitive(&cookie).ok_or_else(invalid)?;
                    request.headers_mut().insert(COOKIE, value);
                }
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Credentials {
    /// The schemes whose credential is set, each value redacted.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut map = f.debug_map();
        for (scheme, _) in &self.values {
            map.entry(&scheme.name, &format_args!("{REDACTED}"));
        }
        map.finish()
    }
}

/// A credential that cannot be sent as it was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CredentialError {
    /// The value holds a character a header cannot (a line break, a control character). The
    /// value itself is never part of the message.
    NotAHeaderValue {
        /// The scheme whose credential it is.
        scheme: &'static str,
    },
    /// The description names a header that HTTP does not allow.
    NotAHeaderName {
        /// The name as the description gives it.
        name: &'static str,
    },
}

impl fmt::Display for CredentialError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAHeaderValue { scheme } => write!(
                f,
                "the credential of the security scheme `{scheme}` holds a character a header cannot (a line break or another control character)"
            ),
            Self::NotAHeaderName { name } => {
                write!(f, "`{name}` is not a valid HTTP header name")
            }
        }
    }
}

impl std::error::Error for CredentialError {}

/// Sends `request` with `client`, then cuts the value of every query credential of `schemes`
/// from the URL the response or the error carries.
pub async fn execute(
    client: &reqwest::Client,
    request: reqwest::Request,
    schemes: &[Scheme],
) -> reqwest::Result<reqwest::Response> {
    match client.execute(request).await {
        Ok(response) => Ok(redacted_response(response, schemes)),
        Err(mut error) => {
            if let Some(url) = error.url_mut() {
                redact(url, schemes);
            }
            Err(error)
        }
    }
}

/// `response`, its URL without query credentials. reqwest gives no way to change a response's
/// URL but to build the response again from its parts, which this does only when the URL holds
/// one.
fn redacted_response(response: reqwest::Response, schemes: &[Scheme]) -> reqwest::Response {
    let mut url = response.url().clone();
    if !redact(&mut url, schemes) {
        return response;
    }
    let (parts, body) = http::Response::<reqwest::Body>::from(response).into_parts();
    let mut builder = http::Response::builder()
        .status(parts.status)
        .version(parts.version);
    if let Some(headers) = builder.headers_mut() {
        *headers = parts.headers;
    }
    match reqwest::ResponseBuilderExt::url(builder, url).body(body) {
        Ok(rebuilt) => rebuilt.into(),
        // Unreachable: the status, version and headers come from a response.
        Err(_) => unreachable!("a response's own parts build a response"),
    }
}

/// Replaces the value of each query parameter of `url` that a query credential of `schemes`
/// names with [`REDACTED`]; whether there was one.
pub fn redact(url: &mut reqwest::Url, schemes: &[Scheme]) -> bool {
    let is_credential = |name: &str| {
        schemes
            .iter()
            .any(|scheme| matches!(scheme.placement, Placement::Query(own) if own == name))
    };
    let pairs: Vec<(String, String)> = url
        .query_pairs()
        .map(|(name, value)| (name.into_owned(), value.into_owned()))
        .collect();
    if !pairs.iter().any(|(name, _)| is_credential(name)) {
        return false;
    }
    let mut query = url.query_pairs_mut();
    query.clear();
    for (name, value) in &pairs {
        let value = if is_credential(name) { REDACTED } else { value };
        query.append_pair(name, value);
    }
    true
}

/// A header value marked sensitive; `None` when `text` cannot be one.
fn sensitive(text: &str) -> Option<HeaderValue> {
    let mut value = HeaderValue::from_str(text).ok()?;
    value.set_sensitive(true);
    Some(value)
}

/// Standard base64 with padding (RFC 4648 §4), as HTTP `Basic` credentials are written.
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let word = chunk.iter().enumerate().fold(0u32, |word, (i, byte)| {
            word | u32::from(*byte) << (16 - 8 * i)
        });
        for i in 0..4 {
            if i <= chunk.len() {
                text.push(char::from(ALPHABET[(word >> (18 - 6 * i) & 63) as usize]));
            } else {
                text.push('=');
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEARER: Scheme = Scheme {
        name: "bearerAuth",
        placement: Placement::Authorization("Bearer"),
    };
    const BASIC: Scheme = Scheme {
        name: "basic",
        placement: Placement::Authorization("Basic"),
    };
    const KEY: Scheme = Scheme {
        name: "apiKey",
        placement: Placement::Header("X-API-Key"),
    };
    const QUERY: Scheme = Scheme {
        name: "queryKey",
        placement: Placement::Query("api_key"),
    };
    const SESSION: Scheme = Scheme {
        name: "session",
        placement: Placement::Cookie("sid"),
    };

    fn request(url: &str) -> reqwest::Request {
        reqwest::Request::new(reqwest::Method::GET, url.parse().unwrap())
    }

    #[test]
    fn each_scheme_goes_where_it_says_and_only_where_accepted() {
        let mut credentials = Credentials::default();
        credentials.set(BEARER, "t0ken".into());
        credentials.set(KEY, "k3y".into());
        credentials.set(QUERY, "q&1".into());
        credentials.set(SESSION, "s1".into());
        let mut sent = request("https://api.example.com/v1/items?page=2");
        sent.headers_mut()
            .insert(COOKIE, HeaderValue::from_static("theme=dark"));
        credentials
            .apply(&["bearerAuth", "apiKey", "queryKey", "session"], &mut sent)
            .unwrap();
        let headers = sent.headers();
        assert_eq!(headers[AUTHORIZATION], "Bearer t0ken");
        assert!(headers[AUTHORIZATION].is_sensitive());
        assert_eq!(headers["x-api-key"], "k3y");
        assert!(headers["x-api-key"].is_sensitive());
        assert_eq!(headers[COOKIE], "theme=dark; sid=s1");
        assert_eq!(sent.url().query(), Some("page=2&api_key=q%261"));

        let mut public = request("https://api.example.com/v1/health");
        credentials.apply(&[], &mut public).unwrap();
        assert!(public.headers().is_empty());
        assert_eq!(public.url().query(), None);

        let mut some = request("https://api.example.com/v1/items");
        credentials.apply(&["apiKey"], &mut some).unwrap();
        assert!(!some.headers().contains_key(AUTHORIZATION));
        assert_eq!(some.headers()["x-api-key"], "k3y");
    }

    #[test]
    fn basic_is_base64_of_user_and_password_and_the_first_authorization_wins() {
        let mut credentials = Credentials::default();
        credentials.set_basic(BASIC, "Aladdin", "open sesame");
        credentials.set(BEARER, "t0ken".into());
        let mut sent = request("https://api.example.com/");
        credentials
            .apply(&["bearerAuth", "basic"], &mut sent)
            .unwrap();
        assert_eq!(
            sent.headers()[AUTHORIZATION],
            "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
        );
    }

    #[test]
    fn base64_pads_as_the_rfc_says() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(plain.as_bytes()), encoded, "{plain}");
        }
        assert_eq!(base64(&[0xff, 0xfe]), "//4=");
    }

    #[test]
    fn a_credential_never_prints() {
        let mut credentials = Credentials::default();
        credentials.set(BEARER, "t0ken-value".into());
        credentials.set(BEARER, "newer-value".into());
        let printed = format!("{credentials:?}");
        assert_eq!(printed, r#"{"bearerAuth": REDACTED}"#);

        credentials.set(KEY, "line\nbreak-secret".into());
        let error = credentials
            .apply(&["apiKey"], &mut request("https://api.example.com/"))
            .unwrap_err();
        assert_eq!(error, CredentialError::NotAHeaderValue { scheme: "apiKey" });
        assert!(!error.to_string().contains("secret"), "{error}");
    }

    #[test]
    fn a_query_credential_is_cut_from_a_url() {
        let mut url: reqwest::Url = "https://api.example.com/x?api_key=s3cret&page=2&api_key=again"
            .parse()
            .unwrap();
        assert!(redact(&mut url, &[BEARER, QUERY]));
        assert_eq!(
            url.as_str(),
            "https://api.example.com/x?api_key=REDACTED&page=2&api_key=REDACTED"
        );
        let mut plain: reqwest::Url = "https://api.example.com/x?page=2".parse().unwrap();
        assert!(!redact(&mut plain, &[QUERY]));
        assert_eq!(plain.as_str(), "https://api.example.com/x?page=2");
    }
}
