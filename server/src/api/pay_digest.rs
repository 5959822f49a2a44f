//! The digest that recognises a repeated pay request under its `Idempotency-Key`, made of
//! nothing the card data rules forbid keeping: the body with the security code taken out and
//! the card number cut to what may be shown (first six, last four, length). PCI DSS 3.3.1
//! allows nothing derived from the security code after authorisation, and 3.5.1 no unkeyed
//! hash of a full number; the digest of the raw body was both.
//!
//! A retried body matches. A body that changes anything else (the visible digits, expiry,
//! name, address, browser data, the saved card, the save choice) is another request: 409. One
//! that differs only in the middle digits or the security code counts as the same request and
//! gets the first answer, as a repeat would.

use checkout::card::CardSecret;
use checkout::contract::PayRequest;
use secrecy::zeroize::Zeroizing;

use crate::store::secret::BodyDigest;
use crate::web::ApiFailure;

/// Numbers shorter than this are not cards: only their length is kept.
const SHORTEST_CARD: usize = 13;

/// The digest of `request` for its idempotency record.
pub fn pay_digest(request: &PayRequest) -> Result<BodyDigest, ApiFailure> {
    let mut shown = request.clone();
    if let Some(card) = &mut shown.card {
        card.number = CardSecret::new(&truncated(card.number.expose()));
        card.cvc = CardSecret::new("");
    }
    let text = Zeroizing::new(
        serde_json::to_string(&shown)
            .map_err(|e| ApiFailure::Internal(format!("cannot digest a pay request: {e}")))?,
    );
    Ok(BodyDigest::of(text.as_bytes()))
}

/// First six and last four digits and the count, as `424242…4242/16`.
fn truncated(number: &str) -> String {
    let digits = Zeroizing::new(
        number
            .chars()
            .filter(char::is_ascii_digit)
            .collect::<String>(),
    );
    let count = digits.len();
    if count < SHORTEST_CARD {
        return format!("{count} digits");
    }
    format!("{}…{}/{count}", &digits[..6], &digits[count - 4..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(number: &str, cvc: &str, name: &str) -> PayRequest {
        serde_json::from_value(serde_json::json!({
            "card": {"number": number, "expiry_month": "12", "expiry_year": "30",
                "cvc": cvc, "name": name},
            "browser_info": {"screen_width": 1440, "screen_height": 900, "color_depth": 24,
                "java_enabled": false, "language": "en", "user_agent": "test",
                "time_zone": "Europe/Berlin", "time_zone_offset_minutes": -60,
                "challenge_window": "05"},
        }))
        .expect("a pay request")
    }

    #[test]
    fn the_security_code_and_middle_digits_do_not_count() {
        let first = pay_digest(&request("4000 0025 0000 3155", "737", "A Card")).unwrap();
        assert_eq!(
            first,
            pay_digest(&request("4000002500003155", "123", "A Card")).unwrap()
        );
        assert_eq!(
            first,
            pay_digest(&request("4000000000003155", "737", "A Card")).unwrap()
        );
        assert_ne!(
            first,
            pay_digest(&request("4000002500001091", "737", "A Card")).unwrap()
        );
        assert_ne!(
            first,
            pay_digest(&request("4000002500003155", "737", "B Card")).unwrap()
        );
    }

    #[test]
    fn truncation_keeps_only_what_may_be_shown() {
        assert_eq!(truncated("4000 0025 0000 3155"), "400000…3155/16");
        assert_eq!(truncated("4242"), "4 digits");
    }
}
