//! `cargo xtask layers`: the import graph of `codegen/src`, checked against its layers.
//!
//! Codegen is built as layers that only look down (ARCHITECTURE.md): the document model and the
//! report at the bottom, then the rules and the names of the emitted support code, then the
//! generator contract, then the stages in the order a document passes through them, then the
//! pipeline that runs them. A module may use any module of a lower layer, and a stage any
//! earlier stage; anything else (an upward or sideways import, and so any cycle) fails the
//! check, naming the file and the path it used.
//!
//! The graph is read from the text: every `crate::a::b` path outside comments and outside the
//! `#[cfg(test)] mod tests` block, mapped to the top-level module it names. Tests may reach
//! anywhere, and a module's children belong to it.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};

/// The layers, lowest first. Modules in one layer may not use each other, except in
/// [`STAGES`], where each stage may use those listed before it.
const LAYERS: &[&[&str]] = &[
    &["error", "load", "model", "report", "runtime"],
    &["rules"],
    &["contract"],
    STAGES,
    &["conventions", "standalone"],
];

/// The stages, in the order a document passes through them (`bundle` first reads a description
/// split over files as one document, naming schemas as typify would; `swagger2` converts a
/// Swagger 2.0 document; `surface` and `cli` read what `emit` wrote; `sdk` writes a standalone
/// crate's root, README and credentials around it; `changes` compares two documents and two
/// surfaces).
const STAGES: &[&str] = &[
    "bundle",
    "swagger2",
    "normalize",
    "downlevel",
    "patch",
    "emit",
    "surface",
    "cli",
    "sdk",
    "changes",
];

/// Which top-level modules each top-level module of `codegen/src` uses, with one example path
/// per edge (for the message).
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// Prints the graph and its layers, and fails on an import that does not look down.
pub fn command(root: &Path, args: &[String]) -> Result<()> {
    if !args.is_empty() {
        bail!("usage: cargo xtask layers");
    }
    let graph = graph(&read_sources(&root.join("codegen/src"))?);
    for (layer, modules) in LAYERS.iter().enumerate() {
        println!("layer {layer}:");
        for module in *modules {
            let uses: Vec<&str> = graph
                .get(*module)
                .map(|edges| edges.keys().map(String::as_str).collect())
                .unwrap_or_default();
            println!("  {module} -> {}", uses.join(", "));
        }
    }
    let violations = violations(&graph);
    if !violations.is_empty() {
        bail!(
            "{} import(s) in codegen/src do not look down:\n  {}",
            violations.len(),
            violations.join("\n  ")
        );
    }
    println!("layers: every import of codegen/src looks down (no cycle)");
    Ok(())
}

/// Every `.rs` file under `dir`, as (module path, text), e.g. `patch::unions`.
fn read_sources(dir: &Path) -> Result<BTreeMap<String, String>> {
    let mut sources = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in
            std::fs::read_dir(&current).with_context(|| format!("reading {}", current.display()))?
        {
            let path = entry?.path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|extension| extension == "rs") {
                let relative = path.strip_prefix(dir).expect("below the root");
                let mut parts: Vec<String> = relative
                    .with_extension("")
                    .components()
                    .map(|part| part.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
                    parts.pop();
                }
                let text = std::fs::read_to_string(&path)
                    .with_context(|| format!("reading {}", path.display()))?;
                sources.insert(parts.join("::"), text);
            }
        }
    }
    Ok(sources)
}

/// The top-level module graph of `sources` (module path → text).
fn graph(sources: &BTreeMap<String, String>) -> Graph {
    let mut graph = Graph::new();
    for (module, text) in sources {
        let Some(from) = module.split("::").next().filter(|top| !top.is_empty()) else {
            continue; // lib.rs declares the modules; it is the root, above every layer.
        };
        // Every module is in the graph, so one that uses nothing is still placed in a layer.
        graph.entry(from.to_owned()).or_default();
        for path in crate_paths(text) {
            let to = path.split("::").next().unwrap_or_default();
            let is_module = sources
                .keys()
                .any(|known| known.split("::").next() == Some(to));
            if is_module && to != from {
                graph
                    .entry(from.to_owned())
                    .or_default()
                    .entry(to.to_owned())
                    .or_insert_with(|| format!("{module}: crate::{path}"));
            }
        }
    }
    graph
}

/// The `crate::...` paths `text` uses outside comments and its unit tests; a group
/// (`crate::{emit, model::push}`) gives one path per member.
fn crate_paths(text: &str) -> Vec<String> {
    let code: String = text
        .split("#[cfg(test)]\nmod tests")
        .next()
        .unwrap_or_default()
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let mut depth = 0;
            let mut member = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => paths.push(std::mem::take(&mut member)),
                    _ => member.push(c),
                }
            }
            paths.push(member);
            rest = group;
        } else {
            let end = after
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .unwrap_or(after.len());
            paths.push(after[..end].to_owned());
            rest = &after[end..];
        }
    }
    paths
        .into_iter()
        .map(|path| path.trim().trim_end_matches(':').to_owned())
        .filter(|path| !path.is_empty())
        .collect()
}

/// Each edge of `graph` that does not look down, as a line naming the place.
fn violations(graph: &Graph) -> Vec<String> {
    let rank = |module: &str| -> Option<(usize, usize)> {
        LAYERS.iter().enumerate().find_map(|(layer, modules)| {
            let position = modules.iter().position(|known| *known == module)?;
            // Only the stages are ordered inside their layer.
            Some((layer, if *modules == STAGES { position } else { 0 }))
        })
    };
    let mut found = Vec::new();
    for (from, edges) in graph {
        let Some((from_layer, from_step)) = rank(from) else {
            found.push(format!("{from} is in no layer (add it to LAYERS)"));
            continue;
        };
        for (to, example) in edges {
            match rank(to) {
                // `to` is a key of the graph too, and is reported there.
                None => {}
                Some((to_layer, to_step)) => {
                    let looks_down = to_layer < from_layer
                        || (to_layer == from_layer
                            && LAYERS[from_layer] == STAGES
                            && to_step < from_step);
                    if !looks_down {
                        found.push(format!("{from} uses {to} ({example})"));
                    }
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(files: &[(&str, &str)]) -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(module, text)| ((*module).to_owned(), (*text).to_owned()))
            .collect()
    }

    #[test]
    fn codegen_imports_only_look_down() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../codegen/src");
        let graph = graph(&read_sources(&root).expect("codegen/src is readable"));
        assert!(graph.contains_key("emit"), "the graph was read: {graph:?}");
        assert_eq!(violations(&graph), Vec::<String>::new());
    }

    #[test]
    fn an_upward_or_sideways_import_is_named() {
        let graph = graph(&sources(&[
            ("model", "use crate::rules::Rule;\n"),
            ("rules", "fn f() { crate::model::push(); }\n"),
            (
                "normalize",
                "use crate::patch::Applied; // crate::emit in a comment\n",
            ),
            ("patch", "use crate::normalize::x;\n"),
            (
                "downlevel",
                "use crate::{\n    model::{self, push},\n    emit,\n};\n",
            ),
            ("emit", ""),
            ("runtime", "use crate::rules::x;\n"),
        ]));
        assert_eq!(
            violations(&graph),
            [
                "downlevel uses emit (downlevel: crate::emit)",
                "model uses rules (model: crate::rules::Rule)",
                "normalize uses patch (normalize: crate::patch::Applied)",
                "runtime uses rules (runtime: crate::rules::x)",
            ]
        );
    }

    #[test]
    fn unit_tests_and_children_may_reach_anywhere() {
        let graph = graph(&sources(&[
            (
                "model",
                "fn a() {}\n#[cfg(test)]\nmod tests {\n    use crate::emit::x;\n}\n",
            ),
            ("patch", "use crate::patch::unions::x;\n"),
            ("patch::unions", "use crate::patch::Target;\n"),
            ("emit", ""),
        ]));
        assert_eq!(violations(&graph), Vec::<String>::new());
    }

    #[test]
    fn a_module_in_no_layer_is_reported() {
        let graph = graph(&sources(&[
            ("helpers", "use crate::model::push;\n"),
            ("model", ""),
            ("unused", ""),
        ]));
        assert_eq!(
            violations(&graph),
            [
                "helpers is in no layer (add it to LAYERS)",
                "unused is in no layer (add it to LAYERS)",
            ]
        );
    }
}
