//! Block lists: what an entry names and how its value is normalised before it is stored, so
//! one SQL statement matches a try against every list (`store::sql::risk_counts`).
//!
//! Kinds: a card (its keyed fingerprint, taken from a payment: never a card number), the first
//! six digits (BIN), a client address or range, an e-mail, an e-mail domain, a customer id.
//! E-mails and domains are lower-cased; an address is kept as canonical CIDR (a single address
//! as /32 or /128) with its first and last address as 32 hex digits, IPv4 mapped into IPv6.

use std::net::IpAddr;

use ipnet::IpNet;

use super::address::hex;
use super::fingerprint::FINGERPRINT_CHARS;
pub use crate::store::model::BlockKind;
use crate::store::model::client_key::show;
use crate::store::model::{NewBlock, is_customer_id, is_email};

/// Longest note kept with an entry, in characters.
pub const MAX_NOTE_CHARS: usize = 500;
/// Longest e-mail domain, in characters (the API's `maxLength`).
pub const MAX_DOMAIN_CHARS: usize = 240;

/// What the API's patterns take for space around a value (ECMAScript's `\s`): Unicode white
/// space and the byte-order mark.
fn is_space(c: char) -> bool {
    c.is_whitespace() || c == '\u{feff}'
}

/// Whether `domain` is an e-mail domain: two labels or more, none empty, of characters that
/// are neither `@`, space nor control characters; at most [`MAX_DOMAIN_CHARS`].
fn is_email_domain(domain: &str) -> bool {
    let label_char = |c: char| c != '@' && !is_space(c) && !c.is_control();
    domain.chars().count() <= MAX_DOMAIN_CHARS
        && domain.contains('.')
        && domain
            .split('.')
            .all(|label| !label.is_empty() && label.chars().all(label_char))
}

/// An entry's value, normalised, ready to store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockValue {
    /// The kind.
    pub kind: BlockKind,
    /// The normalised value.
    pub value: String,
    /// For an address: the first and last address of the range, 32 hex digits each.
    pub range: Option<(String, String)>,
}

/// A value refused: the reason, for a 400 naming `value` (or the dashboard's form).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct BadBlockValue(pub &'static str);

impl BlockValue {
    /// `text` as a value of `kind` (a card's is a fingerprint: see [`BlockValue::card`]).
    pub fn parse(kind: BlockKind, text: &str) -> Result<Self, BadBlockValue> {
        let given = text;
        let text = text.trim_matches(is_space);
        let value = match kind {
            BlockKind::Card => return Self::card(text),
            BlockKind::Bin => {
                if text.len() != 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(BadBlockValue("a BIN is the first six digits of a card"));
                }
                text.to_owned()
            }
            BlockKind::Address => return Self::address(text),
            BlockKind::Email => {
                if !is_email(text) {
                    return Err(BadBlockValue("must be an e-mail address"));
                }
                text.to_lowercase()
            }
            BlockKind::EmailDomain => {
                // One `@` may stand before it, as in "@example.com"; anything else that is not
                // a domain is refused, never trimmed into one.
                let domain = text.strip_prefix('@').unwrap_or(text);
                if !is_email_domain(domain) {
                    return Err(BadBlockValue(
                        "must be an e-mail domain such as example.com",
                    ));
                }
                domain.to_lowercase()
            }
            BlockKind::Customer => {
                // Taken as given: " c1" is another customer than "c1", not one to trim into it.
                if !is_customer_id(given) || given != text {
                    return Err(BadBlockValue(
                        "must be a customer id (1 to 64 characters, no control character, no \
                         space at either end)",
                    ));
                }
                text.to_owned()
            }
        };
        Ok(Self {
            kind,
            value,
            range: None,
        })
    }

    /// A card entry from a stored fingerprint (a payment's or a saved card's).
    pub fn card(fingerprint: &str) -> Result<Self, BadBlockValue> {
        let well_formed = fingerprint.len() == FINGERPRINT_CHARS
            && fingerprint
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !well_formed {
            return Err(BadBlockValue("not a card fingerprint"));
        }
        Ok(Self {
            kind: BlockKind::Card,
            value: fingerprint.to_owned(),
            range: None,
        })
    }

    /// An address entry: an IPv4 or IPv6 address, or a CIDR range (host bits cleared).
    pub fn address(text: &str) -> Result<Self, BadBlockValue> {
        let net = match text.parse::<IpNet>() {
            Ok(net) => net.trunc(),
            Err(_) => match text.parse::<IpAddr>() {
                Ok(address) => IpNet::from(address),
                Err(_) => {
                    return Err(BadBlockValue(
                        "must be an IPv4 or IPv6 address or a CIDR range such as 192.0.2.0/24",
                    ));
                }
            },
        };
        Ok(Self {
            kind: BlockKind::Address,
            value: net.to_string(),
            range: Some((hex(net.network()), hex(net.broadcast()))),
        })
    }

    /// An address entry for a payment's stored client key: an IPv4 address whole, an IPv6
    /// key as its /64.
    pub fn client_key(key: &str) -> Result<Self, BadBlockValue> {
        let address = show(key).ok_or(BadBlockValue("not a client key"))?;
        Self::address(&address)
    }
}

impl BlockValue {
    /// The entry to store: this value with `note` (trimmed; blank is none), added by `by`. A
    /// control character is refused wherever it stands, also at the ends trimming takes off.
    pub fn entry(self, note: Option<&str>, by: &str) -> Result<NewBlock, BadBlockValue> {
        let on_one_line = note.is_none_or(|note| !note.chars().any(char::is_control));
        let note = note.map(str::trim).filter(|note| !note.is_empty());
        if !on_one_line || note.is_some_and(|note| note.chars().count() > MAX_NOTE_CHARS) {
            return Err(BadBlockValue(
                "a note is at most 500 characters, on one line",
            ));
        }
        Ok(NewBlock {
            kind: self.kind,
            value: self.value,
            range: self.range,
            note: note.map(str::to_owned),
            payment_id: None,
            added_by: by.to_owned(),
        })
    }
}

/// The domain of a stored (lower-cased) e-mail.
pub fn email_domain(email: &str) -> Option<&str> {
    email.rsplit_once('@').map(|(_, domain)| domain)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(kind: BlockKind, text: &str) -> String {
        BlockValue::parse(kind, text).expect(text).value
    }

    #[test]
    fn values_are_normalised() {
        assert_eq!(
            parsed(BlockKind::Email, " Bot@Example.COM "),
            "bot@example.com"
        );
        assert_eq!(
            parsed(BlockKind::EmailDomain, "@Example.COM"),
            "example.com"
        );
        assert_eq!(parsed(BlockKind::Bin, "424242"), "424242");
        // Space as the API's patterns see it, around a value; characters, not bytes, counted.
        assert_eq!(parsed(BlockKind::EmailDomain, "\u{feff}\u{b}@x.y\r"), "x.y");
        let long = format!("{}.y", "é".repeat(MAX_DOMAIN_CHARS - 2));
        assert_eq!(parsed(BlockKind::EmailDomain, &long), long);
        assert!(BlockValue::parse(BlockKind::EmailDomain, &format!("é{long}")).is_err());
        assert_eq!(parsed(BlockKind::Address, "192.0.2.7/24"), "192.0.2.0/24");
        assert_eq!(parsed(BlockKind::Address, "192.0.2.7"), "192.0.2.7/32");
        assert_eq!(
            parsed(BlockKind::Address, "2001:DB8:1:2:3::9/64"),
            "2001:db8:1:2::/64"
        );
    }

    #[test]
    fn an_address_range_is_two_hex_bounds_with_ipv4_mapped() {
        let v4 = BlockValue::parse(BlockKind::Address, "192.0.2.0/24").expect("range");
        assert_eq!(
            v4.range,
            Some((
                "00000000000000000000ffffc0000200".into(),
                "00000000000000000000ffffc00002ff".into()
            ))
        );
        let v6 = BlockValue::parse(BlockKind::Address, "2001:db8::/64").expect("range");
        assert_eq!(
            v6.range,
            Some((
                "20010db8000000000000000000000000".into(),
                "20010db800000000ffffffffffffffff".into()
            ))
        );
    }

    #[test]
    fn bad_values_are_refused() {
        for (kind, text) in [
            (BlockKind::Bin, "42424"),
            (BlockKind::Bin, "4242424242424242"),
            (BlockKind::Address, "192.0.2.300"),
            (BlockKind::Address, "example.com"),
            (BlockKind::Email, "not-an-email"),
            (BlockKind::EmailDomain, "localhost"),
            (BlockKind::EmailDomain, "@@@@@x.y"),
            (BlockKind::EmailDomain, "@@x.y"),
            (BlockKind::EmailDomain, "x..y"),
            (BlockKind::EmailDomain, "x.y@"),
            (BlockKind::EmailDomain, "x.\u{feff}y"),
            (BlockKind::Customer, ""),
            (BlockKind::Customer, " c1"),
            (BlockKind::Card, "4242424242424242"),
        ] {
            assert!(BlockValue::parse(kind, text).is_err(), "{kind:?} {text}");
        }
    }

    #[test]
    fn a_note_is_one_line_without_control_characters() {
        let bin = || BlockValue::parse(BlockKind::Bin, "424242").expect("a BIN");
        let kept = bin()
            .entry(Some("  seen in a burst "), "staff")
            .expect("kept");
        assert_eq!(kept.note.as_deref(), Some("seen in a burst"));
        assert!(
            bin()
                .entry(Some("   "), "staff")
                .expect("blank")
                .note
                .is_none()
        );
        for note in ["a\nb", "\tburst", "burst\n", "a\u{1b}[31m"] {
            assert!(bin().entry(Some(note), "staff").is_err(), "{note:?}");
        }
    }

    #[test]
    fn a_client_key_gives_its_address_or_64() {
        let v4 = BlockValue::client_key("00000000000000000000ffffc0000201").expect("v4");
        assert_eq!(v4.value, "192.0.2.1/32");
        let v6 = BlockValue::client_key("20010db8000100020000000000000000").expect("v6");
        assert_eq!(v6.value, "2001:db8:1:2::/64");
        assert!(BlockValue::client_key("zz").is_err());
    }

    #[test]
    fn kinds_round_trip_by_name() {
        for kind in BlockKind::ALL {
            assert_eq!(BlockKind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(email_domain("a@b.example"), Some("b.example"));
    }
}
