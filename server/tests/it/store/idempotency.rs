//! `Idempotency-Key`: first use, in progress, completed replay, body conflict, release, and
//! concurrent identical requests of which exactly one does the work.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use checkout_server::store::prelude::*;
use time::Duration;

use super::{TestDb, now};

store_suite!(
    a_key_walks_new_in_progress_completed,
    a_different_body_is_a_conflict,
    release_lets_a_failed_request_run_again,
    concurrent_identical_requests_do_the_work_once,
    old_records_are_purged,
);

fn key(k: &str) -> IdempotencyKey {
    IdempotencyKey::new("pay:session-1", k).expect("valid key")
}

fn response() -> StoredResponse {
    StoredResponse {
        status: 200,
        body: r#"{"next_action":"redirect","redirect_url":"https://acs.test/x"}"#.into(),
    }
}

async fn a_key_walks_new_in_progress_completed(db: &TestDb) {
    let body = BodyDigest::of(br#"{"card":"..."}"#);
    let at = now();
    let k = key("k-1");
    assert_eq!(
        db.store.begin_idempotent(&k, &body, at).await.unwrap(),
        IdempotencyBegin::New
    );
    assert_eq!(
        db.store.begin_idempotent(&k, &body, at).await.unwrap(),
        IdempotencyBegin::InProgress { since: at }
    );
    db.store
        .complete_idempotent(&k, &response(), now())
        .await
        .unwrap();
    assert_eq!(
        db.store.begin_idempotent(&k, &body, now()).await.unwrap(),
        IdempotencyBegin::Completed(response())
    );
    // Completing twice is a caller bug the store reports; releasing a completed key keeps it.
    let again = db.store.complete_idempotent(&k, &response(), now()).await;
    assert!(matches!(again, Err(StoreError::NotFound(_))), "{again:?}");
    db.store.release_idempotent(&k).await.unwrap();
    assert_eq!(
        db.store.begin_idempotent(&k, &body, now()).await.unwrap(),
        IdempotencyBegin::Completed(response())
    );
    // The same key in another scope is another operation.
    let elsewhere = IdempotencyKey::new("merchant", "k-1").unwrap();
    assert_eq!(
        db.store
            .begin_idempotent(&elsewhere, &body, now())
            .await
            .unwrap(),
        IdempotencyBegin::New
    );
    assert!(IdempotencyKey::new("merchant", "").is_err());
    assert!(IdempotencyKey::new("merchant", "has space").is_err());
    assert!(IdempotencyKey::new("merchant", &"k".repeat(256)).is_err());
}

async fn a_different_body_is_a_conflict(db: &TestDb) {
    let k = key("k-2");
    let first = BodyDigest::of(b"{\"amount\":1}");
    let second = BodyDigest::of(b"{\"amount\":2}");
    assert_eq!(
        db.store.begin_idempotent(&k, &first, now()).await.unwrap(),
        IdempotencyBegin::New
    );
    assert_eq!(
        db.store.begin_idempotent(&k, &second, now()).await.unwrap(),
        IdempotencyBegin::Conflict
    );
    db.store
        .complete_idempotent(&k, &response(), now())
        .await
        .unwrap();
    assert_eq!(
        db.store.begin_idempotent(&k, &second, now()).await.unwrap(),
        IdempotencyBegin::Conflict
    );
}

async fn release_lets_a_failed_request_run_again(db: &TestDb) {
    let k = key("k-3");
    let body = BodyDigest::of(b"{}");
    assert_eq!(
        db.store.begin_idempotent(&k, &body, now()).await.unwrap(),
        IdempotencyBegin::New
    );
    db.store.release_idempotent(&k).await.unwrap();
    assert_eq!(
        db.store.begin_idempotent(&k, &body, now()).await.unwrap(),
        IdempotencyBegin::New
    );
}

async fn concurrent_identical_requests_do_the_work_once(db: &TestDb) {
    let other_instance = db.second_instance().await;
    let gateway_calls = Arc::new(AtomicUsize::new(0));
    let body = BodyDigest::of(b"{\"saved_card_id\":\"c1\"}");
    let mut tasks = Vec::new();
    for i in 0..16 {
        let store = if i % 2 == 0 {
            db.store.clone()
        } else {
            other_instance.clone()
        };
        let calls = gateway_calls.clone();
        let body = body.clone();
        tasks.push(tokio::spawn(async move {
            let k = key("k-concurrent");
            let begin = store
                .begin_idempotent(&k, &body, now())
                .await
                .expect("begin runs");
            if begin == IdempotencyBegin::New {
                calls.fetch_add(1, Ordering::SeqCst);
                store
                    .complete_idempotent(&k, &response(), now())
                    .await
                    .expect("completes");
            }
            begin
        }));
    }
    let mut new = 0;
    for task in tasks {
        match task.await.expect("task finished") {
            IdempotencyBegin::New => new += 1,
            IdempotencyBegin::InProgress { .. } => {}
            IdempotencyBegin::Completed(stored) => assert_eq!(stored, response()),
            IdempotencyBegin::Conflict => panic!("identical bodies reported as a conflict"),
        }
    }
    assert_eq!(new, 1);
    assert_eq!(gateway_calls.load(Ordering::SeqCst), 1);
    other_instance.close().await;
}

async fn old_records_are_purged(db: &TestDb) {
    let body = BodyDigest::of(b"{}");
    let long_ago = now() - Duration::days(2);
    for k in ["old-1", "old-2"] {
        db.store
            .begin_idempotent(&key(k), &body, long_ago)
            .await
            .unwrap();
    }
    db.store
        .begin_idempotent(&key("fresh"), &body, now())
        .await
        .unwrap();
    let purged = db
        .store
        .purge_idempotency(now() - Duration::days(1))
        .await
        .unwrap();
    assert_eq!(purged, 2);
    assert_eq!(
        db.store
            .begin_idempotent(&key("old-1"), &body, now())
            .await
            .unwrap(),
        IdempotencyBegin::New
    );
    assert!(matches!(
        db.store
            .begin_idempotent(&key("fresh"), &body, now())
            .await
            .unwrap(),
        IdempotencyBegin::InProgress { .. }
    ));
}
