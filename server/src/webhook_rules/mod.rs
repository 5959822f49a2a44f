//! What a webhook endpoint may be, whoever names it: where it may point ([`target`]: public
//! addresses only, unless private ones are allowed) and which secret signs for it
//! ([`secret`]). Below both readers: `config` checks `MERCHANT_WEBHOOK_URL` and
//! `MERCHANT_WEBHOOK_SECRET` with it at start, `events` checks what a merchant names and every
//! address it connects to. Plain rules, importing nothing of this crate.

pub mod secret;
pub mod target;
