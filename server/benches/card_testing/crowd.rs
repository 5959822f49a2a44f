//! Who shops beside the attack (issue 47, item 7), each shopper one of a [`Kind`]:
//!
//! - **alone**: an address of their own (the issue-33 bench's shoppers);
//! - **carrier NAT**: phones behind a mobile carrier's NAT, [`CARRIER_NAT`] shoppers behind
//!   three addresses (from the carrier-grade NAT range `100.64.0.0/10`);
//! - **office**: twenty colleagues behind one address;
//! - **family**: households of two or three, one address and one e-mail, a card each;
//! - **mistypes twice**: two declined tries, then their own card, in one checkout: with two
//!   different wrong numbers (three cards in the checkout), or the same wrong number twice
//!   (as a wrong expiry or code is declined twice; the emulator declines by number only);
//! - **returning**: a customer of the shop (a customer id) who saved a card on an earlier
//!   visit, before the attack, and pays with it.
//!
//! The first four kinds mistype as the issue-33 shoppers do (one in seven types a number the
//! bank declines first), and one in ten of them pays again in a second checkout with the same
//! card. Two in five of those alone or behind a NAT, and everyone in an office, have a
//! customer id (signed in); families and those who mistype twice are guests.

use std::net::{IpAddr, Ipv4Addr};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::cards;

/// Shoppers behind the carrier's three NAT addresses.
pub const CARRIER_NAT: usize = 300;
/// Colleagues behind the office's address.
const OFFICE: usize = 20;
/// Households; every other one has three members, the rest two.
const FAMILIES: usize = 10;
/// Shoppers who mistype twice, of each of the two ways.
const MISTYPES_TWICE: usize = 10;
/// Returning customers with a saved card.
const RETURNING: usize = 20;

/// A kind of shopper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Alone,
    CarrierNat,
    Office,
    Family,
    MistypesTwice,
    RetypesTwice,
    Returning,
}

impl Kind {
    /// Every kind, in the report's order.
    pub const ALL: [Kind; 7] = [
        Kind::Alone,
        Kind::CarrierNat,
        Kind::Office,
        Kind::Family,
        Kind::MistypesTwice,
        Kind::RetypesTwice,
        Kind::Returning,
    ];

    /// The kind as the report names it.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Alone => "alone (own address)",
            Kind::CarrierNat => "carrier NAT (300 behind 3 addresses)",
            Kind::Office => "office (20 behind 1 address)",
            Kind::Family => "family (2-3 cards, 1 address)",
            Kind::MistypesTwice => "mistypes twice (2 wrong numbers)",
            Kind::RetypesTwice => "mistypes twice (1 wrong number)",
            Kind::Returning => "returning, saved card",
        }
    }
}

/// Who one shopper is.
pub struct Shopper {
    pub index: usize,
    pub kind: Kind,
    pub address: IpAddr,
    pub email: String,
    pub customer_id: Option<String>,
    pub card: String,
    pub expiry: (String, String),
    pub cvc: String,
    /// Numbers the bank declines, typed before their own card in their first checkout.
    pub mistypes: Vec<&'static str>,
    pub pays_twice: bool,
}

/// The carrier's NAT addresses (a bot hides behind them too).
pub fn carrier_nat_addresses() -> Vec<IpAddr> {
    (1..=3)
        .map(|n| IpAddr::V4(Ipv4Addr::new(100, 64, 7, n)))
        .collect()
}

/// Every shopper: `alone` with an address each, and the other kinds at their sizes.
pub fn population(alone: usize) -> Vec<Shopper> {
    let mut rng = StdRng::seed_from_u64(7);
    let declining = cards::declining_test_cards();
    let mistype = |index: usize| -> Vec<&'static str> {
        if index % 7 == 3 && !declining.is_empty() {
            vec![declining[(index / 7) % declining.len()]]
        } else {
            Vec::new()
        }
    };
    let nat = carrier_nat_addresses();
    let office = IpAddr::V4(Ipv4Addr::new(198, 18, 20, 1));
    let own = cards::addresses(alone + 2 * MISTYPES_TWICE + RETURNING, 126, 0x5a0e, 20);
    let mut plan: Vec<(Kind, IpAddr, Option<usize>)> = Vec::new();
    plan.extend(own[..alone].iter().map(|a| (Kind::Alone, *a, None)));
    plan.extend((0..CARRIER_NAT).map(|n| (Kind::CarrierNat, nat[n % nat.len()], None)));
    plan.extend((0..OFFICE).map(|_| (Kind::Office, office, None)));
    for family in 0..FAMILIES {
        let address = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 10 + family as u8));
        let members = 2 + family % 2;
        plan.extend((0..members).map(|_| (Kind::Family, address, Some(family))));
    }
    let (twice, rest) = own[alone..].split_at(MISTYPES_TWICE);
    let (retypes, returning) = rest.split_at(MISTYPES_TWICE);
    plan.extend(twice.iter().map(|a| (Kind::MistypesTwice, *a, None)));
    plan.extend(retypes.iter().map(|a| (Kind::RetypesTwice, *a, None)));
    plan.extend(returning.iter().map(|a| (Kind::Returning, *a, None)));
    plan.into_iter()
        .enumerate()
        .map(|(index, (kind, address, family))| {
            let signed_in = match kind {
                Kind::Alone | Kind::CarrierNat => rng.random_bool(0.4),
                Kind::Office | Kind::Returning => true,
                Kind::Family | Kind::MistypesTwice | Kind::RetypesTwice => false,
            };
            let mistypes = match kind {
                Kind::MistypesTwice => declining.iter().take(2).copied().collect(),
                Kind::RetypesTwice => declining.iter().take(1).cycle().take(2).copied().collect(),
                Kind::Returning => Vec::new(),
                _ => mistype(index),
            };
            Shopper {
                index,
                kind,
                address,
                email: match family {
                    Some(family) => format!("family{family}@example.jp"),
                    None => format!("shopper{index}@example.jp"),
                },
                customer_id: signed_in.then(|| format!("cust-{index:05}")),
                card: cards::random_card(&mut rng),
                expiry: cards::random_expiry(&mut rng),
                cvc: format!("{:03}", rng.random_range(0..1000)),
                mistypes,
                pays_twice: !matches!(
                    kind,
                    Kind::MistypesTwice | Kind::RetypesTwice | Kind::Returning
                ) && index % 10 == 5,
            }
        })
        .collect()
}
