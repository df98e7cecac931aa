//! What every `hub` command shares: the clap commands built from the generated table, turning
//! arguments into the generated types, and turning a reply or an error into output.

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

/// The exit status of a usage or input error (clap's own too).
pub const EXIT_USAGE: u8 = 2;
/// The exit status of a call that failed: transport, HTTP status, unexpected response.
pub const EXIT_API: u8 = 1;

/// Why a command failed, as one line.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments or input: nothing was sent.
    Usage(String),
    /// The call failed.
    Api(String),
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
            Self::Usage(message) | Self::Api(message) => message,
        }
    }

    /// The exit status.
    pub fn exit_code(&self) -> u8 {
        match self {
            Self::Usage(_) => EXIT_USAGE,
            Self::Api(_) => EXIT_API,
        }
    }
}

/// What a successful call prints.
#[derive(Debug)]
pub struct Reply {
    /// The response body, secrets redacted unless asked for; `None` when the operation has none.
    pub body: Option<Value>,
}

/// The whole command tree.
pub fn command() -> Command {
    let mut root = Command::new("hub")
        .about("The hub API on the command line: one command per operation, JSON in and out.")
        .after_help(
            "The hub token is read from HUB_TOKEN. Exit status: 0 on success, 1 when the call \
             failed, 2 on a usage or input error.",
        )
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
            command = command.subcommand(operation_command(operation));
        }
        root = root.subcommand(command);
    }
    root
}

fn operation_command(operation: &Operation) -> Command {
    let mut long_about = format!(
        "{}\n\n{} {}",
        operation.about, operation.method, operation.path
    );
    if !operation.long_about.is_empty() {
        long_about = format!("{long_about}\n\n{}", operation.long_about);
    }
    let mut command = Command::new(operation.name)
        .about(operation.about)
        .long_about(long_about);
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
        } else if let Some(short) = param.flag.strip_prefix('-').and_then(|s| s.chars().next()) {
            arg = arg.short(short).value_name("VALUE");
        }
        command = command.arg(arg);
    }
    if let Some(body) = &operation.body {
        command = command.arg(
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
    matches: &'a ArgMatches,
    client: hub_api::Client,
}

impl<'a> Call<'a> {
    /// Finds the operation `matches` selected and builds the client it needs.
    pub fn new(matches: &'a ArgMatches) -> Result<Self, Failure> {
        let (group, group_matches) = matches
            .subcommand()
            .ok_or_else(|| Failure::Usage("no command given; see `hub --help`".to_owned()))?;
        let (name, matches) = group_matches
            .subcommand()
            .ok_or_else(|| Failure::Usage(format!("no command given; see `hub {group} --help`")))?;
        let operation = OPERATIONS
            .iter()
            .find(|op| op.group == group && op.name == name)
            .ok_or_else(|| Failure::Usage(format!("no command `hub {group} {name}`")))?;
        let base_url = matches
            .get_one::<String>("base-url")
            .cloned()
            .or_else(|| {
                std::env::var("HUB_BASE_URL")
                    .ok()
                    .filter(|url| !url.is_empty())
            })
            .ok_or_else(|| {
                Failure::Usage("no hub: give --base-url URL or set HUB_BASE_URL".to_owned())
            })?;
        let mut builder = hub_api::Client::builder(base_url);
        if operation.anonymous {
            builder = builder.anonymous();
        }
        let client = builder
            .build()
            .map_err(|error| Failure::Usage(error.to_string()))?;
        Ok(Self {
            operation,
            matches,
            client,
        })
    }

    /// The operation to send.
    pub fn operation(&self) -> &'static Operation {
        self.operation
    }

    /// The generated client, with a token unless the operation is anonymous.
    pub fn client(&self) -> &generated::Client {
        self.client.generated()
    }

    /// The parameter `name` as its generated type, if given.
    pub fn param<T: DeserializeOwned>(&self, name: &str) -> Result<Option<T>, Failure> {
        let Some(param) = self.operation.params.iter().find(|p| p.name == name) else {
            return Ok(None);
        };
        let Some(text) = self.matches.get_one::<String>(name) else {
            return Ok(None);
        };
        let shown = if param.positional {
            format!("<{}>", param.flag)
        } else {
            param.flag.to_owned()
        };
        let value = json_value(text, param.kind).ok_or_else(|| {
            Failure::Usage(format!(
                "invalid {shown}: {text:?} is not {}",
                kind_name(param.kind)
            ))
        })?;
        serde_json::from_value(value)
            .map(Some)
            .map_err(|error| Failure::Usage(format!("invalid {shown}: {error}")))
    }

    /// The `--body` as its generated type, if given.
    pub fn body<T: DeserializeOwned>(&self) -> Result<Option<T>, Failure> {
        let Some(source) = self.matches.get_one::<String>("body") else {
            return Ok(None);
        };
        let text = read_body(source)
            .map_err(|error| Failure::Usage(format!("reading --body {source}: {error}")))?;
        let mut deserializer = serde_json::Deserializer::from_str(&text);
        let body: T = serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
            let path = error.path().to_string();
            Failure::Usage(format!(
                "invalid --body at `{path}`: {}",
                error.into_inner()
            ))
        })?;
        deserializer
            .end()
            .map_err(|error| Failure::Usage(format!("invalid --body: {error}")))?;
        Ok(Some(body))
    }

    /// Turns the generated call's result into output or a one-line failure.
    pub async fn reply<T: Serialize>(
        &self,
        result: Result<generated::ResponseValue<T>, generated::Error<()>>,
    ) -> Result<Reply, Failure> {
        let id = self.operation.id;
        match result {
            Ok(response) => {
                if !self.operation.returns_body {
                    return Ok(Reply { body: None });
                }
                let mut body = serde_json::to_value(response.into_inner()).map_err(|error| {
                    Failure::Api(format!("{id}: cannot print the response: {error}"))
                })?;
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
                Ok(Reply { body: Some(body) })
            }
            Err(error) => Err(Failure::Api(format!("{id}: {}", describe(error).await))),
        }
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

/// One line for a failed call. Server text is not printed beyond a JSON `error` message,
/// since a body could echo what was sent (tokens being revoked, secrets).
async fn describe(error: generated::Error<()>) -> String {
    match error {
        generated::Error::ErrorResponse(response) => format!("HTTP {}", response.status()),
        generated::Error::UnexpectedResponse(response) => {
            let status = response.status();
            let text = response.text().await.unwrap_or_default();
            match server_message(&text) {
                Some(message) => format!("HTTP {status}: {message}"),
                None => format!("HTTP {status}"),
            }
        }
        generated::Error::InvalidResponsePayload(_, error) => {
            format!("the response does not match the spec: {error}")
        }
        generated::Error::CommunicationError(error)
        | generated::Error::ResponseBodyError(error) => one_line(&error_chain(&error)),
        other => one_line(&other.to_string()),
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

fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    text
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

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
        assert_eq!(
            command().get_subcommands().count(),
            GROUPS.len(),
            "one command per group"
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
