//! The overview's card-testing parts: the warning while an alert is open, and the tries the
//! card-testing rules blocked in the range, by rule.

use maud::{Markup, html};

use super::format;
use crate::risk::Rule;
use crate::store::card_testing::{AlertCause, CardTestingAlert, RuleCount};

/// A warning while `alert` is open; nothing otherwise.
pub fn alert_notice(alert: Option<&CardTestingAlert>) -> Markup {
    html! {
        @if let Some(alert) = alert {
            p role="alert" class="warning" {
                strong { "Card testing suspected since " (format::when(alert.started_at)) "." }
                " Raised by " (cause_meaning(alert.cause)) "."
                " Of " (alert.tally.tries) " tries in the " (alert.window.as_secs() / 60)
                " minutes before, " (alert.tally.blocked) " were blocked, "
                (alert.tally.declined) " declined and " (alert.tally.switched)
                " made with another card than their checkout's earlier try. Tighter card-testing limits apply until it ends. "
                a href="/risk" { "Card-testing rules" }
            }
        }
    }
}

/// What raised an alert, as a phrase.
pub fn cause_meaning(cause: Option<AlertCause>) -> &'static str {
    match cause {
        Some(AlertCause::Blocked) => "the share of tries blocked",
        Some(AlertCause::Declined) => "the share of tries declined",
        Some(AlertCause::Switched) => "the share of tries that changed card",
        Some(AlertCause::Surge) => "a surge of tries past the day's busiest pace",
        None => "a trigger this alert did not record",
    }
}

/// The rule's meaning, or its stored name when this build does not know it.
pub fn rule_meaning(name: &str) -> String {
    Rule::from_name(name).map_or_else(|| name.replace('_', " "), |rule| rule.meaning().to_owned())
}

/// The range's blocked tries by rule, most first.
pub fn blocked_section(rows: &[RuleCount]) -> Markup {
    let total: u64 = rows.iter().map(|row| row.tries).sum();
    html! {
        section aria-labelledby="blocked" {
            h2 id="blocked" { "Tries blocked by the card-testing rules" }
            @if rows.is_empty() {
                p { "No try was blocked in this range. " a href="/risk" { "Card-testing rules" } }
            } @else {
                p {
                    (total) (if total == 1 { " try was" } else { " tries were" })
                    " refused before the gateway was called (no fee; the shopper saw one neutral refusal, never the rule). "
                    a href="/payments?state=blocked" { "Blocked payments" }
                }
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Blocked tries by rule, most first" }
                        thead { tr {
                            th scope="col" { "Rule" }
                            th scope="col" { "What it counts" }
                            th scope="col" class="num" { "Tries" }
                        } }
                        tbody {
                            @for row in rows {
                                tr {
                                    th scope="row" { code { (row.rule) } }
                                    td class="prose" { (rule_meaning(&row.rule)) }
                                    td class="num" { (row.tries) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
