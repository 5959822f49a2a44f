//! The options of `mount(element, options)` and of the `<card-checkout>` attributes, read from
//! a JS object key by key (six strings: serde-wasm-bindgen's deserializer would add its generic
//! machinery, float formatting included, for nothing). Every refusal names the option at fault.

use crate::browser::navigate::is_web_url;
use wasm_bindgen::{JsCast, JsValue};

/// What the component shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The card form of a checkout session (default).
    #[default]
    Checkout,
    /// A signed-in customer's subscriptions: only in the subscription bundle (feature
    /// `subscriptions`), which a card form does not download.
    #[cfg(feature = "subscriptions")]
    Subscriptions,
}

impl Mode {
    /// `checkout` or `subscriptions`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Checkout => "checkout",
            #[cfg(feature = "subscriptions")]
            Self::Subscriptions => "subscriptions",
        }
    }

    fn parse(text: &str) -> Option<Mode> {
        match text {
            "" | "checkout" => Some(Self::Checkout),
            #[cfg(feature = "subscriptions")]
            "subscriptions" => Some(Self::Subscriptions),
            _ => None,
        }
    }
}

/// Options as JS passes them (`clientSecret`, ...); every value is a string.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Checkout session id (mode `checkout`).
    pub session: String,
    /// The session's client secret (mode `checkout`).
    pub client_secret: String,
    /// Base URL of checkout-server; empty for this page's origin.
    pub server: String,
    /// Language tag (`de`, `fr-CA`, ...); empty for `navigator.language`.
    pub locale: String,
    /// `checkout` (default) or `subscriptions` (`result` is checkout-server's own page).
    pub mode: String,
    /// Customer token for mode `subscriptions`.
    pub customer_token: String,
}

impl Options {
    /// Reads and checks `value`; `undefined` counts as `{}`. The error is a sentence naming
    /// the option, for the console.
    pub fn from_js(value: JsValue) -> Result<(Options, Mode), String> {
        let options: Options = if value.is_undefined() || value.is_null() {
            Options::default()
        } else {
            refuse_unknown(&value)?;
            Options {
                session: text(&value, "session")?,
                client_secret: text(&value, "clientSecret")?,
                server: text(&value, "server")?,
                locale: text(&value, "locale")?,
                mode: text(&value, "mode")?,
                customer_token: text(&value, "customerToken")?,
            }
        };
        let mode = options.check()?;
        Ok((options, mode))
    }

    fn check(&self) -> Result<Mode, String> {
        let mode = Mode::parse(&self.mode).ok_or_else(|| {
            if self.mode == "subscriptions" {
                return "option `mode`: \"subscriptions\" is in the subscription bundle \
                        (dist/manage/); this bundle has the card form only"
                    .into();
            }
            if self.mode == "result" {
                return "option `mode`: \"result\" is a page of checkout-server's own: show it \
                        with <card-checkout mode=\"result\"> from its /checkout.js"
                    .into();
            }
            [
                "option `mode` must be \"checkout\", \"result\" or \"subscriptions\", not \"",
                &self.mode,
                "\"",
            ]
            .concat()
        })?;
        if !self.server.is_empty() && !is_web_url(&self.server) {
            return Err(
                "option `server` must be an http(s) URL such as \"https://pay.example.com\"".into(),
            );
        }
        let missing = |name: &str| {
            Err([
                "option `",
                name,
                "` is required in mode \"",
                mode.as_str(),
                "\"",
            ]
            .concat())
        };
        match mode {
            Mode::Checkout if self.session.is_empty() => missing("session"),
            Mode::Checkout if self.client_secret.is_empty() => missing("clientSecret"),
            #[cfg(feature = "subscriptions")]
            Mode::Subscriptions if self.customer_token.is_empty() => missing("customerToken"),
            _ => Ok(mode),
        }
    }
}

/// The option names `mount` understands.
const KNOWN: [&str; 6] = [
    "session",
    "clientSecret",
    "server",
    "locale",
    "mode",
    "customerToken",
];

/// Options are read by looking up the known keys, so a misspelt key would pass unnoticed; this
/// names it instead.
fn refuse_unknown(value: &JsValue) -> Result<(), String> {
    if !value.is_object() {
        return Err("options must be an object such as { session, clientSecret, server }".into());
    }
    let keys = js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>());
    for key in keys.iter().filter_map(|k| k.as_string()) {
        if !KNOWN.contains(&key.as_str()) {
            return Err([
                "unknown option `",
                &key,
                "`; expected one of ",
                &KNOWN.join(", "),
            ]
            .concat());
        }
    }
    Ok(())
}

/// The string option `name` of `object`; absent, `undefined` and `null` read as empty.
fn text(object: &JsValue, name: &str) -> Result<String, String> {
    let value =
        js_sys::Reflect::get(object, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
    if value.is_undefined() || value.is_null() {
        return Ok(String::new());
    }
    value
        .as_string()
        .ok_or_else(|| ["option `", name, "` must be a string"].concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(mode: &str, session: &str, secret: &str, token: &str) -> Options {
        Options {
            session: session.into(),
            client_secret: secret.into(),
            mode: mode.into(),
            customer_token: token.into(),
            ..Options::default()
        }
    }

    #[test]
    fn each_mode_names_its_missing_option() {
        assert_eq!(options("", "cs_1", "sec", "").check(), Ok(Mode::Checkout));
        let err = options("checkout", "", "sec", "").check().unwrap_err();
        assert!(err.contains("`session`"), "{err}");
        let err = options("", "cs_1", "", "").check().unwrap_err();
        assert!(err.contains("`clientSecret`"), "{err}");
    }

    #[test]
    fn the_result_page_is_the_servers() {
        let err = options("result", "cs_1", "sec", "").check().unwrap_err();
        assert!(err.contains("/checkout.js"), "{err}");
    }

    #[cfg(feature = "subscriptions")]
    #[test]
    fn subscriptions_need_a_customer_token() {
        let err = options("subscriptions", "", "", "").check().unwrap_err();
        assert!(err.contains("`customerToken`"), "{err}");
        assert_eq!(
            options("subscriptions", "", "", "tok").check(),
            Ok(Mode::Subscriptions)
        );
    }

    #[cfg(not(feature = "subscriptions"))]
    #[test]
    fn the_card_bundle_points_subscriptions_to_their_bundle() {
        let err = options("subscriptions", "", "", "tok").check().unwrap_err();
        assert!(err.contains("dist/manage/"), "{err}");
    }

    #[test]
    fn refuses_unknown_modes_and_servers() {
        let err = options("shop", "cs_1", "sec", "").check().unwrap_err();
        assert!(err.contains("`mode`") && err.contains("shop"), "{err}");
        let mut bad = options("", "cs_1", "sec", "");
        bad.server = "javascript:alert(1)".into();
        assert!(bad.check().unwrap_err().contains("`server`"));
    }
}
