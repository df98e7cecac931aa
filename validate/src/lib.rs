//! Every problem of an instance, not only the first, found through the generated types.
//!
//! serde stops at the first error. [`problems`] decodes again and again: each time it records the
//! error, removes the offending node from a copy of the instance and decodes the rest. The
//! decoder is any function that decodes text the way the `schemas` registry does, so the
//! verdict stays the generated types' own, for every component schema, with no per-type code.
//!
//! Why removal finds everything: a derived (or emitted) struct decoder visits the entries of an
//! object in order and reports a missing field only after it has visited all of them. So when
//! removing a bad required field makes its object fail with "missing field", the object's other
//! entries have all been checked; the object is then removed from its parent in turn, and the
//! parent's later entries get checked. Errors that only exist because of a removal (that
//! "missing field", an array now shorter than its minimum) are not reported.
//!
//! [`did_you_mean`] suggests the nearest value when serde lists the expected ones (a misspelt
//! enum value or an unknown field).

use std::collections::BTreeMap;

use serde_json::Value;

/// One problem: where (a path such as `job.network.group`, `.` for the whole instance) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The path of the offending value, as the registry writes it.
    pub path: String,
    /// The broken rule, with a suggestion appended when one is near.
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A decoding failure as the registry reports it: a path (empty for the whole instance) and a
/// message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The path of the offending value; empty for the whole instance.
    pub path: String,
    /// The broken rule.
    pub message: String,
}

/// Every problem of `text` under `decode` (which returns `Err` with the first problem, as serde
/// does). Empty when `text` decodes. Bounded: at most one decode per node of the instance, plus
/// two.
pub fn problems(text: &str, decode: impl Fn(&str) -> Result<(), Failure>) -> Vec<Problem> {
    let Err(first) = decode(text) else {
        return Vec::new();
    };
    // A duplicate key or trailing text is only visible in the text; the rest works on the value.
    let Ok(mut instance) = serde_json::from_str::<Value>(text) else {
        return vec![problem(&first.path, &first.message)];
    };
    // The loop below reports the value's first problem itself, at the key's own path where the
    // decoder names the object's; the text's first problem is kept only when the value does not
    // show it (a duplicate key collapses in the value).
    let mut found = match decode(&instance.to_string()) {
        Err(again) if again.message == first.message => Vec::new(),
        _ => vec![problem(&first.path, &first.message)],
    };
    let mut origin = Origin::default();
    let budget = node_count(&instance) + 2;
    for _ in 0..budget {
        let Err(failure) = decode(&instance.to_string()) else {
            break;
        };
        let Some(segments) = parse_path(&failure.path) else {
            report(&mut found, &failure.path, &failure.message);
            break;
        };
        let original = origin.original_path(&segments);
        if let Some(field) = quoted_after(&failure.message, "unknown field `") {
            // serde names the unknown key; its path is the object's, or the key's own.
            let object = if segments.last() == Some(&Segment::Key(field.to_owned())) {
                &segments[..segments.len() - 1]
            } else {
                &segments[..]
            };
            let mut key_path = origin.original_path(object);
            key_path.push(Segment::Key(field.to_owned()));
            report(&mut found, &render(&key_path), &failure.message);
            if !origin.remove(&mut instance, object, &Segment::Key(field.to_owned())) {
                break;
            }
            continue;
        }
        let artificial = match quoted_after(&failure.message, "missing field `") {
            // Missing because an earlier round removed it: the removal's own problem is reported.
            Some(field) => origin.removed_child(&original, &Segment::Key(field.to_owned())),
            // A node that lost children to removals may now break a size rule it did not break.
            None => origin.lost_children(&original),
        };
        if !artificial {
            report(&mut found, &render(&original), &failure.message);
        }
        // The node at the path is the bad one ("missing field" names a child of it): remove it.
        let Some((last, parent)) = segments.split_last() else {
            break;
        };
        if !origin.remove(&mut instance, parent, last) {
            break;
        }
    }
    found
}

/// Adds a problem unless the same one is there already (the first decode of the text and the
/// first of the value usually agree).
fn report(found: &mut Vec<Problem>, path: &str, message: &str) {
    let problem = problem(path, message);
    if !found.contains(&problem) {
        found.push(problem);
    }
}

fn problem(path: &str, message: &str) -> Problem {
    let path = if path.is_empty() { "." } else { path };
    let message = match did_you_mean(message) {
        Some(nearest) => format!("{}; did you mean `{nearest}`?", shorten_expected(message)),
        None => message.to_owned(),
    };
    Problem {
        path: path.to_owned(),
        message,
    }
}

/// With a suggestion at hand, a long list of expected values (a 30-value enum) is noise: it is
/// replaced by its length.
fn shorten_expected(message: &str) -> String {
    const LONGEST_LIST: usize = 6;
    match message.split_once("expected one of ") {
        Some((before, list)) if list.matches('`').count() / 2 > LONGEST_LIST => {
            format!(
                "{before}expected one of {} values",
                list.matches('`').count() / 2
            )
        }
        _ => message.to_owned(),
    }
}

/// The expected value nearest to the given one, when serde's message names both
/// (``unknown variant `a10g-smal`, expected one of `cpu-basic`, `a10g-small`, …``) and the
/// nearest is close enough to be a likely misspelling.
pub fn did_you_mean(message: &str) -> Option<String> {
    let given = quoted_after(message, "`")?;
    let (_, expected) = message.split_once("expected")?;
    let candidates = expected.split('`').skip(1).step_by(2);
    // The same rule as a generated enum's `FromStr` error (the support crate's).
    hub_api_support::suggest::nearest(given, candidates).map(str::to_owned)
}

/// The text between `prefix` and the next backtick.
fn quoted_after<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let (_, rest) = message.split_once(prefix)?;
    rest.split_once('`').map(|(quoted, _)| quoted)
}

/// One step of a path: an object key or an array index.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Segment {
    Key(String),
    Index(usize),
}

/// Reads a registry path (`watched[0].name`, `secrets.HF_TOKEN`); `None` when it cannot be read
/// back unambiguously (serde_path_to_error writes `?` for a step it could not name).
fn parse_path(path: &str) -> Option<Vec<Segment>> {
    let mut segments = Vec::new();
    if path.is_empty() || path == "." {
        return Some(segments);
    }
    for part in path.split('.') {
        let (key, mut indices) = match part.find('[') {
            Some(at) => part.split_at(at),
            None => (part, ""),
        };
        if key == "?" {
            return None;
        }
        if !key.is_empty() {
            segments.push(Segment::Key(key.to_owned()));
        }
        while let Some(rest) = indices.strip_prefix('[') {
            let (index, after) = rest.split_once(']')?;
            segments.push(Segment::Index(index.parse().ok()?));
            indices = after;
        }
        if !indices.is_empty() {
            return None;
        }
    }
    Some(segments)
}

/// Writes a path back the way the registry does.
fn render(segments: &[Segment]) -> String {
    let mut out = String::new();
    for segment in segments {
        match segment {
            Segment::Key(key) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Index(index) => out.push_str(&format!("[{index}]")),
        }
    }
    if out.is_empty() { ".".to_owned() } else { out }
}

/// What has been removed from the instance so far, by original path, so that paths in the
/// shrinking copy can be reported as paths in the instance the user gave.
#[derive(Default)]
struct Origin {
    /// For each array that lost elements (by original path): the original indices still there.
    kept: BTreeMap<Vec<Segment>, Vec<usize>>,
    /// Every removed node, by original path.
    removed: Vec<Vec<Segment>>,
}

impl Origin {
    /// The original path of a path in the current copy.
    fn original_path(&self, current: &[Segment]) -> Vec<Segment> {
        let mut original = Vec::with_capacity(current.len());
        for segment in current {
            let mapped = match segment {
                Segment::Index(index) => match self.kept.get(&original) {
                    Some(kept) => Segment::Index(kept.get(*index).copied().unwrap_or(*index)),
                    None => segment.clone(),
                },
                Segment::Key(_) => segment.clone(),
            };
            original.push(mapped);
        }
        original
    }

    fn removed_child(&self, parent: &[Segment], child: &Segment) -> bool {
        self.removed.iter().any(|path| {
            path.len() == parent.len() + 1 && path.starts_with(parent) && path.last() == Some(child)
        })
    }

    fn lost_children(&self, parent: &[Segment]) -> bool {
        self.removed
            .iter()
            .any(|path| path.len() == parent.len() + 1 && path.starts_with(parent))
    }

    /// Removes `child` of the node at `parent` (current paths) from `instance`; false when there
    /// is no such node.
    fn remove(&mut self, instance: &mut Value, parent: &[Segment], child: &Segment) -> bool {
        let Some(node) = locate(instance, parent) else {
            return false;
        };
        let original_parent = self.original_path(parent);
        match (node, child) {
            (Value::Object(map), Segment::Key(key)) => {
                if map.shift_remove(key).is_none() {
                    return false;
                }
                let mut path = original_parent;
                path.push(child.clone());
                self.removed.push(path);
            }
            (Value::Array(items), Segment::Index(index)) if *index < items.len() => {
                items.remove(*index);
                let length = items.len() + 1;
                let kept = self
                    .kept
                    .entry(original_parent.clone())
                    .or_insert_with(|| (0..length).collect());
                let original_index = kept.remove(*index);
                let mut path = original_parent;
                path.push(Segment::Index(original_index));
                self.removed.push(path);
            }
            _ => return false,
        }
        true
    }
}

fn locate<'a>(value: &'a mut Value, path: &[Segment]) -> Option<&'a mut Value> {
    path.iter()
        .try_fold(value, |node, segment| match (node, segment) {
            (Value::Object(map), Segment::Key(key)) => map.get_mut(key),
            (Value::Array(items), Segment::Index(index)) => items.get_mut(*index),
            _ => None,
        })
}

fn node_count(value: &Value) -> usize {
    1 + match value {
        Value::Object(map) => map.values().map(node_count).sum(),
        Value::Array(items) => items.iter().map(node_count).sum(),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_the_nearest_expected_value() {
        let message =
            "unknown variant `a10g-smal`, expected one of `cpu-basic`, `a10g-small`, `a10g-large`";
        assert_eq!(did_you_mean(message).as_deref(), Some("a10g-small"));
        let two = "unknown variant `unred`, expected `all` or `unread`";
        assert_eq!(did_you_mean(two).as_deref(), Some("unread"));
        // Nothing near: no guess.
        let far = "unknown variant `gpu`, expected one of `cpu-basic`, `a10g-small`";
        assert_eq!(did_you_mean(far), None);
        assert_eq!(did_you_mean("must be at least 1; got 0"), None);
    }

    #[test]
    fn paths_read_back_as_written() {
        for path in [
            "job.network.group",
            "watched[0].name",
            "[3]",
            "a[1][2].b",
            ".",
        ] {
            let segments = parse_path(path).unwrap();
            assert_eq!(render(&segments), path);
        }
        assert_eq!(parse_path("a.?.b"), None);
    }
}
