//! Acting on the page as a person would: typing with key events, clearing by keys, clicking
//! (also in the 3-D Secure dialog), pressing keys and typing into the focused field.

use fantoccini::error::CmdError;
use fantoccini::key::Key;

use crate::support::{keys, pointer};

use super::Page;

impl Page {
    /// Clicks into `css` and types `text` key by key (support/keys.rs).
    pub async fn type_into(&self, css: &str, text: &str) {
        self.type_into_fresh(css, text)
            .await
            .unwrap_or_else(|e| panic!("type into {css}: {e}"));
    }

    /// Types `text` into the element `css` finds, finding it again if it was replaced.
    async fn type_into_fresh(&self, css: &str, text: &str) -> Result<(), CmdError> {
        let (client, engine) = (&self.client, self.engine);
        keys::on_a_fresh_node(
            || self.find_ready(css),
            |element| async move { keys::type_into(client, engine, &element, text).await },
        )
        .await
    }

    /// Deletes the text of `css` with the keyboard: End, then Backspace once per character (a
    /// select-all shortcut is not reliable across WebDriver key handling), and checks it is gone.
    pub async fn clear_by_keys(&self, css: &str) {
        let length = self
            .prop(css, "value")
            .await
            .unwrap_or_default()
            .chars()
            .count();
        let backspace = char::from(Key::Backspace);
        let keys: String = std::iter::once(char::from(Key::End))
            .chain(std::iter::repeat_n(backspace, length))
            .collect();
        self.type_into_fresh(css, &keys)
            .await
            .unwrap_or_else(|e| panic!("clear {css}: {e}"));
        self.until(&format!("`{css}` empty"), || async {
            self.prop(css, "value")
                .await
                .unwrap_or_default()
                .is_empty()
                .then_some(())
        })
        .await;
    }

    /// Clicks `css` (a button of the bank's page in the 3-D Secure dialog) once it is displayed
    /// and enabled, when the click may end the frame it is in: the loader removes the dialog as
    /// the bank's answer comes back, and a driver may then report the frame gone instead of
    /// the click done. Whether the click took is for the scenario to see on the page.
    pub async fn click_in_dialog(&self, css: &str) {
        let element = self.find_ready(css).await;
        if let Err(error) = pointer::click(&self.client, self.engine, &element).await {
            eprintln!("[e2e] click {css} ended with its frame: {error}");
        }
        self.to_page().await;
    }

    /// Clicks `css` once it is displayed and enabled.
    pub async fn click(&self, css: &str) {
        let element = self.find_ready(css).await;
        pointer::click(&self.client, self.engine, &element)
            .await
            .unwrap_or_else(|e| panic!("click {css}: {e}"));
    }

    /// Presses `key` in whatever has focus.
    pub async fn press(&self, key: Key) {
        self.to_focus().await;
        keys::type_focused(&self.client, self.engine, &char::from(key).to_string())
            .await
            .unwrap_or_else(|e| panic!("press {key:?}: {e}"));
    }

    /// Types `text` key by key into whatever has focus.
    pub async fn type_focused(&self, text: &str) {
        self.to_focus().await;
        keys::type_focused(&self.client, self.engine, text)
            .await
            .unwrap_or_else(|e| panic!("type into the focused element: {e}"));
    }
}
