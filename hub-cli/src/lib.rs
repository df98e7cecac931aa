//! `hub-cli`: the `hub` command line (`src/main.rs`) as a library, so that its tests can walk
//! every command. [`OPERATIONS`] and [`GROUPS`] are generated from the spec by
//! `cargo xtask regen` (`generated.rs`); [`run`] turns them into clap commands and calls.

#[rustfmt::skip]
mod generated;
pub mod run;

pub use generated::{GROUPS, OPERATIONS, send};
