//! The one reader of the `#[serde(...)]` attributes and derives progenitor and typify put on
//! the items they emit: every step that needs a flag, a rename, the whole list or whether a
//! trait is derived asks here.

/// The entries of every `#[serde(...)]` attribute in `attrs`, in order (`rename = "x"`,
/// `default`, `flatten`, ...), or why one does not parse.
pub(crate) fn try_metas(attrs: &[syn::Attribute]) -> syn::Result<Vec<syn::Meta>> {
    let mut all = Vec::new();
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("serde")) {
        all.extend(attr.parse_args_with(
            syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
        )?);
    }
    Ok(all)
}

/// [`try_metas`] for readers that only look: an attribute that does not parse contributes
/// nothing.
pub(crate) fn metas(attrs: &[syn::Attribute]) -> Vec<syn::Meta> {
    attrs
        .iter()
        .flat_map(|attr| try_metas(std::slice::from_ref(attr)).unwrap_or_default())
        .collect()
}

/// The string an entry `key = "..."` gives.
pub(crate) fn text(meta: &syn::Meta) -> Option<String> {
    match meta {
        syn::Meta::NameValue(pair) => match &pair.value {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) => Some(text.value()),
            _ => None,
        },
        _ => None,
    }
}

/// Whether an entry of `attrs`' serde attributes is `flag` (alone, `flag = ...` or `flag(...)`).
pub(crate) fn has(attrs: &[syn::Attribute], flag: &str) -> bool {
    metas(attrs).iter().any(|meta| meta.path().is_ident(flag))
}

/// The name on the wire of a field or variant called `ident`: its `rename`, or the identifier
/// itself without a raw prefix.
pub(crate) fn wire_name(attrs: &[syn::Attribute], ident: &syn::Ident) -> String {
    metas(attrs)
        .iter()
        .filter(|meta| meta.path().is_ident("rename"))
        .find_map(text)
        .unwrap_or_else(|| ident.to_string().trim_start_matches("r#").to_owned())
}

/// Whether a `#[derive(...)]` of `attrs` names `wanted` (however the path is spelled).
pub(crate) fn derives(attrs: &[syn::Attribute], wanted: &str) -> bool {
    attrs
        .iter()
        .filter(|attr| attr.path().is_ident("derive"))
        .filter_map(|attr| {
            attr.parse_args_with(
                syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated,
            )
            .ok()
        })
        .flatten()
        .any(|path| {
            path.segments
                .last()
                .is_some_and(|last| last.ident == wanted)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_flags_and_renames_from_every_serde_attribute() {
        let field: syn::Field = syn::parse_quote! {
            #[doc = "x"]
            #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
            #[serde(default, deserialize_with = "deserialize_present")]
            pub r#type: Option<String>
        };
        let ident = field.ident.as_ref().unwrap();
        assert_eq!(wire_name(&field.attrs, ident), "type");
        assert!(has(&field.attrs, "default"));
        assert!(has(&field.attrs, "deserialize_with"));
        assert!(!has(&field.attrs, "flatten"));
        assert_eq!(metas(&field.attrs).len(), 4);
        let plain: syn::Field = syn::parse_quote!(pub r#match: u8);
        assert_eq!(
            wire_name(&plain.attrs, plain.ident.as_ref().unwrap()),
            "match"
        );
    }
}
