//! The dashboard lock-out's reservations: guesses at one account reserved at once from two
//! instances are granted at most `max` times before the account locks; a right guess lifts
//! only the lock it set itself; a guess given back restores the count; a disabled or locked
//! account grants nothing.

use std::sync::Arc;

use checkout_server::store::prelude::*;
use time::Duration;

use super::{TestDb, now};

store_suite!(
    two_instances_grant_at_most_the_lock_out,
    a_right_guess_lifts_only_its_own_lock,
    a_guess_given_back_restores_the_count,
    a_disabled_account_grants_nothing,
);

const MAX: u32 = 5;
const LOCK: Duration = Duration::minutes(15);

async fn account(db: &TestDb) -> StaffUser {
    db.store
        .create_staff("op@shop.example", StaffRole::Operator, "$argon2id$stand-in")
        .await
        .expect("account")
}

/// `count` reservations in a row at `at`: the account after each (`None`: refused).
async fn reserve(db: &TestDb, id: &str, count: u32) -> Vec<Option<StaffUser>> {
    let mut after = Vec::new();
    for _ in 0..count {
        let at = now();
        after.push(
            db.store
                .reserve_login_attempt(id, at, MAX, LOCK)
                .await
                .expect("reserve"),
        );
    }
    after
}

async fn two_instances_grant_at_most_the_lock_out(db: &TestDb) {
    let user = account(db).await;
    let other = db.second_instance().await;
    let at = now();
    let tasks: Vec<_> = (0..40)
        .map(|n| {
            let store: Arc<dyn Store> = if n % 2 == 0 {
                db.store.clone()
            } else {
                other.clone()
            };
            let id = user.id.clone();
            tokio::spawn(async move { store.reserve_login_attempt(&id, at, MAX, LOCK).await })
        })
        .collect();
    let mut granted = 0;
    for task in tasks {
        if task.await.expect("task").expect("reserve").is_some() {
            granted += 1;
        }
    }
    assert_eq!(granted, MAX, "granted guesses");
    let after = db
        .store
        .staff_by_email(&user.email)
        .await
        .expect("read")
        .expect("account");
    assert_eq!(after.locked_until, Some(at + LOCK));
    other.close().await;
}

async fn a_right_guess_lifts_only_its_own_lock(db: &TestDb) {
    let user = account(db).await;
    let guesses = reserve(db, &user.id, MAX).await;
    assert!(guesses.iter().all(Option::is_some));
    let last = guesses[4].clone().expect("granted");
    let own_lock = last.locked_until.expect("the fifth locked it");
    assert_eq!(last.failed_logins, 0, "the count starts again");
    assert!(reserve(db, &user.id, 1).await[0].is_none(), "locked");

    db.store
        .clear_login_failures(&user.id, None)
        .await
        .expect("clear");
    assert!(
        reserve(db, &user.id, 1).await[0].is_none(),
        "another guess's success does not lift this lock"
    );
    db.store
        .clear_login_failures(&user.id, Some(own_lock))
        .await
        .expect("clear");
    let open = reserve(db, &user.id, 1).await[0].clone().expect("lifted");
    assert_eq!((open.failed_logins, open.locked_until), (1, None));
}

async fn a_guess_given_back_restores_the_count(db: &TestDb) {
    let user = account(db).await;
    let guesses = reserve(db, &user.id, 2).await;
    assert_eq!(guesses[1].as_ref().expect("granted").failed_logins, 2);
    db.store
        .release_login_attempt(&user.id, None, MAX)
        .await
        .expect("release");
    let guesses = reserve(db, &user.id, 4).await;
    assert_eq!(guesses[1].as_ref().expect("granted").failed_logins, 3);
    let own_lock = guesses[3]
        .as_ref()
        .and_then(|u| u.locked_until)
        .expect("locked at the fifth");
    db.store
        .release_login_attempt(&user.id, Some(own_lock), MAX)
        .await
        .expect("release");
    let again = reserve(db, &user.id, 2).await;
    assert!(
        again[0].as_ref().is_some_and(|u| u.locked_until.is_some()),
        "given back the locking guess: the next one is the fifth again"
    );
    assert!(again[1].is_none());
}

async fn a_disabled_account_grants_nothing(db: &TestDb) {
    let user = account(db).await;
    db.store
        .disable_staff(&user.email, now())
        .await
        .expect("disabled");
    assert!(reserve(db, &user.id, 1).await[0].is_none());
}
