//! What every `hub` command shares: the clap commands built from the generated table, the
//! client, turning arguments into the generated types, and turning a reply or an error into
//! output and an exit status.

use std::cell::Cell;
use std::io::Read;

use clap::{Arg, ArgAction, ArgMatches, Command};
use hub_api::generated;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::{GROUPS, OPERATIONS};

/// A `hub <group>`: one tag of the spec.
pub struct Group {
    /// The group's command name.
    pub name: &'static str,
    /// The tag's description.
    pub about: &'static str,
}

/// A `hub <group> <command>`: one operation of the spec.
pub struct Operation {
    /// The spec's operationId.
    pub id: &'static str,
    /// The group it is under.
    pub group: &'static str,
    /// The command name.
    pub name: &'static str,
    /// The HTTP method, for `--help`.
    pub method: &'static str,
    /// The path template, for `--help`.
    pub path: &'static str,
    /// The summary.
    pub about: &'static str,
    /// The description, possibly empty.
    pub long_about: &'static str,
    /// Path parameters (positional, in path order), then query parameters.
    pub params: &'static [Param],
    /// The request body, if the operation takes one.
    pub body: Option<Body>,
    /// Whether the hub takes it without a token (then none is sent).
    pub anonymous: bool,
    /// Whether a success has a JSON body to print.
    pub returns_body: bool,
    /// The component schema of that body, when it is one.
    pub response: &'static str,
    /// `/`-separated paths (`*` for any item) of secrets in the response.
    pub secrets: &'static [&'static str],
    /// The spelling of earlier versions, `hub <tag> <command>`, when it differs; still
    /// accepted, hidden from `--help`.
    pub legacy: Option<(&'static str, &'static str)>,
    /// How the operation pages, if it does (then it has `--paginate`).
    pub paging: Option<Paging>,
}

/// How a list operation pages: a page number parameter, counting from 0.
pub struct Paging {
    /// The page parameter (`p`).
    pub param: &'static str,
    /// The response's list property (`notifications`); empty when the response is the list.
    pub items: &'static str,
}

/// One parameter of an operation.
pub struct Param {
    /// The name in the spec (and the clap argument id).
    pub name: &'static str,
    /// `--kebab-case` or `-x`; for a positional parameter, its placeholder (`WEBHOOK_ID`).
    pub flag: &'static str,
    /// Path parameters are positional.
    pub positional: bool,
    /// Whether it must be given.
    pub required: bool,
    /// The JSON type of its value.
    pub kind: Kind,
    /// Its description, values and default.
    pub help: &'static str,
    /// The spec's example value, possibly empty.
    pub example: &'static str,
}

/// The JSON type a parameter's text is read as.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Sent as given.
    String,
    /// A JSON integer.
    Integer,
    /// A JSON number.
    Number,
    /// `true` or `false`.
    Boolean,
}

/// An operation's request body.
pub struct Body {
    /// The component schema it is, for `--help`.
    pub schema: &'static str,
    /// Whether it must be given.
    pub required: bool,
    /// The spec's first example, as JSON text; possibly empty.
    pub example: &'static str,
}

/// The exit status of a call that failed: transport, HTTP status, unexpected response.
pub const EXIT_API: u8 = 1;
/// The exit status of a usage or input error (clap's own too): nothing was sent.
pub const EXIT_USAGE: u8 = 2;
/// The exit status when authentication is required: the hub answered 401 (no token, or one it
/// refused), or the token file cannot be used.
pub const EXIT_AUTH: u8 = 3;

/// The environment and exit statuses, at the end of `hub --help`.
pub const AFTER_HELP: &str = "\
Environment:
  HUB_BASE_URL  the hub, e.g. https://hub.example.com (--base-url overrides it)
  HUB_TOKEN     the hub token; else the token file $XDG_CONFIG_HOME/hub/token
                (~/.config/hub/token), which only its owner may read

Exit status:
  0  success
  1  the call failed (network, HTTP status, a response that does not match the spec)
  2  usage or input error; nothing was sent
  3  not authenticated: HTTP 401 (no token, or the hub refused it), or the token
     file cannot be used";

/// Why a command failed, as one line.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments or input: nothing was sent.
    Usage(String),
    /// The call failed.
    Api(String),
    /// The hub wants a (valid) token.
    Auth(String),
}

impl Failure {
    /// The dispatch met an operation the table does not know (cannot happen with a table and
    /// dispatch generated together).
    pub fn unknown_operation(id: &str) -> Self {
        Self::Usage(format!("no operation `{id}`"))
    }

    /// The one line printed on standard error.
    pub fn message(&self) -> &str {
        match self {
            Self::Usage(message) | Self::Api(message) | Self::Auth(message) => message,
        }
    }

    /// The exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => EXIT_USAGE,
            Self::Api(_) => EXIT_API,
            Self::Auth(_) => EXIT_AUTH,
        }
    }
}

/// What a successful call prints.
#[derive(Debug)]
pub struct Reply {
    /// The response body, secrets redacted unless asked for; `None` when the operation has none.
    pub body: Option<Value>,
    /// Lines for standard error (items of a list that break the spec, left out of `body`).
    pub warnings: Vec<String>,
    /// What the command did, for standard error, when the hub's answer has no body to say it
    /// (`revoked 2500 tokens in 3 requests`); standard output stays the hub's body.
    pub notes: Vec<String>,
}

impl Reply {
    /// A reply whose body is the typed value the call decoded, as JSON: printed only when the
    /// body as the hub sent it was not recorded (see [`Call::as_sent`]).
    pub fn typed(body: Value) -> Self {
        Self::body(body)
    }

    fn body(body: Value) -> Self {
        Self {
            body: Some(body),
            warnings: Vec::new(),
            notes: Vec::new(),
        }
    }
}

/// The whole command tree: one `hub <noun>` per group of the generated table, the old
/// spellings as hidden commands, and `hub completions`.
pub fn command() -> Command {
    let mut root = Command::new("hub")
        .version(env!("CARGO_PKG_VERSION"))
        .about("The hub API on the command line: one command per operation, JSON in and out.")
        .after_help(AFTER_HELP)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            Arg::new("base-url")
                .long("base-url")
                .value_name("URL")
                .global(true)
                .help("The hub, e.g. https://hub.example.com [default: $HUB_BASE_URL]"),
        );
    for group in GROUPS {
        let mut command = Command::new(group.name)
            .about(group.about)
            .subcommand_required(true)
            .arg_required_else_help(true);
        for operation in OPERATIONS.iter().filter(|op| op.group == group.name) {
            // A helper may take its arguments in the library's shape instead of the spec's
            // (`storage-access-token get REPO`); the old spellings keep the spec's.
            let arguments = crate::library::arguments(operation.id)
                .unwrap_or_else(|| spec_arguments(operation));
            command =
                command.subcommand(operation_command(operation, operation.name).args(arguments));
        }
        command = legacy_commands(command, group.name);
        root = root.subcommand(command);
    }
    // Old group names that are no noun now (`settings`, `tokens`, `storage`).
    let mut legacy_groups: Vec<&str> = Vec::new();
    for (group, _) in OPERATIONS.iter().filter_map(|op| op.legacy) {
        if !legacy_groups.contains(&group) && !GROUPS.iter().any(|g| g.name == group) {
            legacy_groups.push(group);
        }
    }
    for group in legacy_groups {
        let command = Command::new(group)
            .about("The commands of earlier versions, still accepted")
            .hide(true)
            .subcommand_required(true)
            .arg_required_else_help(true);
        root = root.subcommand(legacy_commands(command, group));
    }
    root.subcommand(
        Command::new(COMPLETIONS)
            .about("Print a completion script for bash, zsh or fish")
            .long_about(
                "Print a completion script for bash, zsh or fish, e.g. \
                 `hub completions bash > ~/.local/share/bash-completion/completions/hub`",
            )
            .arg(
                Arg::new("shell")
                    .required(true)
                    .value_parser(["bash", "zsh", "fish"])
                    .help("The shell"),
            ),
    )
}

/// The command that prints a completion script.
pub const COMPLETIONS: &str = "completions";

/// `group` with the operations whose old spelling is under it, each saying its new spelling;
/// hidden in a group of today's (a group of old spellings only is hidden itself).
fn legacy_commands(mut group: Command, name: &str) -> Command {
    let current = GROUPS.iter().any(|g| g.name == name);
    for operation in OPERATIONS {
        if let Some((legacy_group, legacy_name)) = operation.legacy
            && legacy_group == name
        {
            let command = operation_command(operation, legacy_name)
                .args(spec_arguments(operation))
                .about(format!(
                    "Now `hub {} {}`: {}",
                    operation.group, operation.name, operation.about
                ))
                .hide(current);
            group = group.subcommand(command);
        }
    }
    group
}

/// The operation `hub <group> <name>` runs, in the new spelling or the old.
pub fn find_operation(group: &str, name: &str) -> Option<&'static Operation> {
    OPERATIONS
        .iter()
        .find(|op| op.group == group && op.name == name)
        .or_else(|| {
            OPERATIONS
                .iter()
                .find(|op| op.legacy == Some((group, name)))
        })
}

/// The completion script for `shell` (`bash`, `zsh` or `fish`). Written to memory first:
/// `clap_complete` panics when its output fails (a closed pipe).
pub fn completions(shell: &str) -> Result<Vec<u8>, Failure> {
    use clap_complete::Shell;
    let shell = match shell {
        "bash" => Shell::Bash,
        "zsh" => Shell::Zsh,
        "fish" => Shell::Fish,
        other => return Err(Failure::Usage(format!("no completions for `{other}`"))),
    };
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "hub", &mut script);
    Ok(script)
}

/// The arguments of `operation` as the spec has them: path parameters positional, in path
/// order, query parameters as options, the body as `--body FILE`.
fn spec_arguments(operation: &Operation) -> Vec<Arg> {
    let mut arguments = Vec::new();
    for param in operation.params {
        let help = if param.example.is_empty() {
            param.help.to_owned()
        } else {
            format!("{} [example: {}]", param.help, param.example)
        };
        let mut arg = Arg::new(param.name)
            .help(help.trim().to_owned())
            .required(param.required);
        if param.positional {
            arg = arg.value_name(param.flag);
        } else if let Some(long) = param.flag.strip_prefix("--") {
            arg = arg.long(long).value_name("VALUE");
            // A one-letter parameter given a long name (the page number `p` is `--page`)
            // keeps its letter as the short option that earlier versions had.
            let mut letters = param.name.chars();
            if let (Some(short), None) = (letters.next(), letters.next()) {
                arg = arg.short(short);
            }
        } else if let Some(short) = param.flag.strip_prefix('-').and_then(|s| s.chars().next()) {
            arg = arg.short(short).value_name("VALUE");
        }
        arguments.push(arg);
    }
    if let Some(body) = &operation.body {
        arguments.push(
            Arg::new("body")
                .long("body")
                .value_name("FILE")
                .required(body.required)
                .help(format!(
                    "The request body, a JSON `{}`, from FILE (`-` reads standard input)",
                    body.schema
                )),
        );
    }
    arguments
}

/// A command for `operation` named `name`, with its help and the options every operation of
/// its kind has (`--paginate`, `--field`, `--show-secrets`), but not its arguments.
fn operation_command(operation: &Operation, name: &'static str) -> Command {
    let mut long_about = format!(
        "{}\n\n{} {}",
        operation.about, operation.method, operation.path
    );
    if !operation.long_about.is_empty() {
        long_about = format!("{long_about}\n\n{}", operation.long_about);
    }
    let mut command = Command::new(name)
        .about(operation.about)
        .long_about(long_about);
    if let Some(paging) = &operation.paging {
        command = command.arg(
            Arg::new("paginate")
                .long("paginate")
                .action(ArgAction::SetTrue)
                .conflicts_with(paging.param)
                .help("Fetch every page and print one JSON array of all the items"),
        );
    }
    if operation.returns_body {
        command = command.arg(Arg::new("field").long("field").value_name("PATH").help(
            "Print only the values at PATH, one per line: dot-separated keys, a \
                     number indexes an array, a key applied to an array is applied to each \
                     item; an array is printed one item per line, strings unquoted, anything \
                     else as compact JSON (so `--field .` prints a list as JSON lines). PATH \
                     starts at the response as one page has it, with --paginate too; a PATH \
                     that matches nothing is an error (exit status 1)",
        ));
    }
    if !operation.secrets.is_empty() {
        command = command.arg(
            Arg::new("show-secrets")
                .long("show-secrets")
                .action(ArgAction::SetTrue)
                .help("Print the secrets of the response instead of [redacted]"),
        );
    }
    command
}

/// One parsed command, ready to send.
pub struct Call<'a> {
    operation: &'static Operation,
    /// The command as the user typed it (`hub settings get-mcp` for an old spelling), which
    /// messages name: the operationId is the spec's word, not the user's.
    typed: String,
    matches: &'a ArgMatches,
    client: hub_api::Client,
    /// The page to ask for instead of the page parameter's argument, while paginating.
    page: Cell<Option<u64>>,
}

impl<'a> Call<'a> {
    /// Finds the operation `matches` selected and builds the client it needs: the base URL from
    /// `--base-url`, else `HUB_BASE_URL`; the token as [`hub_api::Client::from_env`] reads it
    /// (`HUB_TOKEN`, else the token file). Without a token, for an operation that needs one, a
    /// warning goes to standard error.
    pub fn new(matches: &'a ArgMatches) -> Result<Self, Failure> {
        let (group, group_matches) = matches
            .subcommand()
            .ok_or_else(|| Failure::Usage("no command given; see `hub --help`".to_owned()))?;
        let (name, matches) = group_matches
            .subcommand()
            .ok_or_else(|| Failure::Usage(format!("no command given; see `hub {group} --help`")))?;
        let operation = find_operation(group, name)
            .ok_or_else(|| Failure::Usage(format!("no command `hub {group} {name}`")))?;
        let typed = format!("hub {group} {name}");
        let client = build_client(operation, &typed, matches.get_one::<String>("base-url"))?;
        Ok(Self {
            operation,
            typed,
            matches,
            client,
            page: Cell::new(None),
        })
    }

    /// The operation to send.
    pub fn operation(&self) -> &'static Operation {
        self.operation
    }

    /// The command as the user typed it, e.g. `hub webhooks list`.
    pub fn typed(&self) -> &str {
        &self.typed
    }

    /// The warning for an item of a list left out because it breaks the spec.
    pub fn skipped(&self, item: &hub_api::partial::ItemError) -> String {
        let item = item.to_string();
        let rest = item
            .strip_prefix(self.operation.id)
            .and_then(|rest| rest.strip_prefix(": "))
            .unwrap_or(&item);
        format!("{}: skipped {}", self.typed, one_line(rest))
    }

    /// `message` of the library, which starts with the operationId (`listWebhooks: ...`), as
    /// one line that starts with the command the user typed instead.
    fn named(&self, message: &str) -> String {
        let rest = message
            .strip_prefix(self.operation.id)
            .and_then(|rest| rest.strip_prefix(": "))
            .unwrap_or(message);
        format!("{}: {}", self.typed, one_line(rest))
    }

    /// The generated client behind the library's client (its transport: token, retries,
    /// redirect and size rules), with a token unless the operation is anonymous.
    pub fn client(&self) -> &generated::Client {
        self.client.generated()
    }

    /// The library's client, for the operations it has a helper for.
    pub fn library(&self) -> &hub_api::Client {
        &self.client
    }

    /// Asks for `page` instead of the page parameter's argument (for `--paginate`).
    pub fn set_page(&self, page: u64) {
        self.page.set(Some(page));
    }

    /// The text of the argument `id`, if the command has it and it was given.
    pub fn arg(&self, id: &str) -> Option<&String> {
        self.matches.try_get_one::<String>(id).ok().flatten()
    }

    /// The texts of the argument `id` (one that takes several values), if given.
    pub fn args(&self, id: &str) -> Vec<&String> {
        self.matches
            .try_get_many::<String>(id)
            .ok()
            .flatten()
            .map(Iterator::collect)
            .unwrap_or_default()
    }

    /// Whether the flag `id` was given (false when the command has no such flag).
    pub fn flag(&self, id: &str) -> bool {
        self.matches.get_flag_if_present(id)
    }

    /// The text of `--body FILE` (`-`: standard input), if given.
    pub fn body_text(&self) -> Result<Option<String>, Failure> {
        let Some(source) = self.arg("body") else {
            return Ok(None);
        };
        read_body(source)
            .map(Some)
            .map_err(|error| Failure::Usage(format!("reading --body {source}: {error}")))
    }

    /// Standard input, read to its end.
    pub fn stdin_text(&self) -> Result<String, Failure> {
        read_body("-").map_err(|error| Failure::Usage(format!("reading standard input: {error}")))
    }

    /// Whether `--paginate` was given.
    pub fn paginate(&self) -> bool {
        self.matches.get_flag_if_present("paginate")
    }

    /// The parameter `name` as its generated type, if given.
    pub fn param<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, Failure> {
        let Some(param) = self.operation.params.iter().find(|p| p.name == name) else {
            return Ok(None);
        };
        let shown = if param.positional {
            format!("<{}>", param.flag)
        } else {
            param.flag.to_owned()
        };
        let value = match (self.page.get(), &self.operation.paging) {
            (Some(page), Some(paging)) if paging.param == name => Value::from(page),
            _ => {
                let Some(text) = self.matches.get_one::<String>(name) else {
                    return Ok(None);
                };
                json_value(text, param.kind).ok_or_else(|| {
                    Failure::Usage(format!(
                        "invalid {shown}: {text:?} is not {}",
                        kind_name(param.kind)
                    ))
                })?
            }
        };
        // Strictly, as a body is: a value the spec does not list is refused, not sent.
        generated::decoding::strict(|| serde_json::from_value(value))
            .map(Some)
            .map_err(|error| {
                Failure::Usage(format!("invalid {shown}: {}", with_suggestion(&error)))
            })
    }

    /// The `--body` as its generated type, if given, decoded strictly: the generated types
    /// decode tolerantly by default (an unlisted enum value becomes `Unknown`, an unknown key
    /// is skipped), which is right for what the hub sends but would let a misspelt flavor or
    /// field through to the hub. A body is exactly what the spec accepts, or nothing is sent.
    pub fn body<T: DeserializeOwned>(&self) -> Result<Option<T>, Failure> {
        let Some(text) = self.body_text()? else {
            return Ok(None);
        };
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let body: T =
            generated::decoding::strict(|| serde_path_to_error::deserialize(&mut deserializer))
                .map_err(|error| {
                    let path = error.path().to_string();
                    Failure::Usage(format!(
                        "invalid --body at `{path}`: {}",
                        with_suggestion(error.inner())
                    ))
                })?;
        deserializer
            .end()
            .map_err(|error| Failure::Usage(format!("invalid --body: {error}")))?;
        Ok(Some(body))
    }

    /// `reply` with its body as the hub sent it: the last of `bodies` (what
    /// [`hub_api::as_sent::recording`] recorded of the call), secrets redacted. The typed
    /// value the call decoded is what checked the body against the spec; printing it again
    /// would print a float the spec types as a number as `1.0` and drop fields newer than this
    /// client. `without` is the index of each item of the list at `items` (`""`: the body is
    /// the list) that breaks the spec, which a tolerant list leaves out, and so does the output.
    pub fn as_sent(
        &self,
        mut reply: Reply,
        bodies: &[Vec<u8>],
        items: &str,
        without: &[usize],
    ) -> Reply {
        if reply.body.is_none() {
            return reply;
        }
        let Some(mut sent) = bodies
            .last()
            .and_then(|body| serde_json::from_slice::<Value>(body).ok())
        else {
            return reply;
        };
        let list = if items.is_empty() {
            Some(&mut sent)
        } else {
            sent.get_mut(items)
        };
        if let Some(Value::Array(list)) = list {
            let mut without = without.to_vec();
            without.sort_unstable();
            without.dedup();
            for index in without.into_iter().rev() {
                if index < list.len() {
                    list.remove(index);
                }
            }
        }
        reply.body = Some(self.redacted(sent));
        reply
    }

    /// A response body as printed: secrets redacted unless `--show-secrets`.
    pub fn redacted(&self, mut body: Value) -> Value {
        if !self.matches.get_flag_if_present("show-secrets") {
            for path in self.operation.secrets {
                redact(
                    &mut body,
                    path.split('/')
                        .filter(|s| !s.is_empty())
                        .collect::<Vec<_>>()
                        .as_slice(),
                );
            }
        }
        body
    }

    /// Turns the generated call's result into output or a one-line failure.
    pub async fn reply<T: Serialize>(
        &self,
        result: Result<generated::ResponseValue<T>, generated::Error<()>>,
    ) -> Result<Reply, Failure> {
        let id = &self.typed;
        match result {
            Ok(response) => {
                if !self.operation.returns_body {
                    return Ok(Reply {
                        body: None,
                        warnings: Vec::new(),
                        notes: Vec::new(),
                    });
                }
                let body = serde_json::to_value(response.into_inner()).map_err(|error| {
                    Failure::Api(format!("{id}: cannot print the response: {error}"))
                })?;
                Ok(Reply::body(self.redacted(body)))
            }
            Err(error) => Err(self.generated_failure(error).await),
        }
    }

    /// Whether the calls of this operation carry a token.
    fn token_sent(&self) -> bool {
        !self.operation.anonymous && self.client.is_authenticated()
    }

    /// One line, and its exit status, for a failed generated call. Server text is not printed
    /// beyond a JSON `error` message, since a body could echo what was sent (tokens being
    /// revoked, secrets).
    async fn generated_failure(&self, error: generated::Error<()>) -> Failure {
        let id = &self.typed;
        let (status, server) = match error {
            generated::Error::ErrorResponse(response) => (response.status(), None),
            generated::Error::UnexpectedResponse(response) => {
                let status = response.status();
                let text = response.text().await.unwrap_or_default();
                (status, server_message(&text))
            }
            generated::Error::InvalidResponsePayload(_, error) => {
                return Failure::Api(format!(
                    "{id}: the response does not match the spec: {error}"
                ));
            }
            generated::Error::CommunicationError(error)
            | generated::Error::ResponseBodyError(error) => {
                return Failure::Api(format!("{id}: {}", one_line(&error_chain(&error))));
            }
            generated::Error::InvalidRequest(message) => {
                return Failure::Usage(format!("{id}: {}", one_line(&message)));
            }
            other => return Failure::Api(format!("{id}: {}", one_line(&other.to_string()))),
        };
        self.status_failure(status.as_u16(), &status.to_string(), server, None)
    }

    /// The failure for an HTTP error status, with a hint for 401, 403 and 404.
    /// `shown` is the status as printed (`401 Unauthorized`).
    fn status_failure(
        &self,
        status: u16,
        shown: &str,
        server: Option<String>,
        request_id: Option<&str>,
    ) -> Failure {
        let id = &self.typed;
        let mut message = format!("{id}: HTTP {shown}");
        if let Some(server) = server {
            message.push_str(&format!(": {server}"));
        }
        if let Some(request_id) = request_id {
            message.push_str(&format!(" (request id {request_id})"));
        }
        match status {
            401 => Failure::Auth(format!("{message}; {}", auth_hint(self.token_sent()))),
            403 => Failure::Api(format!(
                "{message}; hint: the token lacks the permission this needs (a fine-grained \
                 token may need another scope, or the resource is someone else's)"
            )),
            404 => Failure::Api(format!("{message}; hint: {}", self.not_found_hint())),
            _ => Failure::Api(message),
        }
    }

    fn not_found_hint(&self) -> String {
        let positional: Vec<String> = match crate::library::positional_names(self) {
            Some(names) => names.iter().map(|name| format!("<{name}>")).collect(),
            None => self
                .operation
                .params
                .iter()
                .filter(|param| param.positional)
                .map(|param| format!("<{}>", param.flag))
                .collect(),
        };
        if positional.is_empty() {
            "check the hub's URL (--base-url, HUB_BASE_URL)".to_owned()
        } else {
            format!(
                "check {} and the hub's URL (--base-url, HUB_BASE_URL)",
                positional.join(", ")
            )
        }
    }

    /// One line, and its exit status, for a failed call of the library.
    pub fn library_failure(&self, error: hub_api::Error) -> Failure {
        use hub_api::Error;
        match &error {
            Error::Validation { .. } => Failure::Usage(one_line(&error.to_string())),
            Error::TokenFile { .. } => Failure::Auth(one_line(&error.to_string())),
            Error::Unauthorized { request_id, .. } => {
                self.status_failure(401, "401 Unauthorized", None, request_id.as_deref())
            }
            Error::Status {
                status,
                body,
                request_id,
                ..
            } => self.status_failure(
                status.as_u16(),
                &status.to_string(),
                body.as_deref().and_then(server_message),
                request_id.as_deref(),
            ),
            Error::Forbidden { .. } | Error::NotFound { .. } => {
                let hint = match error.status().map(|status| status.as_u16()) {
                    Some(403) => "hint: the token lacks the permission this needs".to_owned(),
                    _ => format!("hint: {}", self.not_found_hint()),
                };
                Failure::Api(format!("{}; {hint}", self.named(&error.to_string())))
            }
            // The whole cause chain: what failed (connection refused, DNS, TLS) is at its end.
            _ => Failure::Api(self.named(&error_chain(&error))),
        }
    }
}

/// The library's client for `operation`, from the environment; anonymous for `security: []`.
fn build_client(
    operation: &Operation,
    typed: &str,
    base_url: Option<&String>,
) -> Result<hub_api::Client, Failure> {
    // Where the base URL came from, which a message about it names.
    let (base_url, source) = match base_url {
        Some(url) => (url.clone(), "--base-url"),
        None => (
            std::env::var(hub_api::BASE_URL_ENV_VAR).unwrap_or_default(),
            hub_api::BASE_URL_ENV_VAR,
        ),
    };
    if base_url.is_empty() {
        return Err(Failure::Usage(
            "no hub: give --base-url URL or set HUB_BASE_URL".to_owned(),
        ));
    }
    let mut builder = hub_api::Client::builder(base_url)
        .token_from_env()
        .user_agent_suffix(concat!("hub-cli/", env!("CARGO_PKG_VERSION")));
    if operation.anonymous {
        builder = builder.anonymous();
    }
    let client = builder.build().map_err(|error| match error {
        hub_api::Error::TokenFile { .. } => Failure::Auth(one_line(&error.to_string())),
        hub_api::Error::Validation { field, rule } if field == "base_url" => {
            Failure::Usage(one_line(&format!("invalid {source}: {rule}")))
        }
        other => Failure::Usage(one_line(&other.to_string())),
    })?;
    if !operation.anonymous && !client.is_authenticated() {
        // The library logs this through `tracing`, which `hub` does not print.
        eprintln!(
            "warning: no hub token (HUB_TOKEN is not set and there is no token file); \
             `{typed}` will likely fail with HTTP 401"
        );
    }
    Ok(client)
}

/// `error`'s message, with the nearest allowed value when it is serde's refusal of an enum
/// value (``unknown variant `a10g-smal`, expected one of ...``) and one is close: the rule
/// of generated enums' `FromStr` and of `cargo xtask validate`.
fn with_suggestion(error: &dyn std::fmt::Display) -> String {
    let message = error.to_string();
    let nearest = message
        .split_once("unknown variant `")
        .and_then(|(_, rest)| rest.split_once('`'))
        .and_then(|(given, rest)| {
            let (_, expected) = rest.split_once("expected")?;
            hub_api_support::suggest::nearest(given, expected.split('`').skip(1).step_by(2))
        });
    match nearest {
        Some(nearest) => format!("{message}; did you mean `{nearest}`?"),
        None => message,
    }
}

/// The hint after a 401.
fn auth_hint(token_sent: bool) -> &'static str {
    if token_sent {
        "not authenticated: the hub refused the token (expired or revoked?); set HUB_TOKEN \
         (or the token file ~/.config/hub/token) to a valid token"
    } else {
        "not authenticated: set HUB_TOKEN, or put the token in ~/.config/hub/token (chmod 600)"
    }
}

/// The items of a page, per [`Paging::items`].
pub fn page_items(body: Option<Value>, items: &str) -> Vec<Value> {
    match body {
        Some(Value::Array(list)) if items.is_empty() => list,
        Some(Value::Object(mut object)) if !items.is_empty() => match object.remove(items) {
            Some(Value::Array(list)) => list,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

/// The values at `path` in `value` (see `--field`); `None` when the path matches nothing: no
/// value is selected and some step did not exist (a key no object has, an index past the end,
/// a key under a string). A path through empty lists selects nothing and is `Some`: the list
/// was there, with no items today.
pub fn select<'v>(value: &'v Value, path: &str) -> Option<Vec<&'v Value>> {
    let segments: Vec<&str> = path.split('.').filter(|s| !s.is_empty()).collect();
    let mut out = Vec::new();
    let mut missed = false;
    select_into(value, &segments, &mut out, &mut missed);
    (!out.is_empty() || !missed).then_some(out)
}

fn select_into<'v>(value: &'v Value, path: &[&str], out: &mut Vec<&'v Value>, missed: &mut bool) {
    let Some((first, rest)) = path.split_first() else {
        out.push(value);
        return;
    };
    match value {
        Value::Array(items) => match first.parse::<usize>() {
            Ok(index) => match items.get(index) {
                Some(item) => select_into(item, rest, out, missed),
                None => *missed = true,
            },
            Err(_) => items
                .iter()
                .for_each(|item| select_into(item, path, out, missed)),
        },
        Value::Object(map) => match map.get(*first) {
            Some(child) => select_into(child, rest, out, missed),
            None => *missed = true,
        },
        _ => *missed = true,
    }
}

/// What `--field PATH` prints of `body`, the output of `call`: each selected value on a line.
/// PATH starts at the response as one page of it has it (`--help` names its schema), with
/// `--paginate` too, so that the same PATH means the same with and without it: the pages'
/// items are then the list property of one page holding them all. A PATH that matches
/// nothing is a failure naming it.
pub fn field_output(call: &Call<'_>, body: Value, path: &str) -> Result<String, Failure> {
    let body = match &call.operation().paging {
        Some(paging) if call.paginate() && !paging.items.is_empty() => {
            Value::Object([(paging.items.to_owned(), body)].into_iter().collect())
        }
        _ => body,
    };
    let values = select(&body, path).ok_or_else(|| {
        let hint = match &call.operation().paging {
            Some(paging) if call.paginate() && !paging.items.is_empty() => format!(
                " (with --paginate, only the pages' `{}` are kept)",
                paging.items
            ),
            _ => String::new(),
        };
        Failure::Api(format!(
            "{}: --field `{path}` matches nothing in the response{hint}",
            call.typed()
        ))
    })?;
    Ok(values
        .into_iter()
        .flat_map(|value| match value {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        })
        .map(|value| field_line(value) + "\n")
        .collect())
}

/// A selected value as one line: a string as it is, anything else as compact JSON.
pub fn field_line(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

/// `ArgMatches::get_flag` panics for an argument the command does not define.
trait FlagIfPresent {
    fn get_flag_if_present(&self, id: &str) -> bool;
}

impl FlagIfPresent for ArgMatches {
    fn get_flag_if_present(&self, id: &str) -> bool {
        matches!(self.try_get_one::<bool>(id), Ok(Some(true)))
    }
}

/// The `error` string of a JSON error body, cut short and without the hub token.
fn server_message(text: &str) -> Option<String> {
    const LONGEST: usize = 200;
    let value: Value = serde_json::from_str(text).ok()?;
    let message = value.get("error")?.as_str()?;
    let mut message = one_line(message);
    if let Ok(token) = std::env::var(hub_api::TOKEN_ENV_VAR)
        && !token.trim().is_empty()
    {
        message = message.replace(token.trim(), "[redacted]");
    }
    if message.chars().count() > LONGEST {
        message = message.chars().take(LONGEST).collect::<String>() + "…";
    }
    Some(message)
}

/// `error`'s message and each of its causes' once: the library's messages quote their first
/// cause (`transport error: error sending request for url (...)`), which the chain repeats,
/// while the cause that says what went wrong (connection refused, DNS, TLS) is further down.
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of `source`: a file, or standard input for `-`.
fn read_body(source: &str) -> std::io::Result<String> {
    if source == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text)?;
        Ok(text)
    } else {
        std::fs::read_to_string(source)
    }
}

/// The JSON value a parameter's text stands for.
fn json_value(text: &str, kind: Kind) -> Option<Value> {
    match kind {
        Kind::String => Some(Value::String(text.to_owned())),
        Kind::Integer => text
            .parse::<u64>()
            .map(Value::from)
            .or_else(|_| text.parse::<i64>().map(Value::from))
            .ok(),
        Kind::Number => text
            .parse::<f64>()
            .ok()
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number),
        Kind::Boolean => text.parse::<bool>().ok().map(Value::Bool),
    }
}

fn kind_name(kind: Kind) -> &'static str {
    match kind {
        Kind::String => "a string",
        Kind::Integer => "an integer",
        Kind::Number => "a number",
        Kind::Boolean => "true or false",
    }
}

/// Replaces the values at `path` (`*` matches any item or map value) with `[redacted]`.
fn redact(value: &mut Value, path: &[&str]) {
    let Some((first, rest)) = path.split_first() else {
        *value = Value::String("[redacted]".to_owned());
        return;
    };
    match (value, *first) {
        (Value::Object(map), "*") => map.values_mut().for_each(|child| redact(child, rest)),
        (Value::Array(items), "*") => items.iter_mut().for_each(|child| redact(child, rest)),
        (Value::Object(map), key) => {
            if let Some(child) = map.get_mut(key) {
                redact(child, rest);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_text_becomes_the_json_of_its_kind() {
        assert_eq!(json_value("3", Kind::Integer), Some(Value::from(3)));
        assert_eq!(json_value("-3", Kind::Integer), Some(Value::from(-3)));
        assert_eq!(json_value("x", Kind::Integer), None);
        assert_eq!(json_value("true", Kind::Boolean), Some(Value::Bool(true)));
        assert_eq!(json_value("3", Kind::String), Some(Value::from("3")));
    }

    #[test]
    fn secrets_are_redacted_at_their_paths() {
        let mut body = serde_json::json!({
            "accessToken": "s3cr3t",
            "exp": 1,
            "items": [{"secret": "a"}, {"secret": "b"}]
        });
        redact(&mut body, &["accessToken"]);
        redact(&mut body, &["items", "*", "secret"]);
        assert_eq!(
            body,
            serde_json::json!({
                "accessToken": "[redacted]",
                "exp": 1,
                "items": [{"secret": "[redacted]"}, {"secret": "[redacted]"}]
            })
        );
    }
}

#[cfg(test)]
mod command_tests {
    use clap::error::ErrorKind;

    use super::*;

    fn parse(args: &[&str]) -> Result<ArgMatches, clap::Error> {
        command().try_get_matches_from(std::iter::once("hub").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_tree_is_consistent() {
        // clap's own checks: no duplicate names or flags, positionals in order.
        command().debug_assert();
        let root = command();
        let visible: Vec<&str> = root
            .get_subcommands()
            .filter(|command| !command.is_hide_set())
            .map(Command::get_name)
            .collect();
        let mut expected: Vec<&str> = GROUPS.iter().map(|group| group.name).collect();
        expected.push(COMPLETIONS);
        assert_eq!(visible, expected, "one command per group, and completions");
    }

    #[test]
    fn every_operation_is_found_by_its_new_and_its_old_spelling() {
        for operation in OPERATIONS {
            let found = find_operation(operation.group, operation.name).map(|op| op.id);
            assert_eq!(found, Some(operation.id));
            if let Some((group, name)) = operation.legacy {
                assert_eq!(
                    find_operation(group, name).map(|op| op.id),
                    Some(operation.id)
                );
                parse(&[group, name, "--help"]).expect_err("the old spelling answers help");
            }
        }
        assert_eq!(
            find_operation("settings", "get-mcp").map(|op| op.id),
            Some("getMcpSettings")
        );
    }

    #[test]
    fn field_paths_select_through_arrays() {
        let body = serde_json::json!({"items": [{"id": "a"}, {"id": "b", "n": 2}], "count": 2});
        let lines = |path| {
            select(&body, path)
                .expect("the path matches")
                .into_iter()
                .map(field_line)
                .collect::<Vec<_>>()
        };
        assert_eq!(lines("items.id"), ["a", "b"]);
        assert_eq!(lines("items.1.n"), ["2"]);
        assert_eq!(lines("count"), ["2"]);
        assert_eq!(lines("items.n"), ["2"], "an optional key some items have");
        for nothing in ["missing", "items.x", "items.5", "count.x"] {
            assert_eq!(select(&body, nothing), None, "{nothing}");
        }
        let empty = serde_json::json!({"items": []});
        assert_eq!(
            select(&empty, "items.id"),
            Some(Vec::new()),
            "no items today"
        );
        assert_eq!(
            page_items(
                Some(serde_json::json!({"notifications": [1, 2]})),
                "notifications"
            ),
            [serde_json::json!(1), serde_json::json!(2)]
        );
    }

    #[test]
    fn every_command_answers_help() {
        for operation in OPERATIONS {
            for flag in ["--help", "-h"] {
                let error = parse(&[operation.group, operation.name, flag])
                    .expect_err("help stops parsing");
                assert_eq!(
                    error.kind(),
                    ErrorKind::DisplayHelp,
                    "{} {flag}",
                    operation.id
                );
            }
        }
        for group in GROUPS {
            let error = parse(&[group.name, "--help"]).expect_err("help stops parsing");
            assert_eq!(error.kind(), ErrorKind::DisplayHelp, "{}", group.name);
        }
    }

    #[test]
    fn path_parameters_are_positional_and_queries_are_options() {
        let matches = parse(&[
            "storage",
            "get-access-token",
            "model",
            "acme",
            "bert",
            "write",
            "main",
            "--base-url",
            "http://127.0.0.1:1",
        ])
        .unwrap();
        let (_, group) = matches.subcommand().unwrap();
        let (_, command) = group.subcommand().unwrap();
        assert_eq!(command.get_one::<String>("namespace").unwrap(), "acme");
        assert_eq!(command.get_one::<String>("token_type").unwrap(), "write");
        assert!(!command.get_flag("show-secrets"));

        let matches = parse(&[
            "notifications",
            "list",
            "-p",
            "2",
            "--read-status",
            "unread",
        ])
        .unwrap();
        let (_, group) = matches.subcommand().unwrap();
        let (_, command) = group.subcommand().unwrap();
        assert_eq!(command.get_one::<String>("p").unwrap(), "2");
        assert_eq!(command.get_one::<String>("readStatus").unwrap(), "unread");
    }

    #[test]
    fn missing_and_unknown_arguments_are_usage_errors() {
        let missing = parse(&["webhooks", "get"]).unwrap_err();
        assert_eq!(missing.kind(), ErrorKind::MissingRequiredArgument);
        let unknown = parse(&["notifications", "list", "--unread-only"]).unwrap_err();
        assert_eq!(unknown.kind(), ErrorKind::UnknownArgument);
        let body = parse(&["webhooks", "create"]).unwrap_err();
        assert_eq!(
            body.kind(),
            ErrorKind::MissingRequiredArgument,
            "--body is required"
        );
    }
}
