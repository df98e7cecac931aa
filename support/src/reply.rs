//! Response handling shared by every operation of a generated client: each operation builds
//! its request, then passes it with its status table to [`send`], which runs the client's
//! hooks as progenitor's own statements do and reads the body the status calls for. Written
//! once here, it is checked by the compiler once, not once per operation or per crate.

use progenitor_client::{ByteStream, ClientHooks, Error, OperationInfo, ResponseValue};

/// How a response body is read into the value `T` an operation returns, and the statuses it is
/// read for: a reader is a value naming its status ranges (`Json(&[(200, 200)])`), and the
/// type it reads into is the operation's own return type, so a call names neither.
// Only generated code implements and calls it, with concrete types, where whether the future is
// `Send` is known; so `async fn` rather than a spelt-out `impl Future + Send`.
#[allow(async_fn_in_trait)]
pub trait Read<T> {
    /// The statuses this reader reads, as inclusive ranges in progenitor's arm order.
    fn statuses(&self) -> &'static [(u16, u16)];
    /// Reads the body of `response`.
    async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<T>, Error<E>>;
}

/// A JSON body, for the statuses it holds.
pub struct Json(pub &'static [(u16, u16)]);

impl<T: serde::de::DeserializeOwned> Read<T> for Json {
    fn statuses(&self) -> &'static [(u16, u16)] {
        self.0
    }
    /// What `ResponseValue::from_response` does, the body decoded by [`super::json::from_body`],
    /// which checks it is UTF-8 once rather than string by string.
    async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<T>, Error<E>> {
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.bytes().await.map_err(Error::ResponseBodyError)?;
        match super::json::from_body(&body) {
            Ok(value) => Ok(ResponseValue::new(value, status, headers)),
            Err(error) => Err(Error::InvalidResponsePayload(body, error)),
        }
    }
}

/// No body, for the statuses it holds.
pub struct Empty(pub &'static [(u16, u16)]);

impl Read<()> for Empty {
    fn statuses(&self) -> &'static [(u16, u16)] {
        self.0
    }
    async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<()>, Error<E>> {
        Ok(ResponseValue::empty(response))
    }
}

/// The body as a stream of bytes, for the statuses it holds.
pub struct Stream(pub &'static [(u16, u16)]);

impl Read<ByteStream> for Stream {
    fn statuses(&self) -> &'static [(u16, u16)] {
        self.0
    }
    async fn read<E>(response: reqwest::Response) -> Result<ResponseValue<ByteStream>, Error<E>> {
        Ok(ResponseValue::stream(response))
    }
}

/// Sends `request` for the operation `operation_id` through `client`'s hooks (`pre`, `exec`,
/// `post`, in progenitor's order), and reads a status `success` lists with it, then one
/// `failure` lists as the error body; any other status is `Error::UnexpectedResponse`, its body
/// unread. The one way every operation of a generated client ends, its types inferred from the
/// operation's return type and the client's one `ClientHooks` impl:
/// `send(self, request, "list_models", Json(&[(200, 200)]), Json(&[(400, 499)])).await`.
pub async fn send<C, Inner, T, E, S, F>(
    client: &C,
    mut request: reqwest::Request,
    operation_id: &'static str,
    success: S,
    failure: F,
) -> Result<ResponseValue<T>, Error<E>>
where
    C: ClientHooks<Inner>,
    S: Read<T>,
    F: Read<E>,
{
    let info = OperationInfo { operation_id };
    client.pre(&mut request, &info).await?;
    let result = client.exec(request, &info).await;
    client.post(&result, &info).await?;
    let response = result?;
    let status = response.status().as_u16();
    let within = |statuses: &[(u16, u16)]| {
        statuses
            .iter()
            .any(|&(low, high)| (low..=high).contains(&status))
    };
    if within(success.statuses()) {
        S::read(response).await
    } else if within(failure.statuses()) {
        Err(Error::ErrorResponse(F::read(response).await?))
    } else {
        Err(Error::UnexpectedResponse(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use progenitor_client::ClientInfo;

    /// A client whose `exec` answers every request with one canned status and body, and
    /// counts the hooks it ran.
    struct Canned {
        http: reqwest::Client,
        status: u16,
        body: &'static str,
        hooks: std::cell::Cell<u8>,
    }

    impl ClientInfo<()> for Canned {
        fn api_version() -> &'static str {
            "1"
        }
        fn baseurl(&self) -> &str {
            "http://127.0.0.1:9"
        }
        fn client(&self) -> &reqwest::Client {
            &self.http
        }
        fn inner(&self) -> &() {
            &()
        }
    }

    impl ClientHooks<()> for Canned {
        async fn pre<E>(
            &self,
            _: &mut reqwest::Request,
            info: &OperationInfo,
        ) -> Result<(), Error<E>> {
            assert_eq!(info.operation_id, "get_thing");
            self.hooks.set(self.hooks.get() + 1);
            Ok(())
        }
        async fn exec(
            &self,
            _: reqwest::Request,
            _: &OperationInfo,
        ) -> reqwest::Result<reqwest::Response> {
            let response = http::Response::builder()
                .status(self.status)
                .body(self.body)
                .expect("a response");
            Ok(reqwest::Response::from(response))
        }
        async fn post<E>(
            &self,
            _: &reqwest::Result<reqwest::Response>,
            _: &OperationInfo,
        ) -> Result<(), Error<E>> {
            self.hooks.set(self.hooks.get() + 1);
            Ok(())
        }
    }

    /// Runs a future that never waits on I/O (the canned client's) to completion.
    fn finish<T>(future: impl std::future::Future<Output = T>) -> T {
        let mut future = std::pin::pin!(future);
        let mut context = std::task::Context::from_waker(std::task::Waker::noop());
        loop {
            if let std::task::Poll::Ready(value) = future.as_mut().poll(&mut context) {
                return value;
            }
        }
    }

    type Outcome = Result<ResponseValue<Vec<u32>>, Error<String>>;

    fn call(status: u16, body: &'static str) -> (Outcome, u8) {
        let client = Canned {
            // Built as a generated client builds it (TLS provider installed under `rustls`).
            http: crate::tls::client_builder().build().expect("a client"),
            status,
            body,
            hooks: std::cell::Cell::new(0),
        };
        let request = client
            .http
            .get("http://127.0.0.1:9/thing")
            .build()
            .expect("a request");
        let outcome = finish(send(
            &client,
            request,
            "get_thing",
            Json(&[(200, 200)]),
            Json(&[(400, 499)]),
        ));
        (outcome, client.hooks.get())
    }

    #[test]
    fn a_status_is_read_by_the_first_range_it_falls_in() {
        let (ok, hooks) = call(200, "[1,2]");
        assert_eq!(hooks, 2, "pre and post both ran");
        assert_eq!(ok.expect("a success").into_inner(), vec![1, 2]);
        match call(404, "\"gone\"").0 {
            Err(Error::ErrorResponse(body)) => assert_eq!(body.into_inner(), "gone"),
            other => panic!("a declared error, not {other:?}"),
        }
        match call(500, "boom").0 {
            Err(Error::UnexpectedResponse(response)) => assert_eq!(response.status(), 500),
            other => panic!("an undeclared status, not {other:?}"),
        }
    }

    #[test]
    fn a_body_that_does_not_decode_keeps_its_bytes() {
        match call(200, "[1,\"two\"]").0 {
            Err(Error::InvalidResponsePayload(bytes, _)) => assert_eq!(&bytes[..], b"[1,\"two\"]"),
            other => panic!("an invalid payload, not {other:?}"),
        }
    }

    #[test]
    fn an_empty_reader_reads_nothing() {
        let response = reqwest::Response::from(http::Response::new("ignored"));
        let value = finish(<Empty as Read<()>>::read::<()>(response)).expect("no body to read");
        assert_eq!(value.status(), 200);
    }
}
