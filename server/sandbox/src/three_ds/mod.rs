//! A 3-D Secure payment, between the gateway API that opens it and the ACS page the cardholder
//! answers: [`start`] records the transaction as pending and opens a session
//! (`crate::acs_sessions`), [`decide`] settles it with the cardholder's choice, posts the
//! webhook and says where the browser goes next. Above the charge path both share.

mod decide;
mod start;

pub use decide::{Choice, DecideError, decide};
pub use start::{ACS_PATH, Started, start};
