//! The merchant API's shapes of sessions, payments and cards.
//! Times are RFC 3339; amounts minor units.

use checkout::card::Brand;
use checkout::contract::{DeclineCode, PaymentState};
use serde::Serialize;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::store::model::{
    CaptureMode, CardSummary, Payment, ReviewReason, Session, SessionKeeper, WebhookEvent,
};
use checkout::currency::Currency;

/// A checkout session as the merchant sees it.
#[derive(Debug, Clone, Serialize)]
pub struct SessionView {
    /// Session id.
    pub id: String,
    /// The browser's secret for this session: only in the creation answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub client_secret: Option<String>,
    /// Minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Digits after the decimal point of `currency`.
    pub currency_exponent: u8,
    /// The shop's order reference (sent as `merchant_txn_ref`).
    pub reference: String,
    /// True: purchase; false: authorization only (capture later).
    pub capture: bool,
    /// The shop's customer id.
    pub customer_id: Option<String>,
    /// Customer e-mail.
    pub email: Option<String>,
    /// Plan of a subscription session.
    pub plan_id: Option<String>,
    /// Shown on the form.
    pub description: Option<String>,
    /// The payment link a payer started it from (`None`: the shop's backend made it).
    pub payment_link_id: Option<String>,
    /// The payer's own reference, given on the link's page.
    pub payer_reference: Option<String>,
    /// `open`, `processing`, `paid` or `expired`. `paid` is for good: once a payment of the
    /// session was authorized or captured the session takes no other pay, whatever happens
    /// to that payment later (a refund or void of it is the order's, told by its own events).
    pub status: &'static str,
    /// The payment that paid the session (its keeper), once paid: the one whose refunds and
    /// voids are the order's. Any other charge of the session is reversed as a duplicate
    /// (`surplus_of` names this one).
    pub paid_by: Option<String>,
    /// When it was paid.
    pub paid_at: Option<String>,
    /// Creation time.
    pub created_at: String,
    /// Last moment it can be paid.
    pub expires_at: String,
    /// The browser API path of this session.
    pub checkout_path: String,
    /// Its payments, newest first (absent from the creation answer).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payments: Option<Vec<PaymentView>>,
}

impl SessionView {
    /// The view of `session`, paid by `keeper` if it is, with `payments` (newest first), at
    /// `now`.
    pub fn new(
        session: &Session,
        keeper: Option<&SessionKeeper>,
        payments: Option<&[Payment]>,
        now: OffsetDateTime,
    ) -> Self {
        let status = session_status(session, keeper, payments.unwrap_or_default(), now);
        Self {
            id: session.id.clone(),
            client_secret: None,
            amount: session.amount,
            currency: session.currency.clone(),
            currency_exponent: Currency::find(&session.currency).map_or(2, |c| c.exponent),
            reference: session.reference.clone(),
            capture: session.capture_mode == CaptureMode::Capture,
            customer_id: session.customer_id.clone(),
            email: session.email.clone(),
            plan_id: session.plan_id.clone(),
            description: session.description.clone(),
            payment_link_id: session.link.as_ref().map(|l| l.payment_link_id.clone()),
            payer_reference: session
                .link
                .as_ref()
                .and_then(|l| l.payer_reference.clone()),
            status,
            paid_by: keeper.map(|k| k.payment_id.clone()),
            paid_at: keeper.map(|k| rfc3339(k.paid_at)),
            created_at: rfc3339(session.created_at),
            expires_at: rfc3339(session.expires_at),
            checkout_path: checkout::contract::routes::checkout_path(&session.id),
            payments: payments.map(|p| p.iter().map(PaymentView::new).collect()),
        }
    }
}

fn session_status(
    session: &Session,
    keeper: Option<&SessionKeeper>,
    payments: &[Payment],
    now: OffsetDateTime,
) -> &'static str {
    if keeper.is_some() {
        "paid"
    } else if payments.iter().any(|p| {
        // A superseded payment waits at the bank for nobody: the session is payable again.
        (!p.state.is_settled() || p.state == PaymentState::NeedsReview)
            && p.retry.superseded_by.is_none()
    }) {
        "processing"
    } else if session.is_expired_at(now) {
        "expired"
    } else {
        "open"
    }
}

/// A payment as the merchant sees it.
#[derive(Debug, Clone, Serialize)]
pub struct PaymentView {
    /// Payment id.
    pub id: String,
    /// Its session.
    pub session_id: String,
    /// The session's customer.
    pub customer_id: Option<String>,
    /// The payment link its session was started from.
    pub payment_link_id: Option<String>,
    /// `payment_v2`, `authorization_v2`, `token_payment`, `token_authorization`, `subscription`.
    pub kind: &'static str,
    /// Current state.
    pub state: PaymentState,
    /// Minor units.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: String,
    /// Captured so far.
    pub captured_amount: u64,
    /// Refunded so far.
    pub refunded_amount: u64,
    /// What can still be refunded.
    pub refundable_amount: u64,
    /// `merchant_txn_ref`.
    pub reference: String,
    /// Its place among the session's payments (1, 2, …); the gateway saw `reference`, the
    /// session's reference with `-<attempt_number>` appended. `null` for payments recorded
    /// before attempts were numbered.
    pub attempt_number: Option<u32>,
    /// The gateway's transaction id, once known.
    pub gateway_transaction_id: Option<String>,
    /// Why it was declined.
    pub decline_code: Option<DeclineCode>,
    /// For a `blocked` payment, the card-testing rule that fired (`cards_per_session`, …).
    pub risk_rule: Option<String>,
    /// The gateway's response code.
    pub response_code: Option<i64>,
    /// Brand, first six, last four and expiry: nothing more is kept.
    pub card: Option<CardView>,
    /// The saved card used.
    pub saved_card_id: Option<String>,
    /// The subscription it started.
    pub subscription_id: Option<String>,
    /// Gateway calls made for it.
    pub attempts: u32,
    /// The later payment of the same session that took its place while this one waited at
    /// the bank (3-D Secure); `null` when none did.
    pub superseded_by: Option<String>,
    /// The payment of the same session that keeps the charge (the session's `paid_by`), when
    /// this one was a second charge of the session and is (to be) voided or refunded; `null`
    /// otherwise. Such a payment's events never mean the order was paid or refunded.
    pub surplus_of: Option<String>,
    /// Why it was voided or refunded, once it was: `duplicate_attempt` for a second charge
    /// of the session reversed by the server itself (`surplus_of` is set; the order stays
    /// paid by `surplus_of`), `requested_by_merchant` for a refund or void the shop or its
    /// staff asked for (it is the order's). `null` while nothing was reversed.
    pub reversal_reason: Option<&'static str>,
    /// Why it waits for a person (`needs_review`): `unverified_at_the_bank`,
    /// `outcome_unknown`, `still_pending_at_the_gateway` or `gateway_disagrees`.
    pub review_reason: Option<&'static str>,
    /// Recorded.
    pub created_at: String,
    /// Last changed.
    pub updated_at: String,
}

impl PaymentView {
    /// The view of `payment`.
    pub fn new(payment: &Payment) -> Self {
        Self {
            id: payment.id.clone(),
            session_id: payment.session_id.clone(),
            customer_id: payment.customer_id.clone(),
            payment_link_id: payment.payment_link_id.clone(),
            kind: payment.kind.as_str(),
            state: payment.state,
            amount: payment.amount,
            currency: payment.currency.clone(),
            captured_amount: payment.captured_amount,
            refunded_amount: payment.refunded_amount,
            refundable_amount: payment.refundable(),
            reference: payment.merchant_txn_ref.clone(),
            attempt_number: payment.attempt_number,
            gateway_transaction_id: payment.gateway_transaction_id.clone(),
            decline_code: payment.decline_code,
            risk_rule: payment.risk_rule.clone(),
            response_code: payment.response_code,
            card: payment.card.as_ref().map(CardView::new),
            saved_card_id: payment.saved_card_id.clone(),
            subscription_id: payment.subscription_id.clone(),
            attempts: payment.attempts,
            superseded_by: payment.retry.superseded_by.clone(),
            surplus_of: payment.retry.surplus_of.clone(),
            reversal_reason: reversal_reason(payment),
            review_reason: payment.review_reason.map(ReviewReason::as_str),
            created_at: rfc3339(payment.created_at),
            updated_at: rfc3339(payment.updated_at),
        }
    }
}

/// Why `payment` was voided or refunded (wholly or in part), if it was.
fn reversal_reason(payment: &Payment) -> Option<&'static str> {
    let reversed = payment.refunded_amount > 0 || payment.state == PaymentState::Voided;
    match (reversed, &payment.retry.surplus_of) {
        (false, _) => None,
        (true, Some(_)) => Some("duplicate_attempt"),
        (true, None) => Some("requested_by_merchant"),
    }
}

/// One payment with the gateway's webhook deliveries recorded for it (`GET /v1/payments/{id}`).
#[derive(Debug, Clone, Serialize)]
pub struct PaymentDetail {
    /// The payment.
    #[serde(flatten)]
    pub payment: PaymentView,
    /// Every delivery, oldest first.
    pub webhooks: Vec<WebhookView>,
}

impl PaymentDetail {
    /// The view of `payment` and its `webhooks`.
    pub fn new(payment: &Payment, webhooks: &[WebhookEvent]) -> Self {
        Self {
            payment: PaymentView::new(payment),
            webhooks: webhooks.iter().map(WebhookView::new).collect(),
        }
    }
}

/// A webhook delivery and what the server concluded about it (the body itself is not kept).
#[derive(Debug, Clone, Serialize)]
pub struct WebhookView {
    /// Sequence number.
    pub id: i64,
    /// Arrival time.
    pub received_at: String,
    /// `received` (not judged yet), `confirmed`, `duplicate`, `forged` or `mismatch`.
    pub verdict: &'static str,
    /// The outcome it claimed.
    pub claimed_state: Option<PaymentState>,
    /// The amount it claimed, minor units.
    pub claimed_amount: Option<u64>,
    /// The currency it claimed.
    pub claimed_currency: Option<String>,
    /// The gateway transaction id it carried.
    pub gateway_transaction_id: Option<String>,
    /// For a duplicate: the id of the first delivery with the same body.
    pub duplicate_of: Option<i64>,
}

impl WebhookView {
    fn new(event: &WebhookEvent) -> Self {
        Self {
            id: event.id,
            received_at: rfc3339(event.received_at),
            verdict: event.verdict.as_str(),
            claimed_state: event.claimed_state,
            claimed_amount: event.claimed_amount,
            claimed_currency: event.claimed_currency.clone(),
            gateway_transaction_id: event.gateway_transaction_id.clone(),
            duplicate_of: event.duplicate_of,
        }
    }
}

/// The card of a payment.
#[derive(Debug, Clone, Serialize)]
pub struct CardView {
    /// Scheme.
    pub brand: Brand,
    /// First six digits (absent for saved-card payments).
    pub bin: Option<String>,
    /// Last four digits.
    pub last4: String,
    /// Month, 1–12.
    pub expiry_month: u8,
    /// Four-digit year.
    pub expiry_year: u16,
}

impl CardView {
    fn new(card: &CardSummary) -> Self {
        Self {
            brand: card.brand,
            bin: card.bin.as_ref().map(|b| b.as_str().to_owned()),
            last4: card.last4.as_str().to_owned(),
            expiry_month: card.expiry_month,
            expiry_year: card.expiry_year,
        }
    }
}

/// A page of payments.
#[derive(Debug, Clone, Serialize)]
pub struct PaymentList {
    /// The payments, newest first.
    pub data: Vec<PaymentView>,
    /// Pass as `after` for the next page; absent on the last.
    pub next_cursor: Option<String>,
}

/// RFC 3339 text of `at`.
pub fn rfc3339(at: OffsetDateTime) -> String {
    at.format(&Rfc3339)
        .unwrap_or_else(|_| at.unix_timestamp().to_string())
}
