//! The demo shop's backend (`server/sandbox/src/demo/`): only there with the in-process emulator; its
//! sessions are priced by the server and tied to the shopper's cookie; its customer tokens
//! open the self-service API; the landing after 3-D Secure shows only the shopper's own order;
//! cross-site POSTs are refused; the shop is its own origin, allowed to embed the form.

use reqwest::Method;
use reqwest::header::{COOKIE, LOCATION, ORIGIN, SET_COOKIE};
use serde_json::{Value, json};

use checkout_server::config::Config;

use crate::api::support::{Backend, Harness, cards};

const ALICE: &str = "demo_customer=demo-0123456789abcdef0123456789abcdef";
const BOB: &str = "demo_customer=demo-fedcba9876543210fedcba9876543210";

/// The demo shop's base URL (its own listener, another origin than checkout-server's).
fn shop(h: &Harness) -> &str {
    h.demo.as_deref().expect("the sandbox runs the demo shop")
}

async fn post(h: &Harness, path: &str, cookie: &str, body: Value) -> reqwest::Response {
    h.api
        .post(format!("{}{path}", shop(h)))
        .header(COOKIE, cookie)
        .json(&body)
        .send()
        .await
        .expect("request")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sessions_are_priced_by_the_server_and_tied_to_the_shopper() {
    let h = Harness::start(Backend::Sqlite).await;
    let catalogue = h
        .api
        .get(format!("{}/demo/catalogue", shop(&h)))
        .send()
        .await
        .expect("catalogue");
    assert_eq!(catalogue.status(), 200);
    let cookie = catalogue
        .headers()
        .get(SET_COOKIE)
        .expect("a new shopper gets a cookie")
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        cookie.starts_with("demo_customer=demo-") && cookie.contains("HttpOnly"),
        "{cookie}"
    );
    let catalogue: Value = catalogue.json().await.expect("json");
    assert!(
        catalogue["items"]
            .as_array()
            .is_some_and(|i| i.iter().any(|i| i["id"] == "tshirt"))
    );
    let plan_id = catalogue["plans"][0]["id"]
        .as_str()
        .expect("the sandbox has plans")
        .to_owned();

    let created = post(&h, "/demo/sessions", ALICE, json!({"item": "tshirt"})).await;
    assert_eq!(created.status(), 201);
    assert!(
        created.headers().get(SET_COOKIE).is_none(),
        "a known shopper keeps their cookie"
    );
    let created: Value = created.json().await.expect("json");
    assert!(
        created["client_secret"]
            .as_str()
            .is_some_and(|s| s.starts_with("cs_")),
        "{created}"
    );
    assert_eq!(
        created["server"],
        h.base.as_str(),
        "where the page loads the form from"
    );
    let id = created["id"].as_str().expect("id");
    let session: Value = h
        .merchant(Method::GET, &format!("/v1/sessions/{id}"))
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    assert_eq!(
        (session["amount"].clone(), session["currency"].clone()),
        (json!(2500), json!("EUR"))
    );
    assert_eq!(
        session["customer_id"],
        "demo-0123456789abcdef0123456789abcdef"
    );

    let subscription: Value = post(&h, "/demo/sessions", ALICE, json!({"item": plan_id}))
        .await
        .json()
        .await
        .expect("json");
    let session: Value = h
        .merchant(
            Method::GET,
            &format!("/v1/sessions/{}", subscription["id"].as_str().expect("id")),
        )
        .send()
        .await
        .expect("get")
        .json()
        .await
        .expect("json");
    assert_eq!(session["plan_id"], plan_id.as_str());

    let unknown = post(&h, "/demo/sessions", ALICE, json!({"item": "yacht"})).await;
    assert_eq!(unknown.status(), 400);
    let unknown: Value = unknown.json().await.expect("json");
    assert_eq!(unknown["error"]["field"], "item", "{unknown}");

    let cross_site = h
        .api
        .post(format!("{}/demo/sessions", shop(&h)))
        .header(COOKIE, ALICE)
        .header(ORIGIN, "http://evil.example")
        .json(&json!({"item": "tshirt"}))
        .send()
        .await
        .expect("request");
    assert_eq!(cross_site.status(), 401);
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_customer_token_opens_the_self_service_api() {
    let h = Harness::start(Backend::Sqlite).await;
    let issued = post(&h, "/demo/customer-token", ALICE, json!({})).await;
    assert_eq!(issued.status(), 201);
    let issued: Value = issued.json().await.expect("json");
    let token = issued["customer_token"].as_str().expect("token");
    assert_eq!(issued["server"], h.base.as_str());
    let list = h
        .api
        .get(format!("{}/v1/customer/subscriptions", h.base))
        .header("X-Customer-Token", token)
        .send()
        .await
        .expect("list");
    assert_eq!(list.status(), 200);
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_landing_and_the_order_show_only_the_shoppers_own_order() {
    let h = Harness::start(Backend::Sqlite).await;
    let created: Value = post(&h, "/demo/sessions", ALICE, json!({"item": "teapot"}))
        .await
        .json()
        .await
        .expect("json");
    let id = created["id"].as_str().expect("id");
    let secret = created["client_secret"].as_str().expect("secret");
    let landing = format!("{}/?checkout=paid&session_id={id}&payment_id=p", shop(&h));
    let own = h
        .api
        .get(&landing)
        .header(COOKIE, ALICE)
        .send()
        .await
        .expect("landing");
    assert_eq!(own.status(), 303);
    let location = own
        .headers()
        .get(LOCATION)
        .expect("location")
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(location.starts_with("/?session="), "{location}");
    assert!(
        location.contains(&format!("session={id}")) && location.contains("mode=result"),
        "{location}"
    );
    assert!(
        !location.contains(secret),
        "no secret in an address: {location}"
    );
    let other = h
        .api
        .get(&landing)
        .header(COOKIE, BOB)
        .send()
        .await
        .expect("landing");
    assert_ne!(
        other.status(),
        303,
        "another shopper is not sent to the order"
    );

    let order = |cookie: &'static str| {
        h.api
            .get(format!("{}/demo/orders/{id}", shop(&h)))
            .header(COOKIE, cookie)
            .send()
    };
    let mine = order(ALICE).await.expect("order");
    let status = mine.status();
    let body = mine.text().await.expect("text");
    assert_eq!(status, 200, "{body}");
    let mine: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(mine["client_secret"], secret);
    assert_eq!(mine["server"], h.base.as_str());
    assert_eq!(order(BOB).await.expect("order").status(), 404);
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_on_its_own_origin_embeds_the_form_from_the_checkout_server() {
    let h = Harness::start(Backend::Sqlite).await;
    let demo = shop(&h).to_owned();
    assert_ne!(
        demo, h.base,
        "the shop is another origin than checkout-server"
    );
    assert!(
        h.state.config.merchant.allowed_origins.contains(&demo),
        "the shop's origin may embed the form: {:?}",
        h.state.config.merchant.allowed_origins
    );
    let home = h
        .api
        .get(format!("{}/", shop(&h)))
        .send()
        .await
        .expect("home");
    assert_eq!(home.status(), 200);
    assert_eq!(
        home.headers()
            .get("x-content-type-options")
            .map(|v| v.as_bytes()),
        Some(&b"nosniff"[..])
    );
    let policy = home
        .headers()
        .get("content-security-policy")
        .expect("csp")
        .to_str()
        .expect("ascii")
        .to_owned();
    assert!(
        policy.contains(&format!("script-src 'self' {}", h.base))
            && policy.contains(&format!("frame-src {}", h.base))
            && policy.contains("frame-ancestors 'none'"),
        "{policy}"
    );
    let html = home.text().await.expect("html");
    assert!(
        html.contains(&format!("<script src=\"{}/checkout.js\"></script>", h.base)),
        "{html}"
    );
    for encoding in ["br", "gzip"] {
        let css = h
            .api
            .get(format!("{}/shop.js", shop(&h)))
            .header("accept-encoding", encoding)
            .send()
            .await
            .expect("script");
        assert_eq!(css.status(), 200);
        assert_eq!(
            css.headers().get("content-encoding").map(|v| v.as_bytes()),
            Some(encoding.as_bytes()),
            "the shop's files are sent compressed"
        );
    }
    let missing = h
        .api
        .get(format!("{}/no-such-file.js", shop(&h)))
        .send()
        .await
        .expect("missing");
    assert_eq!(missing.status(), 404);
    let missing: Value = missing.json().await.expect("the API's error shape");
    assert_eq!(missing["error"]["code"], "not_found");
    let api_on_shop = h
        .api
        .get(format!("{demo}/v1/checkout/nowhere"))
        .send()
        .await
        .expect("get");
    assert_eq!(api_on_shop.status(), 404, "the shop's origin serves no API");
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_a_real_gateway_there_is_no_demo() {
    let h = Harness::start_with(
        Backend::Sqlite,
        &[
            ("GATEWAY_BASE_URL", "http://127.0.0.1:9"),
            (
                "CARD_FINGERPRINT_KEY",
                "abababababababababababababababababababababababababababababababab",
            ),
            ("GATEWAY_API_KEY", "k"),
            ("GATEWAY_X_API_KEY", "x"),
            ("GATEWAY_MERCHANT_ID", "m-1"),
        ],
    )
    .await;
    assert_eq!(h.demo, None, "no demo shop listens");
    for path in ["/demo/catalogue", "/"] {
        let answer = h
            .api
            .get(format!("{}{path}", h.base))
            .send()
            .await
            .expect("get");
        assert_eq!(answer.status(), 404, "{path}");
    }
    h.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_shop_is_allowed_and_is_where_shoppers_land_unless_configured() {
    let defaults = crate::compose::emulator_defaults();
    let loopback = ("DEMO_LISTEN", "127.0.0.1:0");
    let mut config = Config::from_pairs(&[loopback], &defaults).expect("defaults are valid");
    let demo = crate::compose::bind_demo(&mut config)
        .await
        .expect("bind")
        .expect("the sandbox has a demo shop");
    let landing = format!("{}/", demo.base);
    assert_eq!(
        config.merchant.allowed_origins,
        std::slice::from_ref(&demo.base)
    );
    assert_eq!(
        config.merchant.success_url.as_deref(),
        Some(landing.as_str())
    );
    assert_eq!(
        config.merchant.decline_url.as_deref(),
        Some(landing.as_str())
    );

    let configured = [("SUCCESS_URL", "https://shop.example/thanks"), loopback];
    let mut config = Config::from_pairs(&configured, &defaults).expect("valid");
    crate::compose::bind_demo(&mut config).await.expect("bind");
    assert_eq!(
        config.merchant.success_url.as_deref(),
        Some("https://shop.example/thanks")
    );
}

/// `DEMO_LISTEN=off`: no demo shop listens, and the emulator still takes payments.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_shop_can_be_off_and_the_emulator_still_works() {
    let h = Harness::start_with(Backend::Sqlite, &[("DEMO_LISTEN", "off")]).await;
    assert_eq!(h.demo, None, "no demo shop");
    let session = h.session(1000, json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    assert_eq!(h.result(&session).await["state"], "captured");
    h.finish().await;
}
