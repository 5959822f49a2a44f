//! Mode `result` (the page 3-D Secure returns to) as a page of checkout-server's own, with no
//! wasm: the panel is HTML written here in the shopper's language, with the wording the
//! component uses after paying (`checkout::outcome`), and `www/result.js`, inline, asks
//! [`super::result`] where the payment stands, swaps the panel and tells the shop (`ready`,
//! then `success` or `error`). The card form's bundle carries no result page.
//!
//! The document takes its styles from the card form's built page (the component's
//! stylesheet and the frame's, which `scripts/wasm-opt.sh` inlined), so the panel looks the
//! same; the options go in as for any frame document ([`super::page::with_config`]).

use checkout::contract::PaymentResult;
use checkout::currency::{exponent_or_two, major_text};
use checkout::i18n::{Locale, Msg, fill};
use checkout::outcome::{Detail, verdict};

use super::skeleton::escape;

/// The page's script, inline (the frame's CSP allows it by its hash).
pub const RESULT_JS: &str = include_str!("../../../../www/result.js");

/// The result page in `locale`, titled `title`, styled as `template` (the card form's built
/// page) is, the theme's declarations (`theme`) on its root: the pending panel until the
/// script has the first answer.
pub fn document(template: &str, locale: Locale, title: &str, theme: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\" />\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n\
         <title>{title}</title>\n{styles}\n</head>\n<body>\n<main id=\"checkout\">{panel}</main>\n\
         <script>{RESULT_JS}</script>\n</body>\n</html>\n",
        lang = locale.tag(),
        title = escape(title),
        styles = styles(template),
        panel = panel(locale, theme),
    )
}

/// The component's root with the result region, pending, and (for when no answer comes) the
/// panel that says the outcome is unknown.
fn panel(locale: Locale, theme: &str) -> String {
    format!(
        "<div class=\"cc-root\" data-mode=\"result\" lang=\"{lang}\" dir=\"{dir}\" \
         style=\"{theme}\"><section id=\"cc-result\" class=\"cc-result\" role=\"status\" \
         aria-live=\"polite\">{pending}</section><template id=\"cc-result-unknown\">{unknown}\
         </template></div>",
        lang = locale.tag(),
        dir = locale.dir(),
        theme = escape(theme),
        pending = outcome(locale, None, true),
        unknown = outcome(locale, None, false),
    )
}

/// The panel for `result` (none: not known), as the component's result view draws it: while
/// `polling`, or after the polls stopped (then a "check again" button unless it is settled).
pub fn outcome(locale: Locale, result: Option<&PaymentResult>, polling: bool) -> String {
    let said = verdict(result, polling);
    let detail = match (said.detail, result) {
        (Detail::Text(msg), _) => escape(locale.text(msg)),
        (Detail::Paid, Some(result)) => {
            let exponent = exponent_or_two(&result.currency);
            // Formatted by www/result.js with the browser's Intl, as the component does.
            let amount = format!(
                "<span class=\"cc-money\" data-value=\"{major}\" data-exponent=\"{exponent}\" \
                 data-currency=\"{currency}\">{major} {currency}</span>",
                major = major_text(result.amount, exponent),
                currency = escape(&result.currency),
            );
            fill(&escape(locale.text(Msg::ResultPaidDetail)), &[&amount])
        }
        _ => String::new(),
    };
    let settled = result.is_some_and(|r| r.state.is_settled());
    let retry = if polling || settled {
        String::new()
    } else {
        format!(
            "<button id=\"cc-check-again\" class=\"cc-button\" type=\"button\">{}</button>",
            escape(locale.text(Msg::CheckAgain))
        )
    };
    format!(
        "<div class=\"cc-outcome\" data-state=\"{state}\"><h2 id=\"cc-result-title\">{heading}\
         </h2><p id=\"cc-result-detail\">{detail}</p>{retry}</div>",
        state = said.state,
        heading = escape(locale.text(said.heading)),
    )
}

/// The `<style>` blocks and stylesheet links of `template`'s head, as written.
fn styles(template: &str) -> String {
    let head = template
        .find("</head>")
        .map_or(template, |end| &template[..end]);
    let mut found = String::new();
    let mut rest = head;
    while let Some(start) = rest.find('<') {
        rest = &rest[start..];
        let end = if rest.starts_with("<style") {
            rest.find("</style>").map(|end| end + "</style>".len())
        } else if rest.starts_with("<link")
            && rest[..rest.find('>').unwrap_or(0)].contains("stylesheet")
        {
            rest.find('>').map(|end| end + 1)
        } else {
            None
        };
        match end {
            Some(end) => {
                found.push_str(&rest[..end]);
                found.push('\n');
                rest = &rest[end..];
            }
            None => rest = &rest[1..],
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkout::contract::{DeclineCode, PaymentState};

    fn result(state: PaymentState) -> PaymentResult {
        PaymentResult {
            payment_id: "pay_1".into(),
            state,
            amount: 2500,
            currency: "EUR".into(),
            decline: Some(DeclineCode::AuthenticationFailed),
            subscription_id: None,
        }
    }

    #[test]
    fn the_page_carries_the_styles_and_no_wasm() {
        let template = "<html><head><script type=\"module\">import init from '/frame/c.js';\
                        </script><link rel=\"modulepreload\" href=\"/frame/c.js\">\
                        <style id=\"checkout-css\">.cc-root{color:red}</style>\
                        <link rel=\"stylesheet\" href=\"/frame/frame.css\"></head><body></body></html>";
        let page = document(template, Locale::De, "Kartenzahlung", "--cc-accent:#0a7;");
        assert!(page.contains("<style id=\"checkout-css\">.cc-root{color:red}</style>"));
        assert!(page.contains("<link rel=\"stylesheet\" href=\"/frame/frame.css\">"));
        assert!(
            !page.contains("import init") && !page.contains("modulepreload"),
            "{page}"
        );
        assert!(page.contains("<html lang=\"de\">") && page.contains("Kartenzahlung"));
        assert!(page.contains("style=\"--cc-accent:#0a7;\""), "{page}");
        assert!(
            page.contains("role=\"status\" aria-live=\"polite\""),
            "{page}"
        );
        assert!(page.contains("data-state=\"pending\""), "{page}");
        assert!(
            page.contains("<template id=\"cc-result-unknown\">"),
            "{page}"
        );
    }

    #[test]
    fn each_outcome_is_worded_as_the_component_words_it() {
        let paid = outcome(Locale::En, Some(&result(PaymentState::Captured)), true);
        assert!(paid.contains("data-state=\"paid\""), "{paid}");
        assert!(paid.contains(">Payment successful</h2>"), "{paid}");
        assert!(
            paid.contains("Your payment of <span class=\"cc-money\" data-value=\"25.00\""),
            "{paid}"
        );
        let declined = outcome(Locale::En, Some(&result(PaymentState::Declined)), false);
        assert!(
            declined.contains("Your card could not be verified."),
            "{declined}"
        );
        assert!(!declined.contains("cc-check-again"), "settled: {declined}");
        let pending = outcome(Locale::Ar, Some(&result(PaymentState::Pending)), false);
        assert!(pending.contains("id=\"cc-check-again\""), "{pending}");
        let asking = outcome(Locale::En, Some(&result(PaymentState::Pending)), true);
        assert!(!asking.contains("cc-check-again"), "{asking}");
    }
}
