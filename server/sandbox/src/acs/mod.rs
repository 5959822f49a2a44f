//! The emulated 3-D Secure access control server (ACS) as the cardholder sees it: the page
//! (`page.rs`) at [`ACS_PATH`](crate::three_ds::ACS_PATH) and its routes. Opening a session
//! and the decision that settles the payment are `crate::three_ds`; the sessions themselves
//! are `crate::acs_sessions`.

mod page;
mod routes;

pub use routes::routes;
