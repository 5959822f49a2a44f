//! `POST /frame/result`: where a session's payment stands, for the result page
//! ([`super::result_page`], mode `result`), whose script asks it with back-off until the payment
//! settles, as the component's result view polls `GET /v1/checkout/{id}/result`. The session
//! and client secret travel in the request body (the page has them from the shop's page in a
//! message), never in a URL; only the frame's own origin may ask (`Sec-Fetch-Site`).
//!
//! The answer is the panel in the shopper's language, drawn twice (while asking, and once the
//! asking has stopped: with a "check again" button unless settled), and the event the shop gets
//! for a settled payment (`success` with the result, `error` with the code and sentence the
//! component sends). A session or secret that is wrong, or a session without a payment, is
//! answered with the "unknown" panel and `refused`, as the component stops on a 4xx; a store
//! failure is an error status, which the page asks again after.

use axum::Form;
use axum::Json;
use axum::extract::State;
use axum::extract::rejection::FormRejection;
use axum::http::header::CACHE_CONTROL;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use checkout::contract::{DeclineCode, PaymentResult};
use checkout::i18n::Locale;
use checkout::outcome::{Report, report};
use serde::{Deserialize, Serialize};

use super::options::{first_language, option};
use super::refusal::FrameRefusal;
use super::result_page::outcome;
use crate::api::checkout::verified_session;
use crate::web::ApiFailure;
use crate::web::AppState;

/// What the result page posts.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ResultRequest {
    session: String,
    client_secret: String,
    locale: String,
}

/// Where the payment stands, drawn.
#[derive(Debug, Serialize)]
struct ResultPart {
    /// `lang` and `dir` of the panel's language.
    lang: &'static str,
    dir: &'static str,
    /// No verdict will come (wrong session or secret, no payment): stop asking.
    refused: bool,
    /// Nothing will change without the merchant: stop asking.
    settled: bool,
    /// The panel while the page asks (refused: the pending one, as before any answer).
    outcome: String,
    /// The panel once it stopped asking.
    stopped: String,
    /// What the shop is told, for a settled payment.
    event: Option<Event>,
}

/// An event for the shop, as the component dispatches it.
#[derive(Debug, Serialize)]
struct Event {
    name: &'static str,
    detail: Detail,
}

#[derive(Debug, Serialize)]
#[serde(untagged)]
enum Detail {
    /// `success`: the result.
    Paid(PaymentResult),
    /// `error`: the component's `ErrorDetail`.
    Failed {
        code: &'static str,
        message: &'static str,
        #[serde(skip_serializing_if = "Option::is_none")]
        decline: Option<DeclineCode>,
    },
}

/// The panel and event of the posted session's payment.
pub async fn serve(
    State(state): State<AppState>,
    headers: HeaderMap,
    form: Result<Form<ResultRequest>, FormRejection>,
) -> Result<Response, Response> {
    let same_origin = headers
        .get("sec-fetch-site")
        .is_none_or(|site| site.as_bytes() == b"same-origin");
    if !same_origin {
        return Err(FrameRefusal::NotFramed.into_response());
    }
    let Form(request) = form.map_err(|_| FrameRefusal::Unreadable.into_response())?;
    let refused = IntoResponse::into_response;
    let session = option("session", &request.session).map_err(refused)?;
    let secret = option("client_secret", &request.client_secret).map_err(refused)?;
    let locale = option("locale", &request.locale).map_err(refused)?;
    let locale = Locale::choose(Some(locale), first_language(&headers));
    let found = match verified_session(&state, session, secret).await {
        Ok(session) => state
            .payments
            .result(&session)
            .await
            .map_err(ApiFailure::from),
        Err(failure) => Err(failure),
    };
    let result = match found {
        Ok(result) => Some(result),
        Err(failure) if failure.status().is_client_error() => None,
        Err(failure) => return Err(failure.into_response()),
    };
    Ok((
        [(CACHE_CONTROL, HeaderValue::from_static("no-store"))],
        Json(part(locale, result)),
    )
        .into_response())
}

/// The answer for `result` (`None`: refused) in `locale`.
fn part(locale: Locale, result: Option<PaymentResult>) -> ResultPart {
    let settled = result.as_ref().is_some_and(|r| r.state.is_settled());
    let event = result
        .as_ref()
        .filter(|_| settled)
        .and_then(|result| event(locale, result));
    ResultPart {
        lang: locale.tag(),
        dir: locale.dir(),
        refused: result.is_none(),
        settled,
        outcome: outcome(locale, result.as_ref(), true),
        stopped: outcome(locale, result.as_ref(), false),
        event,
    }
}

/// The event a settled `result` sends the shop.
fn event(locale: Locale, result: &PaymentResult) -> Option<Event> {
    Some(match report(result)? {
        Report::Success => Event {
            name: "success",
            detail: Detail::Paid(result.clone()),
        },
        Report::Error { code, message } => Event {
            name: "error",
            detail: Detail::Failed {
                code,
                message: locale.text(message),
                decline: result.decline,
            },
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkout::contract::PaymentState;

    fn result(state: PaymentState) -> PaymentResult {
        PaymentResult {
            payment_id: "pay_1".into(),
            state,
            amount: 2500,
            currency: "EUR".into(),
            decline: (state == PaymentState::Declined).then_some(DeclineCode::ExpiredCard),
            subscription_id: None,
        }
    }

    fn json(part: &ResultPart) -> serde_json::Value {
        serde_json::to_value(part).expect("JSON")
    }

    #[test]
    fn a_settled_payment_tells_the_shop_as_the_component_does() {
        let paid = json(&part(Locale::En, Some(result(PaymentState::Captured))));
        assert_eq!(paid["settled"], true);
        assert_eq!(paid["event"]["name"], "success");
        assert_eq!(paid["event"]["detail"]["payment_id"], "pay_1");
        assert_eq!(paid["event"]["detail"]["amount"], 2500);
        assert!(paid["event"]["detail"].get("decline").is_none(), "{paid}");

        let declined = json(&part(Locale::De, Some(result(PaymentState::Declined))));
        assert_eq!(declined["event"]["name"], "error");
        assert_eq!(declined["event"]["detail"]["code"], "card_declined");
        assert_eq!(declined["event"]["detail"]["decline"], "expired_card");
        let message = declined["event"]["detail"]["message"]
            .as_str()
            .expect("text");
        assert!(
            declined["outcome"]
                .as_str()
                .expect("html")
                .contains(message)
        );
        assert_eq!(declined["lang"], "de");
    }

    #[test]
    fn pending_review_and_refused_tell_nothing() {
        let pending = json(&part(Locale::En, Some(result(PaymentState::Pending))));
        assert_eq!(pending["settled"], false);
        assert!(pending["event"].is_null());
        assert!(
            !pending["outcome"]
                .as_str()
                .expect("html")
                .contains("cc-check-again")
        );
        assert!(
            pending["stopped"]
                .as_str()
                .expect("html")
                .contains("cc-check-again")
        );
        let review = json(&part(Locale::En, Some(result(PaymentState::NeedsReview))));
        assert_eq!(review["settled"], true);
        assert!(review["event"].is_null());
        let refused = json(&part(Locale::He, None));
        assert_eq!(refused["refused"], true);
        assert_eq!(refused["dir"], "rtl");
        assert!(
            refused["stopped"]
                .as_str()
                .expect("html")
                .contains("data-state=\"unknown\"")
        );
    }
}
