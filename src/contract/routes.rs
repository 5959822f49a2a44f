//! Paths and header names of the browser API, so the component and checkout-server cannot
//! drift apart. The `*_ROUTE` constants are axum 0.8 patterns; the functions build concrete
//! paths with every id percent-encoded.

use super::SubscriptionAction;

/// Header carrying the session's client secret on every `/v1/checkout/...` call.
pub const CLIENT_SECRET_HEADER: &str = "X-Client-Secret";
/// Header carrying the customer token on every `/v1/customer/...` call.
pub const CUSTOMER_TOKEN_HEADER: &str = "X-Customer-Token";
/// Header carrying the per-attempt key on every browser POST.
pub const IDEMPOTENCY_KEY_HEADER: &str = "Idempotency-Key";

/// Id of the `<script type="application/json">` block in which the frame document carries the
/// session's view (the answer of [`CHECKOUT_ROUTE`]), so the component need not fetch it.
pub const CARRIED_VIEW_ID: &str = "checkout-session";

/// `GET`: the session's public view ([`super::CheckoutView`]).
pub const CHECKOUT_ROUTE: &str = "/v1/checkout/{session_id}";
/// `POST`: pay ([`super::PayRequest`] → [`super::PayResponse`]).
pub const PAY_ROUTE: &str = "/v1/checkout/{session_id}/pay";
/// `GET`: the payment result ([`super::PaymentResult`]).
pub const RESULT_ROUTE: &str = "/v1/checkout/{session_id}/result";
/// `GET`: the customer's subscriptions ([`super::CustomerSubscriptions`]).
pub const CUSTOMER_SUBSCRIPTIONS_ROUTE: &str = "/v1/customer/subscriptions";
/// `POST`: pause, resume or cancel ([`SubscriptionAction`] → [`super::SubscriptionView`]).
pub const CUSTOMER_SUBSCRIPTION_ACTION_ROUTE: &str = "/v1/customer/subscriptions/{id}/{action}";

/// `/v1/checkout/{session_id}`.
pub fn checkout_path(session_id: &str) -> String {
    let mut path = String::from("/v1/checkout/");
    push_segment(&mut path, session_id);
    path
}

/// `/v1/checkout/{session_id}/pay`.
pub fn pay_path(session_id: &str) -> String {
    checkout_path(session_id) + "/pay"
}

/// `/v1/checkout/{session_id}/result`.
pub fn result_path(session_id: &str) -> String {
    checkout_path(session_id) + "/result"
}

/// `/v1/customer/subscriptions/{id}/{action}`.
pub fn subscription_action_path(subscription_id: &str, action: SubscriptionAction) -> String {
    let mut path = String::from(CUSTOMER_SUBSCRIPTIONS_ROUTE);
    path.push('/');
    push_segment(&mut path, subscription_id);
    path.push('/');
    path.push_str(action.as_str());
    path
}

/// Appends `segment` with every byte outside RFC 3986 "unreserved" percent-encoded.
fn push_segment(path: &mut String, segment: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for byte in segment.bytes() {
        if byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~') {
            path.push(char::from(byte));
        } else {
            path.push('%');
            path.push(char::from(HEX[usize::from(byte >> 4)]));
            path.push(char::from(HEX[usize::from(byte & 0x0f)]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_paths() {
        assert_eq!(checkout_path("cs_123"), "/v1/checkout/cs_123");
        assert_eq!(pay_path("cs_123"), "/v1/checkout/cs_123/pay");
        assert_eq!(result_path("cs_123"), "/v1/checkout/cs_123/result");
        assert_eq!(
            subscription_action_path("sub_1", SubscriptionAction::Cancel),
            "/v1/customer/subscriptions/sub_1/cancel"
        );
    }

    #[test]
    fn encodes_ids() {
        assert_eq!(checkout_path("a/b?c"), "/v1/checkout/a%2Fb%3Fc");
        assert_eq!(checkout_path("é"), "/v1/checkout/%C3%A9");
    }
}
