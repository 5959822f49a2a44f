//! The customer's IP address for the gateway's `customer_ip`: the socket's peer address, or,
//! only when that peer is a configured trusted proxy (`TRUSTED_PROXIES`), the nearest address
//! in `X-Forwarded-For` that is not itself a trusted proxy.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use ipnet::IpNet;

use crate::web::ApiFailure;
use crate::web::AppState;

/// The client's IP address as this server believes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<AppState> for ClientIp {
    type Rejection = ApiFailure;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let Some(ConnectInfo(peer)) = parts.extensions.get::<ConnectInfo<SocketAddr>>() else {
            return Err(ApiFailure::Internal(
                "no peer address: serve with into_make_service_with_connect_info".into(),
            ));
        };
        Ok(Self(client_ip(
            peer.ip(),
            &parts.headers,
            &state.config.trusted_proxies,
        )))
    }
}

/// `peer`, unless it is trusted and forwards for someone: then the right-most
/// `X-Forwarded-For` entry that is not a trusted proxy (entries to its left could be forged
/// by the client). Unparseable entries stop the walk at the last good address.
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |address: &IpAddr| trusted.iter().any(|range| range.contains(address));
    let peer = canonical(peer);
    if !is_trusted(&peer) {
        return peer;
    }
    let mut client = peer;
    let hops = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .map(str::trim)
        .collect::<Vec<_>>();
    for hop in hops.into_iter().rev() {
        let Ok(address) = hop.parse::<IpAddr>() else {
            break;
        };
        client = canonical(address);
        if !is_trusted(&client) {
            break;
        }
    }
    client
}

/// IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) as plain IPv4.
fn canonical(address: IpAddr) -> IpAddr {
    match address {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(address, IpAddr::V4),
        IpAddr::V4(_) => address,
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn net(text: &str) -> IpNet {
        text.parse().expect("a range")
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().expect("ip")
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(
            "x-forwarded-for",
            HeaderValue::from_str(value).expect("header"),
        );
        headers
    }

    #[test]
    fn untrusted_peers_are_taken_as_they_are() {
        let headers = forwarded("203.0.113.9");
        assert_eq!(
            client_ip(ip("198.51.100.1"), &headers, &[]),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_ip(ip("198.51.100.1"), &headers, &[net("10.0.0.1/32")]),
            ip("198.51.100.1")
        );
    }

    #[test]
    fn trusted_proxies_yield_the_nearest_untrusted_hop() {
        let trusted = [net("127.0.0.1/32"), net("10.0.0.0/24")];
        let headers = forwarded("1.1.1.1, 203.0.113.9, 10.0.0.2");
        assert_eq!(
            client_ip(ip("127.0.0.1"), &headers, &trusted),
            ip("203.0.113.9")
        );
        assert_eq!(
            client_ip(ip("::ffff:127.0.0.1"), &headers, &trusted),
            ip("203.0.113.9")
        );
        assert_eq!(
            client_ip(ip("::ffff:8.8.8.8"), &headers, &trusted),
            ip("8.8.8.8")
        );
        let garbage = forwarded("nonsense");
        assert_eq!(
            client_ip(ip("127.0.0.1"), &garbage, &trusted),
            ip("127.0.0.1")
        );
        assert_eq!(
            client_ip(ip("127.0.0.1"), &HeaderMap::new(), &trusted),
            ip("127.0.0.1")
        );
    }
}
