//! Reading the page: an element's text (waited for), attributes, properties and styles, the
//! card form frame's heights, and the focused field's caret, value and id.

use std::time::Duration;

use serde_json::Value;

use super::{CHECKOUT_FRAME, DEEP_ACTIVE, Page};

impl Page {
    /// The visible text of `css` now (empty when absent).
    pub async fn text(&self, css: &str) -> String {
        match self.try_find(css).await {
            Some(element) => element.text().await.unwrap_or_default(),
            None => String::new(),
        }
    }

    /// Waits until the text of `css` contains `needle` (case-insensitive); returns the text.
    pub async fn wait_text(&self, css: &str, needle: &str) -> String {
        let lower = needle.to_lowercase();
        self.until(&format!("`{css}` to say \"{needle}\""), || async {
            let text = self.text(css).await;
            text.to_lowercase().contains(&lower).then_some(text)
        })
        .await
    }

    /// Waits until the text of `css` contains one of `needles`; returns the text.
    pub async fn wait_text_any(&self, css: &str, needles: &[&str], limit: Duration) -> String {
        self.until_for(
            &format!("`{css}` to say one of {needles:?}"),
            limit,
            || async {
                let text = self.text(css).await;
                let lower = text.to_lowercase();
                needles
                    .iter()
                    .any(|n| lower.contains(&n.to_lowercase()))
                    .then_some(text)
            },
        )
        .await
    }

    /// An attribute of `css` now.
    pub async fn attr(&self, css: &str, name: &str) -> Option<String> {
        self.try_find(css).await?.attr(name).await.ok().flatten()
    }

    /// A DOM property of `css` now (`value`, `checked`, ...).
    pub async fn prop(&self, css: &str, name: &str) -> Option<String> {
        self.try_find(css).await?.prop(name).await.ok().flatten()
    }

    /// The computed CSS `property` of `css` now (WebDriver Get Element CSS Value).
    pub async fn css(&self, css: &str, property: &str) -> Option<String> {
        self.try_find(css).await?.css_value(property).await.ok()
    }

    /// Waits until attribute `name` of `css` equals `value`.
    pub async fn wait_attr(&self, css: &str, name: &str, value: &str) {
        self.until(&format!("`{css}` [{name}=\"{value}\"]"), || async {
            (self.attr(css, name).await.as_deref() == Some(value)).then_some(())
        })
        .await;
    }

    /// The card frame's height on the page and the height of its document's content
    /// (`scrollHeight`), in CSS pixels: equal when the frame fits the form.
    pub async fn frame_heights(&self) -> (f64, f64) {
        self.to_page().await;
        let frame = self.query(CHECKOUT_FRAME).await.expect("the card frame");
        let (_, _, _, outer) = frame.rectangle().await.expect("the card frame's box");
        frame.enter_frame().await.expect("into the card frame");
        let inner = self
            .client
            .execute("return document.documentElement.scrollHeight;", vec![])
            .await
            .ok()
            .and_then(|h| h.as_f64())
            .expect("the frame's content height");
        (outer, inner)
    }

    /// The caret (`selectionStart`) of the focused input; `None` when no input has the focus.
    pub async fn focused_caret(&self) -> Option<u64> {
        self.to_focus().await;
        let script = [
            DEEP_ACTIVE,
            "return el && typeof el.selectionStart === 'number' ? el.selectionStart : null;",
        ]
        .concat();
        self.client.execute(&script, vec![]).await.ok()?.as_u64()
    }

    /// The `value` of the element that has focus (an input's or a select's).
    pub async fn focused_value(&self) -> Option<String> {
        self.to_focus().await;
        let script = [DEEP_ACTIVE, "return el ? el.value : null;"].concat();
        let value = self.client.execute(&script, vec![]).await.ok()?;
        value.as_str().map(str::to_owned)
    }

    /// `id` (or `name`, or tag) of the element that has focus, looking into shadow roots.
    pub async fn focused_id(&self) -> String {
        self.to_focus().await;
        let script = [
            DEEP_ACTIVE,
            "return el ? (el.id || el.getAttribute('name') || el.tagName.toLowerCase()) : '';",
        ]
        .concat();
        let value = self
            .client
            .execute(&script, vec![])
            .await
            .unwrap_or(Value::Null);
        value.as_str().unwrap_or_default().to_owned()
    }
}
