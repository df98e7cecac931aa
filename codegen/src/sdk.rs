//! What a standalone crate holds beyond its generated module, read from the description so
//! that a stranger can start from the README alone: the credentials (`src/auth.rs`: one method
//! per security scheme, each credential sent only by the operations whose `security` accepts
//! its scheme), the servers (`SERVERS`, the first as `BASE_URL`), and the README, which is also
//! the crate's documentation and so compiled as its doc tests: install, a first program calling
//! one of the description's operations with its credentials, errors, HTTPS, and what generation
//! found.
//!
//! The runtime all of this calls is ordinary Rust in the support code (`credentials`,
//! `servers`, `tls`); this module writes only data and the few lines that name it.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde_json::Value;

use crate::model::{Document, push};
use crate::report::{Finding, FindingKind};

/// The type a standalone crate's `Client` carries when the description has a usable security
/// scheme: its credentials (progenitor's inner type, handed to the client's hooks).
pub const CREDENTIALS_TYPE: &str = "crate::Credentials";

/// How a security scheme's credential is given and where it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    /// `Authorization: <prefix> <token>`: HTTP bearer, another HTTP scheme, OAuth 2.0, OpenID
    /// Connect.
    Token { prefix: String, what: &'static str },
    /// HTTP `Basic`: a user and a password.
    Basic,
    /// An API key in a header, the query or a cookie (`in`), under `name`.
    ApiKey { place: &'static str, name: String },
}

/// A usable security scheme of the description.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Scheme {
    /// Its key under `components/securitySchemes`.
    key: String,
    /// The `Credentials` method that sets it (unique, snake case).
    method: String,
    kind: Kind,
    /// The description's own words on it, one line of safe doc text.
    description: String,
}

/// The description's security: its usable schemes, and which of them each operation accepts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Access {
    schemes: Vec<Scheme>,
    /// Per operation (progenitor's method name), the keys of the schemes it accepts, where it
    /// differs from `usual`.
    exceptions: BTreeMap<String, Vec<String>>,
    /// What most operations accept.
    usual: Vec<String>,
    /// mutualTLS schemes, which take no credential the client can send as data.
    mutual_tls: Vec<String>,
}

impl Access {
    /// Reads the security of `document` (OpenAPI 3.0 or 3.1); a scheme that cannot be used is
    /// a finding and left out.
    pub(crate) fn read(document: &Value) -> (Self, Vec<Finding>) {
        let model = Document::new(document);
        let mut findings = Vec::new();
        let mut access = Self::default();
        // `Credentials` is built as progenitor's `Client` is, by `new`, and has `default`.
        let constructor = crate::contract::progenitor_output::CLIENT_NEW;
        let mut methods = BTreeSet::from([constructor.to_owned(), "default".to_owned()]);
        let declared = document
            .pointer("/components/securitySchemes")
            .and_then(Value::as_object);
        for (key, scheme) in declared.into_iter().flatten() {
            let pointer = push("/components/securitySchemes", key);
            let scheme = model.resolve(scheme).unwrap_or(scheme);
            match read_scheme(key, scheme) {
                Ok(Some(kind)) => {
                    let method = unique(&mut methods, crate::contract::method_name(key));
                    let description = scheme
                        .get("description")
                        .and_then(Value::as_str)
                        .map(one_line)
                        .unwrap_or_default();
                    access.schemes.push(Scheme {
                        key: key.clone(),
                        method,
                        kind,
                        description,
                    });
                }
                Ok(None) => access.mutual_tls.push(key.clone()),
                Err(reason) => findings.push(Finding::new(
                    FindingKind::Defect,
                    &pointer,
                    format!("security scheme `{key}` left out of `Credentials`: {reason}"),
                )),
            }
        }
        if access.schemes.is_empty() {
            return (access, findings);
        }
        let usable: BTreeSet<&str> = access.schemes.iter().map(|s| s.key.as_str()).collect();
        let global = document.get("security");
        let any_requirement = global.is_some()
            || model
                .operations()
                .iter()
                .any(|operation| operation.value.get("security").is_some());
        let everything: Vec<String> = access.schemes.iter().map(|s| s.key.clone()).collect();
        if !any_requirement {
            findings.push(Finding::new(
                FindingKind::Repaired,
                "/security",
                "security schemes are declared but no operation requires one: every operation sends every credential set".to_owned(),
            ));
        }
        let accepted_by = |requirement: Option<&Value>| -> Vec<String> {
            if !any_requirement {
                return everything.clone();
            }
            let mut keys: Vec<String> = requirement
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(Value::as_object)
                .flat_map(|alternative| alternative.keys())
                .filter(|key| usable.contains(key.as_str()))
                .cloned()
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            // In the order of the scheme table, so the first set wins as documented.
            keys.sort_by_key(|key| everything.iter().position(|k| k == key));
            keys
        };
        let mut per_operation = BTreeMap::new();
        for operation in model.operations() {
            let Some(id) = operation.id() else { continue };
            let requirement = operation.value.get("security").or(global);
            per_operation.insert(crate::contract::method_name(id), accepted_by(requirement));
        }
        let mut counts: BTreeMap<&Vec<String>, usize> = BTreeMap::new();
        for accepted in per_operation.values() {
            *counts.entry(accepted).or_default() += 1;
        }
        let usual = counts
            .iter()
            .max_by_key(|(accepted, count)| (**count, std::cmp::Reverse(accepted.len())))
            .map(|(accepted, _)| (*accepted).clone())
            .unwrap_or_else(|| accepted_by(global));
        access.exceptions = per_operation
            .into_iter()
            .filter(|(_, accepted)| *accepted != usual)
            .collect();
        access.usual = usual;
        (access, findings)
    }

    /// Whether the client carries credentials: the description has a usable scheme.
    pub(crate) fn has_credentials(&self) -> bool {
        !self.schemes.is_empty()
    }

    /// `src/auth.rs`: `Credentials`, the scheme table, which schemes each operation accepts,
    /// and the client's hooks that send them.
    pub(crate) fn auth_rs(&self) -> String {
        let mut text = String::from(
            "//! The credentials this API takes: one method of [`Credentials`] per security scheme of its\n\
             //! description, each credential sent only by the operations that accept its scheme.\n\n\
             use crate::support::credentials::{self, Placement, Scheme};\n\n\
             /// The credentials a [`Client`](crate::Client) sends, set one scheme at a time. `Debug`\n\
             /// names the schemes set and never prints a credential.\n\
             #[derive(Clone, Debug, Default, PartialEq, Eq)]\n\
             pub struct Credentials(credentials::Credentials);\n\n\
             impl Credentials {\n\
             \x20   /// No credentials: only operations that need none succeed.\n\
             \x20   pub fn new() -> Self {\n\
             \x20       Self::default()\n\
             \x20   }\n",
        );
        for (index, scheme) in self.schemes.iter().enumerate() {
            text.push('\n');
            for line in scheme.doc_lines() {
                let _ = writeln!(
                    text,
                    "    ///{}{line}",
                    if line.is_empty() { "" } else { " " }
                );
            }
            let method = &scheme.method;
            match &scheme.kind {
                Kind::Basic => {
                    let _ = writeln!(
                        text,
                        "    pub fn {method}(mut self, user: &str, password: &str) -> Self {{\n        self.0.set_basic(SCHEMES[{index}], user, password);\n        self\n    }}"
                    );
                }
                Kind::Token { .. } | Kind::ApiKey { .. } => {
                    let argument = scheme.argument();
                    let _ = writeln!(
                        text,
                        "    pub fn {method}(mut self, {argument}: impl Into<String>) -> Self {{\n        self.0.set(SCHEMES[{index}], {argument}.into());\n        self\n    }}"
                    );
                }
            }
        }
        text.push_str("}\n\n/// The security schemes of the description, in its order.\nconst SCHEMES: &[Scheme] = &[\n");
        for scheme in &self.schemes {
            let placement = match &scheme.kind {
                Kind::Token { prefix, .. } => format!("Authorization({})", rust_str(prefix)),
                Kind::Basic => "Authorization(\"Basic\")".to_owned(),
                Kind::ApiKey { place, name } => {
                    let variant = match *place {
                        "header" => "Header",
                        "query" => "Query",
                        _ => "Cookie",
                    };
                    format!("{variant}({})", rust_str(name))
                }
            };
            let _ = writeln!(
                text,
                "    Scheme {{\n        name: {},\n        placement: Placement::{placement},\n    }},",
                rust_str(&scheme.key)
            );
        }
        text.push_str(
            "];\n\n/// The schemes whose credential `operation` (progenitor's name for it) sends: those its\n\
             /// `security` lists.\n",
        );
        if self.exceptions.is_empty() {
            let _ = writeln!(
                text,
                "fn accepted(_operation: &str) -> &'static [&'static str] {{\n    {}\n}}",
                str_slice(&self.usual)
            );
        } else {
            text.push_str(&self.accepted_match());
        }
        text.push_str(&crate::contract::progenitor_output::credential_hooks(
            "Credentials",
        ));
        text
    }

    /// `fn accepted`, a match over the operations whose schemes differ from the usual ones.
    fn accepted_match(&self) -> String {
        let mut text = String::from(
            "fn accepted(operation: &str) -> &'static [&'static str] {\n    match operation {\n",
        );
        let mut by_accepted: BTreeMap<&Vec<String>, Vec<&str>> = BTreeMap::new();
        for (operation, accepted) in &self.exceptions {
            by_accepted.entry(accepted).or_default().push(operation);
        }
        for (accepted, operations) in by_accepted {
            let patterns: Vec<String> = operations.iter().map(|o| rust_str(o)).collect();
            let _ = writeln!(
                text,
                "        {} => {},",
                patterns.join(" | "),
                str_slice(accepted)
            );
        }
        let _ = writeln!(text, "        _ => {},\n    }}\n}}", str_slice(&self.usual));
        text
    }
}

impl Scheme {
    /// The argument of its `Credentials` method.
    fn argument(&self) -> &'static str {
        match self.kind {
            Kind::ApiKey { .. } => "key",
            _ => "token",
        }
    }

    /// The doc of its `Credentials` method: what it takes and where it goes.
    fn doc_lines(&self) -> Vec<String> {
        let key = &self.key;
        let mut lines = vec![match &self.kind {
            Kind::Token { prefix, what } => {
                format!("`{key}`: {what}, sent as `Authorization: {prefix} <token>`.")
            }
            Kind::Basic => {
                format!(
                    "`{key}`: HTTP basic authentication, sent as `Authorization: Basic <base64 of user:password>`."
                )
            }
            Kind::ApiKey { place, name } => match *place {
                "header" => format!("`{key}`: an API key, sent in the header `{name}`."),
                "query" => format!(
                    "`{key}`: an API key, sent as the query parameter `{name}` (cut from the URLs that errors and responses carry)."
                ),
                _ => format!("`{key}`: an API key, sent as the cookie `{name}`."),
            },
        }];
        if !self.description.is_empty() {
            lines.push(String::new());
            lines.push(crate::emit::rustdoc_line(&self.description));
        }
        lines
    }
}

/// A server of the description, as the crate's `SERVERS` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Server {
    url: String,
    description: String,
    /// `(name, default, allowed)`.
    variables: Vec<(String, String, Vec<String>)>,
}

impl Server {
    fn default_url(&self) -> String {
        let mut url = self.url.clone();
        for (name, default, _) in &self.variables {
            url = url.replace(&format!("{{{name}}}"), default);
        }
        url
    }
}

/// The servers of `document` whose URL a client can be given: absolute `http` or `https` once
/// their variables take their defaults. A relative URL (`/v1`, the description's own host) or
/// a variable without a default is a finding.
fn servers(document: &Value) -> (Vec<Server>, Vec<Finding>) {
    let mut servers = Vec::new();
    let mut findings = Vec::new();
    let listed = document.get("servers").and_then(Value::as_array);
    for (index, server) in listed.into_iter().flatten().enumerate() {
        let pointer = format!("/servers/{index}");
        let Some(url) = server.get("url").and_then(Value::as_str) else {
            continue;
        };
        let mut variables = Vec::new();
        let declared = server.get("variables").and_then(Value::as_object);
        for (name, variable) in declared.into_iter().flatten() {
            let text = |value: &Value| match value {
                Value::String(text) => Some(text.clone()),
                Value::Number(_) | Value::Bool(_) => Some(value.to_string()),
                _ => None,
            };
            let Some(default) = variable.get("default").and_then(text) else {
                findings.push(Finding::new(
                    FindingKind::Defect,
                    &push(&push(&pointer, "variables"), name),
                    format!(
                        "server variable `{name}` has no default: the server is not in `SERVERS`"
                    ),
                ));
                continue;
            };
            let allowed = variable
                .get("enum")
                .and_then(Value::as_array)
                .map(|values| values.iter().filter_map(text).collect())
                .unwrap_or_default();
            variables.push((name.clone(), default, allowed));
        }
        if variables.len() < declared.map_or(0, serde_json::Map::len) {
            continue;
        }
        let server = Server {
            url: url.trim_end_matches('/').to_owned(),
            description: server
                .get("description")
                .and_then(Value::as_str)
                .map(one_line)
                .unwrap_or_default(),
            variables,
        };
        let resolved = server.default_url();
        let absolute = ["https://", "http://"]
            .iter()
            .any(|scheme| resolved.len() > scheme.len() && resolved.starts_with(scheme));
        if absolute && !resolved.contains(['{', '}', ' ']) {
            servers.push(server);
        } else {
            findings.push(Finding::new(
                FindingKind::Defect,
                &push(&pointer, "url"),
                format!("server `{url}` is not an absolute http(s) URL: the client is given its base URL by the caller"),
            ));
        }
    }
    (servers, findings)
}

/// An operation a first program can call with literals alone: every argument optional (`None`)
/// or a string (`"<name>"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FirstCall {
    /// The client's method.
    pub method: String,
    /// The arguments, as Rust expressions.
    pub arguments: Vec<String>,
    /// `GET /models`, and the summary when the description gives one.
    pub label: String,
    /// The struct of `params` its optional arguments are given in, its last argument, when it
    /// has some.
    pub parameters: Option<String>,
}

/// The operation of `document` a README's first program calls: among those whose method in
/// `file` takes only optional arguments and strings, the first reading (`GET`) with the fewest
/// required arguments, in the document's order.
pub(crate) fn first_call(file: &syn::File, document: &Value) -> Option<FirstCall> {
    let methods = crate::surface::client_methods(file);
    let mut best: Option<((bool, usize), FirstCall)> = None;
    for operation in Document::new(document).operations() {
        let Some(id) = operation.id() else { continue };
        let name = crate::contract::method_name(id);
        let Some(method) = methods.iter().find(|method| method.sig.ident == name) else {
            continue;
        };
        // A method with optional parameters takes them last, in one struct of `params`: the
        // program passes its `default()`, and literals for the rest.
        let parameters = crate::emit::parameter_sets::parameter_set_of(&method.sig);
        let mut signature = method.sig.clone();
        if parameters.is_some() {
            signature.inputs.pop();
        }
        let Some(arguments) = crate::contract::progenitor_output::literal_arguments(&signature)
        else {
            continue;
        };
        let required = arguments.iter().filter(|a| a.as_str() != "None").count();
        let key = (operation.method != "get", required);
        if best.as_ref().is_some_and(|(best, _)| *best <= key) {
            continue;
        }
        let summary = operation
            .value
            .get("summary")
            .and_then(Value::as_str)
            .map(one_line)
            .filter(|summary| !summary.is_empty());
        let label = match summary {
            Some(summary) => format!("{}: {summary}", operation.label()),
            None => operation.label(),
        };
        best = Some((
            key,
            FirstCall {
                method: name,
                arguments,
                label,
                parameters,
            },
        ));
    }
    best.map(|(_, call)| call)
}

/// The files a standalone crate holds beside its generated module, its manifest and its
/// support code: `src/lib.rs`, `README.md` and, with credentials, `src/auth.rs`.
pub(crate) struct CrateRoot<'a> {
    /// The crate's name (`corpus-firecrawl`).
    pub crate_name: &'a str,
    /// The file the description was read from, as the caller names it.
    pub spec_name: &'a str,
    /// The document handed to progenitor.
    pub document: &'a Value,
    /// What the README's first program calls.
    pub first_call: Option<&'a FirstCall>,
    /// The report's summary line and each left-out operation, for the README.
    pub report: &'a [Finding],
}

impl CrateRoot<'_> {
    /// The files, and the findings reading the security and servers gave.
    pub(crate) fn files(&self) -> (BTreeMap<String, String>, Vec<Finding>) {
        let (access, mut findings) = Access::read(self.document);
        let (servers, server_findings) = servers(self.document);
        findings.extend(server_findings);
        let mut files = BTreeMap::new();
        files.insert("src/lib.rs".to_owned(), self.lib_rs(&access, &servers));
        files.insert(
            "README.md".to_owned(),
            self.readme(&access, &servers, &findings),
        );
        if access.has_credentials() {
            files.insert("src/auth.rs".to_owned(), access.auth_rs());
        }
        (files, findings)
    }

    fn ident(&self) -> String {
        self.crate_name.replace('-', "_")
    }

    fn title(&self) -> String {
        let title = self
            .document
            .pointer("/info/title")
            .and_then(Value::as_str)
            .unwrap_or(crate::normalize::UNTITLED);
        crate::emit::rustdoc_line(&one_line(title))
    }

    fn lib_rs(&self, access: &Access, servers: &[Server]) -> String {
        let support = crate::runtime::CARRIED_MODULE;
        let mut text = String::from(
            "// The crate's documentation is its README, so that the README's programs are compiled\n\
             // as doc tests and stay true.\n\
             #![doc = include_str!(\"../README.md\")]\n\n\
             // The description's names are its own: an enum value in a transliteration\n\
             // (`Paʿʿel`) makes an identifier that rustc's Unicode lints, which read the\n\
             // whole crate, flag.\n\
             #![allow(uncommon_codepoints, confusable_idents, mixed_script_confusables)]\n\n\
             #[rustfmt::skip]\n\
             #[allow(missing_docs, unused_imports, unused_variables, unreachable_code, dead_code, clippy::all, clippy::pedantic)]\n\
             mod generated;\n\n",
        );
        let _ = write!(
            text,
            "/// The support code the generated module calls (`hub-api-support`), carried with the crate.\n\
             /// What users meet of it, `types` and this root re-export; what this description does not\n\
             /// use is unused. Its docs link to its own items, some of which a description leaves\n\
             /// private here.\n\
             #[allow(dead_code, unused_imports, rustdoc::private_intra_doc_links)]\n\
             mod {support};\n\n"
        );
        if access.has_credentials() {
            text.push_str("mod auth;\n\npub use auth::Credentials;\n");
        }
        let _ = write!(
            text,
            "pub use generated::*;\n\
             /// The reqwest this crate is built on, for what its client builder takes\n\
             /// (`reqwest::Certificate`, `reqwest::Proxy`, ...).\n\
             pub use reqwest;\n\
             pub use {support}::servers::{{Server, ServerError, Variable}};\n\n\
             /// The servers the description lists that a client can be given, in its order.\n\
             pub const SERVERS: &[Server] = &[\n"
        );
        for server in servers {
            let variables: Vec<String> = server
                .variables
                .iter()
                .map(|(name, default, allowed)| {
                    format!(
                        "Variable {{ name: {}, default: {}, allowed: {} }}",
                        rust_str(name),
                        rust_str(default),
                        str_slice(allowed)
                    )
                })
                .collect();
            let _ = writeln!(
                text,
                "    Server {{\n        url: {},\n        description: {},\n        variables: &[{}],\n    }},",
                rust_str(&server.url),
                rust_str(&server.description),
                variables.join(", ")
            );
        }
        text.push_str("];\n");
        if let Some(server) = servers.first() {
            let _ = write!(
                text,
                "\n/// The first server's URL, its variables at their defaults.\npub const BASE_URL: &str = {};\n",
                rust_str(&server.default_url())
            );
        }
        let _ = write!(
            text,
            "\n/// A `reqwest::ClientBuilder` as [`Client::new`] uses it (HTTPS with the `rustls` feature,\n\
             /// a connect and a read timeout, redirects within one origin), to configure further and\n\
             /// hand, built, to [`Client::new_with_client`].\n\
             pub fn http_client_builder() -> reqwest::ClientBuilder {{\n    {support}::tls::client_builder()\n}}\n"
        );
        text
    }

    fn readme(&self, access: &Access, servers: &[Server], findings: &[Finding]) -> String {
        let ident = self.ident();
        let title = self.title();
        let version = self
            .document
            .pointer("/info/version")
            .and_then(Value::as_str)
            .map(|version| crate::emit::rustdoc_line(&one_line(version)))
            .unwrap_or_default();
        let operations = Document::new(self.document).operations().len();
        let mut text = format!(
            "# {}\n\nA Rust client for {title}{}, generated by `cargo xtask generate` from `{}`: {operations} operations, each a method of `Client`; the types of their parameters, bodies and responses are in `types`.\n\n",
            self.crate_name,
            if version.is_empty() {
                String::new()
            } else {
                format!(" (API version {version})")
            },
            self.spec_name,
        );
        let _ = write!(
            text,
            "## Install\n\n```toml\n[dependencies]\n{} = {{ path = \"../{}\" }}\n# For `#[tokio::main]` in the program below; any async runtime will do.\ntokio = {{ version = \"1\", features = [\"macros\", \"rt-multi-thread\"] }}\n```\n\n",
            self.crate_name, self.crate_name
        );
        text.push_str(&self.first_program(access, servers));
        text.push_str(PARAMETERS_SECTION);
        text.push_str(BODIES_SECTION);
        text.push_str(&self.credentials_section(access));
        text.push_str(&servers_section(&ident, servers));
        text.push_str(&errors_section(&ident));
        text.push_str(&https_section(&ident, access));
        text.push_str(&self.findings_section(findings));
        text
    }

    fn first_program(&self, access: &Access, servers: &[Server]) -> String {
        let ident = self.ident();
        let mut imports = vec![crate::contract::progenitor_output::CLIENT_TYPE];
        if access.has_credentials() {
            imports.push("Credentials");
        }
        let base_url = if servers.is_empty() {
            "\"https://api.example.com\"".to_owned()
        } else {
            imports.push("BASE_URL");
            "BASE_URL".to_owned()
        };
        let mut text = String::from("## A first program\n\n");
        if servers.is_empty() {
            text.push_str(
                "The description names no absolute server URL: give the client yours.\n\n",
            );
        }
        let _ = write!(
            text,
            "```rust,no_run\nuse {ident}::{{{}}};\n\n#[tokio::main]\nasync fn main() -> Result<(), Box<dyn std::error::Error>> {{\n",
            imports.join(", ")
        );
        let env = |scheme: &Scheme, part: &str| {
            format!(
                "{}_{}{part}",
                ident.to_uppercase(),
                scheme.method.to_uppercase()
            )
        };
        match access.schemes.first() {
            Some(
                scheme @ Scheme {
                    kind: Kind::Basic, ..
                },
            ) => {
                let _ = write!(
                    text,
                    "    let user = std::env::var(\"{}\")?;\n    let password = std::env::var(\"{}\")?;\n    let credentials = Credentials::new().{}(&user, &password);\n    let client = Client::new({base_url}, credentials);\n",
                    env(scheme, "_USER"),
                    env(scheme, "_PASSWORD"),
                    scheme.method
                );
            }
            Some(scheme) => {
                let argument = scheme.argument();
                let _ = write!(
                    text,
                    "    let {argument} = std::env::var(\"{}\")?;\n    let client = Client::new({base_url}, Credentials::new().{}({argument}));\n",
                    env(scheme, ""),
                    scheme.method
                );
            }
            None => {
                let _ = writeln!(text, "    let client = Client::new({base_url});");
            }
        }
        match self.first_call {
            Some(call) => {
                // Optional arguments go in the operation's struct of `params` (see Optional
                // parameters below), after the required ones.
                let mut arguments = call.arguments.clone();
                if let Some(set) = &call.parameters {
                    arguments.push(format!(
                        "{ident}::{}::{set}::default()",
                        crate::emit::parameter_sets::PARAMS_MODULE
                    ));
                }
                let _ = write!(
                    text,
                    "    // {}\n    match client.{}({}).await {{\n        Ok(response) => println!(\"{{:#?}}\", response.into_inner()),\n        // The operation's declared error responses, an undeclared status, a transport\n        // error: see Errors below.\n        Err(error) => eprintln!(\"{{error}}\"),\n    }}\n",
                    call.label.replace('\n', " "),
                    call.method,
                    arguments.join(", ")
                );
            }
            None => text.push_str(
                "    // Every operation of this description takes a value built from `types`:\n    // `client.<operation>(...)`, as the docs of `Client` list them.\n    let _ = client;\n",
            ),
        }
        text.push_str("    Ok(())\n}\n```\n\n");
        text
    }

    fn credentials_section(&self, access: &Access) -> String {
        let mut text = String::from("## Credentials\n\n");
        if !access.has_credentials() {
            text.push_str("The description declares no security scheme a client sends: `Client::new` takes the base URL alone.\n\n");
        } else {
            text.push_str("`Credentials` has one method per security scheme of the description; set those you hold. Each operation sends the credentials of the schemes its `security` accepts, and no other; `Debug` never prints one, and a query credential is cut from the URLs that errors and responses carry.\n\n| scheme | `Credentials` method | sent as |\n|---|---|---|\n");
            for scheme in &access.schemes {
                let sent = match &scheme.kind {
                    Kind::Token { prefix, .. } => format!("`Authorization: {prefix} <token>`"),
                    Kind::Basic => "`Authorization: Basic <base64 of user:password>`".to_owned(),
                    Kind::ApiKey { place, name } => format!("{place} `{name}`"),
                };
                let _ = writeln!(
                    text,
                    "| `{}` | `{}` | {sent} |",
                    scheme.key.replace('|', "\\|"),
                    scheme.method
                );
            }
            text.push('\n');
            let public = access.exceptions.values().filter(|a| a.is_empty()).count()
                + if access.usual.is_empty() { 1 } else { 0 };
            if public > 0 {
                text.push_str("Some operations accept no scheme and send no credential.\n\n");
            }
        }
        if !access.mutual_tls.is_empty() {
            text.push_str("The description also names mutual TLS: give the client's certificate and key to `http_client_builder().identity(...)` (reqwest's `Identity`), then `Client::new_with_client`.\n\n");
        }
        text
    }

    fn findings_section(&self, findings: &[Finding]) -> String {
        let all: Vec<Finding> = self.report.iter().chain(findings).cloned().collect();
        let mut text = format!(
            "## What generation found\n\n{}; `report.txt` beside `Cargo.toml` names each with its place in the description.\n",
            crate::report::summary(&all),
        );
        let left_out: Vec<&Finding> = all
            .iter()
            .filter(|f| f.kind == FindingKind::Skipped)
            .collect();
        if !left_out.is_empty() {
            text.push_str("\nLeft out of the client:\n\n");
            for finding in left_out.iter().take(20) {
                let message: String = finding.message.chars().take(200).collect();
                let _ = writeln!(
                    text,
                    "- `{}`: {}",
                    finding.pointer,
                    crate::emit::rustdoc_line(&message)
                );
            }
            if left_out.len() > 20 {
                let _ = writeln!(text, "- and {} more, in `report.txt`.", left_out.len() - 20);
            }
        }
        text
    }
}

fn servers_section(ident: &str, servers: &[Server]) -> String {
    let mut text = String::from("## Servers\n\n");
    if servers.is_empty() {
        text.push_str("The description lists no server a client can be given: pass your base URL to `Client::new`.\n\n");
        return text;
    }
    text.push_str("`SERVERS` lists the description's servers; `BASE_URL` is the first, its variables at their defaults.\n\n");
    for server in servers {
        let _ = write!(text, "- `{}`", server.url);
        if !server.description.is_empty() {
            let _ = write!(text, ": {}", crate::emit::rustdoc_line(&server.description));
        }
        text.push('\n');
    }
    text.push('\n');
    if let Some((index, server)) = servers
        .iter()
        .enumerate()
        .find(|(_, server)| !server.variables.is_empty())
    {
        let (name, default, allowed) = &server.variables[0];
        let value = allowed
            .iter()
            .find(|value| *value != default)
            .unwrap_or(default);
        let _ = write!(
            text,
            "A server's variables are filled in by `Server::url_with`, which refuses a value its `enum` does not list:\n\n```rust\nlet url = {ident}::SERVERS[{index}].url_with(&[({}, {})])?;\n# Ok::<(), {ident}::ServerError>(())\n```\n\n",
            rust_str(name),
            rust_str(value)
        );
    }
    text
}

/// How optional parameters are given: by name, in a struct of `params`.
const PARAMETERS_SECTION: &str = "## Optional parameters\n\n\
    A method of `Client` takes the operation's required parameters in the order the description \
    lists them, then, when the operation has optional ones, a struct of `params` holding them, \
    `Default`, each set by name: \
    `client.list_things(params::ListThings { limit: Some(10), ..Default::default() })`. \
    A call written so says what it sets, and keeps compiling when the API adds an optional \
    parameter.\n\n";

/// How a request body is built: the struct's constructor or `Default`, then its fields.
const BODIES_SECTION: &str = "## Request bodies\n\n\
    A request body is a struct of `types` with public fields. One whose fields are all optional \
    is `Default` (`types::Thing { name: Some(..), ..Default::default() }`); one with required \
    fields has `new`, taking them in the order of the struct's fields, its optional fields then \
    set by name (`let mut body = types::Thing::new(id); body.note = Some(..);`). A value with \
    rules (a pattern, a range) is checked where it is built (`parse`, `new`, `try_from`).\n\n";

fn errors_section(ident: &str) -> String {
    let mut text = String::from(
        "## Errors\n\n\
         An operation returns `Result<ResponseValue<T>, Error<E>>`: `T` the type of its success \
         response, `E` that of the error responses its description declares \
         (`Error::ErrorResponse`). A status it does not declare is `Error::UnexpectedResponse`, \
         which holds the response, its body unread. A request that never got a response is \
         `Error::CommunicationError`, whose message is reqwest's (`error sending request for url \
         (...)`); what went wrong (a refused connection, a certificate, `scheme is not http` for \
         an `https` URL without TLS) is its cause, further down `std::error::Error::source`:\n\n\
         ```rust\n\
         /// The message of `error` and of each cause below it, each once.\n\
         fn with_causes(error: &dyn std::error::Error) -> String {\n\
         \x20   let mut text = error.to_string();\n\
         \x20   let mut cause = error.source();\n\
         \x20   while let Some(error) = cause {\n\
         \x20       let message = error.to_string();\n\
         \x20       // progenitor's error gives reqwest's as its first cause, whose message it holds.\n\
         \x20       if !text.ends_with(&message) {\n\
         \x20           text = format!(\"{text}: {message}\");\n\
         \x20       }\n\
         \x20       cause = error.source();\n\
         \x20   }\n\
         \x20   text\n\
         }\n\
         ```\n\n",
    );
    let _ = write!(
        text,
        "The body of a status the description does not declare is still there to read:\n\n\
         ```rust,no_run\n\
         /// The status and body of a response the description does not declare, when `error` is one.\n\
         async fn undeclared<E>(error: {ident}::Error<E>) -> Option<(u16, String)> {{\n\
         \x20   match error {{\n\
         \x20       {ident}::Error::UnexpectedResponse(response) => {{\n\
         \x20           let status = response.status().as_u16();\n\
         \x20           Some((status, response.text().await.ok()?))\n\
         \x20       }}\n\
         \x20       _ => None,\n\
         \x20   }}\n\
         }}\n\
         ```\n\n"
    );
    text
}

fn https_section(ident: &str, access: &Access) -> String {
    let credentials = if access.has_credentials() {
        format!(", {ident}::Credentials::new()")
    } else {
        String::new()
    };
    format!(
        "## HTTPS and your own HTTP client\n\n\
         With the default feature `rustls`, `Client::new` speaks HTTPS through rustls on the `ring` \
         crypto provider, which it installs as the process's provider unless the application \
         installed one first. Its HTTP client waits 15 s to connect and 60 s for each next part of \
         a response, and follows redirects only within one origin. To configure your own (a \
         certificate authority of your own, proxies, timeouts), start from `http_client_builder` \
         and hand the client to `Client::new_with_client`:\n\n\
         ```rust,no_run\n\
         fn client() -> Result<{ident}::Client, Box<dyn std::error::Error>> {{\n\
         \x20   let pem = std::fs::read(\"ca.pem\")?;\n\
         \x20   let http = {ident}::http_client_builder()\n\
         \x20       .add_root_certificate({ident}::reqwest::Certificate::from_pem(&pem)?)\n\
         \x20       .build()?;\n\
         \x20   Ok({ident}::Client::new_with_client(\"https://localhost:8443\", http{credentials}))\n\
         }}\n\
         ```\n\n\
         Without the feature (`default-features = false`) the crate builds no TLS stack: bring a \
         `reqwest::Client` built with the TLS your application chooses (reqwest's `rustls` or \
         `native-tls` feature, turned on by your own dependency on reqwest) to \
         `Client::new_with_client`.\n\n"
    )
}

/// A scheme's kind; `Ok(None)` for mutual TLS (nothing to send), `Err` with the reason when the
/// scheme cannot be used.
fn read_scheme(key: &str, scheme: &Value) -> Result<Option<Kind>, String> {
    let text = |field: &str| scheme.get(field).and_then(Value::as_str);
    match text("type") {
        Some("http") => match text("scheme").map(str::to_ascii_lowercase).as_deref() {
            Some("basic") => Ok(Some(Kind::Basic)),
            Some("bearer") => Ok(Some(Kind::Token {
                prefix: "Bearer".to_owned(),
                what: "a bearer token",
            })),
            Some(other) if is_token(other) => Ok(Some(Kind::Token {
                prefix: scheme_prefix(text("scheme").unwrap_or(other)),
                what: "a credential of this HTTP authentication scheme",
            })),
            _ => Err("an `http` scheme needs a `scheme` such as `bearer` or `basic`".to_owned()),
        },
        Some("apiKey") => {
            let place = match text("in") {
                Some("header") => "header",
                Some("query") => "query",
                Some("cookie") => "cookie",
                _ => {
                    return Err("an `apiKey` scheme needs `in`: header, query or cookie".to_owned());
                }
            };
            let Some(name) = text("name").filter(|name| !name.is_empty()) else {
                return Err("an `apiKey` scheme needs the `name` of its parameter".to_owned());
            };
            if place == "header" && !is_token(name) {
                return Err(format!("`{name}` is not an HTTP header name"));
            }
            if place == "cookie" && !is_token(name) {
                return Err(format!("`{name}` is not a cookie name"));
            }
            Ok(Some(Kind::ApiKey {
                place,
                name: name.to_owned(),
            }))
        }
        Some("oauth2") => Ok(Some(Kind::Token {
            prefix: "Bearer".to_owned(),
            what: "an OAuth 2.0 access token (obtained through the flows the description lists)",
        })),
        Some("openIdConnect") => Ok(Some(Kind::Token {
            prefix: "Bearer".to_owned(),
            what: "an OpenID Connect token",
        })),
        Some("mutualTLS") => Ok(None),
        Some(other) => Err(format!("`{other}` is not a type of security scheme")),
        None => Err(format!("`{key}` has no `type`")),
    }
}

/// An HTTP token (RFC 9110 §5.6.2): what a header name, a cookie name and an authentication
/// scheme are made of.
fn is_token(text: &str) -> bool {
    !text.is_empty()
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// An authentication scheme as it is written in `Authorization`: capitalised (`digest` is
/// `Digest`), as registries list them.
fn scheme_prefix(scheme: &str) -> String {
    let mut chars = scheme.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

/// `name`, or `name_2`, `name_3`, ... when taken; recorded as taken.
fn unique(taken: &mut BTreeSet<String>, name: String) -> String {
    let mut candidate = name.clone();
    let mut n = 2;
    while taken.contains(&candidate) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    taken.insert(candidate.clone());
    candidate
}

/// The first line of `text` as safe doc text.
fn one_line(text: &str) -> String {
    let line = text.lines().map(str::trim).find(|line| !line.is_empty());
    crate::emit::safe_doc_text(line.unwrap_or_default()).replace('\n', " ")
}

/// A Rust string literal of `text`.
fn rust_str(text: &str) -> String {
    format!("{text:?}")
}

/// A Rust `&[&str]` literal.
fn str_slice(items: &[String]) -> String {
    let items: Vec<String> = items.iter().map(|item| rust_str(item)).collect();
    format!("&[{}]", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn document(schemes: Value, security: Option<Value>, paths: Value) -> Value {
        let mut document = json!({
            "openapi": "3.0.3",
            "info": {"title": "T", "version": "1"},
            "paths": paths,
            "components": {"securitySchemes": schemes},
        });
        if let Some(security) = security {
            document["security"] = security;
        }
        document
    }

    fn operation(id: &str, security: Option<Value>) -> Value {
        let mut operation =
            json!({"operationId": id, "responses": {"204": {"description": "none"}}});
        if let Some(security) = security {
            operation["security"] = security;
        }
        operation
    }

    #[test]
    fn every_kind_of_scheme_and_where_each_operation_sends_it() {
        let document = document(
            json!({
                "bearerAuth": {"type": "http", "scheme": "bearer", "description": "A personal token.\nMore."},
                "basic": {"type": "http", "scheme": "Basic"},
                "api_key": {"type": "apiKey", "in": "query", "name": "api_key"},
                "ApiKey": {"type": "apiKey", "in": "header", "name": "X-API-Key"},
                "session": {"type": "apiKey", "in": "cookie", "name": "sid"},
                "oauth": {"type": "oauth2", "flows": {}},
                "client_cert": {"type": "mutualTLS"},
                "broken": {"type": "apiKey", "in": "body", "name": "k"},
            }),
            Some(json!([{"bearerAuth": []}, {"api_key": []}])),
            json!({
                "/items": {
                    "get": operation("listItems", None),
                    "post": operation("createItem", Some(json!([{"basic": [], "session": []}]))),
                },
                "/health": {"get": operation("health", Some(json!([])))},
                "/me": {"get": operation("me", None)},
            }),
        );
        let (access, findings) = Access::read(&document);
        assert_eq!(
            findings,
            vec![Finding::new(
                FindingKind::Defect,
                "/components/securitySchemes/broken",
                "security scheme `broken` left out of `Credentials`: an `apiKey` scheme needs `in`: header, query or cookie".to_owned(),
            )]
        );
        let methods: Vec<&str> = access.schemes.iter().map(|s| s.method.as_str()).collect();
        assert_eq!(
            methods,
            [
                "bearer_auth",
                "basic",
                "api_key",
                "api_key_2",
                "session",
                "oauth"
            ]
        );
        assert_eq!(access.mutual_tls, ["client_cert"]);
        assert_eq!(access.usual, ["bearerAuth", "api_key"]);
        assert_eq!(
            access.exceptions,
            BTreeMap::from([
                (
                    "create_item".to_owned(),
                    vec!["basic".to_owned(), "session".to_owned()]
                ),
                ("health".to_owned(), vec![]),
            ])
        );
        let auth = access.auth_rs();
        for expected in [
            "pub fn bearer_auth(mut self, token: impl Into<String>) -> Self {",
            "/// `bearerAuth`: a bearer token, sent as `Authorization: Bearer <token>`.\n    ///\n    /// A personal token.\n",
            "pub fn basic(mut self, user: &str, password: &str) -> Self {\n        self.0.set_basic(SCHEMES[1], user, password);",
            "pub fn api_key_2(mut self, key: impl Into<String>) -> Self {",
            "placement: Placement::Query(\"api_key\"),",
            "placement: Placement::Cookie(\"sid\"),",
            "        \"health\" => &[],\n        \"create_item\" => &[\"basic\", \"session\"],\n        _ => &[\"bearerAuth\", \"api_key\"],\n",
        ] {
            assert!(auth.contains(expected), "{expected}\nin\n{auth}");
        }
    }

    #[test]
    fn schemes_no_operation_requires_are_sent_by_every_operation() {
        let document = document(
            json!({"key": {"type": "apiKey", "in": "header", "name": "Api-Key"}}),
            None,
            json!({"/a": {"get": operation("a", None)}}),
        );
        let (access, findings) = Access::read(&document);
        assert_eq!(access.usual, ["key"]);
        assert!(access.exceptions.is_empty());
        assert_eq!(findings[0].kind, FindingKind::Repaired);
    }

    #[test]
    fn no_usable_scheme_means_no_credentials() {
        let document = document(
            json!({"tls": {"type": "mutualTLS"}, "odd": {"type": "http"}}),
            None,
            json!({}),
        );
        let (access, findings) = Access::read(&document);
        assert!(!access.has_credentials());
        assert_eq!(findings.len(), 1, "{findings:?}");
    }
}
