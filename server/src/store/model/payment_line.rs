//! A payment as the CSV export lists it: only the fields that leave the server, read in
//! batches by `PaymentStore::payment_lines` instead of whole [`super::Payment`]s (a third of
//! the columns, which is most of a batch's cost on SQLite).

use checkout::card::Brand;
use checkout::contract::{DeclineCode, PaymentState};
use time::OffsetDateTime;

use super::card::{Bin, Last4};

/// One line of the payments export.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaymentLine {
    /// Payment id.
    pub id: String,
    /// When it was created.
    pub created_at: OffsetDateTime,
    /// The shop's reference.
    pub merchant_txn_ref: String,
    /// Where it stands.
    pub state: PaymentState,
    /// ISO 4217 code.
    pub currency: String,
    /// Minor units of `currency`.
    pub amount: u64,
    /// Captured of it, minor units.
    pub captured_amount: u64,
    /// Refunded of the captured amount, minor units.
    pub refunded_amount: u64,
    /// The card's brand, when a card paid.
    pub card_brand: Option<Brand>,
    /// Its first six digits, when known.
    pub card_bin: Option<Bin>,
    /// Its last four digits.
    pub card_last4: Option<Last4>,
    /// The session's customer.
    pub customer_id: Option<String>,
    /// Why the gateway declined it.
    pub decline_code: Option<DeclineCode>,
}
