//! Lists every notification across all pages, optionally only unread ones, and can mark them
//! all read afterwards.
//!
//! ```sh
//! HUB_TOKEN=... cargo run --example notifications -- --base-url https://hub.example.com [--unread] [--mark-read]
//! ```

use futures_util::StreamExt;
use hub_api::Client;
use hub_api::notifications::{NotificationFilter, NotificationSelection, ReadStatus};
use hub_api::types::Notification;

const USAGE: &str = "\
usage: notifications --base-url <url> [--unread] [--mark-read]

Lists every notification across all pages (the hub token is read from HUB_TOKEN).
  --base-url <url>  the hub, e.g. https://hub.example.com
  --unread          only unread notifications
  --mark-read       afterwards, mark the listed notifications read";

#[tokio::main]
async fn main() -> Result<(), hub_api::Report> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if wants_help(&args) {
        println!("{USAGE}");
        return Ok(());
    }
    let base_url = option(&args, "--base-url").ok_or_else(|| hub_api::Report::msg(USAGE))?;
    let client = Client::new(base_url)?;
    let filter = NotificationFilter {
        read_status: args
            .iter()
            .any(|arg| arg == "--unread")
            .then_some(ReadStatus::Unread),
        ..Default::default()
    };

    let mut notifications = std::pin::pin!(client.notifications(filter.clone()));
    let mut count = 0;
    // A notification that breaks the spec is reported in its place; the others still come.
    while let Some(notification) = notifications.next().await {
        match notification {
            Ok(notification) => {
                count += 1;
                println!("{}", describe(&notification));
            }
            Err(hub_api::Error::InvalidItem(bad)) => eprintln!("skipped: {bad}"),
            Err(error) => return Err(error.into()),
        }
    }
    println!("{count} notification(s)");

    if args.iter().any(|arg| arg == "--mark-read") {
        client
            .mark_notifications_read(&NotificationSelection::all_matching(filter), true)
            .await?;
        println!("marked read");
    }
    Ok(())
}

fn describe(notification: &Notification) -> String {
    match notification {
        Notification::Paper(paper) => format!("paper  {}", paper.paper.title),
        Notification::Repo(repo) => format!(
            "repo   {} #{} {}",
            repo.repo.name, repo.discussion.num, repo.discussion.title
        ),
        Notification::Post(post) => format!("post   {}", post.post.title),
        Notification::CommunityBlog(blog) => format!("blog   {}", blog.blog.title),
        // A kind a newer hub added: its object as the hub sent it.
        Notification::Unknown(object) => format!(
            "other  {}",
            object
                .get("type")
                .and_then(|kind| kind.as_str())
                .unwrap_or("?")
        ),
        _ => "other".to_owned(),
    }
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
