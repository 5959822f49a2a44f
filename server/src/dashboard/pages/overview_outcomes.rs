//! The overview's sections on how payments ended: 3-D Secure outcomes, and the top decline
//! reasons as a chart with its table, each with its share.

use maud::{Markup, html};

use crate::dashboard::error::DashboardError;
use crate::dashboard::overview::charts::{self, Alt};
use crate::dashboard::overview::figures::Figures;
use crate::dashboard::overview::reasons;

pub(super) fn three_ds_section(figures: &Figures) -> Markup {
    let t = figures.three_ds;
    let rows = [
        ("Authenticated and approved", t.passed),
        ("Failed authentication", t.failed_authentication),
        ("Authenticated, then declined or refused", t.declined),
        (
            "Abandoned (no outcome: pending, in review, or left at the bank)",
            t.abandoned,
        ),
    ];
    html! {
        section aria-labelledby="three-ds" {
            h2 id="three-ds" { "3-D Secure" }
            p { (t.payments) " payments with a card typed into the form went through 3-D Secure. "
                "The gateway does not tell whether the issuer challenged the cardholder or let them "
                "through without a challenge, so a failed authentication is the only sure sign of a "
                "challenge: the shares below are of all 3-D Secure payments." }
            div class="table-wrap" {
                table {
                    caption class="skip" { "3-D Secure outcomes" }
                    thead { tr {
                        th scope="col" { "Outcome" }
                        th scope="col" class="num" { "Payments" }
                        th scope="col" class="num" { "Share" }
                    } }
                    tbody {
                        @for (label, n) in rows {
                            tr {
                                th scope="row" { (label) }
                                td class="num" { (n) }
                                td class="num" { (share(n, t.payments)) }
                            }
                        }
                    }
                }
            }
        }
    }
}

pub(super) fn declines_section(figures: &Figures) -> Result<Markup, DashboardError> {
    let total: u64 = figures.declines.iter().map(|(_, n)| n).sum();
    let labelled: Vec<(String, u64)> = figures
        .declines
        .iter()
        .map(|(code, n)| (reasons::describe(*code).0.to_owned(), *n))
        .collect();
    let chart = if labelled.is_empty() {
        html! { p { "No declined payment in this range." } }
    } else {
        let desc = labelled
            .iter()
            .map(|(label, n)| format!("{label} {n}"))
            .collect::<Vec<_>>()
            .join(", ");
        charts::declines(
            &labelled,
            &Alt {
                id: "chart-declines",
                title: "Declines by reason",
                desc: format!("Declines by reason: {desc}."),
            },
        )?
    };
    Ok(html! {
        section aria-labelledby="declines" {
            h2 id="declines" { "Top decline reasons" }
            (chart)
            @if !figures.declines.is_empty() {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Declines by reason, most first" }
                        thead { tr {
                            th scope="col" { "Reason" }
                            th scope="col" { "Gateway code" }
                            th scope="col" { "Meaning" }
                            th scope="col" class="num" { "Payments" }
                            th scope="col" class="num" { "Share of declines" }
                        } }
                        tbody {
                            @for (code, n) in &figures.declines {
                                @let (label, codes, meaning) = reasons::describe(*code);
                                tr {
                                    th scope="row" { (label) }
                                    td { (codes) }
                                    td class="prose" { (meaning) }
                                    td class="num" { (n) }
                                    td class="num" { (share(*n, total)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

/// `part` of `whole` as a percentage with one decimal; a dash when there is no whole.
fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        "—".to_owned()
    } else {
        format!("{:.1} %", part as f64 * 100.0 / whole as f64)
    }
}
