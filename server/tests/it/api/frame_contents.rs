//! What the card form's frame serves and carries: the component's files under `/frame/`,
//! cached by name, sent precompressed, the template not served; a missing build said so; and
//! the view and the HTML form carried only for the session's client secret.

use reqwest::header::CACHE_CONTROL;
use serde_json::{Value, json};

use super::frame::{SHOP, component, form, post_frame, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn component_files_are_cached_by_name_sent_precompressed_and_the_template_is_not_served() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let get = |path: &str| h.api.get(format!("{}{path}", h.base)).send();
    let glue = get("/frame/checkout-0123456789abcdef.js")
        .await
        .expect("glue");
    assert_eq!(glue.status(), 200);
    assert_eq!(
        glue.headers()[CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    let compressed = h
        .api
        .get(format!("{}/frame/checkout-0123456789abcdef.js", h.base))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .expect("glue");
    assert_eq!(compressed.headers()["content-encoding"], "br");
    assert_eq!(
        compressed.headers()[CACHE_CONTROL],
        "public, max-age=31536000, immutable"
    );
    assert_eq!(
        compressed.bytes().await.expect("body").as_ref(),
        b"brotli bytes"
    );
    let catalogue = get("/frame/js/i18n/de.js").await.expect("catalogue");
    assert_eq!(catalogue.status(), 200);
    assert_eq!(catalogue.headers()[CACHE_CONTROL], "no-cache");
    for path in [
        "/frame/index.html",
        "/frame/manage/index.html",
        "/frame/manage/",
        "/frame/missing.js",
        "/frame/../Cargo.toml",
        "/frame/%2e%2e/Cargo.toml",
    ] {
        assert_eq!(get(path).await.expect("get").status(), 404, "{path}");
    }
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_built_component_the_frame_says_so() {
    let dir = tempfile::tempdir().expect("dir");
    let h = start(&dir.path().join("missing")).await;
    let answer = post_frame(&h, SHOP, &form(SHOP)).await;
    assert_eq!(answer.status(), 503);
    assert!(answer.text().await.expect("text").contains("COMPONENT_DIR"));
    h.finish().await;
}

/// The JSON of the data block `id` in `html`.
fn data_block(html: &str, id: &str) -> Option<Value> {
    let open = format!("id=\"{id}\">");
    let start = html.find(&open)? + open.len();
    let end = start + html[start..].find("</script>")?;
    serde_json::from_str(&html[start..end]).ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_frame_carries_the_view_and_the_html_form_only_for_its_client_secret() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let session = h
        .session(1200, json!({"description": "Tea </script>"}))
        .await;
    let fields = |secret: &str, mode: &str| {
        let mut fields = form(SHOP);
        fields.retain(|(key, _)| !matches!(*key, "session" | "client_secret" | "mode"));
        fields.push(("session", session.id.clone()));
        fields.push(("client_secret", secret.to_owned()));
        fields.push(("mode", mode.to_owned()));
        fields
    };
    let html = post_frame(&h, SHOP, &fields(&session.secret, "checkout"))
        .await
        .text()
        .await
        .expect("html");
    let carried = data_block(&html, "checkout-session").expect("the view is carried");
    let fetched: Value = h
        .api
        .get(format!("{}/v1/checkout/{}", h.base, session.id))
        .header("x-client-secret", &session.secret)
        .send()
        .await
        .expect("view")
        .json()
        .await
        .expect("JSON");
    assert_eq!(carried, fetched, "the same view the component would fetch");
    assert_eq!(carried["description"], "Tea </script>");
    assert!(data_block(&html, "checkout-config").is_some());
    assert!(
        html.contains("<main id=\"checkout\"><div id=\"cc-skeleton\""),
        "the form comes as HTML: {html}"
    );
    assert!(html.contains("<label for=\"cc-number\">Kartennummer</label>"));

    for (secret, mode) in [
        ("cs_wrong", "checkout"),
        (session.secret.as_str(), "result"),
    ] {
        let html = post_frame(&h, SHOP, &fields(secret, mode))
            .await
            .text()
            .await
            .expect("html");
        assert!(
            !html.contains("checkout-session") && !html.contains("id=\"cc-number\""),
            "no view and no form with {secret} in mode {mode}"
        );
        // The loading outline stands in for a checkout's form, not for a result.
        assert_eq!(html.contains("cc-loading"), mode == "checkout", "{mode}");
    }
    h.finish().await;
}
