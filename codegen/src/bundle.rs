//! A description split over files, read as one document: the root file and every file its
//! `$ref`s reach, bundled into one self-contained JSON value before anything else runs.
//!
//! Publishers ship large descriptions as a root file plus relative references
//! (`$ref: ./paths/pets.yaml`, `$ref: '../schemas/Pet.yaml#/Pet'`,
//! `$ref: 'resources/users.yml#/paths/~1users'`), anywhere: path items, operations,
//! parameters, bodies, responses, headers, examples, schemas, even a tag's `description`. Every
//! later step reads one document, so the bundler makes it one. It does no I/O of its own: the
//! caller hands it a reader (`xtask` reads files; tests read a map), so [`crate::generate`] and
//! [`crate::generate_crate`] stay pure.
//!
//! Resolution: a `$ref` not starting with `#` is `<relative path>[#<fragment>]`, resolved against
//! the directory of the file that holds it (`.` and `..` taken lexically), its `%XX` escapes
//! decoded. Without a fragment it means the whole file. A fragment, and an internal `#...` ref
//! inside an external file, is a JSON pointer into that file. A file is named in messages and
//! in the document by its path relative to the root file's directory, never by where it sits on
//! the machine. A file ending in `.md`, `.markdown`, `.txt` or `.html` is text (a description
//! given by `$ref`); any other is YAML or JSON, read by [`crate::load`].
//!
//! Placement:
//! - a **schema** (the `$ref` sits where a schema belongs: under `schema`, in
//!   `components/schemas` or `definitions`, under a subschema keyword of
//!   [`crate::model::SUBSCHEMA_KEYWORDS`], or as a `discriminator` mapping's target) becomes a
//!   component, `#/components/schemas/<Name>` (`#/definitions/<Name>` in Swagger 2.0), named
//!   from the fragment's last token or else the file's stem as typify names types, numbered
//!   when the name is taken. One file and fragment is always one component: a schema used
//!   from many files is one Rust type, and a recursive schema (across files too) refers to
//!   itself instead of being copied without end. A copy would not do: every later step names
//!   types after components (typify and progenitor follow only `#/components/schemas/<Name>`),
//!   so a schema copied into each place that uses it would be as many Rust types, each named
//!   after a place. A root `components/schemas/<Name>` that is only a `$ref` to a file becomes
//!   that schema under its own name;
//! - **anything else** (path items, operations, parameters, responses, bodies, headers,
//!   examples, a description's text) is copied where the `$ref` was, its own references
//!   resolved in turn; such references that lead back into themselves are a defect, read as
//!   `{}`, never followed without end;
//! - a reference into the root file from another file becomes the root's own `#...`
//!   reference, and the root's internal references stay as they are;
//! - a URL (`https://...`) is not fetched: it is left for `normalize`, which reports it and
//!   degrades it where it sits, as it does a reference to a place a file does not have.
//!
//! Every file that cannot be read or parsed is a defect, each reported once, naming the file and
//! the `$ref` that first needed it (a parse error with the file's own line and column); its
//! references stay as they are, so `normalize` degrades each where it sits, as it does a URL's.
//! Only a root file that cannot be read or parsed stops the bundle: there is nothing else.
//! Each piece read from another file is reported once, as a repair, at its first use.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::model::{Nesting, SUBSCHEMA_KEYWORDS, percent_decoded, push, unescape};
use crate::report::{Finding, FindingKind};
use crate::{Error, load};

/// A description bundled into one document.
#[derive(Clone, Debug)]
pub struct Bundled {
    /// The self-contained document: no `$ref` names another file any more (but a URL, or a
    /// place a file does not have, which `normalize` reports).
    pub document: Value,
    /// The text the document is known by, which the generated header hashes: the root file's
    /// own text when nothing was bundled, else the bundled document as compact JSON (its map
    /// order is the files' order, so the same files give the same text).
    pub text: String,
    /// One repair per piece read from another file, a defect per reference cycle.
    pub findings: Vec<Finding>,
    /// Every file read, relative to the root file's directory, the root first.
    pub files: Vec<String>,
}

/// Bundles the description whose root file is `root`, reading each file through `read` (given
/// `root`'s directory joined with the file's path relative to it).
pub fn bundle(root: &Path, read: impl Fn(&Path) -> io::Result<String>) -> Result<Bundled, Error> {
    let root_key = root
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let root_dir = root.parent().map(Path::to_path_buf).unwrap_or_default();
    let root_text = read(root).map_err(|error| Error::Unreadable {
        file: root_key.clone(),
        reason: io_reason(&error),
        needed_by: "it is the description's root file".to_owned(),
    })?;
    let mut document = parse(&root_key, &root_text)?;
    let schemas_at = if document.get("swagger").is_some() {
        "/definitions"
    } else {
        "/components/schemas"
    };
    let mut bundler = Bundler {
        read: &read,
        root_dir,
        root_key: root_key.clone(),
        schemas_at,
        // The root is never read through this map (a reference into it becomes the root's own
        // reference), so it is not held twice.
        files: BTreeMap::from([(root_key.clone(), None)]),
        files_read: vec![root_key.clone()],
        problems: Vec::new(),
        components: BTreeMap::new(),
        taken: BTreeSet::new(),
        pending: Vec::new(),
        inlined: BTreeMap::new(),
        inlining: Vec::new(),
        reported: BTreeSet::new(),
        findings: Vec::new(),
        changed: false,
    };
    // Most descriptions are one file: a look without a copy or a pointer settles that.
    if refers_to_files(&document) {
        bundler.claim_root_components(&document);
        bundler.walk(&mut document, &root_key, Place::Other, "");
    }
    let mut built = Vec::new();
    let mut next = 0;
    // Components found while building components are built too, in the order first met.
    while let Some((target, name)) = bundler.pending.get(next).cloned() {
        next += 1;
        let mut schema = bundler
            .value_at(&target)
            .cloned()
            .unwrap_or(Value::Object(Map::new()));
        let pointer = push(schemas_at, &name);
        bundler.walk(&mut schema, &target.file, Place::Schema, &pointer);
        built.push((name, schema));
    }
    // Every file that could not be read or parsed, once: what needs it is degraded by
    // `normalize` where it sits, so one missing file costs its references, not the document.
    for problem in std::mem::take(&mut bundler.problems) {
        bundler.findings.push(Finding::new(
            FindingKind::Defect,
            "",
            format!("{problem}; its references are degraded where they sit"),
        ));
    }
    if !built.is_empty() {
        insert_components(&mut document, schemas_at, built);
    }
    let text = if bundler.changed {
        serde_json::to_string(&document).unwrap_or_default()
    } else {
        root_text
    };
    Ok(Bundled {
        document,
        text,
        findings: bundler.findings,
        files: bundler.files_read,
    })
}

/// A place in one file: the file (relative to the root's directory) and a JSON pointer in it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Target {
    file: String,
    pointer: String,
}

impl Target {
    /// The target as a reader writes it, relative to the root: `schemas/Pet.yaml#/Pet`.
    fn display(&self) -> String {
        if self.pointer.is_empty() {
            self.file.clone()
        } else {
            format!("{}#{}", self.file, self.pointer)
        }
    }
}

/// What a value is, read from where it sits: it decides whether a `$ref` there becomes a
/// component or a copy, and which keys hold data rather than references.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Place {
    /// Any OpenAPI object that is not a schema.
    Other,
    /// A schema.
    Schema,
    /// A map of names to schemas (`components/schemas`, `properties`, `$defs`, ...).
    SchemaMap,
    /// An `examples` map of Example objects.
    Examples,
    /// An Example object, whose `value` is data.
    Example,
}

/// One bundling run: the files read so far, the components given, the pieces copied, and
/// what was found.
struct Bundler<'r, R> {
    read: &'r R,
    root_dir: PathBuf,
    root_key: String,
    /// Where schemas become components: `/components/schemas`, or `/definitions` in Swagger 2.0.
    schemas_at: &'static str,
    /// Each file met, parsed; `None` when it could not be read or parsed (already a problem).
    files: BTreeMap<String, Option<Value>>,
    files_read: Vec<String>,
    problems: Vec<Error>,
    /// The component each external schema became.
    components: BTreeMap<Target, String>,
    /// Component names in use (the root's own and those given).
    taken: BTreeSet<String>,
    /// Components to build, in the order first met.
    pending: Vec<(Target, String)>,
    /// Each copied piece, bundled once, by where it came from and what it is.
    inlined: BTreeMap<(Target, Place), Value>,
    /// The pieces being copied, innermost last: a reference to one of them is a cycle.
    inlining: Vec<Target>,
    /// Targets already reported (one finding each, at the first use).
    reported: BTreeSet<Target>,
    findings: Vec<Finding>,
    /// Whether any reference was rewritten: when not, the root's text stands for the document.
    changed: bool,
}

impl<R: Fn(&Path) -> io::Result<String>> Bundler<'_, R> {
    /// Takes the root's component names, and gives each root component that is only a `$ref`
    /// to a file's schema that schema, under its own name (`Pet: {$ref: schemas/Pet.yaml}` is
    /// the component `Pet`, not a `Pet` that refers to a `Pet2`).
    fn claim_root_components(&mut self, document: &Value) {
        let Some(schemas) = document.pointer(self.schemas_at).and_then(Value::as_object) else {
            return;
        };
        self.taken.extend(schemas.keys().cloned());
        for (name, schema) in schemas {
            let Some(reference) = schema.get("$ref").and_then(Value::as_str) else {
                continue;
            };
            if is_url(reference) || reference.starts_with('#') {
                continue;
            }
            let root_key = self.root_key.clone();
            let Some(target) = self.external_target(reference, &root_key) else {
                continue;
            };
            if target.file == self.root_key
                || self.components.contains_key(&target)
                || self.value_at(&target).is_none()
            {
                continue;
            }
            self.components.insert(target.clone(), name.clone());
            self.pending.push((target, name.clone()));
        }
    }

    /// Bundles `value`, which sits in `file` at `place`; `pointer` is where it lands in the
    /// bundled document (for findings).
    fn walk(&mut self, value: &mut Value, file: &str, place: Place, pointer: &str) {
        if let Some(reference) = value.get("$ref").and_then(Value::as_str) {
            let reference = reference.to_owned();
            self.reference(value, &reference, file, place, pointer);
            return;
        }
        match value {
            Value::Object(object) => {
                for (key, child) in object.iter_mut() {
                    let Some(child_place) = self.child_place(place, pointer, key, child) else {
                        continue;
                    };
                    let child_pointer = push(pointer, key);
                    match child_place {
                        // A list keyword of a schema (`allOf`, draft-04's list of `items`).
                        Place::Schema if child.is_array() => {
                            for (index, member) in
                                child.as_array_mut().into_iter().flatten().enumerate()
                            {
                                let at = format!("{child_pointer}/{index}");
                                self.walk(member, file, Place::Schema, &at);
                            }
                        }
                        _ => self.walk(child, file, child_place, &child_pointer),
                    }
                }
                if place == Place::Schema {
                    self.discriminator_mapping(value, file, pointer);
                }
            }
            Value::Array(items) if place == Place::Other => {
                for (index, item) in items.iter_mut().enumerate() {
                    self.walk(item, file, place, &format!("{pointer}/{index}"));
                }
            }
            _ => {}
        }
    }

    /// What the value under `key` of a value at `place` is; `None` for data, which holds no
    /// references (examples, defaults, literal sets).
    fn child_place(&self, place: Place, pointer: &str, key: &str, child: &Value) -> Option<Place> {
        match place {
            Place::SchemaMap => Some(Place::Schema),
            Place::Examples => Some(Place::Example),
            Place::Example if key == "value" => None,
            Place::Other | Place::Example => Some(match key {
                "schema" => Place::Schema,
                "example" | "enum" | "const" => return None,
                "examples" if child.is_object() => Place::Examples,
                "examples" => return None,
                "schemas" if pointer == "/components" => Place::SchemaMap,
                "definitions" if pointer.is_empty() && self.schemas_at == "/definitions" => {
                    Place::SchemaMap
                }
                _ => Place::Other,
            }),
            Place::Schema => {
                let nesting = SUBSCHEMA_KEYWORDS
                    .iter()
                    .find(|(keyword, _)| *keyword == key)
                    .map(|(_, nesting)| *nesting)
                    .or((key == "definitions").then_some(Nesting::Map))?;
                Some(match nesting {
                    Nesting::One | Nesting::List => Place::Schema,
                    Nesting::Map => Place::SchemaMap,
                })
            }
        }
    }

    /// Bundles the `$ref` object `value` (sitting in `file` at `place`).
    fn reference(
        &mut self,
        value: &mut Value,
        reference: &str,
        file: &str,
        place: Place,
        pointer: &str,
    ) {
        if is_url(reference) || (reference.starts_with('#') && file == self.root_key) {
            // A URL is for `normalize` to report; the root's own references stay.
            return;
        }
        let Some(target) = self.external_target(reference, file) else {
            return;
        };
        let at = push(pointer, "$ref");
        if target.file == self.root_key {
            // Back into the root: the root's own reference.
            if target.pointer.is_empty() {
                self.defect(&at, reference, "the whole root document, which is no schema or object of its own; read as `{}`");
                *value = Value::Object(Map::new());
            } else if let Some(object) = value.as_object_mut() {
                let fragment = reference
                    .split_once('#')
                    .map_or("", |(_, fragment)| fragment);
                object.insert("$ref".into(), Value::String(format!("#{fragment}")));
            }
            self.changed = true;
            return;
        }
        if self.value_at(&target).is_none() {
            // An unreadable file is a problem already; a place the file does not have is left
            // for `normalize`, which degrades it where it sits.
            return;
        }
        self.changed = true;
        if place == Place::Schema {
            let name = self.component(&target, &at);
            if let Some(object) = value.as_object_mut() {
                object.insert("$ref".into(), Value::String(self.local_reference(&name)));
            }
            return;
        }
        if self.inlining.contains(&target) {
            self.defect(
                &at,
                &target.display(),
                "it leads back into itself; read as `{}`",
            );
            *value = Value::Object(Map::new());
            return;
        }
        let key = (target.clone(), place);
        let copy = match self.inlined.get(&key) {
            Some(copy) => copy.clone(),
            None => {
                let mut copy = self.value_at(&target).cloned().unwrap_or_default();
                self.inlining.push(target.clone());
                self.walk(&mut copy, &target.file.clone(), place, pointer);
                self.inlining.pop();
                self.inlined.insert(key, copy.clone());
                copy
            }
        };
        if self.reported.insert(target.clone()) {
            self.findings.push(Finding::new(
                FindingKind::Repaired,
                &at,
                format!(
                    "`$ref` to `{}`: read from that file and copied here",
                    target.display()
                ),
            ));
        }
        *value = with_siblings(copy, value);
    }

    /// A `discriminator`'s `mapping` naming schemas in other files (`dog: Dog.yaml`) names
    /// their components instead. A bare name (`dog: Dog`) is a component name and stays.
    fn discriminator_mapping(&mut self, schema: &mut Value, file: &str, pointer: &str) {
        let Some(mapping) = schema
            .get_mut("discriminator")
            .and_then(|discriminator| discriminator.get_mut("mapping"))
            .and_then(Value::as_object_mut)
        else {
            return;
        };
        let at = push(&push(pointer, "discriminator"), "mapping");
        for (key, target) in mapping.iter_mut() {
            let Some(reference) = target.as_str() else {
                continue;
            };
            let names_a_file = reference.contains('#')
                || [".yaml", ".yml", ".json"]
                    .iter()
                    .any(|extension| reference.ends_with(extension));
            if !names_a_file
                || is_url(reference)
                || (reference.starts_with('#') && file == self.root_key)
            {
                continue;
            }
            let Some(resolved) = self.external_target(reference, file) else {
                continue;
            };
            if resolved.file == self.root_key {
                let fragment = reference
                    .split_once('#')
                    .map_or("", |(_, fragment)| fragment);
                *target = Value::String(format!("#{fragment}"));
                self.changed = true;
            } else if self.value_at(&resolved).is_some() {
                let name = self.component(&resolved, &push(&at, key));
                *target = Value::String(self.local_reference(&name));
                self.changed = true;
            }
        }
    }

    /// The component `target`'s schema becomes, named and queued on first use.
    fn component(&mut self, target: &Target, at: &str) -> String {
        let name = match self.components.get(target) {
            Some(name) => name.clone(),
            None => {
                let name = self.unique_name(&component_word(target));
                self.taken.insert(name.clone());
                self.components.insert(target.clone(), name.clone());
                self.pending.push((target.clone(), name.clone()));
                name
            }
        };
        if self.reported.insert(target.clone()) {
            self.findings.push(Finding::new(
                FindingKind::Repaired,
                at,
                format!(
                    "`$ref` to `{}`: read from that file; the schema becomes the component `{name}`",
                    target.display()
                ),
            ));
        }
        name
    }

    /// `word` as typify names a type, numbered (`Pet2`, `Pet3`, ...) when taken.
    fn unique_name(&self, word: &str) -> String {
        let base = crate::contract::typify_name(word);
        let base = if base.is_empty() {
            "Schema".to_owned()
        } else {
            base
        };
        let mut candidate = base.clone();
        let mut counter = 2;
        while self.taken.contains(&candidate) {
            candidate = format!("{base}{counter}");
            counter += 1;
        }
        candidate
    }

    fn local_reference(&self, name: &str) -> String {
        format!("#{}", push(self.schemas_at, name))
    }

    /// The place `reference` (written in `file`) names, its file read on first use; `None` for
    /// a reference that is not to a file.
    fn external_target(&mut self, reference: &str, file: &str) -> Option<Target> {
        let (path, fragment) = reference.split_once('#').unwrap_or((reference, ""));
        let fragment = percent_decoded(fragment).unwrap_or_else(|| fragment.to_owned());
        let target_file = if path.is_empty() {
            file.to_owned()
        } else {
            let path = percent_decoded(path).unwrap_or_else(|| path.to_owned());
            relative_to(file, &path)
        };
        self.load(&target_file, reference, file);
        Some(Target {
            file: target_file,
            pointer: fragment,
        })
    }

    /// Reads and parses `file` on first use; a failure is a problem, once per file.
    fn load(&mut self, file: &str, reference: &str, referrer: &str) {
        if self.files.contains_key(file) {
            return;
        }
        let path = file
            .split('/')
            .fold(self.root_dir.clone(), |path, part| path.join(part));
        let parsed = match (self.read)(&path) {
            Ok(text) => {
                self.files_read.push(file.to_owned());
                match parse(file, &text) {
                    Ok(value) => Some(value),
                    Err(error) => {
                        self.problems.push(error);
                        None
                    }
                }
            }
            Err(error) => {
                self.problems.push(Error::Unreadable {
                    file: file.to_owned(),
                    reason: io_reason(&error),
                    needed_by: format!("`$ref: {reference}` in {referrer} needs it"),
                });
                None
            }
        };
        self.files.insert(file.to_owned(), parsed);
    }

    /// The value `target` names, when its file was read and has the place.
    fn value_at(&self, target: &Target) -> Option<&Value> {
        self.files
            .get(&target.file)?
            .as_ref()?
            .pointer(&target.pointer)
    }

    fn defect(&mut self, at: &str, reference: &str, what: &str) {
        self.findings.push(Finding::new(
            FindingKind::Defect,
            at,
            format!("`$ref` to `{reference}`: {what}"),
        ));
    }
}

/// Whether anything in `value` may name another file: a `$ref` that is not the document's own
/// (`#...`), or a `discriminator` mapping to a file. Data is looked at too; a walk that finds
/// nothing to bundle changes nothing.
fn refers_to_files(value: &Value) -> bool {
    match value {
        Value::Object(object) => object
            .iter()
            .any(|(key, inner)| match (key.as_str(), inner) {
                ("$ref", Value::String(reference)) => !reference.starts_with('#'),
                ("mapping", Value::Object(mapping)) => mapping.values().any(|target| {
                    target.as_str().is_some_and(|target| {
                        !target.starts_with('#') && target.contains(['.', '#'])
                    })
                }),
                _ => refers_to_files(inner),
            }),
        Value::Array(items) => items.iter().any(refers_to_files),
        _ => false,
    }
}

/// Parses a file: text for a document meant to be read (`.md`, ...), else YAML or JSON.
fn parse(file: &str, text: &str) -> Result<Value, Error> {
    let extension = file.rsplit_once('.').map_or("", |(_, extension)| extension);
    if ["md", "markdown", "txt", "html", "htm"].contains(&extension.to_ascii_lowercase().as_str()) {
        return Ok(Value::String(text.to_owned()));
    }
    load::load(text, file)
}

/// Puts each component built into the document's schemas, after those there; a root component
/// that was only a `$ref` to it is replaced where it stands, keeping what stood beside the
/// `$ref` (a `description`).
fn insert_components(document: &mut Value, schemas_at: &str, built: Vec<(String, Value)>) {
    let mut holder = &mut *document;
    for token in schemas_at.split('/').skip(1) {
        let Some(object) = holder.as_object_mut() else {
            return;
        };
        holder = object
            .entry(token.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    let Some(schemas) = holder.as_object_mut() else {
        return;
    };
    for (name, schema) in built {
        let schema = match schemas.get(&name) {
            Some(standing) => with_siblings(schema, standing),
            None => schema,
        };
        schemas.insert(name, schema);
    }
}

/// `copy`, with what stood beside the `$ref` in `reference` laid over it (3.1 lets a
/// reference's `summary` and `description` override its target's).
fn with_siblings(mut copy: Value, reference: &Value) -> Value {
    if let (Some(object), Some(siblings)) = (copy.as_object_mut(), reference.as_object()) {
        for (key, sibling) in siblings {
            if key != "$ref" {
                object.insert(key.clone(), sibling.clone());
            }
        }
    }
    copy
}

/// The word a component is named from: the fragment's last token, else the file's stem.
fn component_word(target: &Target) -> String {
    match target.pointer.rsplit('/').next() {
        Some(token) if !target.pointer.is_empty() && !token.is_empty() => unescape(token),
        _ => {
            let name = target.file.rsplit('/').next().unwrap_or(&target.file);
            name.split('.').next().unwrap_or(name).to_owned()
        }
    }
}

/// `path` (written in `file`) relative to the root's directory, `.` and `..` taken lexically;
/// a `..` above the root's directory is kept.
fn relative_to(file: &str, path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    let directory = file.rsplit_once('/').map_or("", |(directory, _)| directory);
    for part in directory.split('/').chain(path.split('/')) {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|last| *last != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// Whether a reference is a URL (`https://...`, `//host/...`, any `scheme:`), which is not
/// fetched.
fn is_url(reference: &str) -> bool {
    if reference.starts_with("//") {
        return true;
    }
    let before_path = reference.split(['/', '#']).next().unwrap_or_default();
    before_path.split_once(':').is_some_and(|(scheme, _)| {
        scheme.len() > 1
            && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

/// An I/O error's reason without the machine's paths.
fn io_reason(error: &io::Error) -> String {
    match error.kind() {
        io::ErrorKind::NotFound => "no such file".to_owned(),
        _ => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Bundles `files[root]` reading only `files`, as a caller's reader would.
    fn bundle_map(root: &str, files: &[(&str, &str)]) -> Result<Bundled, Error> {
        let files: BTreeMap<PathBuf, String> = files
            .iter()
            .map(|(path, text)| (PathBuf::from(path), (*text).to_owned()))
            .collect();
        bundle(Path::new(root), |path| {
            files
                .get(path)
                .cloned()
                .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))
        })
    }

    fn messages(bundled: &Bundled) -> Vec<String> {
        bundled.findings.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn path_items_in_other_files_are_copied_in_place() {
        let bundled = bundle_map(
            "api/openapi.yaml",
            &[
                (
                    "api/openapi.yaml",
                    "openapi: 3.1.0\npaths:\n  /pets:\n    $ref: paths/pets.yaml\n",
                ),
                (
                    "api/paths/pets.yaml",
                    "get:\n  operationId: listPets\n  parameters:\n    - $ref: '../parameters.yaml#/limit'\n  responses:\n    '200':\n      description: ok\n      content:\n        application/json:\n          schema:\n            type: array\n            items: {$ref: '../schemas/Pet.yaml'}\n",
                ),
                (
                    "api/parameters.yaml",
                    "limit: {name: limit, in: query, schema: {type: integer}}\n",
                ),
                ("api/schemas/Pet.yaml", "type: object\nproperties: {name: {type: string}}\n"),
            ],
        )
        .unwrap();
        let get = &bundled.document["paths"]["/pets"]["get"];
        assert_eq!(get["operationId"], "listPets");
        assert_eq!(
            get["parameters"][0],
            json!({"name": "limit", "in": "query", "schema": {"type": "integer"}})
        );
        assert_eq!(
            get["responses"]["200"]["content"]["application/json"]["schema"]["items"],
            json!({"$ref": "#/components/schemas/Pet"})
        );
        assert_eq!(
            bundled.document["components"]["schemas"]["Pet"]["properties"]["name"],
            json!({"type": "string"})
        );
        assert_eq!(
            bundled.files,
            [
                "openapi.yaml",
                "paths/pets.yaml",
                "parameters.yaml",
                "schemas/Pet.yaml"
            ]
        );
        assert_eq!(
            messages(&bundled),
            [
                "repaired /paths/~1pets/get/parameters/0/$ref: `$ref` to `parameters.yaml#/limit`: read from that file and copied here",
                "repaired /paths/~1pets/get/responses/200/content/application~1json/schema/items/$ref: `$ref` to `schemas/Pet.yaml`: read from that file; the schema becomes the component `Pet`",
                "repaired /paths/~1pets/$ref: `$ref` to `paths/pets.yaml`: read from that file and copied here",
            ]
        );
        // No machine path anywhere: only paths relative to the root, as the refs wrote them.
        assert!(!bundled.text.contains("api/"), "{}", bundled.text);
    }

    #[test]
    fn a_schema_referenced_from_two_files_is_one_component() {
        let bundled = bundle_map(
            "openapi.yaml",
            &[
                (
                    "openapi.yaml",
                    "openapi: 3.1.0\npaths:\n  /a: {$ref: 'a.yaml'}\n  /b: {$ref: 'dir/b.yaml'}\ncomponents:\n  schemas:\n    Pet: {type: string}\n",
                ),
                (
                    "a.yaml",
                    "get: {responses: {'200': {description: ok, content: {application/json: {schema: {$ref: 'shared.yaml#/Pet'}}}}}}\n",
                ),
                (
                    "dir/b.yaml",
                    "get: {responses: {'200': {description: ok, content: {application/json: {schema: {$ref: './../shared.yaml#/Pet'}}}}}}\n",
                ),
                ("shared.yaml", "Pet: {type: object}\n"),
            ],
        )
        .unwrap();
        let schema = |path: &str| {
            bundled.document["paths"][path]["get"]["responses"]["200"]["content"]
                ["application/json"]["schema"]
                .clone()
        };
        // `Pet` is the root's own: the file's `Pet` is numbered, and both uses share it.
        assert_eq!(schema("/a"), json!({"$ref": "#/components/schemas/Pet2"}));
        assert_eq!(schema("/b"), schema("/a"));
        assert_eq!(
            bundled.document["components"]["schemas"],
            json!({"Pet": {"type": "string"}, "Pet2": {"type": "object"}})
        );
        let components = messages(&bundled)
            .into_iter()
            .filter(|message| message.contains("component"))
            .count();
        assert_eq!(components, 1, "{:?}", bundled.findings);
    }

    #[test]
    fn recursive_schemas_across_two_files_refer_to_each_other() {
        let bundled = bundle_map(
            "openapi.yaml",
            &[
                (
                    "openapi.yaml",
                    "openapi: 3.1.0\ncomponents:\n  schemas:\n    Tree: {$ref: 'schemas/tree.yaml'}\n",
                ),
                (
                    "schemas/tree.yaml",
                    "type: object\nproperties:\n  children: {type: array, items: {$ref: 'node.yaml#/Node'}}\n",
                ),
                (
                    "schemas/node.yaml",
                    "Node:\n  type: object\n  properties:\n    tree: {$ref: 'tree.yaml'}\n    next: {$ref: '#/Node'}\n",
                ),
            ],
        )
        .unwrap();
        assert_eq!(
            bundled.document["components"]["schemas"],
            json!({
                "Tree": {"type": "object", "properties": {"children": {"type": "array",
                    "items": {"$ref": "#/components/schemas/Node"}}}},
                "Node": {"type": "object", "properties": {
                    "tree": {"$ref": "#/components/schemas/Tree"},
                    "next": {"$ref": "#/components/schemas/Node"}}}
            })
        );
    }

    #[test]
    fn internal_references_inside_another_file_point_into_that_file() {
        let bundled = bundle_map(
            "root/openapi.yaml",
            &[
                (
                    "root/openapi.yaml",
                    "openapi: 3.1.0\npaths:\n  /users: {$ref: 'resources/users.yml#/paths/~1users'}\ncomponents:\n  schemas:\n    Error: {type: object}\n",
                ),
                (
                    "root/resources/users.yml",
                    "paths:\n  /users:\n    get:\n      parameters: [{$ref: '#/components/parameters/Page'}]\n      responses:\n        '200': {$ref: '#/components/responses/Users'}\n        default: {description: e, content: {application/json: {schema: {$ref: '../openapi.yaml#/components/schemas/Error'}}}}\ncomponents:\n  parameters:\n    Page: {name: page, in: query, schema: {$ref: '#/components/schemas/Page%20Number'}}\n  responses:\n    Users: {description: users, content: {application/json: {schema: {$ref: '#/components/schemas/User'}}}}\n  schemas:\n    User: {type: object}\n    Page Number: {type: integer}\n",
                ),
            ],
        )
        .unwrap();
        let get = &bundled.document["paths"]["/users"]["get"];
        assert_eq!(
            get["parameters"][0]["schema"],
            json!({"$ref": "#/components/schemas/PageNumber"})
        );
        assert_eq!(
            get["responses"]["200"]["content"]["application/json"]["schema"],
            json!({"$ref": "#/components/schemas/User"})
        );
        // A reference back into the root is the root's own.
        assert_eq!(
            get["responses"]["default"]["content"]["application/json"]["schema"],
            json!({"$ref": "#/components/schemas/Error"})
        );
        let names: Vec<&String> = bundled.document["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(names, ["Error", "PageNumber", "User"]);
    }

    #[test]
    fn a_tag_description_and_an_example_by_reference_are_copied() {
        let bundled = bundle_map(
            "openapi.yaml",
            &[
                (
                    "openapi.yaml",
                    "openapi: 3.1.0\ntags:\n  - name: pets\n    description: {$ref: 'docs/pets.md'}\npaths:\n  /a:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              examples:\n                one: {$ref: 'examples/one.yaml'}\n              example: {$ref: 'not a reference'}\n",
                ),
                ("docs/pets.md", "# Pets\n\nAll about pets.\n"),
                ("examples/one.yaml", "summary: one\nvalue: {$ref: 'data, not a file'}\n"),
            ],
        )
        .unwrap();
        assert_eq!(
            bundled.document["tags"][0]["description"],
            "# Pets\n\nAll about pets.\n"
        );
        let content = &bundled.document["paths"]["/a"]["get"]["responses"]["200"]["content"]["application/json"];
        assert_eq!(
            content["examples"]["one"],
            json!({"summary": "one", "value": {"$ref": "data, not a file"}})
        );
        assert_eq!(content["example"], json!({"$ref": "not a reference"}));
    }

    #[test]
    fn every_missing_file_is_a_defect_naming_it_and_its_referrer() {
        let bundled = bundle_map(
            "openapi.yaml",
            &[
                (
                    "openapi.yaml",
                    "openapi: 3.1.0\npaths:\n  /a: {$ref: 'paths/a.yaml'}\n  /b: {$ref: 'paths/b.yaml'}\n  /c: {$ref: 'paths/c.json'}\n",
                ),
                ("paths/a.yaml", "get: {$ref: '../ops/gone.yaml'}\n"),
                ("paths/c.json", "{\n  \"get\": {\n    \"responses\": ]\n}"),
            ],
        )
        .unwrap();
        let defects: Vec<&str> = bundled
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::Defect)
            .map(|finding| finding.message.as_str())
            .collect();
        assert_eq!(
            defects,
            [
                "ops/gone.yaml: cannot be read (no such file); `$ref: ../ops/gone.yaml` in paths/a.yaml needs it; its references are degraded where they sit",
                "paths/b.yaml: cannot be read (no such file); `$ref: paths/b.yaml` in openapi.yaml needs it; its references are degraded where they sit",
                "paths/c.json:3:18: expected value; its references are degraded where they sit",
            ],
            "{:?}",
            bundled.findings
        );
        // What could be read is bundled; what could not keeps its reference for `normalize`.
        assert_eq!(
            bundled.document["paths"]["/a"]["get"],
            json!({"$ref": "../ops/gone.yaml"})
        );
        assert_eq!(
            bundled.document["paths"]["/b"],
            json!({"$ref": "paths/b.yaml"})
        );
        let root = bundle_map("missing.yaml", &[]).unwrap_err();
        assert_eq!(
            root.to_string(),
            "missing.yaml: cannot be read (no such file); it is the description's root file"
        );
    }

    #[test]
    fn a_url_is_not_fetched_and_normalize_reports_it() {
        let text = "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Item:\n      properties:\n        owner: {$ref: 'https://example.com/shared.yaml#/Owner'}\n        local: {$ref: 'local.yaml'}\n";
        let fetched = std::cell::RefCell::new(Vec::new());
        let bundled = bundle(Path::new("openapi.yaml"), |path| {
            fetched.borrow_mut().push(path.to_path_buf());
            match path.to_str() {
                Some("openapi.yaml") => Ok(text.to_owned()),
                Some("local.yaml") => Ok("$ref: 'http://example.com/other.yaml'\n".to_owned()),
                _ => Err(io::Error::from(io::ErrorKind::NotFound)),
            }
        })
        .unwrap();
        assert_eq!(
            *fetched.borrow(),
            [PathBuf::from("openapi.yaml"), PathBuf::from("local.yaml")]
        );
        let properties = &bundled.document["components"]["schemas"]["Item"]["properties"];
        assert_eq!(
            properties["owner"],
            json!({"$ref": "https://example.com/shared.yaml#/Owner"})
        );
        assert_eq!(
            bundled.document["components"]["schemas"]["Local"],
            json!({"$ref": "http://example.com/other.yaml"})
        );
        let mut document = bundled.document.clone();
        let findings = crate::normalize::normalize(&mut document);
        let not_fetched: Vec<&Finding> = findings
            .iter()
            .filter(|finding| finding.message.contains("not fetched"))
            .collect();
        assert_eq!(not_fetched.len(), 2, "{findings:?}");
    }

    #[test]
    fn references_that_lead_back_into_themselves_are_a_defect() {
        let bundled = bundle_map(
            "openapi.yaml",
            &[
                (
                    "openapi.yaml",
                    "openapi: 3.1.0\npaths:\n  /a: {$ref: 'a.yaml'}\n",
                ),
                ("a.yaml", "get: {$ref: 'b.yaml'}\n"),
                ("b.yaml", "responses: {'200': {$ref: 'a.yaml'}}\n"),
            ],
        )
        .unwrap();
        assert_eq!(
            bundled.document["paths"]["/a"]["get"]["responses"]["200"],
            json!({})
        );
        let defects: Vec<String> = bundled
            .findings
            .iter()
            .filter(|finding| finding.kind == FindingKind::Defect)
            .map(ToString::to_string)
            .collect();
        assert_eq!(
            defects,
            [
                "defect /paths/~1a/get/responses/200/$ref: `$ref` to `a.yaml`: it leads back into itself; read as `{}`"
            ]
        );
    }

    #[test]
    fn a_single_file_bundles_to_itself_and_bundling_is_deterministic() {
        let text = "openapi: 3.1.0\npaths: {/a: {$ref: '#/components/pathItems/A'}}\n";
        let bundled = bundle_map("openapi.yaml", &[("openapi.yaml", text)]).unwrap();
        assert_eq!(bundled.text, text);
        assert!(bundled.findings.is_empty());
        assert_eq!(bundled.document, load::load(text, "openapi.yaml").unwrap());
        let files = [
            (
                "openapi.yaml",
                "openapi: 3.1.0\npaths:\n  /b: {$ref: 'b.yaml'}\n  /a: {$ref: 'a.yaml'}\n",
            ),
            (
                "a.yaml",
                "get: {responses: {'200': {description: ok, content: {application/json: {schema: {$ref: 's.yaml#/Z'}}}}}}\n",
            ),
            (
                "b.yaml",
                "get: {responses: {'200': {description: ok, content: {application/json: {schema: {$ref: 's.yaml#/A'}}}}}}\n",
            ),
            ("s.yaml", "A: {type: string}\nZ: {type: integer}\n"),
        ];
        let first = bundle_map("openapi.yaml", &files).unwrap();
        let second = bundle_map("openapi.yaml", &files).unwrap();
        assert_eq!(first.text, second.text);
        assert_eq!(first.findings, second.findings);
        // Components in the order first met.
        let names: Vec<&String> = first.document["components"]["schemas"]
            .as_object()
            .unwrap()
            .keys()
            .collect();
        assert_eq!(names, ["A", "Z"]);
    }

    #[test]
    fn swagger_2_schemas_become_definitions_and_mappings_name_components() {
        let bundled = bundle_map(
            "swagger.yaml",
            &[
                (
                    "swagger.yaml",
                    "swagger: '2.0'\npaths:\n  /pets:\n    post:\n      parameters:\n        - {name: body, in: body, schema: {$ref: 'defs.yaml#/Pet'}}\n      responses: {'200': {description: ok}}\ndefinitions:\n  Animal: {$ref: 'animal.yaml'}\n",
                ),
                (
                    "animal.yaml",
                    "type: object\ndiscriminator:\n  propertyName: kind\n  mapping:\n    pet: 'defs.yaml#/Pet'\n    wild: Wild\n",
                ),
                ("defs.yaml", "Pet: {allOf: [{$ref: 'animal.yaml'}]}\n"),
            ],
        )
        .unwrap();
        let document = &bundled.document;
        assert_eq!(
            document["paths"]["/pets"]["post"]["parameters"][0]["schema"],
            json!({"$ref": "#/definitions/Pet"})
        );
        assert_eq!(
            document["definitions"]["Pet"],
            json!({"allOf": [{"$ref": "#/definitions/Animal"}]})
        );
        assert_eq!(
            document["definitions"]["Animal"]["discriminator"]["mapping"],
            json!({"pet": "#/definitions/Pet", "wild": "Wild"})
        );
    }

    #[test]
    fn a_place_a_file_does_not_have_is_left_for_normalize_to_degrade() {
        let bundled = bundle_map(
            "openapi.yaml",
            &[
                (
                    "openapi.yaml",
                    "openapi: 3.1.0\ninfo: {title: t, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    Item: {properties: {owner: {$ref: 'shared.yaml#/Gone'}}}\n",
                ),
                ("shared.yaml", "Owner: {type: string}\n"),
            ],
        )
        .unwrap();
        let mut document = bundled.document.clone();
        assert_eq!(
            document["components"]["schemas"]["Item"]["properties"]["owner"],
            json!({"$ref": "shared.yaml#/Gone"})
        );
        let findings = crate::normalize::normalize(&mut document);
        assert!(
            findings.iter().any(|finding| finding.to_string()
                == "defect /components/schemas/Item/properties/owner/$ref: `$ref` to `shared.yaml#/Gone`: another file, which was not bundled or has no such place; read as any JSON value"),
            "{findings:?}"
        );
    }

    #[test]
    fn relative_paths_are_read_lexically() {
        assert_eq!(
            relative_to("openapi.yaml", "./paths/pets.yaml"),
            "paths/pets.yaml"
        );
        assert_eq!(relative_to("a/b/c.yaml", "../../d.yaml"), "d.yaml");
        assert_eq!(relative_to("a/c.yaml", "../../d.yaml"), "../d.yaml");
        assert!(is_url("https://example.com/a.yaml#/B"));
        assert!(is_url("//example.com/a.yaml"));
        assert!(!is_url("schemas/a:b.yaml"));
        assert!(!is_url("#/components/schemas/A"));
    }
}
