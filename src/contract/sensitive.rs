//! A string that must never be printed: the card number and CVC as the browser sends them.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Raw card input on its way from the form to the server's card parser.
///
/// `Debug` prints `"[redacted]"`; the value is reachable only through [`Sensitive::expose`],
/// which the server calls once to parse it into `card::CardNumber` / `card::Cvc`.
#[derive(Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Sensitive(String);

impl Sensitive {
    /// Wraps a value typed by the cardholder.
    pub fn new(value: impl Into<String>) -> Self {
        Self(value.into())
    }

    /// The raw value, for the card parser only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Sensitive {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"[redacted]\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_hides_the_value_and_json_keeps_it() {
        let s = Sensitive::new("4242424242424242");
        assert_eq!(format!("{s:?}"), "\"[redacted]\"");
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"4242424242424242\"");
    }
}
