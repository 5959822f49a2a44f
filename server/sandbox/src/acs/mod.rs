//! The emulated 3-D Secure access control server (ACS): sessions opened by the v2 endpoints,
//! the cardholder-facing page, and the decision that settles the payment, redirects the
//! browser and posts the webhook.

mod decide;
mod page;
mod routes;
mod session;
mod start;

pub use decide::{Choice, DecideError, decide};
pub use routes::{ACS_PATH, routes};
pub use session::{AcsSession, AcsSessions, DecisionRefused};
pub use start::{Started, start};
