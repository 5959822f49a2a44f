//! The form's inputs and what each one is in HTML: id, label, `autocomplete`, `inputmode`.
//! The ids are stable: tests, the end-to-end suite and merchants' CSS rely on them.

use crate::contract::BillingField;
use crate::i18n::Msg;

/// Every officially assigned ISO 3166-1 alpha-2 code, two letters each, alphabetical: the
/// billing country list (the component's, src/ui/countries.rs, and the hosted page's).
pub const COUNTRY_CODES: &str = concat!(
    "ADAEAFAGAIALAMAOAQARASATAUAWAXAZBABBBDBEBFBGBHBIBJBLBMBNBOBQBRBSBTBVBWBYBZCACCCDCFCGCHCICK",
    "CLCMCNCOCRCUCVCWCXCYCZDEDJDKDMDODZECEEEGEHERESETFIFJFKFMFOFRGAGBGDGEGFGGGHGIGLGMGNGPGQGRGS",
    "GTGUGWGYHKHMHNHRHTHUIDIEILIMINIOIQIRISITJEJMJOJPKEKGKHKIKMKNKPKRKWKYKZLALBLCLILKLRLSLTLULV",
    "LYMAMCMDMEMFMGMHMKMLMMMNMOMPMQMRMSMTMUMVMWMXMYMZNANCNENFNGNINLNONPNRNUNZOMPAPEPFPGPHPKPLPM",
    "PNPRPSPTPWPYQARERORSRURWSASBSCSDSESGSHSISJSKSLSMSNSOSRSSSTSVSXSYSZTCTDTFTGTHTJTKTLTMTNTOTR",
    "TTTVTWTZUAUGUMUSUYUZVAVCVEVGVIVNVUWFWSYEYTZAZMZW",
);

/// One input of the card form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// Cardholder name.
    Name,
    /// Card number.
    Number,
    /// Combined `MM / YY` expiry.
    Expiry,
    /// Security code.
    Cvc,
    /// Billing country (a select of ISO 3166 codes).
    Country,
    /// Billing e-mail.
    Email,
    /// Billing phone.
    Phone,
    /// Street address.
    Address,
    /// City.
    City,
    /// State or region.
    State,
    /// Postal code.
    PostalCode,
}

impl FieldKind {
    /// Number of kinds: the size of the form's field table.
    pub const COUNT: usize = 11;
    /// The card inputs, in page order.
    pub const CARD: [FieldKind; 4] = [Self::Name, Self::Number, Self::Expiry, Self::Cvc];

    /// The billing input a session asks for.
    pub fn billing(field: BillingField) -> FieldKind {
        match field {
            BillingField::Country => Self::Country,
            BillingField::Email => Self::Email,
            BillingField::Phone => Self::Phone,
            BillingField::Address => Self::Address,
            BillingField::City => Self::City,
            BillingField::State => Self::State,
            BillingField::PostalCode => Self::PostalCode,
        }
    }

    /// `id` of the input (and `for` of its label).
    pub fn id(self) -> &'static str {
        match self {
            Self::Name => "cc-name",
            Self::Number => "cc-number",
            Self::Expiry => "cc-exp",
            Self::Cvc => "cc-csc",
            Self::Country => "billing-country",
            Self::Email => "billing-email",
            Self::Phone => "billing-phone",
            Self::Address => "billing-address",
            Self::City => "billing-city",
            Self::State => "billing-state",
            Self::PostalCode => "billing-postal-code",
        }
    }

    /// `id` of the element holding the field's error, referenced by `aria-describedby`.
    pub fn error_id(self) -> &'static str {
        match self {
            Self::Name => "cc-name-error",
            Self::Number => "cc-number-error",
            Self::Expiry => "cc-exp-error",
            Self::Cvc => "cc-csc-error",
            Self::Country => "billing-country-error",
            Self::Email => "billing-email-error",
            Self::Phone => "billing-phone-error",
            Self::Address => "billing-address-error",
            Self::City => "billing-city-error",
            Self::State => "billing-state-error",
            Self::PostalCode => "billing-postal-code-error",
        }
    }

    /// The visible label.
    pub fn label(self) -> Msg {
        match self {
            Self::Name => Msg::LabelName,
            Self::Number => Msg::LabelNumber,
            Self::Expiry => Msg::LabelExpiry,
            Self::Cvc => Msg::LabelCvc,
            Self::Country => Msg::LabelCountry,
            Self::Email => Msg::LabelEmail,
            Self::Phone => Msg::LabelPhone,
            Self::Address => Msg::LabelAddress,
            Self::City => Msg::LabelCity,
            Self::State => Msg::LabelState,
            Self::PostalCode => Msg::LabelPostalCode,
        }
    }

    /// The `autocomplete` token browsers and password managers fill from.
    pub fn autocomplete(self) -> &'static str {
        match self {
            Self::Name => "cc-name",
            Self::Number => "cc-number",
            Self::Expiry => "cc-exp",
            Self::Cvc => "cc-csc",
            Self::Country => "country",
            Self::Email => "email",
            Self::Phone => "tel",
            Self::Address => "address-line1",
            Self::City => "address-level2",
            Self::State => "address-level1",
            Self::PostalCode => "postal-code",
        }
    }

    /// `inputmode`: the numeric keypad where only digits are typed. These fields (digits,
    /// e-mail addresses, phone numbers) are also written left to right in every language:
    /// their inputs carry `dir="ltr"`.
    pub fn inputmode(self) -> Option<&'static str> {
        match self {
            Self::Number | Self::Expiry | Self::Cvc => Some("numeric"),
            Self::Email => Some("email"),
            Self::Phone => Some("tel"),
            _ => None,
        }
    }

    /// `type` of the input.
    pub fn input_type(self) -> &'static str {
        match self {
            Self::Email => "email",
            Self::Phone => "tel",
            _ => "text",
        }
    }

    /// Position in the form's field table.
    pub fn index(self) -> usize {
        self as usize
    }
}
