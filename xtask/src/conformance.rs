//! The conformance step of `cargo xtask test`: runs `tests/conformance.rs` and then
//! `hub-cli/tests/against_mock.rs` (every `hub` command) against Prism, an independent mock
//! server that reads `spec/openapi.yaml` on its own.
//!
//! The test binaries are built first, exactly as the workspace test step before this one built them
//! (same target selection, so the same features and no second build). Then Prism (pinned in
//! `tools/package.json`) is started as `prism mock spec/openapi.yaml` on 127.0.0.1 and a free
//! port, with its defaults: static responses unless a request asks for `Prefer: dynamic=true`,
//! request validation on (a request that breaks the spec gets 422), and nothing that needs the
//! network (the spec is a local file with local `$ref`s only). Once it answers HTTP, the test
//! binaries run with the mock's base URL in [`MOCK_URL_VAR`]. Prism is stopped afterwards,
//! whatever happened: a guard kills its whole process group when dropped, so an error or a
//! panic in between cannot leave it running.

use std::fs::File;
use std::io::{Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::tools::Tools;

/// The variable `tests/conformance.rs` reads the mock's base URL from; without it the test skips.
pub const MOCK_URL_VAR: &str = "HUB_API_MOCK_URL";
/// The spec, relative to the workspace root (Prism runs from there).
const SPEC: &str = "spec/openapi.yaml";
/// Prism's log (every request it received and what it found wrong), kept for the last run.
const LOG: &str = "target/prism-mock.log";
/// Prism needs a few seconds to start; a loaded CI machine may need many more.
const STARTUP_TIMEOUT: Duration = Duration::from_secs(90);
/// How often readiness is polled.
const POLL_INTERVAL: Duration = Duration::from_millis(200);
/// A port found free can be taken by someone else before Prism binds it; then try another.
const START_ATTEMPTS: usize = 3;
/// After SIGTERM, how long Prism may take to exit before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// Starts the mock, runs the conformance tests against it, stops it.
pub fn run(root: &Path) -> Result<()> {
    let tools = Tools::new(root);
    tools.ensure_node_modules()?;
    let binaries = build_test_binaries(root)?;
    let _interrupts = interrupt::Deferred::install();
    let log_path = root.join(LOG);
    if let Some(parent) = log_path.parent() {
        // `target/` is not there yet when the build went to another `CARGO_TARGET_DIR`.
        std::fs::create_dir_all(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let started = Instant::now();
    let mock = Mock::start(&tools, root, &log_path)?;
    println!(
        "conformance: Prism mock at {} ({:.1}s to start; log in {LOG})",
        mock.url,
        started.elapsed().as_secs_f64()
    );

    let tests_started = Instant::now();
    let mut status = None;
    // The client's conformance tests, then every `hub` command; each from its package's directory,
    // where cargo would run it.
    for (binary, directory) in &binaries {
        let outcome = Command::new(binary)
            .env(MOCK_URL_VAR, &mock.url)
            .current_dir(directory)
            .status()
            .with_context(|| format!("running {}", binary.display()))?;
        if !outcome.success() {
            status = Some(outcome);
            break;
        }
    }
    drop(mock);
    if interrupt::happened() {
        bail!("interrupted; the Prism mock was stopped");
    }
    if let Some(status) = status {
        bail!(
            "conformance tests failed ({status}); what the mock received and flagged is in {LOG}"
        );
    }
    println!(
        "conformance: passed ({:.1}s of tests, {:.1}s in all)",
        tests_started.elapsed().as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The test binaries run against the mock: the `conformance` test of `hub-api` and the
/// `against_mock` test of `hub-cli`, each with the directory to run it in.
const MOCK_TESTS: [(&str, &str); 2] = [(".", "conformance"), ("hub-cli", "against_mock")];

/// Builds the workspace tests as the workspace test step does and returns the paths of the
/// [`MOCK_TESTS`] binaries.
///
/// Building them with `cargo test -p hub-api --test conformance` would select fewer targets, so
/// cargo would resolve other features (dev-dependencies of the other members count only when
/// their tests are built) and build `hub-api` and its HTTP stack a second time.
fn build_test_binaries(root: &Path) -> Result<Vec<(PathBuf, PathBuf)>> {
    // Every target as the workspace test step built it: a no-op after that step.
    let messages = built_artifacts(
        root,
        &[
            "test",
            "--workspace",
            "--all-targets",
            "--all-features",
            "--no-run",
        ],
    )?;
    MOCK_TESTS
        .iter()
        .map(|(package_dir, test)| {
            let directory = root.join(package_dir);
            // Compared canonically, in case the workspace was reached through a symlink.
            let manifest = directory.join("Cargo.toml");
            let manifest = std::fs::canonicalize(&manifest).unwrap_or(manifest);
            let is_manifest =
                |path: &str| std::fs::canonicalize(path).is_ok_and(|path| path == manifest);
            messages
                .iter()
                .find(|message| {
                    let target = &message["target"];
                    message["reason"] == "compiler-artifact"
                        && target["name"] == *test
                        && target["kind"] == serde_json::json!(["test"])
                        && message["manifest_path"].as_str().is_some_and(is_manifest)
                })
                .and_then(|message| message["executable"].as_str().map(PathBuf::from))
                .map(|binary| (binary, directory.clone()))
                .with_context(|| {
                    format!("cargo built no `{test}` test in {package_dir}/Cargo.toml")
                })
        })
        .collect()
}

/// Runs `cargo <args> --message-format=json-render-diagnostics` and returns cargo's messages,
/// which name each built executable.
pub fn built_artifacts(root: &Path, args: &[&str]) -> Result<Vec<serde_json::Value>> {
    let args = [args, &["--message-format=json-render-diagnostics"]].concat();
    let output = crate::cargo_command()
        .args(&args)
        .current_dir(root)
        .stderr(Stdio::inherit())
        .output()
        .with_context(|| format!("running cargo {}", args.join(" ")))?;
    if !output.status.success() {
        bail!("cargo {} failed ({})", args.join(" "), output.status);
    }
    Ok(String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect())
}

/// A running Prism. Dropping it stops Prism and everything Prism started.
struct Mock {
    child: Child,
    url: String,
}

impl Mock {
    fn start(tools: &Tools, root: &Path, log_path: &Path) -> Result<Self> {
        let mut last_error = None;
        for attempt in 1..=START_ATTEMPTS {
            let port = free_port()?;
            let log = File::create(log_path)
                .with_context(|| format!("creating {}", log_path.display()))?;
            let mut command = tools.prism_command();
            command
                .args(["mock", SPEC, "--host", "127.0.0.1", "--port"])
                .arg(port.to_string())
                .current_dir(root)
                .stdin(Stdio::null())
                .stdout(log.try_clone().context("sharing the Prism log")?)
                .stderr(log);
            own_process_group(&mut command);
            let child = command.spawn().context(
                "starting Prism from tools/node_modules; delete tools/node_modules and retry",
            )?;
            // From here on the guard owns the process: every early return stops it.
            let mut mock = Self {
                child,
                url: format!("http://127.0.0.1:{port}"),
            };
            match mock.wait_until_ready(port) {
                Ok(()) => return Ok(mock),
                Err(Startup::Exited(status)) if attempt < START_ATTEMPTS => {
                    // Most likely the port was taken in between; the log says, and is kept
                    // if the last attempt fails too.
                    last_error = Some(format!("Prism exited at start ({status})"));
                }
                Err(Startup::Exited(status)) => {
                    bail!("Prism exited at start ({status}):\n{}", log_tail(log_path))
                }
                Err(Startup::TimedOut) => bail!(
                    "Prism did not answer within {}s:\n{}",
                    STARTUP_TIMEOUT.as_secs(),
                    log_tail(log_path)
                ),
                Err(Startup::Interrupted) => bail!("interrupted while Prism was starting"),
                Err(Startup::Io(error)) => return Err(error),
            }
        }
        bail!(
            "Prism did not start in {START_ATTEMPTS} attempts: {}",
            last_error.unwrap_or_default()
        )
    }

    /// Waits until Prism answers an HTTP request, which it does only once the spec is loaded.
    fn wait_until_ready(&mut self, port: u16) -> Result<(), Startup> {
        let address = SocketAddr::from((Ipv4Addr::LOCALHOST, port));
        let deadline = Instant::now() + STARTUP_TIMEOUT;
        loop {
            if interrupt::happened() {
                return Err(Startup::Interrupted);
            }
            let exited = self
                .child
                .try_wait()
                .context("checking on Prism")
                .map_err(Startup::Io)?;
            if let Some(status) = exited {
                return Err(Startup::Exited(status));
            }
            if prism_answers(address) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(Startup::TimedOut);
            }
            thread::sleep(POLL_INTERVAL);
        }
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        stop(&mut self.child);
    }
}

/// Why Prism did not become ready.
enum Startup {
    Exited(ExitStatus),
    TimedOut,
    Interrupted,
    Io(anyhow::Error),
}

/// A port that was free a moment ago: bound to port 0 (the OS picks) and released.
fn free_port() -> Result<u16> {
    let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, 0))
        .context("finding a free port on 127.0.0.1 for Prism")?;
    Ok(listener
        .local_addr()
        .context("reading the free port")?
        .port())
}

/// Whether Prism answers HTTP on `address`. The probe path is in no spec, so Prism answers
/// with its own "no path matched" problem document, whose type URL names Prism: another server
/// that took the port between [`free_port`] and Prism's start cannot pass for it.
fn prism_answers(address: SocketAddr) -> bool {
    const MARKER: &[u8] = b"stoplight.io/prism";
    const MAX_RESPONSE: usize = 16 * 1024;
    let timeout = Duration::from_secs(2);
    let Ok(mut stream) = TcpStream::connect_timeout(&address, timeout) else {
        return false;
    };
    let request = format!(
        "GET /xtask-readiness-probe HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    );
    if stream.set_read_timeout(Some(timeout)).is_err()
        || stream.write_all(request.as_bytes()).is_err()
    {
        return false;
    }
    let mut response = Vec::new();
    let mut chunk = [0_u8; 1024];
    while response.len() < MAX_RESPONSE {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => break,
            Ok(read) => response.extend_from_slice(&chunk[..read]),
        }
        if response
            .windows(MARKER.len())
            .any(|window| window == MARKER)
        {
            return true;
        }
    }
    false
}

/// The end of Prism's log, for an error message.
fn log_tail(log_path: &Path) -> String {
    const LINES: usize = 30;
    let text = std::fs::read_to_string(log_path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(LINES)..].join("\n");
    format!("{tail}\n(full log: {})", PathBuf::from(log_path).display())
}

/// Puts the child in a process group of its own, led by itself, so that stopping the group
/// stops anything it started too. Node is started through a script (`.bin/prism`, and
/// `/usr/bin/env` on the way); killing only the direct child could leave Node behind.
#[cfg(unix)]
fn own_process_group(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn own_process_group(_command: &mut Command) {}

/// Stops the child's process group: SIGTERM, then SIGKILL for whatever is still there after
/// [`STOP_GRACE`]; then reaps the child. Errors are ignored: there is nothing left to do about
/// them, and this runs in `Drop`.
#[cfg(unix)]
fn stop(child: &mut Child) {
    let Ok(group) = libc::pid_t::try_from(child.id()) else {
        let _ = child.kill();
        let _ = child.wait();
        return;
    };
    // The group id is the child's pid (it was started with `process_group(0)`). Even when the
    // child has exited and been reaped, the id cannot name another group while any member of
    // this one is alive, and a new group with that id would need the pid to wrap around first.
    // SAFETY: `killpg` has no memory-safety preconditions; it only sends a signal.
    unsafe {
        libc::killpg(group, libc::SIGTERM);
    }
    let deadline = Instant::now() + STOP_GRACE;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            // The leader is gone; whatever it started goes with the group below.
            break;
        }
        thread::sleep(Duration::from_millis(50));
    }
    // An empty group makes this fail with ESRCH, which is fine.
    // SAFETY: as above.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
    let _ = child.wait();
}

/// Windows has no process groups to signal: `taskkill /T` ends the child and its descendants.
#[cfg(not(unix))]
fn stop(child: &mut Child) {
    let _ = Command::new("taskkill")
        .args(["/T", "/F", "/PID"])
        .arg(child.id().to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

/// Ctrl-C while the mock runs: the terminal sends SIGINT to the foreground process group, which
/// holds xtask and the cargo it runs but not Prism (Prism has its own group). Left to the
/// default action, xtask would die at once, its guard would never run, and Prism would keep
/// running. So while the mock runs, SIGINT only sets a flag in xtask: cargo and the tests still
/// die of it (an exec resets a handled signal to its default), xtask sees them fail, and the
/// guard stops Prism.
mod interrupt {
    use std::sync::atomic::{AtomicBool, Ordering};

    static INTERRUPTED: AtomicBool = AtomicBool::new(false);

    /// Whether SIGINT arrived while [`Deferred`] was installed.
    pub fn happened() -> bool {
        INTERRUPTED.load(Ordering::SeqCst)
    }

    /// Defers SIGINT (see the module documentation) until dropped, which restores the default.
    pub struct Deferred(());

    #[cfg(unix)]
    extern "C" fn record(_signal: libc::c_int) {
        // Only an atomic store: async-signal-safe.
        INTERRUPTED.store(true, Ordering::SeqCst);
    }

    impl Deferred {
        #[cfg(unix)]
        pub fn install() -> Self {
            let handler: extern "C" fn(libc::c_int) = record;
            // SAFETY: `record` is async-signal-safe, and `signal` has no other precondition.
            unsafe {
                libc::signal(libc::SIGINT, handler as libc::sighandler_t);
            }
            Self(())
        }

        /// Elsewhere Ctrl-C stays as it is; `Drop` on the guard still runs on errors and panics.
        #[cfg(not(unix))]
        pub fn install() -> Self {
            Self(())
        }
    }

    impl Drop for Deferred {
        fn drop(&mut self) {
            #[cfg(unix)]
            // SAFETY: restores the default action; no precondition.
            unsafe {
                libc::signal(libc::SIGINT, libc::SIG_DFL);
            }
        }
    }
}
