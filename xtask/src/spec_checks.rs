//! Spec checks: two independent OpenAPI validators must accept `spec/openapi.yaml`, and must
//! reject a copy with a planted broken `$ref` (proving the check can fail).
//!
//! Two validators because they disagree in useful ways (Python `openapi-spec-validator` checks
//! against the official meta-schema, Redocly walks the document with its own structural rules);
//! the planted copy guards against either one quietly passing everything, for instance after
//! an upgrade or a config change.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};

use crate::tools::Tools;

/// The spec, relative to the workspace root (validators run from there, so messages name it so).
const SPEC: &str = "spec/openapi.yaml";
/// The schema the planted `$ref` points at; it must not exist in the real spec.
const PLANTED_NAME: &str = "DoesNotExist_PlantedByXtask";
const SCHEMA_REF_PREFIX: &str = "#/components/schemas/";

pub fn run(root: &Path) -> Result<()> {
    let text = fs::read_to_string(root.join(SPEC))
        .with_context(|| format!("reading {SPEC} (the spec checks validate it)"))?;
    let tools = Tools::new(root);
    tools.ensure_python_venv()?;
    tools.ensure_node_modules()?;

    // Both validators run before failing, so one run shows every complaint.
    let mut rejections = Vec::new();
    for validator in Validator::ALL {
        let verdict = validator.check(&tools, root, Path::new(SPEC))?;
        let word = if verdict.accepted {
            "accepts"
        } else {
            "rejects"
        };
        println!(
            "spec check: {} {word} {SPEC} ({:.1}s)",
            validator.name(),
            verdict.seconds
        );
        if verdict.accepted {
            // Redocly's `minimal` ruleset reports style findings as warnings: shown, not fatal.
            for warning in verdict
                .output
                .lines()
                .filter(|line| line.contains("  warning  "))
            {
                println!("    {}", warning.trim());
            }
        } else {
            rejections.push(format!(
                "{} rejects {SPEC}:\n{}",
                validator.name(),
                tidy(&verdict.output)
            ));
        }
    }
    if !rejections.is_empty() {
        bail!(
            "{SPEC} is not a valid OpenAPI document\n\n{}",
            rejections.join("\n\n")
        );
    }

    let broken = plant_broken_ref(&text)?;
    let scratch = ScratchDir::new()?;
    let copy = scratch.0.join("openapi.yaml");
    fs::write(&copy, broken).with_context(|| format!("writing {}", copy.display()))?;
    let mut failures = Vec::new();
    for validator in Validator::ALL {
        let verdict = validator.check(&tools, root, &copy)?;
        let name = validator.name();
        if verdict.accepted {
            println!("spec check: {name} ACCEPTS planted broken $ref (it must reject it)");
            failures.push(format!(
                "{name} accepted a copy of {SPEC} with a broken $ref"
            ));
        } else if !verdict.output.contains(validator.planted_evidence()) {
            // A crash or an unrelated complaint would also fail; only the planted $ref counts.
            println!("spec check: {name} rejects planted broken $ref, but for another reason");
            failures.push(format!(
                "{name} rejected the planted copy without mentioning `{}`:\n{}",
                validator.planted_evidence(),
                tidy(&verdict.output)
            ));
        } else {
            println!("spec check: {name} rejects planted broken $ref (as it must)");
        }
    }
    if !failures.is_empty() {
        bail!(
            "the spec checks cannot be trusted to fail (check the validator pins and \
             tools/redocly.yaml)\n\n{}",
            failures.join("\n\n")
        );
    }
    Ok(())
}

#[derive(Clone, Copy)]
enum Validator {
    OpenapiSpecValidator,
    Redocly,
}

struct Verdict {
    accepted: bool,
    /// stdout then stderr.
    output: String,
    seconds: f64,
}

impl Validator {
    const ALL: [Self; 2] = [Self::OpenapiSpecValidator, Self::Redocly];

    fn name(self) -> &'static str {
        match self {
            Self::OpenapiSpecValidator => "openapi-spec-validator",
            Self::Redocly => "redocly",
        }
    }

    /// What the output must mention when the planted copy is rejected.
    fn planted_evidence(self) -> &'static str {
        match self {
            // It names the missing target in its error.
            Self::OpenapiSpecValidator => PLANTED_NAME,
            // Its stylish format names the rule, not the target.
            Self::Redocly => "no-unresolved-refs",
        }
    }

    /// Runs the validator on `spec` (relative paths are relative to `root`).
    fn check(self, tools: &Tools, root: &Path, spec: &Path) -> Result<Verdict> {
        let mut command = match self {
            Self::OpenapiSpecValidator => {
                let mut command = tools.python_command();
                command.args(["-m", "openapi_spec_validator", "--validation-errors", "all"]);
                command
            }
            Self::Redocly => {
                let mut command = tools.redocly_command();
                command
                    .args(["lint", "--format", "stylish", "--config"])
                    .arg(tools.redocly_config());
                command
            }
        };
        command.arg(spec).current_dir(root);
        let start = Instant::now();
        let output = command.output().with_context(|| {
            format!(
                "running {} (delete tools/.venv and tools/node_modules to reinstall)",
                self.name()
            )
        })?;
        Ok(Verdict {
            accepted: output.status.success(),
            output: format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            ),
            seconds: start.elapsed().as_secs_f64(),
        })
    }
}

/// Validator output made readable: no blank lines, no Redocly Node-version banner, and no
/// multi-kilobyte lines (openapi-spec-validator prints the whole document in a `$ref` error).
fn tidy(output: &str) -> String {
    const MAX: usize = 300;
    let mut tidied = String::new();
    for line in output.lines() {
        if line.trim().is_empty() || line.contains(['║', '╔', '╚']) {
            continue;
        }
        match line.char_indices().nth(MAX) {
            Some((cut, _)) => tidied.push_str(&format!("  {}…", &line[..cut])),
            None => tidied.push_str(&format!("  {line}")),
        }
        tidied.push('\n');
    }
    tidied.truncate(tidied.trim_end().len());
    tidied
}

/// The spec text with its first `$ref: '#/components/schemas/<Name>'` line pointed at a schema
/// that does not exist. Plain text surgery, so the rest of the document is byte-for-byte the
/// same and the validators have nothing else to complain about.
fn plant_broken_ref(yaml: &str) -> Result<String> {
    if yaml.contains(PLANTED_NAME) {
        bail!(
            "{SPEC} already mentions {PLANTED_NAME}; the planted-broken-$ref check needs a name it does not use"
        );
    }
    let mut planted = false;
    let mut out = String::with_capacity(yaml.len() + PLANTED_NAME.len());
    for line in yaml.split_inclusive('\n') {
        match if planted { None } else { plant_in_line(line) } {
            Some(replacement) => {
                out.push_str(&replacement);
                planted = true;
            }
            None => out.push_str(line),
        }
    }
    if !planted {
        bail!(
            "{SPEC} has no line `$ref: '{SCHEMA_REF_PREFIX}<Name>'`, so the check that the \
             validators reject a broken $ref has nothing to break"
        );
    }
    Ok(out)
}

/// `line` with its `$ref` retargeted, if it is a block-style `$ref:` key (possibly a list item)
/// whose whole value is a reference to a component schema.
fn plant_in_line(line: &str) -> Option<String> {
    let body = line.trim_end_matches(['\n', '\r']);
    let ending = &line[body.len()..];
    let at = body.find("$ref:")?;
    let indent = &body[..at];
    // Only indentation and list dashes before the key: not a flow mapping, not prose.
    if !indent.chars().all(|c| c == ' ' || c == '-') {
        return None;
    }
    let value = body[at + "$ref:".len()..].trim();
    // Quoted, because an unquoted `#` starts a YAML comment.
    let unquoted = ['\'', '"']
        .into_iter()
        .find_map(|quote| value.strip_prefix(quote)?.strip_suffix(quote))?;
    let name = unquoted.strip_prefix(SCHEMA_REF_PREFIX)?;
    if name.is_empty() || name.contains(char::is_whitespace) {
        return None;
    }
    Some(format!(
        "{indent}$ref: '{SCHEMA_REF_PREFIX}{PLANTED_NAME}'{ending}"
    ))
}

/// A fresh directory under the system temp dir, removed when dropped (also on early returns).
struct ScratchDir(PathBuf);

impl ScratchDir {
    fn new() -> Result<Self> {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("xtask-spec-check-{}-{nanos}", std::process::id()));
        // create_dir, not create_dir_all: never reuse someone else's directory.
        fs::create_dir(&path).with_context(|| format!("creating {}", path.display()))?;
        Ok(Self(path))
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLANTED: &str = "'#/components/schemas/DoesNotExist_PlantedByXtask'";

    #[test]
    fn plants_only_the_first_schema_ref_and_keeps_the_rest() {
        let yaml = "paths:\n  schema:\n    $ref: '#/components/schemas/A'\n    other:\n      $ref: \"#/components/schemas/B\"\n";
        let expected = format!(
            "paths:\n  schema:\n    $ref: {PLANTED}\n    other:\n      $ref: \"#/components/schemas/B\"\n"
        );
        assert_eq!(plant_broken_ref(yaml).unwrap(), expected);
    }

    #[test]
    fn handles_list_items_and_crlf() {
        let yaml = "allOf:\r\n  - $ref: '#/components/schemas/Base'\r\n";
        let expected = format!("allOf:\r\n  - $ref: {PLANTED}\r\n");
        assert_eq!(plant_broken_ref(yaml).unwrap(), expected);
    }

    #[test]
    fn skips_refs_that_are_not_component_schemas_or_not_keys() {
        let yaml = "\
description: use $ref: '#/components/schemas/Prose' here
r: { $ref: '#/components/schemas/Flow' }
c:
  $ref: #/components/schemas/Comment
'404':
  $ref: '#/components/responses/NotFound'
s:
  $ref: '#/components/schemas/Real'
";
        let planted = plant_broken_ref(yaml).unwrap();
        assert!(
            planted.contains("Prose") && planted.contains("Flow") && planted.contains("NotFound")
        );
        assert!(planted.contains("Comment"));
        assert!(!planted.contains("Real"));
        assert!(planted.contains(&format!("  $ref: {PLANTED}\n")));
    }

    #[test]
    fn fails_loudly_without_a_schema_ref_or_when_the_name_is_taken() {
        assert!(plant_broken_ref("openapi: 3.1.0\n").is_err());
        let taken = "x:\n  $ref: '#/components/schemas/DoesNotExist_PlantedByXtask'\n";
        assert!(plant_broken_ref(taken).is_err());
    }
}
