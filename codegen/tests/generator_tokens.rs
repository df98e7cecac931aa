//! Everything known about what progenitor and typify write lives in `src/contract/`: no step
//! outside it recognises their output by its tokens, its paths or the names they give. This
//! test reads every source file outside `contract/` (up to its `#[cfg(test)]` module, whose
//! fixtures may spell generated code) and fails on a string literal that spells part of the
//! generators' output, naming the file and line; such a matcher belongs in
//! `contract::typify_output` or `contract::progenitor_output`.

use std::path::{Path, PathBuf};

/// Text that, inside a string literal, spells what the generators write: token-spaced and
/// plain paths, typify's and progenitor's statements, items and names.
const INSIDE: &[&str] = &[
    ":: std",
    ":: serde_json",
    "::std::",
    "::serde_json::",
    "Ok (Self",
    "to_string ()",
    "& str",
    "ConversionError",
    "HeaderName",
    "from_static",
    "OperationInfo",
    "ResponseValue",
    "ByteStream",
];

/// Names the generators give, refused as a whole string literal: their modules, client,
/// builder methods and variables, and the traits, derives and serde flags their items are
/// recognised by; and the prefix the API surface once read our closed-object line back by,
/// which `emit::open_objects::is_closed_doc` now answers.
const WHOLE: &[&str] = &[
    "Closed: ",
    "types",
    "builder",
    "Client",
    "send",
    "new",
    "extra",
    "header_map",
    "Option",
    "TryInto",
    "TryFrom",
    "FromStr",
    "Display",
    "Default",
    "flatten",
    "transparent",
    "deny_unknown_fields",
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("source directory") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "contract") {
                sources(&path, out);
            }
        } else if path.extension().is_some_and(|extension| extension == "rs") {
            out.push(path);
        }
    }
}

/// The string literals of one line of code: the text between its quotes, with escaped quotes
/// and a quote character literal taken out first. Good enough for this crate's sources, which
/// keep no literal over several lines where a generator token could hide.
fn literals(line: &str) -> Vec<String> {
    let line = line
        .replace("\\\\", "")
        .replace("\\\"", "")
        .replace("'\"'", "");
    line.split('"')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Every line of the sources outside `contract/` (up to a `#[cfg(test)]` line) with a string
/// literal that spells generator output, as `file:line: literal`.
fn offending_lines(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    sources(root, &mut files);
    files.sort();
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("readable source");
        for (index, line) in text.lines().enumerate() {
            if line.trim() == "#[cfg(test)]" {
                break;
            }
            if line.trim_start().starts_with("//") {
                continue;
            }
            for literal in literals(line) {
                let inside = INSIDE.iter().find(|needle| literal.contains(*needle));
                if inside.is_some() || WHOLE.contains(&literal.as_str()) {
                    let name = file.strip_prefix(root).unwrap_or(&file).display();
                    found.push(format!("src/{name}:{}: \"{literal}\"", index + 1));
                }
            }
        }
    }
    found
}

#[test]
fn no_generator_tokens_outside_the_contract() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = offending_lines(&root);
    assert!(
        found.is_empty(),
        "generator output recognised outside `src/contract/`; move each matcher there:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_scan_sees_a_matcher() {
    let dir = std::env::temp_dir().join(format!("generator-tokens-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("contract")).unwrap();
    std::fs::write(
        dir.join("step.rs"),
        "//! A step.\nfn f(t: &str) -> bool {\n    t == \"Ok (Self (value . to_string ()))\"\n}\n#[cfg(test)]\nconst T: &str = \"types\";\n",
    )
    .unwrap();
    std::fs::write(dir.join("contract/mod.rs"), "const C: &str = \"types\";\n").unwrap();
    let found = offending_lines(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        ["src/step.rs:3: \"Ok (Self (value . to_string ()))\""]
    );
}
