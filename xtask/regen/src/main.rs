//! `cargo xtask regen [--check]`: generates every checked-in file from `spec/openapi.yaml` and
//! writes it, or with `--check` writes nothing and fails when one is stale. The spec's
//! conventions (`codegen::conventions`) are checked first. Given the base's spec and surface
//! (`--old-spec FILE [--old-surface FILE] --report FILE`, which xtask reads from git), it then
//! prints the change report and writes it as markdown.
//! `cargo xtask diff` runs `changes --old-spec FILE [--old-surface FILE] --report FILE`: the
//! same report, generating the new surface without writing anything else.
//! `cargo xtask generate --spec FILE --out DIR [--crate-name NAME] [--strict]`: writes a
//! standalone client crate for any OpenAPI 3.0/3.1 document, which may be split over files
//! (`hub_api_codegen::bundle` reads it whole, `generate_crate_from_bundle` generates it);
//! `--normalized FILE` also writes the document as normalize leaves it (JSON), which is what
//! the differential oracle validates against (`cargo xtask corpus --oracle`).
//! xtask runs this binary instead of linking `hub-api-codegen` itself, so that
//! `cargo xtask validate` and the other commands never build progenitor, typify and syn.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use hub_api_codegen as codegen;

/// Generation allocates and frees hundreds of megabytes of small tokens and syntax nodes on a
/// large spec. glibc's allocator spends a growing share of that time sorting and merging freed
/// chunks as the heap grows; mimalloc made a 640-operation spec about a third faster
/// (BENCHMARKS.md, "Allocator, piecewise parse and huge pages").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    turn_off_transparent_huge_pages();
    if let Err(error) = run(std::env::args().skip(1).collect()) {
        eprintln!("error: {error:#}");
        std::process::exit(1);
    }
}

/// mimalloc asks for transparent huge pages, and on the 2-core VM we measure on, zeroing 2 MB
/// pages at first touch cost a large run more than they saved: at 640 synthetic operations
/// 4.0 s without them against 4.6 s with (BENCHMARKS.md). The heap is small objects read in
/// order, so the fewer TLB misses of huge pages buy little.
#[cfg(target_os = "linux")]
fn turn_off_transparent_huge_pages() {
    // SAFETY: `PR_SET_THP_DISABLE` sets a flag of the calling process; no memory is passed.
    // Failing (an old kernel) leaves huge pages on, which is only slower.
    let _ = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0) };
}

#[cfg(not(target_os = "linux"))]
fn turn_off_transparent_huge_pages() {}

const REGEN_USAGE: &str = "usage: cargo xtask regen [--check] \
     [--old-spec FILE [--old-surface FILE] --report FILE]";

fn run(args: Vec<String>) -> Result<()> {
    match args.first().map(String::as_str) {
        Some("generate") => return generate(&args[1..]),
        Some("changes") => {
            let root = workspace_root();
            let Some(report) = ReportFiles::parse(&args[1..])? else {
                bail!(
                    "usage: xtask-regen changes --old-spec FILE [--old-surface FILE] --report FILE"
                );
            };
            let spec_text = read_spec(&root)?;
            let output = codegen::generate_hub_client(&spec_text)?;
            return report.write(&root, &spec_text, &output.surface);
        }
        _ => {}
    }
    let check = args.first().is_some_and(|flag| flag == "--check");
    let report = ReportFiles::parse(&args[usize::from(check)..])?;
    if check && report.is_some() {
        bail!("{REGEN_USAGE}");
    }
    let root = workspace_root();
    let spec_text = read_spec(&root)?;
    let output = codegen::generate_hub_client(&spec_text)?;
    let cli = codegen::cli::generate(
        &output.downlevelled,
        &output.rust,
        &output.secrets,
        &codegen::header(codegen::SPEC_PATH, &spec_text),
    )?;
    // Both are generated before either is written: a generation error leaves both files as they were.
    sync(&root, codegen::CLIENT_PATH, &output.rust, check)?;
    sync(&root, codegen::cli::CLI_PATH, &cli, check)?;
    match report {
        Some(report) => report.write(&root, &spec_text, &output.surface),
        None => Ok(()),
    }
}

/// Reads the spec and holds it to its conventions (descriptions, request examples), every
/// violation at once, before anything is generated: the one definition of a valid spec that
/// `tests/spec.rs` leaves to it.
fn read_spec(root: &Path) -> Result<String> {
    let spec_text = std::fs::read_to_string(root.join(codegen::SPEC_PATH))
        .with_context(|| format!("reading {}", codegen::SPEC_PATH))?;
    let document = codegen::load::load(&spec_text, codegen::SPEC_PATH)?;
    let violations = codegen::conventions::violations(&document);
    if !violations.is_empty() {
        bail!(
            "{} breaks {} of the spec's conventions (codegen/src/conventions.rs):\n  {}",
            codegen::SPEC_PATH,
            violations.len(),
            violations.join("\n  ")
        );
    }
    Ok(spec_text)
}

/// Where the change report reads the base from and writes its markdown.
struct ReportFiles {
    old_spec: PathBuf,
    /// The base's surface snapshot; without one, the surface is generated from the base spec.
    old_surface: Option<PathBuf>,
    markdown: PathBuf,
}

impl ReportFiles {
    /// `--old-spec FILE [--old-surface FILE] --report FILE`; `None` when none is given.
    fn parse(args: &[String]) -> Result<Option<Self>> {
        let (mut old_spec, mut old_surface, mut markdown) = (None, None, None);
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            let value = rest
                .next()
                .map(PathBuf::from)
                .with_context(|| format!("{flag} needs a value\n{REGEN_USAGE}"))?;
            match flag.as_str() {
                "--old-spec" => old_spec = Some(value),
                "--old-surface" => old_surface = Some(value),
                "--report" => markdown = Some(value),
                other => bail!("unknown argument `{other}`\n{REGEN_USAGE}"),
            }
        }
        match (old_spec, markdown) {
            (Some(old_spec), Some(markdown)) => Ok(Some(Self {
                old_spec,
                old_surface,
                markdown,
            })),
            (None, None) if old_surface.is_none() => Ok(None),
            _ => bail!("--old-spec and --report go together\n{REGEN_USAGE}"),
        }
    }

    /// Prints the report of the change from the base to `spec_text` (whose surface is
    /// `surface`) and writes it as markdown.
    fn write(&self, root: &Path, spec_text: &str, surface: &str) -> Result<()> {
        let old_spec = std::fs::read_to_string(&self.old_spec)
            .with_context(|| format!("reading {}", self.old_spec.display()))?;
        let old_surface = match &self.old_surface {
            Some(path) => std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?,
            None => {
                println!(
                    "change report: the base has no surface snapshot; generating it from the base spec"
                );
                codegen::generate_hub_client(&old_spec)
                    .context("generating the base spec's surface")?
                    .surface
            }
        };
        let sources = rust_sources(&root.join("src"))?;
        let report = codegen::changes::Report::build(&codegen::changes::Inputs {
            old_spec: &old_spec,
            new_spec: spec_text,
            old_surface: &old_surface,
            new_surface: surface,
            wrapper_sources: &sources,
        })?;
        print!("{}", report.render_text());
        if let Some(parent) = self.markdown.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&self.markdown, report.render_markdown())
            .with_context(|| format!("writing {}", self.markdown.display()))?;
        let shown = self.markdown.strip_prefix(root).unwrap_or(&self.markdown);
        println!(
            "change report: written to {} for the pull request",
            shown.display()
        );
        Ok(())
    }
}

/// The text of every `.rs` file under `dir` (the hand-written client, whose calls into the
/// generated one are its wrappers), in path order.
fn rust_sources(dir: &Path) -> Result<Vec<String>> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in
            std::fs::read_dir(&current).with_context(|| format!("reading {}", current.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
        .iter()
        .map(|path| {
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
        })
        .collect()
}

const GENERATE_USAGE: &str = "usage: cargo xtask generate --spec FILE --out DIR [--crate-name NAME] [--strict] \
     [--normalized FILE]";

/// Generates a standalone crate into `--out`; every file is generated before any is written.
fn generate(args: &[String]) -> Result<()> {
    STARTED.get_or_init(std::time::Instant::now);
    keep_telling();
    let mut spec = None;
    let mut out = None;
    let mut crate_name = None;
    let mut normalized = None;
    let mut options = codegen::CrateOptions {
        progress: Some(show_progress),
        ..codegen::CrateOptions::default()
    };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let mut value = || {
            rest.next()
                .with_context(|| format!("{flag} needs a value\n{GENERATE_USAGE}"))
        };
        match flag.as_str() {
            "--spec" => spec = Some(PathBuf::from(value()?)),
            "--out" => out = Some(PathBuf::from(value()?)),
            "--crate-name" => crate_name = Some(value()?.clone()),
            "--strict" => options.strict = true,
            "--normalized" => normalized = Some(PathBuf::from(value()?)),
            "--help" | "-h" => {
                println!("{GENERATE_USAGE}");
                return Ok(());
            }
            other => bail!("unknown argument `{other}`\n{GENERATE_USAGE}"),
        }
    }
    let (Some(spec), Some(out)) = (spec, out) else {
        bail!("--spec and --out are required\n{GENERATE_USAGE}");
    };
    let crate_name = match crate_name {
        Some(name) => name,
        // The folder's name made a crate name (`api.example.com` is `api-example-com`).
        None => out
            .file_name()
            .and_then(|name| name.to_str())
            .map(codegen::standalone::crate_name_from)
            .context("--out has no usable last component; give --crate-name")?,
    };
    // The header names the file, not where it sits, so output does not depend on the machine.
    let spec_name = spec
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    // Always bundled: a description split over files is read whole (each file relative to the
    // one that refers to it), and a single file bundles to itself, its own text unchanged.
    let bundled = codegen::bundle::bundle(&spec, |path| std::fs::read_to_string(path))?;
    let bundled_text = normalized.is_some().then(|| bundled.text.clone());
    // The crate carries the support code, so it builds wherever it is moved.
    let generated =
        codegen::generate_crate_from_bundle(bundled, &spec_name, &crate_name, &options)?;
    // Written only once the crate generated, so a refused document leaves no stale oracle input.
    let normalized = match (normalized, bundled_text) {
        (Some(path), Some(text)) => {
            let document = codegen::normalized_document(&text, &spec_name)?;
            // `{:#}` is serde_json's pretty printing, without a dependency of this crate's own.
            Some((path, format!("{document:#}\n")))
        }
        _ => None,
    };
    for (relative, text) in &generated.files {
        let path = out.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    if let Some((path, text)) = &normalized {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    }
    let summary = codegen::standalone::render_report(&generated.report);
    println!(
        "generate: wrote crate `{crate_name}` to {}; {}",
        out.display(),
        summary.lines().next().unwrap_or_default()
    );
    println!(
        "generate: every finding is in {}",
        out.join("report.txt").display()
    );
    Ok(())
}

/// When this process started: progress is shown only once a run has taken a while.
static STARTED: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();

/// The step a run is in and when it began, for [`keep_telling`].
static CURRENT_STEP: std::sync::Mutex<Option<(String, std::time::Instant)>> =
    std::sync::Mutex::new(None);

/// How often a long step is said to go on.
const HEARTBEAT: std::time::Duration = std::time::Duration::from_secs(5);

/// Prints a step of a long generation on stderr, with the seconds since the start: quiet for
/// the first two seconds, which most descriptions take in all.
fn show_progress(step: &str) {
    let elapsed = STARTED.get_or_init(std::time::Instant::now).elapsed();
    if let Ok(mut current) = CURRENT_STEP.lock() {
        *current = Some((step.to_owned(), std::time::Instant::now()));
    }
    if elapsed >= std::time::Duration::from_secs(2) {
        eprintln!("generate: {:5.1} s: {step}", elapsed.as_secs_f64());
    }
}

/// Says every [`HEARTBEAT`] that a step still runs (progenitor alone takes minutes on the
/// largest descriptions), so a long run never looks stuck. The thread ends with the process.
fn keep_telling() {
    std::thread::spawn(|| {
        loop {
            std::thread::sleep(HEARTBEAT);
            let Ok(current) = CURRENT_STEP.lock() else {
                return;
            };
            if let Some((step, since)) = current.as_ref()
                && since.elapsed() >= HEARTBEAT
            {
                let elapsed = STARTED.get_or_init(std::time::Instant::now).elapsed();
                eprintln!(
                    "generate: {:5.1} s: still {step} ({:.0} s in this step)",
                    elapsed.as_secs_f64(),
                    since.elapsed().as_secs_f64()
                );
            }
        }
    });
}

/// Writes `expected` to `path` (relative to the root) unless it is there already; with `check`,
/// fails with a short diff instead of writing.
fn sync(root: &Path, path: &str, expected: &str, check: bool) -> Result<()> {
    let full_path = root.join(path);
    let on_disk = std::fs::read_to_string(&full_path).unwrap_or_default();
    match codegen::short_diff(path, &on_disk, expected, 40) {
        None => println!("regen: {path} is up to date"),
        Some(diff) if check => bail!("{diff}{path} is stale: run `cargo xtask regen`"),
        Some(_) => {
            std::fs::write(&full_path, expected).with_context(|| format!("writing {path}"))?;
            println!("regen: wrote {path}");
        }
    }
    Ok(())
}

/// The workspace root: this crate lives two levels below it.
fn workspace_root() -> PathBuf {
    let manifest_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest_dir
        .ancestors()
        .nth(2)
        .unwrap_or(manifest_dir)
        .to_path_buf()
}
