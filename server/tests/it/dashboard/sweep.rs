//! A reconciler pass deletes the staff sessions no page would accept any more (past their
//! absolute end, or idle too long) and the login challenges past their end, and keeps the
//! live ones; the store deletes them in bounded batches.

use checkout_server::config::{SESSION_ABSOLUTE as ABSOLUTE, SESSION_IDLE as IDLE};
use checkout_server::reconcile::Reconciler;
use checkout_server::store::prelude::*;
use secrecy::ExposeSecret as _;
use time::{Duration, OffsetDateTime};

use super::support::{dashboard_suite, staff};
use crate::api::support::Harness;

dashboard_suite!(
    a_pass_deletes_expired_sign_ins_and_keeps_live_ones,
    expired_sessions_go_in_bounded_batches
);

const EMAIL: &str = "ops@shop.example";

/// A session of the account `staff_id` started at `created_at`, ending at `expires_at` (last
/// seen when it started).
async fn session(
    h: &Harness,
    staff_id: &str,
    created_at: OffsetDateTime,
    expires_at: OffsetDateTime,
) -> SecretHash {
    let token_hash = SecretHash::of(generate_token("").expose_secret());
    h.store()
        .create_staff_session(NewStaffSession {
            token_hash: token_hash.clone(),
            staff_id: staff_id.to_owned(),
            created_at,
            expires_at,
        })
        .await
        .expect("session stored");
    token_hash
}

async fn staff_id(h: &Harness) -> String {
    staff(h, EMAIL, StaffRole::Operator).await;
    h.store()
        .staff_by_email(EMAIL)
        .await
        .unwrap()
        .expect("account")
        .id
}

/// A moment more than a session's whole life ahead, so that every row the test writes (all
/// last seen within `ABSOLUTE` of it) was last seen in the future and ends in the future: the
/// server's own reconciler, which sweeps at the real time whenever it likes, leaves them alone.
/// (Two hours ahead was not enough: a session last seen ten hours ago is idle now, and a pass
/// of the server's reconciler landing between the writes and the test's pass took it.)
fn later() -> OffsetDateTime {
    OffsetDateTime::now_utc() + ABSOLUTE + Duration::hours(1)
}

async fn a_pass_deletes_expired_sign_ins_and_keeps_live_ones(h: &Harness) {
    let id = staff_id(h).await;
    let at = later();
    let minute = Duration::minutes(1);
    let over = session(h, &id, at - minute - ABSOLUTE, at - minute).await;
    let idle_since = at - IDLE - minute;
    let idle = session(h, &id, idle_since, idle_since + ABSOLUTE).await;
    let live = session(h, &id, at - minute, at + Duration::hours(10)).await;
    let ended = SecretHash::of(generate_token("").expose_secret());
    let pending = SecretHash::of(generate_token("").expose_secret());
    let store = h.store();
    store
        .create_login_challenge(&ended, &id, at - minute)
        .await
        .unwrap();
    store
        .create_login_challenge(&pending, &id, at + Duration::minutes(5))
        .await
        .unwrap();

    let report = Reconciler::new(h.state.reconciler_services())
        .run_once_at(at)
        .await;
    assert_eq!(
        (report.swept.sessions, report.swept.challenges),
        (2, 1),
        "{report:?}"
    );
    // Ending a session or challenge says whether it was still there.
    assert!(
        !store.end_staff_session(&over).await.unwrap(),
        "past its end"
    );
    assert!(
        !store.end_staff_session(&idle).await.unwrap(),
        "idle too long"
    );
    assert!(store.end_staff_session(&live).await.unwrap(), "live: kept");
    assert!(!store.end_login_challenge(&ended).await.unwrap(), "over");
    assert!(store.end_login_challenge(&pending).await.unwrap(), "kept");
}

async fn expired_sessions_go_in_bounded_batches(h: &Harness) {
    let id = staff_id(h).await;
    let at = later();
    for _ in 0..3 {
        session(h, &id, at - ABSOLUTE, at - Duration::minutes(1)).await;
    }
    let live = session(h, &id, at, at + ABSOLUTE).await;
    let store = h.store();
    let mut batches = Vec::new();
    for _ in 0..3 {
        batches.push(
            store
                .delete_expired_staff_sessions(at, IDLE, 2)
                .await
                .unwrap(),
        );
    }
    assert_eq!(batches, [2, 1, 0]);
    assert!(store.end_staff_session(&live).await.unwrap(), "live: kept");
}
