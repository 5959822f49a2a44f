//! Subscriptions in the emulator: recurring billing plans attached to a stored card.
//!
//! The model is pure and clock-free (everything takes `now`):
//! [`cadence`] (period arithmetic), [`terms`] (plan terms, discounted amounts),
//! [`plan_request`] (validation of the request's `subscription` object), [`status`] (the state
//! machine), [`schedule`] (due dates, retries, catch-up), [`history`] (billing attempts),
//! [`subscription`] (the aggregate), [`context`] (what later cycles are charged with) and
//! [`book`] (the shared store).
//! Charging due cycles is `crate::billing`; the HTTP endpoints and their wire shapes are
//! `crate::api::subscriptions`.

pub mod book;
pub mod cadence;
pub mod context;
pub mod error;
pub mod history;
pub mod plan_request;
pub mod schedule;
pub mod status;
pub mod subscription;
pub mod terms;

pub use context::{CycleContext, SandboxSubscription};
pub use error::{CODE_TRANSITION_REFUSED, SubscriptionError};

/// Every subscription of one emulator, by id, in creation order (`SubscriptionBook::default()`).
pub type SubscriptionBook = book::Book<CycleContext>;
