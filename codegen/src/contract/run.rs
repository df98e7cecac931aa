//! Running progenitor: the document read as the `openapiv3` crate reads it (naming the place
//! it stops at), and generation with its panics caught, so that neither `emit` nor the unit
//! checks of [`super::probe`] let a panic of the generators unwind into the caller.

use std::panic::{AssertUnwindSafe, catch_unwind};

use progenitor::Generator;
use serde_json::Value;

use crate::Error;
use crate::model::push;

/// The down-levelled document as the `openapiv3` crate reads it, or where it cannot: the
/// first place (a JSON pointer) and why.
pub(crate) fn read_openapi(document: &Value) -> Result<openapiv3::OpenAPI, Error> {
    serde_path_to_error::deserialize(document).map_err(|error| {
        let mut pointer = String::new();
        for segment in error.path().iter() {
            pointer = match segment {
                serde_path_to_error::Segment::Seq { index } => format!("{pointer}/{index}"),
                serde_path_to_error::Segment::Map { key } => push(&pointer, key),
                serde_path_to_error::Segment::Enum { variant } => push(&pointer, variant),
                serde_path_to_error::Segment::Unknown => pointer,
            };
        }
        Error::NotOpenApi30 {
            pointer,
            message: error.inner().to_string(),
        }
    })
}

/// progenitor's output for `spec`, its panics caught: preflight catches the panics we know
/// of, and anything else still must not unwind into the maintainer's terminal as a crash.
pub(crate) fn generate_tokens(
    generator: &mut Generator,
    spec: &openapiv3::OpenAPI,
) -> Result<proc_macro2::TokenStream, Error> {
    without_panic_output(|| catch_unwind(AssertUnwindSafe(|| generator.generate_tokens(spec))))
        .map_err(|payload| {
            let message = crate::error::panic_message(payload.as_ref());
            Error::Progenitor(format!("panicked: {message}"))
        })?
        .map_err(|error| Error::Progenitor(error.to_string()))
}

/// Runs `run` with the panic hook silenced: a panic inside progenitor or typify is caught and
/// becomes an error naming it (which the pipeline then traces to one operation or schema), so
/// the default hook's message and backtrace on the terminal would only be noise. The previous
/// hook is put back afterwards. The hook is process-wide: a panic on another thread meanwhile
/// goes unprinted too, though it still unwinds as usual.
fn without_panic_output<T>(run: impl FnOnce() -> T) -> T {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = run();
    std::panic::set_hook(previous);
    result
}
