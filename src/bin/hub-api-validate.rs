//! `hub-api-validate --schema <ComponentName> [--jsonl] <FILE>...`: decodes each instance (a
//! file, or each non-empty line with `--jsonl`) into the generated Rust type of a component
//! schema, through serde and the codegen patches (not a JSON Schema library), and prints `ok`
//! or `err: <path>: <reason>` per instance, in order. Exits 0 only when every instance is ok.
//! `cargo xtask validate` runs it.

use std::process::ExitCode;

use hub_api::generated::schemas;

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
        return Err(format!(
            "no component schema `{schema}`; the spec has: {}",
            schemas::NAMES.join(", ")
        ));
    }

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
            match schemas::decode(&schema, instance).expect("name checked above") {
                Ok(_) => println!("ok"),
                Err(error) => {
                    all_ok = false;
                    let path = if error.path.is_empty() {
                        "."
                    } else {
                        &error.path
                    };
                    println!("err: {path}: {}", error.message);
                }
            }
        }
    }
    Ok(all_ok)
}
