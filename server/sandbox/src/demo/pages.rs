//! The demo shop's pages (`www/shop/`: one HTML page, its script and stylesheet, compiled in)
//! and the landing after 3-D Secure, which shows the shopper's order in result mode.
//!
//! The page embeds the card form as any shop does: `<script src=".../checkout.js">` from
//! checkout-server and `<card-checkout>`; the card inputs live in checkout-server's frame.
//! Its Content-Security-Policy allows scripts and frames from checkout-server and nothing else.

use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, LOCATION};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};

use super::ShopState;
use super::customer::DemoCustomer;
use super::orders;

/// The page; `__CHECKOUT_SERVER__` stands for checkout-server's public base URL.
const INDEX_HTML: &str = include_str!("../../../../www/shop/index.html");
/// The page's script.
const SHOP_JS: &str = include_str!("../../../../www/shop/shop.js");
/// The page's stylesheet.
const SHOP_CSS: &str = include_str!("../../../../www/shop/shop.css");

/// `GET /`: the shop page (or, back from 3-D Secure, a redirect to the order's result).
pub async fn index(State(shop): State<ShopState>, request: Request) -> Response {
    if let Some(result_page) = landing_redirect(&request) {
        return result_page;
    }
    let html = INDEX_HTML.replace("__CHECKOUT_SERVER__", &shop.checkout_server);
    let policy = format!(
        "default-src 'none'; script-src 'self' {server}; style-src 'self'; \
         connect-src 'self'; frame-src {server}; form-action {server}; img-src 'self' data:; \
         frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
        server = own_origin(&shop.checkout_server),
    );
    let Ok(policy) = HeaderValue::from_str(&policy) else {
        return StatusCode::INTERNAL_SERVER_ERROR.into_response();
    };
    (
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/html; charset=utf-8"),
            ),
            (CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (CONTENT_SECURITY_POLICY, policy),
        ],
        html,
    )
        .into_response()
}

/// `GET /shop.js`.
pub async fn script() -> Response {
    static_file("text/javascript; charset=utf-8", SHOP_JS)
}

/// `GET /shop.css`.
pub async fn stylesheet() -> Response {
    static_file("text/css; charset=utf-8", SHOP_CSS)
}

fn static_file(content_type: &'static str, body: &'static str) -> Response {
    (
        [(CONTENT_TYPE, content_type), (CACHE_CONTROL, "no-cache")],
        body,
    )
        .into_response()
}

/// `scheme://host[:port]` of `base`.
pub fn own_origin(base: &str) -> String {
    reqwest::Url::parse(base).map_or_else(
        |_| base.to_owned(),
        |url| url.origin().ascii_serialization(),
    )
}

/// The customer back from 3-D Secure lands on `/?checkout=…&session_id=…&payment_id=…` (the
/// default `SUCCESS_URL`/`DECLINE_URL`). When that session is one of their orders, send them to
/// the shop page in result mode for it; the page asks the shop backend for the session's
/// client secret (`GET /demo/orders/{id}`), so it never appears in an address.
fn landing_redirect(request: &Request) -> Option<Response> {
    let url = reqwest::Url::parse(&format!(
        "http://landing.invalid/?{}",
        request.uri().query()?
    ))
    .ok()?;
    let param = |name: &str| {
        url.query_pairs()
            .find(|(key, _)| key == name)
            .map(|(_, v)| v.into_owned())
    };
    let (Some(outcome), Some(session_id)) = (param("checkout"), param("session_id")) else {
        return None;
    };
    let customer = DemoCustomer::from_headers(request.headers());
    orders::lookup(&session_id, &customer.id)?;
    let mut target = reqwest::Url::parse("http://landing.invalid/").ok()?;
    target
        .query_pairs_mut()
        .append_pair("session", &session_id)
        .append_pair("mode", "result")
        .append_pair("checkout", &outcome);
    let location = HeaderValue::from_str(&format!("/?{}", target.query()?)).ok()?;
    Some(
        (
            StatusCode::SEE_OTHER,
            [
                (LOCATION, location),
                (CACHE_CONTROL, HeaderValue::from_static("no-store")),
            ],
        )
            .into_response(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_names_the_checkout_server_once_it_is_filled_in() {
        assert!(INDEX_HTML.contains("__CHECKOUT_SERVER__/checkout.js"));
        assert_eq!(own_origin("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
        assert_eq!(
            own_origin("https://pay.example/shop"),
            "https://pay.example"
        );
    }
}
