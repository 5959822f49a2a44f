//! Payment links (issue 48): a service beside sessions. A merchant makes a link (in the API or
//! the dashboard); a payer opens its page (`/pay/{public_id}`, [`page`]) and, on pressing Pay,
//! starts an ordinary checkout session priced by the server ([`start`]) that carries the
//! link's id, so every rule of sessions and payments applies to it (events, the dashboard,
//! refunds, review, the card-testing rules). Loading the page creates nothing.
//!
//! A one-payment or limited link's places are taken when a payment is recorded, before its
//! gateway call, by the payment's insert itself (migration 0038), so two payers at the last
//! place cannot both be charged; a failed payment frees its place. After paying, the payer
//! sees the session's receipt ([`receipt`]) under an id only they were given.
//!
//! Files: [`manage`] (create, read, list, deactivate, figures), [`page`] (what the hosted page
//! shows, and why a link takes no payment), [`start`] (the payer's input checked, the session
//! made), [`receipt`] (the receipt page's facts), [`request`] (a link as the API and the dashboard
//! ask for it), [`error`].

pub mod error;
pub mod manage;
pub mod page;
pub mod receipt;
pub mod request;
pub mod start;

use std::sync::Arc;
use std::time::Duration;

use secrecy::SecretString;

pub use error::{LinkError, LinkUnavailable};
pub use page::LinkPage;
pub use receipt::Receipt;
pub use start::{PayerInput, StartedCheckout};

use super::PaymentService;
use crate::store::Store;

/// What the link service needs beyond the store and the payment service.
#[derive(Clone)]
pub struct LinkSettings {
    /// The merchant's name as payers know it (`MERCHANT_NAME`).
    pub merchant_name: String,
    /// The merchant secret key, which client secrets are derived from.
    pub secret_key: SecretString,
    /// How long a session started from a link may be paid.
    pub session_ttl: Duration,
}

/// The payment link service. Cloning is one `Arc` increment.
#[derive(Clone)]
pub struct PaymentLinkService {
    inner: Arc<Inner>,
}

struct Inner {
    payments: PaymentService,
    settings: LinkSettings,
}

impl std::fmt::Debug for PaymentLinkService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PaymentLinkService")
            .field("merchant_name", &self.inner.settings.merchant_name)
            .finish_non_exhaustive()
    }
}

impl PaymentLinkService {
    /// A service over `payments` (and its store).
    pub fn new(payments: PaymentService, settings: LinkSettings) -> Self {
        Self {
            inner: Arc::new(Inner { payments, settings }),
        }
    }

    /// The store.
    fn store(&self) -> &Arc<dyn Store> {
        self.inner.payments.store()
    }

    /// The payment service.
    fn payments(&self) -> &PaymentService {
        &self.inner.payments
    }

    /// The settings.
    fn settings(&self) -> &LinkSettings {
        &self.inner.settings
    }
}
