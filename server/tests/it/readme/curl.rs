//! Runs a README curl snippet as a shop developer would, with `sh`, against test servers: the
//! addresses the README names replaced by test ones, its variables (`$MERCHANT_SECRET_KEY`,
//! `$SESSION_ID`, …) in the environment, and curl made to print the status after the body. Reads the answer the snippet
//! documents in its `# → 201 {"id": "...", "secret": "whsec_…"}` line and checks an answer
//! against it: the status, and each quoted field (`"..."` or `"…"`: any string; `"cs_..."`:
//! a string starting so; anything else: exactly that string).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::snippets::Snippet;

/// What a snippet's command answered.
#[derive(Debug)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The body.
    pub text: String,
    /// The body as JSON (`Null` when it is not).
    pub json: Value,
}

/// Runs `snippet` with `sh` (curl at `curl`), each `(readme, test)` address replaced and
/// `variables` in its environment.
pub fn run(
    sh: &Path,
    curl: &Path,
    snippet: &Snippet,
    addresses: &[(String, String)],
    variables: &[(String, String)],
) -> Answer {
    let mut code = snippet.code.clone();
    for (readme, test) in addresses {
        code = code.replace(readme.as_str(), test);
    }
    // Every address left must be a test server's: a new one in the README needs a stand-in.
    for (at, _) in code.match_indices("://") {
        let start = code[..at]
            .rfind(|c: char| !c.is_ascii_alphanumeric())
            .map_or(0, |i| i + 1);
        assert!(
            addresses
                .iter()
                .any(|(_, test)| code[start..].starts_with(test.as_str())),
            "README.md:{}: {} is not an address this test stands in for",
            snippet.line,
            code[start..].split_whitespace().next().unwrap_or_default()
        );
    }
    let script = format!(
        "curl() {{ {} -w '\\n%{{http_code}}' \"$@\"; }}\n{code}\n",
        curl.display()
    );
    let output = Command::new(sh)
        .arg("-c")
        .arg(&script)
        .envs(variables.iter().map(|(name, value)| (name, value)))
        .output()
        .unwrap_or_else(|e| panic!("run sh: {e}"));
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "README.md:{}: the snippet failed ({}): {stdout}{}",
        snippet.line,
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    let (text, status) = stdout
        .rsplit_once('\n')
        .unwrap_or_else(|| panic!("README.md:{}: no status in {stdout:?}", snippet.line));
    Answer {
        status: status.trim().parse().expect("curl's %{http_code}"),
        json: serde_json::from_str(text).unwrap_or(Value::Null),
        text: text.to_owned(),
    }
}

/// Checks `answer` against the answer `snippet` documents.
pub fn assert_documented(snippet: &Snippet, answer: &Answer) {
    let at = format!("README.md:{}", snippet.line);
    let line = snippet
        .code
        .lines()
        .find_map(|l| l.trim().strip_prefix("# →"))
        .unwrap_or_else(|| panic!("{at}: no `# → <status> <answer>` line"));
    let (status, body) = line.trim().split_once(' ').unwrap_or((line.trim(), ""));
    assert_eq!(
        status.parse::<u16>().ok(),
        Some(answer.status),
        "{at}: documents {line:?}, the server answered {}: {}",
        answer.status,
        answer.text
    );
    let fields = quoted_fields(body);
    assert!(!fields.is_empty(), "{at}: documents no field in {line:?}");
    for (name, value) in fields {
        let got = answer.json[&name].as_str();
        let ok = match value.as_str() {
            "..." | "…" => got.is_some(),
            v if v.ends_with("...") || v.ends_with('…') => {
                let prefix = v.trim_end_matches("...").trim_end_matches('…');
                got.is_some_and(|g| g.starts_with(prefix))
            }
            v => got == Some(v),
        };
        assert!(
            ok,
            "{at}: documents \"{name}\": \"{value}\", the server answered {}",
            answer.text
        );
    }
}

/// The `"name": "value"` pairs of `text`, in order.
fn quoted_fields(text: &str) -> Vec<(String, String)> {
    let parts: Vec<&str> = text.split('"').collect();
    let mut fields = Vec::new();
    // Quoted strings sit at odd indexes; a name is one followed by `:` and another string.
    let mut i = 1;
    while i + 2 < parts.len() {
        if parts[i + 1].trim() == ":" {
            fields.push((parts[i].to_owned(), parts[i + 2].to_owned()));
            i += 4;
        } else {
            i += 2;
        }
    }
    fields
}
