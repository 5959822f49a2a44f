//! The loading state as plain HTML inside the frame document, for what the document cannot
//! send as a typeable form (a subscription's plan terms, the customer's subscription list):
//! the same outline the component shows while it loads (src/ui/loading.rs), with its classes,
//! so the frame is not blank while the wasm is on its way and nothing moves when the
//! component replaces it (www/frame.js swaps them as it swaps the HTML form).

use checkout::i18n::{Locale, Msg};

use super::skeleton::{escape, root};

/// What the outline stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outline {
    /// The card form.
    CardForm,
    /// The subscription list (mode `subscriptions`).
    List,
}

/// `#cc-skeleton` holding the outline of `what` in `locale`, theme declarations on its root.
pub fn outline(what: Outline, locale: Locale, theme: &str) -> String {
    let (mode, bones) = match what {
        Outline::CardForm => {
            let field = "<span class=\"cc-field\"><span class=\"cc-bone cc-bone-label\"></span>\
                         <span class=\"cc-bone cc-bone-input\"></span></span>";
            let bones = format!(
                "<span class=\"cc-header\"><span class=\"cc-bone cc-bone-line\"></span>\
                 <span class=\"cc-bone cc-bone-line\"></span>\
                 <span class=\"cc-bone cc-bone-amount\"></span></span>{field}{field}\
                 <span class=\"cc-row\">{field}{field}</span>\
                 <span class=\"cc-bone cc-bone-button\"></span>"
            );
            ("checkout", bones)
        }
        Outline::List => (
            "subscriptions",
            "<span class=\"cc-bone cc-bone-row\"></span>".repeat(2),
        ),
    };
    format!(
        "{root}<div id=\"cc-loading\" class=\"cc-loading\" aria-busy=\"true\">\
         <p class=\"cc-sr-only\" role=\"status\">{loading}</p>\
         <div class=\"cc-bones\" aria-hidden=\"true\">{bones}</div></div></div>",
        root = root(mode, locale, theme),
        loading = escape(locale.text(Msg::Loading)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_outline_is_busy_and_says_so_in_the_shoppers_language() {
        let html = outline(Outline::CardForm, Locale::De, "color-scheme:dark;");
        assert!(html.contains("aria-busy=\"true\""), "{html}");
        assert!(html.contains("role=\"status\">Wird geladen…</p>"), "{html}");
        assert!(html.contains("style=\"color-scheme:dark;\""), "{html}");
        assert_eq!(html.matches("cc-bone-input").count(), 4, "{html}");
        let list = outline(Outline::List, Locale::Ar, "");
        assert!(list.contains("dir=\"rtl\""), "{list}");
        assert_eq!(list.matches("cc-bone-row").count(), 2, "{list}");
    }
}
