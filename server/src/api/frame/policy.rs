//! The Content-Security-Policy of the frame document: scripts from this origin plus the exact
//! inline scripts the built page carries (by SHA-256; trunk writes one to start the wasm),
//! `'wasm-unsafe-eval'` so the component can compile, inline styles (the component sets
//! `style` attributes; the theme's custom properties), nothing from elsewhere, and framing
//! only by the page that asked for it.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use sha2::{Digest as _, Sha256};

/// The CSP of the frame document `html`, framed by `ancestor` (an origin) or by this origin.
pub fn frame_policy(html: &str, ancestor: &str) -> String {
    page_policy(html, "'none'", &format!("'self' {ancestor}"))
}

/// The CSP of a page of this origin built from the component's template `html` (the frame
/// document, the hosted payment page): its own scripts and `html`'s inline ones by hash,
/// frames from `frame_src`, framed by `frame_ancestors`.
pub fn page_policy(html: &str, frame_src: &str, frame_ancestors: &str) -> String {
    let hashes: String = inline_scripts(html)
        .into_iter()
        .map(|script| {
            format!(
                " 'sha256-{}'",
                BASE64.encode(Sha256::digest(script.as_bytes()))
            )
        })
        .collect();
    format!(
        "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'{hashes}; \
         style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; \
         connect-src 'self'; frame-src {frame_src}; form-action 'none'; \
         frame-ancestors {frame_ancestors}; base-uri 'none'; object-src 'none'"
    )
}

/// The text of every `<script>` element without a `src` attribute, exactly as written.
fn inline_scripts(html: &str) -> Vec<&str> {
    let mut scripts = Vec::new();
    let lower = html.to_ascii_lowercase();
    let mut from = 0;
    while let Some(start) = lower[from..].find("<script").map(|i| i + from) {
        let Some(tag_end) = lower[start..].find('>').map(|i| i + start + 1) else {
            break;
        };
        let Some(close) = lower[tag_end..].find("</script").map(|i| i + tag_end) else {
            break;
        };
        if !has_src(&lower[start..tag_end]) {
            scripts.push(&html[tag_end..close]);
        }
        from = close;
    }
    scripts
}

fn has_src(tag: &str) -> bool {
    tag.split(|c: char| c.is_ascii_whitespace())
        .any(|word| word.starts_with("src=") || word == "src")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_only_inline_scripts() {
        let html = "<head><script type=\"module\">\nimport init from '/a.js';\n</script>\
                    <SCRIPT src=\"/b.js\"></SCRIPT><script>x()</script></head>";
        assert_eq!(
            inline_scripts(html),
            vec!["\nimport init from '/a.js';\n", "x()"]
        );
        let policy = frame_policy(html, "https://shop.example");
        let expected = BASE64.encode(Sha256::digest(b"x()"));
        assert!(policy.contains(&format!("'sha256-{expected}'")), "{policy}");
        assert_eq!(policy.matches("'sha256-").count(), 2, "{policy}");
        assert!(policy.contains("'wasm-unsafe-eval'"), "{policy}");
        assert!(
            policy.contains("frame-ancestors 'self' https://shop.example;"),
            "{policy}"
        );
    }

    #[test]
    fn a_page_without_scripts_allows_only_its_origin() {
        let policy = frame_policy("<p>hello</p>", "https://shop.example");
        assert!(!policy.contains("sha256"), "{policy}");
        assert!(
            policy.starts_with("default-src 'none'; script-src 'self' 'wasm-unsafe-eval';"),
            "{policy}"
        );
    }
}
