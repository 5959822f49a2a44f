//! The fenced code blocks of the repository's README.md, and the programs the checks run:
//! found on `PATH`, or `None` after a loud SKIPPED notice (a dev machine without them; `make
//! test` installs them through scripts/setup.sh).

use std::path::{Path, PathBuf};

/// One fenced block.
#[derive(Debug, Clone)]
pub struct Snippet {
    /// The fence's language (`sh`, `python`, …; empty when none).
    pub lang: String,
    /// The first code line in README.md (1-based), for messages.
    pub line: usize,
    /// The code between the fences.
    pub code: String,
}

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server/ has a parent folder")
        .to_path_buf()
}

/// Every fenced block of README.md, in order.
pub fn readme() -> Vec<Snippet> {
    let text = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines: Vec<&str> = text.lines().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if let Some(lang) = lines[i].strip_prefix("```") {
            let end = (i + 1..lines.len())
                .find(|&j| lines[j].trim_end() == "```")
                .unwrap_or_else(|| panic!("README.md:{}: unclosed code fence", i + 1));
            found.push(Snippet {
                lang: lang.trim().to_owned(),
                line: i + 2,
                code: lines[i + 1..end].join("\n"),
            });
            i = end;
        }
        i += 1;
    }
    found
}

/// README.md's blocks in `lang`.
pub fn of(lang: &str) -> Vec<Snippet> {
    readme().into_iter().filter(|s| s.lang == lang).collect()
}

/// `name` on `PATH`, or `None` after a loud notice that `what` was skipped.
pub fn program(name: &str, what: &str) -> Option<PathBuf> {
    let found = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|dir| dir.join(name))
            .find(|candidate| candidate.is_file())
    });
    if found.is_none() {
        // Written to stderr itself, not through eprintln!, which the test harness captures.
        use std::io::Write as _;
        let _ = writeln!(
            std::io::stderr(),
            "\n********************************************************************\n\
             SKIPPED: `{name}` not found, so {what} did not run.\n\
             Install it (scripts/setup.sh test does) to check README.md's snippets.\n\
             ********************************************************************"
        );
    }
    found
}
