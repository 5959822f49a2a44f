//! The card-testing facts of a busy shop's payments: the seed (`support/seed.rs`) leaves them
//! empty, so each typed-card payment (`payment_v2`, `authorization_v2`) is given its
//! customer's card fingerprint, address key and e-mail, the same SQL on both databases. The
//! seed's 50,000 customers then stand for 50,000 cards, addresses and e-mails of about two
//! payments each, spread over 90 days, in the rules' partial indexes (migration 0016).

/// The padding that makes a customer id a 43-character fingerprint or a 32-character key.
const PAD: &str = "-0123456789abcdef0123456789abcdef0123456789abcdef";

/// The statement that fills the facts in.
pub fn fill_sql() -> String {
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
