//! Finding things on the page: in the document and its open shadow roots, then in the card
//! form's frame and the bank's frame of the 3-D Secure dialog (the frame found in stays the
//! context), counting matches, and moving between the page and the focused frame.

use std::time::Instant;

use fantoccini::elements::{Element, ElementRef};
use serde_json::Value;

use crate::support::top_frame;

use super::{BANK_FRAMES, CHECKOUT_FRAME, DEEP_ACTIVE, DEEP_FIND, ELEMENT_KEY, POLL, Page, WAIT};

impl Page {
    /// The element matching `css` (document or shadow roots), if there is one now: in the page
    /// first, then in the card form's frame, then in the bank's frame of the 3-D Secure dialog;
    /// the frame it was found in stays the context.
    pub async fn try_find(&self, css: &str) -> Option<Element> {
        self.to_page().await;
        if let Some(found) = self.query(css).await {
            return Some(found);
        }
        for frames in [&[CHECKOUT_FRAME][..], &BANK_FRAMES[..]] {
            self.to_page().await;
            if self.enter_frames(frames).await
                && let Some(found) = self.query(css).await
            {
                return Some(found);
            }
        }
        None
    }

    /// Enters the frame matching the first selector, then the one matching the next inside it,
    /// and so on; false when one is missing.
    async fn enter_frames(&self, path: &[&str]) -> bool {
        for css in path {
            let Some(frame) = self.query(css).await else {
                return false;
            };
            if frame.enter_frame().await.is_err() {
                return false;
            }
        }
        true
    }

    /// How many elements match `css` (document and shadow roots): in the page, or else in the
    /// card form's frame.
    pub async fn count(&self, css: &str) -> usize {
        let script = r#"
            const roots = [document];
            let count = 0;
            while (roots.length) {
              const root = roots.shift();
              count += root.querySelectorAll(arguments[0]).length;
              for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
            }
            return count;
        "#;
        let counted = || async {
            self.client
                .execute(script, vec![Value::from(css)])
                .await
                .ok()
                .and_then(|n| n.as_u64())
                .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX))
        };
        self.to_page().await;
        let in_page = counted().await;
        if in_page > 0 {
            return in_page;
        }
        match self.query(CHECKOUT_FRAME).await {
            Some(frame) if frame.enter_frame().await.is_ok() => counted().await,
            _ => 0,
        }
    }

    /// Back to the top-level document (the card form's frame is one level down, the bank's
    /// page two), also from a frame that is gone.
    pub async fn to_page(&self) {
        if !top_frame::to_top(&self.client).await {
            let _ = self.client.enter_parent_frame().await;
        }
    }

    /// Whether the current document is a frame that holds the focus. WebKitWebDriver moves
    /// the keyboard focus to the document it switches to, so a scenario pressing keys in the
    /// card form's frame must stay there rather than look from the page.
    async fn in_focused_frame(&self) -> bool {
        let script = "return window !== window.top && document.hasFocus();";
        let answer = self.client.execute(script, vec![]).await;
        answer.ok().and_then(|v| v.as_bool()).unwrap_or(false)
    }

    /// The element matching `css` in the current document or its shadow roots.
    pub(super) async fn query(&self, css: &str) -> Option<Element> {
        let found = self
            .client
            .execute(
                &[DEEP_FIND, "return deepFind(arguments[0]);"].concat(),
                vec![Value::from(css)],
            )
            .await
            .ok()?;
        let id = found.get(ELEMENT_KEY)?.as_str()?.to_owned();
        Some(Element::from_element_id(
            self.client.clone(),
            ElementRef::from(id),
        ))
    }

    /// Makes the document holding the focus the context: the card form's frame when the
    /// focus is in it.
    pub(super) async fn to_focus(&self) {
        if self.in_focused_frame().await {
            return;
        }
        self.to_page().await;
        let script = [
            DEEP_ACTIVE,
            "return el && el.localName === 'iframe' ? el : null;",
        ]
        .concat();
        let Ok(found) = self.client.execute(&script, vec![]).await else {
            return;
        };
        if let Some(id) = found.get(ELEMENT_KEY).and_then(Value::as_str) {
            let frame =
                Element::from_element_id(self.client.clone(), ElementRef::from(id.to_owned()));
            let _ = frame.enter_frame().await;
        }
    }

    /// Waits for an element matching `css`.
    pub async fn find(&self, css: &str) -> Element {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(element) = self.try_find(css).await {
                return element;
            }
            if Instant::now() >= deadline {
                self.fail(&format!("no element matches `{css}` after {WAIT:?}"))
                    .await;
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits for an element matching `css` that is displayed and enabled.
    pub async fn find_ready(&self, css: &str) -> Element {
        self.until(&format!("`{css}` displayed and enabled"), || async {
            let element = self.try_find(css).await?;
            let ready = element.is_displayed().await.ok()? && element.is_enabled().await.ok()?;
            ready.then_some(element)
        })
        .await
    }
}
