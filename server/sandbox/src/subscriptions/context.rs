//! What the emulator keeps beside each subscription: the card token and merchant facts of the
//! creation request, with which every later cycle is charged ([`CycleContext`]).

use serde::{Deserialize, Serialize};

use super::subscription::Subscription;
use crate::ledger::MerchantContext;
use checkout::currency::Currency;

/// What later cycles are charged with: the card token stored by the creation charge and the
/// merchant facts of the creation request, repeated on every cycle's transaction.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CycleContext {
    /// `stored_payment_method_id` of the creation charge.
    pub token: String,
    /// The plan's currency.
    #[serde(with = "crate::snapshot_fields::currency_code")]
    pub currency: Currency,
    /// `merchant_id`, `merchant_txn_ref`, IPs and addresses of the creation request.
    pub merchant: MerchantContext,
}

/// A subscription as the emulator stores it.
pub type SandboxSubscription = Subscription<CycleContext>;
