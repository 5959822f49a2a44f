//! The hosted page's document, made from the card form's built template (`COMPONENT_DIR`'s
//! `index.html`, the frame document): the same wasm, preloaded and started by the page's own
//! script once the form has painted (its preloads wait in a template), with the frame's script (`www/frame.js`, which runs only
//! in a frame) replaced by the page's own ([`SCRIPT`]), the page's language and title, its
//! styles, and its content in the form's place. Its policy is the frame's, but it frames only
//! this origin (the 3-D Secure host, `/frame/challenge`) and nothing may frame it. What only
//! a frame needs, or only a reader of the sources, does not go to the payer's phone: the
//! frame's first script (asking the embedding page for its session), the template's HTML
//! comments and the page script's comment lines; and of the component's inlined stylesheet,
//! when the template names its file (`data-href`, scripts/wasm-opt.sh), only the rules the
//! page's HTML can match ([`used_rules`]): the component takes the whole file.

use std::sync::LazyLock;

use super::super::frame::page::data_block;
use super::super::frame::policy::page_policy;
use super::used_styles::{PageNames, used_rules};
use serde::Serialize;

/// The page's script: see the file's header.
pub const SCRIPT: &str = include_str!("hosted.js");
/// The hosted pages' styles.
pub const STYLES: &str = include_str!("hosted.css");

/// [`SCRIPT`] as the page carries it: without its comment lines.
static SHIPPED_SCRIPT: LazyLock<String> = LazyLock::new(|| {
    SCRIPT
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
});
/// The frame's first script asks the embedding page for its session (`window.ccSession`).
const SESSION_SCRIPT_MARK: &str = "window.ccSession";
/// Trunk's script starting the wasm as the document is parsed: the page's own script starts it
/// once the HTML form has painted.
const WASM_START_MARK: &str = "import init";

/// Where the template shows the form.
const FORM_SLOT: &str = "<main id=\"checkout\"></main>";
/// The frame's script is the one the template loads from a `frame-….js` file.
const FRAME_SCRIPT: &str = "src=\"/frame/frame-";
/// The component's stylesheet, inlined by scripts/wasm-opt.sh, with its file's address in
/// `data-href` (the component copies the block into its shadow root, `stylesheet="#checkout-css"`,
/// or links the file).
const COMPONENT_CSS: &str = "<style id=\"checkout-css\"";
/// The template holding the component's preloads (its wasm, JS glue and snippets), which the
/// page's script activates once the form has painted: fetched and compiled while the document
/// is parsed and first laid out, they held the first paint back (about 40 ms at 4× CPU, on a
/// first visit as on a return from the cache).
const PRELOADS_ID: &str = "hp-preloads";
/// The card form's HTML (the skeleton's root), which the first frame waits for (`<link
/// rel="expect" blocking="render">`): the parser stops now and then on a phone's CPU, and
/// each stop painted a frame without the form (a frame at 4x CPU costs tens of milliseconds)
/// before the one with it. Browsers without `rel="expect"` ignore the link.
const FORM_ID: &str = "cc-skeleton";
/// The attribute naming the stylesheet's file.
const CSS_FILE: &str = " data-href=\"";

/// What the page is about, in the payer's language.
pub struct Hosted<'a, C: Serialize> {
    /// `lang=`.
    pub lang: &'a str,
    /// `dir=`.
    pub dir: &'a str,
    /// `<title>`, escaped.
    pub title: &'a str,
    /// The content of `<main>`.
    pub main: &'a str,
    /// The script's options (`#hosted-config`).
    pub config: &'a C,
}

/// The hosted document from the built `template`, `None` when the template lacks a part it
/// needs (a build this code does not know).
pub fn document<C: Serialize>(template: &str, page: &Hosted<'_, C>) -> Option<String> {
    let html = template.replacen(
        "<html lang=\"en\">",
        &format!("<html lang=\"{}\" dir=\"{}\">", page.lang, page.dir),
        1,
    );
    let html = replace_between(&html, "<title>", "</title>", page.title)?;
    // The comments first: the template's comment above the session script names its mark.
    let html = without_comments(&without_frame_script(&html)?);
    let html = without_script(&without_script(&html, SESSION_SCRIPT_MARK), WASM_START_MARK);
    let (html, preloads) = without_preloads(&html);
    let head_end = html.rfind("</head>")?;
    let styles = format!(
        "<link rel=\"expect\" href=\"#{FORM_ID}\" blocking=\"render\"><style>{STYLES}</style>"
    );
    let html = [&html[..head_end], &styles, &html[head_end..]].concat();
    // After the form: in the head, the parser went through them (10 KB of script) before
    // the form, and the script ran between the form's first frame and the next (at 4x CPU:
    // typeable 60 ms later on a first visit).
    let after_form = format!(
        "{}<template id=\"{PRELOADS_ID}\">{preloads}</template>\
         <script type=\"module\">{}</script>",
        data_block("hosted-config", page.config)?,
        *SHIPPED_SCRIPT
    );
    let main = format!("<main id=\"checkout\">{}</main>{after_form}", page.main);
    let html = html
        .contains(FORM_SLOT)
        .then(|| html.replacen(FORM_SLOT, &main, 1))?;
    with_used_component_css(&html)
}

/// `html` with the component's inlined stylesheet cut to the rules its HTML can match, when
/// the stylesheet names its file (for the component); as it is otherwise.
fn with_used_component_css(html: &str) -> Option<String> {
    let tag_at = html.find(COMPONENT_CSS)?;
    let css_at = html[tag_at..].find('>')? + tag_at + 1;
    let css_end = html[css_at..].find("</style>")? + css_at;
    if !html[tag_at..css_at].contains(CSS_FILE) {
        return Some(html.to_owned());
    }
    let used = used_rules(&html[css_at..css_end], &PageNames::of(html));
    Some([&html[..css_at], &used, &html[css_end..]].concat())
}

/// The Content-Security-Policy of `html`: the frame's, framing only this origin, framed by
/// nothing.
pub fn policy(html: &str) -> String {
    page_policy(html, "'self'", "'none'")
}

/// `html` with the text between the first `open` and the next `close` replaced.
fn replace_between(html: &str, open: &str, close: &str, text: &str) -> Option<String> {
    let start = html.find(open)? + open.len();
    let end = html[start..].find(close)? + start;
    Some([&html[..start], text, &html[end..]].concat())
}

/// `html` without its `<link rel="preload">` and `<link rel="modulepreload">` elements, and
/// those elements.
fn without_preloads(html: &str) -> (String, String) {
    let (mut kept, mut links) = (String::with_capacity(html.len()), String::new());
    let mut rest = html;
    while let Some(start) = rest.find("<link ") {
        let Some(end) = rest[start..].find('>').map(|end| start + end + 1) else {
            break;
        };
        let tag = &rest[start..end];
        kept.push_str(&rest[..start]);
        if tag.contains(" rel=\"preload\"") || tag.contains(" rel=\"modulepreload\"") {
            links.push_str(tag);
        } else {
            kept.push_str(tag);
        }
        rest = &rest[end..];
    }
    kept.push_str(rest);
    (kept, links)
}

/// `html` without the `<script>` element loading `www/frame.js`.
fn without_frame_script(html: &str) -> Option<String> {
    let src = html.find(FRAME_SCRIPT)?;
    let start = html[..src].rfind("<script")?;
    let end = html[src..].find("</script>")? + src + "</script>".len();
    Some([&html[..start], &html[end..]].concat())
}

/// `html` without the inline script holding `mark` (the frame's first script, asking the
/// embedding page for its session: a page of its own has none to ask; trunk's wasm start).
fn without_script(html: &str, mark: &str) -> String {
    let Some(at) = html.find(mark) else {
        return html.to_owned();
    };
    let start = html[..at].rfind("<script");
    let end = html[at..]
        .find("</script>")
        .map(|end| at + end + "</script>".len());
    match (start, end) {
        (Some(start), Some(end)) => [&html[..start], &html[end..]].concat(),
        _ => html.to_owned(),
    }
}

/// `html` without its `<!-- … -->` comments.
fn without_comments(html: &str) -> String {
    let mut kept = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(start) = rest.find("<!--") {
        kept.push_str(&rest[..start]);
        match rest[start..].find("-->") {
            Some(end) => rest = &rest[start + end + "-->".len()..],
            None => return kept,
        }
    }
    kept.push_str(rest);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = "<!doctype html>\n<html lang=\"en\"><head><title>Card payment</title>\
        <!-- frame.js takes the answer from window.ccSession. -->\
        <script>(function () { window.ccSession = 1; })();</script><!-- for readers -->\
        <script type=\"module\">import init from '/frame/checkout-1.js'; await init();</script>\
        <style id=\"checkout-css\">.cc-root{}</style>\
        <link rel=\"modulepreload\" href=\"/frame/checkout-1.js\" integrity=\"sha384-y\">\
        <link rel=\"preload\" href=\"/frame/checkout-1_bg.wasm\" as=\"fetch\">\
        <link rel=\"icon\" href=\"/favicon.ico\">\
        <script src=\"/frame/frame-ab12.js\" integrity=\"sha384-x\" type=\"module\"></script>\
        </head><body><main id=\"checkout\"></main></body></html>";

    fn page_of(template: &str, main: &str) -> String {
        let config = serde_json::json!({ "locale": "ar" });
        let page = Hosted {
            lang: "ar",
            dir: "rtl",
            title: "Shop – Tea",
            main,
            config: &config,
        };
        document(template, &page).expect("a known template")
    }

    fn page() -> String {
        page_of(TEMPLATE, "<p>form</p>")
    }

    #[test]
    fn the_page_runs_its_own_script_instead_of_the_frames() {
        let html = page();
        assert!(!html.contains("frame-ab12.js"), "{html}");
        assert!(
            !html.contains("import init"),
            "the page's script starts the wasm: {html}"
        );
        assert!(
            html.contains(SHIPPED_SCRIPT.as_str()),
            "the page's script inline"
        );
        assert!(!html.contains("// "), "without its comments");
        assert!(
            !html.contains("ccSession") && !html.contains("for readers"),
            "{html}"
        );
        assert!(html.starts_with("<!doctype html>\n<html lang=\"ar\" dir=\"rtl\">"));
        assert!(html.contains("<title>Shop – Tea</title>"));
        assert!(html.contains(
            "<main id=\"checkout\"><p>form</p></main><script type=\"application/json\" \
             id=\"hosted-config\">"
        ));
        let head = &html[..html.find("</head>").expect("a head")];
        assert!(
            head.contains("<link rel=\"expect\" href=\"#cc-skeleton\" blocking=\"render\">"),
            "the first frame waits for the form: {html}"
        );
        assert!(
            head.contains("<style>") && !head.contains("<script") && !head.contains("<template"),
            "the options, the preloads and the script come after the form: {html}"
        );
        assert!(
            html.contains("<link rel=\"icon\" href=\"/favicon.ico\"><link rel=\"expect\""),
            "other links stay: {html}"
        );
        assert!(
            html.contains(
                "<template id=\"hp-preloads\"><link rel=\"modulepreload\" \
                 href=\"/frame/checkout-1.js\" integrity=\"sha384-y\"><link rel=\"preload\" \
                 href=\"/frame/checkout-1_bg.wasm\" as=\"fetch\"></template>"
            ),
            "the preloads wait for the first paint: {html}"
        );
        assert_eq!(
            html.matches("<link rel=\"modulepreload\"").count(),
            1,
            "{html}"
        );
        assert!(
            html.contains("<style id=\"checkout-css\">.cc-root{}</style>"),
            "without its file's address, the stylesheet stays whole: the component takes it \
             from the page: {html}"
        );
        let policy = policy(&html);
        // The options block, the page's script.
        assert_eq!(policy.matches("'sha256-").count(), 2, "{policy}");
        assert!(policy.contains("frame-src 'self';"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none';"), "{policy}");
    }

    #[test]
    fn the_component_stylesheet_keeps_only_what_the_page_can_show() {
        let template = TEMPLATE.replace(
            "<style id=\"checkout-css\">.cc-root{}</style>",
            "<style id=\"checkout-css\" data-href=\"/frame/checkout-9f.css\">.cc-root{color:red}\
             .cc-outcome h2{margin:0}.cc-form,.cc-saved legend{display:grid}</style>",
        );
        let html = page_of(
            &template,
            "<div class=\"cc-root\"><form class=\"cc-form\"></form></div>",
        );
        assert!(
            html.contains(
                "<style id=\"checkout-css\" data-href=\"/frame/checkout-9f.css\">\
                 .cc-root{color:red}.cc-form{display:grid}</style>"
            ),
            "{html}"
        );
    }

    #[test]
    fn a_template_without_the_forms_place_gives_nothing() {
        let config = serde_json::json!({});
        let page = Hosted {
            lang: "en",
            dir: "ltr",
            title: "t",
            main: "",
            config: &config,
        };
        assert!(document("<html lang=\"en\"><head></head></html>", &page).is_none());
    }
}
