//! `GET /risk`: the card-testing defence as it stands: whether an alert is open, each rule
//! with its threshold (the configuration file's, or one an admin set here), the one that
//! applies while an alert is open, and its window, and the latest alerts. Admins change a
//! threshold in place ([`crate::dashboard::risk_rules`]).

use axum::extract::State;
use axum::response::Html;
use maud::{Markup, html};

use super::card_testing::{alert_notice, cause_meaning};
use super::format;
use super::layout::{csrf_field, page};
use crate::config::RiskSettings;
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::state::DashboardState;
use crate::risk::Rule;
use crate::risk::overrides::MAX_THRESHOLD;
use crate::store::card_testing::CardTestingAlert;
use crate::store::prelude::{RiskOverride, StaffRole};

/// The most alerts the page lists.
const ALERT_ROWS: u32 = 20;

/// `GET /risk`.
pub async fn show(
    State(state): State<DashboardState>,
    staff: Staff,
) -> Result<Html<String>, DashboardError> {
    let store = &state.app.store;
    let (alerts, overrides) = tokio::try_join!(
        store.card_testing_alerts(ALERT_ROWS),
        state.app.payments.risk().refresh_overrides(),
    )?;
    let open = alerts.iter().find(|alert| alert.ended_at.is_none());
    let risk = state.app.payments.risk();
    let settings = risk.settings();
    let rules = Rules {
        settings: &settings,
        tightened: &risk.tightened_settings(),
        configured: risk.configured(),
        overrides: &overrides,
        admin: staff.can(StaffRole::Admin).then_some(&staff),
    };
    Ok(page(
        "Card testing",
        Some(&staff),
        html! {
            (alert_notice(open))
            @if open.is_none() {
                p { "No card-testing alert is open: the configured limits apply." }
            }
            (rules.section())
            (trigger_section(&settings))
            (alerts_section(&alerts))
        },
    ))
}

/// A velocity rule's threshold under `settings`.
pub(crate) fn threshold(rule: Rule, settings: &RiskSettings) -> u32 {
    rule.limit(settings).map_or(0, |(max, _)| max)
}

fn window(rule: Rule, settings: &RiskSettings) -> String {
    match rule.limit(settings).and_then(|(_, window)| window) {
        None => "the checkout session".to_owned(),
        Some(span) if span.as_secs() % 86_400 == 0 => plural(span.as_secs() / 86_400, "day"),
        Some(span) if span.as_secs() % 3_600 == 0 => plural(span.as_secs() / 3_600, "hour"),
        Some(span) => plural(span.as_secs() / 60, "minute"),
    }
}

fn plural(n: u64, unit: &str) -> String {
    if n == 1 {
        format!("1 {unit}")
    } else {
        format!("{n} {unit}s")
    }
}

/// What the rules table shows, and to whom.
struct Rules<'a> {
    settings: &'a RiskSettings,
    tightened: &'a RiskSettings,
    configured: &'a RiskSettings,
    overrides: &'a [RiskOverride],
    /// The staff member, when an admin (who may change thresholds).
    admin: Option<&'a Staff>,
}

impl Rules<'_> {
    fn section(&self) -> Markup {
        html! {
            section aria-labelledby="rules" {
                h2 id="rules" { "Rules" }
                p {
                    "Each try is judged before the gateway is called. A card rule blocks the card that goes above its threshold; a decline rule blocks every try once its count reaches the threshold. "
                    "A blocked try is recorded as a payment in the state blocked, with its rule, and the shopper sees one neutral refusal (\"This card can't be used for this payment right now…\"), never the rule. "
                    "Before these, every try is checked against the " a href="/risk/blocks" { "block lists" } "."
                }
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Card-testing rules, in the order they are judged" }
                        thead { tr {
                            th scope="col" { "Rule" }
                            th scope="col" { "What it counts" }
                            th scope="col" class="num" { "Threshold" }
                            th scope="col" { "Set by" }
                            th scope="col" class="num" { "During an alert" }
                            th scope="col" { "Window" }
                        } }
                        tbody {
                            @for rule in Rule::velocity() {
                                tr id=(rule.name()) {
                                    th scope="row" { code { (rule.name()) } }
                                    td class="prose" { (rule.meaning()) }
                                    td class="num" { (threshold(rule, self.settings)) }
                                    td { (self.source(rule)) }
                                    td class="num" { (threshold(rule, self.tightened)) }
                                    td { (window(rule, self.settings)) }
                                }
                            }
                        }
                    }
                }
                @if let Some(admin) = self.admin {
                    (self.forms(admin))
                }
            }
        }
    }

    /// Where the rule's threshold comes from.
    fn source(&self, rule: Rule) -> Markup {
        match self.overrides.iter().find(|item| item.rule == rule.name()) {
            Some(item) => html! {
                (item.set_by) ", " (format::when(item.set_at))
                " (file: " (threshold(rule, self.configured)) ")"
            },
            None => html! { "configuration file" },
        }
    }

    /// An admin's forms: one per rule, a threshold and a reset when one was set here.
    fn forms(&self, admin: &Staff) -> Markup {
        html! {
            h3 { "Change a threshold" }
            p { "A threshold set here wins over the configuration file's until it is reset; every instance applies it within a reconciler pass. Each change is written to the audit log." }
            @for rule in Rule::velocity() {
                @let field = format!("threshold-{}", rule.name());
                div {
                    form method="post" action={ "/risk/rules/" (rule.name()) } class="inline" {
                        (csrf_field(admin))
                        label for=(field) { (rule.name()) }
                        " "
                        input type="number" id=(field) name="threshold" min="1" max=(MAX_THRESHOLD)
                            required value=(threshold(rule, self.settings));
                        " "
                        button type="submit" name="action" value="set" { "Save" }
                        @if self.overrides.iter().any(|item| item.rule == rule.name()) {
                            " "
                            button type="submit" name="action" value="reset" formnovalidate {
                                "Use the file's " (threshold(rule, self.configured))
                            }
                        }
                    }
                }
            }
        }
    }
}

fn trigger_section(settings: &RiskSettings) -> Markup {
    let alert = &settings.alert;
    html! {
        section aria-labelledby="trigger" {
            h2 id="trigger" { "When the limits tighten" }
            p {
                "An alert is raised when, over the last " (plural(alert.window.as_secs() / 60, "minute"))
                ", at least " (alert.min_tries) " tries were made and " (alert.blocked_percent)
                " % of them were blocked, " (alert.declined_percent) " % declined, or "
                (alert.switched_percent) " % made with another card than their checkout's earlier try"
                @if alert.surge_times > 0 {
                    "; or when " (plural(alert.surge_window.as_secs(), "second")) " bring at least "
                    (alert.min_tries) " tries and " (alert.surge_times)
                    " times the pace of the busiest quarter hour of the day before"
                }
                ". "
                "It ends once that has not held for " (plural(alert.hold.as_secs() / 60, "minute"))
                ". Raising and ending send card_testing.suspected and card_testing.ended to the shop's webhook endpoints."
            }
        }
    }
}

fn alerts_section(alerts: &[CardTestingAlert]) -> Markup {
    html! {
        section aria-labelledby="alerts" {
            h2 id="alerts" { "Latest alerts" }
            @if alerts.is_empty() {
                p { "No card-testing alert so far." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Card-testing alerts, newest first" }
                        thead { tr {
                            th scope="col" { "Alert" }
                            th scope="col" { "Raised" }
                            th scope="col" { "Ended" }
                            th scope="col" { "Raised by" }
                            th scope="col" class="num" { "Tries" }
                            th scope="col" class="num" { "Blocked" }
                            th scope="col" class="num" { "Declined" }
                        } }
                        tbody {
                            @for alert in alerts {
                                tr id=(alert.id) {
                                    th scope="row" { code { (alert.id) } }
                                    td { (format::when(alert.started_at)) }
                                    td { @if let Some(ended) = alert.ended_at { (format::when(ended)) } @else { "open" } }
                                    td { (cause_meaning(alert.cause)) }
                                    td class="num" { (alert.tally.tries) }
                                    td class="num" { (alert.tally.blocked) }
                                    td class="num" { (alert.tally.declined) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
