//! Web plumbing both front doors share: the router state ([`AppState`]), the one error shape
//! ([`ApiFailure`]) and the service errors mapped to it, `Idempotency-Key` replays, the
//! client's address ([`ClientIp`]), the protection layers and rate limits ([`protect`]), and a
//! webhook secret shown only in the answers that issue it ([`endpoint_secret`]).
//!
//! The merchant API (`api`) and the staff dashboard (`dashboard`) both stand on this floor and
//! neither imports the other. Nothing here names a route.

mod client_ip;
pub mod endpoint_secret;
mod error;
pub mod idempotency;
pub mod merchant_key;
pub mod protect;
mod service_errors;
mod state;

pub use client_ip::{ClientIp, client_ip};
pub use error::ApiFailure;
pub use state::{AppShared, AppState};
