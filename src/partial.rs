//! Partial results: a list response with an item that breaks the spec still gives every good
//! item, and each bad one as an [`ItemError`] naming its index, path and rule.
//!
//! The generated types already decode what a newer hub adds (unknown enum values and union
//! variants as `Unknown`, unknown properties of closed objects skipped; see
//! `hub_api::generated::decoding`), so what lands here is an item that breaks a rule the spec
//! states: a missing required field, a value of the wrong type, a pattern.
//!
//! The fast path costs nothing: the response is decoded whole, as before. Only when that
//! fails does `send_partial` take the body the generated client kept, decode the list's
//! items one by one, and decode the rest of the response with the good items only.

use std::ops::Deref;

use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::client::Call;
use crate::error::{Redactor, Result, request_id_suffix};
use crate::{Client, generated};

/// One item of a list response that does not have the shape the spec describes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{operation}: item [{index}] at `{path}`: {rule}{}", request_id_suffix(.request_id.as_deref()))]
pub struct ItemError {
    /// The operation id of the spec, e.g. `listWebhooks`.
    pub operation: &'static str,
    /// The item's index in the list as the hub sent it.
    pub index: usize,
    /// JSON path of the offending value inside the item (`.` for the item itself).
    pub path: String,
    /// The rule it breaks (secrets known to the call scrubbed).
    pub rule: String,
    /// The hub's id of the response the item came in (`x-request-id`, scrubbed), if it sent
    /// one; [`Error::request_id`](crate::Error::request_id) returns it for
    /// [`Error::InvalidItem`](crate::Error::InvalidItem).
    pub request_id: Option<String>,
}

/// A response whose list holds every item that decoded; [`Partial::invalid`] lists the others.
/// It dereferences to the response, so `partial.len()` or `page.notifications` read as before.
///
/// ```no_run
/// # async fn demo(client: hub_api::Client) -> hub_api::Result<()> {
/// let webhooks = client.list_webhooks().await?;
/// for bad in &webhooks.invalid {
///     eprintln!("skipped: {bad}");
/// }
/// for webhook in webhooks {
///     println!("{}", webhook.id);
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Partial<T> {
    /// The response, its list holding the items that decoded, in the hub's order.
    pub value: T,
    /// The items that did not decode, in the hub's order.
    pub invalid: Vec<ItemError>,
}

impl<T> Partial<T> {
    /// A response every item of which decoded.
    pub fn complete(value: T) -> Self {
        Self {
            value,
            invalid: Vec::new(),
        }
    }

    /// Whether every item decoded.
    pub fn is_complete(&self) -> bool {
        self.invalid.is_empty()
    }

    /// The response, or the first item that did not decode.
    pub fn into_complete(self) -> Result<T, ItemError> {
        match self.invalid.into_iter().next() {
            Some(first) => Err(first),
            None => Ok(self.value),
        }
    }

    /// The response with its good items, dropping the list of bad ones.
    pub fn into_value(self) -> T {
        self.value
    }
}

impl<T> Deref for Partial<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> IntoIterator for Partial<Vec<T>> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;

    fn into_iter(self) -> Self::IntoIter {
        self.value.into_iter()
    }
}

/// Sends a call whose response `T` holds a list of `Item` at the JSON pointer `items` (`""`
/// when the response is the list). When the whole response does not decode, the items are
/// decoded one by one; if the rest of the response then decodes, the call succeeds with the
/// good items and the bad ones in [`Partial::invalid`]; otherwise it fails as it would have.
pub(crate) async fn send_partial<T, Item, F>(
    client: &Client,
    call: Call<'_>,
    items: &str,
    request: F,
) -> Result<Partial<T>>
where
    T: DeserializeOwned,
    Item: DeserializeOwned + Serialize,
    F: Future<Output = std::result::Result<generated::ResponseValue<T>, generated::Error<()>>>,
{
    let operation = call.operation;
    let redactor = client.redactor().with_all(call.secrets.iter().copied());
    let mut body = None;
    let keep_body = |error: &generated::Error<()>, request_id: Option<&str>| {
        if let generated::Error::InvalidResponsePayload(bytes, _) = error {
            body = Some((bytes.clone(), request_id.map(str::to_owned)));
        }
        None
    };
    match client.send_with(call, request, keep_body).await {
        Ok(answer) => Ok(Partial::complete(answer.value)),
        Err(error) => body
            .and_then(|(body, request_id)| {
                decode_partial::<T, Item>(operation, &body, items, &redactor, request_id)
            })
            .ok_or(error),
    }
}

/// Decodes `body` with the items at `items` one by one; `None` when the body is not JSON, has
/// no list there, or is invalid outside the list.
fn decode_partial<T: DeserializeOwned, Item: DeserializeOwned>(
    operation: &'static str,
    body: &[u8],
    items: &str,
    redactor: &Redactor<'_>,
    request_id: Option<String>,
) -> Option<Partial<T>> {
    let mut whole: Value = serde_json::from_slice(body).ok()?;
    let list = whole.pointer_mut(items)?;
    let Value::Array(all) = list.take() else {
        return None;
    };
    let mut good = Vec::with_capacity(all.len());
    let mut invalid = Vec::new();
    for (index, item) in all.into_iter().enumerate() {
        // Decoding from a clone keeps the item as sent for the response's own decode below.
        match serde_path_to_error::deserialize::<_, Item>(item.clone()) {
            Ok(_) => good.push(item),
            Err(error) => invalid.push(ItemError {
                operation,
                index,
                path: error.path().to_string(),
                rule: redactor.scrub(&error.inner().to_string()),
                request_id: request_id.clone(),
            }),
        }
    }
    *list = Value::Array(good);
    let value = serde_json::from_value(whole).ok()?;
    Some(Partial { value, invalid })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::types;

    fn webhook(id: &str, flavor: &str) -> Value {
        json!({
            "id": id, "watched": [{"type": "org", "name": "acme"}], "domains": ["repo"],
            "disabled": false, "hasSecret": false,
            "job": {"dockerImage": "python:3.12", "environment": {}, "flavor": flavor, "timeoutSeconds": 60}
        })
    }

    #[test]
    fn a_bad_item_is_named_and_the_good_ones_are_kept() {
        let mut bad = webhook("6729a1f0c3d4e5f6a7b8c902", "cpu-basic");
        bad.as_object_mut().unwrap().remove("domains");
        let body = json!([
            webhook("6729a1f0c3d4e5f6a7b8c901", "cpu-basic"),
            bad,
            webhook("6729a1f0c3d4e5f6a7b8c903", "b200")
        ]);
        let partial = decode_partial::<Vec<types::Webhook>, types::Webhook>(
            "listWebhooks",
            body.to_string().as_bytes(),
            "",
            &Redactor::new(),
            None,
        )
        .expect("the list decodes partially");
        let ids: Vec<String> = partial
            .iter()
            .map(|webhook| webhook.id.to_string())
            .collect();
        assert_eq!(
            ids,
            ["6729a1f0c3d4e5f6a7b8c901", "6729a1f0c3d4e5f6a7b8c903"]
        );
        assert_eq!(partial.invalid.len(), 1);
        let error = &partial.invalid[0];
        assert_eq!((error.index, error.path.as_str()), (1, "."));
        assert!(error.rule.contains("missing field `domains`"), "{error}");
    }

    #[test]
    fn a_bad_envelope_is_not_partial() {
        let body = json!({"notifications": [], "count": "many"});
        assert!(
            decode_partial::<types::NotificationList, types::Notification>(
                "listNotifications",
                body.to_string().as_bytes(),
                "/notifications",
                &Redactor::new(),
                None,
            )
            .is_none()
        );
        assert!(
            decode_partial::<Vec<types::Webhook>, types::Webhook>(
                "listWebhooks",
                b"{not json",
                "",
                &Redactor::new(),
                None,
            )
            .is_none()
        );
    }
}
