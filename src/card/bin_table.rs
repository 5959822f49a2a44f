//! Which leading digits belong to which brand: a table of prefix ranges and the longest-prefix
//! lookup that works on partial input while the cardholder types.
//!
//! A range such as `2221..=2720` is compared with the first four digits of the number. When
//! several ranges match, the one with the most digits wins, so the specific six-digit ranges
//! of Elo, RuPay, Interac and Cartes Bancaires beat broad ones like Visa's "4" or Discover's
//! "65". No two ranges of the same length overlap (a test checks it), so the answer is unique.
//!
//! Interac and Cartes Bancaires have no number ranges of their own in practice: their cards
//! are co-badged and carry Visa or Mastercard numbers, and only an issuer BIN file says which
//! are which. Claiming whole Visa sub-ranges for them would mislabel ordinary Visa cards, so
//! the table claims just one publicly documented six-digit BIN each: 450644 (Interac, the
//! prefix of the published Interac test card 4506 4450 0693 1933) and 497010 (Cartes
//! Bancaires, the prefix of the French acquirers' published CB test cards 4970 10..).
//! A deployment with a licensed BIN file would replace these two entries.

use super::brand::Brand;

/// Leading digits whose value lies in `low..=high` belong to `brand`.
struct BinRange {
    low: u32,
    high: u32,
    /// How many leading digits are compared: the digit count of `low` and `high`.
    digits: u32,
    brand: Brand,
}

impl BinRange {
    /// True when the first `self.digits` digits of a `prefix_len`-digit prefix lie in range.
    /// Only meaningful when `prefix_len >= self.digits`.
    fn matches(&self, prefix: u32, prefix_len: u32) -> bool {
        let leading = prefix / 10u32.pow(prefix_len - self.digits);
        (self.low..=self.high).contains(&leading)
    }

    /// True when some continuation of a shorter prefix would land in range.
    /// Only meaningful when `prefix_len < self.digits`.
    fn could_match(&self, prefix: u32, prefix_len: u32) -> bool {
        let scale = 10u32.pow(self.digits - prefix_len);
        let first = prefix * scale;
        let last = first + (scale - 1);
        first <= self.high && last >= self.low
    }
}

/// Number of decimal digits of a positive table value.
const fn digit_count(mut value: u32) -> u32 {
    let mut count = 1;
    while value >= 10 {
        value /= 10;
        count += 1;
    }
    count
}

const fn range(low: u32, high: u32, brand: Brand) -> BinRange {
    BinRange {
        low,
        high,
        digits: digit_count(low),
        brand,
    }
}

/// The most leading digits any range compares.
const MAX_PREFIX_DIGITS: usize = 6;

/// Representative published ranges; see the module comment for Interac and Cartes Bancaires.
static BIN_RANGES: &[BinRange] = &[
    range(4, 4, Brand::Visa),
    range(51, 55, Brand::Mastercard),
    range(2221, 2720, Brand::Mastercard),
    range(34, 34, Brand::Amex),
    range(37, 37, Brand::Amex),
    range(6011, 6011, Brand::Discover),
    range(644, 649, Brand::Discover),
    range(65, 65, Brand::Discover),
    range(300, 305, Brand::DinersClub),
    range(3095, 3095, Brand::DinersClub),
    range(36, 36, Brand::DinersClub),
    range(38, 39, Brand::DinersClub),
    range(3528, 3589, Brand::Jcb),
    range(62, 62, Brand::UnionPay),
    range(8100, 8171, Brand::UnionPay),
    range(50, 50, Brand::Maestro),
    range(56, 58, Brand::Maestro),
    range(6304, 6304, Brand::Maestro),
    range(6759, 6759, Brand::Maestro),
    range(6761, 6763, Brand::Maestro),
    range(2200, 2204, Brand::Mir),
    range(401178, 401179, Brand::Elo),
    range(431274, 431274, Brand::Elo),
    range(438935, 438935, Brand::Elo),
    range(451416, 451416, Brand::Elo),
    range(457393, 457393, Brand::Elo),
    range(457631, 457632, Brand::Elo),
    range(504175, 504175, Brand::Elo),
    range(506699, 506778, Brand::Elo),
    range(509000, 509999, Brand::Elo),
    range(627780, 627780, Brand::Elo),
    range(636297, 636297, Brand::Elo),
    range(636368, 636368, Brand::Elo),
    range(650031, 650033, Brand::Elo),
    range(650035, 650051, Brand::Elo),
    range(650405, 650439, Brand::Elo),
    range(650485, 650538, Brand::Elo),
    range(650541, 650598, Brand::Elo),
    range(650700, 650718, Brand::Elo),
    range(650720, 650727, Brand::Elo),
    range(650901, 650978, Brand::Elo),
    range(651652, 651679, Brand::Elo),
    range(655000, 655019, Brand::Elo),
    range(655021, 655058, Brand::Elo),
    range(508500, 508999, Brand::RuPay),
    range(606985, 607984, Brand::RuPay),
    range(608001, 608500, Brand::RuPay),
    range(652150, 653149, Brand::RuPay),
    range(450644, 450644, Brand::Interac),
    range(497010, 497010, Brand::CartesBancaires),
];

impl Brand {
    /// The brand the leading digits of `digits_prefix` indicate; see [`detect`].
    pub fn detect(digits_prefix: &str) -> Brand {
        detect(digits_prefix)
    }
}

/// The brand of a card number, or of the start of one while it is being typed.
///
/// Only ASCII digits of `digits_prefix` are read (separators are skipped). The longest range
/// that matches the digits so far wins, so the answer may change as digits arrive ("4" is Visa,
/// "438935" is Elo). When no range matches yet, a brand is returned only if every range the
/// number could still fall into belongs to it ("34" is Amex, "35" JCB), otherwise `Unknown`
/// ("2" could be Mir or Mastercard; "22" too; "222" is Mastercard).
pub fn detect(digits_prefix: &str) -> Brand {
    let mut prefix = 0u32;
    let mut prefix_len = 0u32;
    for byte in digits_prefix
        .bytes()
        .filter(u8::is_ascii_digit)
        .take(MAX_PREFIX_DIGITS)
    {
        prefix = prefix * 10 + u32::from(byte - b'0');
        prefix_len += 1;
    }
    if prefix_len == 0 {
        return Brand::Unknown;
    }

    let longest_match = BIN_RANGES
        .iter()
        .filter(|r| r.digits <= prefix_len && r.matches(prefix, prefix_len))
        .max_by_key(|r| r.digits);
    if let Some(found) = longest_match {
        return found.brand;
    }

    let mut possible = BIN_RANGES
        .iter()
        .filter(|r| r.digits > prefix_len && r.could_match(prefix, prefix_len))
        .map(|r| r.brand);
    match possible.next() {
        Some(first) if possible.all(|brand| brand == first) => first,
        _ => Brand::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_well_formed() {
        for r in BIN_RANGES {
            assert!(r.low <= r.high, "{}..={}", r.low, r.high);
            assert_eq!(digit_count(r.high), r.digits, "{}..={}", r.low, r.high);
            assert!(r.digits as usize <= MAX_PREFIX_DIGITS);
            assert_ne!(r.brand, Brand::Unknown);
        }
    }

    #[test]
    fn ranges_of_equal_length_never_overlap() {
        for (i, a) in BIN_RANGES.iter().enumerate() {
            for b in &BIN_RANGES[i + 1..] {
                if a.digits == b.digits {
                    assert!(
                        a.high < b.low || b.high < a.low,
                        "{}..={} overlaps {}..={}",
                        a.low,
                        a.high,
                        b.low,
                        b.high
                    );
                }
            }
        }
    }

    #[test]
    fn full_numbers() {
        let cases = [
            ("4242424242424242", Brand::Visa),
            ("4000002500003155", Brand::Visa),
            ("5200000000001005", Brand::Mastercard),
            ("2223003122003222", Brand::Mastercard),
            ("2720990000000007", Brand::Mastercard),
            ("378282246310005", Brand::Amex),
            ("6011111111111117", Brand::Discover),
            ("6445644564456445", Brand::Discover),
            ("3056930009020004", Brand::DinersClub),
            ("36227206271667", Brand::DinersClub),
            ("3566002020360505", Brand::Jcb),
            ("6200000000000005", Brand::UnionPay),
            ("6759649826438453", Brand::Maestro),
            ("2200000000000004", Brand::Mir),
            ("6362970000457013", Brand::Elo),
            ("5067000000000000", Brand::Elo),
            ("6080010000000000", Brand::RuPay),
            ("6521500000000000", Brand::RuPay),
            ("4506445006931933", Brand::Interac),
            ("4970100000000000", Brand::CartesBancaires),
            ("1234567890123", Brand::Unknown),
            ("9999999999999999", Brand::Unknown),
        ];
        for (number, brand) in cases {
            assert_eq!(detect(number), brand, "{number}");
        }
    }

    #[test]
    fn partial_input_while_typing() {
        let cases = [
            ("", Brand::Unknown),
            ("4", Brand::Visa),
            ("4011", Brand::Visa),
            ("401178", Brand::Elo),
            ("2", Brand::Unknown),
            ("22", Brand::Unknown),
            ("220", Brand::Mir),
            ("222", Brand::Mastercard),
            ("2220", Brand::Unknown),
            ("27", Brand::Mastercard),
            ("273", Brand::Unknown),
            ("3", Brand::Unknown),
            ("30", Brand::DinersClub),
            ("34", Brand::Amex),
            ("35", Brand::Jcb),
            ("352", Brand::Jcb),
            ("351", Brand::Unknown),
            ("5", Brand::Unknown),
            ("51", Brand::Mastercard),
            ("6", Brand::Unknown),
            ("60", Brand::Unknown),
            ("601", Brand::Discover),
            ("62", Brand::UnionPay),
            ("65", Brand::Discover),
            ("6521", Brand::Discover),
            ("652150", Brand::RuPay),
        ];
        for (prefix, brand) in cases {
            assert_eq!(detect(prefix), brand, "{prefix:?}");
        }
    }

    #[test]
    fn separators_are_skipped() {
        assert_eq!(detect("3782 822463 10005"), Brand::Amex);
        assert_eq!(detect("6362-9700"), Brand::Elo);
        assert_eq!(detect(" - "), Brand::Unknown);
    }
}
