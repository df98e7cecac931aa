//! The generation report's entries: what became of each thing the pipeline met. Every stage
//! reports through these, so the report is one list, sorted, whatever stage wrote an entry.

/// What became of one thing the pipeline met.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingKind {
    /// Repaired so that it can be generated; the client stays faithful to what was meant.
    Repaired,
    /// A defect of the description (it contradicts itself), handled as its authors meant.
    Defect,
    /// A rule the generated types do not enforce.
    Unenforced,
    /// An operation or schema left out of the generated client.
    Skipped,
}

/// One entry of the generation report.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// Which kind of entry this is.
    pub kind: FindingKind,
    /// The JSON pointer of the source in the original document.
    pub pointer: String,
    /// What was found and what was done.
    pub message: String,
}

impl Finding {
    pub(crate) fn new(kind: FindingKind, pointer: &str, message: impl Into<String>) -> Self {
        Self {
            kind,
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Finding {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            FindingKind::Repaired => "repaired",
            FindingKind::Defect => "defect",
            FindingKind::Unenforced => "unenforced",
            FindingKind::Skipped => "skipped",
        };
        write!(formatter, "{kind} {}: {}", self.pointer, self.message)
    }
}

/// The summary of a run's findings, one line: `26 repaired, 1 defects of the description, 7
/// rules not enforced, 2 left out` (the first line of `report.txt`, which `cargo xtask corpus`
/// reads back).
pub fn summary(findings: &[Finding]) -> String {
    let count = |kind: FindingKind| findings.iter().filter(|f| f.kind == kind).count();
    format!(
        "{} repaired, {} defects of the description, {} rules not enforced, {} left out",
        count(FindingKind::Repaired),
        count(FindingKind::Defect),
        count(FindingKind::Unenforced),
        count(FindingKind::Skipped),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finding_reads_kind_pointer_message_and_sorts_by_kind_first() {
        let skipped = Finding::new(FindingKind::Skipped, "/paths/~1a/get", "left out");
        let repaired = Finding::new(FindingKind::Repaired, "/z", "renamed");
        assert_eq!(skipped.to_string(), "skipped /paths/~1a/get: left out");
        let mut findings = vec![skipped.clone(), repaired.clone()];
        findings.sort();
        assert_eq!(findings, [repaired, skipped]);
    }
}
