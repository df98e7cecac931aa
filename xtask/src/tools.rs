//! Pinned external tools (Python and npm) that `cargo xtask test` installs on first use into
//! ignored folders under `tools/`.
