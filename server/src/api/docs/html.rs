//! HTML text helpers for the reference page: escaping, and `code spans` of the OpenAPI
//! descriptions shown as `<code>`.

/// `text` with `&`, `<`, `>`, `"` and `'` escaped: safe in element content and in quoted
/// attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            other => out.push(other),
        }
    }
    out
}

/// A description as HTML: escaped, with each `` `span` `` in `<code>` (an unpaired backtick
/// stays as it is).
pub fn prose(text: &str) -> String {
    let parts: Vec<&str> = text.split('`').collect();
    let mut out = String::with_capacity(text.len() + 16);
    for (index, part) in parts.iter().enumerate() {
        let paired = index % 2 == 1 && index + 1 < parts.len();
        if paired {
            out.push_str("<code>");
            out.push_str(&escape(part));
            out.push_str("</code>");
        } else {
            if index % 2 == 1 {
                out.push('`');
            }
            out.push_str(&escape(part));
        }
    }
    out
}

/// An `id` attribute value made from `text`: ASCII letters, digits and `-` only.
pub fn anchor(prefix: &str, text: &str) -> String {
    let mut out = String::from(prefix);
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() {
            out.push(ch.to_ascii_lowercase());
        } else if !out.ends_with('-') {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn code_spans_are_escaped_too() {
        assert_eq!(prose("a `<b>` c"), "a <code>&lt;b&gt;</code> c");
        assert_eq!(prose("odd ` tick"), "odd ` tick");
    }

    #[test]
    fn anchors_are_plain() {
        assert_eq!(anchor("op-", "GET /v1/{id}"), "op-get-v1-id");
    }
}
