//! Payment links (issue 48, migration 0038): what a merchant offers through a link, and the
//! rules its record keeps (each broken rule names its field, as the merchant API reports it).

use checkout::contract::BillingField;
use reqwest::Url;
use time::OffsetDateTime;

use crate::store::error::{StoreError, StoreResult};

/// Longest description (the item or the invoice).
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// Largest quantity a payer may choose.
pub const MAX_QUANTITY: u32 = 1000;
/// Longest redirect URL.
pub const MAX_REDIRECT_URL_CHARS: usize = 2000;

/// What a link charges.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkAmount {
    /// The same amount for every payer (minor units).
    Fixed {
        /// Minor units of the link's currency.
        amount: u64,
    },
    /// The payer's choice, from `min` to `max` inclusive (donations, tips).
    PayerChosen {
        /// Least the payer may pay.
        min: u64,
        /// Most the payer may pay.
        max: u64,
    },
}

/// Whether the page asks the payer for something.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ask {
    /// Not asked.
    #[default]
    Off,
    /// Asked; the payer may leave it empty.
    Optional,
    /// Asked; the payer must give it.
    Required,
}

impl Ask {
    /// Stored and API name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Off => "off",
            Self::Optional => "optional",
            Self::Required => "required",
        }
    }

    /// Reads a stored or API name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Off, Self::Optional, Self::Required]
            .into_iter()
            .find(|ask| ask.as_str() == name)
    }
}

/// Where the payer goes after paying.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AfterPayment {
    /// The hosted receipt page.
    #[default]
    Receipt,
    /// The shop's own page at this URL.
    Redirect(String),
}

/// A link to create; the store assigns `id`, `public_id` and `created_at`.
#[derive(Clone, Debug)]
pub struct NewPaymentLink {
    /// The item or the invoice, shown to the payer.
    pub description: String,
    /// ISO 4217 code.
    pub currency: String,
    /// Fixed or the payer's choice.
    pub amount: LinkAmount,
    /// The payer may buy up to this many (amount × quantity); `None`: always one.
    pub quantity_max: Option<u32>,
    /// Several payments (a product), or one only (an invoice).
    pub reusable: bool,
    /// At most this many payments (reusable links only).
    pub payment_limit: Option<u32>,
    /// After this the link takes no payment.
    pub expires_at: Option<OffsetDateTime>,
    /// Whether the payer's e-mail is asked.
    pub ask_email: Ask,
    /// Whether a reference of the payer's (an order or invoice number) is asked.
    pub ask_payer_reference: Ask,
    /// Billing address fields the card form asks for.
    pub billing_fields: Vec<BillingField>,
    /// Receipt or redirect.
    pub after_payment: AfterPayment,
    /// A subscription sign-up to this plan instead of a one-off payment.
    pub plan_id: Option<String>,
}

/// A stored link.
#[derive(Clone, Debug)]
pub struct PaymentLink {
    /// `plink_…`, the merchant API's id.
    pub id: String,
    /// The payer's id, in `/pay/{public_id}`: 43 URL-safe characters, 256 random bits.
    pub public_id: String,
    /// What it was made with.
    pub terms: NewPaymentLink,
    /// False once deactivated (for good).
    pub active: bool,
    /// How often its page was shown.
    pub views: u64,
    /// When it was made.
    pub created_at: OffsetDateTime,
    /// When it was deactivated.
    pub deactivated_at: Option<OffsetDateTime>,
}

impl PaymentLink {
    /// How many sessions may pay through it: one for a one-payment link, the limit of a
    /// limited reusable one, `None` for no limit.
    pub fn places(&self) -> Option<u64> {
        match (self.terms.reusable, self.terms.payment_limit) {
            (false, _) => Some(1),
            (true, limit) => limit.map(u64::from),
        }
    }

    /// Whether it is past its expiry at `now`.
    pub fn is_expired_at(&self, now: OffsetDateTime) -> bool {
        self.terms.expires_at.is_some_and(|at| now >= at)
    }
}

/// What a link has brought in so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkFigures {
    /// How often its page was shown.
    pub views: u64,
    /// Sessions of it that were paid.
    pub payments: u64,
    /// What they paid, in minor units (captured or authorized, before refunds).
    pub amount: u64,
    /// Sessions holding one of its places: paid, or with a payment still in flight.
    pub places_taken: u64,
}

impl LinkFigures {
    /// Paid sessions per hundred views, rounded down (`None` before the first view).
    pub fn paid_per_hundred_views(&self) -> Option<u64> {
        (self.views > 0).then(|| self.payments.saturating_mul(100) / self.views)
    }
}

impl NewPaymentLink {
    /// Checks the rules the schema also enforces (and those it cannot: the URL, the
    /// currency, amount × quantity within range), naming the field that breaks one.
    pub fn validate(&self) -> StoreResult<()> {
        let blank = self.description.trim().is_empty();
        if blank || self.description.chars().count() > MAX_DESCRIPTION_CHARS {
            return Err(invalid("description", "must be 1 to 500 characters"));
        }
        if self.description.chars().any(char::is_control) {
            return Err(invalid("description", "must not hold control characters"));
        }
        if checkout::currency::Currency::find(&self.currency).is_none() {
            return Err(invalid("currency", "must be a supported ISO 4217 code"));
        }
        let most = match self.amount {
            LinkAmount::Fixed { amount: 0 } => {
                return Err(invalid("amount", "must be at least 1"));
            }
            LinkAmount::Fixed { amount } => amount,
            LinkAmount::PayerChosen { min: 0, .. } => {
                return Err(invalid("min_amount", "must be at least 1"));
            }
            LinkAmount::PayerChosen { min, max } if max < min => {
                return Err(invalid("max_amount", "must be at least min_amount"));
            }
            LinkAmount::PayerChosen { max, .. } => max,
        };
        if let Some(quantity) = self.quantity_max
            && !(1..=MAX_QUANTITY).contains(&quantity)
        {
            return Err(invalid("quantity_max", "must be 1 to 1000"));
        }
        let quantity = u64::from(self.quantity_max.unwrap_or(1));
        if most
            .checked_mul(quantity)
            .is_none_or(|total| i64::try_from(total).is_err())
        {
            return Err(invalid("amount", "is too large"));
        }
        match (self.reusable, self.payment_limit) {
            (_, Some(0)) => return Err(invalid("payment_limit", "must be at least 1")),
            (false, Some(_)) => {
                return Err(invalid(
                    "payment_limit",
                    "only a reusable link takes a limit",
                ));
            }
            _ => {}
        }
        if let AfterPayment::Redirect(url) = &self.after_payment {
            check_redirect_url(url)?;
        }
        if let Some(id) = &self.plan_id
            && (id.is_empty() || id.chars().count() > super::session::MAX_ID_CHARS)
        {
            return Err(invalid("plan_id", "must be 1 to 64 characters"));
        }
        Ok(())
    }
}

/// An absolute `https://` URL (or `http://` for a local shop), without credentials or fragment.
fn check_redirect_url(url: &str) -> StoreResult<()> {
    const FIELD: &str = "redirect_url";
    if url.chars().count() > MAX_REDIRECT_URL_CHARS {
        return Err(invalid(FIELD, "must be at most 2000 characters"));
    }
    let parsed = Url::parse(url).map_err(|_| invalid(FIELD, "must be an absolute URL"))?;
    if !matches!(parsed.scheme(), "http" | "https") || parsed.host_str().is_none() {
        return Err(invalid(
            FIELD,
            "must be an http:// or https:// URL with a host",
        ));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(invalid(FIELD, "must not carry credentials"));
    }
    if parsed.fragment().is_some() {
        return Err(invalid(FIELD, "must not have a fragment"));
    }
    Ok(())
}

/// The stored name of a billing field (the API's, snake case).
pub fn billing_field_name(field: BillingField) -> &'static str {
    match field {
        BillingField::Country => "country",
        BillingField::Email => "email",
        BillingField::Phone => "phone",
        BillingField::Address => "address",
        BillingField::City => "city",
        BillingField::State => "state",
        BillingField::PostalCode => "postal_code",
    }
}

/// Every billing field, in the form's order.
pub const ALL_BILLING_FIELDS: [BillingField; 7] = [
    BillingField::Country,
    BillingField::Email,
    BillingField::Phone,
    BillingField::Address,
    BillingField::City,
    BillingField::State,
    BillingField::PostalCode,
];

/// The billing field stored or sent as `name`.
pub fn parse_billing_field(name: &str) -> Option<BillingField> {
    ALL_BILLING_FIELDS
        .into_iter()
        .find(|field| billing_field_name(*field) == name)
}

fn invalid(field: &'static str, reason: &'static str) -> StoreError {
    StoreError::Invalid { field, reason }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn link() -> NewPaymentLink {
        NewPaymentLink {
            description: "Invoice 42".into(),
            currency: "EUR".into(),
            amount: LinkAmount::Fixed { amount: 1500 },
            quantity_max: None,
            reusable: false,
            payment_limit: None,
            expires_at: None,
            ask_email: Ask::Off,
            ask_payer_reference: Ask::Off,
            billing_fields: Vec::new(),
            after_payment: AfterPayment::Receipt,
            plan_id: None,
        }
    }

    fn field_of(new: &NewPaymentLink) -> Option<&'static str> {
        match new.validate() {
            Err(StoreError::Invalid { field, .. }) => Some(field),
            _ => None,
        }
    }

    #[test]
    fn validation_names_the_field() {
        assert_eq!(field_of(&link()), None);
        type Change = fn(&mut NewPaymentLink);
        let cases: [(Change, &str); 10] = [
            (|l| l.description = " ".into(), "description"),
            // The contract's limits hold for the text as sent, ends included.
            (
                |l| l.description = format!("{} ", "x".repeat(500)),
                "description",
            ),
            (|l| l.description = "Tea\n".into(), "description"),
            (|l| l.currency = "XXY".into(), "currency"),
            (|l| l.amount = LinkAmount::Fixed { amount: 0 }, "amount"),
            (
                |l| l.amount = LinkAmount::PayerChosen { min: 500, max: 100 },
                "max_amount",
            ),
            (|l| l.quantity_max = Some(1001), "quantity_max"),
            (|l| l.payment_limit = Some(3), "payment_limit"),
            (
                |l| l.after_payment = AfterPayment::Redirect("javascript:alert(1)".into()),
                "redirect_url",
            ),
            (
                |l| {
                    l.amount = LinkAmount::Fixed {
                        amount: u64::MAX / 2,
                    }
                },
                "amount",
            ),
        ];
        for (change, field) in cases {
            let mut new = link();
            new.quantity_max = new.quantity_max.or(Some(2));
            change(&mut new);
            assert_eq!(field_of(&new), Some(field), "{field}");
        }
    }

    #[test]
    fn places_follow_the_kind_of_link() {
        let stored = |reusable, payment_limit| PaymentLink {
            id: "plink_x".into(),
            public_id: "p".into(),
            terms: NewPaymentLink {
                reusable,
                payment_limit,
                ..link()
            },
            active: true,
            views: 0,
            created_at: OffsetDateTime::UNIX_EPOCH,
            deactivated_at: None,
        };
        assert_eq!(stored(false, None).places(), Some(1));
        assert_eq!(stored(true, None).places(), None);
        assert_eq!(stored(true, Some(5)).places(), Some(5));
    }

    #[test]
    fn names_round_trip() {
        for field in ALL_BILLING_FIELDS {
            assert_eq!(parse_billing_field(billing_field_name(field)), Some(field));
        }
        for ask in [Ask::Off, Ask::Optional, Ask::Required] {
            assert_eq!(Ask::parse(ask.as_str()), Some(ask));
        }
    }
}
