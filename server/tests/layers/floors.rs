//! The floors: each crate's top-level modules stand in a table, top first. A file under
//! `src/<module>` may name another module of its crate only when that module stands on a lower
//! floor: never one above, never a neighbour on its own floor (the two front doors, `api` and
//! `dashboard`, do not know each other). An item the crate root re-exports
//! (`crate::SandboxState`) counts as its module. A module missing from the table fails too, so
//! a new one is placed on purpose. docs/architecture.md draws the same tables.
//!
//! Beside the table: checkout-server's library never names the sandbox crate (only its binary
//! composes the two), and nothing below the web floor speaks HTTP (`axum`), `metrics::http`
//! (the request counter layer) excepted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::paths::{crate_paths, library_files, module_path, root_reexports, rust_files};
use crate::{sandbox_src, server_src};

/// checkout-server's floors, top first.
const SERVER: &[&[&str]] = &[
    // What the binary starts: the listeners and the log.
    &["serve", "logging"],
    // The two front doors: the merchant API and the staff dashboard.
    &["api", "dashboard"],
    // Web plumbing both doors share: state, error shape, idempotency, protection.
    &["web"],
    // The background pass over payments and subscriptions.
    &["reconcile"],
    &["subscriptions"],
    &["payments"],
    // What payments build on: event delivery, the gateway client, the card-testing rules.
    &["events", "gateway", "risk"],
    // Settings, metrics and the merchant API's JSON shapes.
    &["config", "metrics", "views"],
    // The database, the rules for a webhook endpoint, test-only failure points.
    &["store", "webhook_rules", "failpoint"],
];

/// checkout-sandbox's floors, top first: the ledger and the books at the bottom, the state
/// that holds them, charging above it, the HTTP adapters on top.
const SANDBOX: &[&[&str]] = &[
    // What starts it: its own server, or mounted in-process beside checkout-server.
    &["in_process", "server"],
    // What faces the outside: the gateway API (its subscription endpoints included), the 3-D
    // Secure pages, the control API, and the demo shop (a client of checkout-server).
    &["api", "acs", "control", "demo"],
    // HTTP plumbing the adapters share (credentials, JSON bodies, fault injection), and the
    // task that writes the state to disk.
    &["web", "keeper"],
    // A 3-D Secure payment opened and decided; subscription cycles billed.
    &["three_ds", "billing"],
    // Charging a card or a token: the one path every payment takes.
    &["charge"],
    // The shared state: every book below, behind one `Arc`.
    &["state"],
    // The wire answers made of records; webhooks sent and their log.
    &["render", "webhook"],
    &["config"],
    // The sealed snapshot of the books, and its file.
    &["persist"],
    // The books: 3-D Secure sessions, subscriptions, stored cards.
    &["acs_sessions", "subscriptions", "tokens"],
    // The ledger of transactions, and the card a charge or a session holds.
    &["ledger", "charge_card"],
    // Plain rules and values.
    &[
        "card_check",
        "credentials",
        "faults",
        "snapshot_fields",
        "test_cards",
        "validate",
        "velocity",
    ],
    &["error", "clock", "changes"],
];

/// One import that breaks the rule.
#[derive(Debug, PartialEq, Eq)]
struct Offence {
    file: String,
    line: usize,
    named: String,
    why: String,
}

impl std::fmt::Display for Offence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{} names `{}`: {}",
            self.file, self.line, self.named, self.why
        )
    }
}

pub fn floor_of(table: &[&[&str]], module: &str) -> Option<usize> {
    table.iter().position(|floor| floor.contains(&module))
}

/// The offences in one file, `relative` to its crate's `src/` (`api/frame/shell.rs`); `root`
/// maps each item the crate root re-exports (`crate::SandboxState`) to its module.
fn offences(
    table: &[&[&str]],
    root: &BTreeMap<String, String>,
    relative: &str,
    source: &str,
) -> Vec<Offence> {
    let file_module = module_path(relative);
    let Some(own) = file_module.first() else {
        return Vec::new(); // lib.rs: the root names every module.
    };
    let Some(own_floor) = floor_of(table, own) else {
        return vec![Offence {
            file: relative.to_owned(),
            line: 1,
            named: format!("crate::{own}"),
            why: format!(
                "`{own}` stands on no floor of the table in tests/layers/floors.rs; place it"
            ),
        }];
    };
    let mut found = Vec::new();
    for named in crate_paths(&file_module, source) {
        let top = named.top().to_owned();
        let module = root.get(&top).unwrap_or(&top);
        if module == own {
            continue;
        }
        let why = match floor_of(table, module) {
            None => continue, // an item of the root itself (`crate::router`)
            Some(floor) if floor > own_floor => continue,
            Some(floor) if floor == own_floor => {
                format!("`{own}` and `{module}` stand on one floor and must not know each other")
            }
            Some(_) => format!(
                "`{own}` stands below `{module}`; a lower layer must not import a higher one"
            ),
        };
        found.push(Offence {
            file: relative.to_owned(),
            line: named.line,
            named: format!("crate::{top}"),
            why,
        });
    }
    found
}

/// Every offence in the crate whose sources are in `src` (its library; the binaries are
/// crates of their own).
fn crate_offences(src: &Path, table: &[&[&str]]) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("readable lib.rs");
    let root = root_reexports(&lib);
    let mut found = Vec::new();
    let mut modules = BTreeSet::new();
    for (relative, source) in library_files(src) {
        if let Some(top) = module_path(&relative).first() {
            modules.insert(top.clone());
        }
        found.extend(
            offences(table, &root, &relative, &source)
                .iter()
                .map(ToString::to_string),
        );
    }
    for floor in table {
        for module in *floor {
            assert!(
                modules.contains(*module),
                "tests/layers/floors.rs places `{module}`, which {} does not have: take it out",
                src.display()
            );
        }
    }
    found
}

#[test]
fn the_server_imports_only_downwards() {
    let found = crate_offences(&server_src(), SERVER);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_sandbox_imports_only_downwards() {
    let found = crate_offences(&sandbox_src(), SANDBOX);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// Files under `src/<dir>` (all of `src` for "") containing any of `needles`.
fn containing(dir: &str, needles: &[&str]) -> Vec<String> {
    let root = server_src();
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
    let found = containing("", &["checkout_sandbox", "crate::sandbox", "crate::demo"]);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn nothing_below_the_web_floor_speaks_http() {
    let web = floor_of(SERVER, "web").expect("web has a floor");
    for floor in &SERVER[web + 1..] {
        for module in *floor {
            let dir = if server_src().join(module).is_dir() {
                (*module).to_owned()
            } else {
                format!("{module}.rs")
            };
            let found: Vec<String> = containing(&dir, &["axum::"])
                .into_iter()
                .filter(|line| !line.contains("metrics/http.rs"))
                .collect();
            assert!(found.is_empty(), "{module}: {found:#?}");
        }
    }
}

#[test]
fn an_import_from_above_is_named_with_its_file_and_rule() {
    let found = offences(
        SERVER,
        &BTreeMap::new(),
        "store/sql/payments.rs",
        "use crate::store::Store;\nuse crate::api::AppState;\n",
    );
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].to_string(),
        "store/sql/payments.rs:2 names `crate::api`: `store` stands below `api`; a lower layer \
         must not import a higher one"
    );
}

#[test]
fn neighbours_on_one_floor_are_refused() {
    let found = offences(
        SERVER,
        &BTreeMap::new(),
        "dashboard/blocks.rs",
        "fn f() { let _ = crate::api::routes; }",
    );
    assert_eq!(found.len(), 1);
    assert!(found[0].why.contains("one floor"), "{}", found[0]);
}

#[test]
fn groups_and_super_escapes_name_their_modules() {
    let source = "use crate::{store::Store, payments::PaymentService};\n\
                  use super::super::web::AppState;\n\
                  mod tests { use super::super::Thing; use super::*; }\n";
    let found = offences(SERVER, &BTreeMap::new(), "events/deliver.rs", source);
    let named: Vec<&str> = found.iter().map(|o| o.named.as_str()).collect();
    assert_eq!(named, ["crate::payments", "crate::web"]);
}

#[test]
fn a_module_off_the_table_is_refused() {
    let found = offences(SERVER, &BTreeMap::new(), "attic/mod.rs", "");
    assert_eq!(found.len(), 1);
    assert!(found[0].why.contains("no floor"), "{}", found[0]);
}

#[test]
fn items_the_root_re_exports_count_as_their_module() {
    let root = root_reexports("pub mod state;\npub use state::SandboxState;\n");
    let found = offences(SANDBOX, &root, "ledger/mod.rs", "use crate::SandboxState;");
    assert_eq!(found.len(), 1);
    assert!(
        found[0].why.contains("`ledger` stands below `state`"),
        "{}",
        found[0]
    );
}
