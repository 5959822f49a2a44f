//! The HTTP API end to end over loopback, server and in-process emulator: sessions, pay, 3-D
//! Secure, tokens and saved cards, idempotency, webhooks, validation, card data, and the
//! protection layers (body, browser, headers, rate limits).

mod adjust;
mod card_data;
mod contract;
pub mod customer_cards;
mod customer_ids;
mod dialog_pages;
mod emulator_restart;
mod frame;
mod frame_contents;
mod hosted_page;
mod idempotency;
mod input_limits;
mod modes;
mod protection_body;
mod protection_browser;
mod protection_headers;
mod protection_limits;
mod result_page;
mod return_page;
pub(crate) mod risk;
mod saved_card_billing;
pub mod support;
mod three_ds;
mod tokens;
mod validation;
pub mod webhooks;
