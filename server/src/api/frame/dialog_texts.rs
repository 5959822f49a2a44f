//! The texts of the 3-D Secure dialog the loader opens on the shop's page, in the shopper's
//! language, written into the frame's options (`#checkout-config`, as its title is): the card
//! frame hands them to the loader with the bank's address, so neither the loader nor the
//! component's wasm carries a translation of its own.

use checkout::i18n::{Locale, Msg};
use serde::Serialize;

/// The dialog's title, close button, bank frame title and fallback link, with their language.
#[derive(Debug, Clone, Copy, Serialize)]
pub(super) struct DialogTexts {
    lang: &'static str,
    dir: &'static str,
    title: &'static str,
    close: &'static str,
    frame_title: &'static str,
    open_instead: &'static str,
}

impl DialogTexts {
    /// The texts in `locale`.
    pub(super) fn of(locale: Locale) -> Self {
        Self {
            lang: locale.tag(),
            dir: locale.dir(),
            title: locale.text(Msg::ThreeDsTitle),
            close: locale.text(Msg::ThreeDsClose),
            frame_title: locale.text(Msg::ThreeDsFrameTitle),
            open_instead: locale.text(Msg::ThreeDsOpenInstead),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dialog_speaks_the_shoppers_language() {
        let hebrew = serde_json::to_value(DialogTexts::of(Locale::He)).expect("json");
        assert_eq!(hebrew["lang"], "he");
        assert_eq!(hebrew["dir"], "rtl");
        assert_eq!(hebrew["title"], "אשרו את התשלום מול הבנק שלכם");
        let english = serde_json::to_value(DialogTexts::of(Locale::En)).expect("json");
        assert_eq!(english["open_instead"], "Open your bank's page instead");
        assert_eq!(english["dir"], "ltr");
    }
}
