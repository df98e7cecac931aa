//! Manages webhooks: lists them, creates one that calls a URL, or enables, disables or deletes
//! one. The webhook secret of a new webhook is read from `WEBHOOK_SECRET` if set.
//!
//! ```sh
//! HUB_TOKEN=... cargo run --example webhooks -- --base-url https://hub.example.com
//! HUB_TOKEN=... cargo run --example webhooks -- --base-url https://hub.example.com \
//!     --create-url https://ci.example.com/hook --watch model:acme/bert-tiny
//! HUB_TOKEN=... cargo run --example webhooks -- --base-url https://hub.example.com --disable <webhook-id>
//! ```

use hub_api::Client;
use hub_api::types::{WatchedType, Webhook, WebhookDomain};
use hub_api::webhooks::WebhookSpec;

const USAGE: &str = "\
usage: webhooks --base-url <url> [--create-url <url> --watch <type>:<name> | --enable <id> | --disable <id> | --delete <id>]

Lists the user's webhooks, or manages one (the hub token is read from HUB_TOKEN).
  --base-url <url>         the hub, e.g. https://hub.example.com
  --create-url <url>       create a webhook delivering repo and discussion events to <url>;
                           its secret is read from WEBHOOK_SECRET if set
  --watch <type>:<name>    what the new webhook watches, e.g. model:acme/bert-tiny
  --enable|--disable|--delete <id>  change one webhook";

#[tokio::main]
async fn main() -> Result<(), hub_api::Report> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if wants_help(&args) {
        println!("{USAGE}");
        return Ok(());
    }
    let base_url = option(&args, "--base-url").ok_or_else(|| hub_api::Report::msg(USAGE))?;
    let client = Client::new(base_url)?;

    if let Some(url) = option(&args, "--create-url") {
        let (kind, name) = option(&args, "--watch")
            .and_then(|watch| watch.split_once(':'))
            .ok_or_else(|| {
                hub_api::Report::msg(
                    "--create-url needs --watch <type>:<name>, e.g. model:acme/bert-tiny",
                )
            })?;
        let mut spec = WebhookSpec::url(url)
            .watch(kind.parse::<WatchedType>()?, name)
            .domain(WebhookDomain::Repo)
            .domain(WebhookDomain::Discussion);
        if let Ok(secret) = std::env::var("WEBHOOK_SECRET") {
            spec = spec.secret(secret);
        }
        print(&client.create_webhook(&spec).await?);
    } else if let Some(id) = option(&args, "--enable") {
        print(&client.enable_webhook(id).await?);
    } else if let Some(id) = option(&args, "--disable") {
        print(&client.disable_webhook(id).await?);
    } else if let Some(id) = option(&args, "--delete") {
        client.delete_webhook(id).await?;
        println!("deleted {id}");
    } else {
        for webhook in client.list_webhooks().await? {
            print(&webhook);
        }
    }
    Ok(())
}

fn print(webhook: &Webhook) {
    let target = match (&webhook.url, &webhook.job, &webhook.job_source_id) {
        (Some(url), _, _) => url.to_string(),
        (None, Some(_), _) => "inline job".to_owned(),
        (None, None, Some(source)) => format!("job from {source}"),
        (None, None, None) => "no target".to_owned(),
    };
    let watched: Vec<&str> = webhook
        .watched
        .iter()
        .map(|item| item.name.as_str())
        .collect();
    println!(
        "{}  {:?}  {}  watching {}",
        webhook.id,
        webhook.disabled,
        target,
        watched.join(", ")
    );
}

/// The value after `name` on the command line.
fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|arg| arg == name)
        .and_then(|index| args.get(index + 1))
        .map(String::as_str)
}

/// Whether the user asked for the usage text.
fn wants_help(args: &[String]) -> bool {
    args.iter().any(|arg| arg == "--help" || arg == "-h")
}
