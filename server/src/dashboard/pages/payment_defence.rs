//! The payment page's "Card-testing defence" facts, so staff see what a block would aim at
//! before they add one: the client address as the rules key it (an IPv4 address, an IPv6
//! /64), the BIN, the card fingerprint's short form (each a link to the payments that share
//! it), the rule that refused it, and which of the rules' counts it is in, read from what was
//! recorded with it (`store/sql/risk_counts.rs` counts typed cards not blocked, by session, address
//! and customer, and declines by session and by card); and, for the block buttons, how many
//! payments of the last 24 hours blocking its card or its address would have caught.

use checkout::contract::PaymentState;
use maud::{Markup, html};
use time::OffsetDateTime;

use super::filters::encode;
use crate::dashboard::block_preview::{WINDOW, caught_by};
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::risk::Rule;
use crate::risk::blocks::BlockValue;
use crate::store::model::Payment;
use crate::store::model::client_key::{short_fingerprint, show};

/// How many payments of the last 24 hours "Block this card" and "Block this address" would
/// have caught (`None` where the payment has no card fingerprint or no client address).
#[derive(Clone, Copy, Debug, Default)]
pub struct Catches {
    /// By the card.
    pub card: Option<u64>,
    /// By the address.
    pub address: Option<u64>,
}

/// [`Catches`] of `p`, counted as the block form's preview counts.
pub async fn catches(state: &DashboardState, p: &Payment) -> Result<Catches, DashboardError> {
    let since = OffsetDateTime::now_utc() - WINDOW;
    let entries = [
        p.card_fingerprint.as_deref().map(BlockValue::card),
        p.client_key.as_deref().map(BlockValue::client_key),
    ];
    let mut counts = [None, None];
    for (count, entry) in counts.iter_mut().zip(entries) {
        let Some(Ok(entry)) = entry else { continue };
        *count = Some(
            state
                .app
                .store
                .count_payments(caught_by(&entry, since)?)
                .await?,
        );
    }
    let [card, address] = counts;
    Ok(Catches { card, address })
}

/// "In the last 24 hours it would have caught N payments.", for a block button.
pub fn caught(count: Option<u64>) -> Markup {
    html! {
        @if let Some(n) = count {
            " In the last 24 hours it would have caught " strong { (n) } " payment" @if n != 1 { "s" } "."
        }
    }
}

/// The section, or nothing for a payment the defence recorded nothing of.
pub fn defence(p: &Payment) -> Markup {
    let address = p.client_key.as_deref().and_then(show);
    let bin = p.card.as_ref().and_then(|card| card.bin.as_ref());
    let short = p.card_fingerprint.as_deref().map(short_fingerprint);
    if address.is_none() && short.is_none() && p.risk_rule.is_none() {
        return html! {};
    }
    let rules = counted_by(p);
    html! {
        h2 id="defence" { "Card-testing defence" }
        dl class="facts" {
            dt { "Client address (as the rules count it)" }
            dd {
                @match &address {
                    Some(address) => a href={ "/payments?address=" (encode(address)) } { (address) },
                    None => "—",
                }
            }
            dt { "BIN (first six)" }
            dd {
                @match bin {
                    Some(bin) => a href={ "/payments?bin=" (bin.as_str()) } { (bin.as_str()) },
                    None => "—",
                }
            }
            dt { "Card (fingerprint, short form)" }
            dd {
                @match short {
                    Some(short) => a href={ "/payments?card=" (encode(short)) } { code { (short) } },
                    None => "—",
                }
            }
            @if let Some(rule) = &p.risk_rule {
                dt { "Refused before the gateway by" }
                dd {
                    code { (rule) }
                    @if let Some(meaning) = Rule::from_name(rule).map(Rule::meaning) { " (" (meaning) ")" }
                    " — the shopper was shown one neutral refusal, never the rule."
                }
            }
            dt { "Counted by the rules" }
            dd {
                @if rules.is_empty() { "none" }
                @for (i, rule) in rules.iter().enumerate() {
                    @if i > 0 { ", " }
                    code { (rule.name()) }
                }
            }
        }
    }
}

/// The velocity rules whose counts hold `p`, by what was recorded with it. A card that paid
/// is no new card for its address (`store/sql/risk_counts.rs`): a paid payment is not in the
/// address's count (another payment of the same card that paid is not seen from this row).
pub fn counted_by(p: &Payment) -> Vec<Rule> {
    let mut rules = Vec::new();
    if p.state == PaymentState::Blocked {
        return rules;
    }
    let typed_card = p.card_fingerprint.is_some() && p.saved_card_id.is_none();
    let paid = p.state.is_paid();
    if typed_card {
        rules.push(Rule::CardsPerSession);
        if p.client_key.is_some() && !paid {
            rules.push(Rule::CardsPerAddress);
        }
        if p.customer_id.is_some() {
            rules.push(Rule::CardsPerCustomer);
        }
    }
    if p.state == PaymentState::Declined {
        rules.push(Rule::DeclinesPerSession);
        if p.card_fingerprint.is_some() {
            rules.push(Rule::DeclinesPerCard);
        }
    }
    rules
}
