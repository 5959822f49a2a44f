//! `GET /pay/{link}`: the hosted payment page, on this server's origin. What the link sells (the
//! shop's name, the item, the amount: [`super::price`]), the payer's fields
//! ([`super::payer_fields`]), the card form as HTML (the card frame's, [`crate::api::frame`]'s
//! skeleton) which the page's script hands to the component once there is a session, and the 3-D
//! Secure dialog; all in the payer's language ([`super::languages`]). Loading it makes no session
//! and no payment (it counts a view); a link that takes no payment gets [`super::unavailable`]'s
//! page instead.

use std::collections::BTreeMap;

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use checkout::contract::{CheckoutKind, CheckoutView};
use checkout::form_fields::COUNTRY_CODES;
use checkout::i18n::{Locale, Msg};
use serde::Serialize;

use super::super::frame::page::{form_html, template};
use super::super::frame::skeleton::escape;
use super::document::{Hosted, document, policy};
use super::languages::{LanguageQuery, chosen, switcher};
use super::payer_fields::payer_fields;
use super::plain::html_response;
use super::price::price;
use super::unavailable;
use crate::payments::links::{LinkError, LinkPage};
use crate::store::model::LinkAmount;
use crate::web::{ApiFailure, AppState};

/// The options of the page's script (`hosted.js`).
#[derive(Debug, Serialize)]
struct ScriptConfig<'a> {
    locale: &'static str,
    /// Where Pay posts the payer's fields.
    session_url: &'a str,
    /// The pay button's label.
    pay: &'a str,
    /// The label with the total in its `{0}`, when the page shows a total (`#hp-total`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pay_total: Option<&'static str>,
    /// The pay button's label while the session is made.
    processing: &'static str,
    /// Said when the server failed.
    failed: &'static str,
    /// Said when it could not be reached.
    network: &'static str,
}

/// The page of the link `public_id`.
pub async fn serve(
    State(state): State<AppState>,
    Path(public_id): Path<String>,
    query: Result<Query<LanguageQuery>, QueryRejection>,
    headers: HeaderMap,
) -> Response {
    let locale = chosen(&query.map(|q| q.0).unwrap_or_default(), &headers);
    let page = match state.links.for_page(&public_id).await {
        Ok(page) => page,
        Err(LinkError::Unavailable(why)) => return unavailable::page(why, locale),
        Err(other) => return ApiFailure::from(other).into_response(),
    };
    if let Err(error) = state.links.record_view(&public_id).await {
        tracing::warn!(%error, "a payment link's view was not counted");
    }
    let Ok(template) = template(&state, "").await else {
        return ApiFailure::Unavailable("the card form is not built (COMPONENT_DIR)".into())
            .into_response();
    };
    match render(&template, &page, locale) {
        Some(html) => respond(html),
        None => {
            ApiFailure::Internal("the card form's template lacks a part".into()).into_response()
        }
    }
}

/// The page's document for `page` in `locale`.
fn render(template: &str, page: &LinkPage, locale: Locale) -> Option<String> {
    let unit = match page.amount {
        LinkAmount::Fixed { amount } => amount,
        LinkAmount::PayerChosen { .. } => 0,
    };
    let price = price(page, locale);
    let view = CheckoutView {
        id: String::new(),
        amount: unit,
        currency: page.currency.clone(),
        currency_exponent: page.currency_exponent,
        description: Some(page.description.clone()),
        merchant_name: page.merchant_name.clone(),
        // A plan's form is the card form too, until the component shows the plan's terms.
        kind: CheckoutKind::Payment,
        billing_fields: page.billing_fields.clone(),
        saved_cards: Vec::new(),
        can_save_card: false,
    };
    let form = form_html("checkout", Some(&view), locale, &BTreeMap::new())?.replacen(
        "<select id=\"billing-country\"",
        &format!("<select data-codes=\"{COUNTRY_CODES}\" id=\"billing-country\""),
        1,
    );
    let item = match &page.plan {
        Some(plan) => format!("{} – {}", plan.name, page.description),
        None => page.description.clone(),
    };
    let main = format!(
        "{switcher}<header class=\"hp-head\"><h1 id=\"hp-merchant\">{merchant}</h1>\
         <p id=\"hp-item\" class=\"hp-item\">{item}</p>{price}</header>{payer}{form}{dialog}",
        switcher = switcher(locale),
        merchant = escape(&page.merchant_name),
        item = escape(&item),
        price = price.html,
        payer = payer_fields(page, locale),
        dialog = dialog(locale),
    );
    let session_url = format!("/pay/{}/session", page.public_id);
    let config = ScriptConfig {
        locale: locale.tag(),
        session_url: &session_url,
        pay: &price.pay,
        pay_total: price.pay_total,
        processing: locale.text(Msg::Processing),
        failed: locale.text(Msg::ServerError),
        network: locale.text(Msg::NetworkError),
    };
    let title = escape(&format!("{} – {}", page.merchant_name, page.description));
    document(
        template,
        &Hosted {
            lang: locale.tag(),
            dir: locale.dir(),
            title: &title,
            main: &main,
            config: &config,
        },
    )
}

/// The 3-D Secure dialog, closed: the page's script frames the bank's page in it (the frame in
/// a `<template>` until then: no document of its own while the payer types).
fn dialog(locale: Locale) -> String {
    format!(
        "<dialog id=\"hp-3ds\" class=\"cc-3ds\" aria-labelledby=\"hp-3ds-title\">\
         <div class=\"cc-3ds-bar\"><h2 id=\"hp-3ds-title\">{title}</h2><button type=\"button\" \
         aria-label=\"{close}\">×</button></div>\
         <template><iframe title=\"{frame}\"></iframe></template>\
         <p><a href=\"#hp-3ds\">{instead}</a></p></dialog>",
        title = escape(locale.text(Msg::ThreeDsTitle)),
        close = escape(locale.text(Msg::ThreeDsClose)),
        frame = escape(locale.text(Msg::ThreeDsFrameTitle)),
        instead = escape(locale.text(Msg::ThreeDsOpenInstead)),
    )
}

/// `html` with its policy (never framed).
fn respond(html: String) -> Response {
    let policy = policy(&html);
    html_response(StatusCode::OK, html, &policy)
}
