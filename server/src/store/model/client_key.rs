//! A payment's client address as the card-testing rules stored it (`payments.client_key`: an
//! IPv4 address whole, an IPv6 address by its /64, 32 hex digits of the address mapped into
//! IPv6, see `risk::address`), read back for staff: written as an address people read, and
//! the range of stored keys a typed address or range covers (the payments list's `address`
//! filter and a block's preview). Also the card fingerprint's short form staff filter by.

use std::fmt::Write as _;
use std::net::{IpAddr, Ipv6Addr};

use ipnet::IpNet;

/// Characters of a fingerprint's short form: its first eight (48 bits of the MAC).
pub const FINGERPRINT_SHORT_CHARS: usize = 8;

/// The short form of a stored card fingerprint (its first [`FINGERPRINT_SHORT_CHARS`]).
pub fn short_fingerprint(fingerprint: &str) -> &str {
    fingerprint
        .get(..FINGERPRINT_SHORT_CHARS)
        .unwrap_or(fingerprint)
}

/// Whether `text` can be a fingerprint's short form: [`FINGERPRINT_SHORT_CHARS`] characters
/// of base64url.
pub fn is_short_fingerprint(text: &str) -> bool {
    text.len() == FINGERPRINT_SHORT_CHARS
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// A stored key as staff read it: `192.0.2.7` for an IPv4 client, `2001:db8:1:2::/64` for an
/// IPv6 one; `None` when it is not 32 hex digits.
pub fn show(key: &str) -> Option<String> {
    let octets = octets(key)?;
    let v6 = Ipv6Addr::from(octets);
    Some(match v6.to_ipv4_mapped() {
        Some(v4) => v4.to_string(),
        None => format!("{v6}/64"),
    })
}

/// The stored keys (inclusive, 32 hex digits each) of the clients `text` names: an IPv4
/// address or range (`192.0.2.0/24`), or an IPv6 address or range, each IPv6 client by the /64
/// it is stored as. `Err` says what is wrong, for a 400 naming the field.
pub fn key_range(text: &str) -> Result<(String, String), &'static str> {
    const WHAT: &str = "must be an IPv4 or IPv6 address, or a range such as 192.0.2.0/24";
    let text = text.trim();
    let net: IpNet = match text.parse::<IpAddr>() {
        Ok(address) => IpNet::from(address),
        Err(_) => text.parse::<IpNet>().map_err(|_| WHAT)?.trunc(),
    };
    let mapped = |address: IpAddr| match address {
        IpAddr::V4(v4) => (v4.to_ipv6_mapped().octets(), true),
        IpAddr::V6(v6) => (v6.octets(), false),
    };
    let key = |address: IpAddr| {
        let (mut octets, v4) = mapped(address);
        if !v4 {
            octets[8..].fill(0);
        }
        hex(&octets)
    };
    Ok((key(net.network()), key(net.broadcast())))
}

fn octets(key: &str) -> Option<[u8; 16]> {
    if key.len() != 32 {
        return None;
    }
    let mut octets = [0u8; 16];
    for (i, pair) in key.as_bytes().chunks(2).enumerate() {
        let text = std::str::from_utf8(pair).ok()?;
        octets[i] = u8::from_str_radix(text, 16).ok()?;
    }
    Some(octets)
}

fn hex(octets: &[u8; 16]) -> String {
    octets
        .iter()
        .fold(String::with_capacity(32), |mut text, byte| {
            let _ = write!(text, "{byte:02x}");
            text
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_read_back_as_addresses() {
        assert_eq!(
            show("00000000000000000000ffffc0000207").as_deref(),
            Some("192.0.2.7")
        );
        assert_eq!(
            show("20010db8000100020000000000000000").as_deref(),
            Some("2001:db8:1:2::/64")
        );
        assert_eq!(show("nope"), None);
    }

    #[test]
    fn a_typed_address_or_range_covers_the_stored_keys() {
        let (low, high) = key_range("192.0.2.0/24").expect("range");
        assert_eq!(low, "00000000000000000000ffffc0000200");
        assert_eq!(high, "00000000000000000000ffffc00002ff");
        let (low, high) = key_range(" 192.0.2.7 ").expect("address");
        assert_eq!(low, "00000000000000000000ffffc0000207");
        assert_eq!(low, high);
        // An IPv6 address finds its /64, whatever its host part.
        let (low, high) = key_range("2001:db8:1:2::a").expect("v6");
        assert_eq!(low, "20010db8000100020000000000000000");
        assert_eq!(low, high);
        let (low, high) = key_range("2001:db8::/48").expect("v6 range");
        assert_eq!(low, "20010db8000000000000000000000000");
        assert_eq!(high, "20010db80000ffff0000000000000000");
        assert!(key_range("192.0.2").is_err());
        assert!(key_range("10.0.0.0/33").is_err());
    }

    #[test]
    fn short_fingerprints() {
        let full = "abcDEF-_0123456789abcdefghijklmnopqrstuvwxy";
        assert_eq!(short_fingerprint(full), "abcDEF-_");
        assert!(is_short_fingerprint("abcDEF-_"));
        assert!(!is_short_fingerprint("abc"));
        assert!(!is_short_fingerprint("abc%EF-_"));
    }
}
