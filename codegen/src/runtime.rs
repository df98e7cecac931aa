//! The names of the support code every generated crate carries (emitted by `emit` into
//! `types`), for the stages below `emit` that must avoid or call them: `normalize` renames a
//! schema that would take a shared name, and patches write calls into the strictness switch.
//! Each name is written here once.

use proc_macro2::TokenStream;
use quote::quote;

/// The shared types and traits the generated code defines in `types` beside the description's
/// types. `normalize` renames a component schema that would take one of these names, and
/// `emit` refuses a `types` module that defines a name twice, so a name missing here is
/// found by the first description that uses it, not by the compiler.
pub(crate) const SHARED_TYPE_NAMES: &[&str] = &[
    "AliasMarker",
    "BoundedInteger",
    "BoundedNumber",
    "CheckedString",
    "DateTimeText",
    "DecodeObject",
    "FormFile",
    "IntegerBounds",
    "IntegerDefault",
    "NumberDefault",
    "NumberSchema",
    "ObjectVisitor",
    "ObjectWriter",
    "RawJson",
    "SecretString",
    "StringEnum",
    "StringEnumVisitor",
    "StringRules",
    "StringSchema",
    "UnknownFields",
    "UnknownKeys",
    "Unlisted",
    "ValidatedString",
    "ValidationError",
];

/// The path generated code names the support crate by (`hub-api-support`, a dependency of
/// every generated crate): the generic checked types, the format checks and [`Pattern`].
///
/// [`Pattern`]: hub_api_support::Pattern
pub(crate) fn support_crate() -> TokenStream {
    quote! { ::hub_api_support }
}

/// The support crate as a dependency of a generated crate's `Cargo.toml`.
pub(crate) const SUPPORT_PACKAGE: &str = "hub-api-support";

/// The module of `types` that holds the marker of each alias of a generic checked type
/// (`CheckedString`, `ValidatedString`, `BoundedInteger`, ...): one uninhabited type per alias,
/// named as the alias is, whose impl states the schema's rules. Lower case, so no schema's
/// type name (UpperCamelCase) takes it.
pub(crate) fn rules_module() -> syn::Ident {
    syn::Ident::new("rules", proc_macro2::Span::call_site())
}

/// The call a generated type makes to ask whether decoding is strict on this thread (the
/// support crate's `decoding`, which the generated module re-exports).
pub(crate) fn is_strict() -> TokenStream {
    let support = support_crate();
    quote! { #support::decoding::is_strict() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_names_are_sorted_unique_type_names() {
        // Sorted, so a name added twice or out of place shows in review.
        assert!(SHARED_TYPE_NAMES.windows(2).all(|pair| pair[0] < pair[1]));
        for name in SHARED_TYPE_NAMES {
            assert!(name.starts_with(|c: char| c.is_ascii_uppercase()), "{name}");
        }
        // The rules module is lower case, so no type name takes it.
        assert_eq!(rules_module().to_string(), "rules");
    }

    #[test]
    fn the_strictness_call_is_an_expression() {
        syn::parse2::<syn::Expr>(is_strict()).expect("an expression");
    }
}
