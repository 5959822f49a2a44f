//! Helpers of the tests that send many dashboard requests at once, each from a client address
//! of its own: those suites run with `TRUSTED_PROXIES=127.0.0.1`, so `X-Forwarded-For` names
//! the client and the per-address login limit does not hide a race.

use std::time::Duration;

use tokio::task::JoinHandle;

use super::support::Browser;
use crate::api::support::Reply;

/// How long after a crowd of wrong guesses the right one is sent: every wrong one is in flight
/// by then, and (two cores, tens of milliseconds per argon2 hash) few have been answered.
pub const RIGHT_ONE_AFTER: Duration = Duration::from_millis(100);

/// The `n`th client address of a crowd (documentation ranges, 500 of them).
pub fn address(n: usize) -> String {
    let (network, host) = (n / 250, n % 250 + 1);
    match network {
        0 => format!("203.0.113.{host}"),
        _ => format!("198.51.{network}.{host}"),
    }
}

/// Sends `browser`'s form POST to `path` as client `address`, in its own task.
pub fn post_as(
    browser: &Browser,
    address: String,
    path: &str,
    form: Vec<(String, String)>,
) -> JoinHandle<Reply> {
    let browser = browser.clone();
    let url = format!("{}{path}", browser.base);
    tokio::spawn(async move {
        let mut request = browser
            .client
            .post(url)
            .form(&form)
            .header("Origin", &browser.base)
            .header("X-Forwarded-For", address);
        if let Some(cookie) = &browser.cookie {
            request = request.header("Cookie", cookie);
        }
        Reply::read(request.send().await.expect("sent")).await
    })
}

/// A form's fields, owned.
pub fn fields(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
        .collect()
}

/// The answers of `tasks`, in order.
pub async fn answers(tasks: Vec<JoinHandle<Reply>>) -> Vec<Reply> {
    let mut replies = Vec::with_capacity(tasks.len());
    for task in tasks {
        replies.push(task.await.expect("request task"));
    }
    replies
}

/// Asserts that no answer is a server error.
pub fn assert_no_server_error(replies: &[Reply]) {
    let failed: Vec<u16> = replies
        .iter()
        .map(|r| r.status)
        .filter(|s| *s >= 500)
        .collect();
    assert!(failed.is_empty(), "server errors: {failed:?}");
}
