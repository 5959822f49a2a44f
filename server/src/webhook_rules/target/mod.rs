//! Which addresses an event may be sent to. A merchant names the URL, so without a check an
//! endpoint could make this server post into its own network (server-side request forgery).
//! Unless `WEBHOOK_ALLOW_PRIVATE` lifts the check (the sandbox does, so the demo shop on
//! loopback receives its events), only globally reachable addresses pass, decided by an
//! allow-list rather than a list of private ranges:
//!
//! - IPv4: anything but the ranges of the IANA IPv4 special-purpose registry that are not
//!   globally reachable, and multicast ([`ipv4`]).
//! - IPv6: global unicast (`2000::/3`) only, minus the ranges of the IANA IPv6 special-purpose
//!   registry that are not globally reachable; the forms that carry an IPv4 address (NAT64,
//!   6to4, IPv4-mapped, IPv4-compatible) are judged by that IPv4 address ([`ipv6`]).
//!
//! The check applies to every address a host name resolves to at delivery time (the client's
//! resolver), not only when the endpoint is created; the URL around the host is [`mod@url`]'s.

mod ipv4;
mod ipv6;
#[cfg(test)]
mod registry_table;
mod url;

pub use url::{UrlRefusal, check_target_url, is_local_name};

use std::net::IpAddr;

/// Whether an event may go to `address` when private targets are not allowed.
pub fn is_public(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => ipv4::is_globally_reachable(v4),
        IpAddr::V6(v6) => ipv6::is_globally_reachable(v6),
    }
}
