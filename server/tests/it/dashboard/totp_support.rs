//! Helpers of the two-factor tests: codes computed from the secret the account page shows
//! (RFC 6238 through `totp-rs`, as an authenticator app would), enrolment through the pages,
//! and the second login step, keeping whichever cookie the answer sets.

use totp_rs::{Builder, Secret};

use super::support::{Browser, PASSWORD, hidden, location};
use crate::api::support::{Harness, Reply};

/// Seconds since 1970.
pub fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs()
}

/// The code of `secret` (base32) at `unix` seconds.
pub fn code_at(secret: &str, unix: u64) -> String {
    let bytes = Secret::try_from_base32(secret).expect("base32 secret");
    Builder::new()
        .with_secret(bytes)
        .build()
        .expect("RFC parameters")
        .generate(unix)
        .to_string()
}

/// The key the account page shows for manual entry, without its spaces.
pub fn shown_key(html: &str) -> Option<String> {
    let marker = "<code class=\"secret\">";
    let start = html.find(marker)? + marker.len();
    let end = html[start..].find('<')?;
    Some(html[start..start + end].replace(' ', ""))
}

/// The recovery codes a page lists.
pub fn shown_recovery_codes(html: &str) -> Vec<String> {
    let Some(list) = html.split("<ul class=\"recovery-codes\">").nth(1) else {
        return Vec::new();
    };
    let list = list.split("</ul>").next().unwrap_or_default();
    list.split("<code>")
        .skip(1)
        .filter_map(|item| item.split('<').next())
        .map(str::to_owned)
        .collect()
}

/// Keeps the cookie named `name` that `reply` sets (if it sets one) as the browser's cookie.
pub fn keep_cookie(browser: &mut Browser, reply: &Reply, name: &str) -> bool {
    let set = reply
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next())
        .find(|pair| pair.starts_with(&format!("{name}=")) && pair.len() > name.len() + 1);
    if let Some(pair) = set {
        browser.cookie = Some(pair.to_owned());
    }
    set.is_some()
}

/// Enrols the logged-in `browser` through the account page: the key it shows and the
/// recovery codes it hands out once. The first code used is the current one.
pub async fn enrol(browser: &mut Browser) -> (String, Vec<String>) {
    let account = browser.get("/account").await;
    assert_eq!(account.status, 200, "{}", account.text);
    browser.csrf = hidden(&account.text, "csrf").expect("csrf");
    let started = browser
        .post("/account/two-factor/start", &[("csrf", &browser.csrf)])
        .await;
    assert_eq!((started.status, location(&started)), (303, "/account"));
    let offer = browser.get("/account").await;
    assert!(offer.text.contains("<svg role=\"img\""), "{}", offer.text);
    let key = shown_key(&offer.text).expect("the key for manual entry");
    let code = code_at(&key, unix_now());
    let done = browser
        .post(
            "/account/two-factor/confirm",
            &[("csrf", &browser.csrf), ("code", &code)],
        )
        .await;
    assert_eq!(done.status, 200, "{}", done.text);
    let codes = shown_recovery_codes(&done.text);
    assert_eq!(codes.len(), 10, "{}", done.text);
    (key, codes)
}

/// Logs `browser` out and in again with the password: the answer to `POST /login` (a
/// redirect to the code page, the challenge cookie kept).
pub async fn password_step(browser: &mut Browser, email: &str) -> Reply {
    browser.cookie = None;
    let reply = browser.login(email, PASSWORD).await;
    assert_eq!(
        (reply.status, location(&reply)),
        (303, "/login/code"),
        "{}",
        reply.text
    );
    assert!(
        browser
            .cookie
            .as_deref()
            .is_some_and(|c| c.starts_with("dashboard_login=")),
        "{:?}",
        browser.cookie
    );
    reply
}

/// `POST /login/code`; on success keeps the session cookie it sets.
pub async fn code_step(browser: &mut Browser, code: &str) -> Reply {
    let reply = browser.post("/login/code", &[("code", code)]).await;
    keep_cookie(browser, &reply, "dashboard_session");
    reply
}

/// Asserts that `email` has no two-factor sign-in left: no secret, no unused recovery code.
pub async fn assert_two_factor_off(h: &Harness, email: &str) {
    let user = h
        .store()
        .staff_by_email(email)
        .await
        .expect("read")
        .expect("account");
    assert!(!user.has_two_factor(), "{email} still has a TOTP secret");
    let left = h.store().recovery_codes_left(&user.id).await.expect("read");
    assert_eq!(left, 0, "{email} still has recovery codes");
}
