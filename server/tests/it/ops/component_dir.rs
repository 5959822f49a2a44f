//! `serve` started outside the repository, with no card form's build under its working
//! directory nor beside its executable, stops at start naming both folders and
//! `COMPONENT_DIR`, instead of serving a frame that says the form is missing (issue 49).

use std::time::Duration;

use crate::cli::{checkout_server_stops, text};

#[test]
fn serve_without_the_component_stops_at_start_saying_where_it_looked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("shop.db").display().to_string();
    let done = checkout_server_stops(
        dir.path(),
        &["serve"],
        &[
            ("DATABASE_URL", &database),
            ("LISTEN", "127.0.0.1:0"),
            ("DEMO_LISTEN", "off"),
            ("DASHBOARD_LISTEN", "off"),
        ],
        Duration::from_secs(60),
    );
    assert!(!done.status.success(), "it started without a component");
    let stderr = text(&done.stderr);
    let working_dir = dir.path().canonicalize().expect("temp dir").join("dist");
    let executable = std::path::Path::new(env!("CARGO_BIN_EXE_checkout-server"));
    let beside = executable.parent().expect("bin dir").join("dist");
    for looked in [&working_dir, &beside] {
        assert!(
            stderr.contains(&looked.display().to_string()),
            "{} not named: {stderr}",
            looked.display()
        );
    }
    assert!(
        stderr.contains("set COMPONENT_DIR to the folder that holds it"),
        "{stderr}"
    );
}
