//! CORS and CSRF on the browser API: only `ALLOWED_ORIGINS` get CORS answers, only for the
//! browser API; a state-changing browser request from another origin is refused with 403
//! before any handler (and so any gateway call) runs.

use reqwest::Method;
use serde_json::json;

use crate::api::support::{Harness, Reply, cards, pay_body};
use crate::ops::support::{customer, customer_token, ops_suite, send, subscribe, unique};

const SHOP: &str = "https://shop.example";
const EVIL: &str = "https://evil.example";

const CONFIG: &[(&str, &str)] = &[("ALLOWED_ORIGINS", SHOP)];

ops_suite!(
    cors_only_for_allowed_origins_on_the_browser_api,
    cross_origin_writes_are_refused
);

async fn preflight(h: &Harness, path: &str, origin: &str) -> Reply {
    send(
        h.api
            .request(Method::OPTIONS, format!("{}{path}", h.base))
            .header("Origin", origin)
            .header("Access-Control-Request-Method", "POST")
            .header(
                "Access-Control-Request-Headers",
                "content-type,x-client-secret,idempotency-key",
            ),
    )
    .await
}

fn allowed_origin(reply: &Reply) -> Option<&str> {
    reply
        .headers
        .get("access-control-allow-origin")
        .and_then(|v| v.to_str().ok())
}

async fn cors_only_for_allowed_origins_on_the_browser_api(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let pay = format!("/v1/checkout/{}/pay", session.id);

    let allowed = preflight(h, &pay, SHOP).await;
    assert!(allowed.status < 300, "{}", allowed.status);
    assert_eq!(allowed_origin(&allowed), Some(SHOP));
    let headers = allowed.headers["access-control-allow-headers"]
        .to_str()
        .expect("ascii")
        .to_ascii_lowercase();
    assert!(
        headers.contains("x-client-secret") && headers.contains("idempotency-key"),
        "{headers}"
    );
    assert!(
        allowed.headers["access-control-allow-methods"]
            .to_str()
            .expect("ascii")
            .contains("POST")
    );
    assert!(
        allowed
            .headers
            .get("access-control-allow-credentials")
            .is_none(),
        "no credentials mode"
    );

    let denied = preflight(h, &pay, EVIL).await;
    assert_eq!(
        allowed_origin(&denied),
        None,
        "an unlisted origin gets no CORS grant"
    );

    let view = send(h.checkout(Method::GET, &session, "").header("Origin", SHOP)).await;
    assert_eq!(view.status, 200, "{}", view.text);
    assert_eq!(allowed_origin(&view), Some(SHOP));
    let exposed = view.headers["access-control-expose-headers"]
        .to_str()
        .expect("ascii")
        .to_ascii_lowercase();
    assert!(exposed.contains("retry-after"), "{exposed}");

    // The merchant API is not for browsers, whatever the origin.
    let merchant = preflight(h, "/v1/sessions", SHOP).await;
    assert_eq!(allowed_origin(&merchant), None);
    let listing = send(
        h.merchant(Method::GET, "/v1/payments")
            .header("Origin", SHOP),
    )
    .await;
    assert_eq!(listing.status, 200);
    assert_eq!(allowed_origin(&listing), None);
}

async fn cross_origin_writes_are_refused(h: &Harness) {
    let session = h.session(1000, json!({})).await;
    let body = pay_body(cards::VISA_OK, "123");
    let pay = |origin: Option<&'static str>, site: Option<&'static str>| {
        let mut request = h.checkout(Method::POST, &session, "/pay").json(&body);
        if let Some(origin) = origin {
            request = request.header("Origin", origin);
        }
        if let Some(site) = site {
            request = request.header("Sec-Fetch-Site", site);
        }
        send(request)
    };
    pay(Some(EVIL), Some("cross-site"))
        .await
        .assert_error(403, "origin_not_allowed", None);
    pay(Some("null"), None)
        .await
        .assert_error(403, "origin_not_allowed", None);
    pay(None, Some("cross-site"))
        .await
        .assert_error(403, "origin_not_allowed", None);
    assert_eq!(
        h.gateway_charges(&session.reference),
        0,
        "nothing reached the gateway"
    );

    // A cross-site HTML form can send neither JSON nor the client secret header.
    let form = send(
        h.api
            .post(format!("{}/v1/checkout/{}/pay", h.base, session.id))
            .header("Origin", EVIL)
            .form(&[("card", "x")]),
    )
    .await;
    assert_eq!(form.status, 415, "{}", form.text);

    // The shop's own origin (and this server's own) may pay.
    let own = h.base.clone();
    let ok = send(
        h.checkout(Method::POST, &session, "/pay")
            .json(&body)
            .header("Origin", own),
    )
    .await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    let second = h.session(1000, json!({})).await;
    let ok = send(
        h.checkout(Method::POST, &second, "/pay")
            .json(&body)
            .header("Origin", SHOP),
    )
    .await;
    assert_eq!(ok.status, 200, "{}", ok.text);

    // Customer self-service writes are browser writes too.
    let alice = unique("alice");
    let (_, id) = subscribe(h, &alice, "demo-monthly", cards::VISA_OK).await;
    let token = customer_token(h, &alice).await;
    let refused = send(
        customer(
            h,
            Method::POST,
            &format!("/v1/customer/subscriptions/{id}/cancel"),
            &token,
        )
        .header("Origin", EVIL),
    )
    .await;
    refused.assert_error(403, "origin_not_allowed", None);
    let revoke =
        send(customer(h, Method::DELETE, "/v1/customer/token", &token).header("Origin", EVIL))
            .await;
    revoke.assert_error(403, "origin_not_allowed", None);
    let list =
        send(customer(h, Method::GET, "/v1/customer/subscriptions", &token).header("Origin", EVIL))
            .await;
    assert_eq!(list.status, 200, "reads are left to CORS: {}", list.text);
}
