//! The layers cargo cannot see, read from the sources so a new import fails here before review:
//! the floors between each crate's top-level modules (floors.rs), and no circle between files
//! inside one (file_cycles.rs). Both read a file's imports the same way (paths.rs: every
//! `crate::`, `super::` and `self::` path, in a `use`, a group or written inline; comments and
//! strings skipped by lexing.rs). `cargo test --workspace` (and so `make test`) runs them.

mod file_cycles;
mod floors;
mod lexing;
mod paths;

use std::path::{Path, PathBuf};

/// checkout-server's sources.
fn server_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// checkout-sandbox's sources.
fn sandbox_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sandbox/src")
}

/// The card form component's sources (the workspace's root crate).
fn component_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../src")
}
