//! Step 5: progenitor (builder interface) and typify over the patched 3.0 document, the patch
//! items spliced into the `types` module, and deterministic formatting with prettyplease.

use std::panic::{AssertUnwindSafe, catch_unwind};

use progenitor::{GenerationSettings, Generator, InterfaceStyle, TagStyle};
use serde_json::Value;

use crate::patch::Applied;
use crate::pointer::push;
use crate::{Error, Input};

/// Generates the formatted Rust file, header first.
pub fn emit(document: &Value, applied: &Applied, input: &Input<'_>) -> Result<String, Error> {
    let spec: openapiv3::OpenAPI = serde_path_to_error::deserialize(document).map_err(|error| {
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
    })?;

    let mut settings = GenerationSettings::default();
    settings
        .with_interface(InterfaceStyle::Builder)
        .with_tag(TagStyle::Merged)
        .with_derive("PartialEq");
    for replacement in &applied.replacements {
        let path = format!("{}::types::{}", input.module_path, replacement.type_name);
        settings.with_replacement(&replacement.schema, path, replacement.impls.iter().cloned());
    }

    // Preflight catches the panics we know of; anything else still must not unwind into the
    // maintainer's terminal as a crash.
    let mut generator = Generator::new(&settings);
    let tokens = catch_unwind(AssertUnwindSafe(|| generator.generate_tokens(&spec)))
        .map_err(|payload| {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| {
                    payload
                        .downcast_ref::<&str>()
                        .map(|text| (*text).to_owned())
                })
                .unwrap_or_else(|| "unknown panic".to_owned());
            Error::Progenitor(format!("panicked: {message}"))
        })?
        .map_err(|error| Error::Progenitor(error.to_string()))?;

    let mut file: syn::File =
        syn::parse2(tokens).map_err(|error| Error::Syntax(error.to_string()))?;
    splice_into_types(&mut file, applied)?;
    Ok(format!(
        "{}\n{}",
        crate::header(input.spec_name, input.spec_text).trim_end(),
        prettyplease::unparse(&file)
    ))
}

/// Adds the patch items to `pub mod types`, where typify's own types are.
fn splice_into_types(file: &mut syn::File, applied: &Applied) -> Result<(), Error> {
    let types = file
        .items
        .iter_mut()
        .find_map(|item| match item {
            syn::Item::Mod(module) if module.ident == "types" => module.content.as_mut(),
            _ => None,
        })
        .ok_or_else(|| Error::Syntax("progenitor emitted no `types` module".into()))?;
    for tokens in &applied.items {
        let patch_file: syn::File = syn::parse2(tokens.clone())
            .map_err(|error| Error::Syntax(format!("patch item: {error}")))?;
        types.1.extend(patch_file.items);
    }
    Ok(())
}
