//! Which paths of its crate a source file names: every `crate::`, `super::` and `self::` path,
//! written in a `use` (groups, renames and globs included) or inline in code, resolved from
//! where it stands (inline modules such as `mod tests { … }` followed), as the path of module
//! names from the crate root. Also the items a crate root re-exports, and a crate's files.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::lexing::{
    blank_comments_and_literals, ident_at, is_ident_byte, is_ident_start, skip_space,
};

/// `api/frame/shell.rs` → `[api, frame, shell]`; `api/mod.rs` → `[api]`; `lib.rs` (or a
/// test crate's `main.rs`) → `[]`.
pub fn module_path(relative: &str) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_owned)
        .collect();
    let root = parts.len() == 1 && parts[0] == "main";
    if root
        || parts
            .last()
            .is_some_and(|last| last == "mod" || last == "lib")
    {
        parts.pop();
    }
    parts
}

/// A path of the crate a file names (from the crate root: `[store, sql, risk, RiskCounts]`),
/// and on which line.
pub struct Named {
    pub path: Vec<String>,
    pub line: usize,
}

impl Named {
    /// The crate's top-level module (or root item) the path starts with.
    pub fn top(&self) -> &str {
        self.path.first().map_or("", String::as_str)
    }
}

/// Every path of its crate that `source` (the file of module `file_module`) names. Comments,
/// strings and character literals are skipped.
pub fn crate_paths(file_module: &[String], source: &str) -> Vec<Named> {
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
        let mut head: Vec<String> = if word == "crate" {
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
                    head.pop();
                }
                at += segment.len() + 2;
            } else {
                break;
            }
        }
        let line = code[..i].matches('\n').count() + 1;
        for tail in tree_paths(bytes, at) {
            let path: Vec<String> = head.iter().cloned().chain(tail).collect();
            if !path.is_empty() {
                found.push(Named { path, line });
            }
        }
        // The group's braces are still read above, so inline modules stay tracked.
        i = at;
    }
    found
}

/// The paths of the use tree (or inline path) starting at `at`: `a::b` → `[[a, b]]`,
/// `{a::b as c, d::{e, self}, *}` → `[[a, b], [d, e], [d], []]`.
fn tree_paths(bytes: &[u8], at: usize) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    tree(bytes, at, Vec::new(), &mut found);
    found
}

/// Reads the tree at `at`, below `prefix`, into `found`; returns where it ends.
fn tree(
    bytes: &[u8],
    mut at: usize,
    mut prefix: Vec<String>,
    found: &mut Vec<Vec<String>>,
) -> usize {
    loop {
        at = skip_space(bytes, at);
        match bytes.get(at) {
            Some(b'{') => return group(bytes, at + 1, &prefix, found),
            Some(&c) if is_ident_start(c) => {
                let word = ident_at(bytes, at);
                at += word.len();
                if word != "self" {
                    prefix.push(word.to_owned());
                }
                let next = skip_space(bytes, at);
                if bytes[next..].starts_with(b"::") {
                    at = next + 2;
                    continue;
                }
                if ident_at(bytes, next) == "as" {
                    let alias = skip_space(bytes, next + 2);
                    at = alias + ident_at(bytes, alias).len();
                }
                found.push(prefix);
                return at;
            }
            Some(b'*') => {
                found.push(prefix);
                return at + 1;
            }
            _ => {
                found.push(prefix);
                return at;
            }
        }
    }
}

/// Reads the items of a group opened just before `at`; returns where it closes.
fn group(bytes: &[u8], mut at: usize, prefix: &[String], found: &mut Vec<Vec<String>>) -> usize {
    loop {
        at = skip_space(bytes, at);
        match bytes.get(at) {
            None => return at,
            Some(b'}') => return at + 1,
            Some(b',') => at += 1,
            Some(_) => {
                let end = tree(bytes, at, prefix.to_vec(), found);
                if end == at {
                    return at; // not a tree: stop reading the group
                }
                at = end;
            }
        }
    }
}

/// The items `lib` re-exports at the crate root (`pub use state::SandboxState;`,
/// `pub use config::{A, B as C};`), each with the module it comes from.
pub fn root_reexports(lib: &str) -> BTreeMap<String, String> {
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

/// The `.rs` files below `dir` (or `dir` itself, a single-file module).
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
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

/// Each file of the library whose sources are in `src`, as (its path relative to `src`, its
/// text). The binaries' folder is left out: each is a crate of its own that names the library
/// by its name.
pub fn library_files(src: &Path) -> Vec<(String, String)> {
    rust_files(src)
        .into_iter()
        .filter_map(|path| {
            let relative = path
                .strip_prefix(src)
                .expect("below src")
                .to_string_lossy()
                .replace('\\', "/");
            if relative.starts_with("bin/") {
                return None;
            }
            let source = std::fs::read_to_string(&path).expect("readable source");
            Some((relative, source))
        })
        .collect()
}

#[test]
fn groups_super_escapes_and_inline_modules_are_read() {
    let source = "use crate::{store::Store, payments::PaymentService};\n\
                  use super::super::web::AppState;\n\
                  mod tests { use super::super::Thing; use super::*; }\n";
    let named: Vec<String> = crate_paths(&module_path("events/deliver.rs"), source)
        .into_iter()
        .map(|named| named.path.join("::"))
        .collect();
    assert_eq!(
        named,
        [
            "store::Store",
            "payments::PaymentService",
            "web::AppState",
            "events::Thing",
            "events::deliver"
        ]
    );
}

#[test]
fn nested_groups_renames_and_inline_paths_are_read_whole() {
    let source = "use super::{a::{b, c::D as E}, self as here, f::*};\n\
                  fn g() { crate::store::sql::risk::count::<u8>(); }\n";
    let named: Vec<(String, usize)> = crate_paths(&module_path("risk/check.rs"), source)
        .into_iter()
        .map(|named| (named.path.join("::"), named.line))
        .collect();
    let expected = [
        ("risk::a::b", 1),
        ("risk::a::c::D", 1),
        ("risk", 1),
        ("risk::f", 1),
        ("store::sql::risk::count", 2),
    ];
    let expected: Vec<(String, usize)> = expected
        .iter()
        .map(|(path, line)| ((*path).to_owned(), *line))
        .collect();
    assert_eq!(named, expected);
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
        .map(|named| named.top().to_owned())
        .collect();
    assert_eq!(named, ["store"]);
}

#[test]
fn items_the_root_re_exports_are_found_with_their_module() {
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
}
