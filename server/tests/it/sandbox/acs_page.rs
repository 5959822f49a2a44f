//! The emulator's ACS page itself: bad links and forms are refused, and the challenge page
//! may be framed unless a fault refuses it.

use serde_json::json;

use super::support::{AcsForm, Gateway, Receiver, three_ds_body};

use super::three_ds::{assert_initiation, browser};

#[tokio::test]
async fn bad_acs_links_and_forms_are_refused() {
    let gateway = Gateway::start().await;
    let base = gateway.sandbox.base_url();
    let unknown = gateway
        .client
        .get(format!("{base}/sandbox/acs?_token=nope"))
        .send()
        .await
        .expect("answer");
    assert_eq!(unknown.status(), 404);
    let missing = gateway
        .client
        .get(format!("{base}/sandbox/acs"))
        .send()
        .await
        .expect("answer");
    assert_eq!(missing.status(), 400);
    let merchant = Receiver::start().await;
    let started = gateway
        .post("paymentv2", &three_ds_body("4000002500003155", &merchant))
        .await;
    let html = gateway
        .client
        .get(started.json["redirect_url"].as_str().expect("url"))
        .send()
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    let form = AcsForm::parse(&html);
    let odd = form.submit(&gateway.client, "maybe").await;
    assert_eq!(odd.status(), 400);
    let incomplete = gateway
        .client
        .post(&form.action)
        .form(&[("decision", "approve")])
        .send()
        .await
        .expect("answer");
    assert_eq!(incomplete.status(), 400);
    let forged = gateway
        .client
        .post(&form.action)
        .form(&[("_token", "forged"), ("decision", "approve")])
        .send()
        .await
        .expect("answer");
    assert_eq!(forged.status(), 404);
    // The real session is still open after all that.
    assert_eq!(form.submit(&gateway.client, "approve").await.status(), 303);
}

/// The `frame-ancestors` sources of the ACS page at `redirect`, and its `X-Frame-Options`.
async fn framing_of(redirect: &str) -> (String, Option<String>) {
    let page = browser().get(redirect).send().await.expect("page loads");
    assert_eq!(page.status(), 200);
    let header = |name: &str| {
        page.headers()
            .get(name)
            .map(|v| v.to_str().expect("ascii").to_owned())
    };
    let csp = header("content-security-policy").expect("a CSP");
    let ancestors = csp
        .split(';')
        .map(str::trim)
        .find_map(|d| d.strip_prefix("frame-ancestors "))
        .unwrap_or_else(|| panic!("no frame-ancestors: {csp}"))
        .to_owned();
    (ancestors, header("x-frame-options"))
}

#[tokio::test]
async fn the_challenge_page_may_be_framed_unless_a_fault_refuses_it() {
    let gateway = Gateway::start().await;
    let merchant = Receiver::start().await;
    let start = |headers: &'static [(&'static str, &'static str)]| {
        let (gateway, body) = (&gateway, three_ds_body("4000002500003155", &merchant));
        async move {
            let started = gateway.post_with("paymentv2", &body, headers).await;
            assert_initiation(&started, gateway)
        }
    };
    // A standalone emulator knows no shop: any page may frame it, as an issuer's page.
    let redirect = start(&[]).await;
    assert_eq!(framing_of(&redirect).await, ("*".to_owned(), None));

    // Armed for the next page shown: that one refuses, the next is framed again.
    let armed = gateway
        .control(
            reqwest::Method::POST,
            "/sandbox/faults",
            Some(&json!({"endpoint": "acs", "fault": "refuse-framing", "count": 1})),
        )
        .await;
    assert_eq!(armed.status, 201, "{}", armed.text);
    assert_eq!(
        framing_of(&redirect).await,
        ("'none'".to_owned(), Some("DENY".to_owned()))
    );
    assert_eq!(framing_of(&redirect).await.0, "*");

    // Asked by the starting call: every page of that payment refuses.
    let refused = start(&[("x-sandbox-fault", "refuse-framing")]).await;
    for _ in 0..2 {
        assert_eq!(framing_of(&refused).await.0, "'none'");
    }
    let wrong = gateway
        .control(
            reqwest::Method::POST,
            "/sandbox/faults",
            Some(&json!({"endpoint": "payment", "fault": "refuse-framing"})),
        )
        .await;
    assert_eq!(wrong.status, 400, "{}", wrong.text);
}
