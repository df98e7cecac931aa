//! The names of the support code every generated crate carries (emitted by `emit` into
//! `types`), for the stages below `emit` that must avoid or call them: `normalize` renames a
//! schema that would take a shared name, and patches write calls into the strictness switch.
//! Each name is written here once, and so is where the support code is: the `hub-api-support`
//! crate, or the module a standalone crate carries ([`carrying_support`]).

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

/// The path generated code names the support code by: the generic checked types, the format
/// checks and [`Pattern`]. Where a host depends on the `hub-api-support` crate (the hub's
/// client, a module generated alone), the crate, `::hub_api_support`; inside a run of
/// [`carrying_support`] (a standalone crate, which carries the sources as its module
/// [`CARRIED_MODULE`]), that module, `crate::support`.
///
/// [`Pattern`]: hub_api_support::Pattern
pub(crate) fn support_crate() -> TokenStream {
    if carries_support() {
        let module = syn::Ident::new(CARRIED_MODULE, proc_macro2::Span::call_site());
        quote! { crate::#module }
    } else {
        quote! { ::hub_api_support }
    }
}

/// The path generated code imports the support code's macros from (`registry!`,
/// `decode_object!`, ...): the `hub-api-support` crate, or, inside a run of
/// [`carrying_support`], the carrying crate's root, where `#[macro_export]` puts the macros of
/// its module [`CARRIED_MODULE`].
pub(crate) fn support_macros() -> TokenStream {
    if carries_support() {
        quote! { crate }
    } else {
        quote! { ::hub_api_support }
    }
}

/// The module at the root of a standalone crate that holds the support crate's sources.
pub(crate) const CARRIED_MODULE: &str = "support";

thread_local! {
    /// Whether the run on this thread writes a crate that carries the support code. Where
    /// generated code finds the support code is a property of the whole run, read by two
    /// dozen emitters and patches and by `rules`' checks: one switch set by
    /// [`carrying_support`] rather than a parameter threaded through every one of them. The
    /// pipeline runs on the caller's thread and starts none, so every emitter sees it.
    static CARRIED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `run` (a whole generation) so that generated code names the support code as the
/// module a standalone crate carries (`crate::support`) instead of the `hub-api-support`
/// crate. The setting is restored when `run` returns or unwinds, so a run never leaks it into
/// the next one on the thread.
pub(crate) fn carrying_support<T>(run: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            CARRIED.with(|carried| carried.set(self.0));
        }
    }
    let _restore = Restore(CARRIED.with(|carried| carried.replace(true)));
    run()
}

/// Whether the current run writes a crate that carries the support code (see
/// [`carrying_support`]).
pub(crate) fn carries_support() -> bool {
    CARRIED.with(std::cell::Cell::get)
}

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
    fn a_run_that_carries_the_support_code_names_its_module() {
        assert_eq!(support_crate().to_string(), ":: hub_api_support");
        assert_eq!(support_macros().to_string(), ":: hub_api_support");
        let inside = carrying_support(|| {
            (
                support_crate().to_string(),
                is_strict().to_string(),
                support_macros().to_string(),
            )
        });
        assert_eq!(inside.0, "crate :: support");
        assert_eq!(inside.1, "crate :: support :: decoding :: is_strict ()");
        assert_eq!(inside.2, "crate");
        // Restored after the run, and after a run that panicked.
        assert_eq!(support_crate().to_string(), ":: hub_api_support");
        let panicked = std::panic::catch_unwind(|| carrying_support(|| panic!("a failed run")));
        assert!(panicked.is_err());
        assert!(!carries_support());
    }

    #[test]
    fn the_strictness_call_is_an_expression() {
        syn::parse2::<syn::Expr>(is_strict()).expect("an expression");
    }
}
