//! The payments list's filters as the form sends them (every field a string, empty meaning
//! unset) and their translation into the store's [`PaymentQuery`], naming the field at fault:
//! the one place these filters are read, for the list and anything else that lists payments
//! the same way.
//! Dates are UTC calendar days, both ends included; amounts are typed in the chosen
//! currency's own unit, so an amount range needs a currency.

use serde::Deserialize;
use time::macros::format_description;
use time::{Date, Duration, OffsetDateTime};

use crate::dashboard::error::DashboardError;
use crate::dashboard::money::parse_major;
use crate::store::model::client_key::{is_short_fingerprint, key_range};
use crate::store::model::{MAX_CUSTOMER_ID_CHARS, PageCursor, PaymentQuery, is_customer_id};
use crate::store::transitions::parse_state;
use checkout::card::Brand;
use checkout::currency::Currency;

/// Rows per page.
pub const PAGE_SIZE: u32 = 25;

/// The filter form's fields, as sent.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct Filters {
    /// A payment state name.
    pub state: String,
    /// First day, `YYYY-MM-DD`.
    pub from: String,
    /// Last day, `YYYY-MM-DD`.
    pub to: String,
    /// ISO 4217 code.
    pub currency: String,
    /// Smallest amount, major units.
    pub min: String,
    /// Largest amount, major units.
    pub max: String,
    /// The shop's order reference.
    pub reference: String,
    /// The card's last four digits.
    pub last4: String,
    /// The card brand's id (`visa`, `mastercard`, ...).
    pub brand: String,
    /// The shop's customer id.
    pub customer: String,
    /// The client's address as the rules key it, or a range (`192.0.2.0/24`, an IPv6 /64).
    pub address: String,
    /// The card's first six digits.
    pub bin: String,
    /// The card fingerprint's short form (the payment page shows it).
    pub card: String,
    /// The page cursor.
    pub after: String,
}

/// A field's value, unless it is empty or blank.
pub fn set(value: &str) -> Option<&str> {
    Some(value.trim()).filter(|v| !v.is_empty())
}

/// The `currency` field: an ISO 4217 code, upper case.
pub fn currency_code(text: &str) -> Result<String, DashboardError> {
    let upper = text.to_ascii_uppercase();
    Currency::find(&upper)
        .ok_or_else(|| DashboardError::bad("currency", "not an ISO 4217 currency code"))?;
    Ok(upper)
}

/// The `after` field: a page cursor this server linked to.
pub fn page_cursor(text: &str) -> Result<PageCursor, DashboardError> {
    text.parse::<PageCursor>()
        .map_err(|_| DashboardError::bad("after", "not a page this server linked to"))
}

impl Filters {
    /// The store query these filters ask for.
    pub fn query(&self) -> Result<PaymentQuery, DashboardError> {
        let mut query = PaymentQuery {
            limit: PAGE_SIZE,
            ..PaymentQuery::default()
        };
        if let Some(state) = set(&self.state) {
            query.state = Some(
                parse_state(state)
                    .ok_or_else(|| DashboardError::bad("state", "not a payment state"))?,
            );
        }
        query.created_from = set(&self.from).map(|d| day("from", d)).transpose()?;
        query.created_before = set(&self.to)
            .map(|d| day("to", d).and_then(|start| day_after("to", start)))
            .transpose()?;
        query.currency = set(&self.currency).map(currency_code).transpose()?;
        for (field, text, bound) in [
            ("min", &self.min, &mut query.amount_min),
            ("max", &self.max, &mut query.amount_max),
        ] {
            let Some(text) = set(text) else { continue };
            let Some(code) = set(&self.currency) else {
                return Err(DashboardError::bad(
                    field,
                    "choose a currency to filter by amount (amounts are in its unit)",
                ));
            };
            let minor = parse_major(text, &code.to_ascii_uppercase())
                .map_err(|e| DashboardError::bad(field, e.to_string()))?;
            *bound = Some(minor);
        }
        if let Some(reference) = set(&self.reference) {
            if reference.len() > 45 {
                return Err(DashboardError::bad("reference", "is at most 45 characters"));
            }
            query.reference = Some(reference.to_owned());
        }
        if let Some(last4) = set(&self.last4) {
            if last4.len() != 4 || !last4.bytes().all(|b| b.is_ascii_digit()) {
                return Err(DashboardError::bad("last4", "must be exactly four digits"));
            }
            query.card_last4 = Some(last4.to_owned());
        }
        if let Some(brand) = set(&self.brand) {
            query.card_brand =
                Some(Brand::from_id(&brand.to_ascii_lowercase()).ok_or_else(|| {
                    DashboardError::bad("brand", "not a card brand this server knows")
                })?);
        }
        if let Some(customer) = set(&self.customer) {
            if !is_customer_id(customer) {
                return Err(DashboardError::bad(
                    "customer",
                    format!(
                        "must be 1 to {MAX_CUSTOMER_ID_CHARS} characters without control characters"
                    ),
                ));
            }
            query.customer_id = Some(customer.to_owned());
        }
        self.defence_filters(&mut query)?;
        query.after = set(&self.after).map(page_cursor).transpose()?;
        Ok(query)
    }

    /// The card-testing defence's keys: address (or range), BIN, card fingerprint's short form.
    fn defence_filters(&self, query: &mut PaymentQuery) -> Result<(), DashboardError> {
        if let Some(address) = set(&self.address) {
            query.client_keys =
                Some(key_range(address).map_err(|reason| DashboardError::bad("address", reason))?);
        }
        if let Some(bin) = set(&self.bin) {
            if bin.len() != 6 || !bin.bytes().all(|b| b.is_ascii_digit()) {
                return Err(DashboardError::bad("bin", "must be exactly six digits"));
            }
            query.card_bin = Some(bin.to_owned());
        }
        if let Some(card) = set(&self.card) {
            if !is_short_fingerprint(card) {
                return Err(DashboardError::bad(
                    "card",
                    "must be a card's short form as a payment's page shows it (8 characters)",
                ));
            }
            query.card_short = Some(card.to_owned());
        }
        Ok(())
    }

    /// The query string of these filters continued after `cursor`.
    pub fn next_page(&self, cursor: &PageCursor) -> String {
        let pairs = [
            ("state", &self.state),
            ("from", &self.from),
            ("to", &self.to),
            ("currency", &self.currency),
            ("min", &self.min),
            ("max", &self.max),
            ("reference", &self.reference),
            ("last4", &self.last4),
            ("brand", &self.brand),
            ("customer", &self.customer),
            ("address", &self.address),
            ("bin", &self.bin),
            ("card", &self.card),
        ];
        let mut query: Vec<String> = pairs
            .iter()
            .filter(|(_, v)| !v.trim().is_empty())
            .map(|(k, v)| format!("{k}={}", encode(v.trim())))
            .collect();
        query.push(format!("after={}", encode(&cursor.to_string())));
        query.join("&")
    }
}

fn day(field: &str, text: &str) -> Result<OffsetDateTime, DashboardError> {
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map(|date| date.midnight().assume_utc())
        .map_err(|_| DashboardError::bad(field, "must be a date as YYYY-MM-DD"))
}

/// The instant a day starting at `start` ends, refused (naming `field`) past the last day the
/// calendar holds rather than overflowing.
fn day_after(field: &str, start: OffsetDateTime) -> Result<OffsetDateTime, DashboardError> {
    start
        .checked_add(Duration::DAY)
        .ok_or_else(|| DashboardError::bad(field, "must be a date before 9999-12-31"))
}

/// `value` percent-encoded for a query string.
pub fn encode(value: &str) -> String {
    percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field_of(filters: Filters) -> String {
        match filters.query() {
            Err(DashboardError::BadRequest { field, .. }) => field,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_last_day_of_the_calendar_is_refused_not_overflowed() {
        let filters = Filters {
            to: "9999-12-31".into(),
            ..Filters::default()
        };
        assert_eq!(field_of(filters), "to");
    }

    #[test]
    fn filters_become_a_query() {
        let query = Filters {
            state: "captured".into(),
            from: "2025-01-31".into(),
            to: "2025-01-31".into(),
            currency: "eur".into(),
            min: "1.50".into(),
            max: "20".into(),
            last4: "4242".into(),
            brand: "Visa".into(),
            customer: " cust-7 ".into(),
            ..Filters::default()
        }
        .query()
        .expect("valid");
        assert_eq!(query.currency.as_deref(), Some("EUR"));
        assert_eq!(
            (query.amount_min, query.amount_max),
            (Some(150), Some(2000))
        );
        let span = query.created_before.expect("to") - query.created_from.expect("from");
        assert_eq!(span, Duration::DAY);
        assert_eq!(query.card_last4.as_deref(), Some("4242"));
        assert_eq!(query.card_brand, Some(Brand::Visa));
        assert_eq!(query.customer_id.as_deref(), Some("cust-7"));
    }

    #[test]
    fn the_next_page_keeps_every_filter() {
        let filters = Filters {
            brand: "mastercard".into(),
            customer: "cust 7/é".into(),
            state: "captured".into(),
            ..Filters::default()
        };
        let cursor: PageCursor = "1700000000000_abc".parse().expect("cursor");
        assert_eq!(
            filters.next_page(&cursor),
            "state=captured&brand=mastercard&customer=cust%207%2F%C3%A9&after=1700000000000%5Fabc"
        );
    }

    #[test]
    fn bad_filters_name_their_field() {
        let with = |f: fn(&mut Filters)| {
            let mut filters = Filters::default();
            f(&mut filters);
            field_of(filters)
        };
        assert_eq!(with(|f| f.state = "paid".into()), "state");
        assert_eq!(with(|f| f.from = "31/01/2025".into()), "from");
        assert_eq!(with(|f| f.currency = "EURO".into()), "currency");
        assert_eq!(with(|f| f.min = "5".into()), "min");
        assert_eq!(
            with(|f| {
                f.currency = "JPY".into();
                f.max = "1.5".into();
            }),
            "max"
        );
        assert_eq!(with(|f| f.last4 = "42a2".into()), "last4");
        assert_eq!(with(|f| f.after = "x".into()), "after");
        assert_eq!(with(|f| f.brand = "visa electron".into()), "brand");
        assert_eq!(with(|f| f.customer = "a\u{0}b".into()), "customer");
        assert_eq!(with(|f| f.customer = "c".repeat(65)), "customer");
    }
}
