//! The parts of a gateway request that come from the shopper's browser: the browser data for
//! 3D Secure, the time zone and the billing address, each validated with the field named.
//! `acceptHeader` and `customer_ip` come from the HTTP request itself ([`Shopper`]), never
//! from the JSON body.

use std::net::IpAddr;

use checkout::contract::{self, BillingField};

use super::PaymentError;
use checkout::wire;

use crate::store::model::is_email;

/// Longest `Accept` header passed on.
const MAX_ACCEPT_CHARS: usize = 1024;
/// Longest user agent passed on.
const MAX_USER_AGENT_CHARS: usize = 2048;
/// Longest free-text address field.
const MAX_ADDRESS_CHARS: usize = 128;

/// Facts about the shopper taken from the HTTP request, not from its body (but the proof of
/// work the pay call adds).
#[derive(Debug, Clone)]
pub struct Shopper {
    /// `customer_ip`: the socket peer, or the forwarded address behind a trusted proxy.
    pub ip: IpAddr,
    /// `acceptHeader`: the request's own `Accept` header.
    pub accept: String,
    /// The pay request's answer to a proof of work, for a soft rule (`payments::screen`);
    /// set by the pay call from its body, `None` from [`Shopper::new`].
    pub proof_of_work: Option<contract::ProofOfWork>,
}

impl Shopper {
    /// A shopper at `ip` whose browser sent `accept` (`*/*` when absent or unusable).
    pub fn new(ip: IpAddr, accept: Option<&str>) -> Self {
        let accept = accept
            .map(str::trim)
            .filter(|a| !a.is_empty() && a.len() <= MAX_ACCEPT_CHARS)
            .filter(|a| !a.chars().any(char::is_control))
            .unwrap_or("*/*");
        Self {
            ip,
            accept: accept.to_owned(),
            proof_of_work: None,
        }
    }
}

/// The gateway's `browser_info` from the component's data and the request's `Accept`.
pub fn browser_info(
    info: &contract::BrowserInfo,
    accept: &str,
) -> Result<wire::BrowserInfo, PaymentError> {
    let language = info.language.trim();
    let language_ok = !language.is_empty()
        && language.len() <= 35
        && language
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-');
    if !language_ok {
        return Err(PaymentError::invalid(
            "invalid_field",
            "browser_info.language",
            "must be a language tag such as en-US",
        ));
    }
    let user_agent = info.user_agent.trim();
    if user_agent.is_empty()
        || user_agent.chars().count() > MAX_USER_AGENT_CHARS
        || user_agent.chars().any(char::is_control)
    {
        return Err(PaymentError::invalid(
            "invalid_field",
            "browser_info.user_agent",
            "must be 1 to 2048 characters without control characters",
        ));
    }
    for (field, value) in [
        ("browser_info.screen_width", info.screen_width),
        ("browser_info.screen_height", info.screen_height),
    ] {
        if !(1..=100_000).contains(&value) {
            return Err(PaymentError::invalid(
                "invalid_field",
                field,
                "must be 1 to 100000 pixels",
            ));
        }
    }
    Ok(wire::BrowserInfo {
        accept_header: accept.to_owned(),
        screen_color_depth: contract::clamp_color_depth(u32::from(info.color_depth)).to_string(),
        java_enabled: info.java_enabled,
        language: language.to_owned(),
        screen_height: info.screen_height.to_string(),
        screen_width: info.screen_width.to_string(),
        challenge_window: info.challenge_window.code().to_owned(),
        user_agent: user_agent.to_owned(),
    })
}

/// The gateway's `time_zone`: the browser's IANA zone (`Europe/Berlin`, `UTC`), ≤ 128.
pub fn time_zone(info: &contract::BrowserInfo) -> Result<String, PaymentError> {
    let zone = info.time_zone.trim();
    let ok = !zone.is_empty()
        && zone.len() <= 128
        && zone
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_' | b'-' | b'+'));
    if ok {
        Ok(zone.to_owned())
    } else {
        Err(PaymentError::invalid(
            "invalid_field",
            "browser_info.time_zone",
            "must be an IANA time zone such as Europe/Berlin",
        ))
    }
}

/// The gateway's `billing_address`: empty strings dropped, each field checked, `required`
/// fields present; the session's e-mail fills a missing one.
pub fn billing_address(
    address: &contract::Address,
    required: &[BillingField],
    session_email: Option<&str>,
) -> Result<wire::Address, PaymentError> {
    let country = optional(&address.country);
    if let Some(country) = country
        && !(country.len() == 2 && country.bytes().all(|b| b.is_ascii_alphabetic()))
    {
        return Err(invalid_address(
            "country",
            "must be a two-letter country code",
        ));
    }
    let email = optional(&address.email).or(session_email.map(str::trim).filter(|e| !e.is_empty()));
    if let Some(email) = email
        && !is_email(email)
    {
        return Err(invalid_address("email", "must be an e-mail address"));
    }
    let phone = optional(&address.phone_number);
    if let Some(phone) = phone
        && !(phone.len() <= 32
            && phone
                .bytes()
                .all(|b| b.is_ascii_digit() || b" +-().".contains(&b)))
    {
        return Err(invalid_address(
            "phone_number",
            "must be a phone number of digits, spaces and + - ( ) .",
        ));
    }
    let texts = [
        ("address1", optional(&address.address1)),
        ("city", optional(&address.city)),
        ("state", optional(&address.state)),
        ("postal_code", optional(&address.postal_code)),
    ];
    for (field, value) in texts {
        if let Some(value) = value
            && (value.chars().count() > MAX_ADDRESS_CHARS || value.chars().any(char::is_control))
        {
            return Err(invalid_address(
                field,
                "must be at most 128 characters without control characters",
            ));
        }
    }
    let result = wire::Address {
        country: country.map(str::to_ascii_uppercase),
        email: email.map(str::to_owned),
        phone_number: phone.map(str::to_owned),
        address1: texts[0].1.map(str::to_owned),
        city: texts[1].1.map(str::to_owned),
        state: texts[2].1.map(str::to_owned),
        postal_code: texts[3].1.map(str::to_owned),
    };
    if let Some(name) = first_missing(&result, required) {
        return Err(PaymentError::invalid(
            "required",
            format!("billing_address.{name}"),
            "is required",
        ));
    }
    Ok(result)
}

/// The name of the first of `required` that `address` lacks; `None` when it has them all.
pub fn first_missing(address: &wire::Address, required: &[BillingField]) -> Option<&'static str> {
    required.iter().find_map(|field| {
        let (name, present) = match field {
            BillingField::Country => ("country", address.country.is_some()),
            BillingField::Email => ("email", address.email.is_some()),
            BillingField::Phone => ("phone_number", address.phone_number.is_some()),
            BillingField::Address => ("address1", address.address1.is_some()),
            BillingField::City => ("city", address.city.is_some()),
            BillingField::State => ("state", address.state.is_some()),
            BillingField::PostalCode => ("postal_code", address.postal_code.is_some()),
        };
        (!present).then_some(name)
    })
}

/// `typed` with each field left empty taken from `on_file`, the address a saved card keeps
/// (the form does not ask for it while that card is chosen).
pub fn with_address_on_file(
    typed: &contract::Address,
    on_file: Option<&wire::Address>,
) -> contract::Address {
    let Some(kept) = on_file else {
        return typed.clone();
    };
    let pick = |typed: &str, kept: &Option<String>| match optional(typed) {
        Some(_) => typed.to_owned(),
        None => kept.clone().unwrap_or_default(),
    };
    contract::Address {
        country: pick(&typed.country, &kept.country),
        email: pick(&typed.email, &kept.email),
        phone_number: pick(&typed.phone_number, &kept.phone_number),
        address1: pick(&typed.address1, &kept.address1),
        city: pick(&typed.city, &kept.city),
        state: pick(&typed.state, &kept.state),
        postal_code: pick(&typed.postal_code, &kept.postal_code),
    }
}

fn optional(value: &str) -> Option<&str> {
    Some(value.trim()).filter(|v| !v.is_empty())
}

fn invalid_address(field: &str, message: &str) -> PaymentError {
    PaymentError::invalid("invalid_field", format!("billing_address.{field}"), message)
}

#[cfg(test)]
mod tests {
    use checkout::contract::ChallengeWindow;

    use super::*;

    fn info() -> contract::BrowserInfo {
        contract::BrowserInfo {
            screen_width: 1440,
            screen_height: 900,
            color_depth: 30,
            java_enabled: false,
            language: "de-DE".into(),
            user_agent: "Mozilla/5.0".into(),
            time_zone: "Europe/Berlin".into(),
            time_zone_offset_minutes: -60,
            challenge_window: ChallengeWindow::FullScreen,
        }
    }

    fn field(error: PaymentError) -> String {
        match error {
            PaymentError::Invalid { field, .. } => field,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn browser_info_takes_accept_from_the_request() {
        let wire = browser_info(&info(), "text/html").expect("valid");
        assert_eq!(wire.accept_header, "text/html");
        assert_eq!(wire.screen_color_depth, "24");
        assert_eq!(wire.challenge_window, "05");
        assert_eq!(time_zone(&info()).expect("valid"), "Europe/Berlin");
        let mut bad = info();
        bad.time_zone = "Mars/Olympus Mons".into();
        assert_eq!(
            field(time_zone(&bad).expect_err("space")),
            "browser_info.time_zone"
        );
        bad.language = String::new();
        assert_eq!(
            field(browser_info(&bad, "*/*").expect_err("empty")),
            "browser_info.language"
        );
    }

    #[test]
    fn shopper_accept_falls_back() {
        let ip = "203.0.113.9".parse().expect("ip");
        assert_eq!(Shopper::new(ip, None).accept, "*/*");
        assert_eq!(
            Shopper::new(ip, Some("application/json")).accept,
            "application/json"
        );
    }

    #[test]
    fn a_saved_cards_address_fills_only_what_was_not_typed() {
        let kept = wire::Address {
            country: Some("DE".into()),
            postal_code: Some("10115".into()),
            email: Some("kept@b.example".into()),
            ..wire::Address::default()
        };
        let typed = contract::Address {
            postal_code: "80331".into(),
            city: " ".into(),
            ..contract::Address::default()
        };
        let merged = with_address_on_file(&typed, Some(&kept));
        assert_eq!(merged.country, "DE");
        assert_eq!(merged.postal_code, "80331", "what was typed wins");
        assert_eq!(merged.email, "kept@b.example");
        assert_eq!(merged.city, "");
        assert_eq!(with_address_on_file(&typed, None), typed);
        let required = [BillingField::Country, BillingField::PostalCode];
        assert_eq!(first_missing(&kept, &required), None);
        assert_eq!(
            first_missing(&kept, &[BillingField::City, BillingField::Country]),
            Some("city")
        );
    }

    #[test]
    fn billing_address_rules() {
        let mut address = contract::Address {
            country: "de".into(),
            postal_code: "10115".into(),
            ..contract::Address::default()
        };
        let wire = billing_address(&address, &[BillingField::Country], Some("a@b.example"))
            .expect("valid");
        assert_eq!(wire.country.as_deref(), Some("DE"));
        assert_eq!(wire.email.as_deref(), Some("a@b.example"));
        assert_eq!(wire.city, None);
        assert_eq!(
            field(billing_address(&address, &[BillingField::City], None).expect_err("city")),
            "billing_address.city"
        );
        address.country = "DEU".into();
        assert_eq!(
            field(billing_address(&address, &[], None).expect_err("country")),
            "billing_address.country"
        );
        address.country = String::new();
        address.email = "nope".into();
        assert_eq!(
            field(billing_address(&address, &[], None).expect_err("email")),
            "billing_address.email"
        );
    }
}
