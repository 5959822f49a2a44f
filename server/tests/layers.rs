//! The layers cargo cannot see, read from the sources so a new import fails here before review.
//!
//! Each crate's top-level modules stand in a table of floors, top first. A file under
//! `src/<module>` may name another module of its crate (`use crate::…`, `crate::x::` written
//! inline, `super::` climbing out of its module, each also inside `use crate::{a, b}` groups;
//! an item the crate root re-exports, `crate::SandboxState`, counts as its module)
//! only when that module stands on a lower floor: never one above, never a neighbour on its
//! own floor (the two front doors, `api` and `dashboard`, do not know each other). A module
//! missing from the table fails too, so a new one is placed on purpose. docs/architecture.md
//! draws the same tables; `cargo test --workspace` (and so `make test`) runs this file.
//!
//! Beside the table: checkout-server's library never names the sandbox crate (only its binary
//! composes the two), and nothing below the web floor speaks HTTP (`axum`), `metrics::http`
//! (the request counter layer) excepted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

fn floor_of(table: &[&[&str]], module: &str) -> Option<usize> {
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
            why: format!("`{own}` stands on no floor of the table in tests/layers.rs; place it"),
        }];
    };
    let mut found = Vec::new();
    for named in crate_paths(&file_module, source) {
        let module = root.get(&named.module).unwrap_or(&named.module);
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
            named: format!("crate::{}", named.module),
            why,
        });
    }
    found
}

/// `api/frame/shell.rs` → `[api, frame, shell]`; `api/mod.rs` → `[api]`; `lib.rs` → `[]`.
fn module_path(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    if parts
        .last()
        .is_some_and(|last| last == "mod" || last == "lib")
    {
        parts.pop();
    }
    parts
}

/// A module of the crate a file names, and where.
struct Named {
    module: String,
    line: usize,
}

/// Every top-level module of the crate that `source` (the file of module `file_module`) names
/// through `crate::`, `super::` or `self::` paths, groups included. Comments, strings and
/// character literals are skipped; inline modules (`mod tests { … }`) are followed, so their
/// `super::` counts from where it stands.
fn crate_paths(file_module: &[String], source: &str) -> Vec<Named> {
    let code = blank_comments_and_literals(source);
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    // Inline modules open here: (the brace depth inside them, their name).
    let mut inline: Vec<(usize, String)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_mod: Option<String> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'{' {
            depth += 1;
            if let Some(name) = pending_mod.take() {
                inline.push((depth, name));
            }
            i += 1;
            continue;
        }
        if c == b'}' {
            if inline.last().is_some_and(|(at, _)| *at == depth) {
                inline.pop();
            }
            depth = depth.saturating_sub(1);
            i += 1;
            continue;
        }
        if c == b';' {
            pending_mod = None;
        }
        if !is_ident_start(c) || (i > 0 && is_ident_byte(bytes[i - 1])) {
            i += 1;
            continue;
        }
        let word = ident_at(bytes, i);
        let after = i + word.len();
        if word == "mod" {
            let next = skip_space(bytes, after);
            pending_mod = Some(ident_at(bytes, next).to_owned());
            i = after;
            continue;
        }
        if !matches!(word, "crate" | "super" | "self") || !code[after..].starts_with("::") {
            i = after;
            continue;
        }
        // Resolve the head (`crate`, `super::super`, `self::super` …) to a module path.
        let mut path: Vec<String> = if word == "crate" {
            Vec::new()
        } else {
            let mut here = file_module.to_vec();
            here.extend(inline.iter().map(|(_, name)| name.clone()));
            if word == "super" {
                here.pop();
            }
            here
        };
        let mut at = after + 2;
        loop {
            let segment = ident_at(bytes, at);
            if (segment == "super" || segment == "self")
                && code[at + segment.len()..].starts_with("::")
            {
                if segment == "super" {
                    path.pop();
                }
                at += segment.len() + 2;
            } else {
                break;
            }
        }
        let line = code[..i].matches('\n').count() + 1;
        if let Some(top) = path.first() {
            found.push(Named {
                module: top.clone(),
                line,
            });
        } else if bytes.get(at) == Some(&b'{') {
            for first in group_heads(&code[at..]) {
                found.push(Named {
                    module: first,
                    line,
                });
            }
        } else {
            let first = ident_at(bytes, at);
            if !first.is_empty() {
                found.push(Named {
                    module: first.to_owned(),
                    line,
                });
            }
        }
        i = at;
    }
    found
}

/// The first name of each item of the group `{a::b, c, d::{e, f}}` that `text` starts with.
fn group_heads(text: &str) -> Vec<String> {
    let mut heads = Vec::new();
    let mut depth = 0;
    let mut expecting = true;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                depth += 1;
                if depth == 1 {
                    expecting = true;
                }
            }
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => expecting = true,
            c if depth == 1 && expecting && is_ident_start(c) => {
                let word = ident_at(bytes, i);
                heads.push(word.to_owned());
                expecting = false;
                i += word.len();
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    heads
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_at(bytes: &[u8], at: usize) -> &str {
    let end = (at..bytes.len())
        .find(|&j| !is_ident_byte(bytes[j]))
        .unwrap_or(bytes.len());
    std::str::from_utf8(&bytes[at.min(end)..end]).unwrap_or("")
}

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// `source` with comments, string and character literals turned to spaces (line breaks kept,
/// so line numbers still hold).
fn blank_comments_and_literals(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to.min(bytes.len())] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            let end = (i..bytes.len())
                .find(|&j| bytes[j] == b'\n')
                .unwrap_or(bytes.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let end = find(bytes, i + 2, b"*/").map_or(bytes.len(), |j| j + 2);
            blank(&mut out, i, end);
            i = end;
        } else if let Some(hashes) = raw_string_start(bytes, i) {
            // r"…", r#"…"#, br#"…"# …: ends at a quote followed by as many hashes.
            let open = i + (rest[0] == b'b') as usize + 1 + hashes + 1;
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let end = find(bytes, open, &close).map_or(bytes.len(), |j| j + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{7f}'); otherwise a lifetime.
            if rest.get(1) == Some(&b'\\') {
                let end = (i + 3..bytes.len())
                    .find(|&j| bytes[j] == b'\'')
                    .map_or(bytes.len(), |j| j + 1);
                blank(&mut out, i, end);
                i = end;
            } else if let Some(len) = char_literal_len(rest) {
                blank(&mut out, i, i + len);
                i += len;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// With a raw string starting at `i`, the number of its hashes.
fn raw_string_start(bytes: &[u8], i: usize) -> Option<usize> {
    if i > 0 && is_ident_byte(bytes[i - 1]) {
        return None;
    }
    let mut j = i;
    if bytes.get(j) == Some(&b'b') {
        j += 1;
    }
    if bytes.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = bytes[j..].iter().take_while(|&&b| b == b'#').count();
    (bytes.get(j + hashes) == Some(&b'"')).then_some(hashes)
}

/// The length of the one-character literal `rest` starts with (`'x'`, `'é'`), if it is one.
fn char_literal_len(rest: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(rest).ok()?;
    let mut chars = text.char_indices().skip(1);
    let (_, c) = chars.next()?;
    let (at, close) = chars.next()?;
    (close == '\'' && c != '\'').then_some(at + 1)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..bytes.len().saturating_sub(needle.len() - 1)).find(|&j| bytes[j..].starts_with(needle))
}

/// The `.rs` files below `dir` (or `dir` itself, a single-file module).
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("readable source folder") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// Every offence in the crate whose sources are in `src` (the binary's folder left out: it is
/// a crate of its own that names the library by its name).
fn crate_offences(src: &Path, table: &[&[&str]]) -> Vec<String> {
    let lib = std::fs::read_to_string(src.join("lib.rs")).expect("readable lib.rs");
    let root = root_reexports(&lib);
    let mut found = Vec::new();
    let mut modules = BTreeSet::new();
    for path in rust_files(src) {
        let relative = path
            .strip_prefix(src)
            .expect("below src")
            .to_string_lossy()
            .replace('\\', "/");
        if relative.starts_with("bin/") {
            continue;
        }
        if let Some(top) = module_path(&relative).first() {
            modules.insert(top.clone());
        }
        let source = std::fs::read_to_string(&path).expect("readable source");
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
                "tests/layers.rs places `{module}`, which {} does not have: take it out",
                src.display()
            );
        }
    }
    found
}

/// The items `lib` re-exports at the crate root (`pub use state::SandboxState;`,
/// `pub use config::{A, B as C};`), each with the module it comes from.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let code = blank_comments_and_literals(lib);
    let mut items = BTreeMap::new();
    for statement in code.split(';') {
        let Some(path) = statement.trim().strip_prefix("pub use ") else {
            continue;
        };
        let Some((module, rest)) = path.split_once("::") else {
            continue;
        };
        let rest = rest.trim();
        let names: Vec<&str> = match rest.rsplit_once('{') {
            Some((_, group)) => group.trim_end_matches('}').split(',').collect(),
            None => vec![rest.rsplit("::").next().unwrap_or(rest)],
        };
        for name in names {
            let name = name.rsplit(" as ").next().unwrap_or(name).trim();
            if !name.is_empty() {
                items.insert(name.to_owned(), module.trim().to_owned());
            }
        }
    }
    items
}

fn server_src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn the_server_imports_only_downwards() {
    let found = crate_offences(&server_src(), SERVER);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_sandbox_imports_only_downwards() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("sandbox/src");
    let found = crate_offences(&src, SANDBOX);
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
fn groups_super_escapes_and_inline_modules_are_read() {
    let source = "use crate::{store::Store, payments::PaymentService};\n\
                  use super::super::web::AppState;\n\
                  mod tests { use super::super::Thing; use super::*; }\n";
    let named: Vec<String> = crate_paths(&module_path("events/deliver.rs"), source)
        .into_iter()
        .map(|named| named.module)
        .collect();
    assert_eq!(named, ["store", "payments", "web", "events", "events"]);
    let found = offences(SERVER, &BTreeMap::new(), "events/deliver.rs", source);
    let named: Vec<&str> = found.iter().map(|o| o.named.as_str()).collect();
    assert_eq!(named, ["crate::payments", "crate::web"]);
}

#[test]
fn comments_and_strings_are_not_imports() {
    let source = "//! See `crate::api::app`.\n\
                  /* crate::web */ const A: &str = \"crate::api\";\n\
                  const B: &str = r#\"use crate::serve;\"#; const C: char = '{';\n\
                  fn f<'a>(x: &'a str) -> &'a str { x }\n\
                  use crate::store::Store;\n";
    let named: Vec<String> = crate_paths(&module_path("views/x.rs"), source)
        .into_iter()
        .map(|named| named.module)
        .collect();
    assert_eq!(named, ["store"]);
}

#[test]
fn a_module_off_the_table_is_refused() {
    let found = offences(SERVER, &BTreeMap::new(), "attic/mod.rs", "");
    assert_eq!(found.len(), 1);
    assert!(found[0].why.contains("no floor"), "{}", found[0]);
}

#[test]
fn items_the_root_re_exports_count_as_their_module() {
    let root = root_reexports(
        "//! `pub use nothing::Here;`\npub mod state;\npub use state::SandboxState;\n\
         pub use config::{DEFAULT_API_KEY, SandboxConfig as Config};\n",
    );
    assert_eq!(root.get("SandboxState").map(String::as_str), Some("state"));
    assert_eq!(root.get("Config").map(String::as_str), Some("config"));
    assert_eq!(
        root.get("DEFAULT_API_KEY").map(String::as_str),
        Some("config")
    );
    assert!(!root.contains_key("Here"));
    let found = offences(SANDBOX, &root, "ledger/mod.rs", "use crate::SandboxState;");
    assert_eq!(found.len(), 1);
    assert!(
        found[0].why.contains("`ledger` stands below `state`"),
        "{}",
        found[0]
    );
}
