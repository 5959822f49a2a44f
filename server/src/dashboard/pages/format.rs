//! How the pages show times, states and cards: UTC to the second, the store's state names,
//! and a card as brand, first six, last four and expiry (nothing more is kept); and how a list
//! page reads its `?after=` cursor.

use checkout::contract::PaymentState;
use time::OffsetDateTime;
use time::macros::format_description;

use crate::dashboard::error::DashboardError;
use crate::store::model::{CardSummary, PageCursor};
use crate::store::transitions::state_name;

/// How the dashboard writes an instant a form sends back (`datetime-local`, UTC, seconds
/// included).
pub const INSTANT_FORMAT: &[time::format_description::BorrowedFormatItem<'static>] =
    format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");

/// A list page's `?after=` (empty: the first page).
pub fn after(text: &str) -> Result<Option<PageCursor>, DashboardError> {
    match text.trim() {
        "" => Ok(None),
        text => text
            .parse::<PageCursor>()
            .map(Some)
            .map_err(|_| DashboardError::bad("after", "not a cursor of this page")),
    }
}

/// `2025-01-31 14:05:09 UTC`.
pub fn when(at: OffsetDateTime) -> String {
    at.format(format_description!(
        "[year]-[month]-[day] [hour]:[minute]:[second] UTC"
    ))
    .unwrap_or_else(|_| at.to_string())
}

/// RFC 3339, for `<time datetime>`.
pub fn iso(at: OffsetDateTime) -> String {
    at.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// The state's name with underscores as spaces: `partially refunded`.
pub fn state(state: PaymentState) -> String {
    state_name(state).replace('_', " ")
}

/// `Visa 424242…4242, 12/2030`, or a dash without a card.
pub fn card(card: Option<&CardSummary>) -> String {
    let Some(card) = card else {
        return "—".to_owned();
    };
    let bin = card.bin.as_ref().map_or("······", |bin| bin.as_str());
    format!(
        "{} {bin}…{}, {:02}/{}",
        card.brand,
        card.last4.as_str(),
        card.expiry_month,
        card.expiry_year
    )
}
