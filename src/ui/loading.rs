//! The loading state: a grey outline of what is coming (the card form, or a list of
//! subscriptions) at its size, so nothing moves when the real view replaces it, with
//! "Loading…" for screen readers (`role="status"`) and the outline hidden from them.

use super::context::Ctx;
use super::dom::{El, el};
use crate::i18n::Msg;

/// What the outline stands for.
#[derive(Clone, Copy)]
pub enum Outline {
    /// The card form: header, name, number, expiry and security code, pay button.
    CardForm,
    /// Subscriptions: two rows (only the subscription bundle shows them).
    #[cfg(feature = "subscriptions")]
    List,
}

/// `#cc-loading`: the outline of `what`, busy.
pub fn loading(c: Ctx, what: Outline) -> El {
    let bones = match what {
        Outline::CardForm => card_form(),
        #[cfg(feature = "subscriptions")]
        Outline::List => vec![bone("cc-bone-row"), bone("cc-bone-row")],
    };
    el("div")
        .id("cc-loading")
        .class("cc-loading")
        .attr("aria-busy", "true")
        .child(
            el("p")
                .class("cc-sr-only")
                .attr("role", "status")
                .text(c.t(Msg::Loading)),
        )
        .child(
            el("div")
                .class("cc-bones")
                .attr("aria-hidden", "true")
                .children(bones),
        )
}

fn bone(kind: &str) -> El {
    el("span").class(&["cc-bone ", kind].concat())
}

/// A label over an input, as `.cc-field` lays them out.
fn field() -> El {
    el("span")
        .class("cc-field")
        .child(bone("cc-bone-label"))
        .child(bone("cc-bone-input"))
}

fn card_form() -> Vec<El> {
    vec![
        el("span")
            .class("cc-header")
            .child(bone("cc-bone-line"))
            .child(bone("cc-bone-line"))
            .child(bone("cc-bone-amount")),
        field(),
        field(),
        el("span").class("cc-row").child(field()).child(field()),
        bone("cc-bone-button"),
    ]
}
