//! `checkout-server`: the service a merchant runs beside the shop. It holds the gateway
//! credentials, prices payments, calls the gateway and stores what happened.

pub mod gateway;
pub mod sandbox;
