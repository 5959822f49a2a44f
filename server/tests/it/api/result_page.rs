//! Mode `result` (the page 3-D Secure returns to) as checkout-server's own page: the frame
//! document carries no wasm, only its inline script (allowed by hash) and the pending panel in
//! the shopper's language, and `POST /frame/result` answers where the payment stands, with
//! the event the shop gets once it settles.

use std::time::Duration;

use reqwest::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY};
use serde_json::{Value, json};

use super::frame::{INLINE, SHOP, component, form, post_frame, start};
use super::support::{Harness, TestSession, cards, eventually, pay_body};

fn result_form(session: &TestSession, secret: &str) -> Vec<(&'static str, String)> {
    vec![
        ("session", session.id.clone()),
        ("client_secret", secret.to_owned()),
        ("locale", "de".to_owned()),
    ]
}

async fn ask(h: &Harness, fields: &[(&str, String)]) -> Value {
    let answer = h
        .api
        .post(format!("{}/frame/result", h.base))
        .header("sec-fetch-site", "same-origin")
        .form(fields)
        .send()
        .await
        .expect("result");
    assert_eq!(answer.status(), 200);
    assert_eq!(
        answer
            .headers()
            .get(CACHE_CONTROL)
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
    answer.json().await.expect("JSON")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_result_page_has_no_wasm_and_follows_the_payment() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;

    let mut fields = form(SHOP);
    fields[3].1 = "result".to_owned();
    let answer = post_frame(&h, SHOP, &fields).await;
    assert_eq!(answer.status(), 200);
    let policy = answer
        .headers()
        .get(CONTENT_SECURITY_POLICY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    let html = answer.text().await.expect("html");
    assert!(!html.contains(INLINE), "no wasm: {html}");
    assert!(html.contains("id=\"checkout-config\""), "{html}");
    assert!(
        html.contains("role=\"status\" aria-live=\"polite\""),
        "{html}"
    );
    assert!(html.contains("data-state=\"pending\""), "{html}");
    assert!(html.contains("lang=\"de\""), "{html}");
    assert!(
        html.contains("new URL(\"result\", location.href)"),
        "{html}"
    );
    assert_eq!(
        policy.matches("'sha256-").count(),
        1,
        "its one script: {policy}"
    );

    // A 3-D Secure payment on its way: pending, asked again, nothing told yet.
    let challenged = h.session(2500, json!({"currency": "EUR"})).await;
    let before = ask(&h, &result_form(&challenged, &challenged.secret)).await;
    assert_eq!(before["refused"], true, "no payment yet: {before}");
    assert!(
        before["stopped"]
            .as_str()
            .unwrap_or_default()
            .contains("cc-check-again")
    );
    let wrong = ask(&h, &result_form(&challenged, "cs_wrong")).await;
    assert_eq!(wrong["refused"], true);
    assert!(wrong["event"].is_null());
    let redirected = h
        .pay(&challenged, &pay_body(cards::VISA_OK, "123"), None)
        .await;
    assert_eq!(
        redirected.json["next_action"], "redirect",
        "{}",
        redirected.text
    );
    let pending = ask(&h, &result_form(&challenged, &challenged.secret)).await;
    assert_eq!(
        (pending["refused"].clone(), pending["settled"].clone()),
        (json!(false), json!(false))
    );
    assert!(pending["event"].is_null(), "{pending}");
    assert!(
        pending["outcome"]
            .as_str()
            .unwrap_or_default()
            .contains("data-state=\"pending\"")
    );
    assert!(
        pending["stopped"]
            .as_str()
            .unwrap_or_default()
            .contains("cc-check-again")
    );

    // The shopper approves: the panel says paid, and the page gets the `success` the
    // component would send.
    let redirect = redirected.json["redirect_url"].as_str().expect("redirect");
    h.complete_3ds(redirect, "approve").await;
    let after = eventually("the payment to settle", Duration::from_secs(10), || async {
        let answer = ask(&h, &result_form(&challenged, &challenged.secret)).await;
        (answer["settled"] == true).then_some(answer)
    })
    .await;
    assert_eq!(after["refused"], false);
    assert_eq!(after["lang"], "de");
    assert_eq!(after["event"]["name"], "success");
    assert_eq!(after["event"]["detail"]["state"], "captured");
    assert_eq!(after["event"]["detail"]["amount"], 2500);
    assert_eq!(after["event"]["detail"]["currency"], "EUR");
    let outcome = after["outcome"].as_str().unwrap_or_default();
    assert!(outcome.contains("data-state=\"paid\""), "{outcome}");
    assert!(outcome.contains("data-value=\"25.00\""), "{outcome}");
    let session = challenged;

    let foreign = h
        .api
        .post(format!("{}/frame/result", h.base))
        .header("sec-fetch-site", "cross-site")
        .form(&result_form(&session, &session.secret))
        .send()
        .await
        .expect("result");
    assert_eq!(foreign.status(), 403, "only the frame's own origin asks");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_result_shell_is_not_the_card_forms_build() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let shell = |mode: &'static str| {
        let h = &h;
        async move {
            h.api
                .get(format!("{}/frame/shell", h.base))
                .query(&[("origin", SHOP), ("mode", mode), ("locale", "ar")])
                .header("sec-fetch-dest", "iframe")
                .send()
                .await
                .expect("shell")
                .text()
                .await
                .expect("html")
        }
    };
    let card = shell("checkout").await;
    let result = shell("result").await;
    let build = |html: &str| {
        let config = html
            .split("id=\"checkout-config\">")
            .nth(1)
            .unwrap_or_default();
        let config = &config[..config.find("</script>").unwrap_or(0)];
        serde_json::from_str::<Value>(config).expect("config")["build"].clone()
    };
    assert!(build(&card).is_string() && build(&result).is_string());
    assert_ne!(
        build(&card),
        build(&result),
        "a result shell never claims the card form's build"
    );
    assert!(
        result.contains("dir=\"rtl\"") && !result.contains(INLINE),
        "{result}"
    );
    h.finish().await;
}
