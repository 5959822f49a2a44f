//! The tries the bench records: each in a checkout of its own (opened before the timing, so
//! each claim is free, as a first try's), like a seeded typed-card payment, and recorded
//! with its counts and judged as the pay call does.

use std::net::IpAddr;
use std::sync::Arc;

use checkout_server::risk::{RiskService, TryKind, Verdict};
use checkout_server::store::Store;
use checkout_server::store::model::{IdempotencyKey, NewPayment, Payment, RiskFacts};
use checkout_server::store::secret::BodyDigest;
use rand::Rng;

/// The checkouts for the tries, read back after [`sessions_sql`].
pub const SESSIONS: &str = "SELECT id FROM checkout_sessions WHERE id LIKE 'try-%'";

/// Opens `count` checkouts (`try-<payment id>`) like the seed's, for the tries; the same SQL
/// on both databases.
pub fn sessions_sql(count: usize) -> String {
    format!(
        "INSERT INTO checkout_sessions (id, client_secret_hash, amount, currency, reference, \
         capture_mode, created_at, expires_at) \
         SELECT 'try-' || p.id, s.client_secret_hash, s.amount, s.currency, s.reference, \
         s.capture_mode, s.created_at, s.expires_at \
         FROM (SELECT id FROM payments ORDER BY id LIMIT {count}) AS p, checkout_sessions AS s \
         WHERE s.id = 'bench-session'"
    )
}

/// A try of `session_id` like `template` (its kind, amount and card), by `customer_id`, with
/// `risk`'s facts.
pub fn like(
    template: &Payment,
    session_id: String,
    customer_id: Option<String>,
    risk: RiskFacts,
) -> NewPayment {
    NewPayment {
        session_id,
        customer_id,
        kind: template.kind,
        amount: template.amount,
        currency: template.currency.clone(),
        merchant_txn_ref: template.merchant_txn_ref.clone(),
        card: template.card.clone(),
        saved_card_id: None,
        save_card: false,
        save_card_billing: None,
        next_check_at: template.created_at,
        review_deadline: template.created_at,
        risk,
    }
}

/// Records tries as the pay call does, each claiming its checkout.
pub struct Recorder<'a> {
    store: &'a Arc<dyn Store>,
    risk: &'a RiskService,
    digest: BodyDigest,
}

impl<'a> Recorder<'a> {
    pub fn new(store: &'a Arc<dyn Store>, risk: &'a RiskService) -> Self {
        Self {
            store,
            risk,
            digest: BodyDigest::of(b"session-pay-claim"),
        }
    }

    /// Records `new` without counts.
    pub async fn plain(&self, new: NewPayment) -> Payment {
        let claim = claim_of(&new.session_id);
        self.store
            .claim_and_create_pending_payment(&claim, &self.digest, new)
            .await
            .expect("recorded")
            .expect("a free claim")
    }

    /// Records `new` with the counts of a try of `kind` from `client` and judges it.
    pub async fn counted(&self, new: NewPayment, kind: TryKind, client: IpAddr) -> Verdict {
        let claim = claim_of(&new.session_id);
        let query = self.risk.count_query(&new, kind, client);
        let recorded = self
            .store
            .claim_create_and_count(&claim, &self.digest, new, &query)
            .await
            .expect("recorded")
            .expect("a free claim");
        let counts = recorded.counts.expect("counts");
        self.risk
            .judge(&recorded.payment, &counts, kind)
            .await
            .expect("judged")
    }

    /// Records `new` without counts, then checks its typed card by a statement of its own.
    pub async fn apart(&self, new: NewPayment, client: IpAddr) -> Verdict {
        let facts = new.risk.clone();
        let payment = self.plain(new).await;
        self.risk
            .check(&payment, &facts, TryKind::TypedCard, client)
            .await
            .expect("checked")
    }
}

/// The pay claim of `session`, as the pay call takes it.
fn claim_of(session: &str) -> IdempotencyKey {
    IdempotencyKey::new("session-pay", session).expect("a claim key")
}

/// A random 16-digit number passing Luhn.
pub fn random_number(rng: &mut impl Rng) -> String {
    let mut digits: Vec<u32> = vec![4];
    digits.extend((0..14).map(|_| rng.random_range(0..10)));
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| match (i % 2 == 0, d * 2) {
            (true, twice) if twice > 9 => twice - 9,
            (true, twice) => twice,
            (false, _) => d,
        })
        .sum();
    digits.push((10 - sum % 10) % 10);
    digits
        .iter()
        .map(|d| char::from_digit(*d, 10).unwrap_or('0'))
        .collect()
}
