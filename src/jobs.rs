//! The job a webhook starts: [`JobSpec`], hand-written constructors and setters for the
//! generated [`types::WebhookJobRequest`].
//!
//! ```
//! use std::time::Duration;
//! use hub_api::jobs::JobSpec;
//! use hub_api::types::Flavor;
//!
//! let job = JobSpec::image("ghcr.io/acme/retrain:1.4", Flavor::A10gSmall)
//!     .command(["python", "retrain.py"])
//!     .expose([8080, 9090])
//!     .env("MODEL_ID", "acme/bert-tiny")
//!     .secret("HF_WRITE_TOKEN", "hf_example")
//!     .timeout(Duration::from_secs(3600));
//! let request = job.build()?;
//! assert!(!format!("{request:?}").contains("hf_example"));
//! # Ok::<(), hub_api::Error>(())
//! ```
//!
//! # Same rules as the generated types
//!
//! A `JobSpec` only collects values. [`JobSpec::build`] writes them in the request's JSON form
//! and decodes that through the generated request type, so every rule of the spec is checked
//! exactly where the generated types check it (a non-empty image or Space id, environment and
//! secret names, ports from 1 to 65535 and at most 20 of them, a timeout above zero, label
//! keys and values, ...), and a broken one comes back as [`Error::Validation`] naming its path,
//! e.g. `job.expose.ports[0]`. Secret values are scrubbed from those errors.
//! [`WebhookSpec::job`](crate::webhooks::WebhookSpec::job) builds the job when the webhook
//! is sent, so nothing is sent when a rule is broken.
//!
//! What `JobSpec` has no setter for (volume options, and the rest) is set through the generated
//! types: `JobSpec::from` takes a generated request, either variant, or a variant's generated
//! builder.

use std::collections::BTreeMap;
use std::fmt::Display;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::error::{Redactor, Result, build_request};
use crate::{Error, Secret, types};

/// A webhook's job, built from a Docker image ([`JobSpec::image`]) or a Space
/// ([`JobSpec::space`]). `Debug` shows secret names, never their values.
#[derive(Debug, Clone)]
#[must_use]
pub struct JobSpec {
    /// The job's JSON form without its secrets: `dockerImage` or `spaceId`, `flavor`, and what
    /// the setters added.
    fields: Map<String, Value>,
    /// Secret values by name; they enter JSON only while the request is built.
    secrets: BTreeMap<String, Secret>,
    /// The first conversion that failed before `build` (a generated builder missing a field,
    /// ...); `build` reports it.
    invalid: Option<Error>,
}

impl JobSpec {
    /// A job that runs the Docker image `image` on `flavor`.
    pub fn image(image: impl Into<String>, flavor: types::Flavor) -> Self {
        Self::with_source("dockerImage", image.into(), flavor)
    }

    /// A job that runs the Space `space_id` on `flavor`.
    pub fn space(space_id: impl Into<String>, flavor: types::Flavor) -> Self {
        Self::with_source("spaceId", space_id.into(), flavor)
    }

    fn with_source(key: &str, source: String, flavor: types::Flavor) -> Self {
        let mut fields = Map::new();
        fields.insert(key.to_owned(), Value::String(source));
        fields.insert("flavor".to_owned(), json!(flavor));
        Self {
            fields,
            secrets: BTreeMap::new(),
            invalid: None,
        }
    }

    /// The command to run (at least one item, each non-empty); replaces any earlier one.
    pub fn command<I, S>(self, command: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.set("command", strings(command))
    }

    /// The command's arguments; replaces any earlier ones.
    pub fn arguments<I, S>(self, arguments: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.set("arguments", strings(arguments))
    }

    /// Sets an environment variable. Names start with a letter followed by one or more letters,
    /// digits or underscores.
    pub fn env(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        if let Value::Object(environment) = self.slot("environment", empty_object) {
            environment.insert(name.into(), Value::String(value.into()));
        }
        self
    }

    /// Gives the job a secret, by the same naming rule as environment variables. The value is
    /// kept in a [`Secret`] and never printed.
    pub fn secret(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.secrets.insert(name.into(), value.into());
        self
    }

    /// Stops the job after `timeout`, counted in whole seconds and rounded up, so a timeout is
    /// never shorter than asked; it must be above zero. Without it the job has no timeout.
    pub fn timeout(self, timeout: Duration) -> Self {
        let seconds = timeout
            .as_secs()
            .saturating_add(u64::from(timeout.subsec_nanos() > 0));
        self.set("timeoutSeconds", json!(seconds))
    }

    /// Maximum number of attempts (at least 1; 3 means up to 2 retries after a failure).
    pub fn attempts(self, attempts: u32) -> Self {
        self.set("attempts", json!(attempts))
    }

    /// Adds ports to expose, each reachable at `https://<job_id>--<port>.{jobs_domain}` with a
    /// token that can read the job's namespace. At most 20 ports, each from 1 to 65535.
    pub fn expose(mut self, ports: impl IntoIterator<Item = u16>) -> Self {
        for port in ports {
            self.add_port("ports", port);
        }
        self
    }

    /// Adds ports to expose that need no authentication (`portsPublic`); they are added to the
    /// exposed ports too, since public ports are a subset of them.
    pub fn expose_public(mut self, ports: impl IntoIterator<Item = u16>) -> Self {
        for port in ports {
            self.add_port("ports", port);
            self.add_port("portsPublic", port);
        }
        self
    }

    /// Adds a label. Keys have 1 to 100 and values 0 to 100 letters, digits, underscores or
    /// hyphens.
    pub fn label(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        if let Value::Object(labels) = self.slot("labels", empty_object) {
            labels.insert(key.into(), Value::String(value.into()));
        }
        self
    }

    /// The CPU architecture to run on.
    pub fn arch(self, arch: types::Arch) -> Self {
        self.set("arch", json!(arch))
    }

    /// Enables or disables SSH: when enabled, the job's owner reaches the container with
    /// `ssh <job_id>@{ssh_host}`, authenticated by an SSH public key registered on the hub.
    pub fn ssh(self, enabled: bool) -> Self {
        self.set("ssh", json!({ "enabled": enabled }))
    }

    /// Joins the network group `group` under the given aliases (roles). Jobs of the same owner
    /// and resource group that share a group are placed together and reach each other on every
    /// port.
    pub fn network<I, S>(self, group: impl Into<String>, aliases: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        let network = json!({ "group": group.into(), "aliases": strings(aliases) });
        self.set("network", network)
    }

    /// Adds a bucket or repository to mount: a generated [`types::VolumeRequest`] or its
    /// builder (`types::VolumeRequest::builder()`), whose conversion error `build` reports.
    pub fn volume<V>(mut self, volume: V) -> Self
    where
        V: TryInto<types::VolumeRequest>,
        V::Error: Display,
    {
        let volume = volume
            .try_into()
            .map_err(|error| error.to_string())
            .and_then(|volume| serde_json::to_value(volume).map_err(|error| error.to_string()));
        match volume {
            Ok(volume) => {
                if let Value::Array(volumes) = self.slot("volumes", empty_array) {
                    volumes.push(volume);
                }
            }
            Err(error) => self.refuse("job.volumes", error),
        }
        self
    }

    /// Runs the job in this resource group (24 hexadecimal characters).
    pub fn resource_group(self, resource_group_id: impl Into<String>) -> Self {
        self.set("resourceGroupId", Value::String(resource_group_id.into()))
    }

    /// Checks every rule and builds the generated request. Errors name the field as
    /// `job.<path>` and never contain a secret value.
    pub fn build(&self) -> Result<types::WebhookJobRequest> {
        if let Some(error) = &self.invalid {
            return Err(error.clone());
        }
        let redactor = Redactor::new().with_all(self.secrets.values());
        let value = Value::Object(self.to_json());
        // Each variant is decoded into its own generated type, which names the failing path
        // exactly; only one of `spaceId` and `dockerImage` is ever set, as the union requires.
        let built = if self.fields.contains_key("spaceId") {
            build_request::<types::WebhookJobRequestFromSpace>(value, &redactor).map(Into::into)
        } else {
            build_request::<types::WebhookJobRequestFromImage>(value, &redactor).map(Into::into)
        };
        built.map_err(in_job)
    }

    /// Adds secrets given elsewhere (the webhook's `job_secret`); they replace same-named ones.
    pub(crate) fn with_secrets<'a>(
        mut self,
        secrets: impl IntoIterator<Item = (&'a String, &'a Secret)>,
    ) -> Self {
        for (name, value) in secrets {
            self.secrets.insert(name.clone(), value.clone());
        }
        self
    }

    /// Every secret value of the job, to scrub from errors.
    pub(crate) fn secret_values(&self) -> impl Iterator<Item = &Secret> {
        self.secrets.values()
    }

    /// The JSON form with the secret values in, only for decoding into the generated type.
    fn to_json(&self) -> Map<String, Value> {
        let mut json = self.fields.clone();
        if !self.secrets.is_empty() {
            let secrets = self
                .secrets
                .iter()
                .map(|(name, value)| (name.clone(), Value::String(value.expose().to_owned())))
                .collect();
            json.insert("secrets".to_owned(), Value::Object(secrets));
        }
        json
    }

    fn set(mut self, key: &str, value: Value) -> Self {
        self.fields.insert(key.to_owned(), value);
        self
    }

    /// The value under `key`, set to `empty()` first when it is absent or of another JSON type.
    fn slot(&mut self, key: &str, empty: fn() -> Value) -> &mut Value {
        let slot = self.fields.entry(key).or_insert_with(empty);
        if std::mem::discriminant(slot) != std::mem::discriminant(&empty()) {
            *slot = empty();
        }
        slot
    }

    /// Appends `port` to `expose.<key>` unless it is there already.
    fn add_port(&mut self, key: &str, port: u16) {
        if let Value::Object(expose) = self.slot("expose", empty_object) {
            let ports = expose.entry(key).or_insert_with(empty_array);
            if let Value::Array(ports) = ports
                && !ports.contains(&json!(port))
            {
                ports.push(json!(port));
            }
        }
    }

    /// Keeps the first conversion failure for `build`.
    fn refuse(&mut self, field: &str, rule: impl Display) {
        if self.invalid.is_none() {
            self.invalid = Some(Error::validation(field, rule.to_string()));
        }
    }
}

fn empty_object() -> Value {
    Value::Object(Map::new())
}

fn empty_array() -> Value {
    Value::Array(Vec::new())
}

fn strings<I, S>(items: I) -> Value
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    Value::Array(
        items
            .into_iter()
            .map(|item| Value::String(item.into()))
            .collect(),
    )
}

/// Puts a validation error's field under `job`.
fn in_job(error: Error) -> Error {
    match error {
        Error::Validation { field, rule } => {
            let field = match field.as_str() {
                "request" => "job".to_owned(),
                path if path.starts_with('[') => format!("job{path}"),
                path => format!("job.{path}"),
            };
            Error::Validation { field, rule }
        }
        other => other,
    }
}

impl From<types::WebhookJobRequest> for JobSpec {
    /// Takes a generated request as it is; its secrets move into [`Secret`]s.
    fn from(request: types::WebhookJobRequest) -> Self {
        let mut job = Self {
            fields: Map::new(),
            secrets: BTreeMap::new(),
            invalid: None,
        };
        match serde_json::to_value(&request) {
            Ok(Value::Object(mut fields)) => {
                if let Some(Value::Object(secrets)) = fields.remove("secrets") {
                    for (name, value) in secrets {
                        if let Value::String(value) = value {
                            job.secrets.insert(name, Secret::new(value));
                        }
                    }
                }
                job.fields = fields;
            }
            // The generated request always serializes to an object; should that ever change,
            // `build` says so instead of sending something else.
            Ok(_) => job.invalid = Some(Error::validation("job", "must be an object")),
            Err(error) => job.refuse("job", error),
        }
        job
    }
}

impl From<types::WebhookJobRequestFromImage> for JobSpec {
    fn from(request: types::WebhookJobRequestFromImage) -> Self {
        types::WebhookJobRequest::from(request).into()
    }
}

impl From<types::WebhookJobRequestFromSpace> for JobSpec {
    fn from(request: types::WebhookJobRequestFromSpace) -> Self {
        types::WebhookJobRequest::from(request).into()
    }
}

impl From<types::builder::WebhookJobRequestFromImage> for JobSpec {
    /// Takes a generated builder; a missing or invalid field is reported by [`JobSpec::build`].
    fn from(builder: types::builder::WebhookJobRequestFromImage) -> Self {
        from_builder(types::WebhookJobRequestFromImage::try_from(builder))
    }
}

impl From<types::builder::WebhookJobRequestFromSpace> for JobSpec {
    /// Takes a generated builder; a missing or invalid field is reported by [`JobSpec::build`].
    fn from(builder: types::builder::WebhookJobRequestFromSpace) -> Self {
        from_builder(types::WebhookJobRequestFromSpace::try_from(builder))
    }
}

fn from_builder<T: Into<JobSpec>>(
    built: std::result::Result<T, types::error::ConversionError>,
) -> JobSpec {
    match built {
        Ok(request) => request.into(),
        Err(error) => JobSpec {
            fields: Map::new(),
            secrets: BTreeMap::new(),
            invalid: Some(in_job(Error::from(error))),
        },
    }
}

impl TryFrom<JobSpec> for types::WebhookJobRequest {
    type Error = Error;

    fn try_from(job: JobSpec) -> Result<Self> {
        job.build()
    }
}

impl TryFrom<&JobSpec> for types::WebhookJobRequest {
    type Error = Error;

    fn try_from(job: &JobSpec) -> Result<Self> {
        job.build()
    }
}
