//! What the attacker and the shoppers type and where they come from: random Luhn-valid card
//! numbers the emulator approves (none of its test cards), the emulator's declining test
//! cards for a mistype, and client addresses (IPv4, and IPv6 each in its own /64). Numbers
//! live only in memory for the pay body; nothing here prints or stores one.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use checkout_sandbox::test_cards::{CardBehaviour, TEST_CARDS};
use rand::Rng;

/// The emulator's test cards it declines, in its table's order (a shopper's mistype).
pub fn declining_test_cards() -> Vec<&'static str> {
    TEST_CARDS
        .iter()
        .filter(|(_, behaviour)| matches!(behaviour, CardBehaviour::Decline(_)))
        .map(|(number, _)| *number)
        .collect()
}

/// A random 16-digit Visa or Mastercard number passing Luhn that is none of the emulator's
/// test cards: the emulator approves it.
pub fn random_card(rng: &mut impl Rng) -> String {
    loop {
        let mut digits: Vec<u8> = if rng.random_bool(0.6) {
            vec![4]
        } else {
            vec![5, rng.random_range(1..=5)]
        };
        while digits.len() < 15 {
            digits.push(rng.random_range(0..10));
        }
        digits.push(check_digit(&digits));
        let number: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        if !TEST_CARDS.iter().any(|(test, _)| *test == number) {
            return number;
        }
    }
}

/// The Luhn check digit of `body` (digits 0–9).
fn check_digit(body: &[u8]) -> u8 {
    let sum: u32 = body
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            let d = u32::from(d);
            if i % 2 == 0 {
                let twice = d * 2;
                if twice > 9 { twice - 9 } else { twice }
            } else {
                d
            }
        })
        .sum();
    u8::try_from((10 - sum % 10) % 10).unwrap_or(0)
}

/// A card's expiry month and year, some months to years ahead, as the form sends them.
pub fn random_expiry(rng: &mut impl Rng) -> (String, String) {
    (
        format!("{:02}", rng.random_range(1..=12)),
        format!("{}", rng.random_range(2028..=2033)),
    )
}

/// `count` distinct client addresses from `first_octet`'s /8 (IPv4) and, one in `ipv6_every`,
/// an IPv6 address in a /64 of its own under `prefix` (a 16-bit network number).
pub fn addresses(count: usize, first_octet: u8, prefix: u16, ipv6_every: usize) -> Vec<IpAddr> {
    (0..count)
        .map(|n| {
            let n16 = u16::try_from(n % 65_536).unwrap_or(0);
            if ipv6_every > 0 && n % ipv6_every == ipv6_every - 1 {
                IpAddr::V6(Ipv6Addr::new(0x2001, 0x0db8, prefix, n16, 0, 0, 0, 0x10))
            } else {
                let [hi, lo] = n16.to_be_bytes();
                IpAddr::V4(Ipv4Addr::new(first_octet, hi, lo, 1 + (n % 200) as u8))
            }
        })
        .collect()
}
