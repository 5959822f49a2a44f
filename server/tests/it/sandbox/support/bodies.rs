//! Request bodies for the emulator's endpoints (a card payment, a stored token, 3-D Secure with
//! its return URLs), and a browser passing through a redirect that needs no decision.

use super::{Gateway, Receiver};
use serde_json::{Value, json};

/// A card-form payment body for `number` (JPY 1000; expiry and CVC valid for any brand).
pub fn payment_body(number: &str) -> Value {
    let cvc = if number.starts_with("34") || number.starts_with("37") {
        "1234"
    } else {
        "123"
    };
    json!({
        "amount": "1000",
        "currency": "JPY",
        "card": {
            "cvc": cvc,
            "expiry_month": "12",
            "expiry_year": "39",
            "name": "Jane Doe",
            "number": number,
        },
        "merchant_id": "merchant-1",
        "billing_address": {
            "country": "JP",
            "email": "jane@example.com",
            "phone_number": "+81300000000",
            "address1": "1-1 Chiyoda",
            "city": "Tokyo",
            "state": "Tokyo",
            "postal_code": "100-0001",
        },
        "merchant_txn_ref": "order-1001",
        "customer_ip": "203.0.113.7",
        "time_zone": "Asia/Tokyo",
    })
}

/// A token-form payment body.
pub fn token_body(token: &str) -> Value {
    let mut body = payment_body("4242424242424242");
    let object = body.as_object_mut().expect("object");
    object.remove("card");
    object.insert(
        "payment_method".into(),
        json!({"type": "scheme", "stored_payment_method_id": token}),
    );
    body
}

/// A 3DS body: the card form with `return_url` pointing at `receiver`.
pub fn three_ds_body(number: &str, receiver: &Receiver) -> Value {
    three_ds_body_at(number, &receiver.url(""))
}

/// A 3DS body whose return addresses live under `base` (`http://127.0.0.1:PORT`).
pub fn three_ds_body_at(number: &str, base: &str) -> Value {
    let mut body = payment_body(number);
    body["return_url"] = json!({
        "webhook_url": format!("{base}/webhook/pay-1"),
        "success_url": format!("{base}/pay-1/success?lang=en"),
        "decline_url": format!("{base}/pay-1/declined"),
    });
    body
}

/// Opens `redirect_url` without following redirects and returns the `Location` it sends the
/// browser to (frictionless cards and decided sessions).
pub async fn pass_through(gateway: &Gateway, redirect_url: &str) -> String {
    let answer = gateway
        .client
        .get(redirect_url)
        .send()
        .await
        .expect("redirect");
    assert_eq!(answer.status(), 303, "frictionless redirect");
    answer.headers()["location"]
        .to_str()
        .expect("ascii")
        .to_owned()
}
