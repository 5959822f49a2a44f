//! The root README's integration guide, run: every fenced snippet a shop developer copies is
//! checked somewhere, so one that drifts from the product fails `make test`. Here: the `sh`
//! curl commands against a real server (the answers they document asserted), the `sh`
//! `checkout-server` commands with the real binary, the Python
//! events snippet with the official `standardwebhooks` package on a delivery that server
//! really sent, and the `toml` plan as the server's configuration file. The `ts`, `html` and
//! `js` snippets are type-checked against the packed npm package by
//! scripts/readme-snippets.mjs (scripts/npm-package.sh); `text` blocks are not code. And every
//! endpoint README.md and docs/*.md name, in code or prose, is one of `/openapi.json`
//! (`endpoints`).

mod commands;
mod config_file;
mod curl;
mod endpoints;
mod events;
mod snippets;
mod walkthrough;

use snippets::readme;

/// Languages checked by the tests here.
const CHECKED_HERE: &[&str] = &["sh", "python", "toml"];
/// Languages checked by scripts/readme-snippets.mjs, and blocks that are not code.
const CHECKED_ELSEWHERE: &[&str] = &["ts", "html", "js", "text"];

#[test]
fn every_snippet_of_the_readme_is_checked() {
    for snippet in readme() {
        assert!(
            CHECKED_HERE.contains(&snippet.lang.as_str())
                || CHECKED_ELSEWHERE.contains(&snippet.lang.as_str()),
            "README.md:{}: a `{}` snippet, which no check tests: add one (server/tests/it/readme \
             or scripts/readme-snippets.mjs)",
            snippet.line,
            snippet.lang
        );
    }
    for lang in CHECKED_HERE {
        assert!(
            !snippets::of(lang).is_empty(),
            "README.md has no `{lang}` snippet any more: drop its check here"
        );
    }
}
