//! Small extractors of the API handlers: the caller's IP address.

use std::convert::Infallible;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;

/// The TCP peer's IP when the server was started with connect info (as [`serve`] does);
/// `None` when mounted in a router without it.
///
/// [`serve`]: crate::serve
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerIp(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for PeerIp {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(address)| address.ip().to_string());
        Ok(Self(peer))
    }
}
