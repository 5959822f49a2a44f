//! The payment gateway's typed async client. Its wire types (request and response bodies of
//! every endpoint) live in [`checkout::wire`], shared with the emulator (`checkout-sandbox`).
//!
//! - [`GatewayClient`]: one async method per endpoint, with [`GatewayConfig`] and
//!   [`RetryPolicy`]; failures are [`GatewayError`]s.

mod client;
mod config;
mod error;
pub mod list;
mod outcome;
mod retry;
mod transport;

pub use client::GatewayClient;
pub use config::GatewayConfig;
pub use error::GatewayError;
pub use list::ListRead;
pub use retry::RetryPolicy;
pub use transport::API_PREFIX;
