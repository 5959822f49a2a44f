//! IPv4 targets: every range of the IANA IPv4 special-purpose address registry that is not
//! globally reachable is refused, and multicast with it. The registry's globally reachable
//! entries (AS112 `192.31.196.0/24` and `192.175.48.0/24`, AMT `192.52.193.0/24`) pass like
//! any other unicast address; `192.0.0.0/24` is refused whole, its two anycast exceptions
//! (`192.0.0.9`, `192.0.0.10`) included, as no shop's endpoint lives there.

use std::net::Ipv4Addr;

/// A range of addresses, `first` and the length of its prefix.
pub(super) struct Block {
    pub(super) first: Ipv4Addr,
    pub(super) prefix: u8,
}

/// The ranges refused: the registry's "not globally reachable" entries, plus multicast.
pub(super) const REFUSED: &[Block] = &[
    block([0, 0, 0, 0], 8),          // this network
    block([10, 0, 0, 0], 8),         // private use
    block([100, 64, 0, 0], 10),      // shared address space
    block([127, 0, 0, 0], 8),        // loopback
    block([169, 254, 0, 0], 16),     // link local
    block([172, 16, 0, 0], 12),      // private use
    block([192, 0, 0, 0], 24),       // IETF protocol assignments
    block([192, 0, 2, 0], 24),       // documentation (TEST-NET-1)
    block([192, 88, 99, 0], 24),     // 6to4 relay anycast (deprecated)
    block([192, 168, 0, 0], 16),     // private use
    block([198, 18, 0, 0], 15),      // benchmarking
    block([198, 51, 100, 0], 24),    // documentation (TEST-NET-2)
    block([203, 0, 113, 0], 24),     // documentation (TEST-NET-3)
    block([224, 0, 0, 0], 4),        // multicast
    block([240, 0, 0, 0], 4),        // reserved
    block([255, 255, 255, 255], 32), // limited broadcast
];

const fn block(octets: [u8; 4], prefix: u8) -> Block {
    Block {
        first: Ipv4Addr::new(octets[0], octets[1], octets[2], octets[3]),
        prefix,
    }
}

impl Block {
    /// Whether `address` lies in this range.
    pub(super) fn contains(&self, address: Ipv4Addr) -> bool {
        let mask = u32::MAX
            .checked_shl(32 - u32::from(self.prefix))
            .unwrap_or(0);
        u32::from(address) & mask == u32::from(self.first) & mask
    }
}

/// Whether `address` is in none of the refused ranges.
pub fn is_globally_reachable(address: Ipv4Addr) -> bool {
    !REFUSED.iter().any(|block| block.contains(address))
}
