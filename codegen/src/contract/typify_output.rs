//! What typify 0.8 writes, as `emit` recognises it before rewriting it: string newtypes and
//! their impls, string enums and their conversions, an open object's map of other properties,
//! optional and required-nullable fields, closed structs. Every comparison is with tokens
//! quoted here from what typify writes (never hand-spaced token text), so an upgrade that
//! changes one fails the recogniser, and the step reports what it passed over.

use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use super::serde_attrs;

/// A check typify 0.8 writes in a string newtype's `from_str`, in its order of appearance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypifyCheck {
    /// `maxLength`.
    MaxLength,
    /// `minLength`.
    MinLength,
    /// `pattern`.
    Pattern,
}

impl TypifyCheck {
    /// Every check, each tried where a statement of `from_str` may be one.
    pub const ALL: [TypifyCheck; 3] = [Self::MaxLength, Self::MinLength, Self::Pattern];

    /// The word that names the check in an invocation of the macro that writes it.
    pub fn keyword(self) -> &'static str {
        match self {
            Self::MaxLength => "max",
            Self::MinLength => "min",
            Self::Pattern => "pattern",
        }
    }

    /// typify's error message, around the bound or pattern.
    pub fn message(self) -> (&'static str, &'static str) {
        match self {
            Self::MaxLength => ("longer than ", " characters"),
            Self::MinLength => ("shorter than ", " characters"),
            Self::Pattern => ("doesn't match pattern \"", "\""),
        }
    }

    /// The statements typify writes over `value` for the check with `argument` (a bound, or a
    /// pattern's text) and `message` (an expression for the error text).
    fn statements(
        self,
        value: &TokenStream,
        argument: &TokenStream,
        message: &TokenStream,
    ) -> TokenStream {
        match self {
            Self::MaxLength => quote! {
                if #value.chars().count() > #argument {
                    return Err(#message.into());
                }
            },
            Self::MinLength => quote! {
                if #value.chars().count() < #argument {
                    return Err(#message.into());
                }
            },
            Self::Pattern => quote! {
                static PATTERN: ::std::sync::LazyLock<::regress::Regex> = ::std::sync::LazyLock::new(|| {
                    ::regress::Regex::new(#argument).unwrap()
                });
                if PATTERN.find(#value).is_none() {
                    return Err(#message.into());
                }
            },
        }
    }

    /// The statements exactly as typify writes them for `argument` (a bound's digits, or a
    /// pattern), to recognise them by; `None` when a bound is not a number.
    pub fn as_typify_writes(self, argument: &str) -> Option<TokenStream> {
        let (before, after) = self.message();
        let message = format!("{before}{argument}{after}");
        let argument = match self {
            Self::MaxLength | Self::MinLength => {
                let bound: usize = argument.parse().ok()?;
                quote!(#bound)
            }
            Self::Pattern => quote!(#argument),
        };
        Some(self.statements(&quote!(value), &argument, &quote!(#message)))
    }
}

/// The module typify 0.8 writes at the start of every `types` module, whose
/// `ConversionError` every `TryFrom` and `FromStr` it writes returns. The support code's
/// `ConversionError` is the same type written once, so `emit` puts a re-export of it in this
/// module's place when the module is exactly this.
pub fn typify_error_module() -> TokenStream {
    quote! {
        /// Error types.
        pub mod error {
            /// Error from a `TryFrom` or `FromStr` implementation.
            pub struct ConversionError(::std::borrow::Cow<'static, str>);
            impl ::std::error::Error for ConversionError {}
            impl ::std::fmt::Display for ConversionError {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> Result<(), ::std::fmt::Error> {
                    ::std::fmt::Display::fmt(&self.0, f)
                }
            }
            impl ::std::fmt::Debug for ConversionError {
                fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> Result<(), ::std::fmt::Error> {
                    ::std::fmt::Debug::fmt(&self.0, f)
                }
            }
            impl From<&'static str> for ConversionError {
                fn from(value: &'static str) -> Self {
                    Self(value.into())
                }
            }
            impl From<String> for ConversionError {
                fn from(value: String) -> Self {
                    Self(value.into())
                }
            }
        }
    }
}

/// The impls typify 0.8 writes for a string newtype `name` (`pub struct Name(String)` with a
/// `pattern`, `minLength` or `maxLength`), in its order, except `FromStr`, which holds the
/// check and differs from type to type. Called with a type name it gives the impls to
/// recognise typify's output by; called with `CheckedString<R>` it is the generic code that
/// replaces them, so the two cannot drift apart.
pub fn typify_string_newtype_impls(name: &TokenStream) -> Vec<TokenStream> {
    let conversion_error = quote!(self::error::ConversionError);
    vec![
        quote! {
            impl ::std::ops::Deref for #name {
                type Target = ::std::string::String;
                fn deref(&self) -> &::std::string::String {
                    &self.0
                }
            }
        },
        quote! {
            impl ::std::convert::From<#name> for ::std::string::String {
                fn from(value: #name) -> Self {
                    value.0
                }
            }
        },
        quote! {
            impl ::std::convert::TryFrom<&str> for #name {
                type Error = #conversion_error;
                fn try_from(value: &str) -> ::std::result::Result<Self, #conversion_error> {
                    value.parse()
                }
            }
        },
        quote! {
            impl ::std::convert::TryFrom<::std::string::String> for #name {
                type Error = #conversion_error;
                fn try_from(value: ::std::string::String) -> ::std::result::Result<Self, #conversion_error> {
                    value.parse()
                }
            }
        },
        quote! {
            impl<'de> ::serde::Deserialize<'de> for #name {
                // typify's trailing commas are kept: the tokens must match its output.
                fn deserialize<D>(deserializer: D,) -> ::std::result::Result<Self, D::Error>
                where
                    D: ::serde::Deserializer<'de>,
                {
                    ::std::string::String::deserialize(deserializer)?
                        .parse()
                        .map_err(|e: #conversion_error| {
                            <D::Error as ::serde::de::Error>::custom(e.to_string(),)
                        })
                }
            }
        },
    ]
}

/// `node` as token text, the form every comparison here uses.
fn tokens(node: &impl ToTokens) -> String {
    node.to_token_stream().to_string()
}

/// Whether `ty` is typify's spelling of a string, `::std::string::String`.
fn is_string(ty: &impl ToTokens) -> bool {
    tokens(ty) == tokens(&quote!(::std::string::String))
}

/// `pub struct Name(::std::string::String);`, serde-transparent: the shape of typify's string
/// newtype, which it writes for a string with a `pattern`, `minLength` or `maxLength`. Its
/// field is private, so that a value is made through the checks; a string without them is
/// `pub struct Name(pub ::std::string::String);`, which has no checks to fold.
pub fn is_string_newtype(structure: &syn::ItemStruct) -> bool {
    let syn::Fields::Unnamed(fields) = &structure.fields else {
        return false;
    };
    fields.unnamed.len() == 1
        && matches!(fields.unnamed[0].vis, syn::Visibility::Inherited)
        && is_string(&fields.unnamed[0].ty)
        && serde_attrs::has(&structure.attrs, "transparent")
}

/// The candidate `block` belongs to: its self type, or `T` of a `From<T> for String`, the two
/// ways typify's impls for a newtype name it.
pub fn newtype_of_impl(
    block: &syn::ItemImpl,
    is_candidate: impl Fn(&str) -> bool,
) -> Option<String> {
    let last_ident = |ty: &syn::Type| match ty {
        syn::Type::Path(path) if path.qself.is_none() => {
            path.path.get_ident().map(|i| i.to_string())
        }
        _ => None,
    };
    if let Some(name) = last_ident(&block.self_ty)
        && is_candidate(&name)
    {
        return Some(name);
    }
    let (_, path, _) = block.trait_.as_ref()?;
    let last = path.segments.last()?;
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.first()? {
        syn::GenericArgument::Type(ty) => last_ident(ty).filter(|name| is_candidate(name)),
        _ => None,
    }
}

/// Whether `block` is the conversion typify writes out of a newtype that wraps another type
/// (`impl From<CredsSecretAccessKey> for SecretAccessKey { fn from(value) -> Self { value.0 } }`,
/// for a property that is `allOf: [$ref, {description}]`): a conversion *into* the wrapped
/// type from another generated type, which holds unchanged when the wrapped type becomes an
/// alias of a generic checked type.
pub fn is_conversion_from_another_type(block: &syn::ItemImpl) -> bool {
    // `Some(None, ..)`: a positive impl (`impl !Trait` is never typify's).
    let Some((None, path, _)) = &block.trait_ else {
        return false;
    };
    let Some(last) = path.segments.last() else {
        return false;
    };
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return false;
    };
    let from = match arguments.args.first() {
        Some(syn::GenericArgument::Type(syn::Type::Path(from))) if from.qself.is_none() => from,
        _ => return false,
    };
    let is_from_path = path.leading_colon.is_some()
        && path.segments.len() == 3
        && path.segments[0].ident == "std"
        && path.segments[1].ident == "convert"
        && last.ident == "From"
        && arguments.args.len() == 1;
    let self_ident = match &*block.self_ty {
        syn::Type::Path(path) if path.qself.is_none() => path.path.get_ident(),
        _ => None,
    };
    is_from_path
        && from
            .path
            .get_ident()
            .is_some_and(|from| self_ident.is_some_and(|to| from != to))
}

/// Spells `String` in full in the conversion typify writes for a newtype over a type parsed
/// from text (`impl ::std::convert::TryFrom<String> for Flag { fn try_from(value: String) ..
/// { value.parse() } }`, for a newtype over `bool` or a number): typify writes the standard
/// `String` there by its bare name, which a component named `String` (AWS names its shapes so)
/// takes over, and the conversion then conflicts with the standard library's. Only this impl is
/// changed: elsewhere typify's bare `String` *is* the component (`From<String> for Union`).
/// Returns whether `item` was that impl.
pub fn qualify_string_of_parse_conversion(item: &mut syn::Item) -> bool {
    let syn::Item::Impl(block) = item else {
        return false;
    };
    let bare = quote!(String);
    let is_conversion = block.trait_.as_ref().is_some_and(|(negative, path, _)| {
        negative.is_none() && tokens(path) == tokens(&quote!(::std::convert::TryFrom<#bare>))
    });
    let parses = block.items.iter().any(|member| {
        matches!(member, syn::ImplItem::Fn(function)
            if tokens(&function.block) == tokens(&quote!({ value.parse() })))
    });
    if !(is_conversion && parses) {
        return false;
    }
    let full: syn::Type = syn::parse_quote!(::std::string::String);
    struct Qualify<'a>(&'a syn::Type);
    impl syn::visit_mut::VisitMut for Qualify<'_> {
        fn visit_type_mut(&mut self, ty: &mut syn::Type) {
            if let syn::Type::Path(path) = ty
                && path.qself.is_none()
                && path.path.is_ident("String")
            {
                *ty = self.0.clone();
                return;
            }
            syn::visit_mut::visit_type_mut(self, ty);
        }
    }
    syn::visit_mut::VisitMut::visit_item_impl_mut(&mut Qualify(&full), block);
    true
}

/// What typify wrote for one string newtype, as [`StringNewtypeReader::read`] finds it.
#[derive(Debug, PartialEq, Eq)]
pub enum StringNewtype {
    /// Exactly typify's impls ([`typify_string_newtype_impls`]) and a `FromStr` whose body is
    /// its statements for known checks ([`TypifyCheck`]), each at most once and in its order,
    /// then `Ok(Self(..))`: the checks, each with its argument (a bound's digits or a
    /// pattern's text). Every impl given belongs to this shape.
    Checked(Vec<(TypifyCheck, String)>),
    /// The same with a `Default` impl beside them, which typify writes for a string with a
    /// `default`: a known shape, which `emit` leaves as typify wrote it.
    WithDefault,
    /// Anything else: not a shape typify 0.8 writes.
    Unknown,
}

/// Reads the impls typify wrote for a string newtype; holds typify's impls as text, written
/// once for a placeholder name.
pub struct StringNewtypeReader {
    templates: Vec<String>,
}

/// A name no schema gives a type: typify names types in UpperCamelCase.
const PLACEHOLDER: &str = "__typify_string_newtype__";

impl Default for StringNewtypeReader {
    fn default() -> Self {
        let placeholder = syn::Ident::new(PLACEHOLDER, proc_macro2::Span::call_site());
        Self {
            templates: typify_string_newtype_impls(&quote!(#placeholder))
                .iter()
                .map(ToString::to_string)
                .collect(),
        }
    }
}

impl StringNewtypeReader {
    /// What `found`, the impls typify wrote for the newtype `name` in the order it wrote
    /// them, are.
    pub fn read(&self, name: &str, found: &[&syn::ItemImpl]) -> StringNewtype {
        if let Some(checks) = self.checked(name, found) {
            return StringNewtype::Checked(checks);
        }
        let is_default = |block: &&syn::ItemImpl| {
            tokens(&block.trait_.as_ref().map(|(_, path, _)| path))
                == tokens(&quote!(::std::default::Default))
        };
        let rest: Vec<&syn::ItemImpl> = found
            .iter()
            .copied()
            .filter(|block| !is_default(block))
            .collect();
        if rest.len() + 1 == found.len() && self.checked(name, &rest).is_some() {
            StringNewtype::WithDefault
        } else {
            StringNewtype::Unknown
        }
    }

    fn checked(&self, name: &str, found: &[&syn::ItemImpl]) -> Option<Vec<(TypifyCheck, String)>> {
        let from_str = self.boilerplate(name, found)?;
        read_checks(found[from_str]).filter(|checks| in_typify_order(checks))
    }

    /// The position in `found` of its `FromStr`, when `found` is exactly typify's boilerplate
    /// impls for `name` (in typify's order) and one `FromStr`.
    fn boilerplate(&self, name: &str, found: &[&syn::ItemImpl]) -> Option<usize> {
        // Token text separates an identifier from its neighbours whatever it spells, so the
        // placeholder's text with the name put in is the text of the impls quoted with the name.
        let expected = self
            .templates
            .iter()
            .map(|template| template.replace(PLACEHOLDER, name));
        let is_from_str = |block: &syn::ItemImpl| {
            block
                .trait_
                .as_ref()
                .and_then(|(_, path, _)| path.segments.last())
                .is_some_and(|last| last.ident == "FromStr")
        };
        let (from_str, boilerplate): (Vec<_>, Vec<_>) = found
            .iter()
            .enumerate()
            .partition(|(_, block)| is_from_str(block));
        let matches = from_str.len() == 1
            && boilerplate.len() == self.templates.len()
            && boilerplate
                .iter()
                .zip(expected)
                .all(|((_, found), expected)| tokens(*found) == expected);
        matches.then(|| from_str[0].0)
    }
}

/// Whether `checks` are each typify's at most once and in the order typify writes them, which
/// is the order `CheckedString`'s `FromStr` runs them in, so the first failing check, and so
/// the message, is the one typify's `FromStr` reports.
fn in_typify_order(checks: &[(TypifyCheck, String)]) -> bool {
    let position = |check| TypifyCheck::ALL.iter().position(|c| *c == check);
    checks
        .windows(2)
        .all(|pair| position(pair[0].0) < position(pair[1].0))
}

/// The checks of a typify `FromStr`, each with its argument (a bound's digits or a pattern),
/// when its body is exactly typify's statements for them and then `Ok(Self(..))`.
fn read_checks(from_str: &syn::ItemImpl) -> Option<Vec<(TypifyCheck, String)>> {
    let method = from_str.items.iter().find_map(|item| match item {
        syn::ImplItem::Fn(method) if method.sig.ident == "from_str" => Some(method),
        _ => None,
    })?;
    let (last, mut rest) = method.block.stmts.split_last()?;
    if tokens(last) != tokens(&quote!(Ok(Self(value.to_string())))) {
        return None;
    }
    let mut checks = Vec::new();
    while let Some(first) = rest.first() {
        let argument = first_literal(first.to_token_stream())?;
        let (check, length) = TypifyCheck::ALL.into_iter().find_map(|check| {
            let statements = check.as_typify_writes(&argument)?;
            let expected: syn::Block = syn::parse2(quote!({ #statements })).ok()?;
            let length = expected.stmts.len();
            let matches = length > 0
                && rest.len() >= length
                && rest[..length]
                    .iter()
                    .zip(&expected.stmts)
                    .all(|(found, expected)| tokens(found) == tokens(expected));
            matches.then_some((check, length))
        })?;
        checks.push((check, argument));
        rest = &rest[length..];
    }
    (!checks.is_empty()).then_some(checks)
}

/// The first literal in `tokens`, as the text it stands for: an integer's digits, a string's
/// value.
fn first_literal(tokens: TokenStream) -> Option<String> {
    for tree in tokens {
        match tree {
            proc_macro2::TokenTree::Literal(literal) => {
                return match syn::Lit::new(literal) {
                    syn::Lit::Int(int) => Some(int.base10_digits().to_owned()),
                    syn::Lit::Str(text) => Some(text.value()),
                    _ => None,
                };
            }
            proc_macro2::TokenTree::Group(group) => {
                if let Some(found) = first_literal(group.stream()) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

/// typify's string enum: unit variants only, with serde's derived `Deserialize` (each
/// variant's wire value in its `rename`).
pub fn is_string_enum(enumeration: &syn::ItemEnum) -> bool {
    !enumeration.variants.is_empty()
        && enumeration
            .variants
            .iter()
            .all(|variant| matches!(variant.fields, syn::Fields::Unit))
        && serde_attrs::derives(&enumeration.attrs, "Deserialize")
}

/// How many of the conversions [`is_string_conversion`] names typify writes for each string
/// enum: `Display`, `FromStr`, `TryFrom<&str>` and `TryFrom<String>`, one of each.
pub const STRING_ENUM_CONVERSIONS: usize = 4;

/// Whether the trait `path` of an impl is one of the string conversions typify writes for a
/// string enum: `Display`, `FromStr`, `TryFrom<&str>` or `TryFrom<String>`.
pub fn is_string_conversion(path: &syn::Path) -> bool {
    let Some(last) = path.segments.last() else {
        return false;
    };
    match last.ident.to_string().as_str() {
        "Display" | "FromStr" => true,
        "TryFrom" => {
            let argument = match &last.arguments {
                syn::PathArguments::AngleBracketed(arguments) => arguments.args.first(),
                _ => None,
            };
            argument.is_some_and(|argument| {
                tokens(argument) == tokens(&quote!(&str)) || is_string(argument)
            })
        }
        _ => false,
    }
}

/// The type typify gives an open object's other properties, in its flattened field.
fn extra_map() -> TokenStream {
    quote!(::serde_json::Map<::std::string::String, ::serde_json::Value>)
}

/// Whether `ty` is typify's map of an open object's other properties.
pub fn is_extra_map(ty: &syn::Type) -> bool {
    tokens(ty) == extra_map().to_string()
}

/// Whether `field` is typify's `#[serde(flatten)]` map of an open object's other properties.
pub fn is_extra_map_field(field: &syn::Field) -> bool {
    serde_attrs::has(&field.attrs, "flatten") && is_extra_map(&field.ty)
}

/// The name of the field and of the setter in which typify's builder of an open object
/// mirrors its map of other properties.
pub const BUILDER_EXTRA: &str = "extra";

/// Whether `ty` is the type of typify's builder field for an open object's map:
/// `Result<map, String>` (the `String` is a setter's conversion error).
pub fn is_builder_extra_type(ty: &syn::Type) -> bool {
    let map = extra_map();
    tokens(ty) == quote!(::std::result::Result<#map, ::std::string::String>).to_string()
}

/// Whether a struct's attributes derive `Default` (typify does for some structs whose
/// properties are all optional).
pub fn derives_default(attrs: &[syn::Attribute]) -> bool {
    super::serde_attrs::derives(attrs, "Default")
}

/// The type an item implements `Default` for, when it is such an impl (typify writes one for a
/// struct whose properties all have defaults).
pub fn default_impl_for(item: &syn::Item) -> Option<String> {
    let syn::Item::Impl(implementation) = item else {
        return None;
    };
    let (_, path, _) = implementation.trait_.as_ref()?;
    if path.segments.last()?.ident != "Default" {
        return None;
    }
    match &*implementation.self_ty {
        syn::Type::Path(ty) => Some(ty.path.segments.last()?.ident.to_string()),
        _ => None,
    }
}

/// The start value typify's builder gives a field in its `Default` impl, when `implementation`
/// is that impl: the struct expression `default` returns, whose field `field` the caller may
/// rewrite (typify starts an open object's map as the error "no value supplied", so a builder
/// that never set it could not build). `None` for any other impl or shape.
pub fn builder_default_field<'a>(
    implementation: &'a mut syn::ItemImpl,
    field: &str,
) -> Option<&'a mut syn::Expr> {
    let (_, path, _) = implementation.trait_.as_ref()?;
    if path.segments.last()?.ident != "Default" {
        return None;
    }
    let method = implementation
        .items
        .iter_mut()
        .find_map(|item| match item {
            syn::ImplItem::Fn(method) if method.sig.ident == "default" => Some(method),
            _ => None,
        })?;
    let body = match method.block.stmts.last_mut()? {
        syn::Stmt::Expr(syn::Expr::Struct(body), None) => body,
        _ => return None,
    };
    body.fields
        .iter_mut()
        .find_map(|value| match &value.member {
            syn::Member::Named(ident) if ident == field => Some(&mut value.expr),
            _ => None,
        })
}

/// Whether a setter's `where` bound names `TryInto`, the conversion typify's (and
/// progenitor's) builder setters take their value through.
pub fn is_setter_conversion(segment: &syn::PathSegment) -> bool {
    segment.ident == "TryInto"
}

/// Whether a `deserialize_with` path is the one typify gives a required nullable field
/// (`null` is `None`, absent is refused): `::std::option::Option::deserialize`.
pub fn reads_required_nullable(path: &str) -> bool {
    path.replace(' ', "") == tokens(&quote!(::std::option::Option::deserialize)).replace(' ', "")
}

/// The serde flag typify puts on the struct of a closed object (`additionalProperties: false`).
const CLOSED: &str = "deny_unknown_fields";

/// Whether the container attributes of a struct (`#[serde(...)]` entries) are typify's for a
/// closed object, its flag alone.
pub fn is_closed(container: &[syn::Meta]) -> bool {
    matches!(container, [syn::Meta::Path(path)] if path.is_ident(CLOSED))
}

/// Whether a struct's attributes carry typify's flag of a closed object, among any others.
pub fn denies_unknown_fields(attrs: &[syn::Attribute]) -> bool {
    serde_attrs::has(attrs, CLOSED)
}

/// `T` of an `Option<T>` (however the path to `Option` is spelled), typify's optional field.
pub fn option_inner(ty: &syn::Type) -> Option<&syn::Type> {
    generic_inner(ty, "Option")
}

/// Whether `ty` is what typify writes for a plain integer schema where the object decoder
/// reads it ([`super::is_plain_integer`]): an integer, a `Vec` of them (a property's items),
/// or an `Option` of either.
pub fn is_plain_integer_field(ty: &syn::Type) -> bool {
    let ty = option_inner(ty).unwrap_or(ty);
    is_integer_type(generic_inner(ty, "Vec").unwrap_or(ty))
}

/// `T` of a `Wrapper<T>` (however the path to it is spelled).
fn generic_inner<'a>(ty: &'a syn::Type, wrapper: &str) -> Option<&'a syn::Type> {
    let syn::Type::Path(path) = ty else {
        return None;
    };
    let last = path.path.segments.last()?;
    if last.ident != wrapper {
        return None;
    }
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.first()? {
        syn::GenericArgument::Type(inner) => Some(inner),
        _ => None,
    }
}

/// Whether `ty` is one of the Rust integers typify writes for an integer schema (`i64`, or a
/// width format's `i32`, `u8`, ...), named bare as typify names them.
pub fn is_integer_type(ty: &syn::Type) -> bool {
    let syn::Type::Path(path) = ty else {
        return false;
    };
    path.qself.is_none()
        && path.path.segments.len() == 1
        && ["i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
            .iter()
            .any(|name| path.path.segments[0].ident == name)
}

/// Whether typify made this an optional field: `Option<_>` skipped when `None`.
pub fn is_optional_field(field: &syn::Field) -> bool {
    let is_option = matches!(&field.ty, syn::Type::Path(path) if path.path.segments.last().is_some_and(|segment| segment.ident == "Option"));
    is_option && serde_attrs::has(&field.attrs, "skip_serializing_if")
}
/// One variant of typify's untagged enum: its name, and the type it holds (`None` for a unit
/// variant, which holds `null`).
pub type UntaggedVariant = (syn::Ident, Option<syn::Type>);

/// The variants of an enum typify writes for a first-fit union (`#[serde(untagged)]` with a
/// derived `Deserialize`): `None` for any other item; `Err` naming the first variant of a shape
/// other than a newtype or unit variant (typify writes an inline object member as a struct
/// variant), which only serde's derive reads.
pub fn untagged_enum_variants(
    enumeration: &syn::ItemEnum,
) -> Option<Result<Vec<UntaggedVariant>, String>> {
    if !serde_attrs::has(&enumeration.attrs, "untagged")
        || !serde_attrs::derives(&enumeration.attrs, "Deserialize")
    {
        return None;
    }
    let variants = enumeration.variants.iter().map(|variant| {
        let inner = match &variant.fields {
            syn::Fields::Unit => None,
            syn::Fields::Unnamed(fields) if fields.unnamed.len() == 1 => {
                Some(fields.unnamed[0].ty.clone())
            }
            _ => return Err(format!("variant `{}` is not a newtype", variant.ident)),
        };
        let attributes_of_its_own = serde_attrs::metas(&variant.attrs);
        if !attributes_of_its_own.is_empty() {
            return Err(format!("variant `{}` has serde attributes", variant.ident));
        }
        Ok((variant.ident.clone(), inner))
    });
    Some(variants.collect())
}

/// Whether a derive of an untagged enum is the `Deserialize` the first-fit decoder replaces.
pub fn is_deserialize_derive(name: &str) -> bool {
    name == "Deserialize"
}

/// An `impl From<T> for ...`: `T` and the impl block; `None` for any other item.
pub fn from_impl(item: &syn::Item) -> Option<(&syn::Type, &syn::ItemImpl)> {
    let syn::Item::Impl(block) = item else {
        return None;
    };
    let (_, path, _) = block.trait_.as_ref()?;
    let last = path.segments.last()?;
    if last.ident != "From" {
        return None;
    }
    let syn::PathArguments::AngleBracketed(arguments) = &last.arguments else {
        return None;
    };
    match arguments.args.first() {
        Some(syn::GenericArgument::Type(source)) => Some((source, block)),
        _ => None,
    }
}

/// typify's conversion of a member into its union, `impl ::std::convert::From<T> for Union {
/// fn from(value: T) -> Self { Self::Variant(value) } }` (written for each newtype variant
/// whose type no other variant holds): the union's name and the variant, or `None` for any
/// other item. Compared as tokens with the one typify would write for them, so that a change in
/// typify's shape is a mismatch, not a conversion lost.
pub fn member_conversion(item: &syn::Item) -> Option<(String, syn::Ident)> {
    let (inner, block) = from_impl(item)?;
    let syn::Type::Path(union) = &*block.self_ty else {
        return None;
    };
    let union = union.path.get_ident()?;
    let [syn::ImplItem::Fn(function)] = block.items.as_slice() else {
        return None;
    };
    let [syn::Stmt::Expr(syn::Expr::Call(call), None)] = function.block.stmts.as_slice() else {
        return None;
    };
    let syn::Expr::Path(callee) = &*call.func else {
        return None;
    };
    let [first, variant] = callee.path.segments.iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    if first.ident != "Self" {
        return None;
    }
    let variant = variant.ident.clone();
    let expected: syn::Item = syn::parse_quote! {
        impl ::std::convert::From<#inner> for #union {
            fn from(value: #inner) -> Self {
                Self::#variant(value)
            }
        }
    };
    (tokens(&expected) == tokens(item)).then(|| (union.to_string(), variant))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_integer_fields_are_integers_their_lists_and_options_of_either() {
        let field = |ty: syn::Type| is_plain_integer_field(&ty);
        assert!(field(syn::parse_quote!(i64)));
        assert!(field(syn::parse_quote!(::std::option::Option<u8>)));
        assert!(field(syn::parse_quote!(::std::vec::Vec<i32>)));
        assert!(field(syn::parse_quote!(
            ::std::option::Option<::std::vec::Vec<i64>>
        )));
        assert!(!field(syn::parse_quote!(
            ::std::vec::Vec<::std::vec::Vec<i64>>
        )));
        assert!(!field(syn::parse_quote!(::std::vec::Vec<f64>)));
        assert!(!field(syn::parse_quote!(BoundedInteger<rules::Count>)));
    }
}
