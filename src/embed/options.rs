//! The options of `mount(element, options)` and of the `<card-checkout>` attributes, read from
//! a JS object with serde-wasm-bindgen. Every refusal names the option at fault.

use crate::browser::navigate::is_web_url;
use serde::Deserialize;
use serde::de::{self, Deserializer, Visitor};
use std::fmt;
use wasm_bindgen::{JsCast, JsValue};

/// What the component shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Mode {
    /// The card form of a checkout session (default).
    #[default]
    Checkout,
    /// The result of a session's payment, for the page 3D Secure returns to.
    Result,
    /// A signed-in customer's subscriptions.
    Subscriptions,
}

impl Mode {
    /// `checkout`, `result` or `subscriptions`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Checkout => "checkout",
            Self::Result => "result",
            Self::Subscriptions => "subscriptions",
        }
    }

    fn parse(text: &str) -> Option<Mode> {
        match text {
            "" | "checkout" => Some(Self::Checkout),
            "result" => Some(Self::Result),
            "subscriptions" => Some(Self::Subscriptions),
            _ => None,
        }
    }
}

/// Options as JS passes them (`clientSecret`, ...); every value is a string.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Options {
    /// Checkout session id (modes `checkout`, `result`).
    #[serde(default, deserialize_with = "session")]
    pub session: String,
    /// The session's client secret (modes `checkout`, `result`).
    #[serde(default, deserialize_with = "client_secret")]
    pub client_secret: String,
    /// Base URL of checkout-server; empty for this page's origin.
    #[serde(default, deserialize_with = "server")]
    pub server: String,
    /// Language tag (`de`, `fr-CA`, ...); empty for `navigator.language`.
    #[serde(default, deserialize_with = "locale")]
    pub locale: String,
    /// `checkout` (default), `result` or `subscriptions`.
    #[serde(default, deserialize_with = "mode")]
    pub mode: String,
    /// Customer token for mode `subscriptions`.
    #[serde(default, deserialize_with = "customer_token")]
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
            serde_wasm_bindgen::from_value(value).map_err(|e| {
                let text = e.to_string();
                text.strip_prefix("Error: ").unwrap_or(&text).to_owned()
            })?
        };
        let mode = options.check()?;
        Ok((options, mode))
    }

    fn check(&self) -> Result<Mode, String> {
        let mode = Mode::parse(&self.mode).ok_or_else(|| {
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
            Mode::Checkout | Mode::Result if self.session.is_empty() => missing("session"),
            Mode::Checkout | Mode::Result if self.client_secret.is_empty() => {
                missing("clientSecret")
            }
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

/// serde-wasm-bindgen reads a struct by looking up its known keys, so a misspelt key would
/// pass unnoticed; this names it instead.
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

/// Accepts a string (or null/undefined as empty) and names the option in any other case.
struct Text(&'static str);

impl Visitor<'_> for Text {
    type Value = String;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("option `")?;
        f.write_str(self.0)?;
        f.write_str("` to be a string")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
        Ok(v.to_owned())
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
        Ok(v)
    }

    fn visit_unit<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }

    fn visit_none<E: de::Error>(self) -> Result<String, E> {
        Ok(String::new())
    }

    // Numbers and booleans are refused here rather than by serde's default, whose message
    // would format the value (and pull float formatting into the wasm).
    fn visit_bool<E: de::Error>(self, _: bool) -> Result<String, E> {
        Err(self.refuse())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<String, E> {
        Err(self.refuse())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<String, E> {
        Err(self.refuse())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<String, E> {
        Err(self.refuse())
    }
}

impl Text {
    fn refuse<E: de::Error>(&self) -> E {
        E::custom(["option `", self.0, "` must be a string"].concat())
    }
}

fn text<'de, D: Deserializer<'de>>(d: D, name: &'static str) -> Result<String, D::Error> {
    d.deserialize_any(Text(name))
}

fn session<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    text(d, "session")
}

fn client_secret<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    text(d, "clientSecret")
}

fn server<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    text(d, "server")
}

fn locale<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    text(d, "locale")
}

fn mode<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    text(d, "mode")
}

fn customer_token<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    text(d, "customerToken")
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
        assert_eq!(
            options("result", "cs_1", "sec", "").check(),
            Ok(Mode::Result)
        );
        let err = options("checkout", "", "sec", "").check().unwrap_err();
        assert!(err.contains("`session`"), "{err}");
        let err = options("result", "cs_1", "", "").check().unwrap_err();
        assert!(err.contains("`clientSecret`"), "{err}");
        let err = options("subscriptions", "", "", "").check().unwrap_err();
        assert!(err.contains("`customerToken`"), "{err}");
        assert_eq!(
            options("subscriptions", "", "", "tok").check(),
            Ok(Mode::Subscriptions)
        );
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
