//! The payment service: everything between an HTTP handler and the gateway.
//!
//! Rules kept here, in one place:
//! - a payment is recorded (`created`, then `pending`) before the gateway is called, and is
//!   only ever moved forward afterwards (the store's compare-and-set state machine);
//! - an unknown outcome (timeout, 5xx, unreadable answer) stays `pending` until the status
//!   endpoint settles it; it is never sent again;
//! - every hint (return redirect, webhook) is confirmed with the status endpoint, and amount,
//!   currency, reference and transaction type are checked against the record, before an
//!   outcome is recorded;
//! - a session is paid once, for good, by its keeper ([`keeper`]: the one answer to "is it
//!   paid?"); it has at most one payment in flight at a time and none once paid ([`claim`]); a
//!   3-D Secure payment left at the bank is superseded, not in flight ([`supersede`]), and a
//!   second charge that still comes is reversed ([`surplus`]);
//! - an outcome that cannot be proven either way goes to staff with its reason, never to
//!   `failed` ([`review`]);
//! - a try the card-testing rules refuse is recorded `blocked`, never sent, and answered
//!   `blocked` with no decline code and no rule ([`screen`]).
//!
//! Files: [`card_input`] (card rules), [`request`] (wire requests), [`pay`] (the pay call),
//! [`outcome`] (gateway answers → state steps), [`settle`] (status confirmation),
//! [`webhook`] (notifications), [`adjust`] (capture, refund, void), [`review`] (the
//! review queue: staff-supplied transaction ids, resolving as failed), [`subscription`]
//! (first charge of a plan), [`signup`] (a sign-up's record, open until its outcome is known),
//! [`subscription_record`] (the subscription a sign-up made), [`keeper`] (whether a session is
//! paid, and by which payment), [`urls`] (this server's own addresses), [`supersede`] (paying
//! again while a 3-D Secure payment waits at the bank), [`surplus`] (reversing a second
//! charge of one session), [`links`] (payment links: a session made when a payer pays a
//! link), [`client_secret`] (the browser's key to a session, derived).

pub mod adjust;
pub mod card_input;
pub mod claim;
pub mod client_secret;
mod error;
pub mod keeper;
pub mod links;
pub mod outcome;
pub mod pay;
pub mod pay_method;
pub mod request;
pub mod review;
pub mod screen;
pub mod settle;
pub mod signup;
pub mod subscription;
pub mod subscription_record;
pub mod supersede;
pub mod surplus;
pub mod urls;
pub mod webhook;

use std::sync::Arc;
use std::time::Duration;

use checkout::contract::{PayResponse, PaymentResult, PaymentState};
use time::OffsetDateTime;

pub use error::PaymentError;
pub use request::Shopper;
pub use settle::{Hint, HintFrom, Settlement, StatusVerdict};
pub use urls::{Landing, PublicUrls};

use crate::config::{
    CardFingerprintKey, PlanCatalogue, RiskSettings, SubscriptionSettings, Timing,
};
use crate::gateway::GatewayClient;
use crate::risk::RiskService;
use crate::store::Store;
use crate::store::model::{Page, Payment, PaymentQuery};

/// What the payment service needs to know beyond the store and the gateway.
#[derive(Debug, Clone)]
pub struct PaymentSettings {
    /// `merchant_id` on every gateway request.
    pub merchant_id: String,
    /// This server's public addresses and the shop's landing pages.
    pub urls: PublicUrls,
    /// Follow-up times for pending payments.
    pub timing: Timing,
    /// Subscription plans.
    pub plans: PlanCatalogue,
    /// How long one gateway call may take; a pay claim older than twice this with no payment
    /// behind it is considered abandoned.
    pub gateway_timeout: Duration,
    /// The card-testing rules' thresholds.
    pub risk: RiskSettings,
    /// The card fingerprint's key.
    pub card_fingerprint_key: CardFingerprintKey,
    /// Whether a customer may hold several live subscriptions to one plan.
    pub subscriptions: SubscriptionSettings,
}

/// The payment service. Cloning is one `Arc` increment.
#[derive(Clone)]
pub struct PaymentService {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn Store>,
    gateway: GatewayClient,
    risk: RiskService,
    settings: PaymentSettings,
    instance_id: String,
}

impl std::fmt::Debug for PaymentService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentService")
            .field("instance_id", &self.inner.instance_id)
            .field("merchant_id", &self.inner.settings.merchant_id)
            .finish_non_exhaustive()
    }
}

impl PaymentService {
    /// A service over `store` and `gateway`.
    pub fn new(store: Arc<dyn Store>, gateway: GatewayClient, settings: PaymentSettings) -> Self {
        let risk = RiskService::new(
            store.clone(),
            settings.card_fingerprint_key.clone(),
            settings.risk,
        );
        Self {
            inner: Arc::new(Inner {
                store,
                gateway,
                risk,
                settings,
                instance_id: format!("instance-{}", uuid::Uuid::new_v4()),
            }),
        }
    }

    /// The store.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.inner.store
    }

    /// The gateway client.
    pub fn gateway(&self) -> &GatewayClient {
        &self.inner.gateway
    }

    /// The card-testing rules.
    pub fn risk(&self) -> &RiskService {
        &self.inner.risk
    }

    /// The settings.
    pub fn settings(&self) -> &PaymentSettings {
        &self.inner.settings
    }

    /// This process's id for leases (unique per start).
    pub fn instance_id(&self) -> &str {
        &self.inner.instance_id
    }

    /// The newest payment of `session_id`, if any.
    pub async fn latest_payment(&self, session_id: &str) -> Result<Option<Payment>, PaymentError> {
        let page = self.session_payments(session_id, 1).await?;
        Ok(page.items.into_iter().next())
    }

    /// Up to `limit` payments of `session_id`, newest first.
    pub async fn session_payments(
        &self,
        session_id: &str,
        limit: u32,
    ) -> Result<Page<Payment>, PaymentError> {
        Ok(self
            .store()
            .list_payments(PaymentQuery {
                session_id: Some(session_id.to_owned()),
                limit,
                ..PaymentQuery::default()
            })
            .await?)
    }
}

/// The final (or "processing") answer to a pay call for `payment`.
pub fn answer(payment: &Payment) -> PayResponse {
    PayResponse::None {
        result: payment_result(payment),
    }
}

/// The component's view of a payment. A try refused before the gateway (a block list or a
/// card-testing rule) is `blocked` and nothing more: one generic answer, never the rule (which
/// would tell a card tester what to rotate), and never an issuer's decline (which would send a
/// real shopper to their bank for nothing). The rule is for the shop: the merchant API, its
/// events and the dashboard.
pub fn payment_result(payment: &Payment) -> PaymentResult {
    let (state, decline) = match payment.state {
        PaymentState::Declined => (PaymentState::Declined, payment.decline_code),
        state => (state, None),
    };
    PaymentResult {
        payment_id: payment.id.clone(),
        state,
        amount: payment.amount,
        currency: payment.currency.clone(),
        decline,
        subscription_id: payment.subscription_id.clone(),
    }
}

/// Now, in UTC.
pub(crate) fn now() -> OffsetDateTime {
    OffsetDateTime::now_utc()
}

/// How long after it began a request that holds a claim or an `Idempotency-Key` must have
/// finished, whatever the gateway did: twice the gateway timeout and 10 s more. A claim still
/// held after that belongs to a process that died.
pub(crate) fn abandoned_after(gateway_timeout: Duration) -> time::Duration {
    time::Duration::try_from(gateway_timeout * 2).unwrap_or(time::Duration::MINUTE)
        + time::Duration::seconds(10)
}

/// `now + duration`, saturating.
pub(crate) fn later(duration: Duration) -> OffsetDateTime {
    let span = time::Duration::try_from(duration).unwrap_or(time::Duration::DAY);
    now().saturating_add(span)
}
