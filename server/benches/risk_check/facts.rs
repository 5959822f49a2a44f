//! The card-testing facts of a busy shop's payments: the seed (`support/seed.rs`) leaves them
//! empty, so each typed-card payment (`payment_v2`, `authorization_v2`) is given its
//! customer's card fingerprint, address key and e-mail, the same SQL on both databases. The
//! seed's 50,000 customers then stand for 50,000 cards, addresses and e-mails of about two
//! payments each, spread over 90 days, in the rules' partial indexes (migration 0016).
//!
//! The seed also puts every payment in one session; a shop's payments each have their own
//! (a checkout, then a retry at most), so each is moved to a session of its own first. With
//! one session for all, PostgreSQL's statistics say `session_id = $1` matches every row: its
//! generic plan for the counts then scans the whole table (45 ms on 30,000 rows), so it plans
//! the statement anew on every call (about 1 ms of planning, more than the execution).

/// The padding that makes a customer id a 43-character fingerprint or a 32-character key.
const PAD: &str = "-0123456789abcdef0123456789abcdef0123456789abcdef";

/// The statements that fill the facts in, in order: a session for each payment, then the
/// rules' facts.
pub fn fill_statements() -> Vec<String> {
    vec![
        "INSERT INTO checkout_sessions (id, client_secret_hash, amount, currency, reference, \
         capture_mode, created_at, expires_at) \
         SELECT 'ses-' || p.id, s.client_secret_hash, p.amount, s.currency, s.reference, \
         s.capture_mode, p.created_at, s.expires_at \
         FROM payments AS p, checkout_sessions AS s WHERE s.id = 'bench-session'"
            .to_owned(),
        "UPDATE payments SET session_id = 'ses-' || id".to_owned(),
        facts_sql(),
    ]
}

/// The statement that fills the rules' facts in.
fn facts_sql() -> String {
    format!(
        "UPDATE payments SET card_fingerprint = SUBSTR(customer_id || 'f{PAD}', 1, 43), \
         client_key = SUBSTR(customer_id || 'a{PAD}', 1, 32), \
         shopper_email = customer_id || '@example.com' \
         WHERE kind IN ('payment_v2', 'authorization_v2')"
    )
}

/// Customer `n`'s fingerprint, address key and e-mail, as [`fill_sql`] wrote them.
pub fn of_customer(n: u64) -> (String, String, String) {
    let customer = format!("cust-{n}");
    let take = |tag: char, len: usize| {
        format!("{customer}{tag}{PAD}")
            .chars()
            .take(len)
            .collect::<String>()
    };
    (
        take('f', 43),
        take('a', 32),
        format!("{customer}@example.com"),
    )
}
