//! How a generated crate reads a JSON body (a response's, or a webhook's in
//! [`super::webhooks::json_body`]): the whole body is checked to be UTF-8 once, then parsed as
//! text.
//!
//! `serde_json::from_slice` checks each string it meets on its own, as it meets it. On the
//! bodies an API returns (pages of objects with many short keys and values) those checks are
//! about a sixth of the decode, where one check of the whole body, which runs over machine
//! words, is a hundredth. `serde_json::from_str` trusts its input to be UTF-8, so it checks
//! nothing more.

use serde::de::DeserializeOwned;

/// Decodes the JSON `body` into `T`, exactly as `serde_json::from_slice` would, only faster.
///
/// A body that is not UTF-8 is handed to `serde_json::from_slice`, so that its error (and its
/// line and column) is serde_json's own.
pub fn from_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    match std::str::from_utf8(body) {
        Ok(text) => serde_json::from_str(text),
        Err(_) => serde_json::from_slice(body),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The reader `from_body` stands in for.
    fn from_slice<T: DeserializeOwned>(body: &[u8]) -> Result<T, String> {
        serde_json::from_slice(body).map_err(|error| error.to_string())
    }

    fn read<T: DeserializeOwned>(body: &[u8]) -> Result<T, String> {
        from_body(body).map_err(|error| error.to_string())
    }

    #[test]
    fn a_body_decodes_as_from_slice_decodes_it() {
        let bodies: [&[u8]; 6] = [
            br#"{"id":"a","tags":["x","\u00e9\ud83d\ude00"],"n":1e400}"#,
            b"\xef\xbb\xbf{}",
            "{\"name\":\"caf\u{e9} \u{1f600}\"}".as_bytes(),
            b"[1, 2,]",
            br#"{"a":1"#,
            b"",
        ];
        for body in bodies {
            assert_eq!(read::<Value>(body), from_slice::<Value>(body), "{body:?}");
        }
    }

    #[test]
    fn a_body_that_is_not_utf8_fails_with_serde_jsons_own_error() {
        for body in [&b"{\"a\":\"\xff\"}"[..], b"{\"\xc3\":1}"] {
            let error = read::<Value>(body).unwrap_err();
            assert_eq!(Err(error), from_slice::<Value>(body), "{body:?}");
        }
        // Outside any string, the first byte that is not UTF-8 is a syntax error either way.
        assert!(read::<Value>(b"{\"a\":1}\xff").is_err());
    }

    #[test]
    fn raw_values_still_borrow_the_text() {
        let object: crate::objects::UnknownFields = from_body(br#"{"big":1e400}"#).unwrap();
        assert_eq!(object["big"].get(), "1e400");
    }
}
