//! axe-core (Deque's accessibility rules, pinned in tools/package.json) run in a page as it is
//! now: the WCAG 2.0, 2.1 and 2.2 A and AA rules and best practices. A scenario asks for the
//! violations inside one part of the page, reached through open shadow roots, and fails on any.

use serde_json::{Value, json};

use super::Page;
use super::tools::workspace_root;

/// Where the setup (scripts/wasm-opt.sh --install) put axe-core.
const AXE: &str = "tools/node_modules/axe-core/axe.min.js";

/// The rule sets checked.
const TAGS: [&str; 7] = [
    "wcag2a",
    "wcag2aa",
    "wcag21a",
    "wcag21aa",
    "wcag22aa",
    "best-practice",
    "cat.aria",
];

/// The violations of the rules inside the element `path` names, in the page's top document:
/// each selector a step into the previous match's shadow root (`["card-checkout",
/// "dialog.cc-3ds"]`). Frames inside it are not entered (another origin's page is its own).
pub async fn violations(page: &Page, path: &[&str]) -> Vec<Value> {
    let source = std::fs::read_to_string(workspace_root().join(AXE))
        .unwrap_or_else(|e| panic!("{AXE}: {e}: run scripts/setup.sh"));
    page.to_page().await;
    page.client
        .execute(&[source.as_str(), "\nreturn true;"].concat(), vec![])
        .await
        .expect("axe-core loads in the page");
    let run = "const [path, tags, done] = arguments;
        axe.run({ include: [{ fromShadowDom: path }] },
          { runOnly: { type: 'tag', values: tags }, iframes: false, resultTypes: ['violations'] })
          .then((result) => done(result.violations.map((v) => ({ id: v.id, impact: v.impact,
            help: v.help, nodes: v.nodes.map((n) => n.html) }))))
          .catch((error) => done([{ id: 'axe-failed', help: String(error) }]));";
    let found = page
        .client
        .execute_async(run, vec![json!(path), json!(TAGS)])
        .await
        .expect("axe-core runs");
    found.as_array().cloned().unwrap_or_default()
}
