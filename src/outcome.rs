//! What the result panel says about a payment, and what it tells the shop: one mapping for the
//! component's panel after paying (`ui/result.rs`) and checkout-server's result page (mode
//! `result`, the page 3-D Secure returns to), so the two never word a state differently.

use crate::contract::{DeclineCode, PaymentResult, PaymentState};
use crate::i18n::Msg;

/// How the panel describes where a payment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The panel's `data-state`: `paid`, `declined`, `failed` (a try refused before the
    /// gateway too), `voided`, `refunded`, `review`, `pending` or `unknown`.
    pub state: &'static str,
    /// The heading.
    pub heading: Msg,
    /// The sentence under it.
    pub detail: Detail,
}

/// The sentence under the heading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// None.
    Nothing,
    /// This message as it is.
    Text(Msg),
    /// [`Msg::ResultPaidDetail`] with the amount paid in its hole.
    Paid,
}

/// What the panel shows for the latest `result` (none yet: `polling` says whether one is on
/// its way).
pub fn verdict(result: Option<&PaymentResult>, polling: bool) -> Verdict {
    let says = |state, heading, detail| Verdict {
        state,
        heading,
        detail,
    };
    let Some(result) = result else {
        return if polling {
            says(
                "pending",
                Msg::ResultPending,
                Detail::Text(Msg::ResultPendingDetail),
            )
        } else {
            says(
                "unknown",
                Msg::ResultPending,
                Detail::Text(Msg::NetworkError),
            )
        };
    };
    match result.state {
        PaymentState::Refunded => says("refunded", Msg::ResultRefunded, Detail::Nothing),
        state if state.is_paid() => says("paid", Msg::ResultPaid, Detail::Paid),
        PaymentState::Declined => says(
            "declined",
            Msg::ResultDeclined,
            Detail::Text(refusal_message(result)),
        ),
        // Refused before the gateway is no decline (no bank said no), and names no rule.
        PaymentState::Failed | PaymentState::Blocked => says(
            "failed",
            Msg::ResultFailed,
            Detail::Text(refusal_message(result)),
        ),
        PaymentState::Voided => says("voided", Msg::ResultVoided, Detail::Nothing),
        PaymentState::NeedsReview => says(
            "review",
            Msg::ResultReview,
            Detail::Text(Msg::ResultReviewDetail),
        ),
        // Still pending once the polls stopped: say what happens next.
        _ if !polling => says(
            "pending",
            Msg::ResultPending,
            Detail::Text(Msg::ResultPendingLong),
        ),
        _ => says(
            "pending",
            Msg::ResultPending,
            Detail::Text(Msg::ResultPendingDetail),
        ),
    }
}

/// The sentence for a result the form turns down: a decline's reason (the gateway's raw code
/// is never shown), the one neutral refusal for a try refused before the gateway, or that the
/// payment could not be completed.
pub fn refusal_message(result: &PaymentResult) -> Msg {
    match result.state {
        PaymentState::Declined => decline_message(result.decline),
        PaymentState::Blocked => Msg::CardRefused,
        _ => Msg::ResultFailedDetail,
    }
}

/// The sentence for a decline reason (the gateway's raw code is never shown).
pub fn decline_message(code: Option<DeclineCode>) -> Msg {
    match code {
        Some(DeclineCode::DoNotHonour) => Msg::DeclineDoNotHonour,
        Some(DeclineCode::InsufficientFunds) => Msg::DeclineInsufficientFunds,
        Some(DeclineCode::ExpiredCard) => Msg::DeclineExpiredCard,
        Some(DeclineCode::LostOrStolen) => Msg::DeclineLostOrStolen,
        Some(DeclineCode::IssuerUnavailable) => Msg::DeclineIssuerUnavailable,
        Some(DeclineCode::RiskRejected) => Msg::DeclineRiskRejected,
        Some(DeclineCode::AuthenticationFailed) => Msg::DeclineAuthenticationFailed,
        Some(DeclineCode::Other) | None => Msg::DeclineOther,
    }
}

/// The event a result sends the shop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Report {
    /// `success`, the result itself as its detail.
    Success,
    /// `error` with `code`, and `message` the shopper reads (and the decline reason).
    Error {
        /// `card_declined`, `card_refused` (refused before the gateway) or `payment_failed`.
        code: &'static str,
        /// The sentence.
        message: Msg,
    },
}

/// `success` for a paid result, `error` for a declined, failed or voided one, nothing for the
/// rest (pending, under review).
pub fn report(result: &PaymentResult) -> Option<Report> {
    match result.state {
        state if state.is_paid() => Some(Report::Success),
        PaymentState::Declined => Some(Report::Error {
            code: "card_declined",
            message: refusal_message(result),
        }),
        PaymentState::Blocked => Some(Report::Error {
            code: "card_refused",
            message: Msg::CardRefused,
        }),
        PaymentState::Failed | PaymentState::Voided => Some(Report::Error {
            code: "payment_failed",
            message: Msg::ResultFailedDetail,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(state: PaymentState, decline: Option<DeclineCode>) -> PaymentResult {
        PaymentResult {
            payment_id: "pay_1".into(),
            state,
            amount: 2500,
            currency: "EUR".into(),
            decline,
            subscription_id: None,
        }
    }

    #[test]
    fn every_state_has_its_wording() {
        let of = |state, decline| verdict(Some(&result(state, decline)), false);
        assert_eq!(of(PaymentState::Captured, None).detail, Detail::Paid);
        assert_eq!(of(PaymentState::Authorized, None).state, "paid");
        assert_eq!(of(PaymentState::Refunded, None).state, "refunded");
        let declined = of(PaymentState::Declined, Some(DeclineCode::ExpiredCard));
        assert_eq!(declined.detail, Detail::Text(Msg::DeclineExpiredCard));
        let refused = of(PaymentState::Blocked, None);
        assert_eq!(refused.state, "failed");
        assert_eq!(refused.detail, Detail::Text(Msg::CardRefused));
        assert_ne!(refused.heading, Msg::ResultDeclined, "no bank said no");
        assert_eq!(of(PaymentState::NeedsReview, None).state, "review");
        assert_eq!(of(PaymentState::Pending, None).state, "pending");
        let pending = result(PaymentState::Pending, None);
        assert_eq!(
            verdict(Some(&pending), true).detail,
            Detail::Text(Msg::ResultPendingDetail)
        );
        assert_eq!(
            verdict(Some(&pending), false).detail,
            Detail::Text(Msg::ResultPendingLong),
            "once the form stopped asking, what happens next"
        );
        assert_eq!(verdict(None, true).state, "pending");
        assert_eq!(verdict(None, false).detail, Detail::Text(Msg::NetworkError));
    }

    #[test]
    fn only_final_outcomes_are_reported() {
        assert_eq!(
            report(&result(PaymentState::Captured, None)),
            Some(Report::Success)
        );
        assert_eq!(
            report(&result(PaymentState::Declined, None)),
            Some(Report::Error {
                code: "card_declined",
                message: Msg::DeclineOther
            })
        );
        assert_eq!(
            report(&result(PaymentState::Voided, None)),
            Some(Report::Error {
                code: "payment_failed",
                message: Msg::ResultFailedDetail
            })
        );
        assert_eq!(
            report(&result(PaymentState::Blocked, None)),
            Some(Report::Error {
                code: "card_refused",
                message: Msg::CardRefused
            })
        );
        assert_eq!(report(&result(PaymentState::NeedsReview, None)), None);
        assert_eq!(report(&result(PaymentState::Pending, None)), None);
    }
}
