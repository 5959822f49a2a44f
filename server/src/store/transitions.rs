//! The payment state machine: which state may follow which, in one place.
//!
//! Every state change in the store goes through [`can_advance`], and the store applies it as a
//! compare-and-set, so a duplicate or late webhook, a second server instance or a reconciler
//! run can never move a payment backwards or apply the same step twice.

use checkout::contract::PaymentState;

/// Every payment state, in the order a payment usually passes through them.
pub const ALL_STATES: [PaymentState; 11] = [
    PaymentState::Created,
    PaymentState::Pending,
    PaymentState::Authorized,
    PaymentState::Captured,
    PaymentState::Declined,
    PaymentState::Failed,
    PaymentState::PartiallyRefunded,
    PaymentState::Refunded,
    PaymentState::Voided,
    PaymentState::NeedsReview,
    PaymentState::Blocked,
];

/// The states a payment in `from` may move to next.
///
/// `PartiallyRefunded → PartiallyRefunded` is the one self-step: a further partial refund.
/// `NeedsReview` may still settle when the outcome is learned later (status lookup, webhook).
/// `Created → Failed` is for a payment that was never sent to the gateway, and
/// `Pending → Blocked` for one the card-testing rules refused before its gateway call.
/// `Failed → Authorized/Captured` is the one way out of a final state, and the payment service
/// takes it only for a payment abandoned at the bank
/// ([`Payment::is_abandoned_at_the_bank`](super::model::Payment::is_abandoned_at_the_bank)):
/// resolved as failed without word from the bank by a version before issue 45 (which sends
/// such a payment to review instead), then proven charged after all. The charge is recorded so the surplus rule
/// reverses it, rather than being lost behind a final state.
pub fn successors(from: PaymentState) -> &'static [PaymentState] {
    use PaymentState::*;
    match from {
        Created => &[Pending, Failed],
        Pending => &[Authorized, Captured, Declined, Failed, NeedsReview, Blocked],
        Authorized => &[Captured, Voided],
        Captured => &[PartiallyRefunded, Refunded],
        PartiallyRefunded => &[PartiallyRefunded, Refunded],
        NeedsReview => &[Authorized, Captured, Declined, Failed],
        Failed => &[Authorized, Captured],
        Declined | Refunded | Voided | Blocked => &[],
    }
}

/// True when a payment in `from` may move to `to`.
pub fn can_advance(from: PaymentState, to: PaymentState) -> bool {
    successors(from).contains(&to)
}

/// The states from which a payment may move to `to`.
pub fn predecessors(to: PaymentState) -> Vec<PaymentState> {
    ALL_STATES
        .into_iter()
        .filter(|from| can_advance(*from, to))
        .collect()
}

/// The name stored in the database; the same as the contract's JSON name.
pub fn state_name(state: PaymentState) -> &'static str {
    use PaymentState::*;
    match state {
        Created => "created",
        Pending => "pending",
        Authorized => "authorized",
        Captured => "captured",
        Declined => "declined",
        Failed => "failed",
        PartiallyRefunded => "partially_refunded",
        Refunded => "refunded",
        Voided => "voided",
        NeedsReview => "needs_review",
        Blocked => "blocked",
    }
}

/// The state stored as `name`, if it is one.
pub fn parse_state(name: &str) -> Option<PaymentState> {
    ALL_STATES
        .into_iter()
        .find(|state| state_name(*state) == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use PaymentState::*;

    /// The whole graph written out as a table: every (from, to) pair not listed is forbidden.
    const ALLOWED: &[(PaymentState, PaymentState)] = &[
        (Created, Pending),
        (Created, Failed),
        (Pending, Authorized),
        (Pending, Captured),
        (Pending, Declined),
        (Pending, Failed),
        (Pending, NeedsReview),
        (Pending, Blocked),
        (Authorized, Captured),
        (Authorized, Voided),
        (Captured, PartiallyRefunded),
        (Captured, Refunded),
        (PartiallyRefunded, PartiallyRefunded),
        (PartiallyRefunded, Refunded),
        (NeedsReview, Authorized),
        (NeedsReview, Captured),
        (NeedsReview, Declined),
        (NeedsReview, Failed),
        (Failed, Authorized),
        (Failed, Captured),
    ];

    #[test]
    fn every_pair_matches_the_table() {
        for from in ALL_STATES {
            for to in ALL_STATES {
                assert_eq!(
                    can_advance(from, to),
                    ALLOWED.contains(&(from, to)),
                    "{from:?} -> {to:?}"
                );
            }
        }
    }

    #[test]
    fn every_step_fits_the_stores_expected_state_slots() {
        for to in ALL_STATES {
            assert!(
                predecessors(to).len() <= crate::store::sql::EXPECTED_SLOTS,
                "{to:?}"
            );
        }
    }

    #[test]
    fn nothing_leads_back_to_created_or_pending() {
        assert!(predecessors(Created).is_empty());
        assert_eq!(predecessors(Pending), vec![Created]);
    }

    #[test]
    fn final_states_have_no_way_out() {
        for state in [Declined, Refunded, Voided, Blocked] {
            assert!(successors(state).is_empty(), "{state:?}");
        }
        // Only a proven charge leaves `failed` (a payment abandoned at the bank).
        assert_eq!(successors(Failed), &[Authorized, Captured]);
    }

    #[test]
    fn only_partial_refund_may_repeat() {
        for state in ALL_STATES {
            assert_eq!(can_advance(state, state), state == PartiallyRefunded);
        }
    }

    #[test]
    fn settled_payments_never_become_unsettled() {
        for from in ALL_STATES.into_iter().filter(|s| s.is_settled()) {
            for to in successors(from) {
                assert!(to.is_settled(), "{from:?} -> {to:?}");
            }
        }
    }

    #[test]
    fn names_round_trip_and_match_the_contract_json() {
        for state in ALL_STATES {
            assert_eq!(parse_state(state_name(state)), Some(state));
            let json = serde_json::to_value(state).expect("state serializes");
            assert_eq!(json.as_str(), Some(state_name(state)));
        }
        assert_eq!(parse_state("paid"), None);
    }
}
