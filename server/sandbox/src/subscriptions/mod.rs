//! Subscriptions in the emulator: recurring billing plans attached to a stored card.
//!
//! The model is pure and clock-free (everything takes `now`):
//! [`cadence`] (period arithmetic), [`terms`] (plan terms, discounted amounts),
//! [`plan_request`] (validation of the request's `subscription` object), [`status`] (the state
//! machine), [`schedule`] (due dates, retries, catch-up), [`history`] (billing attempts),
//! [`subscription`] (the aggregate) and [`book`] (the shared store).
//! The HTTP side: [`create`] (`POST /subscription/payment`), [`manage`] (pause, resume,
//! cancel, retrieve, list), [`render`] (wire shapes) and [`billing`] (charging due cycles
//! through the emulator's `charge()`).
//!
//! Route paths are relative to the API prefix (`/api/v1/server-to-server-interface`); the
//! caller adds the credential check and fault injection. `/subscription/list` and
//! `/subscription/payment` are static routes, so they win over `/subscription/{id}`.

pub mod billing;
pub mod book;
pub mod cadence;
pub mod create;
pub mod error;
pub mod history;
pub mod manage;
pub mod plan_request;
pub mod render;
pub mod schedule;
pub mod status;
pub mod subscription;
pub mod terms;

use axum::Router;
use axum::routing::{get, post};

use super::state::SandboxState;

pub use billing::{CycleContext, SandboxSubscription, bill_due};
pub use error::{CODE_TRANSITION_REFUSED, SubscriptionError};

/// Every subscription of one emulator, by id, in creation order (`SubscriptionBook::default()`).
pub type SubscriptionBook = book::Book<CycleContext>;

/// The subscription endpoints, relative to the API prefix.
pub fn routes() -> Router<SandboxState> {
    Router::new()
        .route("/subscription/payment", post(create::create))
        .route("/subscription/list", get(manage::list))
        .route("/subscription/{id}", get(manage::retrieve))
        .route("/subscription/{id}/pause", post(manage::pause))
        .route("/subscription/{id}/resume", post(manage::resume))
        .route("/subscription/{id}/cancel", post(manage::cancel))
}
