//! The demo shopper's identity: a customer id kept in a cookie, so a card saved on the first
//! purchase is offered again on the second. The id is random per browser (`demo-` and 32 hex
//! digits); a missing or malformed cookie gets a new one. The shop backend is the only one
//! who reads it: the checkout component never sees it.

use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::{HeaderMap, HeaderValue};

/// Name of the cookie.
pub const COOKIE_NAME: &str = "demo_customer";
/// Prefix of every demo customer id.
const PREFIX: &str = "demo-";
/// One year, in seconds.
const MAX_AGE_SECONDS: u32 = 365 * 24 * 3600;

/// The shopper's customer id, and whether it is new (the answer must then set the cookie).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DemoCustomer {
    /// `demo-` and 32 lower-case hex digits.
    pub id: String,
    /// True when no valid cookie came with the request.
    pub is_new: bool,
}

impl DemoCustomer {
    /// The customer named by the request's cookie, or a new one.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        match cookie_value(headers, COOKIE_NAME).filter(|id| is_customer_id(id)) {
            Some(id) => Self { id, is_new: false },
            None => Self {
                id: format!("{PREFIX}{}", uuid::Uuid::new_v4().simple()),
                is_new: true,
            },
        }
    }

    /// The `Set-Cookie` header to send when the customer is new: HttpOnly, SameSite=Lax (the
    /// 3DS return is a top-level navigation back to the shop), whole site, one year.
    pub fn set_cookie(&self) -> Option<(axum::http::HeaderName, HeaderValue)> {
        if !self.is_new {
            return None;
        }
        let value = format!(
            "{COOKIE_NAME}={}; Path=/; Max-Age={MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax",
            self.id
        );
        HeaderValue::from_str(&value).ok().map(|v| (SET_COOKIE, v))
    }
}

/// True for `demo-` followed by exactly 32 lower-case hex digits.
fn is_customer_id(text: &str) -> bool {
    text.strip_prefix(PREFIX).is_some_and(|hex| {
        hex.len() == 32
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The value of cookie `name` in any `Cookie` header of the request.
fn cookie_value(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|line| line.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim().to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_cookie(line: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(COOKIE, HeaderValue::from_str(line).expect("header"));
        headers
    }

    #[test]
    fn keeps_a_valid_cookie() {
        let id = "demo-0123456789abcdef0123456789abcdef";
        let customer =
            DemoCustomer::from_headers(&with_cookie(&format!("theme=dark; {COOKIE_NAME}={id}")));
        assert_eq!(
            customer,
            DemoCustomer {
                id: id.into(),
                is_new: false
            }
        );
        assert!(customer.set_cookie().is_none());
    }

    #[test]
    fn replaces_a_missing_or_forged_cookie() {
        for headers in [
            HeaderMap::new(),
            with_cookie("demo_customer=alice"),
            with_cookie("demo_customer=demo-XYZ"),
        ] {
            let customer = DemoCustomer::from_headers(&headers);
            assert!(customer.is_new);
            assert!(is_customer_id(&customer.id), "{}", customer.id);
            let (name, value) = customer.set_cookie().expect("new cookie");
            assert_eq!(name, SET_COOKIE);
            let value = value.to_str().expect("ascii");
            assert!(
                value.starts_with(&format!("{COOKIE_NAME}={}", customer.id)),
                "{value}"
            );
            assert!(
                value.contains("HttpOnly") && value.contains("SameSite=Lax"),
                "{value}"
            );
        }
    }
}
