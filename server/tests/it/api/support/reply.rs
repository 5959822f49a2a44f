//! What the tests send and read: a session as the shop holds it, an HTTP answer with its
//! contract-error check, and the pay body with the component's browser data.

use serde_json::{Value, json};

/// A session as the shop backend holds it.
#[derive(Debug, Clone)]
pub struct TestSession {
    pub id: String,
    pub secret: String,
    pub reference: String,
}

/// An HTTP answer: status, headers, text and (when it parses) JSON.
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub headers: reqwest::header::HeaderMap,
    pub text: String,
    pub json: Value,
}

impl Reply {
    /// Reads `response` whole.
    pub async fn read(response: reqwest::Response) -> Self {
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("body");
        let json = serde_json::from_str(&text).unwrap_or(Value::Null);
        Self {
            status,
            headers,
            text,
            json,
        }
    }

    /// Asserts a contract error with `status`, `code` and `field`.
    pub fn assert_error(&self, status: u16, code: &str, field: Option<&str>) {
        assert_eq!(self.status, status, "{}", self.text);
        assert_eq!(self.json["error"]["code"], code, "{}", self.text);
        assert_eq!(self.json["error"]["field"].as_str(), field, "{}", self.text);
        assert!(
            self.json["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "{}",
            self.text
        );
    }
}

/// A pay body with a new card, browser data and the billing fields the form asks for.
pub fn pay_body(number: &str, cvc: &str) -> Value {
    json!({
        "card": {"number": number, "expiry_month": "12", "expiry_year": "2030", "cvc": cvc, "name": "Jane Doe"},
        "billing_address": {"country": "JP", "postal_code": "100-0001"},
        "browser_info": browser_info(),
        "save_card": false
    })
}

/// The component's browser data.
pub fn browser_info() -> Value {
    json!({
        "screen_width": 1440, "screen_height": 900, "color_depth": 24, "java_enabled": false,
        "language": "ja-JP", "user_agent": "Mozilla/5.0 (test)", "time_zone": "Asia/Tokyo",
        "time_zone_offset_minutes": -540, "challenge_window": "05"
    })
}
