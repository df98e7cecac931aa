//! A positional crate's optional parameters, one struct per operation with `Default`.
//!
//! progenitor's positional interface takes every parameter in order, each optional one as an
//! `Option`: `client.container_list(None, None, Some(5), None)` says nothing at the call site,
//! and a parameter the API adds breaks every call. For each method with an optional
//! parameter, `params::<Method>` holds them all (public fields, `Default`), and
//! `Client::<method>_with` takes the required ones and that struct:
//! `client.container_list_with(params::ContainerList { limit: Some(5), ..Default::default() })`.
//! The builder interface (the hub client) has a builder per operation instead.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::contract::progenitor_output::{CLIENT_METHODS, CLIENT_TYPE, is_optional_argument};

/// The module the parameter structs are written in.
pub(crate) const PARAMS_MODULE: &str = "params";

/// The suffix of the method that takes a parameter struct.
pub(crate) const WITH_SUFFIX: &str = "_with";

/// The name of the struct of `method`'s optional parameters: the method's name as typify
/// would spell a type (`list_items` is `ListItems`; progenitor's `_4od_feed`, from an
/// operationId that starts with a digit, is `X4odFeed`, not an identifier-breaking `4odFeed`).
pub(crate) fn struct_name(method: &str) -> String {
    crate::contract::typify_name(method)
}

/// Writes `params` and the `_with` methods for the positional `Client`'s methods among
/// `items`; returns how many operations got one.
pub(super) fn gather_optional_parameters(items: &mut Vec<syn::Item>) -> usize {
    let methods: Vec<&syn::ImplItemFn> = items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Impl(block) if block.trait_.is_none() && is_client(&block.self_ty) => {
                Some(block)
            }
            _ => None,
        })
        .flat_map(|block| &block.items)
        .filter_map(|member| match member {
            syn::ImplItem::Fn(function) => Some(function),
            _ => None,
        })
        .collect();
    let taken: std::collections::BTreeSet<String> = methods
        .iter()
        .map(|function| function.sig.ident.to_string())
        .chain(CLIENT_METHODS.iter().map(|name| (*name).to_owned()))
        .collect();
    let mut structs = Vec::new();
    let mut calls = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for function in methods {
        let Some(set) = ParameterSet::of(function) else {
            continue;
        };
        let with = format!("{}{WITH_SUFFIX}", function.sig.ident);
        // A method of that name already (an operation `list_with`), or two methods whose
        // struct names agree: the plain method is all there is.
        if taken.contains(&with) || names.contains(&set.name.to_string()) {
            continue;
        }
        // A method's name is an identifier, and so is it with a suffix, unless it was raw
        // (`r#type`): then the operation has no `_with` rather than the generator a panic.
        let Ok(with) = syn::parse_str::<syn::Ident>(&with) else {
            continue;
        };
        // Tokens that do not read back as Rust (a type progenitor spelled in a way this file
        // does not foresee) leave the operation with its plain method, not the generator with
        // a panic.
        let (Ok(declaration), Ok(call)) = (
            syn::parse2::<syn::Item>(set.declaration()),
            syn::parse2::<syn::ImplItemFn>(set.method(function, &with)),
        ) else {
            continue;
        };
        names.insert(set.name.to_string());
        structs.push(declaration);
        calls.push(call);
    }
    if structs.is_empty() {
        return 0;
    }
    let count = structs.len();
    let module = format_ident!("{PARAMS_MODULE}");
    let client = format_ident!("{CLIENT_TYPE}");
    let added = syn::parse2::<syn::File>(quote! {
        /// The optional parameters of the operations that have some, each in one struct with
        /// `Default`, for the `Client` methods named `<operation>_with`.
        pub mod #module {
            #[allow(unused_imports)]
            use super::types;
            #(#structs)*
        }
        impl #client {
            #(#calls)*
        }
    });
    // Items that each parsed alone make a file that parses: this cannot fail, and if it did,
    // the crate would lose only its `_with` methods.
    let Ok(added) = added else {
        return 0;
    };
    items.extend(added.items);
    count
}

fn is_client(ty: &syn::Type) -> bool {
    matches!(ty, syn::Type::Path(path)
        if path.qself.is_none() && path.path.is_ident(CLIENT_TYPE))
}

/// One method's optional parameters.
struct ParameterSet {
    /// The method's name.
    method: syn::Ident,
    /// The struct's name: the method's, in `UpperCamelCase`.
    name: syn::Ident,
    /// Whether a field borrows (`Option<&'a str>`): the struct then takes the lifetime.
    borrows: bool,
    /// Every argument in order, with whether it is optional.
    arguments: Vec<(syn::Ident, syn::Type, bool)>,
}

impl ParameterSet {
    fn of(function: &syn::ImplItemFn) -> Option<Self> {
        let mut arguments = Vec::new();
        for input in &function.sig.inputs {
            let syn::FnArg::Typed(typed) = input else {
                continue;
            };
            let syn::Pat::Ident(pattern) = &*typed.pat else {
                return None;
            };
            let optional = is_optional_argument(&typed.ty);
            arguments.push((pattern.ident.clone(), (*typed.ty).clone(), optional));
        }
        if !arguments.iter().any(|(_, _, optional)| *optional) {
            return None;
        }
        let borrows = arguments
            .iter()
            .filter(|(_, _, optional)| *optional)
            .any(|(_, ty, _)| quote!(#ty).to_string().contains('\''));
        let name =
            syn::parse_str::<syn::Ident>(&struct_name(&function.sig.ident.to_string())).ok()?;
        Some(Self {
            method: function.sig.ident.clone(),
            name,
            borrows,
            arguments,
        })
    }

    fn lifetime(&self) -> TokenStream {
        if self.borrows { quote!(<'a>) } else { quote!() }
    }

    fn optional(&self) -> impl Iterator<Item = (&syn::Ident, &syn::Type)> {
        self.arguments
            .iter()
            .filter(|(_, _, optional)| *optional)
            .map(|(name, ty, _)| (name, ty))
    }

    fn declaration(&self) -> TokenStream {
        let name = &self.name;
        let lifetime = self.lifetime();
        let (fields, types): (Vec<_>, Vec<_>) = self.optional().unzip();
        let doc = format!(
            " The optional parameters of [`Client::{method}`](super::Client::{method}), each `None` unless set.",
            method = self.method
        );
        quote! {
            #[doc = #doc]
            #[derive(Clone, Debug, Default)]
            pub struct #name #lifetime {
                #(pub #fields: #types,)*
            }
        }
    }

    fn method(&self, function: &syn::ImplItemFn, with: &syn::Ident) -> TokenStream {
        let name = &self.name;
        let lifetime = self.lifetime();
        let module = format_ident!("{PARAMS_MODULE}");
        let method = &self.method;
        let generics = &function.sig.generics;
        let where_clause = &generics.where_clause;
        let output = &function.sig.output;
        let required = self
            .arguments
            .iter()
            .filter(|(_, _, optional)| !*optional)
            .map(|(name, ty, _)| quote!(#name: #ty));
        let fields: Vec<&syn::Ident> = self.optional().map(|(name, _)| name).collect();
        let all = self.arguments.iter().map(|(name, _, _)| name);
        // The struct's argument, named apart from every parameter (a path parameter may be
        // called `parameters`).
        let mut argument = "parameters".to_owned();
        while self.arguments.iter().any(|(name, _, _)| *name == argument) {
            argument.insert(0, '_');
        }
        let argument = format_ident!("{argument}");
        let doc = format!(
            " [`Self::{method}`] with its optional parameters in one [`{PARAMS_MODULE}::{name}`]."
        );
        quote! {
            #[doc = #doc]
            pub async fn #with #generics(
                &'a self,
                #(#required,)*
                #argument: #module::#name #lifetime,
            ) #output #where_clause {
                let #module::#name { #(#fields),* } = #argument;
                self.#method(#(#all),*).await
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_with_optional_parameters_gets_a_struct_and_a_with_method() {
        let mut items = syn::parse_quote! {
            impl Client {
                pub async fn container_list<'a>(
                    &'a self,
                    id: &'a str,
                    all: Option<bool>,
                    filters: Option<&'a str>,
                ) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn get_set<'a>(&'a self, parameters: &'a str, limit: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn _4od_feed<'a>(&'a self, page: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn ping<'a>(&'a self, id: &'a str) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn count<'a>(&'a self, limit: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn count_with<'a>(&'a self) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
            }
        };
        let file: &mut syn::File = &mut items;
        assert_eq!(gather_optional_parameters(&mut file.items), 3);
        let text = prettyplease::unparse(file);
        assert!(
            text.contains("pub struct ContainerList<'a> {\n        pub all: Option<bool>,\n        pub filters: Option<&'a str>,\n    }"),
            "{text}"
        );
        assert!(
            text.contains("pub async fn container_list_with<'a>(\n        &'a self,\n        id: &'a str,\n        parameters: params::ContainerList<'a>,\n    )"),
            "{text}"
        );
        assert!(
            text.contains("let params::ContainerList { all, filters } = parameters;\n        self.container_list(id, all, filters).await"),
            "{text}"
        );
        // An operationId that starts with a digit (channel4.com's `4oDBrowseByDateFeed`).
        assert!(text.contains("pub struct X4odFeed {"), "{text}");
        assert!(text.contains("pub async fn _4od_feed_with<'a>("), "{text}");
        // A parameter called `parameters` keeps its name; the struct's argument moves aside.
        assert!(
            text.contains("parameters: &'a str,\n        _parameters: params::GetSet,"),
            "{text}"
        );
        // No optional parameter, or a `_with` method of that name already: nothing.
        assert!(!text.contains("struct Ping"), "{text}");
        assert!(!text.contains("struct Count"), "{text}");
    }
}
