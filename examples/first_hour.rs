//! A new user's first program, end to end: lists unread notifications and marks them read,
//! creates a webhook that starts a job on `a10g-small` from a Docker image with two exposed
//! ports, gets a storage read token, and revokes leaked tokens read from stdin.
//!
//! ```sh
//! HUB_TOKEN=... cargo run --example first_hour -- --base-url https://hub.example.com \
//!     --repo acme/bert-tiny [--revoke < leaked-tokens.txt]
//! ```

use std::io::BufRead;
use std::time::Duration;

use hub_api::prelude::*;

const USAGE: &str = "\
usage: first_hour --base-url <url> [--repo <namespace/name>] [--revoke]

Lists your unread notifications and marks them read, creates a webhook watching the repository
that starts a job (Docker image on a10g-small, ports 8080 and 9090 exposed), gets a storage read
token for the repository, and, with --revoke, revokes the leaked tokens read from stdin (one per
line; never pass tokens as arguments).

options:
  --base-url <url>          the hub, e.g. https://hub.example.com (token from HUB_TOKEN)
  --repo <namespace/name>   the model repository to watch and read (default acme/bert-tiny)
  --revoke                  revoke the tokens read from stdin, in batches of 1,000
  -h, --help                print this help";

#[tokio::main]
async fn main() -> Result<(), hub_api::Report> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|arg| arg == "--help" || arg == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let base_url = option(&args, "--base-url").ok_or_else(|| hub_api::Report::msg(USAGE))?;
    let repo = option(&args, "--repo").unwrap_or("acme/bert-tiny");
    let client = Client::new(base_url)?;

    // Unread notifications, across all pages, then marked read by their discussion ids.
    let unread: Vec<Notification> = client
        .notifications(NotificationFilter::unread())
        .try_collect()
        .await?;
    for notification in &unread {
        println!(
            "unread: {}",
            notification
                .title()
                .unwrap_or("(a kind newer than this client)")
        );
    }
    if !unread.is_empty() {
        let selection =
            NotificationSelection::discussions(unread.iter().filter_map(|n| n.discussion_id()));
        client.mark_notifications_read(&selection, true).await?;
        println!("marked {} notification(s) read", unread.len());
    }

    // A webhook that starts a job on every update of the repository.
    let job = JobSpec::image("ghcr.io/acme/retrain:1.4", Flavor::A10gSmall)
        .command(["python", "retrain.py"])
        .expose([8080, 9090])
        .env("MODEL_ID", repo)
        .timeout(Duration::from_secs(3600));
    let spec = WebhookSpec::job(job)
        .watch(WatchedType::Model, repo)
        .domain(WebhookDomain::Repo);
    let webhook = client.create_webhook(&spec).await?;
    println!("created webhook {}", webhook.id);

    // A read token for the storage service (the token itself is never printed).
    let token = client
        .storage_access_token(&Repository::model(repo), StorageTokenType::Read)
        .await?;
    println!("storage read token for {}", token.cas_url());

    if args.iter().any(|arg| arg == "--revoke") {
        let tokens: Vec<Secret> = std::io::stdin()
            .lock()
            .lines()
            .collect::<Result<Vec<String>, _>>()?
            .into_iter()
            .filter(|line| !line.trim().is_empty())
            .map(Secret::from)
            .collect();
        let report = client.revoke_credentials(tokens).await?;
        println!(
            "revoked {} token(s) in {} request(s)",
            report.tokens, report.requests
        );
    }
    Ok(())
}

/// The value after `name` on the command line.
fn option<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter()
        .position(|arg| arg == name)
        .and_then(|index| args.get(index + 1))
        .map(String::as_str)
}
