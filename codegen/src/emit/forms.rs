//! Step 5g: `multipart/form-data` request bodies, as typed forms.
//!
//! progenitor 0.15 refuses a multipart body. `normalize` hands such a body on as
//! `application/x-www-form-urlencoded` marked [`model::MULTIPART`] (so progenitor types it from
//! its schema and builds the request with `.form_urlencoded(&body)?`), and replaces every binary
//! string the body reaches (`type: string, format: binary`) by a `$ref` to one component
//! marked [`model::FORM_FILE`], which typify replaces by the [`FormFile`] this step emits. Here,
//! in each operation marked multipart, the body call becomes `.multipart_form(&body)?`: the
//! typed body is serialized to its parts (a string, number or boolean property a text part, an
//! array one part per item, an object its JSON text, a `FormFile` a file part with its name and
//! media type), under a boundary that no part contains.
//!
//! [`FormFile`]: struct@self

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};
use serde_json::Value;

use crate::contract;
use crate::model::{self, Document};

/// The name of the emitted file type, which typify puts wherever a body has a binary string.
pub(crate) const FORM_FILE_TYPE: &str = "FormFile";

/// An operation whose body `normalize` marked multipart.
pub(super) struct MultipartOperation {
    /// Its `operationId`.
    pub id: String,
    /// The media type the body's `encoding` gives some parts, by part name
    /// ([`model::PART_MEDIA_TYPES`]).
    pub media_types: Vec<(String, String)>,
}

/// The operations whose body `normalize` marked multipart (through a `$ref` too).
pub(super) fn multipart_operations(document: &Value) -> Vec<MultipartOperation> {
    let model = Document::new(document);
    model
        .operations()
        .into_iter()
        .filter_map(|operation| {
            let body = model.resolve(operation.value.get("requestBody")?)?;
            if body.get(model::MULTIPART) != Some(&Value::Bool(true)) {
                return None;
            }
            let media_types = body
                .get(model::PART_MEDIA_TYPES)
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .filter_map(|(part, media_type)| {
                    Some((part.clone(), media_type.as_str()?.to_owned()))
                })
                .collect();
            Some(MultipartOperation {
                id: operation.id()?.to_owned(),
                media_types,
            })
        })
        .collect()
}

/// The component schemas typify replaces by [`FORM_FILE_TYPE`].
pub(super) fn form_file_components(document: &Value) -> Vec<String> {
    document
        .pointer("/components/schemas")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .filter(|(_, schema)| schema.get(model::FORM_FILE) == Some(&Value::Bool(true)))
        .map(|(name, _)| name.clone())
        .collect()
}

/// Sends the body of every operation in `operations` as a multipart form: in its method (a
/// positional client's `Client::<method>`, a builder's `send`), progenitor's form call becomes
/// the one of [`support`]'s `MultipartForm`, brought into scope by a `use` at the top of the
/// function. Returns how many functions changed; the caller checks it against the count of
/// operations, so a progenitor that builds form requests differently stops generation.
pub(super) fn send_as_multipart(
    items: &mut [syn::Item],
    operations: &[MultipartOperation],
    module_path: &str,
) -> usize {
    let trait_path: syn::Path = syn::parse_str(&format!("{module_path}::multipart::MultipartForm"))
        .unwrap_or_else(|_| syn::parse_quote!(self::multipart::MultipartForm));
    let by_id: Vec<(String, &[(String, String)])> = operations
        .iter()
        .map(|operation| (operation.id.clone(), operation.media_types.as_slice()))
        .collect();
    super::change_operation_functions(items, &by_id, &mut |function, media_types| {
        rename_form_call(function, &trait_path, media_types)
    })
}

/// Turns progenitor's form call in `function` (`.form_urlencoded(&body)`) into the multipart
/// one, given the parts' media types (`.multipart_form(&body, &[("sdp", "application/sdp")])`),
/// and brings the multipart trait into scope; false (and `function` unchanged) when it has no
/// such call.
fn rename_form_call(
    function: &mut syn::ImplItemFn,
    trait_path: &syn::Path,
    media_types: &[(String, String)],
) -> bool {
    let tokens = function.block.to_token_stream();
    let mut found = false;
    let pairs = media_types
        .iter()
        .map(|(part, media_type)| quote!((#part, #media_type)));
    let media_types = quote!(, &[#(#pairs),*]);
    let renamed = contract::progenitor_output::rename_method_call(
        tokens,
        contract::PROGENITOR_FORM_CALL,
        "multipart_form",
        (&TokenStream::new(), &media_types),
        &mut found,
    );
    if !found {
        return false;
    }
    let Ok(mut block) = syn::parse2::<syn::Block>(renamed) else {
        return false;
    };
    block
        .stmts
        .insert(0, syn::parse_quote!(use #trait_path as _;));
    function.block = block;
    true
}

/// The `FormFile` type, for `types`: a file's bytes, with the name and media type its part
/// announces. It prints its size, not its bytes.
pub(super) fn form_file_type() -> TokenStream {
    quote! {
        /// A file sent as one part of a `multipart/form-data` body: its bytes, and the file
        /// name and media type its part announces (`application/octet-stream` when none is
        /// given).
        #[derive(Clone, PartialEq, Eq, Default)]
        pub struct FormFile {
            /// The file's content.
            pub bytes: ::std::vec::Vec<u8>,
            /// The name the part gives the file (`filename="..."`); `file` when `None`.
            pub file_name: ::std::option::Option<::std::string::String>,
            /// The part's media type; `application/octet-stream` when `None`.
            pub content_type: ::std::option::Option<::std::string::String>,
        }

        impl FormFile {
            /// A file of `bytes` named `file_name`.
            pub fn new(file_name: impl ::std::convert::Into<::std::string::String>, bytes: impl ::std::convert::Into<::std::vec::Vec<u8>>) -> Self {
                Self { bytes: bytes.into(), file_name: ::std::option::Option::Some(file_name.into()), content_type: ::std::option::Option::None }
            }

            /// The same file, announced as `content_type`.
            pub fn with_content_type(mut self, content_type: impl ::std::convert::Into<::std::string::String>) -> Self {
                self.content_type = ::std::option::Option::Some(content_type.into());
                self
            }
        }

        impl ::std::convert::From<::std::vec::Vec<u8>> for FormFile {
            fn from(bytes: ::std::vec::Vec<u8>) -> Self {
                Self { bytes, ..Self::default() }
            }
        }

        impl ::std::fmt::Debug for FormFile {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.debug_struct("FormFile")
                    .field("bytes", &::std::format_args!("[{} bytes]", self.bytes.len()))
                    .field("file_name", &self.file_name)
                    .field("content_type", &self.content_type)
                    .finish()
            }
        }

        /// Inside a multipart body, a placeholder the encoder swaps for the file's part;
        /// anywhere else (a JSON print of the body), the bytes as a list of numbers.
        impl ::serde::Serialize for FormFile {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                match super::multipart::placeholder(self) {
                    ::std::option::Option::Some(placeholder) => serializer.serialize_str(&placeholder),
                    ::std::option::Option::None => serializer.serialize_bytes(&self.bytes),
                }
            }
        }

        /// The bytes of a file, as a list of numbers or as text.
        impl<'de> ::serde::Deserialize<'de> for FormFile {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                struct Bytes;
                impl<'de> ::serde::de::Visitor<'de> for Bytes {
                    type Value = ::std::vec::Vec<u8>;
                    fn expecting(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                        f.write_str("a file's bytes")
                    }
                    fn visit_str<E: ::serde::de::Error>(self, text: &str) -> ::std::result::Result<Self::Value, E> {
                        ::std::result::Result::Ok(text.as_bytes().to_vec())
                    }
                    fn visit_bytes<E: ::serde::de::Error>(self, bytes: &[u8]) -> ::std::result::Result<Self::Value, E> {
                        ::std::result::Result::Ok(bytes.to_vec())
                    }
                    fn visit_seq<A: ::serde::de::SeqAccess<'de>>(self, mut items: A) -> ::std::result::Result<Self::Value, A::Error> {
                        let mut bytes = ::std::vec::Vec::new();
                        while let ::std::option::Option::Some(byte) = items.next_element::<u8>()? {
                            bytes.push(byte);
                        }
                        ::std::result::Result::Ok(bytes)
                    }
                }
                deserializer.deserialize_any(Bytes).map(FormFile::from)
            }
        }
    }
}

/// The `multipart` module, beside `types`: the request builder's `multipart_form` and the
/// encoder behind it.
pub(super) fn support() -> TokenStream {
    quote! {
        /// `multipart/form-data` bodies: the typed body of an operation that sends a form is
        /// written as its parts.
        pub mod multipart {
            use ::std::cell::RefCell;
            use super::types::FormFile;

            ::std::thread_local! {
                /// The files of the body being encoded on this thread, in the order serde met
                /// them; `None` outside an encoding.
                static FILES: RefCell<::std::option::Option<::std::vec::Vec<FormFile>>> = const { RefCell::new(::std::option::Option::None) };
            }

            /// The start of a placeholder: a NUL cannot come from a form's text fields in
            /// practice, and the index after it must name a file of this body.
            const PLACEHOLDER: &str = "\u{0}form-file:";

            /// While a body is encoded, records `file` and returns the text standing for it.
            pub(super) fn placeholder(file: &FormFile) -> ::std::option::Option<::std::string::String> {
                FILES.with(|files| {
                    let mut files = files.borrow_mut();
                    let files = files.as_mut()?;
                    files.push(file.clone());
                    ::std::option::Option::Some(::std::format!("{PLACEHOLDER}{}", files.len() - 1))
                })
            }

            /// The body's parts: every property but a null, an array's items each a part of
            /// the array's name.
            fn parts<T: ::serde::Serialize + ?Sized>(body: &T) -> ::std::result::Result<(::std::vec::Vec<(::std::string::String, ::serde_json::Value)>, ::std::vec::Vec<FormFile>), ::std::string::String> {
                FILES.with(|files| *files.borrow_mut() = ::std::option::Option::Some(::std::vec::Vec::new()));
                let value = ::serde_json::to_value(body);
                let files = FILES.with(|files| files.borrow_mut().take()).unwrap_or_default();
                let value = value.map_err(|error| error.to_string())?;
                let ::serde_json::Value::Object(fields) = value else {
                    return ::std::result::Result::Err("a form body must be an object".into());
                };
                let mut parts = ::std::vec::Vec::new();
                for (name, value) in fields {
                    match value {
                        ::serde_json::Value::Null => {}
                        ::serde_json::Value::Array(items) => {
                            parts.extend(items.into_iter().map(|item| (name.clone(), item)));
                        }
                        other => parts.push((name, other)),
                    }
                }
                ::std::result::Result::Ok((parts, files))
            }

            /// A part's name as the form spells it: `"`, CR and LF percent-encoded.
            fn quoted(name: &str) -> ::std::string::String {
                name.replace('"', "%22").replace('\r', "%0D").replace('\n', "%0A")
            }

            /// The multipart body of `body` and the boundary it uses. `media_types` gives some
            /// parts, by name, the media type the description's `encoding` states for them; a
            /// file's own media type comes first.
            pub fn encode<T: ::serde::Serialize + ?Sized>(body: &T, media_types: &[(&str, &str)]) -> ::std::result::Result<(::std::string::String, ::std::vec::Vec<u8>), ::std::string::String> {
                let (parts, files) = parts(body)?;
                let mut encoded: ::std::vec::Vec<(::std::string::String, ::std::option::Option<&FormFile>, ::std::vec::Vec<u8>, &str)> = ::std::vec::Vec::new();
                for (name, value) in &parts {
                    let file = value.as_str().and_then(|text| text.strip_prefix(PLACEHOLDER)).and_then(|index| index.parse::<usize>().ok()).and_then(|index| files.get(index));
                    let (content, implied) = match (file, value) {
                        (::std::option::Option::Some(file), _) => (file.bytes.clone(), ""),
                        (::std::option::Option::None, ::serde_json::Value::String(text)) => (text.as_bytes().to_vec(), ""),
                        (::std::option::Option::None, ::serde_json::Value::Object(_) | ::serde_json::Value::Array(_)) => (value.to_string().into_bytes(), "application/json"),
                        (::std::option::Option::None, other) => (other.to_string().into_bytes(), ""),
                    };
                    let stated = media_types.iter().find(|(part, _)| part == name).map(|(_, media_type)| *media_type);
                    encoded.push((quoted(name), file, content, stated.unwrap_or(implied)));
                }
                // A boundary that no part contains; the first is almost always it.
                let mut counter = 0u32;
                let boundary = loop {
                    let candidate = ::std::format!("hub-api-form-boundary-{counter:08x}");
                    let needle = candidate.as_bytes();
                    if !encoded.iter().any(|(_, _, content, _)| content.windows(needle.len()).any(|window| window == needle)) {
                        break candidate;
                    }
                    counter += 1;
                };
                let mut out = ::std::vec::Vec::new();
                for (name, file, content, media_type) in encoded {
                    out.extend_from_slice(::std::format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"").as_bytes());
                    if let ::std::option::Option::Some(file) = file {
                        let file_name = quoted(file.file_name.as_deref().unwrap_or("file"));
                        let stated = (!media_type.is_empty()).then_some(media_type);
                        let content_type = file.content_type.as_deref().or(stated).unwrap_or("application/octet-stream");
                        out.extend_from_slice(::std::format!("; filename=\"{file_name}\"\r\nContent-Type: {content_type}").as_bytes());
                    } else if !media_type.is_empty() {
                        out.extend_from_slice(::std::format!("\r\nContent-Type: {media_type}").as_bytes());
                    }
                    out.extend_from_slice(b"\r\n\r\n");
                    out.extend_from_slice(&content);
                    out.extend_from_slice(b"\r\n");
                }
                out.extend_from_slice(::std::format!("--{boundary}--\r\n").as_bytes());
                ::std::result::Result::Ok((boundary, out))
            }

            /// Sets a request's body to the multipart form of a typed body.
            pub trait MultipartForm<E> {
                /// The request with `body` as `multipart/form-data`, the parts `media_types`
                /// names sent with the media type given there.
                fn multipart_form<T: ::serde::Serialize + ?Sized>(self, body: &T, media_types: &[(&str, &str)]) -> ::std::result::Result<::reqwest::RequestBuilder, ::progenitor_client::Error<E>>;
            }

            impl<E> MultipartForm<E> for ::reqwest::RequestBuilder {
                fn multipart_form<T: ::serde::Serialize + ?Sized>(self, body: &T, media_types: &[(&str, &str)]) -> ::std::result::Result<Self, ::progenitor_client::Error<E>> {
                    let (boundary, bytes) = encode(body, media_types).map_err(|error| ::progenitor_client::Error::InvalidRequest(::std::format!("failed to serialize the form: {error}")))?;
                    ::std::result::Result::Ok(self
                        .header(::reqwest::header::CONTENT_TYPE, ::std::format!("multipart/form-data; boundary={boundary}"))
                        .body(bytes))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_multipart_operations_send_a_form_and_each_once() {
        let file: syn::File = syn::parse_quote! {
            impl Client {
                pub async fn upload_file(&self, body: &Body) -> Result<(), Error> {
                    let request = self.client.post(url).form_urlencoded(&body)?.build()?;
                    Ok(())
                }
                pub async fn login(&self, body: &Form) -> Result<(), Error> {
                    let request = self.client.post(url).form_urlencoded(&body)?.build()?;
                    Ok(())
                }
            }
            pub mod builder {
                impl<'a> UploadFile<'a> {
                    pub async fn send(self) -> Result<(), Error> {
                        let request = client.post(url).form_urlencoded(&body)?.build()?;
                        Ok(())
                    }
                }
            }
        };
        let mut items = file.items;
        let upload = MultipartOperation {
            id: "uploadFile".to_owned(),
            media_types: vec![("sdp".to_owned(), "application/sdp".to_owned())],
        };
        let changed = send_as_multipart(&mut items, &[upload], "crate::generated");
        assert_eq!(changed, 2, "the positional method and the builder's send");
        let text: String = items
            .iter()
            .map(|item| item.to_token_stream().to_string())
            .collect();
        assert_eq!(
            text.matches(". multipart_form (& body , & [(\"sdp\" , \"application/sdp\")])")
                .count(),
            2,
            "{text}"
        );
        assert_eq!(
            text.matches(". form_urlencoded (& body)").count(),
            1,
            "{text}"
        );
        assert_eq!(
            text.matches("use crate :: generated :: multipart :: MultipartForm as _ ;")
                .count(),
            2,
            "{text}"
        );
    }
}
