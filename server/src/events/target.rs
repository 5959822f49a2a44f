//! Which addresses an event may be sent to. A merchant names the URL, so without a check an
//! endpoint could make this server post into its own network (server-side request forgery):
//! loopback, private, link-local, unique-local, shared (CGNAT), unspecified, multicast and
//! broadcast addresses are refused unless `WEBHOOK_ALLOW_PRIVATE` allows them (the sandbox
//! does, so the demo shop on loopback receives its events). The check applies to every
//! address a host name resolves to at delivery time, not only when the endpoint is created.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Whether an event may go to `address` when private targets are not allowed.
pub fn is_public(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(address: Ipv4Addr) -> bool {
    let [a, b, ..] = address.octets();
    let shared = a == 100 && (64..128).contains(&b);
    let benchmarking = a == 198 && (b == 18 || b == 19);
    !(address.is_loopback()
        || address.is_private()
        || address.is_link_local()
        || address.is_unspecified()
        || address.is_multicast()
        || address.is_broadcast()
        || address.is_documentation()
        || shared
        || benchmarking
        || a == 0
        || a >= 240)
}

fn is_public_v6(address: Ipv6Addr) -> bool {
    let first = address.segments()[0];
    let unique_local = first & 0xfe00 == 0xfc00;
    let link_local = first & 0xffc0 == 0xfe80;
    let documentation = first == 0x2001 && address.segments()[1] == 0x0db8;
    !(address.is_loopback()
        || address.is_unspecified()
        || address.is_multicast()
        || unique_local
        || link_local
        || documentation)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public(text: &str) -> bool {
        is_public(text.parse().expect("address"))
    }

    #[test]
    fn internal_addresses_are_refused() {
        for address in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "2001:db8::1",
        ] {
            assert!(!public(address), "{address}");
        }
    }

    #[test]
    fn public_addresses_are_allowed() {
        for address in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700:4700::1111",
            "::ffff:1.1.1.1",
        ] {
            assert!(public(address), "{address}");
        }
    }
}
