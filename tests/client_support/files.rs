//! Files and environment for the configuration tests: a temporary directory, the hub token file
//! written with a given mode, and environment changes. Only `std`, so that the client's unit
//! tests (`src/client.rs`) include this very file too: the token-file writer exists once.

// Each includer uses a different subset of these helpers.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// A fresh directory under the system's temporary one, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> Self {
        let path = std::env::temp_dir().join(format!(
            "hub-api-{name}-{}-{:?}",
            std::process::id(),
            std::time::SystemTime::now()
        ));
        std::fs::create_dir_all(&path).expect("temp dir");
        Self(path)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes `content` to `<config>/hub/token` (where the client looks below `XDG_CONFIG_HOME`)
/// with `mode` (on Unix), and returns its path.
pub fn write_token_file(config: &Path, content: &str, mode: u32) -> PathBuf {
    let path = config.join("hub").join("token");
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    std::fs::write(&path, content).expect("write");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).expect("chmod");
    }
    #[cfg(not(unix))]
    let _ = mode;
    path
}

/// Sets the environment variable `name` to `value`, or removes it for `None`.
///
/// Only for a test binary that holds one test, run on a current-thread runtime with IP-literal
/// addresses only (no resolver threads): no other thread exists to read the environment.
pub fn set_env(name: &str, value: Option<&str>) {
    // SAFETY: as the documentation says, the callers are single-threaded test binaries.
    unsafe {
        match value {
            Some(value) => std::env::set_var(name, value),
            None => std::env::remove_var(name),
        }
    }
}
