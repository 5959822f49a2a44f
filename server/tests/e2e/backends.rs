//! The backend samples of `examples/` (`backend-python`, `backend-node`), each run as its
//! README says against a real `checkout-server serve`, on its own origin: the shopper opens the
//! backend's page and pays the teapot with a frictionless 3-D Secure card, on that page.
//! Then the backend's order must be paid by its own word twice over, from its
//! `GET /v1/sessions/{id}` check and from a signed `session.completed` / `payment.captured`
//! event, and a refund through its back office must go through and come back as the
//! `payment.refunded` event. On the way: the backend refuses an event signed with another key,
//! believes no `checkout=paid` it did not check, keeps its back office closed without the
//! token, and neither its page nor its log holds the merchant key or a client secret.
//!
//! The Python sample's events endpoint is registered through the merchant API
//! (`POST /v1/webhook_endpoints`), the Node one's through `MERCHANT_WEBHOOK_URL`, the two ways
//! the READMEs give.

mod process;

use std::path::PathBuf;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use hmac::{Hmac, Mac};
use reqwest::StatusCode;
use serde_json::{Value, json};
use sha2::Sha256;

use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::merchant::Merchant;
use crate::support::net::free_port;
use crate::support::server::{MERCHANT_KEY, Process, ServeOptions};
use crate::support::{Page, run};
use process::{Backend, Language};

/// The backend's back-office token.
const ADMIN_TOKEN: &str = "admin_e2e_0123456789";
/// How long an event may take to reach the backend.
const EVENT_WAIT: Duration = Duration::from_secs(30);

/// How the backend's events endpoint is made known to checkout-server.
#[derive(Clone, Copy)]
enum Registration {
    /// `POST /v1/webhook_endpoints`, its answer's `secret` given to the backend.
    Api,
    /// `MERCHANT_WEBHOOK_URL` and `MERCHANT_WEBHOOK_SECRET` in checkout-server's environment.
    Config,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/, the backend samples' dependencies and Chromium; run by scripts/test.sh"]
async fn the_python_backend_sells_confirms_and_refunds() {
    if let Some(command) = Language::Python.command() {
        run("backend-python", move |page: Page| {
            sells(page, Language::Python, command.clone(), Registration::Api)
        })
        .await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/, the backend samples' dependencies and Chromium; run by scripts/test.sh"]
async fn the_node_backend_sells_confirms_and_refunds() {
    if let Some(command) = Language::Node.command() {
        run("backend-node", move |page: Page| {
            sells(page, Language::Node, command.clone(), Registration::Config)
        })
        .await;
    }
}

/// The two samples serve the same page (each folder stays whole, to be copied alone): a change
/// to one copy must be made to the other.
#[test]
fn the_backend_samples_serve_the_same_page() {
    let examples = crate::support::tools::workspace_root().join("examples");
    for file in ["index.html", "shop.js", "shop.css"] {
        let read = |sample: &str| {
            let path = examples.join(sample).join("static").join(file);
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        };
        assert!(
            read("backend-python") == read("backend-node"),
            "examples/backend-python/static/{file} and examples/backend-node/static/{file} differ"
        );
    }
}

async fn sells(
    page: Page,
    language: Language,
    command: (PathBuf, &'static str),
    registration: Registration,
) {
    let port = free_port();
    let origin = format!("http://127.0.0.1:{port}");
    let events_url = format!("{origin}/checkout/events");
    let configured_secret = format!("whsec_{}", BASE64.encode(rand::random::<[u8; 24]>()));
    let mut env = vec![
        ("ALLOWED_ORIGINS".to_owned(), origin.clone()),
        ("SUCCESS_URL".to_owned(), format!("{origin}/")),
        ("DECLINE_URL".to_owned(), format!("{origin}/")),
    ];
    if let Registration::Config = registration {
        env.push(("MERCHANT_WEBHOOK_URL".into(), events_url.clone()));
        env.push(("MERCHANT_WEBHOOK_SECRET".into(), configured_secret.clone()));
    }
    let server = Process::serve(ServeOptions { gateway: None, env });
    let merchant = Merchant::new(&server.base);
    let secret = match registration {
        Registration::Config => configured_secret,
        Registration::Api => {
            let endpoint = merchant
                .post(
                    "/v1/webhook_endpoints",
                    json!({
                        "url": events_url,
                        "event_types": ["session.completed", "payment.captured", "payment.refunded"],
                        "description": "the Python backend sample",
                    }),
                )
                .await;
            endpoint["secret"]
                .as_str()
                .expect("the endpoint's secret")
                .to_owned()
        }
    };
    let backend = Backend::start(
        language,
        command,
        port,
        vec![
            ("CHECKOUT_SERVER".into(), server.base.clone()),
            ("MERCHANT_SECRET_KEY".into(), MERCHANT_KEY.into()),
            ("CHECKOUT_WEBHOOK_SECRET".into(), secret.clone()),
            ("ADMIN_TOKEN".into(), ADMIN_TOKEN.into()),
        ],
    );
    let shop = Shop::new(&backend.base);

    refuses_forged_events(&shop, &secret).await;
    let unpaid_secret = believes_no_landing_address(&shop).await;

    // The shopper pays on the backend's page.
    page.goto(&format!("{}/", backend.base)).await;
    page.wait_attr("#order-status", "data-status", "awaiting_payment")
        .await;
    let html = page
        .eval("return document.documentElement.outerHTML;")
        .await;
    assert!(
        !html.as_str().unwrap_or_default().contains(MERCHANT_KEY),
        "the merchant key reached the page"
    );
    page.find("#cc-submit").await;
    type_card(&page, Card::test("4000000000001000")).await;
    fill_billing(&page, "DE", "10115").await;
    page.screenshot("filled").await;
    let address = page.url().await;
    pay(&page).await;
    page.wait_text_any(
        "#cc-result",
        &["Payment successful"],
        Duration::from_secs(30),
    )
    .await;
    page.wait_attr("#order-status", "data-status", "paid").await;
    assert_eq!(
        page.url().await,
        address,
        "the backend's page never navigated"
    );
    page.screenshot("paid").await;

    // Paid by the backend's own check and by a signed event checkout-server really sent.
    let order = page
        .until_for("the paying event at the backend", EVENT_WAIT, || async {
            let order = shop.the_order().await;
            let event = seen(&order, &["session.completed", "payment.captured"], "paid");
            event.map(|event| (order, event))
        })
        .await;
    let (order, event_id) = order;
    assert_eq!(order["status"], "paid", "{order}");
    let checked = &order["checked"];
    assert_eq!(checked["session_status"], "paid", "{order}");
    assert_eq!(checked["payment_state"], "captured", "{order}");
    assert_eq!(checked["means"], "paid", "{order}");
    let sent = merchant.get(&format!("/v1/events/{event_id}")).await;
    let object = &sent["data"]["object"];
    let session_of_event = if object["object"] == "session" {
        &object["id"]
    } else {
        &object["session_id"]
    };
    assert_eq!(
        session_of_event, &order["session_id"],
        "checkout-server sent {event_id} about the order's session: {sent}"
    );

    // A refund through the backend's back office, confirmed by the event.
    let order_id = order["id"].as_str().expect("order id").to_owned();
    assert_eq!(
        shop.refund(&order_id, "Bearer wrong").await.0,
        StatusCode::UNAUTHORIZED,
        "the back office opened to a wrong token"
    );
    let (status, refunded) = shop
        .refund(&order_id, &format!("Bearer {ADMIN_TOKEN}"))
        .await;
    assert_eq!(status, StatusCode::OK, "refund: {refunded}");
    assert_eq!(refunded["payment"]["state"], "refunded", "{refunded}");
    assert_eq!(refunded["payment"]["refunded_amount"], 2500, "{refunded}");
    let payment_id = refunded["payment"]["id"].as_str().expect("payment id");
    let at_server = merchant.get(&format!("/v1/payments/{payment_id}")).await;
    assert_eq!(at_server["state"], "refunded", "{at_server}");
    let order = page
        .until_for("the refund's event at the backend", EVENT_WAIT, || async {
            let order = shop.the_order().await;
            seen(&order, &["payment.refunded"], "refunded").map(|_| order)
        })
        .await;
    assert_eq!(order["status"], "refunded", "{order}");

    let log = backend.log_text();
    for (what, secret) in [
        ("merchant key", MERCHANT_KEY),
        ("client secret", unpaid_secret.as_str()),
        ("webhook secret", secret.as_str()),
    ] {
        assert!(
            !log.contains(secret),
            "the backend logged the {what}:\n{log}"
        );
    }
}

/// An event signed with another key is refused (400); the same bytes signed with the
/// endpoint's secret are taken (2xx), so the refusal was the signature's.
async fn refuses_forged_events(shop: &Shop, secret: &str) {
    let id = "evt_0123456789abcdef0123456789abcdef";
    let body = json!({
        "id": id,
        "type": "payment.captured",
        "created_at": "2026-01-01T00:00:00Z",
        "data": {"object": {"object": "payment", "id": "pay_x", "session_id": "ses_nobody's",
            "state": "captured", "amount": 2500, "currency": "EUR"}},
    })
    .to_string();
    let forged = shop
        .post_event(&body, id, b"another key, not the endpoint's")
        .await;
    assert_eq!(forged, StatusCode::BAD_REQUEST, "a forged event was taken");
    let key = BASE64
        .decode(secret.trim_start_matches("whsec_"))
        .expect("the secret is whsec_ and base64");
    let genuine = shop.post_event(&body, id, &key).await;
    assert!(
        genuine.is_success(),
        "a well-signed event was refused: {genuine}"
    );
}

/// An order the shopper never paid stays unpaid whatever the page's address says: the
/// backend asks checkout-server. Returns the order's client secret (to look for in the log).
async fn believes_no_landing_address(shop: &Shop) -> String {
    let http = &shop.http;
    let created = http
        .post(format!("{}/api/orders", shop.base))
        .json(&json!({"item": "teapot"}))
        .send()
        .await
        .expect("POST /api/orders");
    assert_eq!(created.status(), StatusCode::CREATED);
    let cookie = created
        .headers()
        .get("set-cookie")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .expect("the order's cookie")
        .to_owned();
    let text = created.text().await.expect("the order");
    assert!(
        !text.contains(MERCHANT_KEY),
        "the merchant key reached the page: {text}"
    );
    let created: Value = serde_json::from_str(&text).expect("JSON order");
    let session = created["session_id"].as_str().expect("session_id");
    let client_secret = created["client_secret"].as_str().expect("client_secret");
    assert!(client_secret.starts_with("cs_"), "{created}");

    let landing = http
        .get(format!(
            "{}/api/order?checkout=paid&session_id={session}",
            shop.base
        ))
        .header("cookie", &cookie)
        .send()
        .await
        .expect("GET /api/order");
    let order: Value = landing.json().await.expect("JSON order");
    assert_eq!(order["order"]["status"], "awaiting_payment", "{order}");
    assert_eq!(
        order["order"]["checked"]["session_status"], "open",
        "{order}"
    );
    let anonymous = http
        .get(format!("{}/api/order", shop.base))
        .send()
        .await
        .expect("GET /api/order");
    assert_eq!(anonymous.status(), StatusCode::NOT_FOUND);
    client_secret.to_owned()
}

/// The id of an event of one of `types` the order recorded as meaning `means`.
fn seen(order: &Value, types: &[&str], means: &str) -> Option<String> {
    order["events"].as_array()?.iter().find_map(|event| {
        let fits = types.iter().any(|t| event["type"] == *t) && event["means"] == means;
        fits.then(|| event["id"].as_str().map(str::to_owned))?
    })
}

/// An HTTP client of the backend sample.
struct Shop {
    http: reqwest::Client,
    base: String,
}

impl Shop {
    fn new(base: &str) -> Self {
        Self {
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("http client"),
            base: base.to_owned(),
        }
    }

    /// The order the browser paid: the back office's only order that is not awaiting payment.
    async fn the_order(&self) -> Value {
        let response = self
            .http
            .get(format!("{}/admin/orders", self.base))
            .bearer_auth(ADMIN_TOKEN)
            .send()
            .await
            .expect("GET /admin/orders");
        assert_eq!(response.status(), StatusCode::OK, "the back office");
        let all: Value = response.json().await.expect("JSON orders");
        let moved: Vec<&Value> = all["orders"]
            .as_array()
            .expect("orders")
            .iter()
            .filter(|o| o["status"] != "awaiting_payment")
            .collect();
        assert_eq!(moved.len(), 1, "one order was paid: {all}");
        moved[0].clone()
    }

    /// `POST /admin/orders/{id}/refund` with `authorization`.
    async fn refund(&self, order_id: &str, authorization: &str) -> (StatusCode, Value) {
        let response = self
            .http
            .post(format!("{}/admin/orders/{order_id}/refund", self.base))
            .header("authorization", authorization)
            .send()
            .await
            .expect("POST refund");
        let status = response.status();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    /// Delivers `body` to the backend's events endpoint as checkout-server would, signed
    /// (Standard Webhooks) with `key`.
    async fn post_event(&self, body: &str, id: &str, key: &[u8]) -> StatusCode {
        let timestamp = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock after 1970")
            .as_secs();
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("any key length");
        mac.update(format!("{id}.{timestamp}.{body}").as_bytes());
        let signature = format!("v1,{}", BASE64.encode(mac.finalize().into_bytes()));
        self.http
            .post(format!("{}/checkout/events", self.base))
            .header("content-type", "application/json")
            .header("webhook-id", id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signature)
            .body(body.to_owned())
            .send()
            .await
            .expect("POST /checkout/events")
            .status()
    }
}
