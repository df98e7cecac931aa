//! Gets a storage access token for a repository through the caching provider, asks again to show
//! the cache at work, and prints where and until when it is valid (never the token itself).
//!
//! ```sh
//! HUB_TOKEN=... cargo run --example storage_token -- --base-url https://hub.example.com \
//!     --repo datasets/acme/squad@v1 [--write]
//! ```

use std::time::SystemTime;

use hub_api::storage::{StorageTokenProvider, StorageTokenType};
use hub_api::{Client, Repository};

const USAGE: &str = "\
usage: storage_token --base-url <url> --repo <repository> [--write]

Gets a storage access token through the caching provider and prints where and until when it is
valid, never the token itself (the hub token is read from HUB_TOKEN).
  --base-url <url>       the hub, e.g. https://hub.example.com
  --repo <repository>    [<type>s/]<namespace>/<name>[@<revision>]: acme/bert-tiny (a model),
                         datasets/acme/squad@v1, spaces/acme/demo (revision main if none)
  --write                a write token instead of a read token";

#[tokio::main]
async fn main() -> Result<(), hub_api::Report> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if wants_help(&args) {
        println!("{USAGE}");
        return Ok(());
    }
    let base_url = option(&args, "--base-url").ok_or_else(|| hub_api::Report::msg(USAGE))?;
    let repository: Repository = option(&args, "--repo")
        .ok_or_else(|| hub_api::Report::msg(USAGE))?
        .parse()?;
    let token_type = if args.iter().any(|arg| arg == "--write") {
        StorageTokenType::Write
    } else {
        StorageTokenType::Read
    };

    let provider = StorageTokenProvider::new(Client::new(base_url)?);
    let token = provider.token(&repository, token_type).await?;
    // The second call is served from the cache: no request.
    let again = provider.token(&repository, token_type).await?;
    let valid_for = token
        .expires_at()
        .duration_since(SystemTime::now())
        .map(|left| left.as_secs())
        .unwrap_or(0);
    println!(
        "{} token for {repository}: send it to {} for {valid_for} s more (cached copy identical: {})",
        token.token_type(),
        token.cas_url(),
        token.access_token() == again.access_token()
    );
    Ok(())
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
