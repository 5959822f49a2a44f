//! The isolated card form's server side: `GET /checkout.js` and `POST /frame/` (who gets the
//! frame, with which options, framed only by whom). The component here is a stand-in
//! `COMPONENT_DIR` written by the test (a page with one inline script and two files), so these
//! checks need no trunk build; the helpers here serve frame_contents.rs, dialog_pages.rs and
//! result_page.rs too.

use std::path::Path;

use reqwest::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, ETAG, IF_NONE_MATCH, ORIGIN};
use serde_json::Value;

use super::support::{Backend, Harness};

pub(super) const SHOP: &str = "https://shop.example";
pub(super) const INLINE: &str = "import init from '/frame/checkout-0123456789abcdef.js';";
const MANAGE: &str = "import init from '/frame/manage/checkout-fedcba9876543210.js';";

/// A built component as trunk lays it out.
pub(super) fn component(dir: &Path) {
    std::fs::write(
        dir.join("index.html"),
        format!("<!doctype html><html><head><script type=\"module\">{INLINE}</script></head><body><main id=\"checkout\"></main></body></html>"),
    )
    .expect("page");
    std::fs::write(
        dir.join("checkout-0123456789abcdef.js"),
        "export default 1;",
    )
    .expect("glue");
    std::fs::write(dir.join("checkout-0123456789abcdef.js.br"), "brotli bytes").expect("br");
    // The subscription bundle: the same page built with the `subscriptions` feature.
    std::fs::create_dir_all(dir.join("manage")).expect("manage");
    std::fs::write(
        dir.join("manage/index.html"),
        format!("<!doctype html><html><head><script type=\"module\">{MANAGE}</script></head><body><main id=\"checkout\"></main></body></html>"),
    )
    .expect("subscription page");
    std::fs::create_dir_all(dir.join("js/i18n")).expect("dirs");
    std::fs::write(dir.join("js/i18n/de.js"), "export default {};").expect("catalogue");
}

pub(super) async fn start(dir: &Path) -> Harness {
    let component_dir = dir.display().to_string();
    Harness::start_with(
        Backend::Sqlite,
        &[("ALLOWED_ORIGINS", SHOP), ("COMPONENT_DIR", &component_dir)],
    )
    .await
}

pub(super) fn form(origin: &str) -> Vec<(&'static str, String)> {
    vec![
        ("origin", origin.to_owned()),
        ("session", "cs_session_1".to_owned()),
        ("client_secret", "cs_secret_</script>".to_owned()),
        ("mode", "checkout".to_owned()),
        ("locale", "de".to_owned()),
        ("theme", r##"{"--cc-accent":"#0a7"}"##.to_owned()),
    ]
}

pub(super) async fn post_frame(
    h: &Harness,
    origin_header: &str,
    fields: &[(&str, String)],
) -> reqwest::Response {
    h.api
        .post(format!("{}/frame/", h.base))
        .header(ORIGIN, origin_header)
        .form(fields)
        .send()
        .await
        .expect("frame document")
}

/// [`post_frame`] as a browser that says the request is for `dest` (`Sec-Fetch-Dest`).
async fn post_frame_for(
    h: &Harness,
    origin_header: &str,
    dest: &str,
    fields: &[(&str, String)],
) -> reqwest::Response {
    h.api
        .post(format!("{}/frame/", h.base))
        .header(ORIGIN, origin_header)
        .header("sec-fetch-dest", dest)
        .header("sec-fetch-mode", "navigate")
        .form(fields)
        .send()
        .await
        .expect("frame document")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_loader_is_javascript_revalidated_by_etag_and_both_are_sent_compressed() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let loader = h
        .api
        .get(format!("{}/checkout.js", h.base))
        .send()
        .await
        .expect("loader");
    assert_eq!(loader.status(), 200);
    let headers = loader.headers().clone();
    assert!(
        headers["content-type"]
            .to_str()
            .expect("ascii")
            .starts_with("text/javascript")
    );
    assert_eq!(headers[CACHE_CONTROL], "public, max-age=300");
    let etag = headers[ETAG].clone();
    assert!(
        loader
            .text()
            .await
            .expect("text")
            .contains("customElements.define(\"card-checkout\"")
    );
    let again = h
        .api
        .get(format!("{}/checkout.js", h.base))
        .header(IF_NONE_MATCH, etag)
        .send()
        .await
        .expect("revalidate");
    assert_eq!(again.status(), 304);
    let compressed = h
        .api
        .get(format!("{}/checkout.js", h.base))
        .header("accept-encoding", "br")
        .send()
        .await
        .expect("loader");
    assert_eq!(compressed.headers()["content-encoding"], "br");
    let frame = h
        .api
        .post(format!("{}/frame/", h.base))
        .header(ORIGIN, SHOP)
        .header("accept-encoding", "gzip")
        .form(&form(SHOP))
        .send()
        .await
        .expect("frame document");
    assert_eq!(frame.status(), 200);
    assert_eq!(frame.headers()["content-encoding"], "gzip");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_allowed_page_gets_the_frame_with_its_options_framed_only_by_it() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let answer = post_frame(&h, SHOP, &form(SHOP)).await;
    assert_eq!(answer.status(), 200);
    let headers = answer.headers().clone();
    let policy = headers[CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        policy.contains(&format!("frame-ancestors 'self' {SHOP};")),
        "{policy}"
    );
    let hash = {
        use base64::Engine as _;
        use sha2::Digest as _;
        base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(INLINE))
    };
    assert!(policy.contains(&format!("'sha256-{hash}'")), "{policy}");
    assert!(headers.get("x-frame-options").is_none(), "{headers:?}");
    assert_eq!(headers[CACHE_CONTROL], "no-store");
    let html = answer.text().await.expect("html");
    let start = html.find("id=\"checkout-config\">").expect("config block") + 21;
    let end = start + html[start..].find("</script>").expect("end of block");
    let config: Value = serde_json::from_str(&html[start..end]).expect("JSON");
    assert_eq!(config["origin"], SHOP);
    assert_eq!(config["session"], "cs_session_1");
    assert_eq!(config["client_secret"], "cs_secret_</script>");
    assert_eq!(config["locale"], "de");
    assert_eq!(
        config["title"], "Kartenzahlung",
        "the frame's title in German"
    );
    assert_eq!(config["theme"]["--cc-accent"], "#0a7");
    // No such session: no form as HTML, the loading outline until the component says why.
    assert!(
        html.contains("<main id=\"checkout\"><div id=\"cc-skeleton\""),
        "{html}"
    );
    assert!(html.contains("id=\"cc-loading\"") && !html.contains("id=\"cc-number\""));
    // A page whose referrer policy is `no-referrer` posts with `Origin: null` into its frame:
    // the CSP then keeps other pages from framing the answer.
    let no_referrer = post_frame_for(&h, "null", "iframe", &form(SHOP)).await;
    assert_eq!(no_referrer.status(), 200);
    assert!(
        no_referrer.headers()[CONTENT_SECURITY_POLICY]
            .to_str()
            .expect("ascii")
            .contains(&format!("frame-ancestors 'self' {SHOP};"))
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_form_is_refused_to_anything_but_a_frame() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    // A hostile page without a referrer posts the loader's fields as a top-level navigation
    // (`target=_top`), naming an allowed shop and a session it started itself.
    for dest in ["document", "empty", "frame", "object"] {
        let answer = post_frame_for(&h, "null", dest, &form(SHOP)).await;
        assert_eq!(answer.status(), 403, "Sec-Fetch-Dest: {dest}");
        let csp = answer.headers()[CONTENT_SECURITY_POLICY]
            .to_str()
            .expect("ascii")
            .to_owned();
        assert!(csp.starts_with("default-src 'none'"), "{csp}");
        let text = answer.text().await.expect("text");
        assert!(
            !text.contains("cc-number") && !text.contains("<form"),
            "{text}"
        );
        assert!(text.contains("inside the shop's checkout page"), "{text}");
    }
    // The same fields posted into a frame get the form.
    let framed = post_frame_for(&h, "null", "iframe", &form(SHOP)).await;
    assert_eq!(framed.status(), 200);
    assert!(
        framed
            .text()
            .await
            .expect("html")
            .contains("checkout-config")
    );
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn subscription_self_service_gets_the_subscription_bundle_and_checkout_the_card_one() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let mut manage = form(SHOP);
    manage[3].1 = "subscriptions".to_owned();
    manage.push(("customer_token", "ct_token_1".to_owned()));
    let answer = post_frame(&h, SHOP, &manage).await;
    assert_eq!(answer.status(), 200);
    let html = answer.text().await.expect("html");
    assert!(html.contains(MANAGE), "{html}");
    assert!(!html.contains(INLINE), "{html}");
    let answer = post_frame(&h, SHOP, &form(SHOP)).await;
    let html = answer.text().await.expect("html");
    assert!(html.contains(INLINE) && !html.contains(MANAGE), "{html}");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_origins_and_bad_options_get_no_frame() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let evil = "https://evil.example";
    // A page outside ALLOWED_ORIGINS, honest or claiming to be the shop.
    for (header, fields) in [(evil, form(evil)), (evil, form(SHOP)), (SHOP, form(evil))] {
        let answer = post_frame(&h, header, &fields).await;
        assert_eq!(answer.status(), 403, "{header} {fields:?}");
        let text = answer.text().await.expect("text");
        assert!(!text.contains("cs_secret"), "{text}");
    }
    let mut bad_mode = form(SHOP);
    bad_mode[3].1 = "admin".to_owned();
    let answer = post_frame(&h, SHOP, &bad_mode).await;
    assert_eq!(answer.status(), 400);
    assert!(answer.text().await.expect("text").contains("`mode`"));
    let mut bad_theme = form(SHOP);
    bad_theme[5].1 = r#"{"--cc-accent":"red;background:url(https://evil.example/x)"}"#.to_owned();
    assert_eq!(post_frame(&h, SHOP, &bad_theme).await.status(), 400);
    let get = h
        .api
        .get(format!("{}/frame/", h.base))
        .send()
        .await
        .expect("get");
    assert_ne!(get.status(), 200, "the document is only ever posted for");
    h.finish().await;
}
