//! Every endpoint README.md and docs/*.md name is one the server has: each path of the public
//! listener they write (`POST /v1/webhook_endpoints/{id}/rotate_secret`, `/readyz`, a curl
//! command's URL) must be a path of the server's own `/openapi.json`, and with a method, an
//! operation of it, so a renamed route cannot leave a stale sentence (issue 49). A path is
//! the server's when its first segment is one of the document's (`/v1`, `/frame`, …): the
//! gateway's, the sandbox's and the dashboard's paths are not this document's, nor a URL on
//! another host than the server's ([`SERVER_HOSTS`]), nor code blocks other than `sh` (the
//! shop's code, with the shop's routes). `{anything}` and `$VARIABLE` match a parameter of any
//! name, `a|b` lists alternatives, and `…` or `...` at the end stands for a rest that some
//! path must have. The frame's `{file}` is a catch-all (`{*file}` in the router).

use std::collections::BTreeSet;

use checkout_server::api::openapi::OPENAPI_JSON;
use serde_json::Value;

use super::snippets::root;

const METHODS: [&str; 5] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/// The hosts the docs give checkout-server: the default `LISTEN` and the README's example
/// deployment.
const SERVER_HOSTS: [&str; 3] = ["127.0.0.1:8080", "localhost:8080", "pay.example.com"];

/// The document's catch-all parameter: one or more segments.
const CATCH_ALL: &str = "{file}";

/// One endpoint named in a document.
#[derive(Debug)]
struct Mention {
    /// `file:line`, for messages.
    at: String,
    /// Upper case, when the text names one.
    method: Option<String>,
    path: String,
}

/// The document's paths, each with its methods (upper case).
fn document() -> Vec<(String, BTreeSet<String>)> {
    let doc: Value = serde_json::from_str(OPENAPI_JSON).expect("the document is JSON");
    doc["paths"]
        .as_object()
        .expect("paths")
        .iter()
        .map(|(path, item)| {
            let methods = METHODS
                .iter()
                .filter(|m| item.get(m.to_lowercase()).is_some())
                .map(|m| m.to_string())
                .collect();
            (path.clone(), methods)
        })
        .collect()
}

fn first_segment(path: &str) -> &str {
    path.trim_start_matches('/').split('/').next().unwrap_or("")
}

/// Ends a path as written in prose: whitespace, quotes, code marks, closing brackets, a query.
fn ends_path(ch: char) -> bool {
    ch.is_whitespace() || "`'\"),;?#<>[]*".contains(ch)
}

/// Where a path may start: not inside a word or a file path (`src/frame/…`).
fn may_precede_path(ch: Option<char>) -> bool {
    ch.is_none_or(|c| c.is_whitespace() || "`'\"(|".contains(c))
}

/// `line` with each URL's scheme and host dropped when it is the server's (its path is read
/// like any other), and each other URL dropped whole.
fn server_paths_of_urls(line: &str) -> String {
    let mut line = line.to_owned();
    for scheme in ["https://", "http://"] {
        while let Some(start) = line.find(scheme) {
            let after = start + scheme.len();
            let host_end = line[after..]
                .find(|c: char| c == '/' || ends_path(c))
                .map_or(line.len(), |end| after + end);
            let end = if SERVER_HOSTS.contains(&&line[after..host_end]) {
                host_end
            } else {
                line[after..]
                    .find(ends_path)
                    .map_or(line.len(), |end| after + end)
            };
            line.replace_range(start..end, " ");
        }
    }
    line
}

/// A path as written, without the punctuation of the sentence around it (an ellipsis stays).
fn trimmed(path: &str) -> &str {
    if path.ends_with("...") {
        path
    } else {
        path.trim_end_matches(['.', ':'])
    }
}

/// The endpoints of `text` (a document named `file`) whose first segment is in `segments`.
fn mentions(file: &str, text: &str, segments: &BTreeSet<&str>) -> Vec<Mention> {
    let mut found = Vec::new();
    let mut fence: Option<&str> = None;
    for (index, line) in text.lines().enumerate() {
        if let Some(lang) = line.trim_start().strip_prefix("```") {
            fence = match fence {
                Some(_) => None,
                None => Some(lang.trim()),
            };
            continue;
        }
        if fence.is_some_and(|lang| lang != "sh") {
            continue;
        }
        let line = server_paths_of_urls(line);
        let chars: Vec<(usize, char)> = line.char_indices().collect();
        for (position, &(offset, ch)) in chars.iter().enumerate() {
            let before = position.checked_sub(1).map(|p| chars[p].1);
            if ch != '/' || !may_precede_path(before) {
                continue;
            }
            let rest = &line[offset..];
            let end = rest.find(ends_path).unwrap_or(rest.len());
            let path = trimmed(&rest[..end]);
            if !segments.contains(first_segment(path)) {
                continue;
            }
            let method = line[..offset]
                .strip_suffix(' ')
                .and_then(|head| head.rsplit(['`', ' ', '(', '|']).next())
                .filter(|word| METHODS.contains(word))
                .map(str::to_owned);
            for path in alternatives(path) {
                found.push(Mention {
                    at: format!("{file}:{}", index + 1),
                    method: method.clone(),
                    path,
                });
            }
        }
    }
    found
}

/// Whether a written segment stands for a parameter: `{name}` (`{success|decline}` too), or
/// a shell variable.
fn is_parameter(segment: &str) -> bool {
    segment.starts_with('{') && segment.ends_with('}') || segment.starts_with('$')
}

/// Each path `path` names: `/a/b|c` is `/a/b` and `/a/c`.
fn alternatives(path: &str) -> Vec<String> {
    path.split('/')
        .fold(vec![String::new()], |prefixes, segment| {
            let options: Vec<&str> = if is_parameter(segment) {
                vec![segment]
            } else {
                segment.split('|').collect()
            };
            prefixes
                .iter()
                .flat_map(|prefix| {
                    options.clone().into_iter().map(move |option| {
                        if prefix.is_empty() && option.is_empty() {
                            String::new()
                        } else {
                            format!("{prefix}/{option}")
                        }
                    })
                })
                .collect()
        })
}

/// Whether the written `segment` names the document's `actual` segment.
fn segment_matches(written: &str, actual: &str) -> bool {
    written == actual || is_parameter(written) && is_parameter(actual)
}

/// Whether the written `path` names the document's `actual` path.
fn path_matches(written: &str, actual: &str) -> bool {
    let (written, open_ended) = match written
        .strip_suffix("...")
        .or_else(|| written.strip_suffix('…'))
    {
        Some(prefix) => (prefix.trim_end_matches('/'), true),
        None => (written, false),
    };
    let written: Vec<&str> = written.split('/').collect();
    let mut actual: Vec<&str> = actual.split('/').collect();
    // A catch-all takes the written rest, of one segment or more.
    let catch_all = actual.last() == Some(&CATCH_ALL);
    if catch_all {
        actual.pop();
    }
    let lengths_fit = if open_ended {
        actual.len() >= written.len() && (catch_all || actual.len() > written.len())
    } else if catch_all {
        written.len() > actual.len() && written[actual.len()..].iter().any(|s| !s.is_empty())
    } else {
        actual.len() == written.len()
    };
    lengths_fit
        && written
            .iter()
            .zip(&actual)
            .all(|(w, a)| segment_matches(w, a))
}

/// What is wrong with `mention`, if anything.
fn problem(mention: &Mention, document: &[(String, BTreeSet<String>)]) -> Option<String> {
    let paths: Vec<_> = document
        .iter()
        .filter(|(path, _)| path_matches(&mention.path, path))
        .collect();
    if paths.is_empty() {
        return Some(format!(
            "{}: `{}` is no path of /openapi.json",
            mention.at, mention.path
        ));
    }
    let method = mention.method.as_ref()?;
    let has_method = paths.iter().any(|(_, methods)| methods.contains(method));
    (!has_method).then(|| {
        format!(
            "{}: `{method} {}` is no operation of /openapi.json",
            mention.at, mention.path
        )
    })
}

/// README.md and docs/*.md, each as (name, text).
fn documents() -> Vec<(String, String)> {
    let root = root();
    let mut files = vec![root.join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(root.join("docs"))
        .expect("docs/")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
        .into_iter()
        .map(|path| {
            let name = path
                .strip_prefix(&root)
                .expect("under the root")
                .display()
                .to_string();
            let text = std::fs::read_to_string(&path).expect("readable");
            (name, text)
        })
        .collect()
}

#[test]
fn every_endpoint_the_docs_name_is_in_the_openapi_document() {
    let document = document();
    let segments: BTreeSet<&str> = document
        .iter()
        .map(|(path, _)| first_segment(path))
        .collect();
    let mut mentions_found = Vec::new();
    for (name, text) in documents() {
        mentions_found.extend(mentions(&name, &text, &segments));
    }
    let with_method = mentions_found.iter().filter(|m| m.method.is_some()).count();
    assert!(
        mentions_found.len() >= 60 && with_method >= 30,
        "the scan found too few endpoints ({} paths, {with_method} with a method): {mentions_found:?}",
        mentions_found.len()
    );
    let problems: Vec<String> = mentions_found
        .iter()
        .filter_map(|mention| problem(mention, &document))
        .collect();
    assert!(
        problems.is_empty(),
        "endpoints named in the docs that the server does not have:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_scan_reads_paths_as_written() {
    let segments = BTreeSet::from(["v1", "readyz"]);
    let text = "Call `POST /v1/a/{id}/b`, then GET /v1/c?x=1; see src/v1/x.rs, \
                `/readyz`, http://127.0.0.1:8080/v1/d and `/gateway/e`.";
    let found: Vec<(Option<String>, String)> = mentions("t.md", text, &segments)
        .into_iter()
        .map(|m| (m.method, m.path))
        .collect();
    let expected = [
        (Some("POST"), "/v1/a/{id}/b"),
        (Some("GET"), "/v1/c"),
        (None, "/readyz"),
        (None, "/v1/d"),
    ]
    .map(|(m, p)| (m.map(str::to_owned), p.to_owned()));
    assert_eq!(found, expected);
    let document = vec![(
        "/v1/a/{session_id}/b".to_owned(),
        BTreeSet::from(["POST".to_owned()]),
    )];
    let mention = |method: Option<&str>, path: &str| Mention {
        at: "t.md:1".into(),
        method: method.map(str::to_owned),
        path: path.into(),
    };
    assert!(problem(&mention(Some("POST"), "/v1/a/{id}/b"), &document).is_none());
    assert!(problem(&mention(None, "/v1/a/..."), &document).is_none());
    let listed = mentions("t.md", "`POST /v1/a/{id}/b|c`", &segments);
    let listed: Vec<&str> = listed.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(listed, ["/v1/a/{id}/b", "/v1/a/{id}/c"]);
    assert!(problem(&mention(Some("GET"), "/v1/a/{id}/b"), &document).is_some());
    assert!(problem(&mention(None, "/v1/a/$SESSION/b"), &document).is_none());
    let files = vec![(
        "/frame/{file}".to_owned(),
        BTreeSet::from(["GET".to_owned()]),
    )];
    assert!(problem(&mention(None, "/frame/manage/"), &files).is_none());
    assert!(problem(&mention(None, "/frame/"), &files).is_some());
    let urls = "curl http://127.0.0.1:8080/v1/d, https://shop.example/v1/e `/v1/f...`";
    let paths: Vec<String> = mentions("t.md", urls, &segments)
        .into_iter()
        .map(|m| m.path)
        .collect();
    assert_eq!(paths, ["/v1/d", "/v1/f..."]);
    let fenced = "```python\n@app.post(\"/v1/shop\")\n```\n```sh\ncurl /v1/g\n```";
    let paths: Vec<String> = mentions("t.md", fenced, &segments)
        .into_iter()
        .map(|m| m.path)
        .collect();
    assert_eq!(paths, ["/v1/g"]);
    assert!(problem(&mention(Some("POST"), "/v1/a/{id}/rotate"), &document).is_some());
}
