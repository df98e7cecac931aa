//! `hub-cli`: the `hub` command line (`src/main.rs`) as a library, so that its tests can walk
//! every command. [`OPERATIONS`] and [`GROUPS`] are generated from the spec by
//! `cargo xtask regen` (`generated.rs`); [`run`] turns them into clap commands and calls;
//! `library.rs` sends the operations the `hub-api` library has a helper for through it.

#[rustfmt::skip]
mod generated;
mod library;
pub mod run;

pub use generated::{GROUPS, OPERATIONS};
pub use library::HELPERS;

use run::{Call, Failure, Paging, Reply};

/// At most this many pages for `--paginate` over the generated client (a guard against a hub
/// that never answers an empty page).
pub const MAX_PAGES: u64 = 100_000;

/// Sends `call`: through the library's helper where it has one, else through the generated
/// client, page after page with `--paginate`.
///
/// What is printed is the body as the hub sent it (see [`Call::as_sent`]), once the call
/// decoded it into its generated type, which checks it against the spec.
pub async fn send(call: &Call<'_>) -> Result<Reply, Failure> {
    if let Some(reply) = library::send(call).await {
        return reply;
    }
    match &call.operation().paging {
        Some(paging) if call.paginate() => paginate(call, paging).await,
        _ => send_one(call).await,
    }
}

/// One call of the generated client, its body as the hub sent it.
async fn send_one(call: &Call<'_>) -> Result<Reply, Failure> {
    let (reply, bodies) = hub_api::as_sent::recording(generated::send(call)).await;
    Ok(call.as_sent(reply?, &bodies, "", &[]))
}

/// Every page from 0 until one has no items, as one array.
async fn paginate(call: &Call<'_>, paging: &Paging) -> Result<Reply, Failure> {
    let mut all = Vec::new();
    let mut warnings = Vec::new();
    for page in 0..MAX_PAGES {
        call.set_page(page);
        let reply = send_one(call).await?;
        warnings.extend(reply.warnings);
        let items = run::page_items(reply.body, paging.items);
        if items.is_empty() {
            break;
        }
        all.extend(items);
    }
    Ok(Reply {
        body: Some(serde_json::Value::Array(all)),
        warnings,
        notes: Vec::new(),
    })
}
