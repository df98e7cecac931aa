//! `hub-api-validate --schema <ComponentName> [--jsonl] <FILE>...`: decodes each instance (a
//! file, or each non-empty line with `--jsonl`) into the generated Rust type of a component
//! schema, through serde and the codegen patches (not a JSON Schema library), and prints, in
//! order, `ok` or `err: <path>: <reason>` per instance, followed by one indented
//! `  <path>: <reason>` line for each further problem of that instance. Exits 0 only when every
//! instance is ok, 1 when one is not, 2 on a usage or I/O error. `cargo xtask validate` runs it.

use std::process::ExitCode;

use hub_api_client::schemas;
use hub_api_validate::{Failure, did_you_mean, problems};

const USAGE: &str = "usage: hub-api-validate --schema <ComponentName> [--jsonl] <FILE>...";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(2)
        }
    }
}

/// Returns whether every instance decoded; `Err` for a usage or I/O problem.
fn run(args: Vec<String>) -> Result<bool, String> {
    let mut schema = None;
    let mut jsonl = false;
    let mut files = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--schema" => schema = Some(args.next().ok_or(USAGE)?),
            "--jsonl" => jsonl = true,
            "--help" | "-h" => {
                println!("{USAGE}");
                return Ok(true);
            }
            flag if flag.starts_with("--") => {
                return Err(format!("unknown option `{flag}`\n{USAGE}"));
            }
            _ => files.push(arg),
        }
    }
    let schema = schema.ok_or(USAGE)?;
    if files.is_empty() {
        return Err(USAGE.to_owned());
    }
    if !schemas::NAMES.contains(&schema.as_str()) {
        let listed = schemas::NAMES
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let hint = did_you_mean(&format!("`{schema}` expected {listed}"))
            .map(|nearest| format!(" (did you mean `{nearest}`?)"))
            .unwrap_or_default();
        return Err(format!(
            "no component schema `{schema}`{hint}; the spec has: {}",
            schemas::NAMES.join(", ")
        ));
    }
    let decode = |json: &str| match schemas::decode(&schema, json) {
        Some(Ok(_)) => Ok(()),
        Some(Err(error)) => Err(Failure {
            path: error.path,
            message: error.message,
        }),
        // Checked against `schemas::NAMES` above; kept as a problem rather than a panic.
        None => Err(Failure {
            path: String::new(),
            message: format!("no component schema `{schema}`"),
        }),
    };

    let mut all_ok = true;
    for file in &files {
        let text =
            std::fs::read_to_string(file).map_err(|error| format!("reading {file}: {error}"))?;
        let instances: Vec<&str> = if jsonl {
            text.lines()
                .filter(|line| !line.trim().is_empty())
                .collect()
        } else {
            vec![&text]
        };
        for instance in instances {
            let found = problems(instance, decode);
            let mut lines = found.iter();
            match lines.next() {
                None => println!("ok"),
                Some(first) => {
                    all_ok = false;
                    println!("err: {first}");
                    for further in lines {
                        println!("  {further}");
                    }
                }
            }
        }
    }
    Ok(all_ok)
}
