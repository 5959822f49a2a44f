//! How the services' errors reach the client: each service has its own error enum and knows
//! nothing of HTTP; these mappings give them the API's status codes and error shape.

use crate::events::endpoints::EndpointError;
use crate::gateway::GatewayError;
use crate::payments::PaymentError;
use crate::payments::links::{LinkError, LinkUnavailable};
use crate::subscriptions::SubscriptionError;
use crate::web::ApiFailure;

impl From<PaymentError> for ApiFailure {
    fn from(error: PaymentError) -> Self {
        match error {
            PaymentError::Invalid {
                code,
                field,
                message,
            } => ApiFailure::BadRequest {
                code,
                message: format!("{field}: {message}"),
                field: Some(field),
            },
            PaymentError::NotFound(what) => ApiFailure::NotFound(what),
            PaymentError::Conflict {
                code,
                message,
                field,
            } => ApiFailure::Conflict {
                code,
                message,
                field,
            },
            PaymentError::ProofOfWorkRequired(challenge) => ApiFailure::ProofRequired(challenge),
            PaymentError::SessionExpired => ApiFailure::Gone {
                code: "session_expired",
                message: "the checkout session has expired",
            },
            PaymentError::Gateway(error) => gateway_failure(error),
            PaymentError::Store(error) => ApiFailure::from(error),
        }
    }
}

/// A gateway refusal the merchant can act on is a 409 with the gateway's own message; an
/// unreachable gateway is a 503; anything else a 502 (cause logged).
fn gateway_failure(error: GatewayError) -> ApiFailure {
    match error {
        GatewayError::Rejected { message, code, .. } => ApiFailure::conflict(
            "gateway_refused",
            format!(
                "the gateway refused the request ({}): {}",
                code.as_deref().unwrap_or("no code"),
                message.as_deref().unwrap_or("no message")
            ),
        ),
        GatewayError::Declined { code, message, .. } => ApiFailure::conflict(
            "gateway_declined",
            format!("the gateway declined the request ({code}): {message}"),
        ),
        GatewayError::Transport { .. } | GatewayError::Unavailable { .. } => {
            ApiFailure::Unavailable(error.to_string())
        }
        other => ApiFailure::Gateway(other.to_string()),
    }
}

impl From<SubscriptionError> for ApiFailure {
    fn from(error: SubscriptionError) -> Self {
        match error {
            SubscriptionError::NotFound => ApiFailure::NotFound("subscription"),
            SubscriptionError::Refused { code, message } => ApiFailure::conflict(code, message),
            SubscriptionError::Gateway(
                error @ (GatewayError::Transport { .. }
                | GatewayError::Unavailable { .. }
                | GatewayError::OutcomeUnknown { .. }),
            ) => ApiFailure::Unavailable(error.to_string()),
            SubscriptionError::Gateway(error) => ApiFailure::Gateway(error.to_string()),
            SubscriptionError::Store(error) => ApiFailure::from(error),
        }
    }
}

impl From<EndpointError> for ApiFailure {
    fn from(error: EndpointError) -> Self {
        match error {
            EndpointError::Invalid { field, message } => ApiFailure::BadRequest {
                code: "invalid_field",
                message: format!("{field}: {message}"),
                field: Some(field.to_owned()),
            },
            EndpointError::NotFound(what) => ApiFailure::NotFound(what),
            EndpointError::Store(error) => ApiFailure::from(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use axum::http::StatusCode;

    use super::*;

    #[test]
    fn refusals_are_conflicts_and_outages_are_503() {
        let refused = SubscriptionError::Refused {
            code: "subscription_transition_refused",
            message: "cannot resume an active subscription".into(),
        };
        let failure = ApiFailure::from(refused);
        assert_eq!(failure.status(), StatusCode::CONFLICT);
        assert_eq!(failure.body().error.code, "subscription_transition_refused");
        let outage = SubscriptionError::Gateway(GatewayError::OutcomeUnknown {
            reason: "timeout".into(),
        });
        assert_eq!(
            ApiFailure::from(outage).status(),
            StatusCode::SERVICE_UNAVAILABLE
        );
        assert_eq!(
            ApiFailure::from(SubscriptionError::NotFound).status(),
            StatusCode::NOT_FOUND
        );
    }
}

impl From<LinkError> for ApiFailure {
    fn from(error: LinkError) -> Self {
        match error {
            LinkError::Unavailable(LinkUnavailable::NotFound) => {
                ApiFailure::NotFound("payment_link")
            }
            LinkError::Unavailable(why) => ApiFailure::Gone {
                code: why.code(),
                message: why.message(),
            },
            LinkError::Payment(error) => ApiFailure::from(error),
        }
    }
}
