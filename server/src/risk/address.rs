//! A client's address as the card-testing defence keys it: an IPv4 address whole, an IPv6
//! address by its /64 (the network one subscriber is usually handed, within which addresses
//! are chosen freely, so one attacker). Shared by the in-memory pay rate limit
//! (`web::protect::rate_limit`) and the rules counted in the database.

use std::fmt::Write as _;
use std::net::IpAddr;

/// A client: its IPv4 address (as `::ffff:a.b.c.d`, whose last 8 bytes are never all zero)
/// or its IPv6 /64 (the last 8 bytes zeroed).
pub type ClientKey = [u8; 16];

/// One client's key: IPv4 addresses whole, IPv6 ones by their /64.
pub fn address_key(client: IpAddr) -> ClientKey {
    match client {
        IpAddr::V4(v4) => v4.to_ipv6_mapped().octets(),
        IpAddr::V6(v6) => {
            let mut key = v6.octets();
            key[8..].fill(0);
            key
        }
    }
}

/// The key as stored with a payment: 32 lower-case hex digits.
pub fn stored_address_key(client: IpAddr) -> String {
    hex_of(&address_key(client))
}

/// The whole address as block-list ranges compare it: 32 lower-case hex digits, an IPv4
/// address mapped into IPv6 (`::ffff:a.b.c.d`).
pub fn hex(address: IpAddr) -> String {
    let octets = match address {
        IpAddr::V4(v4) => v4.to_ipv6_mapped().octets(),
        IpAddr::V6(v6) => v6.octets(),
    };
    hex_of(&octets)
}

fn hex_of(octets: &[u8; 16]) -> String {
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

    fn stored(text: &str) -> String {
        stored_address_key(text.parse().expect("ip"))
    }

    #[test]
    fn an_ipv6_64_is_one_key_and_ipv4_addresses_are_each_one() {
        assert_eq!(stored("2001:db8:1:2::a"), stored("2001:db8:1:2:ffff::1"));
        assert_ne!(stored("2001:db8:1:2::a"), stored("2001:db8:1:3::a"));
        assert_ne!(stored("192.0.2.1"), stored("192.0.2.2"));
        assert_eq!(stored("192.0.2.1"), "00000000000000000000ffffc0000201");
        assert_eq!(stored("192.0.2.1").len(), 32);
    }

    #[test]
    fn the_whole_address_in_hex_keeps_an_ipv6_host() {
        let v6 = hex("2001:db8:1:2::a".parse().expect("ip"));
        assert_eq!(v6, "20010db800010002000000000000000a");
        assert_eq!(hex("192.0.2.1".parse().expect("ip")), stored("192.0.2.1"));
    }
}
