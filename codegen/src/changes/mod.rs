//! The change report: what a spec change means, for a reviewer of the pull request that makes it.
//!
//! Two comparisons, each a list of [`Change`]s with a [`Class`]:
//!
//! - [`spec`]: the old and the new document, structurally (operations, parameters, request and
//!   response bodies, component schemas: properties, `required`, enums, types, bounds), each
//!   change classed **on the wire** in both directions (an old client against a new server, a
//!   new client against an old server), after oasdiff's rules, whose check id each line names;
//! - [`surface`]: the old and the new public API surface of the generated crate (the text
//!   [`crate::surface::render`] writes), each change classed **for Rust users** by semver, after
//!   cargo-semver-checks' lints, whose name each line gives where one applies.
//!
//! [`Report`] puts them together with the operations `hub_api::Client` has no hand-written
//! wrapper for ([`wrappers`]) and the version bump the changes imply ([`Bump`]), as plain text
//! for the terminal and as markdown for the pull request. Pure: text in, text out; `xtask`
//! reads the old spec and surface from git and writes the files.

pub mod spec;
pub mod surface;
pub mod wrappers;

use std::collections::BTreeSet;
use std::fmt::Write;

/// What went wrong reading the inputs of a report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// One of the two documents does not parse.
    #[error("the {which} spec does not parse")]
    Spec {
        /// `base` (the old spec) or `changed` (the new one).
        which: &'static str,
        /// Why.
        #[source]
        source: Box<crate::Error>,
    },
}

/// How a change affects those who depend on what changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// Something that worked stops working (oasdiff: error or warning; cargo-semver-checks: a
    /// major change).
    Breaking,
    /// Something new; what worked still works (a minor version).
    Additive,
    /// Neither new nor breaking: a rule loosened where only the other side is bound by it, a
    /// wire name or a rule's text changed behind an unchanged Rust signature (a patch version).
    Compatible,
}

impl Class {
    /// The word the report prints.
    pub fn word(self) -> &'static str {
        match self {
            Class::Breaking => "BREAKING",
            Class::Additive => "additive",
            Class::Compatible => "compatible",
        }
    }

    /// The bump this class implies on its own.
    fn bump(self) -> Bump {
        match self {
            Class::Breaking => Bump::Major,
            Class::Additive => Bump::Minor,
            Class::Compatible => Bump::Patch,
        }
    }
}

/// Where a change is felt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Area {
    /// On the wire, between clients and servers of the two versions of the spec.
    Wire,
    /// In Rust, for code that uses the generated crate.
    Rust,
}

impl Area {
    fn word(self) -> &'static str {
        match self {
            Area::Wire => "wire",
            Area::Rust => "rust",
        }
    }
}

/// One change, by name.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Change {
    /// Wire or Rust.
    pub area: Area,
    /// Breaking, additive or compatible.
    pub class: Class,
    /// What changed: `GET /api/whoami (getWhoami)`, `schema Flavor`, `struct Webhook`.
    pub subject: String,
    /// How: `enum value "inf2x6" removed`.
    pub what: String,
    /// The reference rule: oasdiff's check id or cargo-semver-checks' lint, or a short reason
    /// where neither has one.
    pub rule: String,
}

impl Change {
    pub(crate) fn new(
        area: Area,
        class: Class,
        subject: impl Into<String>,
        what: impl Into<String>,
        rule: impl Into<String>,
    ) -> Self {
        Self {
            area,
            class,
            subject: subject.into(),
            what: what.into(),
            rule: rule.into(),
        }
    }
}

/// `subject: what [rule]`, as a report line says it after the area and class.
impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {} [{}]", self.subject, self.what, self.rule)
    }
}

/// The version bump a set of changes implies (semver; while the crate is 0.x, cargo reads the
/// minor digit as the major one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Bump {
    /// Nothing changed.
    None,
    /// Compatible changes only.
    Patch,
    /// Something was added.
    Minor,
    /// Something broke, on the wire or in Rust.
    Major,
}

impl Bump {
    /// The word the report prints.
    pub fn word(self) -> &'static str {
        match self {
            Bump::None => "none",
            Bump::Patch => "patch",
            Bump::Minor => "minor",
            Bump::Major => "major",
        }
    }
}

/// Everything one comparison found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// Every change, wire first, sorted (breaking first within an area), each once.
    pub changes: Vec<Change>,
    /// Operations of the new crate (`operationId`, `Client` method) that `hub_api::Client` has no
    /// wrapper for, sorted; the `bool` is true for an operation the old surface did not have.
    pub unwrapped: Vec<(String, String, bool)>,
}

/// The inputs of a report: both specs' text and both surfaces.
#[derive(Clone, Copy, Debug)]
pub struct Inputs<'a> {
    /// The spec before the change.
    pub old_spec: &'a str,
    /// The spec after it.
    pub new_spec: &'a str,
    /// The public API surface generated from the old spec (the checked-in snapshot).
    pub old_surface: &'a str,
    /// The public API surface generated from the new spec.
    pub new_surface: &'a str,
    /// The Rust sources of the hand-written client (`src/**/*.rs` of `hub-api`), whose calls
    /// into the generated client are its wrappers; empty for a crate that has none.
    pub wrapper_sources: &'a [String],
}

impl Report {
    /// Compares old and new.
    pub fn build(inputs: &Inputs<'_>) -> Result<Self, Error> {
        let old = crate::load::load(inputs.old_spec, "old spec").map_err(|source| Error::Spec {
            which: "base",
            source: Box::new(source),
        })?;
        let new = crate::load::load(inputs.new_spec, "new spec").map_err(|source| Error::Spec {
            which: "changed",
            source: Box::new(source),
        })?;
        let mut changes: BTreeSet<Change> = spec::diff(&old, &new).into_iter().collect();
        changes.extend(surface::diff(inputs.old_surface, inputs.new_surface));
        let mut changes: Vec<Change> = changes.into_iter().collect();
        changes.sort_by(|a, b| {
            (a.area, a.class, &a.subject, &a.what).cmp(&(b.area, b.class, &b.subject, &b.what))
        });
        let unwrapped = if inputs.wrapper_sources.is_empty() {
            Vec::new()
        } else {
            let old_methods = surface::client_methods(inputs.old_surface);
            wrappers::unwrapped(inputs.new_surface, inputs.wrapper_sources)
                .into_iter()
                .map(|(id, method)| {
                    let new = !old_methods.contains(&method);
                    (id, method, new)
                })
                .collect()
        };
        Ok(Self { changes, unwrapped })
    }

    /// The version bump: the largest any change implies, wire or Rust. A wire break is a major
    /// version even behind an unchanged Rust API: the new crate talks to a server the old one
    /// cannot, and a program that upgrades needs to know.
    pub fn bump(&self) -> Bump {
        self.changes
            .iter()
            .map(|change| change.class.bump())
            .max()
            .unwrap_or(Bump::None)
    }

    /// How many changes of each class, in the order of [`Class`].
    fn counts(&self, area: Area) -> [usize; 3] {
        let mut counts = [0; 3];
        for change in self.changes.iter().filter(|change| change.area == area) {
            counts[change.class as usize] += 1;
        }
        counts
    }

    /// The report for a terminal: one line per change, then the wrappers, then the bump.
    pub fn render_text(&self) -> String {
        let mut out = String::new();
        if self.changes.is_empty() {
            out.push_str("change report: no change to the spec or the crate's public API\n");
        }
        for change in &self.changes {
            let _ = writeln!(
                out,
                "{} {:<10} {change}",
                change.area.word(),
                change.class.word()
            );
        }
        for (id, method, new) in &self.unwrapped {
            let _ = writeln!(
                out,
                "client: hub_api::Client has no wrapper for {id} (generated().{method}()){}",
                if *new { ", new in this change" } else { "" }
            );
        }
        let _ = writeln!(out, "{}", self.bump_line());
        out
    }

    /// The same report as markdown, ready for a pull request.
    pub fn render_markdown(&self) -> String {
        let mut out = String::from("## Change report\n\n");
        let _ = writeln!(out, "**{}**\n", self.bump_line());
        for (area, title, reference) in [
            (
                Area::Wire,
                "On the wire (old clients against the new server, and the reverse)",
                "oasdiff",
            ),
            (
                Area::Rust,
                "For Rust users of the generated crate (semver)",
                "cargo-semver-checks",
            ),
        ] {
            let [breaking, additive, compatible] = self.counts(area);
            let _ = writeln!(
                out,
                "### {title}\n\n{breaking} breaking, {additive} additive, {compatible} compatible \
                 (rules after {reference}).\n"
            );
            let changes: Vec<&Change> = self
                .changes
                .iter()
                .filter(|change| change.area == area)
                .collect();
            if changes.is_empty() {
                out.push_str("No change.\n\n");
                continue;
            }
            out.push_str("| class | what | change | rule |\n|---|---|---|---|\n");
            for change in changes {
                let class = match change.class {
                    Class::Breaking => "**breaking**",
                    other => other.word(),
                };
                let _ = writeln!(
                    out,
                    "| {class} | {} | {} | `{}` |",
                    cell(&change.subject),
                    cell(&change.what),
                    change.rule
                );
            }
            out.push('\n');
        }
        if !self.unwrapped.is_empty() {
            out.push_str(
                "### Operations `hub_api::Client` does not wrap\n\nReachable only through \
                 `Client::generated()`:\n\n",
            );
            for (id, method, new) in &self.unwrapped {
                let _ = writeln!(
                    out,
                    "- `{id}` (`generated().{method}()`){}",
                    if *new { ", new in this change" } else { "" }
                );
            }
            out.push('\n');
        }
        out
    }

    fn bump_line(&self) -> String {
        let [wire_breaking, ..] = self.counts(Area::Wire);
        let [rust_breaking, ..] = self.counts(Area::Rust);
        format!(
            "version bump: {} ({wire_breaking} breaking on the wire, {rust_breaking} breaking for Rust users)",
            self.bump().word()
        )
    }
}

/// `text` as inline code, fenced by two backticks where it holds one (a rule's text quotes its
/// pattern in backticks), so text and markdown both read it whole.
pub(crate) fn code(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// A markdown table cell: pipes escaped, code kept readable.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(area: Area, class: Class) -> Change {
        Change::new(
            area,
            class,
            "schema Flavor",
            "enum value \"x\" removed",
            "rule",
        )
    }

    #[test]
    fn code_holding_a_backtick_is_fenced_by_two() {
        assert_eq!(code("Fast"), "`Fast`");
        assert_eq!(code("where match `^/`"), "`` where match `^/` ``");
    }

    #[test]
    fn the_bump_is_the_largest_any_change_implies() {
        let mut report = Report::default();
        assert_eq!(report.bump(), Bump::None);
        report.changes.push(change(Area::Rust, Class::Compatible));
        assert_eq!(report.bump(), Bump::Patch);
        report.changes.push(change(Area::Wire, Class::Additive));
        assert_eq!(report.bump(), Bump::Minor);
        report.changes.push(change(Area::Wire, Class::Breaking));
        assert_eq!(report.bump(), Bump::Major);
    }

    #[test]
    fn text_and_markdown_say_the_same_changes() {
        let report = Report {
            changes: vec![
                change(Area::Wire, Class::Breaking),
                change(Area::Rust, Class::Additive),
            ],
            unwrapped: vec![("getWhoami".into(), "get_whoami".into(), true)],
        };
        let text = report.render_text();
        assert_eq!(
            text,
            "wire BREAKING   schema Flavor: enum value \"x\" removed [rule]\n\
             rust additive   schema Flavor: enum value \"x\" removed [rule]\n\
             client: hub_api::Client has no wrapper for getWhoami (generated().get_whoami()), new in this change\n\
             version bump: major (1 breaking on the wire, 0 breaking for Rust users)\n"
        );
        let markdown = report.render_markdown();
        assert!(
            markdown
                .contains("| **breaking** | schema Flavor | enum value \"x\" removed | `rule` |")
        );
        assert!(markdown.contains("1 breaking, 0 additive, 0 compatible"));
        assert!(
            markdown.contains("- `getWhoami` (`generated().get_whoami()`), new in this change")
        );
        assert!(markdown.contains("**version bump: major"));
    }
}
