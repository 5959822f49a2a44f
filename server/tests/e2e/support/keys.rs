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
//!
//! A node can be replaced between finding it and typing into it (the frame's shell taken over
//! by the component, late under load): the driver then refuses the click or Send Keys as a
//! stale reference before pressing any key, so [`on_a_fresh_node`] finds it again and types
//! again, with nothing typed twice.

use fantoccini::Client;
use fantoccini::actions::{InputSource, KeyAction, KeyActions};
use fantoccini::elements::Element;
use fantoccini::error::CmdError;
use fantoccini::key::Key;

use super::engine::Engine;
use super::pointer;

/// Finds and acts again this many times at most when the node found was replaced.
const TRIES_ON_REPLACED: usize = 5;

/// Whether `error` says the element was replaced (gone from the document) before the command:
/// the command did nothing, so it can be tried again on the node found anew.
fn replaced(error: &CmdError) -> bool {
    error.is_stale_element_reference() || error.is_no_such_element()
}

/// `act` on the element `find` gives; when the element turns out replaced, found again and
/// acted on again, at most [`TRIES_ON_REPLACED`] times.
pub async fn on_a_fresh_node<E, T, Find, Found, Act, Acted>(
    mut find: Find,
    mut act: Act,
) -> Result<T, CmdError>
where
    Find: FnMut() -> Found,
    Found: Future<Output = E>,
    Act: FnMut(E) -> Acted,
    Acted: Future<Output = Result<T, CmdError>>,
{
    let mut tries = 1;
    loop {
        match act(find().await).await {
            Err(error) if replaced(&error) && tries < TRIES_ON_REPLACED => tries += 1,
            done => return done,
        }
    }
}

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

#[cfg(test)]
mod tests {
    use std::borrow::Cow;
    use std::cell::Cell;

    use fantoccini::error::{ErrorStatus, WebDriver};

    use super::*;

    fn error(status: ErrorStatus) -> CmdError {
        CmdError::Standard(WebDriver::new(status, Cow::Borrowed("test")))
    }

    #[tokio::test]
    async fn a_replaced_node_is_found_again_and_nothing_else_is_retried() {
        let found = Cell::new(0);
        let find = || async {
            found.set(found.get() + 1);
            found.get()
        };
        // Replaced twice, then typed into the third node found.
        let typed = on_a_fresh_node(find, |node| async move {
            match node {
                1 => Err(error(ErrorStatus::StaleElementReference)),
                2 => Err(error(ErrorStatus::NoSuchElement)),
                n => Ok(n),
            }
        })
        .await;
        assert_eq!(typed.ok(), Some(3));
        // Another failure is the answer at once.
        found.set(0);
        let refused = on_a_fresh_node(find, |_| async {
            Err::<(), _>(error(ErrorStatus::ElementNotInteractable))
        })
        .await;
        assert!(refused.is_err());
        assert_eq!(found.get(), 1);
        // Replaced every time: given up after a bound, with the driver's error.
        found.set(0);
        let gone = on_a_fresh_node(find, |_| async {
            Err::<(), _>(error(ErrorStatus::StaleElementReference))
        })
        .await;
        assert!(gone.is_err_and(|e| e.is_stale_element_reference()));
        assert_eq!(found.get(), TRIES_ON_REPLACED);
    }
}
