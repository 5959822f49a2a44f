//! Card brands and what each one allows: lengths, security code length, digit grouping, and a
//! stable lowercase id used on the wire. Which digits belong to which brand is in `bin_table`.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de};

/// A card scheme, as far as the leading digits tell.
///
/// Serialized as its [`Brand::id`] (`"visa"`, `"mastercard"`, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Brand {
    /// Visa: starts with 4.
    Visa,
    /// Mastercard: 51–55 and the 2-series 2221–2720.
    Mastercard,
    /// American Express: 34 and 37; 15 digits, 4-digit security code.
    Amex,
    /// Discover: 6011, 644–649, 65.
    Discover,
    /// Diners Club International: 300–305, 3095, 36, 38–39.
    DinersClub,
    /// JCB: 3528–3589.
    Jcb,
    /// China UnionPay: 62 and 8100–8171.
    UnionPay,
    /// Maestro: 50, 56–58, 6304, 6759, 6761–6763.
    Maestro,
    /// Mir (Russia): 2200–2204.
    Mir,
    /// Elo (Brazil): a list of six-digit ranges.
    Elo,
    /// RuPay (India): NPCI's six-digit ranges.
    RuPay,
    /// Interac (Canada): co-badged on Visa numbers, see the range table.
    Interac,
    /// Cartes Bancaires (France): co-badged on Visa numbers, see the range table.
    CartesBancaires,
    /// Not recognised (yet): the prefix is too short or matches no known range.
    Unknown,
}

/// Every length from 12 to 19: what an unrecognised number may have.
const ANY_LENGTH: &[usize] = &[12, 13, 14, 15, 16, 17, 18, 19];
const FOURS: &[usize] = &[4, 4, 4, 4, 3];

impl Brand {
    /// Every brand, `Unknown` last.
    pub const ALL: [Brand; 14] = [
        Brand::Visa,
        Brand::Mastercard,
        Brand::Amex,
        Brand::Discover,
        Brand::DinersClub,
        Brand::Jcb,
        Brand::UnionPay,
        Brand::Maestro,
        Brand::Mir,
        Brand::Elo,
        Brand::RuPay,
        Brand::Interac,
        Brand::CartesBancaires,
        Brand::Unknown,
    ];

    /// Stable lowercase id, used in JSON and as a CSS/icon key.
    pub fn id(self) -> &'static str {
        match self {
            Brand::Visa => "visa",
            Brand::Mastercard => "mastercard",
            Brand::Amex => "amex",
            Brand::Discover => "discover",
            Brand::DinersClub => "diners_club",
            Brand::Jcb => "jcb",
            Brand::UnionPay => "unionpay",
            Brand::Maestro => "maestro",
            Brand::Mir => "mir",
            Brand::Elo => "elo",
            Brand::RuPay => "rupay",
            Brand::Interac => "interac",
            Brand::CartesBancaires => "cartes_bancaires",
            Brand::Unknown => "unknown",
        }
    }

    /// The brand whose [`Brand::id`] is `id`.
    pub fn from_id(id: &str) -> Option<Brand> {
        Brand::ALL.into_iter().find(|brand| brand.id() == id)
    }

    /// Name to show a person.
    pub fn display_name(self) -> &'static str {
        match self {
            Brand::Visa => "Visa",
            Brand::Mastercard => "Mastercard",
            Brand::Amex => "American Express",
            Brand::Discover => "Discover",
            Brand::DinersClub => "Diners Club",
            Brand::Jcb => "JCB",
            Brand::UnionPay => "UnionPay",
            Brand::Maestro => "Maestro",
            Brand::Mir => "Mir",
            Brand::Elo => "Elo",
            Brand::RuPay => "RuPay",
            Brand::Interac => "Interac",
            Brand::CartesBancaires => "Cartes Bancaires",
            Brand::Unknown => "Card",
        }
    }

    /// Card number lengths the brand issues, ascending. `Unknown` allows 12 to 19.
    pub fn valid_lengths(self) -> &'static [usize] {
        match self {
            Brand::Visa => &[13, 16, 19],
            Brand::Mastercard
            | Brand::Elo
            | Brand::RuPay
            | Brand::Interac
            | Brand::CartesBancaires => &[16],
            Brand::Amex => &[15],
            Brand::Discover | Brand::Jcb | Brand::UnionPay | Brand::Mir => &[16, 17, 18, 19],
            Brand::DinersClub => &[14, 15, 16, 17, 18, 19],
            Brand::Maestro | Brand::Unknown => ANY_LENGTH,
        }
    }

    /// True when a number of `length` digits is possible for this brand.
    pub fn is_valid_length(self, length: usize) -> bool {
        self.valid_lengths().contains(&length)
    }

    /// Longest number the brand issues: where the form stops accepting digits.
    pub fn max_length(self) -> usize {
        self.valid_lengths().last().copied().unwrap_or(19)
    }

    /// Digits of the security code: 4 for Amex, 3 for the others, `None` (3 or 4) when unknown.
    pub fn cvc_length(self) -> Option<usize> {
        match self {
            Brand::Amex => Some(4),
            Brand::Unknown => None,
            _ => Some(3),
        }
    }

    /// Sizes of the space-separated digit groups for a number of `digit_count` digits.
    ///
    /// Amex is 4-6-5 and a 14-digit Diners number 4-6-4; everything else is groups of four
    /// (a 19-digit number ends with a group of three). The groups always cover
    /// [`Brand::max_length`] digits.
    pub fn group_sizes(self, digit_count: usize) -> &'static [usize] {
        match self {
            Brand::Amex => &[4, 6, 5],
            Brand::DinersClub if digit_count <= 14 => &[4, 6, 4],
            _ => FOURS,
        }
    }
}

impl fmt::Display for Brand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.display_name())
    }
}

impl Serialize for Brand {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.id())
    }
}

impl<'de> Deserialize<'de> for Brand {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let id = String::deserialize(deserializer)?;
        Brand::from_id(&id).ok_or_else(|| de::Error::custom(format!("unknown card brand `{id}`")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_and_are_unique() {
        for brand in Brand::ALL {
            assert_eq!(Brand::from_id(brand.id()), Some(brand));
            let json = serde_json::to_string(&brand).expect("serializes");
            assert_eq!(json, format!("\"{}\"", brand.id()));
            let back: Brand = serde_json::from_str(&json).expect("deserializes");
            assert_eq!(back, brand);
        }
        assert_eq!(Brand::from_id("Visa"), None);
        assert!(serde_json::from_str::<Brand>("\"laser\"").is_err());
    }

    #[test]
    fn lengths_are_sorted_and_within_card_limits() {
        for brand in Brand::ALL {
            let lengths = brand.valid_lengths();
            assert!(lengths.windows(2).all(|w| w[0] < w[1]), "{brand:?}");
            assert!(lengths.iter().all(|l| (12..=19).contains(l)), "{brand:?}");
            assert_eq!(brand.max_length(), *lengths.last().expect("non-empty"));
        }
        assert!(Brand::Visa.is_valid_length(13));
        assert!(!Brand::Visa.is_valid_length(15));
        assert_eq!(Brand::Amex.max_length(), 15);
        assert_eq!(Brand::Unknown.max_length(), 19);
    }

    #[test]
    fn groups_cover_the_longest_number() {
        for brand in Brand::ALL {
            for &length in brand.valid_lengths() {
                let covered: usize = brand.group_sizes(length).iter().sum();
                assert!(covered >= length, "{brand:?} {length}");
            }
        }
        assert_eq!(Brand::Amex.group_sizes(15), &[4, 6, 5]);
        assert_eq!(Brand::DinersClub.group_sizes(14), &[4, 6, 4]);
        assert_eq!(Brand::DinersClub.group_sizes(16), &[4, 4, 4, 4, 3]);
    }

    #[test]
    fn cvc_lengths() {
        assert_eq!(Brand::Amex.cvc_length(), Some(4));
        assert_eq!(Brand::Visa.cvc_length(), Some(3));
        assert_eq!(Brand::Unknown.cvc_length(), None);
    }

    #[test]
    fn displays_the_human_name() {
        assert_eq!(Brand::Amex.to_string(), "American Express");
        assert_eq!(Brand::CartesBancaires.to_string(), "Cartes Bancaires");
    }
}
