//! `checkout`: the card checkout component merchants embed, and the card rules it shares with
//! `checkout-server`. Built without the default `ui` feature, only the pure rules compile, so the
//! server validates a card with exactly the code the browser runs.

pub mod card;
pub mod contract;
