//! Revokes leaked hub tokens read from standard input, one per line. Tokens are read from stdin
//! rather than arguments so that they never show in the process list or the shell history; no
//! hub token is needed (revocation is unauthenticated).
//!
//! ```sh
//! cargo run --example revoke_credentials -- --base-url https://hub.example.com < leaked.txt
//! ```

use std::io::BufRead;

use hub_api::Client;

const USAGE: &str = "\
usage: revoke_credentials --base-url <url> < tokens.txt

Revokes the leaked tokens read from standard input, one per line (never from arguments, so
they stay out of the process list and the shell history). No hub token is needed.
  --base-url <url>  the hub, e.g. https://hub.example.com";

#[tokio::main]
async fn main() -> Result<(), hub_api::Report> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if wants_help(&args) {
        println!("{USAGE}");
        return Ok(());
    }
    let base_url = option(&args, "--base-url").ok_or_else(|| hub_api::Report::msg(USAGE))?;
    let client = Client::builder(base_url).anonymous().build()?;

    let mut tokens = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let token = line.trim();
        if !token.is_empty() {
            tokens.push(token.to_owned());
        }
    }

    let report = client.revoke_credentials(tokens).await?;
    println!(
        "{} token(s) submitted in {} request(s); the hub accepts unknown tokens too, so this says nothing about their validity",
        report.tokens, report.requests
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
