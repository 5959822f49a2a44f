//! The layers cargo cannot see: checkout-server's library must not name the sandbox crate (only
//! its binary composes the two), and no service (payments, subscriptions, reconcile), store or
//! gateway module may reach up into `api`, the one layer that knows HTTP. Read from the
//! sources, so a new import fails here before review.

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files
}

fn offenders(dir: &str, needles: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    rust_files(&root.join(dir))
        .into_iter()
        .filter(|path| !path.starts_with(root.join("bin")))
        .flat_map(|path| {
            let text = std::fs::read_to_string(&path).expect("readable source");
            needles
                .iter()
                .filter(|needle| text.contains(**needle))
                .map(|needle| format!("{} uses {needle}", path.display()))
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn the_library_names_no_sandbox_and_no_demo() {
    let found = offenders("", &["checkout_sandbox", "crate::sandbox", "crate::demo"]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn services_store_and_gateway_know_nothing_of_http_handlers() {
    for layer in ["payments", "subscriptions", "reconcile", "store", "gateway"] {
        let found = offenders(layer, &["crate::api", "super::api", "axum::"]);
        assert!(found.is_empty(), "{layer}: {found:#?}");
    }
}
