//! The pages of 3-D Secure in a dialog on the shop's page: `GET /frame/challenge` (what the
//! loader's dialog frames, holding the bank's page) only for a frame of an allowed shop, and
//! the return from the bank inside it: settled as a top-level return is, answered with a page
//! that tells the dialog the bank's part is over (no redirect to the shop, no outcome in it).

use reqwest::header::{CONTENT_SECURITY_POLICY, LOCATION};
use serde_json::json;

use super::frame::{SHOP, component, start};
use super::support::{Harness, cards, eventually};

/// A client that, like a frame's navigation, does not follow redirects by itself.
fn browser() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .expect("client")
}

async fn challenge_page(h: &Harness, origin: &str, dest: &str) -> reqwest::Response {
    browser()
        .get(format!("{}/frame/challenge", h.base))
        .query(&[("origin", origin)])
        .header("sec-fetch-dest", dest)
        .send()
        .await
        .expect("dialog page")
}

fn csp(response: &reqwest::Response) -> String {
    response.headers()[CONTENT_SECURITY_POLICY]
        .to_str()
        .expect("ascii")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_dialog_page_is_only_for_a_frame_of_an_allowed_shop() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;

    let page = challenge_page(&h, SHOP, "iframe").await;
    assert_eq!(page.status(), 200);
    let policy = csp(&page);
    assert!(
        policy.contains(&format!("frame-ancestors {SHOP};")),
        "{policy}"
    );
    assert!(policy.contains("frame-src http: https:;"), "{policy}");
    assert!(policy.contains("script-src 'sha256-"), "{policy}");
    let html = page.text().await.expect("html");
    assert!(html.contains("bank_loaded") && html.contains("three_ds_returned"));
    assert!(html.contains(&format!("data-origin=\"{SHOP}\"")), "{html}");

    assert_eq!(challenge_page(&h, SHOP, "document").await.status(), 403);
    assert_eq!(
        challenge_page(&h, "https://evil.example", "iframe")
            .await
            .status(),
        403
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_return_inside_the_dialog_settles_and_tells_the_dialog_only() {
    let dir = tempfile::tempdir().expect("dir");
    component(dir.path());
    let h = start(dir.path()).await;
    let session = h.session(1300, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::FRICTIONLESS).await;

    // The bank's page sends the frame on to this payment's return address.
    let bank = browser()
        .get(&redirect)
        .header("sec-fetch-dest", "iframe")
        .send()
        .await
        .expect("bank page");
    assert!(bank.status().is_redirection(), "{}", bank.status());
    let back = bank.headers()[LOCATION].to_str().expect("ascii").to_owned();
    assert!(back.contains("/checkout/return/"), "{back}");

    let framed = browser()
        .get(&back)
        .header("sec-fetch-dest", "iframe")
        .send()
        .await
        .expect("return page");
    assert_eq!(framed.status(), 200, "a page, not a redirect to the shop");
    let policy = csp(&framed);
    assert!(
        policy.contains(&format!("frame-ancestors 'self' {SHOP}")),
        "{policy}"
    );
    let html = framed.text().await.expect("html");
    assert!(html.contains("three_ds_returned"), "{html}");
    assert!(
        html.contains("location.origin"),
        "the word goes to the dialog's page, this origin's: {html}"
    );
    assert!(!html.contains("captured") && !html.contains("client_secret"));

    // Settled by that visit, as a top-level return is.
    let payment = h.stored_payment(&session).await;
    eventually(
        "the payment captured",
        std::time::Duration::from_secs(5),
        || async {
            let now = h.payment(&payment.id).await;
            (now["state"] == "captured").then_some(())
        },
    )
    .await;

    // A top-level visit of the same address still goes to the shop.
    let top = browser()
        .get(&back)
        .header("sec-fetch-dest", "document")
        .send()
        .await
        .expect("top-level return");
    assert_eq!(top.status(), 303);
}
