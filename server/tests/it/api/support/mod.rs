//! Shared helpers of the checkout-server end-to-end tests: the whole server (with the
//! in-process emulator mounted under `/_sandbox`, and the demo shop on a second listener) on
//! 127.0.0.1:0 over a fresh SQLite file or Postgres schema (harness.rs), a tiny "shop" that
//! receives the final landing redirects (shop.rs), a merchant client and a browser-like client
//! that follows redirects and submits the ACS form (requests.rs), and request bodies and
//! answers (reply.rs); here, the settings every test server shares and small helpers.
//!
//! `api_suite!` runs each scenario twice: `sqlite::<name>` and `postgres::<name>` (the latter
//! only when `TEST_DATABASE_URL_POSTGRES` is set; otherwise it prints a loud SKIPPED notice).

mod harness;
mod reply;
mod requests;
mod shop;

use std::future::Future;
use std::time::Duration;

pub use harness::Harness;
pub use reply::{Reply, TestSession, browser_info, pay_body};
pub use shop::Shop;

/// Runs each named scenario as `sqlite::<name>` and `postgres::<name>`.
macro_rules! api_suite {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let harness = crate::api::support::Harness::start(crate::api::support::Backend::Sqlite).await;
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(harness) = crate::api::support::Harness::start_postgres().await else { return };
                    super::$name(&harness).await;
                    harness.finish().await;
                }
            )+
        }
    };
}
pub(crate) use api_suite;

/// The merchant key every test server uses.
pub const MERCHANT_KEY: &str = "sk_test_0123456789abcdef";
/// The key sealing the test server's secrets at rest (`SECRETS_KEY`), fixed so a command run
/// beside the server (`users reset-2fa`) opens them too.
pub const SECRETS_KEY: &str = "it:2b7e151628aed2a6abf7158809cf4f3c2b7e151628aed2a6abf7158809cf4f3c";
/// A real gateway nobody answers at (port 9, discard, on loopback: connections are refused at
/// once) with the credentials a real gateway needs; the keys it also needs come with every
/// test server.
pub const UNREACHABLE_GATEWAY: [(&str, &str); 4] = [
    ("GATEWAY_BASE_URL", "http://127.0.0.1:9"),
    ("GATEWAY_API_KEY", "live-key"),
    ("GATEWAY_X_API_KEY", "live-x-key"),
    ("GATEWAY_MERCHANT_ID", "merchant-1"),
];

/// The card fingerprint key every test server uses (`CARD_FINGERPRINT_KEY`).
pub const TEST_FINGERPRINT_KEY: &str =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// Test cards (docs/sandbox.md).
pub mod cards {
    /// Visa, approved; frictionless on 3DS.
    pub const VISA_OK: &str = "4242424242424242";
    /// 3DS challenge (the vendor's sample).
    pub const CHALLENGE: &str = "4000002500003155";
    /// 3DS frictionless.
    pub const FRICTIONLESS: &str = "4000000000001000";
    /// Declined 5, do not honour.
    pub const DO_NOT_HONOUR: &str = "4000000000000002";
    /// Declined 51, insufficient funds.
    pub const INSUFFICIENT_FUNDS: &str = "4000000000009995";
    /// Declined 54, expired card.
    pub const EXPIRED: &str = "4000000000000069";
    /// Declined 43, lost or stolen.
    pub const LOST_OR_STOLEN: &str = "4000000000009987";
    /// Declined 91, issuer unavailable.
    pub const ISSUER_UNAVAILABLE: &str = "4000000000000119";
}

/// Which database a harness runs on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    /// A SQLite file in a temporary directory.
    Sqlite,
    /// A fresh schema in the database `TEST_DATABASE_URL_POSTGRES` names.
    Postgres(String),
}

/// Whether the gateway's `merchant_txn_ref` is an attempt of the session whose reference is
/// `reference`: the reference with `-<attempt number>` appended (issue 45).
pub fn of_session(merchant_txn_ref: &str, reference: &str) -> bool {
    merchant_txn_ref
        .strip_prefix(reference)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Polls `check` every 20 ms until it yields `Some`, or panics after `timeout`.
pub async fn eventually<T, F, Fut>(what: &str, timeout: Duration, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    loop {
        if let Some(value) = check().await {
            return value;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Query parameter `name` of `url`.
pub fn param(url: &reqwest::Url, name: &str) -> Option<String> {
    url.query_pairs()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.into_owned())
}
