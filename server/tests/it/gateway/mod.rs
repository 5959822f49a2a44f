//! checkout-server's gateway client: wire formats and their real-traffic variants, faults,
//! retries, against a scripted test server.

mod client;
mod client_refusals;
mod faults;
pub mod test_server;
pub mod wire;
mod wire_variants;
