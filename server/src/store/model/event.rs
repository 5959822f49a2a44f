//! Events to the shop and where they go: the outbox rows the store's triggers write with every
//! change a shop acts on, the shop's webhook endpoints, and each endpoint's deliveries.

use secrecy::SecretString;
use time::OffsetDateTime;

/// Most webhook endpoints a shop may have (Stripe's limit too): each event goes to each of
/// them, so they multiply the delivery work.
pub const MAX_ENDPOINTS: usize = 16;

/// One event, as the outbox holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEvent {
    /// Order of writing: of all events, and of each object's.
    pub seq: i64,
    /// `evt_` and 32 hex digits.
    pub id: String,
    /// `payment.captured`, `subscription.renewed`, ….
    pub kind: String,
    /// `payment`, `session`, `subscription` or `customer`.
    pub object_type: String,
    /// The object's id.
    pub object_id: String,
    /// When the change happened.
    pub created_at: OffsetDateTime,
    /// The changed rows as JSON (column names as keys), as the change left them.
    pub snapshot: String,
}

/// Which events to list, newest first.
#[derive(Clone, Debug, Default)]
pub struct EventQuery {
    /// Only of this type.
    pub kind: Option<String>,
    /// Only about this object.
    pub object_id: Option<String>,
    /// Only created at or after.
    pub created_from: Option<OffsetDateTime>,
    /// Only created before.
    pub created_before: Option<OffsetDateTime>,
    /// Page size; 0 means the default (20), anything above the maximum is capped.
    pub limit: u32,
    /// Continue after this cursor.
    pub after: Option<super::PageCursor>,
}

/// The event types an endpoint receives.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventTypes {
    /// Every type.
    All,
    /// These types only (never empty).
    Only(Vec<String>),
}

impl EventTypes {
    /// The selection that means every type, present and future.
    pub const WILDCARD: &'static str = "*";

    /// How the API shows a selection: `["*"]` or the names.
    pub fn names(&self) -> Vec<String> {
        match self {
            Self::All => vec![Self::WILDCARD.to_owned()],
            Self::Only(kinds) => kinds.clone(),
        }
    }

    /// Whether `kind` is among them.
    pub fn includes(&self, kind: &str) -> bool {
        match self {
            Self::All => true,
            Self::Only(kinds) => kinds.iter().any(|k| k == kind),
        }
    }
}

/// Whether an endpoint receives events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndpointStatus {
    /// Receives events.
    Enabled,
    /// Receives none (by the merchant, or after failing for days).
    Disabled,
}

/// A shop's webhook endpoint.
#[derive(Clone, Debug)]
pub struct WebhookEndpoint {
    /// `we_` and 32 hex digits.
    pub id: String,
    /// Where events are posted (http or https).
    pub url: String,
    /// The merchant's note.
    pub description: Option<String>,
    /// What it receives.
    pub event_types: EventTypes,
    /// The signing secret (`whsec_…`).
    pub secret: SecretString,
    /// The secret before the last rotation, which also signs until `previous_until`.
    pub previous_secret: Option<SecretString>,
    /// End of the rotation's overlap.
    pub previous_until: Option<OffsetDateTime>,
    /// Enabled or disabled.
    pub status: EndpointStatus,
    /// Why it was disabled.
    pub disabled_reason: Option<String>,
    /// Since when every delivery to it has failed (`None` after a success).
    pub failing_since: Option<OffsetDateTime>,
    /// Created.
    pub created_at: OffsetDateTime,
    /// Last changed.
    pub updated_at: OffsetDateTime,
}

/// A new endpoint.
#[derive(Clone, Debug)]
pub struct NewEndpoint {
    /// The id: generated, or fixed for the one configured by `MERCHANT_WEBHOOK_URL`.
    pub id: String,
    /// Where events go.
    pub url: String,
    /// The merchant's note.
    pub description: Option<String>,
    /// What it receives.
    pub event_types: EventTypes,
    /// Its signing secret.
    pub secret: SecretString,
}

/// Changes to an endpoint; `None` leaves a field as it is.
#[derive(Clone, Debug, Default)]
pub struct EndpointUpdate {
    /// A new address.
    pub url: Option<String>,
    /// A new note (`Some(None)` removes it).
    pub description: Option<Option<String>>,
    /// New types.
    pub event_types: Option<EventTypes>,
    /// Enable (also clears the failure record) or disable, with the reason.
    pub status: Option<(EndpointStatus, Option<String>)>,
}

/// Where a delivery stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryState {
    /// Not delivered yet; tried again at `next_attempt_at`.
    Pending,
    /// The endpoint answered 2xx.
    Delivered,
    /// Given up after the retries.
    Failed,
}

impl DeliveryState {
    /// `pending`, `delivered` or `failed`: the store's and the API's name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Delivered => "delivered",
            Self::Failed => "failed",
        }
    }
}

/// An event's delivery to one endpoint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Delivery {
    /// The endpoint.
    pub endpoint_id: String,
    /// The event's id.
    pub event_id: String,
    /// The event's type.
    pub event_kind: String,
    /// Where it stands.
    pub state: DeliveryState,
    /// Attempts so far.
    pub attempts: u32,
    /// Next attempt (pending only).
    pub next_attempt_at: OffsetDateTime,
    /// Created.
    pub created_at: OffsetDateTime,
    /// Last changed.
    pub updated_at: OffsetDateTime,
}

/// A delivery a worker holds the lease of, with what sending it needs.
#[derive(Clone, Debug)]
pub struct DueDelivery {
    /// The event.
    pub event: StoredEvent,
    /// The endpoint's id.
    pub endpoint_id: String,
    /// The endpoint's address.
    pub url: String,
    /// Its signing secrets: the current one, then the previous one during an overlap.
    pub secrets: Vec<SecretString>,
    /// Attempts before this one.
    pub attempts: u32,
    /// When the delivery was created (its retries end some days later).
    pub created_at: OffsetDateTime,
    /// When the endpoint's failures began, if it is failing.
    pub failing_since: Option<OffsetDateTime>,
}

/// What became of an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeliveryOutcome {
    /// Delivered (2xx).
    Delivered,
    /// Failed; try again then.
    RetryAt(OffsetDateTime),
    /// Failed for the last time.
    GiveUp,
}

/// One attempt to deliver, as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeliveryAttempt {
    /// Sequence number.
    pub id: i64,
    /// The endpoint.
    pub endpoint_id: String,
    /// The event's id.
    pub event_id: String,
    /// When it was sent.
    pub attempted_at: OffsetDateTime,
    /// How long until the answer or the error, microseconds.
    pub duration_us: i64,
    /// The answer's status, if one came.
    pub status_code: Option<u16>,
    /// What went wrong, if anything (never a response body).
    pub error: Option<String>,
}

/// An attempt to record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewDeliveryAttempt {
    /// When it was sent.
    pub attempted_at: OffsetDateTime,
    /// Microseconds until the answer or the error.
    pub duration_us: i64,
    /// The answer's status, if one came.
    pub status_code: Option<u16>,
    /// What went wrong, if anything.
    pub error: Option<String>,
}

/// An attempt to record with what became of its delivery (several are recorded at once).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinishedAttempt {
    /// The endpoint.
    pub endpoint_id: String,
    /// The event's sequence number.
    pub event_seq: i64,
    /// The attempt.
    pub attempt: NewDeliveryAttempt,
    /// What became of the delivery.
    pub outcome: DeliveryOutcome,
}

/// A card as a card event shows it: no token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardOnFile {
    /// Card id.
    pub id: String,
    /// Owner.
    pub customer_id: String,
    /// Scheme.
    pub brand: checkout::card::Brand,
    /// Last four digits.
    pub last4: super::Last4,
    /// Expiry month, 1–12.
    pub expiry_month: u8,
    /// Four-digit expiry year.
    pub expiry_year: u16,
    /// When it was saved.
    pub created_at: OffsetDateTime,
}

/// What an event's snapshot holds, read back into the store's records.
#[derive(Clone, Debug)]
pub enum EventObject {
    /// A payment after its change (`payment.*`).
    Payment(Box<super::Payment>),
    /// A session that was just paid, and the payment that paid it (`session.completed`).
    Session {
        /// The session.
        session: Box<super::Session>,
        /// The payment that paid it.
        payment: Box<super::Payment>,
    },
    /// A subscription after its change (`subscription.created`, `.paused`, …).
    Subscription(Box<super::Subscription>),
    /// A billing cycle of a subscription (`subscription.renewed`, `.payment_failed`).
    Cycle {
        /// The subscription as the cycle was recorded.
        subscription: Box<super::Subscription>,
        /// The cycle's charge.
        cycle: super::SubscriptionCycle,
    },
    /// A card saved or removed (`customer.card_saved`, `.card_removed`).
    Card(CardOnFile),
    /// A card-testing alert raised or ended (`card_testing.suspected`, `.ended`).
    CardTesting(Box<crate::store::card_testing::CardTestingAlert>),
}
