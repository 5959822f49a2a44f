//! The event types a shop can receive, one constant each, and the check of the types an
//! endpoint asks for (`["payment.captured", …]`, or `["*"]` for all of them). How a
//! selection is shown is the store model's own (`EventTypes::names`), so views need not come
//! up here.
//!
//! The store's triggers (migrations `0003_events`, `0016_card_testing`,
//! `0019_card_testing_alerts` and `0033_gateway_list_check`) write these names; a
//! test below reads those migrations and fails if a trigger writes a type this list does not name, or the reverse.

use crate::store::model::EventTypes;

/// A payment was authorized (approved, money reserved, not yet captured). Carries the
/// payment.
pub const PAYMENT_AUTHORIZED: &str = "payment.authorized";
/// A payment was captured: the money is the shop's. Carries the payment. Fulfil an order
/// from this event (or `session.completed`), never from the shopper's landing page.
pub const PAYMENT_CAPTURED: &str = "payment.captured";
/// The issuer or 3-D Secure declined a payment. Carries the payment with its decline code.
pub const PAYMENT_DECLINED: &str = "payment.declined";
/// A payment failed for a reason other than a decline (the gateway refused or errored).
/// Carries the payment.
pub const PAYMENT_FAILED: &str = "payment.failed";
/// A payment's outcome is still unknown after the reconciler's checks and needs a person.
/// Carries the payment.
pub const PAYMENT_NEEDS_REVIEW: &str = "payment.needs_review";
/// The card-testing rules refused a try before the gateway was called (state `blocked`).
/// Carries the payment with the rule that fired (`risk_rule`); the shopper was shown the
/// one neutral refusal, never the rule.
pub const PAYMENT_BLOCKED: &str = "payment.blocked";
/// A payment was refunded, fully or in part. Carries the payment with the refunded total.
pub const PAYMENT_REFUNDED: &str = "payment.refunded";
/// An authorization was released without capture. Carries the payment.
pub const PAYMENT_VOIDED: &str = "payment.voided";
/// A checkout session was paid. Carries the session with the payment that paid it.
pub const SESSION_COMPLETED: &str = "session.completed";
/// A subscription started (its first charge went through). Carries the subscription.
pub const SUBSCRIPTION_CREATED: &str = "subscription.created";
/// A subscription was paused. Carries the subscription.
pub const SUBSCRIPTION_PAUSED: &str = "subscription.paused";
/// A paused subscription was resumed. Carries the subscription.
pub const SUBSCRIPTION_RESUMED: &str = "subscription.resumed";
/// A subscription was cancelled before its end. Carries the subscription.
pub const SUBSCRIPTION_CANCELLED: &str = "subscription.cancelled";
/// A subscription ran all its billing cycles. Carries the subscription.
pub const SUBSCRIPTION_COMPLETED: &str = "subscription.completed";
/// **A period is paid**: a charge the gateway made by itself went through, at once or on a
/// retry. Every cycle after the sign-up's, cycle 1 of a plan with a trial (the first real
/// charge, after the trial) and every cycle of a subscription found in the gateway's list;
/// never the cycle the sign-up's own payment charged (`subscription.created` and that
/// payment's `payment.captured` report it). Carries the subscription and the cycle's `charge`
/// (`cycle`, `amount`, `currency`, `period_start`, `period_end`).
pub const SUBSCRIPTION_RENEWED: &str = "subscription.renewed";
/// The gateway bills a subscription this server did not start, or one a lost sign-up answer
/// could not be told apart from another's: found in the gateway's list and recorded with
/// `origin` `gateway_list` and a `review_note`. A person must look at it (the dashboard's
/// review queue lists it). Carries the subscription.
pub const SUBSCRIPTION_NEEDS_REVIEW: &str = "subscription.needs_review";
/// A billing cycle's charge failed. Carries the subscription and the cycle's `charge`.
pub const SUBSCRIPTION_PAYMENT_FAILED: &str = "subscription.payment_failed";
/// A customer saved a card. Carries the card (brand, last four, expiry; never the number)
/// and its `customer_id`.
pub const CUSTOMER_CARD_SAVED: &str = "customer.card_saved";
/// A saved card was removed. Carries the card as it was, and its `customer_id`.
pub const CUSTOMER_CARD_REMOVED: &str = "customer.card_removed";

/// The store-wide share of blocked or declined tries jumped past its threshold: the server
/// suspects card testing and judges tries by tightened limits until it ends. Carries the alert
/// with the window's figures.
pub const CARD_TESTING_SUSPECTED: &str = "card_testing.suspected";
/// A card-testing alert ended (its trigger stopped holding for the hold time); the ordinary
/// limits apply again. Carries the alert.
pub const CARD_TESTING_ENDED: &str = "card_testing.ended";

/// Every event type, in the order the documentation lists them.
pub const ALL: [&str; 21] = [
    PAYMENT_AUTHORIZED,
    PAYMENT_CAPTURED,
    PAYMENT_DECLINED,
    PAYMENT_FAILED,
    PAYMENT_NEEDS_REVIEW,
    PAYMENT_BLOCKED,
    PAYMENT_REFUNDED,
    PAYMENT_VOIDED,
    SESSION_COMPLETED,
    SUBSCRIPTION_CREATED,
    SUBSCRIPTION_PAUSED,
    SUBSCRIPTION_RESUMED,
    SUBSCRIPTION_CANCELLED,
    SUBSCRIPTION_COMPLETED,
    SUBSCRIPTION_RENEWED,
    SUBSCRIPTION_PAYMENT_FAILED,
    SUBSCRIPTION_NEEDS_REVIEW,
    CUSTOMER_CARD_SAVED,
    CUSTOMER_CARD_REMOVED,
    CARD_TESTING_SUSPECTED,
    CARD_TESTING_ENDED,
];

/// Whether `kind` is an event type this server writes.
pub fn is_known(kind: &str) -> bool {
    ALL.contains(&kind)
}

/// Why a selection of types was refused (a sentence for the `event_types` field).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadSelection {
    /// `[]`.
    #[error("name at least one event type, or [\"*\"] for all of them")]
    Empty,
    /// `*` beside named types.
    #[error("\"*\" stands alone: it already selects every type")]
    WildcardMixed,
    /// A name that is not an event type (the name, cut to 64 characters).
    #[error("unknown event type \"{0}\"")]
    Unknown(String),
}

/// The types an endpoint asked for: `None` (not given) is every type, `["*"]` too; otherwise
/// each name must be known. Repeats are dropped, the order kept.
pub fn select(requested: Option<&[String]>) -> Result<EventTypes, BadSelection> {
    let Some(requested) = requested else {
        return Ok(EventTypes::All);
    };
    if requested.is_empty() {
        return Err(BadSelection::Empty);
    }
    if requested.iter().any(|kind| kind == EventTypes::WILDCARD) {
        return if requested.len() == 1 {
            Ok(EventTypes::All)
        } else {
            Err(BadSelection::WildcardMixed)
        };
    }
    let mut kinds: Vec<String> = Vec::with_capacity(requested.len());
    for kind in requested {
        if !is_known(kind) {
            return Err(BadSelection::Unknown(kind.chars().take(64).collect()));
        }
        if !kinds.contains(kind) {
            kinds.push(kind.clone());
        }
    }
    Ok(EventTypes::Only(kinds))
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// The quoted `object.verb` names a migration writes as event types.
    fn written_types(sql: &str) -> BTreeSet<String> {
        sql.split('\'')
            .skip(1)
            .step_by(2)
            .filter(|quoted| {
                quoted.split_once('.').is_some_and(|(object, verb)| {
                    [
                        "payment",
                        "session",
                        "subscription",
                        "customer",
                        "card_testing",
                    ]
                    .contains(&object)
                        && !verb.is_empty()
                        && verb.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
                })
            })
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn the_list_matches_what_the_triggers_write() {
        let listed: BTreeSet<String> = ALL.iter().map(|&k| k.to_owned()).collect();
        assert_eq!(listed.len(), ALL.len(), "no type listed twice");
        for migrations in [
            [
                include_str!("../../migrations/sqlite/0003_events.sql"),
                include_str!("../../migrations/sqlite/0016_card_testing.sql"),
                include_str!("../../migrations/sqlite/0019_card_testing_alerts.sql"),
                include_str!("../../migrations/sqlite/0033_gateway_list_check.sql"),
            ],
            [
                include_str!("../../migrations/postgres/0003_events.sql"),
                include_str!("../../migrations/postgres/0016_card_testing.sql"),
                include_str!("../../migrations/postgres/0019_card_testing_alerts.sql"),
                include_str!("../../migrations/postgres/0033_gateway_list_check.sql"),
            ],
        ] {
            let written: BTreeSet<String> = migrations
                .iter()
                .flat_map(|sql| written_types(sql))
                .collect();
            assert_eq!(written, listed);
        }
    }

    #[test]
    fn selections() {
        assert_eq!(select(None), Ok(EventTypes::All));
        assert_eq!(select(Some(&["*".to_owned()])), Ok(EventTypes::All));
        let picked = select(Some(&[
            PAYMENT_CAPTURED.to_owned(),
            SESSION_COMPLETED.to_owned(),
            PAYMENT_CAPTURED.to_owned(),
        ]));
        assert_eq!(
            picked,
            Ok(EventTypes::Only(vec![
                PAYMENT_CAPTURED.to_owned(),
                SESSION_COMPLETED.to_owned()
            ]))
        );
        assert_eq!(select(Some(&[])), Err(BadSelection::Empty));
        assert_eq!(
            select(Some(&["*".to_owned(), PAYMENT_CAPTURED.to_owned()])),
            Err(BadSelection::WildcardMixed)
        );
        for bad in [
            "payment.paid",
            "",
            "payment.captured,payment.voided",
            "PAYMENT.CAPTURED",
        ] {
            assert!(
                matches!(
                    select(Some(&[bad.to_owned()])),
                    Err(BadSelection::Unknown(_))
                ),
                "{bad}"
            );
        }
    }
}
