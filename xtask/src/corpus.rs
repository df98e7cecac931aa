//! `cargo xtask corpus [--out DIR] [--oracle] [NAME...]`: generates a client crate for every
//! real-world API description in `../shared/corpus/` (beside the workspace) and `cargo check`s
//! each, then prints one row per document and a total line, and writes the same table to
//! `<out>/corpus.md`.
//!
//! With `--oracle` (opt-in: it builds every crate into a binary, see [`oracle`]), each crate
//! that compiles is also checked by the differential oracle against the document's own schemas;
//! the table gains the targets checked, instances, disagreements and the harness's build and run
//! times, and `<out>/logs/<stem>-oracle.txt` holds every disagreement. Disagreements do not fail
//! the command (yet).
//!
//! Generation runs the `xtask-regen` binary, built once and then started directly for each
//! document (as `cargo xtask generate` would run it, without cargo's start-up every time), under
//! a timeout so that a generator that loops cannot hang CI. The crates are checked one after
//! the other against one shared target directory, so their dependencies (the same pinned
//! versions in every generated crate) are built once.
//!
//! A row counts the operations of the source document, those `report.txt` says were left out,
//! the lines of `src/generated.rs`, the check's time and warnings, and the findings by kind
//! from the report's summary line. The command fails when a document is refused whole, does not
//! compile, or compiles with warnings; operations left out are reported, not failed on.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

mod directory;
mod oracle;

const USAGE: &str = "usage: cargo xtask corpus [--out DIR] [--oracle] [NAME...]
       cargo xtask corpus --directory ... (see `cargo xtask help`)";
/// Where the descriptions are, relative to the folder that holds the workspace.
const CORPUS_DIR: &str = "shared/corpus";
/// The generated crates and `corpus.md`, unless `--out` says otherwise (ignored by git).
const DEFAULT_OUT: &str = "target/corpus";
/// The target directory every generated crate is checked into, so dependencies build once.
const CHECK_TARGET: &str = "target/corpus-target";
/// The largest description takes well under a minute today; ten minutes means a hang.
const GENERATE_TIMEOUT: Duration = Duration::from_secs(600);
/// How often a running generation is asked whether it has finished.
const POLL_INTERVAL: Duration = Duration::from_millis(50);
/// The HTTP methods a path item can hold an operation under (OpenAPI 3.x and Swagger 2.0).
const METHODS: &[&str] = &[
    "get", "put", "post", "delete", "options", "head", "patch", "trace",
];

/// `cargo xtask corpus`: a missing corpus is nothing to check.
pub fn command(root: &Path, args: &[String]) -> Result<()> {
    if args.iter().any(|arg| arg == "--directory") {
        let rest: Vec<String> = args
            .iter()
            .filter(|arg| *arg != "--directory")
            .cloned()
            .collect();
        return directory::command(root, &rest);
    }
    let mut out = None;
    let mut with_oracle = false;
    let mut names = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--out" => {
                let dir = args.next().context(USAGE)?;
                // The crates are checked from their own folders, so the path must not depend
                // on where `cargo xtask` was called.
                let here = std::env::current_dir().context("reading the current directory")?;
                out = Some(here.join(dir));
            }
            "--oracle" => with_oracle = true,
            flag if flag.starts_with('-') => bail!("unknown argument `{flag}`\n{USAGE}"),
            name => names.push(name.to_owned()),
        }
    }
    let dir = corpus_dir(root);
    if !dir.is_dir() {
        println!(
            "corpus: there is no {} beside the workspace; nothing to check",
            dir.display()
        );
        return Ok(());
    }
    let documents = select(documents(&dir)?, &names)?;
    run(
        root,
        &documents,
        &out.unwrap_or_else(|| root.join(DEFAULT_OUT)),
        with_oracle,
    )
}

/// The corpus step of `cargo xtask test`. CI always checks out `shared/` beside the workspace,
/// so there a missing corpus means a broken checkout, not a machine without it.
pub fn test_step(root: &Path) -> Result<()> {
    let dir = corpus_dir(root);
    if dir.is_dir() {
        println!(
            "corpus: a client crate for each real-world description in {}, each `cargo check`ed \
             (`cargo xtask corpus`)",
            dir.display()
        );
        run(root, &documents(&dir)?, &root.join(DEFAULT_OUT), false)?;
    } else if in_ci() {
        bail!(
            "{} is missing; CI always has shared/ beside the workspace",
            dir.display()
        );
    } else {
        println!(
            "corpus: there is no {} beside the workspace; skipped",
            dir.display()
        );
    }
    // Beside the twelve, a fixed sample of the public API directory (installed from npm, so
    // never missing), held to the committed classes of its documents.
    directory::test_step(root).context("the directory sample")
}

/// `CI` set to anything but an explicit no, as CI services set it.
fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|value| !matches!(value.as_str(), "" | "0" | "false"))
}

fn corpus_dir(root: &Path) -> PathBuf {
    root.parent().unwrap_or(root).join(CORPUS_DIR)
}

/// The descriptions in `dir` (YAML or JSON; the README is not one), by file name.
fn documents(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut documents = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let path = entry
            .with_context(|| format!("reading {}", dir.display()))?
            .path();
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        if path.is_file() && matches!(extension, "yaml" | "yml" | "json") {
            documents.push(path);
        }
    }
    documents.sort();
    Ok(documents)
}

/// The documents `names` name (by file stem or file name, ignoring case); all without names.
fn select(documents: Vec<PathBuf>, names: &[String]) -> Result<Vec<PathBuf>> {
    if names.is_empty() {
        return Ok(documents);
    }
    let matches = |path: &Path, name: &str| {
        [path.file_stem(), path.file_name()]
            .into_iter()
            .flatten()
            .any(|part| part.to_string_lossy().eq_ignore_ascii_case(name))
    };
    // Every name must match, so that a typo is not a silently shorter run.
    let unknown: Vec<&str> = names
        .iter()
        .filter(|name| !documents.iter().any(|path| matches(path, name)))
        .map(String::as_str)
        .collect();
    if !unknown.is_empty() {
        let known: Vec<String> = documents.iter().map(|path| file_name(path)).collect();
        bail!(
            "no document named {}; the corpus has {}",
            unknown.join(", "),
            known.join(", ")
        );
    }
    Ok(documents
        .into_iter()
        .filter(|path| names.iter().any(|name| matches(path, name)))
        .collect())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Generates and checks `documents` into `out` (and, `with_oracle`, runs the oracle on each),
/// prints the table and writes `corpus.md`.
fn run(root: &Path, documents: &[PathBuf], out: &Path, with_oracle: bool) -> Result<()> {
    let started = Instant::now();
    let binary = regen_binary(root)?;
    let logs = out.join("logs");
    std::fs::create_dir_all(&logs).with_context(|| format!("creating {}", logs.display()))?;
    let check_target = root.join(CHECK_TARGET);
    let oracle_target = with_oracle.then(|| root.join(oracle::TARGET));
    let mut rows = Vec::new();
    for document in documents {
        let places = Places {
            root,
            out,
            logs: &logs,
            check_target: &check_target,
            oracle_target: oracle_target.as_deref(),
        };
        rows.push(document_row(&binary, document, &places)?);
    }
    let table = Table {
        rows,
        seconds: started.elapsed().as_secs_f64(),
        with_oracle,
    };
    print!("\n{}", table.text());
    let markdown_path = out.join("corpus.md");
    std::fs::write(&markdown_path, table.markdown())
        .with_context(|| format!("writing {}", markdown_path.display()))?;
    println!(
        "corpus: table in {}; generation and check output in {}",
        markdown_path.display(),
        logs.display()
    );
    let failing: Vec<String> = table.rows.iter().filter_map(Row::failure).collect();
    if !failing.is_empty() {
        bail!(
            "corpus: {} of {} documents fail: {}",
            failing.len(),
            table.rows.len(),
            failing.join(", ")
        );
    }
    Ok(())
}

/// Builds `xtask-regen` and returns its executable, as cargo reports it: that is right whatever
/// `CARGO_TARGET_DIR` or a cargo config says the target directory is.
fn regen_binary(root: &Path) -> Result<PathBuf> {
    let messages =
        crate::conformance::built_artifacts(root, &["build", "--package", "xtask-regen"])
            .context("building xtask-regen")?;
    messages
        .iter()
        .filter(|message| {
            message["reason"] == "compiler-artifact" && message["target"]["name"] == "xtask-regen"
        })
        .find_map(|message| message["executable"].as_str())
        .map(PathBuf::from)
        .context("cargo built no xtask-regen executable")
}

/// Where one run reads and writes.
struct Places<'a> {
    root: &'a Path,
    out: &'a Path,
    logs: &'a Path,
    check_target: &'a Path,
    /// The harnesses' target directory; `None` when the oracle does not run.
    oracle_target: Option<&'a Path>,
}

/// Generates one document's crate into `out/<stem>` and checks it (and runs the oracle on it).
fn document_row(binary: &Path, document: &Path, places: &Places<'_>) -> Result<Row> {
    let Places {
        root,
        out,
        logs,
        check_target,
        oracle_target,
    } = *places;
    let name = file_name(document);
    let stem = crate_stem(document);
    let crate_name = format!("corpus-{stem}");
    let crate_dir = out.join(&stem);
    let normalized = oracle::normalized_path(&crate_dir);
    // Nor may an earlier run's normalized document pass for this run's.
    if normalized.is_file() {
        std::fs::remove_file(&normalized)
            .with_context(|| format!("removing the old {}", normalized.display()))?;
    }
    // A crate left from an earlier run must not pass for this run's when generation now fails;
    // only a folder that looks generated (it has a report) is removed.
    if crate_dir.join("report.txt").is_file() {
        std::fs::remove_dir_all(&crate_dir)
            .with_context(|| format!("removing the old {}", crate_dir.display()))?;
    }
    let text = std::fs::read_to_string(document).with_context(|| format!("reading {name}"))?;
    let source = count_operations(&text);
    let mut row = Row {
        document: name.clone(),
        total: source.as_ref().map(operation_count),
        generated: None,
        lines: None,
        check_seconds: None,
        warnings: None,
        summary: None,
        status: Status::Ok,
        oracle: None,
    };

    let mut command = Command::new(binary);
    command
        .arg("generate")
        .arg("--spec")
        .arg(document)
        .arg("--out")
        .arg(&crate_dir)
        .args(["--crate-name", &crate_name]);
    if oracle_target.is_some() {
        command.arg("--normalized").arg(&normalized);
    }
    let generation = run_with_timeout(command, GENERATE_TIMEOUT)
        .with_context(|| format!("running xtask-regen generate on {name}"))?;
    write_log(
        &logs.join(format!("{stem}-generate.txt")),
        &generation.stdout,
        &generation.stderr,
    )?;
    let refusal = match generation.status {
        None => Some(format!("timed out after {} s", GENERATE_TIMEOUT.as_secs())),
        Some(status) if !status.success() => Some(first_error_line(&generation.stderr, status)),
        Some(_) => None,
    };
    if let Some(reason) = refusal {
        println!(
            "corpus: {name}: refused ({:.1} s)",
            generation.elapsed.as_secs_f64()
        );
        row.generated = Some(0);
        row.status = Status::Refused(reason);
        return Ok(row);
    }

    let report_path = crate_dir.join("report.txt");
    let report = std::fs::read_to_string(&report_path)
        .with_context(|| format!("reading {}", report_path.display()))?;
    row.summary = report.lines().next().and_then(parse_summary);
    row.generated = source.as_ref().and_then(|source| {
        let left_out = operations_left_out(&report, source)?;
        operation_count(source).checked_sub(left_out)
    });
    let generated_rs = crate_dir.join("src/generated.rs");
    row.lines = std::fs::read_to_string(&generated_rs)
        .ok()
        .map(|text| text.lines().count());

    let check = check(&crate_dir, check_target)?;
    write_log(&logs.join(format!("{stem}-check.txt")), "", &check.stderr)?;
    let diagnostics = Diagnostics::count(&check.stderr);
    row.check_seconds = Some(check.seconds);
    row.warnings = Some(diagnostics.warnings);
    if !check.status.success() {
        row.status = if diagnostics.could_not_compile {
            Status::DoesNotCompile(diagnostics.errors)
        } else {
            Status::CheckFailed(first_error_line(&check.stderr, check.status))
        };
    }
    println!(
        "corpus: {name}: generated ({:.1} s), checked ({:.1} s)",
        generation.elapsed.as_secs_f64(),
        check.seconds
    );
    if let (Some(target), Status::Ok) = (oracle_target, &row.status) {
        let harness = oracle::write_harness(root, &crate_dir, &crate_name)?;
        let log = logs.join(format!("{stem}-oracle.txt"));
        let outcome = oracle::build_and_run(&harness, target, &normalized, &log)?;
        match &outcome {
            oracle::Outcome::Ran {
                summary,
                build_seconds,
                run_seconds,
            } => println!(
                "corpus: {name}: oracle built ({build_seconds:.1} s), ran ({run_seconds:.1} s): \
                 {} disagreements over {} instances",
                summary.disagreements, summary.instances
            ),
            oracle::Outcome::Failed { why, .. } => println!("corpus: {name}: oracle {why}"),
        }
        row.oracle = Some(outcome);
    }
    Ok(row)
}

/// The file stem as a crate name's tail: lowercase, and anything but letters, digits, `-` and
/// `_` turned into `-`.
fn crate_stem(document: &Path) -> String {
    document
        .file_stem()
        .map(|stem| stem.to_string_lossy())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect()
}

fn write_log(path: &Path, stdout: &str, stderr: &str) -> Result<()> {
    std::fs::write(path, format!("{stdout}{stderr}"))
        .with_context(|| format!("writing {}", path.display()))
}

/// The first line of what a failed process said (without its `error: ` prefix), or its exit
/// status when it said nothing.
fn first_error_line(stderr: &str, status: ExitStatus) -> String {
    let line = stderr
        .lines()
        .find(|line| line.starts_with("error"))
        .or_else(|| stderr.lines().find(|line| !line.trim().is_empty()));
    match line {
        Some(line) => line
            .strip_prefix("error: ")
            .unwrap_or(line)
            .trim()
            .to_owned(),
        None => format!("exited with {status}"),
    }
}

/// How a child process ended and what it printed; no status means it was killed at the timeout.
struct Finished {
    status: Option<ExitStatus>,
    stdout: String,
    stderr: String,
    elapsed: Duration,
}

/// Runs `command` to its end or until `timeout`, when it is killed. Its output is read on two
/// threads while it runs, so that a full pipe cannot stall it. Only for a process that starts
/// no others: a surviving child could keep the pipes open after the kill.
fn run_with_timeout(mut command: Command, timeout: Duration) -> Result<Finished> {
    let started = Instant::now();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if started.elapsed() >= timeout {
            // The process may have ended since it was last asked; either way it is gone after.
            let _ = child.kill();
            child.wait()?;
            break None;
        }
        thread::sleep(POLL_INTERVAL);
    };
    let elapsed = started.elapsed();
    Ok(Finished {
        status,
        stdout: stdout.join().unwrap_or_default(),
        stderr: stderr.join().unwrap_or_default(),
        elapsed,
    })
}

fn drain(pipe: Option<impl Read + Send + 'static>) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        if let Some(mut pipe) = pipe {
            // A read error ends the capture; what was read is still worth reporting.
            let _ = pipe.read_to_end(&mut bytes);
        }
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

struct Checked {
    status: ExitStatus,
    stderr: String,
    seconds: f64,
}

/// `cargo check` in a generated crate, into the shared `target`. Cargo's short messages put
/// each diagnostic on one line, which is what [`Diagnostics::count`] reads.
fn check(crate_dir: &Path, target: &Path) -> Result<Checked> {
    let started = Instant::now();
    let output = crate::cargo_command()
        .args(["check", "--message-format", "short"])
        .current_dir(crate_dir)
        .env("CARGO_TARGET_DIR", target)
        // Each generated crate is checked once per run; incremental caches of the twelve
        // took 3.9 GB for nothing.
        .env("CARGO_INCREMENTAL", "0")
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running cargo check in {}", crate_dir.display()))?;
    Ok(Checked {
        status: output.status,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The warnings and errors in the output of `cargo check --message-format short`, for the
/// crate checked (the dependencies' lints are capped by cargo).
#[derive(Debug, Default, PartialEq)]
struct Diagnostics {
    warnings: usize,
    errors: usize,
    /// Cargo said the crate itself failed to compile (rather than, say, a dependency failing
    /// to resolve).
    could_not_compile: bool,
}

impl Diagnostics {
    fn count(stderr: &str) -> Self {
        let mut diagnostics = Self::default();
        for line in stderr.lines() {
            // Cargo prints identical short messages once (a macro expanded twice), but its
            // closing tallies count every one: the larger of the two counts is the real one.
            if let Some(message) = diagnostic(line, "warning") {
                // `` `x` (lib) generated 4 warnings (2 duplicates)``
                if message.starts_with('`')
                    && let Some(tally) = number_after(message, " generated ")
                {
                    diagnostics.warnings = diagnostics.warnings.max(tally);
                } else if !message.starts_with("build failed") {
                    // "build failed, waiting for other jobs" is about the errors.
                    diagnostics.warnings += 1;
                }
            } else if let Some(message) = diagnostic(line, "error") {
                if message.starts_with("could not compile") {
                    diagnostics.could_not_compile = true;
                    // `` `x` (lib) due to 2 previous errors; 1 warning emitted``
                    if let Some(tally) = number_after(message, " due to ") {
                        diagnostics.errors = diagnostics.errors.max(tally);
                    }
                } else if !message.starts_with("aborting due to") {
                    diagnostics.errors += 1;
                }
            }
        }
        diagnostics
    }
}

/// The number that follows `marker` in `text`.
fn number_after(text: &str, marker: &str) -> Option<usize> {
    let (_, tail) = text.split_once(marker)?;
    tail.split(' ').next()?.parse().ok()
}

/// The message of a `level` diagnostic line: `level: message` or `level[code]: message`, alone
/// (from cargo) or after a `file:line:column: ` location (rustc's short form).
fn diagnostic<'a>(line: &'a str, level: &str) -> Option<&'a str> {
    let after_level = line.strip_prefix(level).or_else(|| {
        let at = line.find(&format!(": {level}"))?;
        Some(&line[at + 2 + level.len()..])
    })?;
    let after_code = match after_level.strip_prefix('[') {
        Some(code) => &code[code.find(']')? + 1..],
        None => after_level,
    };
    after_code.strip_prefix(": ")
}

/// The operations of a document: each path's methods.
type Operations = BTreeMap<String, BTreeSet<String>>;

fn operation_count(operations: &Operations) -> usize {
    operations.values().map(BTreeSet::len).sum()
}

/// The operations of a description, OpenAPI 3.x or Swagger 2.0 (both keep them under `paths`),
/// or `None` when they cannot be told. JSON is read as JSON (some `.yaml` files of the corpus
/// are JSON); YAML by its lines, as xtask has no YAML parser.
fn count_operations(text: &str) -> Option<Operations> {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(document) => json_operations(&document),
        Err(_) => yaml_operations(text),
    }
}

fn json_operations(document: &serde_json::Value) -> Option<Operations> {
    let Some(paths) = document.get("paths") else {
        return Some(Operations::new());
    };
    let mut operations = Operations::new();
    for (path, item) in paths.as_object()? {
        if !path.starts_with('/') {
            // An `x-` extension of the paths object.
            continue;
        }
        let item = item.as_object()?;
        // A path item that is a `$ref` holds operations this count cannot see.
        if item.contains_key("$ref") {
            return None;
        }
        let methods = item
            .keys()
            .filter(|key| METHODS.contains(&key.as_str()))
            .cloned()
            .collect();
        operations.insert(path.clone(), methods);
    }
    Some(operations)
}

/// The operations of a block-style YAML document, read from its lines: the keys of the
/// top-level `paths` mapping are the first indentation level below it, their methods the next.
/// A deeper line belongs to an operation, and the content of a block scalar is always deeper
/// than its key, so it cannot be mistaken for a path or a method. Anything this reading is not
/// sure of (flow style, anchors, a `$ref` path item, uneven indentation) gives `None`.
fn yaml_operations(text: &str) -> Option<Operations> {
    let mut lines = text
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.trim_start().is_empty() && !line.trim_start().starts_with('#'));
    loop {
        let line = lines.next()?;
        if indent(line) == 0
            && let Some((key, value)) = mapping_entry(line)
            && key == "paths"
        {
            match value {
                "" => break,
                "{}" => return Some(Operations::new()),
                _ => return None,
            }
        }
    }
    let mut operations = Operations::new();
    let mut path_indent = None;
    // The path item being read, and the indentation of its keys once seen.
    let mut item: Option<(String, Option<usize>)> = None;
    for line in lines {
        let depth = indent(line);
        if depth == 0 {
            // The next top-level key: `paths` is over.
            break;
        }
        let path_indent = *path_indent.get_or_insert(depth);
        if depth < path_indent {
            return None;
        }
        if depth == path_indent {
            let (key, value) = mapping_entry(line)?;
            item = None;
            if key.starts_with('/') {
                if !matches!(value, "" | "{}") {
                    return None;
                }
                operations.insert(key.clone(), BTreeSet::new());
                item = Some((key, None));
            }
            continue;
        }
        let Some((path, key_indent)) = &mut item else {
            // Inside an `x-` extension of the paths object.
            continue;
        };
        let key_indent = *key_indent.get_or_insert(depth);
        if depth < key_indent {
            return None;
        }
        if depth == key_indent {
            let (key, _) = mapping_entry(line)?;
            if key == "$ref" {
                return None;
            }
            if METHODS.contains(&key.as_str()) {
                operations.get_mut(path.as_str())?.insert(key);
            }
        }
    }
    Some(operations)
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// A block mapping entry, `key:` or `key: value`: the key (plain, single- or double-quoted)
/// as text, and the value with any comment removed. `None` for anything else.
fn mapping_entry(line: &str) -> Option<(String, &str)> {
    let line = line.trim_start();
    let (key, rest) = match line.chars().next()? {
        '\'' => {
            // Inside single quotes, `''` is a quote.
            let mut key = String::new();
            let mut chars = line.char_indices().skip(1).peekable();
            loop {
                let (at, c) = chars.next()?;
                if c != '\'' {
                    key.push(c);
                } else if chars.peek().is_some_and(|&(_, next)| next == '\'') {
                    key.push('\'');
                    chars.next();
                } else {
                    break (key, &line[at + 1..]);
                }
            }
        }
        '"' => {
            // Only the escapes a path could plausibly need are read.
            let mut key = String::new();
            let mut chars = line.char_indices().skip(1);
            loop {
                match chars.next()? {
                    (at, '"') => break (key, &line[at + 1..]),
                    (_, '\\') => match chars.next()? {
                        (_, c @ ('"' | '\\' | '/')) => key.push(c),
                        _ => return None,
                    },
                    (_, c) => key.push(c),
                }
            }
        }
        // A sequence entry, a flow collection, an anchor, an alias, a tag, a complex key.
        '-' | '?' | '[' | '{' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`' => return None,
        _ => {
            // A plain key ends at the first `: ` (a colon inside it, as in `/v1/x:cancel`, is
            // part of it) or at a colon that ends the line.
            let end = line
                .find(": ")
                .or_else(|| line.ends_with(':').then(|| line.len() - 1))?;
            (line[..end].trim_end().to_owned(), &line[end..])
        }
    };
    let value = rest.trim_start().strip_prefix(':')?.trim();
    let value = if value.starts_with('#') {
        ""
    } else {
        value.split(" #").next().unwrap_or(value).trim_end()
    };
    Some((key, value))
}

/// The report's summary line: how many findings of each kind.
#[derive(Debug, Default, PartialEq)]
struct Summary {
    repaired: usize,
    defects: usize,
    unenforced: usize,
    skipped: usize,
}

/// Reads `26 repaired, 1 defects of the description, 7 rules not enforced, 2 left out`; `None`
/// for a line of any other shape, so that a changed format shows as `?` rather than as zeros.
fn parse_summary(line: &str) -> Option<Summary> {
    let mut counts: [Option<usize>; 4] = [None; 4];
    for part in line.trim().split(", ") {
        let (number, label) = part.split_once(' ')?;
        let slot = match label {
            "repaired" => 0,
            "defects of the description" => 1,
            "rules not enforced" => 2,
            "left out" => 3,
            _ => return None,
        };
        counts[slot] = Some(number.parse().ok()?);
    }
    let [repaired, defects, unenforced, skipped] = counts;
    Some(Summary {
        repaired: repaired?,
        defects: defects?,
        unenforced: unenforced?,
        skipped: skipped?,
    })
}

/// How many operations of `source` the report says were left out: a `skipped` finding at an
/// operation's pointer (`/paths/~1pets/get`) leaves that operation out, one at a path item's
/// pointer (`/paths/~1pets`) every operation of the path. Each operation counts once. `None`
/// when a path left out is not one `source` knows, so its operations cannot be counted.
fn operations_left_out(report: &str, source: &Operations) -> Option<usize> {
    let mut left_out = BTreeSet::new();
    for line in report.lines().skip(1) {
        let Some(finding) = line.strip_prefix("skipped ") else {
            continue;
        };
        let pointer = finding
            .split_once(": ")
            .map_or(finding, |(pointer, _)| pointer);
        let Some(tokens) = pointer.strip_prefix("/paths/") else {
            continue;
        };
        match tokens.split('/').collect::<Vec<_>>().as_slice() {
            [path] => {
                let path = unescape(path);
                for method in source.get(&path)? {
                    left_out.insert((path.clone(), method.clone()));
                }
            }
            [path, method] if METHODS.contains(method) => {
                left_out.insert((unescape(path), (*method).to_owned()));
            }
            // Deeper pointers are schemas and parameters, not operations.
            _ => {}
        }
    }
    Some(left_out.len())
}

/// The text of one JSON pointer token.
fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// What became of one document.
#[derive(Debug, PartialEq)]
enum Status {
    Ok,
    /// Generation failed (or timed out): the first line of its error.
    Refused(String),
    /// The crate was generated but rustc found this many errors.
    DoesNotCompile(usize),
    /// `cargo check` failed before compiling the crate (a dependency, the network).
    CheckFailed(String),
}

impl std::fmt::Display for Status {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Status::Ok => write!(formatter, "ok"),
            Status::Refused(reason) => write!(formatter, "refused: {reason}"),
            Status::DoesNotCompile(1) => write!(formatter, "does not compile (1 error)"),
            Status::DoesNotCompile(errors) => {
                write!(formatter, "does not compile ({errors} errors)")
            }
            Status::CheckFailed(reason) => write!(formatter, "check failed: {reason}"),
        }
    }
}

/// One document's line of the table; `None` is a figure that could not be told.
#[derive(Debug)]
struct Row {
    document: String,
    total: Option<usize>,
    generated: Option<usize>,
    lines: Option<usize>,
    check_seconds: Option<f64>,
    warnings: Option<usize>,
    summary: Option<Summary>,
    status: Status,
    /// The oracle's outcome; `None` when it did not run.
    oracle: Option<oracle::Outcome>,
}

const HEADER: [&str; 10] = [
    "document",
    "operations",
    "lines",
    "check s",
    "warnings",
    "repaired",
    "defect",
    "unenforced",
    "skipped",
    "status",
];

/// The oracle's columns, before `status`, with `--oracle`.
const ORACLE_HEADER: [&str; 5] = [
    "targets",
    "instances",
    "disagreements",
    "oracle build s",
    "oracle run s",
];

/// The header for a table with or without the oracle's columns.
fn header(with_oracle: bool) -> Vec<String> {
    let mut cells: Vec<String> = HEADER.iter().map(|cell| (*cell).to_owned()).collect();
    if with_oracle {
        let status = cells.pop().unwrap_or_default();
        cells.extend(ORACLE_HEADER.iter().map(|cell| (*cell).to_owned()));
        cells.push(status);
    }
    cells
}

impl Row {
    /// The row's cells; with the oracle's columns before the status when `with_oracle`.
    fn cells(&self, with_oracle: bool) -> Vec<String> {
        let mut cells = self.base_cells().to_vec();
        if with_oracle {
            let status = cells.pop().unwrap_or_default();
            cells.extend(self.oracle_cells());
            cells.push(match &self.oracle {
                Some(oracle::Outcome::Failed { why, .. }) => format!("{status}; oracle {why}"),
                _ => status,
            });
        }
        cells
    }

    /// `targets/components`, instances, disagreements, build and run seconds; `-` where the
    /// oracle did not run or did not get that far.
    fn oracle_cells(&self) -> [String; 5] {
        let dash = || "-".to_owned();
        let seconds = |s: f64| format!("{s:.1}");
        match &self.oracle {
            None => [dash(), dash(), dash(), dash(), dash()],
            Some(oracle::Outcome::Failed { build_seconds, .. }) => [
                dash(),
                dash(),
                dash(),
                build_seconds.map_or_else(dash, seconds),
                dash(),
            ],
            Some(oracle::Outcome::Ran {
                summary,
                build_seconds,
                run_seconds,
            }) => [
                format!("{}/{}", summary.targets, summary.components),
                summary.instances.to_string(),
                summary.disagreements.to_string(),
                seconds(*build_seconds),
                seconds(*run_seconds),
            ],
        }
    }

    fn base_cells(&self) -> [String; 10] {
        let number = |value: Option<usize>| value.map_or_else(|| "?".to_owned(), |n| n.to_string());
        // Columns of a step that did not run are `-`; `?` is a figure that could not be read.
        let checked = self.check_seconds.is_some();
        let or_dash = |cell: String, ran: bool| if ran { cell } else { "-".to_owned() };
        let generated = !matches!(self.status, Status::Refused(_));
        let summary = |pick: fn(&Summary) -> usize| {
            or_dash(number(self.summary.as_ref().map(pick)), generated)
        };
        [
            self.document.clone(),
            format!("{}/{}", number(self.generated), number(self.total)),
            or_dash(number(self.lines), generated),
            self.check_seconds
                .map_or_else(|| "-".to_owned(), |s| format!("{s:.1}")),
            or_dash(number(self.warnings), checked),
            summary(|s| s.repaired),
            summary(|s| s.defects),
            summary(|s| s.unenforced),
            summary(|s| s.skipped),
            self.status.to_string(),
        ]
    }

    /// Why this document fails the command, if it does.
    fn failure(&self) -> Option<String> {
        let why = match (&self.status, self.warnings) {
            (Status::Refused(_), _) => "refused".to_owned(),
            (Status::DoesNotCompile(_), _) => "does not compile".to_owned(),
            (Status::CheckFailed(_), _) => "check failed".to_owned(),
            (Status::Ok, Some(warnings)) if warnings > 0 => format!("{warnings} warnings"),
            (Status::Ok, _) => return None,
        };
        Some(format!("{} ({why})", self.document))
    }
}

struct Table {
    rows: Vec<Row>,
    /// The whole run, build of `xtask-regen` included.
    seconds: f64,
    /// The oracle's columns are shown.
    with_oracle: bool,
}

impl Table {
    /// The table aligned for a terminal, then the total line.
    fn text(&self) -> String {
        let cells: Vec<Vec<String>> = std::iter::once(header(self.with_oracle))
            .chain(self.rows.iter().map(|row| row.cells(self.with_oracle)))
            .collect();
        let last = cells[0].len() - 1;
        let mut widths = vec![0; cells[0].len()];
        for row in &cells {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        let mut text = String::new();
        for row in &cells {
            let mut line = String::new();
            for (column, (cell, &width)) in row.iter().zip(&widths).enumerate() {
                // The document and the status read as text; the figures line up on the right.
                match column {
                    0 => write!(line, "{cell:<width$}  "),
                    _ if column == last => write!(line, "{cell}"),
                    _ => write!(line, "{cell:>width$}  "),
                }
                .expect("writing to a String");
            }
            text.push_str(line.trim_end());
            text.push('\n');
        }
        text.push_str(&self.total());
        text.push('\n');
        text
    }

    fn markdown(&self) -> String {
        let escape = |cell: &str| cell.replace('|', "\\|");
        let header = header(self.with_oracle);
        let mut text = format!(
            "# `cargo xtask corpus`\n\nOne client crate per description in `../shared/corpus/`, \
             each `cargo check`ed. `operations` is generated/total; `?` is a figure that could \
             not be read, `-` a step that did not run.\n\n| {} |\n|{}\n",
            header.join(" | "),
            "---|".repeat(header.len())
        );
        for row in &self.rows {
            let cells: Vec<String> = row
                .cells(self.with_oracle)
                .iter()
                .map(|cell| escape(cell))
                .collect();
            text.push_str(&format!("| {} |\n", cells.join(" | ")));
        }
        text.push('\n');
        text.push_str(&self.total());
        text.push('\n');
        text
    }

    fn total(&self) -> String {
        let counted: Vec<(usize, usize)> = self
            .rows
            .iter()
            .filter_map(|row| Some((row.generated?, row.total?)))
            .collect();
        let generated: usize = counted.iter().map(|(generated, _)| generated).sum();
        let total: usize = counted.iter().map(|(_, total)| total).sum();
        let uncounted = self.rows.len() - counted.len();
        let uncounted = if uncounted == 0 {
            String::new()
        } else {
            format!(" ({uncounted} documents not counted)")
        };
        let count = |wanted: fn(&Status) -> bool| {
            self.rows.iter().filter(|row| wanted(&row.status)).count()
        };
        let warned = self
            .rows
            .iter()
            .filter(|row| row.warnings.is_some_and(|warnings| warnings > 0))
            .count();
        let mut line = format!(
            "total: {} documents, {generated}/{total} operations generated{uncounted}; {} ok, \
             {} refused, {} do not compile, {} check failed, {warned} with warnings; {:.0} s",
            self.rows.len(),
            count(|status| *status == Status::Ok),
            count(|status| matches!(status, Status::Refused(_))),
            count(|status| matches!(status, Status::DoesNotCompile(_))),
            count(|status| matches!(status, Status::CheckFailed(_))),
            self.seconds
        );
        if self.with_oracle {
            line.push('\n');
            line.push_str(&self.oracle_total());
        }
        line
    }

    /// The oracle's line: its figures summed over the documents it ran on, and its time.
    fn oracle_total(&self) -> String {
        let (mut ran, mut failed) = (0, 0);
        let mut sum = oracle::Summary::default();
        let (mut build, mut run) = (0.0, 0.0);
        for outcome in self.rows.iter().filter_map(|row| row.oracle.as_ref()) {
            match outcome {
                oracle::Outcome::Ran {
                    summary,
                    build_seconds,
                    run_seconds,
                } => {
                    ran += 1;
                    sum.components += summary.components;
                    sum.targets += summary.targets;
                    sum.missing += summary.missing;
                    sum.files += summary.files;
                    sum.instances += summary.instances;
                    sum.disagreements += summary.disagreements;
                    sum.synthesized += summary.synthesized;
                    sum.unseeded += summary.unseeded;
                    build += build_seconds;
                    run += run_seconds;
                }
                oracle::Outcome::Failed { build_seconds, .. } => {
                    failed += 1;
                    build += build_seconds.unwrap_or(0.0);
                }
            }
        }
        format!(
            "oracle: ran on {ran} documents ({failed} failed); {}/{} components checked ({} not \
             in the registry, {} holding a multipart file; {} seeded by synthesis, {} without a \
             valid seed), {} instances, {} disagreements; build {build:.0} s, run {run:.0} s",
            sum.targets,
            sum.components,
            sum.missing,
            sum.files,
            sum.synthesized,
            sum.unseeded,
            sum.instances,
            sum.disagreements
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn methods(operations: &Operations, path: &str) -> Vec<String> {
        operations[path].iter().cloned().collect()
    }

    #[test]
    fn yaml_operations_are_the_method_keys_of_each_path() {
        let text = "\
openapi: 3.1.0
info:
  title: t # paths: in a comment
paths:
  # a comment
  /pets:
    summary: all of them
    parameters:
      - name: get
        in: query
    get:
      description: |
        post:
          not a method, block scalar content

      responses: {}
    post:
      responses: {}
  '/pets/{id}:adopt':
    put: {}
  x-extension: 1
  \"/a\\\"b\":
    delete: {}
  /empty: {}
components:
  schemas: {}
";
        let operations = yaml_operations(text).expect("readable");
        assert_eq!(operation_count(&operations), 4);
        assert_eq!(methods(&operations, "/pets"), ["get", "post"]);
        assert_eq!(methods(&operations, "/pets/{id}:adopt"), ["put"]);
        assert_eq!(methods(&operations, "/a\"b"), ["delete"]);
        assert!(operations["/empty"].is_empty());
    }

    #[test]
    fn yaml_operations_give_up_rather_than_guess() {
        assert_eq!(yaml_operations("openapi: 3.0.0\n"), None);
        let reference = "paths:\n  /pets:\n    $ref: '#/components/pathItems/Pets'\n";
        assert_eq!(yaml_operations(reference), None);
        assert_eq!(yaml_operations("paths: {/pets: {get: {}}}\n"), None);
        assert_eq!(
            yaml_operations("paths: {}\n").map(|o| operation_count(&o)),
            Some(0)
        );
    }

    #[test]
    fn json_operations_survive_integers_beyond_64_bits() {
        let text = r#"{"swagger": "2.0", "paths": {
            "/a": {"get": {}, "parameters": [], "post": {"x": -9223372036854776000}},
            "x-ext": 1}}"#;
        let operations = count_operations(text).expect("readable");
        assert_eq!(operation_count(&operations), 2);
        assert_eq!(methods(&operations, "/a"), ["get", "post"]);
    }

    #[test]
    fn summary_line_is_read_by_kind() {
        let line = "26 repaired, 1 defects of the description, 7 rules not enforced, 2 left out";
        assert_eq!(
            parse_summary(line),
            Some(Summary {
                repaired: 26,
                defects: 1,
                unenforced: 7,
                skipped: 2
            })
        );
        assert_eq!(parse_summary("26 repaired, 2 left out"), None);
        assert_eq!(parse_summary("skipped /paths/~1a/get: x"), None);
    }

    #[test]
    fn operations_left_out_count_each_operation_once() {
        let source = yaml_operations(
            "paths:\n  /a/{b}:\n    get: {}\n    post: {}\n  /c:\n    get: {}\n    put: {}\n",
        )
        .expect("readable");
        let report = "\
0 repaired, 0 defects of the description, 0 rules not enforced, 4 left out
skipped /paths/~1a~1{b}/get: operation left out: a reason: with colons
skipped /paths/~1a~1{b}: path left out: another
skipped /paths/~1c/get/requestBody/content/application~1json/schema: read as any JSON value
skipped /webhooks/ping: webhooks are not generated
unenforced /paths/~1c/put: something
";
        assert_eq!(operations_left_out(report, &source), Some(2));
        let unknown_path = "x\nskipped /paths/~1gone: path left out: why\n";
        assert_eq!(operations_left_out(unknown_path, &source), None);
    }

    #[test]
    fn diagnostics_leave_out_cargo_tallies() {
        let stderr = "\
    Checking corpus-x v0.1.0 (/tmp/x)
warning: unused manifest key: package.bogus
src/lib.rs:9:22: warning: unused variable: `x`: help: prefix it with an underscore: `_x`
src/lib.rs:9:4: warning[E0001]: function `f` is never used
warning: `corpus-x` (lib) generated 4 warnings (1 duplicate) (run `cargo fix --lib -p corpus-x`)
src/lib.rs:10:19: error[E0308]: mismatched types: expected `u32`, found `&str`
src/generated.rs:1:1: error: cannot find macro `x` in this scope
warning: build failed, waiting for other jobs to finish...
error: could not compile `corpus-x` (lib) due to 3 previous errors; 2 warnings emitted
";
        assert_eq!(
            Diagnostics::count(stderr),
            Diagnostics {
                warnings: 4,
                errors: 3,
                could_not_compile: true
            }
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_process_past_its_timeout_is_killed() {
        let mut command = Command::new("sh");
        command.args(["-c", "echo started; exec sleep 30"]);
        let finished = run_with_timeout(command, Duration::from_millis(300)).expect("runs");
        assert_eq!(finished.status, None);
        assert_eq!(finished.stdout, "started\n");
        assert!(finished.elapsed < Duration::from_secs(10));
    }

    #[test]
    fn rows_show_what_ran() {
        let refused = Row {
            document: "A.yaml".to_owned(),
            total: Some(78),
            generated: Some(0),
            lines: None,
            check_seconds: None,
            warnings: None,
            summary: None,
            status: Status::Refused("multipart | form".to_owned()),
            oracle: None,
        };
        let ok = Row {
            document: "Ollama.yaml".to_owned(),
            total: Some(12),
            generated: Some(12),
            lines: Some(3400),
            check_seconds: Some(12.34),
            warnings: Some(0),
            summary: parse_summary(
                "0 repaired, 0 defects of the description, 12 rules not enforced, 0 left out",
            ),
            status: Status::Ok,
            oracle: None,
        };
        assert_eq!(
            refused.cells(false),
            [
                "A.yaml",
                "0/78",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "-",
                "refused: multipart | form"
            ]
        );
        assert_eq!(
            ok.cells(false),
            [
                "Ollama.yaml",
                "12/12",
                "3400",
                "12.3",
                "0",
                "0",
                "0",
                "12",
                "0",
                "ok"
            ]
        );
        assert_eq!(refused.failure().as_deref(), Some("A.yaml (refused)"));
        assert_eq!(ok.failure(), None);
        let table = Table {
            rows: vec![refused, ok],
            seconds: 61.0,
            with_oracle: false,
        };
        assert!(table.markdown().contains("| refused: multipart \\| form |"));
        assert_eq!(
            table.total(),
            "total: 2 documents, 12/90 operations generated; 1 ok, 1 refused, 0 do not compile, \
             0 check failed, 0 with warnings; 61 s"
        );
    }

    #[test]
    fn oracle_columns_come_before_the_status() {
        let row = |document: &str, oracle| Row {
            document: document.to_owned(),
            total: Some(12),
            generated: Some(12),
            lines: Some(3400),
            check_seconds: Some(12.34),
            warnings: Some(0),
            summary: None,
            status: Status::Ok,
            oracle,
        };
        let ran = row(
            "Ollama.yaml",
            Some(oracle::Outcome::Ran {
                summary: oracle::Summary {
                    components: 34,
                    targets: 30,
                    missing: 3,
                    files: 1,
                    instances: 5000,
                    accepted: 900,
                    disagreements: 7,
                    synthesized: 29,
                    unseeded: 2,
                },
                build_seconds: 20.04,
                run_seconds: 3.26,
            }),
        );
        let failed = row(
            "E2B.yaml",
            Some(oracle::Outcome::Failed {
                why: "build failed: x".to_owned(),
                build_seconds: Some(4.0),
            }),
        );
        assert_eq!(
            ran.cells(true)[9..],
            ["30/34", "5000", "7", "20.0", "3.3", "ok"]
        );
        assert_eq!(
            failed.cells(true)[9..],
            ["-", "-", "-", "4.0", "-", "ok; oracle build failed: x"]
        );
        assert_eq!(ran.cells(false).len(), 10);
        let table = Table {
            rows: vec![ran, failed],
            seconds: 100.0,
            with_oracle: true,
        };
        assert!(
            table
                .markdown()
                .contains("| disagreements | oracle build s | oracle run s | status |")
        );
        assert!(table.total().ends_with(
            "\noracle: ran on 1 documents (1 failed); 30/34 components checked (3 not in the \
             registry, 1 holding a multipart file; 29 seeded by synthesis, 2 without a valid \
             seed), 5000 instances, 7 disagreements; build 24 s, run 3 s"
        ));
    }
}
