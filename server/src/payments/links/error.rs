//! Why a link operation did not complete. Knows nothing of HTTP: `web/service_errors.rs` maps
//! it to answers.

use crate::payments::PaymentError;
use crate::store::StoreError;

/// Why a link takes no payment now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkUnavailable {
    /// No link has this id.
    NotFound,
    /// The merchant deactivated it.
    Inactive,
    /// Past its expiry.
    Expired,
    /// Its places are all taken (a one-payment link paid, a limited link at its limit).
    UsedUp,
}

impl LinkUnavailable {
    /// Stable machine code.
    pub fn code(self) -> &'static str {
        match self {
            Self::NotFound => "payment_link_not_found",
            Self::Inactive => "payment_link_inactive",
            Self::Expired => "payment_link_expired",
            Self::UsedUp => "payment_link_used_up",
        }
    }

    /// English sentence for the payer (the hosted page translates by [`code`](Self::code)).
    pub fn message(self) -> &'static str {
        match self {
            Self::NotFound => "there is no payment link at this address",
            Self::Inactive => "this payment link has been deactivated",
            Self::Expired => "this payment link has expired",
            Self::UsedUp => "this payment link takes no more payments",
        }
    }
}

/// Why a link operation failed.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    /// The link takes no payment.
    #[error("{}", .0.message())]
    Unavailable(LinkUnavailable),
    /// Bad input (naming the field), a conflict, or the store failed.
    #[error(transparent)]
    Payment(#[from] PaymentError),
}

impl From<StoreError> for LinkError {
    fn from(error: StoreError) -> Self {
        match error {
            // A rule of the link's record, checked by the store: bad input, naming its field.
            StoreError::Invalid { field, reason } => invalid(field, reason),
            other => Self::Payment(PaymentError::Store(other)),
        }
    }
}

/// A 400 naming `field`.
pub(crate) fn invalid(field: &str, message: impl Into<String>) -> LinkError {
    LinkError::Payment(PaymentError::invalid("invalid_request", field, message))
}
