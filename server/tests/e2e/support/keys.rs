//! Typing the way each engine's driver allows. chromedriver and geckodriver type into an
//! element with WebDriver's Element Send Keys, as the suite always did. Two places differ:
//! - keys for whatever has the focus: the card form sits in a cross-origin frame inside the
//!   loader's shadow root, and geckodriver's Send Keys to the "active element" there fails
//!   ("Element <card-checkout> is not reachable by keyboard"); WebKitWebDriver's moves the
//!   focus. Firefox and WebKit get key actions (WebDriver Perform Actions), which press keys in
//!   whatever has the focus, as a keyboard does;
//! - WebKitWebDriver's Send Keys into an input that already holds text replaces that text, so
//!   in WebKit typing into an element clicks it (support/pointer.rs) and presses End with key
//!   actions, which puts the caret after what the field holds, where Send Keys puts it.
//!
//! Modifier keys in `text` (Shift, Control, Alt, Meta) stay down until the end of `text`, as
//! in Send Keys, so `"\u{e008}\u{e004}"` is Shift+Tab either way.

use fantoccini::Client;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::elements::Element;
use fantoccini::error::CmdError;
use fantoccini::key::Key;

use super::engine::Engine;
use super::pointer;

/// Types `text` into `element` (clicked first), key by key.
pub async fn type_into(
    client: &Client,
    engine: Engine,
    element: &Element,
    text: &str,
) -> Result<(), CmdError> {
    pointer::click(client, engine, element).await?;
    match engine {
        Engine::Chromium | Engine::Firefox => element.send_keys(text).await,
        Engine::WebKit => press_keys(client, &format!("{}{text}", char::from(Key::End))).await,
    }
}

/// Types `text` key by key into whatever has the focus. For Chromium the caller has made the
/// focused element's document the current one (Send Keys needs the element).
pub async fn type_focused(client: &Client, engine: Engine, text: &str) -> Result<(), CmdError> {
    match engine {
        Engine::Chromium => client.active_element().await?.send_keys(text).await,
        Engine::Firefox | Engine::WebKit => press_keys(client, text).await,
    }
}

/// Presses the keys of `text` one after another with key actions.
async fn press_keys(client: &Client, text: &str) -> Result<(), CmdError> {
    let modifiers = [Key::Shift, Key::Control, Key::Alt, Key::Meta].map(char::from);
    let mut held = Vec::new();
    let mut keys = KeyActions::new("keyboard".to_owned());
    for key in text.chars() {
        keys = keys.then(KeyAction::Down { value: key });
        if modifiers.contains(&key) {
            held.push(key);
        } else {
            keys = keys.then(KeyAction::Up { value: key });
        }
    }
    for key in held.into_iter().rev() {
        keys = keys.then(KeyAction::Up { value: key });
    }
    client.perform_actions(keys).await?;
    client.release_actions().await
}
