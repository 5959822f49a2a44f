//! `GET /receipts/{receipt_id}`: the payer's receipt for a payment made through a link: its
//! state, the amount, the card's brand and last four (nothing more of the card), the date, the
//! item, the shop's reference (the link's id) and the payer's, and the payment id, in the
//! payer's language. Its address is the payer's own (an unguessable id the session's answer
//! gave them), so it shows again from there; printable (the hosted styles' print rules). An
//! unknown id: 404.

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use checkout::contract::PaymentState;
use checkout::i18n::{Locale, Msg};
use time::OffsetDateTime;
use time::macros::format_description;

use super::super::frame::skeleton::escape;
use super::languages::{LanguageQuery, chosen, switcher};
use super::money::money;
use super::plain::Plain;
use super::texts::Text;
use crate::payments::links::Receipt;
use crate::web::{ApiFailure, AppState};

/// The print button, shown only where a script can press it.
const PRINT_SCRIPT: &str = "var b=document.getElementById(\"hp-print\");b.hidden=false;\
b.addEventListener(\"click\",function(){print();});";

/// The receipt `receipt_id`.
pub async fn serve(
    State(state): State<AppState>,
    Path(receipt_id): Path<String>,
    query: Result<Query<LanguageQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let locale = chosen(&query.map(|q| q.0).unwrap_or_default(), &headers);
    match state.links.receipt(&receipt_id).await {
        Ok(Some(receipt)) => page(&receipt, locale),
        Ok(None) => {
            let main = format!(
                "{}<h1>{}</h1><p id=\"hp-no-receipt\">{}</p>",
                switcher(locale),
                Text::Receipt.of(locale),
                Text::NoReceipt.of(locale)
            );
            Plain {
                locale,
                title: Text::Receipt.of(locale),
                main: &main,
                script: None,
            }
            .respond(StatusCode::NOT_FOUND)
        }
        Err(error) => ApiFailure::from(error).into_response(),
    }
}

/// The receipt page of `receipt`.
fn page(receipt: &Receipt, locale: Locale) -> Response {
    let mut rows = vec![
        (Text::PaidTo.of(locale), escape(&receipt.merchant_name)),
        (
            locale.text(Msg::ColAmount),
            escape(&money(locale, receipt.amount, &receipt.currency)),
        ),
    ];
    if let (Some(brand), Some(last4)) = (receipt.card_brand, &receipt.card_last4) {
        rows.push((
            Text::Card.of(locale),
            format!(
                "{} <span dir=\"ltr\">•••• {}</span>",
                brand.display_name(),
                escape(last4)
            ),
        ));
    }
    rows.push((locale.text(Msg::ColDate), date(receipt.date)));
    // The shop's reference of the payment: the link's id (the session's reference, which the
    // gateway's reports show).
    rows.push((
        Text::SellerReference.of(locale),
        format!(
            "<code dir=\"ltr\">{}</code>",
            escape(&receipt.payment_link_id)
        ),
    ));
    if let Some(reference) = &receipt.payer_reference {
        rows.push((Text::PayerReference.of(locale), escape(reference)));
    }
    rows.push((
        Text::PaymentId.of(locale),
        format!(
            "<code id=\"hp-payment-id\" dir=\"ltr\">{}</code>",
            escape(&receipt.payment_id)
        ),
    ));
    let rows: String = rows
        .into_iter()
        .map(|(term, value)| format!("<dt>{term}</dt><dd>{value}</dd>"))
        .collect();
    let main = format!(
        "{switcher}<article class=\"hp-receipt\"><h1>{heading}</h1>\
         <p id=\"hp-status\" data-state=\"{state}\"><strong>{status}</strong></p>\
         <p class=\"hp-item\">{item}</p><dl id=\"hp-receipt\">{rows}</dl></article>\
         <p><button id=\"hp-print\" class=\"hp-print\" type=\"button\" hidden>{print}</button></p>\
         <p class=\"hp-keep hp-hint\">{keep}</p>",
        switcher = switcher(locale),
        heading = Text::Receipt.of(locale),
        item = escape(receipt.description.as_deref().unwrap_or_default()),
        state = state_name(receipt.status),
        status = locale.text(status(receipt.status)),
        print = Text::Print.of(locale),
        keep = Text::KeepReceipt.of(locale),
    );
    Plain {
        locale,
        title: &format!(
            "{} – {}",
            Text::Receipt.of(locale),
            escape(&receipt.merchant_name)
        ),
        main: &main,
        script: Some(PRINT_SCRIPT),
    }
    .respond(StatusCode::OK)
}

/// What the payer reads of a payment's state.
fn status(state: PaymentState) -> Msg {
    match state {
        PaymentState::Authorized | PaymentState::Captured | PaymentState::PartiallyRefunded => {
            Msg::ResultPaid
        }
        PaymentState::Refunded => Msg::ResultRefunded,
        PaymentState::Voided => Msg::ResultVoided,
        PaymentState::Declined | PaymentState::Blocked => Msg::ResultDeclined,
        PaymentState::Failed => Msg::ResultFailed,
        PaymentState::NeedsReview => Msg::ResultReview,
        PaymentState::Created | PaymentState::Pending => Msg::ResultPending,
    }
}

/// The state's API name (`captured`); a blocked payment is `declined`, as the browser is told.
fn state_name(state: PaymentState) -> String {
    let state = match state {
        PaymentState::Blocked => PaymentState::Declined,
        other => other,
    };
    serde_json::to_value(state)
        .ok()
        .and_then(|name| name.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// `<time>` of `at` in UTC, the same in every language: `2026-11-29 14:05 UTC`.
fn date(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    let shown = at
        .format(format_description!(
            "[year]-[month]-[day] [hour]:[minute] UTC"
        ))
        .unwrap_or_default();
    let machine = at
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default();
    format!("<time datetime=\"{machine}\" dir=\"ltr\">{shown}</time>")
}
