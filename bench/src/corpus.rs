//! `hub-api-bench corpus-lines [DIR] [--breakdown]` (issue 29, item 5): the lean-at-scale goal
//! ("lines at most 0.25x progenitor's plain output on the same document, stretch 0.12x")
//! measured on real descriptions instead of only on the synthetic spec of `synth_lines`.
//!
//! For every description in `DIR` (default `../shared/corpus` from the workspace root):
//!
//! - ours: `src/generated.rs` as `cargo xtask generate` writes it (`generate_crate`, not
//!   strict, the call `xtask-regen generate` makes; positional interface);
//! - plain: progenitor and typify alone (`generate_plain`, builder interface) on the document as
//!   `normalize` leaves it, as `synth_lines` measures it; and, for reference, the same with
//!   progenitor's positional interface, the one ours uses, so that what the interface alone
//!   saves can be told apart from what our own steps save.
//!
//! Both sides are printed by prettyplease (`emit::format`), so their lines are comparable.
//! Plain generation has no leave-out rounds: where it fails (an error or a panic, which is
//! caught with the panic hook silenced) the row says `refused: <reason>`.
//!
//! `--breakdown` also attributes every line of each generated file to the construct that
//! produced it (structs, `decode_object!` invocations, bounded integers, client methods, ...),
//! by reprinting each item at its depth, so the next thing to shrink can be read off.
//!
//! Not a bounded figure: it is not in the default run and never fails on its ratios.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use hub_api_codegen::emit::Interface::{Builder, Positional};
use hub_api_codegen::{self as codegen, CrateOptions, FindingKind};
use serde_json::Value;

/// The module path both sides are generated for, as `generate_crate` mounts its file.
const MODULE_PATH: &str = "crate::generated";

/// The breakdown's row for lines outside every item: the header, `mod types`'s attributes
/// and braces (and any difference reprinting an item would make, none so far).
const OTHER: &str = "header, `mod types` wrapper";

/// The goal and stretch for ours / plain.
const GOAL: f64 = 0.25;
const STRETCH: f64 = 0.12;

/// One description's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The file name, without its extension.
    pub document: String,
    /// Operations in the source document.
    pub operations: usize,
    /// Operations our report says were left out.
    pub left_out: usize,
    /// Lines of our `src/generated.rs`, or why generation failed.
    pub ours: Result<usize, String>,
    /// Lines of progenitor+typify's builder output, or why it was refused.
    pub plain: Result<usize, String>,
    /// The same with progenitor's positional interface.
    pub plain_positional: Result<usize, String>,
    /// Anything else the reader of the row should know.
    pub note: String,
}

impl Row {
    /// ours / plain (builder), when both exist.
    pub fn ratio(&self) -> Option<f64> {
        ratio(&self.ours, &self.plain)
    }
}

fn ratio(ours: &Result<usize, String>, plain: &Result<usize, String>) -> Option<f64> {
    match (ours, plain) {
        (Ok(ours), Ok(plain)) if *plain > 0 => Some(*ours as f64 / *plain as f64),
        _ => None,
    }
}

/// Runs the measurement; `args` are what follows `corpus-lines` on the command line.
pub fn corpus_lines(args: &[String]) -> Result<()> {
    let mut dir = None;
    let mut breakdown = false;
    for arg in args {
        match arg.as_str() {
            "--breakdown" => breakdown = true,
            flag if flag.starts_with('-') => {
                bail!(
                    "unknown argument `{flag}`\n\nusage: hub-api-bench corpus-lines [DIR] [--breakdown]"
                )
            }
            path => dir = Some(PathBuf::from(path)),
        }
    }
    let dir = dir.unwrap_or_else(|| crate::workspace_root().join("../shared/corpus"));
    let mut documents: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.extension()
                .and_then(|extension| extension.to_str())
                .is_some_and(|extension| matches!(extension, "yaml" | "yml" | "json"))
        })
        .collect();
    documents.sort();
    if documents.is_empty() {
        bail!("no .yaml, .yml or .json description in {}", dir.display());
    }

    let mut rows = Vec::new();
    let mut breakdowns = Vec::new();
    for path in &documents {
        let (row, files) = measure(path)?;
        println!(
            "# corpus-lines: {}: ours {}, plain {}, plain positional {}",
            row.document,
            cell(&row.ours),
            cell(&row.plain),
            cell(&row.plain_positional)
        );
        if breakdown {
            for (side, text) in files {
                let counted = Breakdown::of(&text)
                    .with_context(|| format!("breaking down {side} of {}", row.document))?;
                breakdowns.push((format!("{} ({side})", row.document), counted));
            }
        }
        rows.push(row);
    }
    println!();
    print!("{}", render_table(&rows));
    println!();
    print!("{}", render_reading(&rows));
    for (title, counted) in &breakdowns {
        println!();
        println!("#### {title}");
        println!();
        print!("{}", counted.render());
    }
    Ok(())
}

/// The generated texts a row was measured on, by side, for `--breakdown`.
type Files = Vec<(&'static str, String)>;

/// Generates both sides of one description and counts their lines.
fn measure(path: &Path) -> Result<(Row, Files)> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let spec_name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let document = spec_name
        .rsplit_once('.')
        .map_or(spec_name.as_str(), |(stem, _)| stem)
        .to_owned();
    let loaded = codegen::load::load(&text, &spec_name)?;
    let operations = operation_count(&loaded);
    let mut notes = Vec::new();
    let mut files = Files::new();

    let started = Instant::now();
    let ours = quietly(|| {
        codegen::generate_crate(&text, &spec_name, "corpus-lines", &CrateOptions::default())
    });
    let ours_time = started.elapsed();
    let mut left_out = 0;
    let ours = match ours {
        Ok(generated) => {
            left_out = operations_left_out(&generated.report, &loaded);
            let schemas_read_as_any = generated
                .report
                .iter()
                .filter(|finding| {
                    finding.kind == FindingKind::Skipped
                        && finding.message.starts_with("read as any JSON value")
                })
                .count();
            if left_out > 0 {
                notes.push(format!("ours leaves out {left_out} operation(s)"));
            }
            if schemas_read_as_any > 0 {
                notes.push(format!(
                    "ours reads {schemas_read_as_any} schema(s) as any JSON value"
                ));
            }
            let rust = generated
                .files
                .get("src/generated.rs")
                .context("generate_crate wrote no src/generated.rs")?;
            let lines = rust.lines().count();
            files.push(("ours", rust.clone()));
            Ok(lines)
        }
        Err(error) => Err(first_line(&error)),
    };

    let started = Instant::now();
    let (plain, plain_text) = split(quietly(|| {
        plain_output(&loaded, &spec_name, &text, Builder)
    }));
    let plain_time = started.elapsed();
    let (plain_positional, _) = split(quietly(|| {
        plain_output(&loaded, &spec_name, &text, Positional)
    }));
    if let Some(plain_text) = plain_text {
        files.push(("plain", plain_text));
    }
    if is_swagger2(&loaded) {
        // `generate_crate` converts Swagger 2.0 first; that converter is crate-private in
        // codegen, so the plain side cannot be given the same 3.0 document.
        notes.push("Swagger 2.0: codegen's converter is not public".to_owned());
    }
    println!(
        "# corpus-lines: {document}: ours generated in {}, plain in {}",
        seconds(ours_time),
        seconds(plain_time)
    );
    let row = Row {
        document,
        operations,
        left_out,
        ours,
        plain,
        plain_positional,
        note: notes.join("; "),
    };
    Ok((row, files))
}

/// progenitor and typify alone on the document as `normalize` leaves it. With the builder
/// interface this is exactly `generate_plain`, what `synth_lines` measures.
fn plain_output(
    loaded: &Value,
    spec_name: &str,
    spec_text: &str,
    interface: codegen::emit::Interface,
) -> Result<String, codegen::Error> {
    let mut document = loaded.clone();
    codegen::normalize::normalize(&mut document);
    if interface == Builder {
        let normalized = serde_json::to_string(&document).map_err(|error| {
            codegen::Error::Progenitor(format!("serialising the document: {error}"))
        })?;
        return codegen::generate_plain(&normalized, spec_name, MODULE_PATH);
    }
    // `generate_plain`'s steps, with the other interface.
    let downlevelled = codegen::downlevel::downlevel(&document)?;
    codegen::contract::preflight::check(&downlevelled)?;
    let emitted = codegen::emit::emit(
        &downlevelled,
        &codegen::patch::Applied::default(),
        MODULE_PATH,
        codegen::emit::Fidelity::Plain,
        interface,
        None,
    )?;
    Ok(codegen::emit::format(
        &emitted.file,
        &codegen::header(spec_name, spec_text),
    ))
}

/// Lines of a generation, or the reason it failed; the text itself when it succeeded.
fn split(outcome: Result<String, String>) -> (Result<usize, String>, Option<String>) {
    match outcome {
        Ok(text) => (Ok(text.lines().count()), Some(text)),
        Err(reason) => (Err(reason), None),
    }
}

/// Runs `run` with panics caught and the panic hook silenced (as codegen's emit does around
/// progenitor): a panic on a real document is a finding of this measurement, not a crash, and
/// its message and backtrace would bury the table. The hook is put back afterwards.
fn quietly<T, E: std::fmt::Display>(run: impl FnOnce() -> Result<T, E>) -> Result<T, String> {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = catch_unwind(AssertUnwindSafe(run));
    std::panic::set_hook(previous);
    match outcome {
        Ok(Ok(value)) => Ok(value),
        Ok(Err(error)) => Err(first_line(&error)),
        Err(payload) => {
            let message = codegen::panic_message(payload.as_ref());
            Err(format!("panicked: {}", first_line(&message)))
        }
    }
}

/// The first line of an error, shortened for a table cell.
fn first_line(error: &impl std::fmt::Display) -> String {
    let text = error.to_string();
    let line = text
        .lines()
        .find(|line| !line.trim().is_empty())
        .unwrap_or("");
    let line = line.trim().replace('|', "\\|");
    const MAX: usize = 160;
    if line.chars().count() > MAX {
        format!("{}...", line.chars().take(MAX).collect::<String>())
    } else {
        line
    }
}

/// Whether the loaded document is Swagger 2.0, which only `generate_crate` can convert.
fn is_swagger2(document: &Value) -> bool {
    document.get("swagger").is_some()
}

fn seconds(duration: Duration) -> String {
    format!("{:.1} s", duration.as_secs_f64())
}

/// The operations of a document (OpenAPI 3.x and Swagger 2.0 both keep them under `paths`).
fn operation_count(document: &Value) -> usize {
    document
        .get("paths")
        .and_then(Value::as_object)
        .map_or(0, |paths| {
            paths
                .values()
                .filter_map(Value::as_object)
                .map(|item| {
                    item.keys()
                        .filter(|key| codegen::model::is_method(key))
                        .count()
                })
                .sum()
        })
}

/// The operations our report says were left out: an operation's pointer, or a whole path's
/// (each of its methods counted once). Deeper `/paths/...` pointers are schemas, not operations.
fn operations_left_out(report: &[codegen::Finding], document: &Value) -> usize {
    let mut left_out = BTreeSet::new();
    for finding in report {
        if finding.kind != FindingKind::Skipped {
            continue;
        }
        let Some(tokens) = finding.pointer.strip_prefix("/paths/") else {
            continue;
        };
        match tokens.split('/').collect::<Vec<_>>().as_slice() {
            [path] => {
                let path = codegen::model::unescape(path);
                let methods = document
                    .get("paths")
                    .and_then(|paths| paths.get(&path))
                    .and_then(Value::as_object);
                for method in methods.into_iter().flat_map(|item| item.keys()) {
                    if codegen::model::is_method(method) {
                        left_out.insert((path.clone(), method.clone()));
                    }
                }
            }
            [path, method] if codegen::model::is_method(method) => {
                left_out.insert((codegen::model::unescape(path), (*method).to_owned()));
            }
            _ => {}
        }
    }
    left_out.len()
}

/// A count or the reason there is none, as a table cell.
fn cell(outcome: &Result<usize, String>) -> String {
    match outcome {
        Ok(lines) => thousands(*lines),
        Err(reason) => format!("refused: {reason}"),
    }
}

/// `1234567` as `1,234,567`, as the tables of BENCHMARKS.md write counts.
fn thousands(value: usize) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

fn ratio_cell(value: Option<f64>) -> String {
    value.map_or_else(|| "-".to_owned(), |value| format!("{value:.2}"))
}

/// The Markdown table of BENCHMARKS.md, one row per description and a total over the rows
/// where both sides have a figure. A refusal's reason goes in the note, the lines cell says
/// `refused`, so the table stays narrow.
pub fn render_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| document | operations | ours lines | plain lines | ratio | plain positional | ours / positional | note |\n\
         |---|---:|---:|---:|---:|---:|---:|---|\n",
    );
    let short = |outcome: &Result<usize, String>| match outcome {
        Ok(lines) => thousands(*lines),
        Err(_) => "refused".to_owned(),
    };
    for row in rows {
        let operations = if row.left_out > 0 {
            format!(
                "{} ({} generated)",
                row.operations,
                row.operations - row.left_out
            )
        } else {
            row.operations.to_string()
        };
        let mut notes = Vec::new();
        for (side, outcome) in [
            ("ours", &row.ours),
            ("plain", &row.plain),
            ("plain positional", &row.plain_positional),
        ] {
            if let Err(reason) = outcome {
                // The positional side fails for the builder side's reason, almost always:
                // said once.
                if side == "plain positional" && row.plain.as_ref().err() == Some(reason) {
                    continue;
                }
                notes.push(format!("{side} refused: {reason}"));
            }
        }
        if !row.note.is_empty() {
            notes.push(row.note.clone());
        }
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            row.document,
            operations,
            short(&row.ours),
            short(&row.plain),
            ratio_cell(row.ratio()),
            short(&row.plain_positional),
            ratio_cell(ratio(&row.ours, &row.plain_positional)),
            notes.join("; "),
        ));
    }
    let measured: Vec<&Row> = rows.iter().filter(|row| row.ratio().is_some()).collect();
    let sum = |get: fn(&Row) -> Option<usize>| measured.iter().filter_map(|row| get(row)).sum();
    let ours: usize = sum(|row| row.ours.as_ref().ok().copied());
    let plain: usize = sum(|row| row.plain.as_ref().ok().copied());
    let positional_rows: Vec<&&Row> = measured
        .iter()
        .filter(|row| row.plain_positional.is_ok())
        .collect();
    let positional: usize = positional_rows
        .iter()
        .filter_map(|row| row.plain_positional.as_ref().ok())
        .sum();
    let ours_with_positional: usize = positional_rows
        .iter()
        .filter_map(|row| row.ours.as_ref().ok())
        .sum();
    out.push_str(&format!(
        "| all {} with both | {} | {} | {} | {} | {} | {} | |\n",
        measured.len(),
        measured.iter().map(|row| row.operations).sum::<usize>(),
        thousands(ours),
        thousands(plain),
        ratio_cell((plain > 0).then(|| ours as f64 / plain as f64)),
        thousands(positional),
        ratio_cell((positional > 0).then(|| ours_with_positional as f64 / positional as f64)),
    ));
    out
}

/// One line per description against the goal and the stretch.
fn render_reading(rows: &[Row]) -> String {
    let mut out = String::new();
    for row in rows {
        let verdict = match row.ratio() {
            Some(value) if value <= STRETCH => "within the stretch (<= 0.12)",
            Some(value) if value <= GOAL => "within the goal (<= 0.25)",
            Some(_) => "over the goal (> 0.25)",
            None => "no ratio",
        };
        out.push_str(&format!(
            "# corpus-lines: {}: {} {verdict}\n",
            row.document,
            ratio_cell(row.ratio())
        ));
    }
    out
}

/// Lines and item counts of one generated file, by the construct that wrote them.
#[derive(Debug, Default, PartialEq)]
pub struct Breakdown {
    /// Lines of the whole file.
    pub total: usize,
    /// Construct -> (items, lines).
    pub kinds: BTreeMap<String, Tally>,
    /// Bounded integers whose bounds are their representation's whole range (`Rules: any
    /// integer.`): alias and `bounded_integer!` together. Their markers are in `markers`.
    pub any_integer: Tally,
    /// Those bounded integers by their Rust type.
    pub whole_range_by_type: BTreeMap<String, usize>,
    /// Names listed in `marker!` invocations of the `rules` module.
    pub markers: usize,
    /// Lines of the `rules` module, where the markers are.
    pub rules_lines: usize,
}

/// How many items of a kind, and how many lines they take.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub items: usize,
    pub lines: usize,
}

impl Tally {
    fn add(&mut self, lines: usize) {
        self.items += 1;
        self.lines += lines;
    }
}

impl Breakdown {
    /// Parses a prettyplease-printed file and attributes each of its lines to an item: each
    /// item is printed again alone, nested as deep as it stands, so that it breaks its lines
    /// as it did in the file. The lines no item accounts for (the header) are `other`.
    pub fn of(text: &str) -> Result<Self> {
        let file = syn::parse_file(text).context("parsing the generated file")?;
        let mut this = Self {
            total: text.lines().count(),
            ..Self::default()
        };
        // Names of non-public types: the shared support code (visitors, seeds, writers), whose
        // impls are support too, not per-schema code.
        let mut any_integer_names = BTreeSet::new();
        let mut aliases = BTreeMap::new();
        for item in &file.items {
            match item {
                syn::Item::Mod(module) if module.ident == "types" => {
                    let items = module.content.as_ref().map_or(&[][..], |(_, items)| items);
                    let private = private_type_names(items);
                    let enums = public_enum_names(items);
                    for item in items {
                        let lines = printed_lines(item, 1);
                        let kind =
                            this.types_item(item, &private, &enums, lines, &mut any_integer_names);
                        if let (syn::Item::Type(alias), Some(_)) = (item, &kind) {
                            aliases.insert(alias.ident.to_string(), lines);
                        }
                        let kind = kind.unwrap_or_else(|| "types: other".to_owned());
                        this.kinds.entry(kind).or_default().add(lines);
                    }
                    // `pub mod types {` and its `}`.
                    this.kinds.entry(OTHER.to_owned()).or_default().lines += 2;
                }
                other => {
                    let (kind, count) = top_level_kind(other);
                    let lines = printed_lines(other, 0);
                    let tally = this.kinds.entry(kind).or_default();
                    tally.items += count;
                    tally.lines += lines;
                }
            }
        }
        for name in &any_integer_names {
            if let Some(lines) = aliases.get(name) {
                this.any_integer.lines += lines;
            }
        }
        let accounted: usize = this.kinds.values().map(|tally| tally.lines).sum();
        this.kinds.entry(OTHER.to_owned()).or_default().lines +=
            this.total.saturating_sub(accounted);
        Ok(this)
    }

    /// The kind of one item of the `types` module; `None` for what has no kind of its own.
    fn types_item(
        &mut self,
        item: &syn::Item,
        private: &BTreeSet<String>,
        enums: &BTreeSet<String>,
        lines: usize,
        any_integer: &mut BTreeSet<String>,
    ) -> Option<String> {
        let public = |vis: &syn::Visibility| matches!(vis, syn::Visibility::Public(_));
        Some(match item {
            syn::Item::Macro(invocation) if invocation.ident.is_some() => {
                "support: macro_rules! definitions".to_owned()
            }
            syn::Item::Macro(invocation) => {
                let name = last_segment(&invocation.mac.path);
                if name == "bounded_integer"
                    && let Some((alias, repr)) =
                        whole_range_integer(&invocation.mac.tokens.to_string())
                {
                    self.any_integer.add(lines);
                    *self.whole_range_by_type.entry(repr).or_default() += 1;
                    any_integer.insert(alias);
                }
                format!("{name}! invocations")
            }
            syn::Item::Struct(item) if public(&item.vis) => "pub struct".to_owned(),
            syn::Item::Enum(item) if public(&item.vis) => "pub enum".to_owned(),
            syn::Item::Type(alias) => match &*alias.ty {
                syn::Type::Path(path) => {
                    let segment = path.path.segments.last()?;
                    if matches!(segment.arguments, syn::PathArguments::AngleBracketed(_)) {
                        format!("pub type = {}<..>", segment.ident)
                    } else {
                        "pub type = (plain alias)".to_owned()
                    }
                }
                _ => "pub type = (plain alias)".to_owned(),
            },
            syn::Item::Impl(block) => {
                let self_name = match &*block.self_ty {
                    syn::Type::Path(path) => path
                        .path
                        .segments
                        .last()
                        .map(|segment| segment.ident.to_string()),
                    _ => None,
                };
                let generic_self = block.generics.params.iter().any(|param| {
                    matches!(param, syn::GenericParam::Type(ty) if Some(ty.ident.to_string()) == self_name)
                });
                if generic_self
                    || self_name
                        .as_ref()
                        .is_some_and(|name| private.contains(name))
                {
                    "support: shared code".to_owned()
                } else {
                    // Conversions and decoders of unions are told apart: typify writes a `From`
                    // per member, and codegen a whole `Deserialize` per exclusive union.
                    let of_enum = self_name.as_ref().is_some_and(|name| enums.contains(name));
                    match &block.trait_ {
                        Some((_, path, _)) => {
                            let name = last_segment(path);
                            match name.as_str() {
                                "From" if of_enum => "impl From (member into enum)".to_owned(),
                                "Deserialize" if of_enum => {
                                    "impl Deserialize (enum, written out)".to_owned()
                                }
                                _ => format!("impl {name}"),
                            }
                        }
                        None => "impl (inherent)".to_owned(),
                    }
                }
            }
            syn::Item::Mod(module) => {
                let name = module.ident.to_string();
                if name == "rules" {
                    self.rules_lines += lines;
                    self.markers += marker_count(module);
                }
                format!("mod types::{name}")
            }
            _ => "support: shared code".to_owned(),
        })
    }

    /// The breakdown as a Markdown table, largest share first.
    pub fn render(&self) -> String {
        let mut kinds: Vec<(&String, &Tally)> = self.kinds.iter().collect();
        kinds.sort_by(|a, b| b.1.lines.cmp(&a.1.lines).then(a.0.cmp(b.0)));
        let share = |lines: usize| 100.0 * lines as f64 / self.total.max(1) as f64;
        let mut out = String::from("| construct | items | lines | share |\n|---|---:|---:|---:|\n");
        for (kind, tally) in kinds {
            out.push_str(&format!(
                "| {kind} | {} | {} | {:.1} % |\n",
                thousands(tally.items),
                thousands(tally.lines),
                share(tally.lines)
            ));
        }
        out.push_str(&format!(
            "| total | | {} | 100 % |\n",
            thousands(self.total)
        ));
        if self.any_integer.items > 0 {
            // A marker's share of the `rules` module: the markers are listed several to a line.
            let marker_lines = if self.markers > 0 {
                self.rules_lines as f64 * self.any_integer.items as f64 / self.markers as f64
            } else {
                0.0
            };
            let by_type: Vec<String> = self
                .whole_range_by_type
                .iter()
                .map(|(repr, count)| format!("{} {repr}", thousands(*count)))
                .collect();
            out.push_str(&format!(
                "\nof which bounded integers whose bounds are their Rust type's whole range, so they enforce nothing the plain integer does not: {} ({}; alias and `bounded_integer!`: {} lines, {:.1} %; their markers about {:.0} more lines of the `rules` module's {})\n",
                thousands(self.any_integer.items),
                by_type.join(", "),
                thousands(self.any_integer.lines),
                share(self.any_integer.lines),
                marker_lines,
                thousands(self.rules_lines),
            ));
        }
        out
    }
}

/// The kind of an item outside `types`, and how many things it counts (a client `impl`'s
/// methods, a module's items).
fn top_level_kind(item: &syn::Item) -> (String, usize) {
    match item {
        syn::Item::Impl(block) if block.trait_.is_none() => {
            let methods = block
                .items
                .iter()
                .filter(|member| {
                    matches!(member, syn::ImplItem::Fn(function) if function.sig.asyncness.is_some())
                })
                .count();
            if methods > 0 {
                ("client: operation methods".to_owned(), methods)
            } else {
                ("client: struct, constructors, trait impls".to_owned(), 1)
            }
        }
        syn::Item::Mod(module) => {
            let items = module.content.as_ref().map_or(0, |(_, items)| items.len());
            let name = module.ident.to_string();
            if name == "builder" {
                ("mod builder (operation builders)".to_owned(), items)
            } else {
                (format!("mod {name}"), items)
            }
        }
        _ => ("client: struct, constructors, trait impls".to_owned(), 1),
    }
}

/// The names of the public enums among `items`.
fn public_enum_names(items: &[syn::Item]) -> BTreeSet<String> {
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Enum(item) if matches!(item.vis, syn::Visibility::Public(_)) => {
                Some(item.ident.to_string())
            }
            _ => None,
        })
        .collect()
}

/// The names of the non-public structs, enums and traits among `items`.
fn private_type_names(items: &[syn::Item]) -> BTreeSet<String> {
    let public = |vis: &syn::Visibility| matches!(vis, syn::Visibility::Public(_));
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Struct(item) if !public(&item.vis) => Some(item.ident.to_string()),
            syn::Item::Enum(item) if !public(&item.vis) => Some(item.ident.to_string()),
            syn::Item::Trait(item) if !public(&item.vis) => Some(item.ident.to_string()),
            _ => None,
        })
        .collect()
}

/// How many names the `marker!` invocations of a `rules` module list.
fn marker_count(module: &syn::ItemMod) -> usize {
    let items = module.content.as_ref().map_or(&[][..], |(_, items)| items);
    items
        .iter()
        .filter_map(|item| match item {
            syn::Item::Macro(invocation)
                if invocation.ident.is_none() && last_segment(&invocation.mac.path) == "marker" =>
            {
                Some(
                    invocation
                        .mac
                        .tokens
                        .clone()
                        .into_iter()
                        .filter(|token| matches!(token, proc_macro2::TokenTree::Ident(_)))
                        .count(),
                )
            }
            _ => None,
        })
        .sum()
}

fn last_segment(path: &syn::Path) -> String {
    path.segments
        .last()
        .map(|segment| segment.ident.to_string())
        .unwrap_or_default()
}

/// The alias a `bounded_integer!(Name(repr) = MIN..=MAX ...)` invocation is for, when its
/// bounds are the whole range of `repr` (the schema said no more than "integer").
fn whole_range_integer(tokens: &str) -> Option<(String, String)> {
    let compact: String = tokens.chars().filter(|c| !c.is_whitespace()).collect();
    let (name, rest) = compact.split_once('(')?;
    let (repr, rest) = rest.split_once(")=")?;
    let (min, rest) = rest.split_once("..=")?;
    let max = rest.split(',').next()?;
    let (lowest, highest) = match repr {
        "i8" => (i8::MIN.to_string(), i8::MAX.to_string()),
        "i16" => (i16::MIN.to_string(), i16::MAX.to_string()),
        "i32" => (i32::MIN.to_string(), i32::MAX.to_string()),
        "i64" => (i64::MIN.to_string(), i64::MAX.to_string()),
        "u8" => ("0".to_owned(), u8::MAX.to_string()),
        "u16" => ("0".to_owned(), u16::MAX.to_string()),
        "u32" => ("0".to_owned(), u32::MAX.to_string()),
        "u64" => ("0".to_owned(), u64::MAX.to_string()),
        _ => return None,
    };
    let whole = min == format!("{lowest}{repr}") && max == format!("{highest}{repr}");
    whole.then(|| (name.to_owned(), repr.to_owned()))
}

/// Lines `item` takes when printed `depth` modules deep: the same width left for it as in the
/// file, so the same line breaks. Each wrapping module adds its opening and closing line.
fn printed_lines(item: &syn::Item, depth: usize) -> usize {
    let mut item = item.clone();
    for _ in 0..depth {
        item = syn::Item::Mod(syn::ItemMod {
            attrs: Vec::new(),
            vis: syn::Visibility::Inherited,
            unsafety: None,
            mod_token: Default::default(),
            ident: syn::Ident::new("m", proc_macro2::Span::call_site()),
            content: Some((Default::default(), vec![item])),
            semi: None,
        });
    }
    let file = syn::File {
        shebang: None,
        attrs: Vec::new(),
        items: vec![item],
    };
    prettyplease::unparse(&file)
        .lines()
        .count()
        .saturating_sub(2 * depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(document: &str, ours: Result<usize, String>, plain: Result<usize, String>) -> Row {
        Row {
            document: document.to_owned(),
            operations: 10,
            left_out: 0,
            ours,
            plain_positional: plain.clone(),
            plain,
            note: String::new(),
        }
    }

    #[test]
    fn counts_are_written_with_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn the_table_has_a_ratio_where_both_sides_generated_and_says_why_not_elsewhere() {
        let mut left = row("A", Ok(2_500), Ok(10_000));
        left.left_out = 1;
        let rows = vec![
            left,
            row("B", Ok(100), Err("panicked: boom".to_owned())),
            row("C", Ok(500), Ok(1_000)),
        ];
        let table = render_table(&rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 6, "{table}");
        assert_eq!(
            lines[2],
            "| A | 10 (9 generated) | 2,500 | 10,000 | 0.25 | 10,000 | 0.25 |  |"
        );
        // The positional side's identical reason is not repeated.
        assert_eq!(
            lines[3],
            "| B | 10 | 100 | refused | - | refused | - | plain refused: panicked: boom |"
        );
        // The total counts only rows with both sides: (2,500 + 500) / (10,000 + 1,000).
        assert_eq!(
            lines[5],
            "| all 2 with both | 20 | 3,000 | 11,000 | 0.27 | 11,000 | 0.27 | |"
        );
        assert_eq!(
            render_reading(&rows),
            "# corpus-lines: A: 0.25 within the goal (<= 0.25)\n\
             # corpus-lines: B: - no ratio\n\
             # corpus-lines: C: 0.50 over the goal (> 0.25)\n"
        );
    }

    #[test]
    fn refusals_are_one_short_line_and_panics_are_caught() {
        assert_eq!(
            quietly(|| -> Result<(), String> { Err("first\nsecond | third".to_owned()) }),
            Err("first".to_owned())
        );
        let panicked = quietly(|| -> Result<(), String> { panic!("no | way\nmore") });
        assert_eq!(panicked, Err("panicked: no \\| way".to_owned()));
    }

    #[test]
    fn whole_range_integers_are_told_from_bounded_ones() {
        assert_eq!(
            whole_range_integer("A (i64) = - 9223372036854775808i64 ..= 9223372036854775807i64"),
            Some(("A".to_owned(), "i64".to_owned()))
        );
        assert_eq!(
            whole_range_integer("B(u64) = 0u64..=18446744073709551615u64, default 3u64"),
            Some(("B".to_owned(), "u64".to_owned()))
        );
        assert_eq!(whole_range_integer("C(i64) = 1i64..=100i64"), None);
        assert_eq!(
            whole_range_integer("D(i64) = 0i64..=9223372036854775807i64"),
            None
        );
    }

    #[test]
    fn operations_left_out_count_whole_paths_once_per_method() {
        let document = serde_json::json!({"paths": {
            "/a/{b}": {"get": {}, "post": {}, "parameters": []},
            "/c": {"get": {}},
        }});
        let finding = |pointer: &str| codegen::Finding {
            kind: FindingKind::Skipped,
            pointer: pointer.to_owned(),
            message: "left out".to_owned(),
        };
        let report = vec![
            finding("/paths/~1a~1{b}"),
            finding("/paths/~1a~1{b}/get"),
            finding("/paths/~1c/get/responses/200/content/application~1json/schema"),
        ];
        assert_eq!(operations_left_out(&report, &document), 2);
        assert_eq!(operation_count(&document), 3);
    }

    /// Every line of a small file in the generated shape is attributed, and each construct
    /// gets the lines it takes in the file.
    #[test]
    fn the_breakdown_attributes_every_line_to_its_construct() {
        let text = "\
// @generated header
pub mod types {
    macro_rules! bounded_integer {
        ($name:ident) => {};
    }
    /// Rules: any integer.
    pub type Count = BoundedInteger<rules::Count>;
    bounded_integer!(Count(i64) = - 9223372036854775808i64..= 9223372036854775807i64);
    pub type Small = BoundedInteger<rules::Small>;
    bounded_integer!(Small(i64) = 1i64..= 3i64);
    pub struct Thing {
        pub count: Count,
    }
    impl ::std::convert::From<Count> for Thing {
        fn from(count: Count) -> Self {
            Self { count }
        }
    }
    struct Visitor;
    impl Visitor {
        fn go(&self) {}
    }
    pub mod rules {
        marker!(Count Small);
    }
}
pub struct Client {
    baseurl: String,
}
impl Client {
    pub async fn get_thing(&self) -> u8 {
        0
    }
}
";
        let counted = Breakdown::of(text).expect("parses");
        assert_eq!(counted.total, 34);
        let kind = |name: &str| counted.kinds.get(name).copied().unwrap_or_default();
        assert_eq!(
            kind("pub type = BoundedInteger<..>"),
            Tally { items: 2, lines: 3 }
        );
        assert_eq!(
            kind("bounded_integer! invocations"),
            Tally { items: 2, lines: 2 }
        );
        assert_eq!(kind("pub struct"), Tally { items: 1, lines: 3 });
        assert_eq!(kind("impl From"), Tally { items: 1, lines: 5 });
        assert_eq!(kind("support: shared code"), Tally { items: 2, lines: 4 });
        assert_eq!(
            kind("support: macro_rules! definitions"),
            Tally { items: 1, lines: 3 }
        );
        assert_eq!(kind("mod types::rules"), Tally { items: 1, lines: 3 });
        assert_eq!(
            kind("client: operation methods"),
            Tally { items: 1, lines: 5 }
        );
        // The header and `pub mod types {` / `}`.
        assert_eq!(kind(OTHER).lines, 3);
        let sum: usize = counted.kinds.values().map(|tally| tally.lines).sum();
        assert_eq!(sum, counted.total);
        assert_eq!(counted.any_integer, Tally { items: 1, lines: 3 });
        assert_eq!(counted.markers, 2);
    }
}
