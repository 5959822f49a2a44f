//! The demo shop's catalogue: a few one-off items priced in minor units of different
//! currencies (JPY has no minor unit), one of them reserved (authorization) rather than charged.
//! Subscription plans come from the server's own plan catalogue (`config::plans`).

use serde::Serialize;

/// One thing the demo shop sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Item {
    /// Stable id the pages send back (`POST /demo/checkout {item_id}`).
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// One line shown under the name and on the checkout form.
    pub description: &'static str,
    /// Price in minor units of `currency`.
    pub amount: u64,
    /// ISO 4217 code.
    pub currency: &'static str,
    /// False: only reserved now (authorization), captured when the item ships.
    pub capture: bool,
}

/// Everything the demo shop sells once, in display order. Subscriptions are the plans of the
/// server's plan catalogue, named by plan id.
pub const ITEMS: [Item; 4] = [
    Item {
        id: "tshirt",
        name: "T-shirt",
        description: "Organic cotton, size M",
        amount: 2_500,
        currency: "EUR",
        capture: true,
    },
    Item {
        id: "teapot",
        name: "Teapot",
        description: "Cast iron, 0.6 l",
        amount: 4_800,
        currency: "JPY",
        capture: true,
    },
    Item {
        id: "notebook",
        name: "Dot-grid notebook",
        description: "A5, 192 pages",
        amount: 1_200,
        currency: "USD",
        capture: true,
    },
    Item {
        id: "bike-deposit",
        name: "Bike rental deposit",
        description: "Reserved on your card now, charged only if the bike is not returned",
        amount: 15_000,
        currency: "EUR",
        capture: false,
    },
];

/// The item with this id.
pub fn item(id: &str) -> Option<&'static Item> {
    ITEMS.iter().find(|item| item.id == id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkout::currency::Currency;

    #[test]
    fn ids_are_unique_and_prices_valid() {
        for (i, a) in ITEMS.iter().enumerate() {
            assert!(
                ITEMS[i + 1..].iter().all(|b| b.id != a.id),
                "duplicate id {}",
                a.id
            );
            assert!(a.amount > 0, "{}", a.id);
            assert!(Currency::find(a.currency).is_some(), "{}", a.currency);
        }
        assert_eq!(item("teapot").map(|i| i.amount), Some(4_800));
        assert!(item("nothing").is_none());
    }
}
