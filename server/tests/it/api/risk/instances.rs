//! Several instances on one database count the same tries, and the defaults leave an
//! ordinary shopper alone.

use serde_json::json;

use super::{Db, assert_asked, declined, risk_suite, sent, session, start, visa};
use crate::api::support::cards;

risk_suite!(
    two_instances_count_the_same_tries,
    an_ordinary_shopper_is_never_blocked_by_the_defaults,
);

async fn two_instances_count_the_same_tries(db: Db) {
    let limit = [("RISK_MAX_CARDS_PER_ADDRESS", "2")];
    let Some(first) = start(db, &limit).await else {
        return;
    };
    let second = first.beside(&limit).await;
    let a = session(&first, json!({})).await;
    sent(&first, &a, &visa(1)).await;
    let b = session(&second, json!({})).await;
    sent(&second, &b, &visa(2)).await;
    // The same card on the other instance: the same fingerprint, no new card.
    let c = session(&second, json!({})).await;
    sent(&second, &c, &visa(1)).await;
    let fingerprint_a = first.stored_payment(&a).await.card_fingerprint;
    assert!(fingerprint_a.is_some());
    assert_eq!(
        second.stored_payment(&c).await.card_fingerprint,
        fingerprint_a
    );
    // A third new card is past the limit on either instance: asked for a proof of work.
    for h in [&first, &second] {
        let s = session(h, json!({})).await;
        assert_asked(h, &s, &visa(3), 0).await;
    }
    second.finish().await;
    first.finish().await;
}

/// The defaults, as written in config/risk.rs (the harness lifts them).
const DEFAULTS: [(&str, &str); 6] = [
    ("RISK_MAX_CARDS_PER_SESSION", "4"),
    ("RISK_MAX_DECLINES_PER_SESSION", "6"),
    ("RISK_MAX_DECLINES_PER_CARD", "4"),
    ("RISK_MAX_CARDS_PER_ADDRESS", "5"),
    ("RISK_MAX_CARDS_PER_CUSTOMER", "5"),
    ("RISK_MAX_CARDS_PER_EMAIL", "5"),
];

async fn an_ordinary_shopper_is_never_blocked_by_the_defaults(db: Db) {
    let Some(h) = start(db, &DEFAULTS).await else {
        return;
    };
    let shopper = json!({"customer_id": "cust-ordinary", "email": "jane@example.com"});
    let s = session(&h, shopper.clone()).await;
    // Two mistyped numbers that still pass Luhn are declined; then the right one.
    declined(&h, &s, cards::DO_NOT_HONOUR).await;
    declined(&h, &s, cards::EXPIRED).await;
    let redirect = sent(&h, &s, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    // Paying again the same day, twice, with the same card.
    for _ in 0..2 {
        let again = session(&h, shopper.clone()).await;
        let redirect = sent(&h, &again, cards::VISA_OK).await;
        h.complete_3ds(&redirect, "approve").await;
    }
    h.finish().await;
}
