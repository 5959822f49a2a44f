//! HTTP plumbing the emulator's adapters (the gateway API, the 3-D Secure pages, the control
//! API) share: the credential check ([`require_credentials`]), JSON bodies with the gateway's
//! failure body ([`WireJson`]), and the fault-injection layer ([`inject_faults`]). Below them,
//! above the state they read.

pub mod credentials;
pub mod faults;
pub mod json;

pub use credentials::require_credentials;
pub use faults::{FAULT_HEADER, RequestedWebhookFaults, inject_faults};
pub use json::WireJson;
