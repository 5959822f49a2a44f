//! The address check against every entry of the IANA special-purpose address registries
//! (IPv4 and IPv6, as of 2025), one address inside each range and, where the neighbour is an
//! ordinary address, one just outside; plus the forms that carry an IPv4 address.

use super::is_public;

/// `(registry entry, address, whether an event may go there)`.
const IPV4: &[(&str, &str, bool)] = &[
    ("0.0.0.0/8 this network", "0.1.2.3", false),
    ("0.0.0.0/32 this host", "0.0.0.0", false),
    ("just past 0.0.0.0/8", "1.0.0.0", true),
    ("10.0.0.0/8 private use", "10.1.2.3", false),
    ("just before 10.0.0.0/8", "9.255.255.255", true),
    ("just past 10.0.0.0/8", "11.0.0.0", true),
    ("100.64.0.0/10 shared", "100.64.0.1", false),
    ("100.64.0.0/10 shared, last", "100.127.255.255", false),
    ("just before 100.64.0.0/10", "100.63.255.255", true),
    ("just past 100.64.0.0/10", "100.128.0.0", true),
    ("127.0.0.0/8 loopback", "127.0.0.1", false),
    ("just before 127.0.0.0/8", "126.255.255.255", true),
    ("just past 127.0.0.0/8", "128.0.0.0", true),
    ("169.254.0.0/16 link local", "169.254.169.254", false),
    ("just before 169.254.0.0/16", "169.253.255.255", true),
    ("just past 169.254.0.0/16", "169.255.0.0", true),
    ("172.16.0.0/12 private use", "172.31.255.255", false),
    ("just before 172.16.0.0/12", "172.15.255.255", true),
    ("just past 172.16.0.0/12", "172.32.0.0", true),
    (
        "192.0.0.0/24 IETF protocol assignments",
        "192.0.0.192",
        false,
    ),
    ("192.0.0.0/29 DS-Lite", "192.0.0.1", false),
    ("192.0.0.8/32 IPv4 dummy", "192.0.0.8", false),
    ("192.0.0.9/32 PCP anycast", "192.0.0.9", false),
    ("192.0.0.10/32 TURN anycast", "192.0.0.10", false),
    ("192.0.0.170/32 NAT64 discovery", "192.0.0.170", false),
    ("192.0.0.171/32 NAT64 discovery", "192.0.0.171", false),
    ("just before 192.0.0.0/24", "191.255.255.255", true),
    ("just past 192.0.0.0/24", "192.0.1.0", true),
    ("192.0.2.0/24 TEST-NET-1", "192.0.2.1", false),
    ("just past 192.0.2.0/24", "192.0.3.0", true),
    ("192.31.196.0/24 AS112-v4 (reachable)", "192.31.196.1", true),
    ("192.52.193.0/24 AMT (reachable)", "192.52.193.1", true),
    ("192.88.99.0/24 6to4 relay anycast", "192.88.99.1", false),
    ("just before 192.88.99.0/24", "192.88.98.255", true),
    ("just past 192.88.99.0/24", "192.88.100.0", true),
    ("192.168.0.0/16 private use", "192.168.1.1", false),
    ("just before 192.168.0.0/16", "192.167.255.255", true),
    ("just past 192.168.0.0/16", "192.169.0.0", true),
    (
        "192.175.48.0/24 AS112 direct delegation (reachable)",
        "192.175.48.1",
        true,
    ),
    ("198.18.0.0/15 benchmarking", "198.19.255.255", false),
    ("just before 198.18.0.0/15", "198.17.255.255", true),
    ("just past 198.18.0.0/15", "198.20.0.0", true),
    ("198.51.100.0/24 TEST-NET-2", "198.51.100.7", false),
    ("just past 198.51.100.0/24", "198.51.101.0", true),
    ("203.0.113.0/24 TEST-NET-3", "203.0.113.7", false),
    ("just before 203.0.113.0/24", "203.0.112.255", true),
    ("224.0.0.0/4 multicast", "224.0.0.1", false),
    ("224.0.0.0/4 multicast, last", "239.255.255.255", false),
    ("just before 224.0.0.0/4", "223.255.255.255", true),
    ("240.0.0.0/4 reserved", "240.0.0.1", false),
    (
        "255.255.255.255/32 limited broadcast",
        "255.255.255.255",
        false,
    ),
    ("ordinary", "93.184.216.34", true),
];

/// `(registry entry, address, whether an event may go there)`.
const IPV6: &[(&str, &str, bool)] = &[
    ("::1/128 loopback", "::1", false),
    ("::/128 unspecified", "::", false),
    (
        "::ffff:0:0/96 IPv4-mapped, private",
        "::ffff:10.0.0.1",
        false,
    ),
    (
        "::ffff:0:0/96 IPv4-mapped, loopback",
        "::ffff:127.0.0.1",
        false,
    ),
    ("::ffff:0:0/96 IPv4-mapped, public", "::ffff:1.1.1.1", true),
    ("::/96 IPv4-compatible, private", "::10.0.0.1", false),
    (
        "::/96 IPv4-compatible, metadata",
        "::169.254.169.254",
        false,
    ),
    ("::/96 IPv4-compatible, public", "::8.8.8.8", true),
    ("64:ff9b::/96 NAT64, private", "64:ff9b::a00:1", false),
    ("64:ff9b::/96 NAT64, metadata", "64:ff9b::a9fe:a9fe", false),
    ("64:ff9b::/96 NAT64, 192.0.0.0/24", "64:ff9b::c000:1", false),
    ("64:ff9b::/96 NAT64, public", "64:ff9b::808:808", true),
    ("just past 64:ff9b::/96", "64:ff9b::1:808:808", false),
    (
        "64:ff9b:1::/48 local NAT64, private",
        "64:ff9b:1::a00:1",
        false,
    ),
    (
        "64:ff9b:1::/48 local NAT64, public",
        "64:ff9b:1::808:808",
        true,
    ),
    (
        "64:ff9b:1::/48 local NAT64, other layout",
        "64:ff9b:1:a00:1::",
        false,
    ),
    ("just past 64:ff9b:1::/48", "64:ff9b:2::808:808", false),
    ("100::/64 discard-only", "100::1", false),
    ("100:0:0:1::/64 dummy prefix", "100:0:0:1::1", false),
    ("2001::/23 IETF protocol assignments", "2001:100::1", false),
    (
        "2001::/32 Teredo",
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",
        false,
    ),
    ("2001:1::1/128 PCP anycast (reachable)", "2001:1::1", true),
    ("2001:1::2/128 TURN anycast (reachable)", "2001:1::2", true),
    ("2001:1::3/128 DNS-SD (reachable)", "2001:1::3", true),
    ("next to 2001:1::3/128", "2001:1::4", false),
    ("2001:2::/48 benchmarking", "2001:2::1", false),
    ("2001:3::/32 AMT (reachable)", "2001:3::1", true),
    (
        "2001:4:112::/48 AS112-v6 (reachable)",
        "2001:4:112::1",
        true,
    ),
    ("just past 2001:4:112::/48", "2001:4:113::1", false),
    ("2001:10::/28 ORCHID (deprecated)", "2001:10::1", false),
    ("2001:20::/28 ORCHIDv2 (reachable)", "2001:20::1", true),
    (
        "2001:30::/28 drone remote ID (reachable)",
        "2001:30::1",
        true,
    ),
    ("just past 2001::/23", "2001:200::1", true),
    ("2001:db8::/32 documentation", "2001:db8::1", false),
    ("just before 2001:db8::/32", "2001:db7:ffff::1", true),
    ("just past 2001:db8::/32", "2001:db9::1", true),
    ("2002::/16 6to4, private", "2002:a00:1::1", false),
    ("2002::/16 6to4, loopback", "2002:7f00:1::1", false),
    ("2002::/16 6to4, public", "2002:808:808::1", true),
    ("just past 2002::/16", "2003::1", true),
    (
        "2620:4f:8000::/48 AS112 direct delegation (reachable)",
        "2620:4f:8000::1",
        true,
    ),
    ("3fff::/20 documentation", "3fff::1", false),
    ("just past 3fff::/20", "3fff:1000::1", true),
    ("5f00::/16 SRv6 SIDs (outside 2000::/3)", "5f00::1", false),
    ("fc00::/7 unique local", "fd00::1", false),
    ("fe80::/10 link local", "fe80::1", false),
    ("fec0::/10 site local (deprecated)", "fec0::1", false),
    ("ff00::/8 multicast", "ff02::1", false),
    ("2000::/3 global unicast, first", "2000::1", true),
    ("just before 2000::/3", "1fff:ffff::1", false),
    (
        "2000::/3 global unicast, last",
        "3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
        true,
    ),
    ("just past 2000::/3", "4000::1", false),
    ("ordinary", "2606:4700:4700::1111", true),
];

#[test]
fn every_special_purpose_range_is_judged_as_the_registries_say() {
    let wrong: Vec<String> = IPV4
        .iter()
        .chain(IPV6)
        .filter(|(_, address, allowed)| is_public(address.parse().expect(address)) != *allowed)
        .map(|(entry, address, allowed)| {
            let verdict = if *allowed { "refused" } else { "allowed" };
            format!("{entry}: {address} {verdict}")
        })
        .collect();
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn both_ends_of_every_refused_range_are_refused() {
    use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
    for block in super::ipv4::REFUSED {
        let first = u32::from(block.first);
        let last = first | u32::MAX.checked_shr(u32::from(block.prefix)).unwrap_or(0);
        for end in [first, last] {
            let address = IpAddr::V4(Ipv4Addr::from(end));
            assert!(!is_public(address), "{address}");
        }
    }
    for block in super::ipv6::REFUSED {
        let first = u128::from(block.first);
        let last = first | u128::MAX.checked_shr(u32::from(block.prefix)).unwrap_or(0);
        for end in [first, last] {
            let address = IpAddr::V6(Ipv6Addr::from(end));
            assert!(!is_public(address), "{address}");
        }
    }
}

#[test]
fn a_private_address_behind_nat64_is_refused() {
    // Today's main connected here: on an IPv6-only host with DNS64, a name whose A record is
    // 10.0.0.1 resolves to this address.
    assert!(!is_public("64:ff9b::a00:1".parse().expect("address")));
}
