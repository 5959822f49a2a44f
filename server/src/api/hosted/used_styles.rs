//! A stylesheet cut to the rules that can match one server-rendered page: the hosted page
//! carries the card form's stylesheet inline for its HTML form, and most of it styles parts
//! that page never shows (saved cards, outcomes, subscriptions, the loading outline, the brand
//! marks, the component's shadow root). Every byte of it is parsed and every rule matched at
//! 4× CPU before the form is typeable; the component gets the whole sheet from its file.
//!
//! A selector is dropped only when it cannot match: it names a class, an id or an attribute
//! value (`[name=value]`, `[name]`) the page's HTML never has, outside any `:not(…)`, `:has(…)`
//! or other parentheses (what is inside those is not looked at), or it is a shadow root's
//! (`:host`, `::slotted`, `::part`). The page's scripts must add no class, id or attribute
//! that a rule of this sheet styles in the page's own document. A rule keeps its selectors
//! that may match; conditional groups (`@media`, `@supports`, …) are cut inside; a
//! `@keyframes` stays when a kept rule names it; any other at-rule stays as it is. Comments go.

use std::collections::HashSet;

/// What of a page's HTML selectors can name.
pub struct PageNames<'a> {
    html: &'a str,
    classes: HashSet<&'a str>,
    ids: HashSet<&'a str>,
}

impl<'a> PageNames<'a> {
    /// The classes and ids `html` writes (double-quoted attributes, as the server writes them).
    pub fn of(html: &'a str) -> Self {
        Self {
            html,
            classes: attribute_values(html, " class=\"")
                .flat_map(str::split_ascii_whitespace)
                .collect(),
            ids: attribute_values(html, " id=\"").collect(),
        }
    }

    /// False when `selector` (one of a list) cannot match any element of the page.
    fn may_match(&self, selector: &str) -> bool {
        if [":host", "::slotted", "::part"]
            .iter()
            .any(|shadow| selector.contains(shadow))
        {
            return false;
        }
        if selector.contains('\\') {
            return true;
        }
        outside_parentheses(selector)
            .iter()
            .all(|part| self.has_all(part))
    }

    /// Whether the page has every class, id and attribute named in `compound` (selector text
    /// outside parentheses).
    fn has_all(&self, compound: &str) -> bool {
        let mut rest = compound;
        while let Some(at) = rest.find(['.', '#', '[']) {
            let sign = rest.as_bytes()[at];
            rest = &rest[at + 1..];
            if sign == b'[' {
                let end = rest.find(']').unwrap_or(rest.len());
                if !self.has_attribute(&rest[..end]) {
                    return false;
                }
                rest = &rest[end..];
                continue;
            }
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(rest.len());
            let name = &rest[..end];
            let found = if sign == b'.' {
                self.classes.contains(name)
            } else {
                self.ids.contains(name)
            };
            // `.5` in a number, or an empty name: not a selector's.
            if !found && !name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit()) {
                return false;
            }
            rest = &rest[end..];
        }
        true
    }

    /// `[name]` or `[name=value]` (quoted or not) in the page; any other operator may match.
    fn has_attribute(&self, test: &str) -> bool {
        let test = test.trim();
        let Some((name, value)) = test.split_once('=') else {
            return self.has_attribute_named(test);
        };
        if name.ends_with(['~', '|', '^', '$', '*']) {
            return true;
        }
        let value = value.trim().trim_matches(['"', '\'']);
        self.html.contains(&format!(" {}=\"{value}\"", name.trim()))
    }

    fn has_attribute_named(&self, name: &str) -> bool {
        let spaced = format!(" {name}");
        self.html.match_indices(&spaced).any(|(at, _)| {
            matches!(
                self.html.as_bytes().get(at + spaced.len()),
                Some(b'=' | b' ' | b'>' | b'/')
            )
        })
    }
}

/// `css` with only the rules that may match `page`.
pub fn used_rules(css: &str, page: &PageNames<'_>) -> String {
    let mut kept = String::with_capacity(css.len() / 2);
    let mut animations = Vec::new();
    for block in blocks(css) {
        match block {
            Block::Rule { prelude, body } => {
                let prelude = prelude.trim();
                if prelude.starts_with("@keyframes") || prelude.starts_with("@-webkit-keyframes") {
                    animations.push((prelude, body));
                } else if prelude.starts_with('@') {
                    let inner = if is_group(prelude) {
                        used_rules(body, page)
                    } else {
                        body.to_owned()
                    };
                    if !inner.trim().is_empty() || !is_group(prelude) {
                        kept += &format!("{prelude}{{{inner}}}");
                    }
                } else {
                    let selectors: Vec<&str> = split_top_level(prelude, ',')
                        .into_iter()
                        .map(str::trim)
                        .filter(|selector| page.may_match(selector))
                        .collect();
                    if !selectors.is_empty() {
                        kept += &format!("{}{{{}}}", selectors.join(","), body.trim());
                    }
                }
            }
            Block::Statement(text) => kept += text.trim(),
        }
    }
    for (prelude, body) in animations {
        let name = prelude.split_ascii_whitespace().nth(1).unwrap_or_default();
        if !name.is_empty() && kept.contains(name) {
            kept += &format!("{prelude}{{{body}}}");
        }
    }
    kept
}

/// At-rules whose block holds rules (cut inside), not declarations.
fn is_group(prelude: &str) -> bool {
    ["@media", "@supports", "@container", "@layer", "@scope"]
        .iter()
        .any(|group| prelude.starts_with(group))
}

/// One top-level part of a stylesheet.
enum Block<'a> {
    /// `prelude { body }`: a style rule or an at-rule with a block.
    Rule { prelude: &'a str, body: &'a str },
    /// An at-rule ending in `;` (`@import`, `@charset`, `@layer a, b;`).
    Statement(&'a str),
}

/// The top-level blocks of `css`, comments left out (strings kept whole).
fn blocks(css: &str) -> Vec<Block<'_>> {
    let mut found = Vec::new();
    let bytes = css.as_bytes();
    let (mut depth, mut start, mut body_start, mut at) = (0usize, 0, 0, 0);
    while at < bytes.len() {
        match bytes[at] {
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                let end = css[at + 2..]
                    .find("*/")
                    .map_or(css.len(), |end| at + 2 + end + 2);
                if depth == 0 {
                    start = end;
                }
                at = end;
                continue;
            }
            quote @ (b'"' | b'\'') => at = string_end(bytes, at, quote),
            b'{' => {
                if depth == 0 {
                    body_start = at + 1;
                }
                depth += 1;
            }
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    found.push(Block::Rule {
                        prelude: &css[start..body_start - 1],
                        body: &css[body_start..at],
                    });
                    start = at + 1;
                }
            }
            b';' if depth == 0 => {
                found.push(Block::Statement(&css[start..=at]));
                start = at + 1;
            }
            _ => {}
        }
        at += 1;
    }
    found
}

/// Where the string opened by `quote` at `open` ends (its closing quote).
fn string_end(bytes: &[u8], open: usize, quote: u8) -> usize {
    let mut at = open + 1;
    while at < bytes.len() && bytes[at] != quote {
        at += if bytes[at] == b'\\' { 2 } else { 1 };
    }
    at.min(bytes.len())
}

/// `text` split at each `separator` outside parentheses and brackets.
fn split_top_level(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            c if c == separator && depth == 0 => {
                parts.push(&text[start..at]);
                start = at + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The parts of `selector` outside parentheses.
fn outside_parentheses(selector: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (at, c) in selector.char_indices() {
        match c {
            '(' => {
                if depth == 0 {
                    parts.push(&selector[start..at]);
                }
                depth += 1;
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    start = at + 1;
                }
            }
            _ => {}
        }
    }
    if depth == 0 {
        parts.push(&selector[start..]);
    }
    parts
}

/// Every value of the attribute opened by `open` (` class="`) in `html`.
fn attribute_values<'a>(html: &'a str, open: &'a str) -> impl Iterator<Item = &'a str> {
    html.match_indices(open).filter_map(move |(at, _)| {
        let from = at + open.len();
        html[from..].find('"').map(|end| &html[from..from + end])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<main id=\"checkout\"><div id=\"cc-skeleton\" class=\"cc-root\" \
        dir=\"rtl\"><form class=\"cc-form\"><span class=\"cc-brand\" data-brand=\"unknown\">\
        </span><button class=\"cc-button\" disabled>Pay</button></form></div></main>";

    fn cut(css: &str) -> String {
        used_rules(css, &PageNames::of(PAGE))
    }

    #[test]
    fn keeps_what_the_page_can_show_and_drops_the_rest() {
        let css = "/* the look */.cc-root{color:red}.cc-outcome h2{margin:0}\
            .cc-form,.cc-subscriptions>div{display:grid}\
            .cc-brand[data-brand=visa]{background:url(\"data:image/svg+xml,%3Csvg}%3E\")}\
            .cc-brand[data-brand=\"unknown\"]{color:gray}.cc-button[disabled]{opacity:.5}\
            .cc-button[aria-busy]{cursor:wait}#cc-skeleton .cc-header{display:none}\
            .cc-root[dir=rtl] input{text-align:right}:host([data-hosted]) .cc-header{display:none}";
        assert_eq!(
            cut(css),
            ".cc-root{color:red}.cc-form{display:grid}.cc-brand[data-brand=\"unknown\"]\
             {color:gray}.cc-button[disabled]{opacity:.5}.cc-root[dir=rtl] input{text-align:right}"
        );
    }

    #[test]
    fn looks_past_parentheses_and_cuts_inside_media_queries() {
        let css = ".cc-form:has([data-billing-on-file]:checked) .cc-billing{display:none}\
            .cc-button:not(.cc-secondary){width:100%}\
            @media (prefers-reduced-motion:no-preference){.cc-bone{animation:cc-pulse 1s}}\
            @media print{.cc-root{color:#000}.cc-badge{color:red}}\
            @keyframes cc-pulse{50%{opacity:.55}}@font-face{font-family:x;src:url(x.woff2)}\
            @keyframes cc-spin{to{rotate:1turn}}.cc-root{animation:cc-spin 1s}";
        assert_eq!(
            cut(css),
            ".cc-button:not(.cc-secondary){width:100%}@media print{.cc-root{color:#000}}\
             @font-face{font-family:x;src:url(x.woff2)}.cc-root{animation:cc-spin 1s}\
             @keyframes cc-spin{to{rotate:1turn}}"
        );
    }

    #[test]
    fn reads_the_pages_classes_and_ids() {
        let page = PageNames::of("<p id=\"a\" class=\"b  c\"></p><i class=\"d\">");
        assert!(page.may_match("#a.b.c .d"));
        assert!(page.may_match("p > i:first-child"));
        assert!(!page.may_match("#a .e"));
        assert!(!page.may_match("#z"));
        assert!(page.may_match(".b:is(.zz)"), "parentheses not looked into");
    }
}
