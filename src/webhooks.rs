//! Webhook management: list, get, create, update, enable, disable and delete webhooks, with a
//! [`WebhookSpec`] for the create and update body that keeps the webhook secret and the job
//! secrets in [`Secret`] until the request is sent.
//!
//! A webhook either calls a URL, starts an inline job, or starts a job from an existing job
//! (`jobSourceId`); [`WebhookTarget`] makes that choice explicit.
//!
//! Receiving the deliveries is the other side: `hub_api::receiver` (feature `receiver`).
//! (Before issue 31 this module was `hub_api::webhook_admin`, and `hub_api::webhooks` was the
//! receiver.)

use std::collections::BTreeMap;
use std::fmt;

use serde_json::{Map, Value, json};

use crate::client::Call;
use crate::error::{Redactor, Result, build_request};
use crate::jobs::JobSpec;
use crate::partial::{Partial, send_partial};
use crate::{Client, Error, Secret, types};

/// What a webhook does on delivery.
#[derive(Clone)]
pub enum WebhookTarget {
    /// Sends the payload to this URL.
    Url(String),
    /// Starts this job with the payload in `WEBHOOK_PAYLOAD`.
    Job(Box<JobSpec>),
    /// Starts a job built from this existing job (its secrets are not copied; give them with
    /// [`WebhookSpec::job_secret`]).
    JobSource(String),
}

impl fmt::Debug for WebhookTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Url(url) => f.debug_tuple("Url").field(url).finish(),
            // A job prints secret names only, never their values.
            Self::Job(job) => f.debug_tuple("Job").field(job).finish(),
            Self::JobSource(id) => f.debug_tuple("JobSource").field(id).finish(),
        }
    }
}

/// The body of webhook creation and update.
///
/// ```
/// use hub_api::types::{WatchedType, WebhookDomain};
/// use hub_api::webhooks::WebhookSpec;
/// let spec = WebhookSpec::url("https://ci.acme.example/hooks/hub")
///     .watch(WatchedType::Model, "acme/bert-tiny")
///     .domain(WebhookDomain::Repo)
///     .secret("correct horse battery staple");
/// assert!(!format!("{spec:?}").contains("horse"));
/// ```
#[derive(Clone)]
#[must_use]
pub struct WebhookSpec {
    watched: Vec<(types::WatchedType, String)>,
    domains: Vec<types::WebhookDomain>,
    target: WebhookTarget,
    secret: Option<Secret>,
    job_secrets: BTreeMap<String, Secret>,
}

impl fmt::Debug for WebhookSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WebhookSpec")
            .field("watched", &self.watched)
            .field("domains", &self.domains)
            .field("target", &self.target)
            .field("secret", &self.secret)
            .field("job_secrets", &self.job_secrets)
            .finish()
    }
}

impl WebhookSpec {
    /// A webhook that sends deliveries to `url`.
    pub fn url(url: impl Into<String>) -> Self {
        Self::new(WebhookTarget::Url(url.into()))
    }

    /// A webhook that starts `job` on every delivery, with the payload in `WEBHOOK_PAYLOAD`.
    ///
    /// `job` is a [`JobSpec`] (`JobSpec::image(..)` or `JobSpec::space(..)`), a generated
    /// [`types::WebhookJobRequest`] or either of its variants, or a variant's generated builder
    /// as it is (no `try_into()` needed). Its rules are checked when the webhook is created or
    /// updated, and nothing is sent when one is broken.
    ///
    /// ```
    /// use hub_api::jobs::JobSpec;
    /// use hub_api::types::{Flavor, WatchedType, WebhookDomain, WebhookJobRequestFromSpace};
    /// use hub_api::webhooks::WebhookSpec;
    ///
    /// let from_image = WebhookSpec::job(JobSpec::image("ghcr.io/acme/retrain:1.4", Flavor::A10gSmall))
    ///     .watch(WatchedType::Model, "acme/bert-tiny")
    ///     .domain(WebhookDomain::Repo);
    /// let from_builder = WebhookSpec::job(
    ///     WebhookJobRequestFromSpace::builder()
    ///         .space_id("acme/retrain-space")
    ///         .flavor(Flavor::CpuBasic),
    /// );
    /// # let _ = (from_image, from_builder);
    /// ```
    pub fn job(job: impl Into<JobSpec>) -> Self {
        Self::new(WebhookTarget::Job(Box::new(job.into())))
    }

    /// A webhook that starts a job built from the existing job `job_source_id`.
    pub fn job_source(job_source_id: impl Into<String>) -> Self {
        Self::new(WebhookTarget::JobSource(job_source_id.into()))
    }

    /// A webhook with the given target and nothing watched yet.
    pub fn new(target: WebhookTarget) -> Self {
        Self {
            watched: Vec::new(),
            domains: Vec::new(),
            target,
            secret: None,
            job_secrets: BTreeMap::new(),
        }
    }

    /// Watches a repository (`<namespace>/<repo-name>`), user or organization.
    pub fn watch(mut self, kind: types::WatchedType, name: impl Into<String>) -> Self {
        self.watched.push((kind, name.into()));
        self
    }

    /// Reports events of this domain (`repo` or `discussion`).
    pub fn domain(mut self, domain: types::WebhookDomain) -> Self {
        if !self.domains.contains(&domain) {
            self.domains.push(domain);
        }
        self
    }

    /// Sets the webhook secret (printable ASCII, 0x20 to 0x7F).
    pub fn secret(mut self, secret: impl Into<Secret>) -> Self {
        self.secret = Some(secret.into());
        self
    }

    /// Gives the started job a secret: in the inline job's `secrets`, or in the webhook's
    /// `secrets` for a `jobSourceId` webhook. On update an empty value removes the secret.
    /// Names start with a letter followed by one or more letters, digits or underscores.
    pub fn job_secret(mut self, name: impl Into<String>, value: impl Into<Secret>) -> Self {
        self.job_secrets.insert(name.into(), value.into());
        self
    }

    /// What the webhook does on delivery.
    pub fn target(&self) -> &WebhookTarget {
        &self.target
    }

    /// Checks the body and builds the generated request; nothing is sent on failure.
    fn to_request(&self, redactor: &Redactor<'_>) -> Result<types::WebhookRequest> {
        // The generated request type checks the rules of the spec (at least one watched item
        // and domain, URI syntax, secret names and characters) when the body is decoded into
        // it below; only the rules of this type are checked here.
        let mut body = Map::new();
        let watched: Vec<Value> = self
            .watched
            .iter()
            .map(|(kind, name)| json!({ "type": kind, "name": name }))
            .collect();
        body.insert("watched".into(), Value::Array(watched));
        body.insert("domains".into(), json!(self.domains));
        let job_secrets: Map<String, Value> = self
            .job_secrets
            .iter()
            .map(|(name, value)| (name.clone(), Value::String(value.expose().to_owned())))
            .collect();
        match &self.target {
            WebhookTarget::Url(url) => {
                if !job_secrets.is_empty() {
                    return Err(Error::validation(
                        "secrets",
                        "job secrets need a job or a jobSourceId webhook",
                    ));
                }
                body.insert("url".into(), json!(url));
            }
            WebhookTarget::Job(job) => {
                // Built first on its own, so that a broken rule is named `job.<path>`.
                let job = job
                    .as_ref()
                    .clone()
                    .with_secrets(&self.job_secrets)
                    .build()?;
                let job = serde_json::to_value(&job)
                    .map_err(|error| Error::validation("job", error.to_string()))?;
                body.insert("job".into(), job);
            }
            WebhookTarget::JobSource(id) => {
                if id.is_empty() {
                    return Err(Error::validation("jobSourceId", "must not be empty"));
                }
                body.insert("jobSourceId".into(), json!(id));
                if !job_secrets.is_empty() {
                    body.insert("secrets".into(), Value::Object(job_secrets));
                }
            }
        }
        if let Some(secret) = &self.secret {
            body.insert("secret".into(), json!(secret.expose()));
        }
        build_request(Value::Object(body), redactor)
    }

    /// Every secret value of the spec, to scrub from errors.
    fn secrets(&self) -> impl Iterator<Item = &Secret> {
        let job_secrets = match &self.target {
            WebhookTarget::Job(job) => Some(job.secret_values()),
            _ => None,
        };
        self.secret
            .iter()
            .chain(self.job_secrets.values())
            .chain(job_secrets.into_iter().flatten())
    }
}

fn require_id(webhook_id: &str) -> Result<()> {
    if webhook_id.is_empty() {
        return Err(Error::validation("webhookId", "must not be empty"));
    }
    Ok(())
}

impl Client {
    /// Lists the user's webhooks (`GET /api/settings/webhooks`). A webhook that breaks the
    /// spec does not lose the others: it is left out and named in [`Partial::invalid`]. A value
    /// this client's spec does not list (a new flavor, say) is kept as its type's `Unknown`.
    pub async fn list_webhooks(&self) -> Result<Partial<Vec<types::Webhook>>> {
        let request = self.api().list_webhooks().send();
        send_partial::<_, types::Webhook, _>(self, Call::new("listWebhooks"), "", request).await
    }

    /// Reads one webhook (`GET /api/settings/webhooks/{webhookId}`).
    pub async fn get_webhook(&self, webhook_id: &str) -> Result<types::Webhook> {
        require_id(webhook_id)?;
        let request = self.api().get_webhook().webhook_id(webhook_id).send();
        let envelope: types::WebhookEnvelope = self.send(Call::new("getWebhook"), request).await?;
        Ok(envelope.webhook)
    }

    /// Creates a webhook (`POST /api/settings/webhooks`) and returns it. The hub answers with
    /// the webhook inside an envelope, which this unwraps (as for reading, enabling and
    /// disabling one); a mock of the hub must answer the same, e.g. with
    /// `hub_api::mock::webhook_envelope` (feature `test-util`):
    ///
    /// ```json
    /// { "webhook": { "id": "6729a1f0c3d4e5f6a7b8c90a", "url": "https://ci.acme.example/hooks/hub",
    ///                "disabled": false, "hasSecret": true, "domains": ["repo"],
    ///                "watched": [{ "type": "model", "name": "acme/bert-tiny" }] } }
    /// ```
    pub async fn create_webhook(&self, spec: &WebhookSpec) -> Result<types::Webhook> {
        let body = spec.to_request(&self.redactor().with_all(spec.secrets()))?;
        let request = self.api().create_webhook().body(body).send();
        let call = Call::new("createWebhook").with_secrets(spec.secrets());
        let envelope: types::WebhookEnvelope = self.send(call, request).await?;
        Ok(envelope.webhook)
    }

    /// Replaces a webhook's settings (`POST /api/settings/webhooks/{webhookId}`).
    pub async fn update_webhook(&self, webhook_id: &str, spec: &WebhookSpec) -> Result<()> {
        require_id(webhook_id)?;
        let body = spec.to_request(&self.redactor().with_all(spec.secrets()))?;
        let request = self
            .api()
            .update_webhook()
            .webhook_id(webhook_id)
            .body(body)
            .send();
        let call = Call::new("updateWebhook").with_secrets(spec.secrets());
        self.send(call, request).await
    }

    /// Enables a webhook; deliveries resume (`POST .../{webhookId}/enable`).
    pub async fn enable_webhook(&self, webhook_id: &str) -> Result<types::Webhook> {
        require_id(webhook_id)?;
        let request = self.api().enable_webhook().webhook_id(webhook_id).send();
        let envelope: types::WebhookEnvelope =
            self.send(Call::new("enableWebhook"), request).await?;
        Ok(envelope.webhook)
    }

    /// Disables a webhook; it is kept but receives no deliveries (`POST .../{webhookId}/disable`).
    pub async fn disable_webhook(&self, webhook_id: &str) -> Result<types::Webhook> {
        require_id(webhook_id)?;
        let request = self.api().disable_webhook().webhook_id(webhook_id).send();
        let envelope: types::WebhookEnvelope =
            self.send(Call::new("disableWebhook"), request).await?;
        Ok(envelope.webhook)
    }

    /// Deletes a webhook permanently (`DELETE /api/settings/webhooks/{webhookId}`).
    pub async fn delete_webhook(&self, webhook_id: &str) -> Result<()> {
        require_id(webhook_id)?;
        let request = self.api().delete_webhook().webhook_id(webhook_id).send();
        self.send(Call::new("deleteWebhook"), request).await
    }
}
