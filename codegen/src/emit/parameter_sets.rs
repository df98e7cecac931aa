//! A positional crate's optional parameters, one struct per operation with `Default`.
//!
//! progenitor's positional interface takes every parameter in order, each optional one as an
//! `Option`: `client.container_list(None, None, Some(5), None)` says nothing at the call site,
//! and a parameter the API adds breaks every call. So each method with an optional parameter
//! takes its required ones in order and then `params::<Method>`, which holds the optional
//! ones (public fields, `Default`):
//! `client.container_list(params::ContainerList { limit: Some(5), ..Default::default() })`.
//! The method is rewritten in place (its body reads each parameter as a field of the struct,
//! or, where a name is read in a way that cannot be rewritten, unpacks the struct into the
//! names progenitor's body uses), so an operation is one method, not a positional one and a
//! wrapper beside it.
//! The builder interface (the hub client) has a builder per operation instead.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::contract::progenitor_output::{CLIENT_TYPE, is_optional_argument};

/// The module the parameter structs are written in.
pub(crate) const PARAMS_MODULE: &str = "params";

/// The name of the struct of `method`'s optional parameters: the method's name as typify
/// would spell a type (`list_items` is `ListItems`; progenitor's `_4od_feed`, from an
/// operationId that starts with a digit, is `X4odFeed`, not an identifier-breaking `4odFeed`).
pub(crate) fn struct_name(method: &str) -> String {
    crate::contract::typify_name(method)
}

/// The struct of `params` a rewritten method takes (its last argument), by name: `None` for a
/// method without optional parameters, which keeps progenitor's signature.
pub(crate) fn parameter_set_of(signature: &syn::Signature) -> Option<String> {
    let syn::FnArg::Typed(last) = signature.inputs.last()? else {
        return None;
    };
    let syn::Type::Path(path) = &*last.ty else {
        return None;
    };
    let mut segments = path.path.segments.iter();
    let (module, name) = (segments.next()?, segments.next()?);
    (path.qself.is_none() && module.ident == PARAMS_MODULE && segments.next().is_none())
        .then(|| name.ident.to_string())
}

/// Rewrites each of the positional `Client`'s methods among `items` that has an optional
/// parameter to take them in one struct of `params`, and writes that module; returns how many
/// operations got one.
pub(super) fn gather_optional_parameters(items: &mut Vec<syn::Item>) -> usize {
    let mut structs = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    let methods = items
        .iter_mut()
        .filter_map(|item| match item {
            syn::Item::Impl(block) if block.trait_.is_none() && is_client(&block.self_ty) => {
                Some(block)
            }
            _ => None,
        })
        .flat_map(|block| &mut block.items)
        .filter_map(|member| match member {
            syn::ImplItem::Fn(function) => Some(function),
            _ => None,
        });
    for function in methods {
        let Some(set) = ParameterSet::of(function) else {
            continue;
        };
        // Two methods whose struct names agree: the second keeps progenitor's signature.
        if names.contains(&set.name.to_string()) {
            continue;
        }
        // Tokens that do not read back as Rust (a type progenitor spelled in a way this file
        // does not foresee) leave the operation with its positional signature, not the
        // generator with a panic.
        let (Ok(declaration), Ok(signature), Ok(unpack)) = (
            syn::parse2::<syn::Item>(set.declaration()),
            set.signature(&function.sig),
            syn::parse2::<syn::Stmt>(set.unpack()),
        ) else {
            continue;
        };
        names.insert(set.name.to_string());
        structs.push(declaration);
        function.sig = signature;
        if !set.read_through_fields(&mut function.block) {
            function.block.stmts.insert(0, unpack);
        }
    }
    if structs.is_empty() {
        return 0;
    }
    let count = structs.len();
    let module = format_ident!("{PARAMS_MODULE}");
    let added = syn::parse2::<syn::Item>(quote! {
        /// The optional parameters of the operations that have some, each in one struct with
        /// `Default`, which the operation's method of `Client` takes last.
        pub mod #module {
            #[allow(unused_imports)]
            use super::types;
            #(#structs)*
        }
    });
    // Items that each parsed alone make a module that parses: this cannot fail, and if it did
    // the methods would name a missing module, which the crate's check reports.
    if let Ok(added) = added {
        items.push(added);
    }
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

    /// The argument the struct is passed in, named apart from every parameter (a path
    /// parameter may be called `parameters`).
    fn argument(&self) -> syn::Ident {
        let mut argument = "parameters".to_owned();
        while self.arguments.iter().any(|(name, _, _)| *name == argument) {
            argument.insert(0, '_');
        }
        format_ident!("{argument}")
    }

    /// `signature` with its optional arguments replaced by the struct, last.
    fn signature(&self, signature: &syn::Signature) -> syn::Result<syn::Signature> {
        let name = &self.name;
        let lifetime = self.lifetime();
        let module = format_ident!("{PARAMS_MODULE}");
        let argument = self.argument();
        let mut signature = signature.clone();
        signature.inputs = signature
            .inputs
            .into_iter()
            .filter(|input| match input {
                syn::FnArg::Typed(typed) => !is_optional_argument(&typed.ty),
                syn::FnArg::Receiver(_) => true,
            })
            .collect();
        signature
            .inputs
            .push(syn::parse2(quote!(#argument: #module::#name #lifetime))?);
        Ok(signature)
    }

    /// Rewrites `block` to read each optional parameter as a field of the struct, through a
    /// short local (`&limit` becomes `&p.limit`, after `let p = parameters;`): one statement
    /// where unpacking the struct is one line per field. Only when every use of each name is an
    /// expression this can rewrite, and there is at most one (a field is moved out at most
    /// once); otherwise (a name in a macro's tokens, or shadowed) `block` is left as it was
    /// and false returned, for [`Self::unpack`].
    fn read_through_fields(&self, block: &mut syn::Block) -> bool {
        let argument = self.argument();
        let mut uses = std::collections::BTreeMap::new();
        count_idents(quote!(#block), &mut uses);
        let mut alias = "p".to_owned();
        while uses.contains_key(&alias) || self.arguments.iter().any(|(name, _, _)| *name == alias)
        {
            alias.push('_');
        }
        let alias = format_ident!("{alias}");
        let fields: std::collections::BTreeSet<String> =
            self.optional().map(|(name, _)| name.to_string()).collect();
        let mut rewritten = block.clone();
        let mut through = ThroughFields {
            fields: &fields,
            alias: &alias,
            replaced: std::collections::BTreeMap::new(),
            failed: false,
        };
        syn::visit_mut::VisitMut::visit_block_mut(&mut through, &mut rewritten);
        let every_use_rewritten = fields.iter().all(|field| {
            let found = uses.get(field).copied().unwrap_or(0);
            found <= 1 && through.replaced.get(field).copied().unwrap_or(0) == found
        });
        let Ok(opening) = syn::parse2::<syn::Stmt>(quote! { let #alias = #argument; }) else {
            return false;
        };
        // A body that reads none of them (progenitor's always read every one) is left to
        // unpack them, as it would warn of an unused local otherwise.
        if through.failed || !every_use_rewritten || through.replaced.is_empty() {
            return false;
        }
        rewritten.stmts.insert(0, opening);
        *block = rewritten;
        true
    }

    /// The statement that opens the rewritten body: the struct unpacked into the names
    /// progenitor's body reads.
    fn unpack(&self) -> TokenStream {
        let name = &self.name;
        let module = format_ident!("{PARAMS_MODULE}");
        let argument = self.argument();
        let fields = self.optional().map(|(name, _)| name);
        quote! { let #module::#name { #(#fields),* } = #argument; }
    }
}

/// How often each identifier occurs in `tokens`, macro arguments included, and names a format
/// string captures (`"{page}"`, `"{page:?}"`) counted as uses too, since no rewrite of an
/// expression reaches them.
fn count_idents(tokens: TokenStream, uses: &mut std::collections::BTreeMap<String, usize>) {
    for token in tokens {
        match token {
            proc_macro2::TokenTree::Ident(ident) => {
                *uses.entry(ident.to_string()).or_default() += 1
            }
            proc_macro2::TokenTree::Group(group) => count_idents(group.stream(), uses),
            proc_macro2::TokenTree::Literal(literal) => {
                for captured in literal.to_string().split('{').skip(1) {
                    let name: String = captured
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    if !name.is_empty() && captured[name.len()..].starts_with(['}', ':']) {
                        *uses.entry(name).or_default() += 1;
                    }
                }
            }
            proc_macro2::TokenTree::Punct(_) => {}
        }
    }
}

/// Replaces each path expression naming one of `fields` with `alias.field`.
struct ThroughFields<'a> {
    fields: &'a std::collections::BTreeSet<String>,
    alias: &'a syn::Ident,
    replaced: std::collections::BTreeMap<String, usize>,
    failed: bool,
}

impl syn::visit_mut::VisitMut for ThroughFields<'_> {
    fn visit_expr_mut(&mut self, expr: &mut syn::Expr) {
        if let syn::Expr::Path(path) = expr
            && path.qself.is_none()
            && path.attrs.is_empty()
            && let Some(field) = path.path.get_ident()
            && self.fields.contains(&field.to_string())
        {
            let (alias, field) = (self.alias, field.clone());
            match syn::parse2(quote!(#alias.#field)) {
                Ok(read) => {
                    *self.replaced.entry(field.to_string()).or_default() += 1;
                    *expr = read;
                }
                Err(_) => self.failed = true,
            }
            return;
        }
        syn::visit_mut::visit_expr_mut(self, expr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_method_with_optional_parameters_takes_them_in_one_struct() {
        let mut items = syn::parse_quote! {
            impl Client {
                pub async fn container_list<'a>(
                    &'a self,
                    id: &'a str,
                    all: Option<bool>,
                    filters: Option<&'a str>,
                    body: &'a types::Filter,
                ) -> Result<ResponseValue<()>, Error<()>> {
                    send(id, all, filters, body)
                }
                pub async fn get_set<'a>(&'a self, parameters: &'a str, limit: Option<i64>, p: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    send(parameters, &limit, &p)
                }
                pub async fn get_page<'a>(&'a self, page: Option<i64>, limit: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    send(format!("{page:?}"), &limit)
                }
                pub async fn get_twice<'a>(&'a self, page: Option<types::Page>) -> Result<ResponseValue<()>, Error<()>> {
                    send(page, page)
                }
                pub async fn _4od_feed<'a>(&'a self, page: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn ping<'a>(&'a self, id: &'a str) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn get_v1<'a>(&'a self, limit: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
                pub async fn get_v_1<'a>(&'a self, limit: Option<i64>) -> Result<ResponseValue<()>, Error<()>> {
                    todo!()
                }
            }
        };
        let file: &mut syn::File = &mut items;
        assert_eq!(gather_optional_parameters(&mut file.items), 6);
        let text = prettyplease::unparse(file);
        assert!(
            text.contains("pub struct ContainerList<'a> {\n        pub all: Option<bool>,\n        pub filters: Option<&'a str>,\n    }"),
            "{text}"
        );
        // The required arguments in order, then the struct; the body reads the names it did.
        assert!(
            text.contains("pub async fn container_list<'a>(\n        &'a self,\n        id: &'a str,\n        body: &'a types::Filter,\n        parameters: params::ContainerList<'a>,\n    )"),
            "{text}"
        );
        // Each optional parameter read as a field, through a short local.
        assert!(
            text.contains("let p = parameters;\n        send(id, p.all, p.filters, body)"),
            "{text}"
        );
        // The local is named apart from the parameters too.
        assert!(
            text.contains("let p_ = _parameters;\n        send(parameters, &p_.limit, &p_.p)"),
            "{text}"
        );
        // A name read inside a macro, or read twice (a field moved out twice), is unpacked.
        assert!(
            text.contains(
                "let params::GetPage { page, limit } = parameters;\n        send(format!(\"{page:?}\"), &limit)"
            ),
            "{text}"
        );
        assert!(
            text.contains("let params::GetTwice { page } = parameters;\n        send(page, page)"),
            "{text}"
        );
        let syn::Item::Impl(client) = &file.items[0] else {
            panic!("the client's impl comes first");
        };
        let set = |name: &str| {
            client.items.iter().find_map(|member| match member {
                syn::ImplItem::Fn(method) if method.sig.ident == name => {
                    parameter_set_of(&method.sig)
                }
                _ => None,
            })
        };
        assert_eq!(set("container_list").as_deref(), Some("ContainerList"));
        // An operationId that starts with a digit (channel4.com's `4oDBrowseByDateFeed`).
        assert!(text.contains("pub struct X4odFeed {"), "{text}");
        assert_eq!(set("_4od_feed").as_deref(), Some("X4odFeed"));
        // A parameter called `parameters` keeps its name; the struct's argument moves aside.
        assert!(
            text.contains("parameters: &'a str,\n        _parameters: params::GetSet,"),
            "{text}"
        );
        // No optional parameter: progenitor's signature. Two methods whose structs would
        // share a name: the second keeps its positional signature.
        assert_eq!(set("ping"), None);
        assert_eq!(set("get_v1").as_deref(), Some("GetV1"));
        assert_eq!(set("get_v_1"), None);
        assert!(
            text.contains(
                "pub async fn get_v_1<'a>(\n        &'a self,\n        limit: Option<i64>,\n    )"
            ),
            "{text}"
        );
    }
}
