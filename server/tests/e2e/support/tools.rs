//! What the suite needs from the machine besides the browsers (support/engine.rs): the built
//! shop (`dist/`), and where it writes (screenshots, logs). A missing engine skips its
//! scenarios with a [`loud`] notice written straight to the terminal (libtest does not capture
//! raw stderr writes); a missing `dist/` is a failure, because it means the build step was
//! skipped.

use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The workspace root (the folder holding `dist/`, `docs/`, `screenshots/`).
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server/ has a parent folder")
        .to_path_buf()
}

/// The trunk output the server serves as the card form's frame (`COMPONENT_DIR` overrides, as
/// for the server).
pub fn dist_dir() -> PathBuf {
    match std::env::var_os("COMPONENT_DIR").filter(|d| !d.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => workspace_root().join("dist"),
    }
}

/// Panics with the fix when the shop was not built.
pub fn require_dist() -> PathBuf {
    let dist = dist_dir();
    assert!(
        dist.join("index.html").is_file(),
        "{} has no index.html: build the component first with `scripts/component.sh` \
         (scripts/test.sh does this before the end-to-end suite)",
        dist.display()
    );
    dist
}

/// Writes a banner to the real stderr, past libtest's output capture.
pub fn loud(message: &str) {
    let line = "!".repeat(100);
    let mut stderr = std::io::stderr().lock();
    let _ = writeln!(stderr, "\n{line}\n!!! {message}\n{line}\n");
}

/// `screenshots/` at the workspace root (git-ignored), created on first use.
pub fn screenshot_dir() -> PathBuf {
    let dir = workspace_root().join("screenshots");
    std::fs::create_dir_all(&dir).expect("create screenshots/");
    dir
}

/// Where the README's picture of the form lives (committed).
pub fn readme_screenshot_path() -> PathBuf {
    workspace_root()
        .join("docs")
        .join("img")
        .join("checkout-form.png")
}

/// Writes the README's picture of the form when it is missing, or when
/// `UPDATE_README_SCREENSHOT=1` asks for a new one (so ordinary runs leave git clean).
pub fn save_readme_screenshot(png: &[u8]) {
    let path = readme_screenshot_path();
    let asked = std::env::var("UPDATE_README_SCREENSHOT").is_ok_and(|v| v == "1");
    if asked || !path.is_file() {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create docs/img");
        }
        std::fs::write(&path, png).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }
}
