//! The records the store keeps, as plain Rust values. Stored names of enums live beside them.

pub mod activity;
pub mod block;
pub mod card;
pub mod client_key;
pub mod customer;
pub mod event;
pub mod id;
pub mod idempotency;
pub mod link;
pub mod page;
pub mod payment;
pub mod payment_line;
pub mod review;
pub mod session;
pub mod subscription;

pub use activity::{
    AttemptOutcome, GatewayAttempt, NewAttempt, NewWebhookEvent, WebhookEvent, WebhookReceipt,
    WebhookVerdict,
};
pub use block::{BlockEntry, BlockKind, NewBlock};
pub use card::{Bin, CardSummary, Last4, NewSavedCard, SavedCardRecord};
pub use customer::{Customer, MAX_CUSTOMER_ID_CHARS, NewCustomerToken, is_customer_id, is_email};
pub use event::{
    CardOnFile, Delivery, DeliveryAttempt, DeliveryOutcome, DeliveryState, DueDelivery,
    EndpointStatus, EndpointUpdate, EventObject, EventQuery, EventTypes, FinishedAttempt,
    MAX_ENDPOINTS, NewDeliveryAttempt, NewEndpoint, StoredEvent, WebhookEndpoint,
};
pub use id::plausible_id;
pub use idempotency::{IdempotencyBegin, IdempotencyKey, StoredResponse};
pub use link::{AfterPayment, Ask, LinkAmount, LinkFigures, NewPaymentLink, PaymentLink};
pub use page::{
    BadCursor, MAX_BATCH_SIZE, MAX_PAGE_SIZE, Page, PageCursor, PaymentQuery, SubscriptionQuery,
};
pub use payment::{
    Advance, NewPayment, Payment, PaymentChanges, PaymentKind, RetryMarks, RiskFacts,
};
pub use payment_line::PaymentLine;
pub use review::{ReviewReason, SessionKeeper};
pub use session::{CaptureMode, NewSession, Session, SessionLink, new_session_id};
pub use subscription::{
    CycleStatus, CycleUpsert, NewCycle, NewSubscription, Subscription, SubscriptionCycle,
    SubscriptionOrigin, SubscriptionSync, Synced,
};
