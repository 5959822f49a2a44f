//! Two-factor sign-in over HTTP: enrolment completes only with a code computed from the key
//! the page shows; then a login is password and code, the half-logged-in cookie opens no
//! page, a code is never accepted twice, wrong codes lock the account like wrong passwords,
//! a recovery code opens exactly one login, and turning it off needs the password or a code.
//! Codes take from the same per-address login limit as passwords.
//! Every step is in the audit log.

use checkout_server::store::prelude::*;

use super::support::{Browser, PASSWORD, dashboard_suite, hidden, location};
use super::totp_support::{
    assert_two_factor_off, code_at, code_step, enrol, password_step, shown_key, unix_now,
};
use crate::api::support::{Harness, Reply};

dashboard_suite!(
    enrolment_needs_a_code_and_logins_then_need_one_once,
    wrong_codes_count_toward_the_lock_out,
    a_recovery_code_opens_one_login,
    turning_it_off_needs_the_password_or_a_code
);

const ADMIN: &str = "admin@shop.example";

async fn audit_outcomes(h: &Harness, action: &str) -> Vec<String> {
    let mut lines = h.store().list_audit(None, 200).await.expect("audit");
    lines.reverse();
    lines
        .into_iter()
        .filter(|l| l.entry.action == action)
        .map(|l| l.entry.outcome)
        .collect()
}

/// A code of none of the steps around now.
fn wrong_code(key: &str) -> String {
    let now = unix_now();
    let near: Vec<String> = (0..4).map(|i| code_at(key, now - 30 + i * 30)).collect();
    (0..10)
        .map(|d| format!("{d}{d}{d}{d}{d}{d}"))
        .find(|c| !near.contains(c))
        .expect("a wrong code")
}

async fn enrolment_needs_a_code_and_logins_then_need_one_once(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    let early = admin
        .post(
            "/account/two-factor/confirm",
            &[("csrf", &admin.csrf), ("code", "123456")],
        )
        .await;
    assert_eq!(early.status, 400, "{}", early.text);
    assert!(early.text.contains("code:"), "{}", early.text);
    let forged = admin
        .post("/account/two-factor/start", &[("csrf", "x")])
        .await;
    assert_eq!(forged.status, 403, "the CSRF token is checked");
    admin
        .post("/account/two-factor/start", &[("csrf", &admin.csrf)])
        .await;
    let offer = admin.get("/account").await;
    assert!(
        !offer.text.contains("<script") && offer.text.contains("<svg role=\"img\""),
        "an inline SVG QR code, no script: {}",
        offer.text
    );
    let key = shown_key(&offer.text).expect("key");
    let wrong = admin
        .post(
            "/account/two-factor/confirm",
            &[("csrf", &admin.csrf), ("code", &wrong_code(&key))],
        )
        .await;
    assert_eq!(wrong.status, 400, "{}", wrong.text);
    assert!(wrong.text.contains("code:"), "{}", wrong.text);
    let user = h
        .store()
        .staff_by_email(ADMIN)
        .await
        .unwrap()
        .expect("admin");
    assert!(!user.has_two_factor(), "a wrong code enrols nothing");

    let (key, _codes) = enrol(&mut admin).await;
    assert_eq!(audit_outcomes(h, "2fa_enrolled").await, ["ok"]);
    assert_eq!(audit_outcomes(h, "2fa_enrol").await, ["wrong_code"]);
    let account = admin.get("/account").await;
    assert!(
        account.text.contains("10 unused recovery codes left"),
        "{}",
        account.text
    );

    let answer = password_step(&mut admin, ADMIN).await;
    assert!(
        !answer.headers.get_all("set-cookie").iter().any(|c| c
            .to_str()
            .unwrap_or_default()
            .starts_with("dashboard_session=")),
        "a password alone starts no session"
    );
    let challenge = admin.clone();
    let token = challenge
        .cookie
        .as_deref()
        .and_then(|c| c.split_once('='))
        .map(|(_, v)| v.to_owned())
        .expect("challenge token");
    let mut as_session = admin.clone();
    as_session.cookie = Some(format!("dashboard_session={token}"));
    for browser in [&challenge, &as_session] {
        for path in ["/payments", "/review", "/audit", "/account"] {
            let page = browser.get(path).await;
            assert_eq!(
                (page.status, location(&page)),
                (303, "/login"),
                "{path} with {:?}",
                browser.cookie
            );
        }
    }
    assert_eq!(admin.get("/login/code").await.status, 200);

    let next = code_at(&key, unix_now() + 30);
    let in_again = code_step(&mut admin, &next).await;
    assert_eq!(
        (in_again.status, location(&in_again)),
        (303, "/"),
        "{}",
        in_again.text
    );
    assert_eq!(admin.get("/payments").await.status, 200);
    assert_eq!(
        challenge
            .post("/login/code", &[("code", &next)])
            .await
            .status,
        303,
        "the challenge ended with the login: back to /login"
    );

    password_step(&mut admin, ADMIN).await;
    let replayed = code_step(&mut admin, &next).await;
    assert_eq!(
        replayed.status, 403,
        "a code is accepted once: {}",
        replayed.text
    );
    assert!(
        admin
            .cookie
            .as_deref()
            .is_some_and(|c| c.starts_with("dashboard_login="))
    );
    let failed = audit_outcomes(h, "login_failed").await;
    assert_eq!(failed, ["replayed_code"]);
    let logins = audit_outcomes(h, "login").await;
    assert_eq!(
        logins,
        ["ok", "ok"],
        "the first login and the one with a code"
    );
}

async fn wrong_codes_count_toward_the_lock_out(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    let (key, _) = enrol(&mut admin).await;
    password_step(&mut admin, ADMIN).await;
    for attempt in 0..5 {
        let reply = code_step(&mut admin, &wrong_code(&key)).await;
        assert_eq!(reply.status, 403, "attempt {attempt}: {}", reply.text);
        assert!(reply.text.contains("code is wrong"), "{}", reply.text);
    }
    let right = code_step(&mut admin, &code_at(&key, unix_now() + 30)).await;
    assert_eq!(right.status, 403, "locked: {}", right.text);
    let user = h
        .store()
        .staff_by_email(ADMIN)
        .await
        .unwrap()
        .expect("admin");
    assert!(user.locked_at(time::OffsetDateTime::now_utc()));
    assert_eq!(
        audit_outcomes(h, "login_failed").await,
        [
            "wrong_code",
            "wrong_code",
            "wrong_code",
            "wrong_code",
            "wrong_code_locked",
            "locked"
        ]
    );
    // Codes also take from the per-address login limit (10 a minute, shared with passwords):
    // this client has made 9 attempts, so within a few more it is told to wait.
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(code_step(&mut admin, "123456").await.status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
}

async fn a_recovery_code_opens_one_login(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    let (_, codes) = enrol(&mut admin).await;
    password_step(&mut admin, ADMIN).await;
    let typed = codes[0].to_uppercase().replace('-', " ");
    let used = code_step(&mut admin, &typed).await;
    assert_eq!((used.status, location(&used)), (303, "/"), "{}", used.text);
    let account = admin.get("/account").await;
    assert!(
        account.text.contains("9 unused recovery codes left"),
        "{}",
        account.text
    );
    assert_eq!(audit_outcomes(h, "recovery_code_used").await, ["ok"]);

    password_step(&mut admin, ADMIN).await;
    let again = code_step(&mut admin, &codes[0]).await;
    assert_eq!(again.status, 403, "spent: {}", again.text);
    let other = code_step(&mut admin, &codes[1]).await;
    assert_eq!((other.status, location(&other)), (303, "/"));
    assert_eq!(audit_outcomes(h, "recovery_code_used").await, ["ok", "ok"]);
    assert_eq!(
        audit_outcomes(h, "login_failed").await,
        ["wrong_recovery_code"]
    );
}

/// `POST /account/two-factor/disable` with `proof`.
async fn turn_off(admin: &Browser, proof: &str) -> Reply {
    admin
        .post(
            "/account/two-factor/disable",
            &[("csrf", &admin.csrf), ("proof", proof)],
        )
        .await
}

async fn turning_it_off_needs_the_password_or_a_code(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    enrol(&mut admin).await;
    let page = admin.get("/account").await;
    admin.csrf = hidden(&page.text, "csrf").expect("csrf");
    let refused = turn_off(&admin, "not my password").await;
    assert_eq!(refused.status, 400, "{}", refused.text);
    assert!(refused.text.contains("proof:"), "{}", refused.text);
    let off = turn_off(&admin, PASSWORD).await;
    assert_eq!(
        (off.status, location(&off)),
        (303, "/account"),
        "{}",
        off.text
    );
    assert_two_factor_off(h, ADMIN).await;
    assert_eq!(audit_outcomes(h, "2fa_disable").await, ["wrong_proof"]);
    assert_eq!(audit_outcomes(h, "2fa_disabled").await, ["ok"]);
    admin.cookie = None;
    let one_step = admin.login(ADMIN, PASSWORD).await;
    assert_eq!((one_step.status, location(&one_step)), (303, "/"));

    let (key, _) = enrol(&mut admin).await;
    let by_code = turn_off(&admin, &code_at(&key, unix_now() + 30)).await;
    assert_eq!(
        (by_code.status, location(&by_code)),
        (303, "/account"),
        "{}",
        by_code.text
    );
    assert_two_factor_off(h, ADMIN).await;
    assert_eq!(audit_outcomes(h, "2fa_disabled").await, ["ok", "ok"]);
}
