//! Rows as the database returns them, the column lists that produce them, and their
//! conversion into the model (every stored name and number is checked on the way out).

use checkout::card::Brand;
use serde::Deserialize;
use sqlx::FromRow;

use super::codec::{named, time, time_opt, unsigned};
use crate::store::error::{StoreError, StoreResult};
use crate::store::model::*;
use crate::store::secret::{BodyDigest, SecretHash};
use crate::store::transitions::parse_state;

/// Columns of [`SessionRow`].
pub(crate) const SESSION_COLUMNS: &str = "id, client_secret_hash, amount, currency, reference, \
     capture_mode, customer_id, email, plan_id, description, created_at, expires_at, \
     payment_link_id, payer_reference, receipt_id";

#[derive(FromRow, Deserialize)]
pub(crate) struct SessionRow {
    id: String,
    client_secret_hash: String,
    amount: i64,
    currency: String,
    reference: String,
    capture_mode: String,
    customer_id: Option<String>,
    email: Option<String>,
    plan_id: Option<String>,
    description: Option<String>,
    created_at: i64,
    expires_at: i64,
    payment_link_id: Option<String>,
    payer_reference: Option<String>,
    receipt_id: Option<String>,
}

impl TryFrom<SessionRow> for Session {
    type Error = StoreError;

    fn try_from(row: SessionRow) -> StoreResult<Self> {
        Ok(Session {
            id: row.id,
            client_secret_hash: SecretHash::from_hex(&row.client_secret_hash)
                .ok_or(StoreError::Corrupt("client_secret_hash"))?,
            amount: unsigned(row.amount, "amount")?,
            currency: row.currency,
            reference: row.reference,
            capture_mode: named(&row.capture_mode, "capture_mode", CaptureMode::parse)?,
            customer_id: row.customer_id,
            email: row.email,
            plan_id: row.plan_id,
            description: row.description,
            created_at: time(row.created_at, "created_at")?,
            expires_at: time(row.expires_at, "expires_at")?,
            link: match (row.payment_link_id, row.receipt_id) {
                (Some(payment_link_id), Some(receipt_id)) => Some(SessionLink {
                    payment_link_id,
                    payer_reference: row.payer_reference,
                    receipt_id,
                }),
                (None, None) => None,
                _ => return Err(StoreError::Corrupt("checkout_sessions.receipt_id")),
            },
        })
    }
}

/// Columns of [`PaymentRow`].
pub(crate) const PAYMENT_COLUMNS: &str = "id, session_id, customer_id, kind, state, amount, \
     currency, merchant_txn_ref, gateway_transaction_id, gateway_ref, response_code, \
     decline_code, card_brand, card_bin, card_last4, card_expiry_month, card_expiry_year, \
     saved_card_id, captured_amount, refunded_amount, attempts, subscription_id, \
     webhook_token_hash, transaction_hint, save_card, pending_since, review_deadline, \
     next_check_at, lease_owner, lease_until, created_at, updated_at, redirected_at, \
     superseded_by, superseded_at, paid_at, surplus_due_at, surplus_of, surplus_failures, \
     risk_rule, card_fingerprint, client_key, attempt_number, review_reason, payment_link_id";

#[derive(FromRow, Deserialize)]
pub(crate) struct PaymentRow {
    id: String,
    session_id: String,
    customer_id: Option<String>,
    kind: String,
    state: String,
    amount: i64,
    currency: String,
    merchant_txn_ref: String,
    gateway_transaction_id: Option<String>,
    gateway_ref: Option<i64>,
    response_code: Option<i64>,
    decline_code: Option<String>,
    card_brand: Option<String>,
    card_bin: Option<String>,
    card_last4: Option<String>,
    card_expiry_month: Option<i64>,
    card_expiry_year: Option<i64>,
    saved_card_id: Option<String>,
    captured_amount: i64,
    refunded_amount: i64,
    attempts: i64,
    subscription_id: Option<String>,
    webhook_token_hash: String,
    transaction_hint: Option<String>,
    save_card: i64,
    pending_since: Option<i64>,
    review_deadline: i64,
    next_check_at: Option<i64>,
    lease_owner: Option<String>,
    lease_until: Option<i64>,
    created_at: i64,
    updated_at: i64,
    // Migration 0012; events written before it carry none of these.
    #[serde(default)]
    redirected_at: Option<i64>,
    #[serde(default)]
    superseded_by: Option<String>,
    #[serde(default)]
    superseded_at: Option<i64>,
    #[serde(default)]
    paid_at: Option<i64>,
    #[serde(default)]
    surplus_due_at: Option<i64>,
    #[serde(default)]
    surplus_of: Option<String>,
    #[serde(default)]
    surplus_failures: i64,
    // Migration 0016; only the `payment.blocked` event's snapshot carries the rule.
    #[serde(default)]
    risk_rule: Option<String>,
    #[serde(default)]
    card_fingerprint: Option<String>,
    #[serde(default)]
    client_key: Option<String>,
    // Migration 0026.
    #[serde(default)]
    attempt_number: Option<i64>,
    #[serde(default)]
    review_reason: Option<String>,
    // Migration 0038.
    #[serde(default)]
    payment_link_id: Option<String>,
}

impl PaymentRow {
    fn retry(&mut self) -> StoreResult<RetryMarks> {
        Ok(RetryMarks {
            redirected_at: time_opt(self.redirected_at, "redirected_at")?,
            superseded_by: self.superseded_by.take(),
            superseded_at: time_opt(self.superseded_at, "superseded_at")?,
            paid_at: time_opt(self.paid_at, "paid_at")?,
            surplus_due_at: time_opt(self.surplus_due_at, "surplus_due_at")?,
            surplus_of: self.surplus_of.take(),
            surplus_failures: unsigned(self.surplus_failures, "surplus_failures")?,
        })
    }

    fn card(&self) -> StoreResult<Option<CardSummary>> {
        let (Some(brand), Some(last4), Some(month), Some(year)) = (
            &self.card_brand,
            &self.card_last4,
            self.card_expiry_month,
            self.card_expiry_year,
        ) else {
            return Ok(None);
        };
        let corrupt = |_| StoreError::Corrupt("card");
        Ok(Some(CardSummary {
            brand: named(brand, "card_brand", Brand::from_id)?,
            bin: self
                .card_bin
                .as_deref()
                .map(Bin::new)
                .transpose()
                .map_err(corrupt)?,
            last4: Last4::new(last4).map_err(corrupt)?,
            expiry_month: unsigned(month, "card_expiry_month")?,
            expiry_year: unsigned(year, "card_expiry_year")?,
        }))
    }
}

impl TryFrom<PaymentRow> for Payment {
    type Error = StoreError;

    fn try_from(mut row: PaymentRow) -> StoreResult<Self> {
        let card = row.card()?;
        let retry = row.retry()?;
        Ok(Payment {
            card,
            retry,
            kind: named(&row.kind, "kind", PaymentKind::parse)?,
            state: named(&row.state, "state", parse_state)?,
            amount: unsigned(row.amount, "amount")?,
            decline_code: row
                .decline_code
                .as_deref()
                .map(|name| named(name, "decline_code", super::codec::parse_decline))
                .transpose()?,
            captured_amount: unsigned(row.captured_amount, "captured_amount")?,
            refunded_amount: unsigned(row.refunded_amount, "refunded_amount")?,
            attempts: unsigned(row.attempts, "attempts")?,
            attempt_number: row
                .attempt_number
                .map(|n| unsigned(n, "attempt_number"))
                .transpose()?,
            review_reason: row
                .review_reason
                .as_deref()
                .map(|name| named(name, "review_reason", ReviewReason::parse))
                .transpose()?,
            payment_link_id: row.payment_link_id,
            webhook_token_hash: SecretHash::from_hex(&row.webhook_token_hash)
                .ok_or(StoreError::Corrupt("webhook_token_hash"))?,
            webhook_token: None,
            save_card: row.save_card != 0,
            pending_since: time_opt(row.pending_since, "pending_since")?,
            review_deadline: time(row.review_deadline, "review_deadline")?,
            next_check_at: time_opt(row.next_check_at, "next_check_at")?,
            lease_until: time_opt(row.lease_until, "lease_until")?,
            created_at: time(row.created_at, "created_at")?,
            updated_at: time(row.updated_at, "updated_at")?,
            id: row.id,
            session_id: row.session_id,
            customer_id: row.customer_id,
            currency: row.currency,
            merchant_txn_ref: row.merchant_txn_ref,
            gateway_transaction_id: row.gateway_transaction_id,
            transaction_hint: row.transaction_hint,
            gateway_ref: row.gateway_ref,
            response_code: row.response_code,
            saved_card_id: row.saved_card_id,
            subscription_id: row.subscription_id,
            lease_owner: row.lease_owner,
            risk_rule: row.risk_rule,
            card_fingerprint: row.card_fingerprint,
            client_key: row.client_key,
        })
    }
}

/// Columns of [`AttemptRow`].
pub(crate) const ATTEMPT_COLUMNS: &str = "id, payment_id, subscription_id, endpoint, started_at, \
     finished_at, latency_us, outcome, http_status";

#[derive(FromRow)]
pub(crate) struct AttemptRow {
    id: i64,
    payment_id: Option<String>,
    subscription_id: Option<String>,
    endpoint: String,
    started_at: i64,
    finished_at: i64,
    latency_us: i64,
    outcome: String,
    http_status: Option<i64>,
}

impl TryFrom<AttemptRow> for GatewayAttempt {
    type Error = StoreError;

    fn try_from(row: AttemptRow) -> StoreResult<Self> {
        Ok(GatewayAttempt {
            id: row.id,
            payment_id: row.payment_id,
            subscription_id: row.subscription_id,
            endpoint: row.endpoint,
            started_at: time(row.started_at, "started_at")?,
            finished_at: time(row.finished_at, "finished_at")?,
            latency_us: row.latency_us,
            outcome: named(&row.outcome, "outcome", AttemptOutcome::parse)?,
            http_status: row
                .http_status
                .map(|s| unsigned(s, "http_status"))
                .transpose()?,
        })
    }
}

/// Columns of [`WebhookRow`].
pub(crate) const WEBHOOK_COLUMNS: &str = "id, payment_id, received_at, body_digest, \
     gateway_transaction_id, claimed_state, claimed_amount, claimed_currency, verdict, \
     duplicate_of";

#[derive(FromRow)]
pub(crate) struct WebhookRow {
    id: i64,
    payment_id: String,
    received_at: i64,
    body_digest: String,
    gateway_transaction_id: Option<String>,
    claimed_state: Option<String>,
    claimed_amount: Option<i64>,
    claimed_currency: Option<String>,
    verdict: String,
    duplicate_of: Option<i64>,
}

impl TryFrom<WebhookRow> for WebhookEvent {
    type Error = StoreError;

    fn try_from(row: WebhookRow) -> StoreResult<Self> {
        Ok(WebhookEvent {
            id: row.id,
            payment_id: row.payment_id,
            received_at: time(row.received_at, "received_at")?,
            body_digest: BodyDigest::from_hex(&row.body_digest)
                .ok_or(StoreError::Corrupt("body_digest"))?,
            gateway_transaction_id: row.gateway_transaction_id,
            claimed_state: row
                .claimed_state
                .as_deref()
                .map(|s| named(s, "claimed_state", parse_state))
                .transpose()?,
            claimed_amount: row
                .claimed_amount
                .map(|a| unsigned(a, "claimed_amount"))
                .transpose()?,
            claimed_currency: row.claimed_currency,
            verdict: named(&row.verdict, "verdict", WebhookVerdict::parse)?,
            duplicate_of: row.duplicate_of,
        })
    }
}

/// A statement's single `id` column (to learn whether a guarded write matched a row).
#[derive(FromRow)]
pub(crate) struct IdRow {
    pub(crate) id: String,
}

/// Columns of [`EventRow`].
pub(super) const EVENT_COLUMNS: &str =
    "seq, id, type, object_type, object_id, created_at, snapshot";

#[derive(FromRow)]
pub(crate) struct EventRow {
    seq: i64,
    id: String,
    #[sqlx(rename = "type")]
    kind: String,
    object_type: String,
    object_id: String,
    created_at: i64,
    snapshot: String,
}

impl TryFrom<EventRow> for StoredEvent {
    type Error = StoreError;

    fn try_from(row: EventRow) -> StoreResult<Self> {
        Ok(StoredEvent {
            created_at: time(row.created_at, "created_at")?,
            seq: row.seq,
            id: row.id,
            kind: row.kind,
            object_type: row.object_type,
            object_id: row.object_id,
            snapshot: row.snapshot,
        })
    }
}

#[derive(FromRow)]
pub(crate) struct SeqRow {
    pub(super) seq: i64,
}
