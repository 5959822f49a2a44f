//! Card rules with no web dependencies: number (Luhn, brand, masking), expiry, CVC, cardholder
//! name, as-you-type formatting, and [`CardSecret`], the one masking type the number and CVC
//! travel in from the form's parse to the gateway request. The browser form, `checkout-server`
//! and the emulator all compile this, so a card is judged by the same code on each side.
//!
//! Each value type validates when it is built and there is no combined "card input" type:
//! the form and the server compose [`CardNumber`], [`Expiry`], [`Cvc`] and [`CardholderName`]
//! as they need. Errors are one [`CardError`] carrying the field and a stable code.

pub mod bin_table;
pub mod brand;
pub mod cvc;
pub mod error;
pub mod expiry;
pub mod format;
pub mod holder;
pub mod luhn;
pub mod number;
mod scrub;
mod secret;

pub use bin_table::detect as detect_brand;
pub use brand::Brand;
pub use cvc::Cvc;
pub use error::CardError;
pub use expiry::{Expiry, YearMonth};
pub use format::{format_expiry, format_number};
pub use holder::{CardholderName, MAX_NAME_CHARS};
pub use number::{CardNumber, MAX_NUMBER_LENGTH, MIN_NUMBER_LENGTH};
pub use scrub::scrub;
pub use secret::CardSecret;
