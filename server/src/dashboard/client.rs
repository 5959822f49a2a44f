//! The client's address, by the same rule as the merchant API (`web::client_ip`): the peer,
//! or behind a trusted proxy (`TRUSTED_PROXIES`) the nearest forwarded address.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

use super::state::DashboardState;
use crate::web::client_ip;

/// The client's address (unspecified when the server was not given peer addresses).
#[derive(Debug, Clone, Copy)]
pub struct Client(pub IpAddr);

impl FromRequestParts<DashboardState> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &DashboardState,
    ) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |info| info.0.ip());
        Ok(Self(client_ip(
            peer,
            &parts.headers,
            &state.app.config.trusted_proxies,
        )))
    }
}
