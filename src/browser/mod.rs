//! Thin, typed access to the browser: 3DS browser data, requests to checkout-server, top-window
//! navigation, the clock, timers and random ids. Nothing here knows about the form.

pub mod carried;
pub mod clock;
pub mod http;
pub mod ids;
pub mod info;
pub mod json;
pub mod navigate;
pub mod proof;
