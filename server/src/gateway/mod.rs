//! The payment gateway: wire types for every endpoint and the typed async client.
//!
//! - [`wire`]: request and response bodies, shared with the emulator in `crate::sandbox`.
//! - [`GatewayClient`]: one async method per endpoint, with [`GatewayConfig`] and
//!   [`RetryPolicy`]; failures are [`GatewayError`]s.

mod client;
mod config;
mod error;
mod outcome;
mod retry;
mod transport;
pub mod wire;

pub use client::GatewayClient;
pub use config::GatewayConfig;
pub use error::GatewayError;
pub use retry::RetryPolicy;
pub use transport::API_PREFIX;
