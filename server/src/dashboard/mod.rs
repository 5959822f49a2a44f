//! The merchant dashboard: an adapter beside [`api`](crate::api), on its own listener
//! (`DASHBOARD_LISTEN`), serving server-rendered HTML (maud) that works without JavaScript.
//! It calls the same services and store as the merchant API and holds no business rule: a
//! refund here is `PaymentService::adjust` under the API's idempotency, with the staff member
//! recorded in the audit log. No service imports this module.
//!
//! Safety, outermost first: security headers with a strict CSP (no script at all, styles from
//! `/assets/` only); the `Origin` check on every POST ([`auth::csrf`]); a session cookie
//! checked against the store on every page ([`auth::Staff`]); the CSRF token in every form;
//! the role each page or action requires (viewer < operator < admin).
//!
//! Routes: `/` (the overview, [`overview`]), `/login`, `/login/code` (two-factor sign-in, [`auth::second_step`]), `/logout`,
//! `/account` and `/account/two-factor/start|confirm|disable` ([`auth::enrolment`]),
//! `/payments`, `/payments/export.csv` ([`export`]), `/payments/{id}`, `/payments/{id}/refund|capture|void`,
//! `/review`, `/payments/{id}/lookup|attach|resolve` (the review queue, [`review`]),
//! `/subscriptions`, `/subscriptions/{id}`, `/subscriptions/{id}/pause|resume|cancel`
//! ([`subscriptions`]), `/subscriptions/{id}/acknowledge` (a subscription found in the
//! gateway's list looked at, [`found_review`]), `/webhooks`, `/webhooks/{id}`, `/webhooks/{id}/redeliver_failed|rotate`,
//! `/webhooks/events`, `/webhooks/events/{id}`, `/webhooks/events/{id}/redeliver`
//! ([`webhooks`]), `/risk/blocks`, `/risk/blocks/preview` (what a block would catch, before it
//! is confirmed: [`block_preview`]), `/risk/blocks/{id}/remove`,
//! `/payments/{id}/block_card|block_address` (the block lists, [`blocks`]), `/links`,
//! `/links/{id}`, `/links/{id}/deactivate` (payment links, [`links`]), `/audit`,
//! `/assets/dashboard.css`, `/healthz`.

pub mod actions;
pub mod audit;
pub mod auth;
pub mod block_preview;
pub mod blocks;
pub mod client;
pub mod endpoint_address;
pub mod error;
pub mod export;
pub mod found_review;
pub mod links;
pub mod listener;
pub mod money;
pub mod once;
pub mod overview;
pub mod pages;
pub mod payment_lookup;
pub mod redirect;
pub mod review;
pub mod risk_rules;
pub mod state;
pub mod subscriptions;
pub mod webhooks;

use std::sync::Arc;

use axum::Router;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, REFERRER_POLICY};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::{from_fn, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tower_http::set_header::SetResponseHeaderLayer;

use crate::web::protect::headers::{HeaderPolicy, add_security_headers};
pub use state::DashboardState;

/// The stylesheet every page links.
const STYLESHEET: &str = include_str!("assets/dashboard.css");

/// The dashboard, ready to serve with `into_make_service_with_connect_info::<SocketAddr>()`.
pub fn app(state: DashboardState) -> Router {
    let policy = Arc::new(HeaderPolicy::new(&state.origin));
    Router::new()
        .route("/", get(pages::overview::show))
        .route("/login", get(pages::login::show).post(pages::login::submit))
        .route(
            "/login/code",
            get(pages::login_code::show).post(pages::login_code::submit),
        )
        .route("/logout", post(pages::login::logout))
        .route("/account", get(pages::account::show))
        .route("/account/two-factor/start", post(pages::account::start))
        .route("/account/two-factor/confirm", post(pages::account::confirm))
        .route("/account/two-factor/disable", post(pages::account::disable))
        .route("/payments", get(pages::payments::list))
        .route("/payments/export.csv", get(export::csv))
        .route("/payments/{id}", get(pages::payment::show))
        .route("/payments/{id}/refund", post(actions::refund))
        .route("/payments/{id}/capture", post(actions::capture))
        .route("/payments/{id}/void", post(actions::void))
        .route("/payments/{id}/lookup", post(review::lookup))
        .route("/payments/{id}/attach", post(review::attach))
        .route("/payments/{id}/resolve", post(review::resolve))
        .route("/payments/{id}/block_card", post(blocks::block_card))
        .route("/payments/{id}/block_address", post(blocks::block_address))
        .route("/review", get(pages::review::list))
        .route("/risk/blocks", get(pages::blocks::list).post(blocks::add))
        .route("/risk/blocks/preview", post(block_preview::preview))
        .route("/risk/blocks/{id}/remove", post(blocks::remove))
        .route("/subscriptions", get(pages::subscriptions::list))
        .route("/subscriptions/{id}", get(pages::subscription::show))
        .route("/subscriptions/{id}/pause", post(subscriptions::pause))
        .route("/subscriptions/{id}/resume", post(subscriptions::resume))
        .route("/subscriptions/{id}/cancel", post(subscriptions::cancel))
        .route(
            "/subscriptions/{id}/acknowledge",
            post(found_review::acknowledge),
        )
        .route("/webhooks", get(pages::webhooks::list))
        .route("/webhooks/{id}", get(pages::webhook::show))
        .route(
            "/webhooks/{id}/redeliver_failed",
            post(webhooks::redeliver_failed),
        )
        .route("/webhooks/{id}/rotate", post(webhooks::rotate))
        .route("/webhooks/events", get(pages::events::list))
        .route("/webhooks/events/{id}", get(pages::event::show))
        .route("/webhooks/events/{id}/redeliver", post(webhooks::redeliver))
        .route("/links", get(pages::links::list).post(links::create))
        .route("/links/{id}", get(pages::link::show))
        .route("/links/{id}/deactivate", post(links::deactivate))
        .route("/audit", get(pages::audit::list))
        .route("/risk", get(pages::risk::show))
        .route("/risk/rules/{rule}", post(risk_rules::change))
        .route("/assets/dashboard.css", get(stylesheet))
        .route("/healthz", get(|| async { "ok" }))
        .fallback(|| async { error::DashboardError::NotFound("page").into_response() })
        .layer(from_fn_with_state(state.clone(), auth::csrf::check_origin))
        .layer(axum::extract::DefaultBodyLimit::max(16 * 1024))
        // Under `no-referrer` browsers send `Origin: null` on same-origin form posts.
        .layer(SetResponseHeaderLayer::overriding(
            REFERRER_POLICY,
            HeaderValue::from_static("same-origin"),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
        .layer(from_fn(crate::metrics::http::track))
        .layer(from_fn_with_state(policy, add_security_headers))
        .layer(
            tower_http::sensitive_headers::SetSensitiveRequestHeadersLayer::new([
                axum::http::header::COOKIE,
                HeaderName::from_static("set-cookie"),
            ]),
        )
        .with_state(state)
}

async fn stylesheet() -> Response {
    (
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/css; charset=utf-8"),
            ),
            (
                CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            ),
        ],
        STYLESHEET,
    )
        .into_response()
}
