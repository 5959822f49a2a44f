//! A login flood: [`REQUESTS`] logins at once from [`ADDRESSES`] addresses, each within the
//! per-address limit. The global bounds answer the excess with 429 and `Retry-After` (never a
//! 5xx), and no more password hashes run at once than the hashing permits allow (as counted
//! where the hashes run).

use reqwest::header::RETRY_AFTER;

use super::crowd::{address, answers, assert_no_server_error, fields, post_as};
use super::support::{Browser, dashboard_suite};
use crate::api::support::Harness;

dashboard_suite!(with [("TRUSTED_PROXIES", "127.0.0.1")]; a_login_flood_is_bounded);

/// Logins sent at once.
const REQUESTS: usize = 200;
/// Client addresses they come from.
const ADDRESSES: usize = 50;

async fn a_login_flood_is_bounded(h: &Harness) {
    let browser = Browser::new(h);
    let tasks = (0..REQUESTS)
        .map(|n| {
            let email = format!("nobody{n}@shop.example");
            let form = fields(&[("email", &email), ("password", "a guessed password")]);
            post_as(&browser, address(n % ADDRESSES), "/login", form)
        })
        .collect();
    let replies = answers(tasks).await;
    assert_no_server_error(&replies);
    let statuses: Vec<u16> = replies.iter().map(|r| r.status).collect();
    assert!(
        statuses.iter().all(|s| [403, 429].contains(s)),
        "{statuses:?}"
    );
    let limited: Vec<_> = replies.iter().filter(|r| r.status == 429).collect();
    assert!(
        !limited.is_empty(),
        "{REQUESTS} logins at once from {ADDRESSES} addresses: none was told to wait"
    );
    for reply in &limited {
        let wait: u64 = reply.headers[RETRY_AFTER]
            .to_str()
            .expect("ascii")
            .parse()
            .expect("whole seconds");
        assert!((1..=60).contains(&wait), "Retry-After {wait}");
    }
    assert!(statuses.contains(&403), "some logins were still checked");
    let hashing = &h
        .dashboard_state
        .as_ref()
        .expect("dashboard")
        .limits
        .hashing;
    assert!(
        (1..=hashing.permits()).contains(&hashing.most_at_once()),
        "{} hashes ran at once; {} permits",
        hashing.most_at_once(),
        hashing.permits()
    );
}
