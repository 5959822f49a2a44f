//! Customer self-service of subscriptions: the component's management view talks to these
//! endpoints with the customer token the shop backend obtained from the merchant API.

use super::SubscriptionView;
use serde::{Deserialize, Serialize};

/// `GET /v1/customer/subscriptions`: every subscription of the token's customer, newest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CustomerSubscriptions {
    /// The customer's subscriptions, each with its charge history.
    #[serde(default)]
    pub subscriptions: Vec<SubscriptionView>,
}

/// What a customer may do to one of their subscriptions:
/// `POST /v1/customer/subscriptions/{id}/{action}` (body `{}`), answered with the updated
/// [`SubscriptionView`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SubscriptionAction {
    /// Halt billing until resumed (only an active subscription).
    Pause,
    /// Restart billing (only a paused subscription).
    Resume,
    /// End it for good (active or paused).
    Cancel,
}

impl SubscriptionAction {
    /// The last path segment: `pause`, `resume` or `cancel`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pause => "pause",
            Self::Resume => "resume",
            Self::Cancel => "cancel",
        }
    }
}
