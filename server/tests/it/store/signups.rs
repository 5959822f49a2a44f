//! Subscription sign-ups (issue 46, migration 0032): recorded before the gateway call, one open
//! per customer and plan, a live subscription refusing another unless several are allowed,
//! decided atomically even when sign-ups race; claimed by the reconciler once due.

use checkout::contract::SubscriptionStatus;
use checkout_server::store::prelude::*;
use time::Duration;

use super::{TestDb, new_payment, now};

store_suite!(
    one_open_sign_up_per_customer_and_plan,
    racing_sign_ups_open_once,
    open_sign_ups_are_claimed_once_due_and_ended_once,
);

/// A sign-up of a new payment by `customer` to `plan`, due at `check_at`.
async fn sign_up(
    db: &TestDb,
    customer: Option<&str>,
    plan: &str,
    several_per_plan: bool,
) -> SignupOpened {
    let payment = new_payment(db, 980).await;
    db.store
        .open_signup(NewSignup {
            payment_id: payment.id.clone(),
            session_id: payment.session_id.clone(),
            customer_id: customer.map(str::to_owned),
            plan_id: plan.into(),
            called_at: now(),
            check_at: now() + Duration::minutes(1),
            several_per_plan,
        })
        .await
        .expect("sign-up written or refused")
}

fn opened(result: SignupOpened) -> Signup {
    match result {
        SignupOpened::Opened(signup) => *signup,
        SignupOpened::Refused(block) => panic!("refused: {block:?}"),
    }
}

fn refused(result: SignupOpened) -> SignupBlock {
    match result {
        SignupOpened::Refused(block) => block,
        SignupOpened::Opened(signup) => panic!("opened {}", signup.id),
    }
}

async fn one_open_sign_up_per_customer_and_plan(db: &TestDb) {
    let first = opened(sign_up(db, Some("ann"), "monthly", false).await);
    assert_eq!(first.state, SignupState::Open);
    assert_eq!(
        refused(sign_up(db, Some("ann"), "monthly", false).await),
        SignupBlock::Pending
    );
    assert_eq!(
        refused(sign_up(db, Some("ann"), "monthly", true).await),
        SignupBlock::Pending,
        "several per plan never allows two open at once"
    );
    opened(sign_up(db, Some("ann"), "weekly", false).await);
    opened(sign_up(db, Some("bob"), "monthly", false).await);
    opened(sign_up(db, None, "monthly", false).await);
    opened(sign_up(db, None, "monthly", false).await);
    assert_eq!(
        db.store
            .signup_block("ann", "monthly", false)
            .await
            .unwrap(),
        Some(SignupBlock::Pending)
    );

    // The first sign-up made a subscription: it is live now.
    let payment = db
        .store
        .get_payment(&first.id)
        .await
        .unwrap()
        .expect("payment");
    let subscription = db
        .store
        .create_subscription(NewSubscription {
            gateway_subscription_id: "gw-ann".into(),
            customer_id: Some("ann".into()),
            plan_id: "monthly".into(),
            session_id: Some(payment.session_id.clone()),
            first_payment_id: Some(payment.id.clone()),
            amount: 980,
            currency: "EUR".into(),
            status: SubscriptionStatus::Active,
            completed_cycles: 1,
            next_payment_at: None,
            last_payment_status: None,
            next_poll_at: now(),
            found_in_list: None,
        })
        .await
        .unwrap();
    assert!(
        db.store
            .end_signup(&first.id, SignupEnd::Recorded(subscription.id.clone()))
            .await
            .unwrap()
    );
    assert_eq!(
        refused(sign_up(db, Some("ann"), "monthly", false).await),
        SignupBlock::Live
    );
    assert_eq!(
        db.store
            .signup_block("ann", "monthly", false)
            .await
            .unwrap(),
        Some(SignupBlock::Live)
    );
    assert_eq!(
        db.store.signup_block("ann", "monthly", true).await.unwrap(),
        None
    );
    let second = opened(sign_up(db, Some("ann"), "monthly", true).await);
    assert_eq!(second.customer_id.as_deref(), Some("ann"));
    let stored = db.store.get_signup(&first.id).await.unwrap().expect("kept");
    assert_eq!(stored.state, SignupState::Recorded);
    assert_eq!(stored.subscription_id, Some(subscription.id));
}

async fn racing_sign_ups_open_once(db: &TestDb) {
    let mut payments = Vec::new();
    for _ in 0..8 {
        payments.push(new_payment(db, 980).await);
    }
    let mut tasks = Vec::new();
    for payment in payments {
        let store = db.store.clone();
        tasks.push(tokio::spawn(async move {
            store
                .open_signup(NewSignup {
                    payment_id: payment.id.clone(),
                    session_id: payment.session_id.clone(),
                    customer_id: Some("cy".into()),
                    plan_id: "monthly".into(),
                    called_at: now(),
                    check_at: now(),
                    several_per_plan: false,
                })
                .await
                .expect("written or refused")
        }));
    }
    let mut opened_count = 0;
    for task in tasks {
        if let SignupOpened::Opened(_) = task.await.expect("task") {
            opened_count += 1;
        }
    }
    assert_eq!(opened_count, 1);
}

async fn open_sign_ups_are_claimed_once_due_and_ended_once(db: &TestDb) {
    let due = opened(sign_up(db, Some("dee"), "monthly", false).await);
    let later = opened(sign_up(db, Some("eve"), "monthly", false).await);
    assert!(
        db.store
            .signup_outcome_unknown(&due.id, now())
            .await
            .unwrap()
    );
    let lease = Duration::minutes(5);
    let claimed = db
        .store
        .claim_due_signups(now(), "a", lease, 10)
        .await
        .unwrap();
    assert_eq!(
        claimed.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
        [due.id.as_str()]
    );
    assert!(
        db.store
            .claim_due_signups(now(), "b", lease, 10)
            .await
            .unwrap()
            .is_empty(),
        "leased, and the other not due yet"
    );
    assert_eq!(db.store.open_signups(10).await.unwrap().len(), 2);
    assert!(
        !db.store.release_signup(&due.id, "b", None).await.unwrap(),
        "not b's"
    );
    let retry = now() + Duration::minutes(2);
    assert!(
        db.store
            .release_signup(&due.id, "a", Some(retry))
            .await
            .unwrap()
    );
    assert_eq!(
        db.store
            .get_signup(&due.id)
            .await
            .unwrap()
            .and_then(|s| s.next_check_at),
        Some(retry)
    );

    let note = "two subscriptions could be its own".to_owned();
    assert!(
        db.store
            .end_signup(&due.id, SignupEnd::Review(note.clone()))
            .await
            .unwrap()
    );
    assert!(
        !db.store
            .end_signup(&due.id, SignupEnd::Failed("late".into()))
            .await
            .unwrap(),
        "ended once"
    );
    let review = db.store.signups_in_review(10).await.unwrap();
    assert_eq!(review.len(), 1);
    assert_eq!(review[0].note.as_deref(), Some(note.as_str()));
    assert_eq!(review[0].next_check_at, None);
    // A sign-up in review no longer blocks its customer; the open one still does.
    assert_eq!(
        db.store
            .signup_block("dee", "monthly", false)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        db.store
            .signup_block("eve", "monthly", false)
            .await
            .unwrap(),
        Some(SignupBlock::Pending)
    );
    assert!(
        db.store
            .end_signup(&later.id, SignupEnd::Failed("none in the list".into()))
            .await
            .unwrap()
    );
    assert!(db.store.open_signups(10).await.unwrap().is_empty());
}
