//! Where the server keeps what happened: checkout sessions, payments and their forward-only
//! state machine, gateway calls, webhook deliveries, idempotency records, customers with their
//! saved cards and tokens, subscriptions and their cycles.
//!
//! [`connect`] opens the backend `DATABASE_URL` names (SQLite by default, Postgres for several
//! instances), applies the migrations and returns an `Arc<dyn Store>`. Card data is limited by
//! type to brand, first six, last four and expiry ([`model::CardSummary`]); secrets handed to
//! browsers and customers are stored only as hashes ([`secret::SecretHash`]); secrets the
//! server must read back (webhook signing secrets, staff TOTP keys) are sealed under the
//! configured key ([`sealed`]).

pub mod analytics;
pub mod blocks;
pub mod card_testing;
pub mod delivery_report;
pub mod error;
pub mod events;
pub mod gateway_list;
pub mod key_files;
pub mod key_rotation;
pub mod links;
pub mod model;
pub mod retry;
pub mod risk;
pub mod risk_overrides;
pub mod sealed;
pub mod secret;
pub mod signups;
pub mod sql;
pub mod staff;
pub mod stats;
pub mod traits;
pub mod transitions;
pub mod two_factor;

pub use error::{StoreError, StoreResult};
pub use sql::{Dialect, PostgresStore, SqlStore, SqliteStore, connect, decode_snapshot};
pub use stats::{Backlog, StatsStore};
pub use traits::{
    ActivityStore, CustomerStore, IdempotencyStore, LeaseStore, PaymentStore, SessionStore, Store,
    SubscriptionStore,
};

/// Everything a caller needs in scope to use an `Arc<dyn Store>`: the traits (whose methods
/// are only callable with the trait imported) and the record types.
pub mod prelude {
    pub use super::analytics::AnalyticsStore;
    pub use super::blocks::BlockListStore;
    pub use super::card_testing::CardTestingStore;
    pub use super::delivery_report::{DeliveryReportStore, EndpointHealth};
    pub use super::events::EventStore;
    pub use super::gateway_list::{GatewayListStore, KnownSubscription, ListCheckRun};
    pub use super::key_rotation::{KeyRotationStore, ResealReport};
    pub use super::links::PaymentLinkStore;
    pub use super::model::*;
    pub use super::retry::{RetryStore, SessionClaim, Supersede};
    pub use super::risk::{BlockProbe, CountedPayment, RiskCountQuery, RiskCounts, RiskStore};
    pub use super::risk_overrides::{RiskOverride, RiskOverrideStore};
    pub use super::secret::{BodyDigest, SecretHash, generate_token};
    pub use super::signups::*;
    pub use super::staff::*;
    pub use super::stats::{Backlog, StatsStore};
    pub use super::traits::*;
    pub use super::two_factor::*;
    pub use super::{StoreError, StoreResult};
}
