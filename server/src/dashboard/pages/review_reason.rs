//! Why a payment waits for staff, said so that a person knows what to do: the reason the
//! reconciler recorded (`ReviewReason`) and, for one that cannot be looked up, what to look
//! for in the gateway's portal (card, amount, time, the reference the gateway saw).

use maud::{Markup, html};

use super::format;
use crate::dashboard::money;
use crate::store::model::{Payment, ReviewReason};

/// One short line naming the reason, for the queue's table.
pub fn headline(p: &Payment) -> &'static str {
    match p.review_reason {
        Some(ReviewReason::UnverifiedAtTheBank) => "Left at the bank: may have been charged",
        Some(ReviewReason::OutcomeUnknown) => "Gateway answer lost: may have been charged",
        Some(ReviewReason::StillPendingAtTheGateway) => "Still pending at the gateway",
        Some(ReviewReason::GatewayDisagrees) => "Gateway's record does not match",
        None => "Outcome not learned yet",
    }
}

/// The reason with what to check and how to resolve it.
pub fn explain(p: &Payment) -> Markup {
    let look_for = html! {
        ul {
            li { "card " (format::card(p.card.as_ref())) }
            li { "amount " (money::format(p.amount, &p.currency)) }
            li { "time around " (format::when(p.retry.redirected_at.or(p.pending_since).unwrap_or(p.created_at))) }
            li { "reference " code { (p.merchant_txn_ref) } " (the shop's reference and the attempt number)" }
        }
    };
    let attach_or_resolve = "If you find such a transaction, attach its id: it is confirmed with \
        the gateway, and if the session was paid by another attempt it is reversed at once. If \
        there is none, resolve the payment as failed.";
    match p.review_reason {
        Some(ReviewReason::UnverifiedAtTheBank) => html! {
            p { "The shopper was sent to the bank for 3-D Secure and never came back, and the gateway sent no notification. Its answer to a 3-D Secure start names no transaction, so this attempt cannot be looked up: the bank may have approved and charged it. Look in the gateway's portal for a transaction with:" }
            (look_for)
            p { (attach_or_resolve) }
        },
        Some(ReviewReason::OutcomeUnknown) => html! {
            p { "The call to the gateway got no usable answer (time-out, server error or an unreadable reply), and no transaction id is known: the gateway may have charged it. Look in the gateway's portal for a transaction with:" }
            (look_for)
            p { (attach_or_resolve) }
        },
        Some(ReviewReason::StillPendingAtTheGateway) => html! {
            p { "The gateway still reports this transaction as pending after the deadline. It is asked again every hour; ask now, or check it with the gateway." }
        },
        Some(ReviewReason::GatewayDisagrees) => html! {
            p { "The gateway's record of the transaction does not match this payment (amount, currency, reference or type), so no outcome was recorded. Check the transaction in the gateway's portal; attach the right transaction id, or resolve as failed." }
        },
        None => html! {
            p { "No outcome has been learned yet. Ask the gateway now, or attach the transaction id from the gateway's portal." }
        },
    }
}
