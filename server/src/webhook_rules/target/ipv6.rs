//! IPv6 targets, an allow-list: global unicast (`2000::/3`) only, minus the ranges of the
//! IANA IPv6 special-purpose address registry that are not globally reachable. Everything
//! outside `2000::/3` (loopback, unspecified, unique-local, link-local, site-local, multicast,
//! discard, …) is refused without a list.
//!
//! Forms that carry an IPv4 address are judged by that address, since a connection to them
//! reaches it (through a translator, a relay, or the host's own IPv4 stack):
//! - NAT64 `64:ff9b::/96` (RFC 6052) and the local-use `64:ff9b:1::/48` (RFC 8215) in its
//!   `/96` layout (the IPv4 address in the last 32 bits); another layout of `64:ff9b:1::/48`
//!   is refused, since its IPv4 address cannot be read without knowing the prefix length;
//! - 6to4 `2002::/16` (RFC 3056, the IPv4 address in bits 16 to 47);
//! - IPv4-mapped `::ffff:0:0/96` and IPv4-compatible `::/96` (deprecated; `::` and `::1` fall
//!   in `0.0.0.0/8` there and are refused).

use std::net::{Ipv4Addr, Ipv6Addr};

use super::ipv4;

/// A range of addresses, `first` and the length of its prefix.
pub(super) struct Block {
    pub(super) first: Ipv6Addr,
    pub(super) prefix: u8,
}

/// The registry's ranges inside `2000::/3` that are not globally reachable (Teredo,
/// `2001::/32`, is "not applicable" there and is refused with the rest of `2001::/23`; the
/// others, such as `fc00::/7` or the SRv6 `5f00::/16`, lie outside `2000::/3`).
pub(super) const REFUSED: &[Block] = &[
    block([0x2001, 0, 0, 0, 0, 0, 0, 0], 23), // IETF protocol assignments
    block([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32), // documentation
    block([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20), // documentation
];

/// The registry's globally reachable entries inside `2001::/23`, which pass.
pub(super) const REACHABLE_IN_REFUSED: &[Block] = &[
    block([0x2001, 1, 0, 0, 0, 0, 0, 1], 128), // port control protocol anycast
    block([0x2001, 1, 0, 0, 0, 0, 0, 2], 128), // TURN anycast
    block([0x2001, 1, 0, 0, 0, 0, 0, 3], 128), // DNS-SD service registration
    block([0x2001, 3, 0, 0, 0, 0, 0, 0], 32),  // AMT
    block([0x2001, 4, 0x112, 0, 0, 0, 0, 0], 48), // AS112-v6
    block([0x2001, 0x20, 0, 0, 0, 0, 0, 0], 28), // ORCHIDv2
    block([0x2001, 0x30, 0, 0, 0, 0, 0, 0], 28), // drone remote ID
];

const fn block(segments: [u16; 8], prefix: u8) -> Block {
    let [a, b, c, d, e, f, g, h] = segments;
    Block {
        first: Ipv6Addr::new(a, b, c, d, e, f, g, h),
        prefix,
    }
}

impl Block {
    /// Whether `address` lies in this range.
    pub(super) fn contains(&self, address: Ipv6Addr) -> bool {
        let mask = u128::MAX
            .checked_shl(128 - u32::from(self.prefix))
            .unwrap_or(0);
        u128::from(address) & mask == u128::from(self.first) & mask
    }
}

const GLOBAL_UNICAST: Block = block([0x2000, 0, 0, 0, 0, 0, 0, 0], 3);
const NAT64_WELL_KNOWN: Block = block([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96);
const NAT64_LOCAL_USE: Block = block([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 96);
const SIX_TO_FOUR: Block = block([0x2002, 0, 0, 0, 0, 0, 0, 0], 16);
const IPV4_MAPPED: Block = block([0, 0, 0, 0, 0, 0xffff, 0, 0], 96);
const IPV4_COMPATIBLE: Block = block([0, 0, 0, 0, 0, 0, 0, 0], 96);

/// Whether `address` may be a target.
pub fn is_globally_reachable(address: Ipv6Addr) -> bool {
    if let Some(v4) = embedded_ipv4(address) {
        return ipv4::is_globally_reachable(v4);
    }
    GLOBAL_UNICAST.contains(address)
        && (!REFUSED.iter().any(|block| block.contains(address))
            || REACHABLE_IN_REFUSED
                .iter()
                .any(|block| block.contains(address)))
}

/// The IPv4 address a connection to `address` would reach, for the forms that carry one.
fn embedded_ipv4(address: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(address);
    let last_32 = || Ipv4Addr::from((bits & u128::from(u32::MAX)) as u32);
    if [
        &NAT64_WELL_KNOWN,
        &NAT64_LOCAL_USE,
        &IPV4_MAPPED,
        &IPV4_COMPATIBLE,
    ]
    .iter()
    .any(|form| form.contains(address))
    {
        return Some(last_32());
    }
    if SIX_TO_FOUR.contains(address) {
        return Some(Ipv4Addr::from(((bits >> 80) & u128::from(u32::MAX)) as u32));
    }
    None
}
