//! No circles between files: within each crate (the server, the sandbox, the component, and
//! the test crates kept in folders), two files never name each other, and no longer ring of
//! files leads back to where it started. The floors (floors.rs) keep a crate's
//! top-level modules in order; this keeps the files inside one module in order too.
//!
//! A file names another when one of its paths (paths.rs) leads into it: the path's longest
//! beginning that is a module with a file of its own (`crate::store::sql::risk::count` names
//! `store/sql/risk.rs`). A file naming its own ancestors does not count: a parent declares
//! its children (`mod x;`), and a child reaches what its parent holds (`super::Thing`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::paths::{crate_paths, library_files, module_path, root_reexports};
use crate::{component_src, sandbox_src, server_src};

/// A module with a file of its own (`[store, sql, risk]`).
type Module = Vec<String>;

/// Which files each file names, each with the first line that names it.
type Graph = BTreeMap<Module, BTreeMap<Module, usize>>;

/// Every circle among `files` (path relative to the crate's `src/`, text), each written as
/// the lines that make it: `a.rs:3 names b.rs`.
fn circles(files: &[(String, String)]) -> Vec<String> {
    let graph = graph(files);
    let names: BTreeMap<Module, &str> = files
        .iter()
        .map(|(relative, _)| (module_path(relative), relative.as_str()))
        .collect();
    strongly_connected(&graph)
        .into_iter()
        .filter(|ring| ring.len() > 1)
        .map(|ring| {
            let mut lines = Vec::new();
            for from in &ring {
                for (to, line) in &graph[from] {
                    if ring.contains(to) {
                        lines.push(format!("{}:{line} names {}", names[from], names[to]));
                    }
                }
            }
            format!("a circle of {} files: {}", ring.len(), lines.join("; "))
        })
        .collect()
}

/// The files each file names (its ancestors and itself left out).
fn graph(files: &[(String, String)]) -> Graph {
    let modules: BTreeSet<Module> = files
        .iter()
        .map(|(relative, _)| module_path(relative))
        .collect();
    let root = files
        .iter()
        .find(|(relative, _)| relative == "lib.rs")
        .map(|(_, lib)| root_reexports(lib))
        .unwrap_or_default();
    let mut graph = Graph::new();
    for (relative, source) in files {
        let own = module_path(relative);
        let mut names = BTreeMap::new();
        for named in crate_paths(&own, source) {
            let mut path = named.path;
            if let Some(module) = root.get(&path[0]).filter(|_| !modules.contains(&path[..1])) {
                path.insert(0, module.clone());
            }
            let Some(target) = (1..=path.len())
                .rev()
                .map(|len| &path[..len])
                .find(|prefix| modules.contains(*prefix))
            else {
                continue;
            };
            if !own.starts_with(target) {
                names.entry(target.to_vec()).or_insert(named.line);
            }
        }
        graph.insert(own, names);
    }
    graph
}

/// The graph's strongly connected parts (Tarjan's algorithm): a part of more than one file is
/// a circle.
fn strongly_connected(graph: &Graph) -> Vec<Vec<Module>> {
    struct Walk<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g Module, usize>,
        low: BTreeMap<&'g Module, usize>,
        stack: Vec<&'g Module>,
        parts: Vec<Vec<Module>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, at: &'g Module) {
            let order = self.index.len();
            self.index.insert(at, order);
            self.low.insert(at, order);
            self.stack.push(at);
            for next in self.graph[at].keys() {
                if !self.index.contains_key(next) {
                    self.visit(next);
                    let low = self.low[next].min(self.low[at]);
                    self.low.insert(at, low);
                } else if self.stack.contains(&next) {
                    let low = self.index[next].min(self.low[at]);
                    self.low.insert(at, low);
                }
            }
            if self.low[at] == self.index[at] {
                let mut part = Vec::new();
                while let Some(top) = self.stack.pop() {
                    part.push(top.clone());
                    if top == at {
                        break;
                    }
                }
                part.sort();
                self.parts.push(part);
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        parts: Vec::new(),
    };
    for module in graph.keys() {
        if !walk.index.contains_key(module) {
            walk.visit(module);
        }
    }
    walk.parts
}

#[test]
fn no_two_files_of_the_server_name_each_other() {
    let found = circles(&library_files(&server_src()));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_two_files_of_the_sandbox_name_each_other() {
    let found = circles(&library_files(&sandbox_src()));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_two_files_of_the_component_name_each_other() {
    let found = circles(&library_files(&component_src()));
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_two_files_of_a_test_crate_name_each_other() {
    let server = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for folder in [
        "tests/it",
        "tests/e2e",
        "tests/layers",
        "../tests/card_form",
        "../tests/payment",
    ] {
        for circle in circles(&library_files(&server.join(folder))) {
            found.push(format!("{folder}: {circle}"));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(relative, source)| ((*relative).to_owned(), (*source).to_owned()))
        .collect()
}

#[test]
fn two_files_naming_each_other_are_a_circle_named_with_their_lines() {
    let found = circles(&files(&[
        ("lib.rs", "pub mod pay;\npub mod screen;\n"),
        ("pay.rs", "//! Pays.\nuse super::screen::{self, Verdict};\n"),
        ("screen.rs", "fn f() {\n    crate::pay::answer();\n}\n"),
    ]));
    assert_eq!(
        found,
        ["a circle of 2 files: pay.rs:2 names screen.rs; screen.rs:2 names pay.rs"]
    );
}

#[test]
fn a_longer_ring_through_a_module_file_is_a_circle_too() {
    let found = circles(&files(&[
        ("lib.rs", "pub mod pay;\npub mod risk;\n"),
        ("pay.rs", "use crate::risk::Verdict;\n"),
        ("risk/mod.rs", "mod check;\npub use self::check::check;\n"),
        ("risk/check.rs", "fn f() {\n    crate::pay::answer();\n}\n"),
    ]));
    let ring = "a circle of 3 files: pay.rs:1 names risk/mod.rs; risk/mod.rs:2 names \
                risk/check.rs; risk/check.rs:2 names pay.rs";
    assert_eq!(found, [ring]);
}

#[test]
fn parents_and_children_naming_each_other_are_no_circle() {
    let found = circles(&files(&[
        ("lib.rs", "pub mod store;\npub use store::Store;\n"),
        (
            "store/mod.rs",
            "mod sql;\npub use sql::Store;\npub mod prelude { pub use super::sql::*; }\n",
        ),
        ("store/sql.rs", "use super::Model;\nuse crate::Store;\n"),
    ]));
    assert!(found.is_empty(), "{found:?}");
}
