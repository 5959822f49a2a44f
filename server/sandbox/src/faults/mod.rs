//! Fault injection (the HTTP layer that applies it is `crate::web::faults`): added latency, 5xx answers, malformed and truncated bodies, dropped and
//! duplicated webhooks, before or after the call is processed.
//!
//! Three sources, combined for each call: the run's configuration (`SandboxConfig::default_faults`,
//! `--fault` on the CLI), faults armed at run time with `POST /sandbox/faults`, and the
//! `x-sandbox-fault` header of the call itself.

mod book;
pub mod respond;
mod spec;

pub use book::{ACS_ENDPOINT, ArmedFault, FaultBook, WEBHOOK_ENDPOINT, normalise_endpoint};
pub use spec::{Fault, FaultParseError, Stage, parse_fault_list};
