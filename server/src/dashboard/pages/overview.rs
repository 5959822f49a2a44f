//! `GET /`: the overview, the dashboard's home. For the chosen range in the merchant's time
//! zone: volume per currency, the approval rate (beside the previous period's of equal
//! length) and its daily trend, 3-D Secure outcomes, top decline reasons, the review queue's
//! size (a warning when anything waits), subscriptions, and three charts, each with its
//! numbers as a table beside it.

use axum::extract::{Query, State};
use axum::response::Html;
use jiff::Timestamp;
use jiff::civil::Date;
use maud::{Markup, html};
use time::OffsetDateTime;

use super::card_testing;
use super::layout::page;
use super::overview_outcomes::{declines_section, three_ds_section};
use crate::dashboard::auth::Staff;
use crate::dashboard::error::DashboardError;
use crate::dashboard::money;
use crate::dashboard::overview::charts::{self, Alt};
use crate::dashboard::overview::figures::{Figures, Rate, figures};
use crate::dashboard::overview::range::{Range, RangeForm, epoch_day};
use crate::dashboard::overview::{recurring, trend};
use crate::dashboard::state::DashboardState;
use crate::store::analytics::SubscriptionStanding;

/// `GET /`.
pub async fn show(
    State(state): State<DashboardState>,
    staff: Staff,
    Query(form): Query<RangeForm>,
) -> Result<Html<String>, DashboardError> {
    let range = form.resolve(Timestamp::now(), &state.app.config.dashboard.time_zone)?;
    let (from, before) = range.bounds()?;
    let previous_span = range.previous()?.local_span()?;
    let pending_before =
        OffsetDateTime::now_utc() - state.app.config.dashboard.review_pending_after;
    let store = &state.app.store;
    // Independent reads, on connections of their own: the page waits for the longest only.
    let (figures, previous, subscriptions, waiting, alert, blocked) = tokio::try_join!(
        read_figures(&state, &range),
        async {
            Ok::<_, DashboardError>(trend::rate_of(&store.state_counts(&previous_span).await?))
        },
        async { Ok::<_, DashboardError>(store.subscription_standing(from, before).await?) },
        async { Ok::<_, DashboardError>(store.review_queue_size(pending_before).await?) },
        async { Ok::<_, DashboardError>(store.open_card_testing_alert().await?) },
        async { Ok::<_, DashboardError>(store.blocked_by_rule(from, before).await?) },
    )?;
    let days = range.days();
    let labels: Vec<String> = days.iter().map(|d| short_day(*d, days.len())).collect();
    Ok(page(
        "Overview",
        Some(&staff),
        html! {
            (range_form(&range))
            (card_testing::alert_notice(alert.as_ref()))
            (review_notice(waiting))
            (volume_section(&figures, &labels)?)
            (approval_section(&figures, previous, &range, &labels)?)
            (three_ds_section(&figures))
            (declines_section(&figures)?)
            (card_testing::blocked_section(&blocked))
            (subscriptions_section(&state, &subscriptions))
        },
    ))
}

/// The store's outcomes of the range, by local day.
async fn read_figures(state: &DashboardState, range: &Range) -> Result<Figures, DashboardError> {
    let rows = state.app.store.day_outcomes(&range.local_span()?).await?;
    let numbers: Vec<i64> = range.days().iter().map(|d| epoch_day(*d)).collect();
    Ok(figures(&numbers, &rows))
}

fn short_day(day: Date, count: usize) -> String {
    if count > 1 {
        format!("{:02}-{:02}", day.month(), day.day())
    } else {
        day.to_string()
    }
}

fn percent(rate: Rate) -> String {
    rate.ratio()
        .map_or_else(|| "—".to_owned(), |r| format!("{:.1} %", r * 100.0))
}

fn range_form(range: &Range) -> Markup {
    let custom = range.kind == "custom";
    html! {
        form method="get" action="/" {
            fieldset {
                legend { "Range" }
                div class="filters" {
                    div {
                        label for="range" { "Range" }
                        select id="range" name="range" {
                            @for (value, text) in [("today", "Today"), ("7d", "Last 7 days"), ("30d", "Last 30 days"), ("custom", "Custom (from, to)")] {
                                option value=(value) selected[range.kind == value] { (text) }
                            }
                        }
                    }
                    div {
                        label for="from" { "From (custom)" }
                        input id="from" name="from" type="date" value=[custom.then(|| range.first.to_string())];
                    }
                    div {
                        label for="to" { "To (custom)" }
                        input id="to" name="to" type="date" value=[custom.then(|| range.last.to_string())];
                    }
                    div {
                        label for="tz" { "Time zone" }
                        input id="tz" name="tz" type="text" value=(range.tz_name) placeholder="Europe/Berlin";
                    }
                }
                p { button type="submit" { "Show" } }
            }
        }
        p { "From " strong { (range.first) } " to " strong { (range.last) } ", days in " (range.tz_name) "." }
    }
}

fn review_notice(waiting: u64) -> Markup {
    html! {
        @if waiting > 0 {
            p role="alert" class="warning" {
                strong { (waiting) (if waiting == 1 { " payment is" } else { " payments are" }) " waiting for review." }
                " " a href="/review" { "Open the review queue" }
            }
        } @else {
            p { "Nothing waits for review. " a href="/review" { "Review queue" } }
        }
    }
}

fn volume_section(figures: &Figures, labels: &[String]) -> Result<Markup, DashboardError> {
    let series: Vec<(String, Vec<u64>)> = figures
        .volume
        .keys()
        .map(|code| {
            let values = figures
                .days
                .iter()
                .map(|d| d.gross.get(code).copied().unwrap_or(0))
                .collect();
            (code.clone(), values)
        })
        .collect();
    let desc = series
        .iter()
        .map(|(code, values)| {
            let days: Vec<String> = labels
                .iter()
                .zip(values)
                .map(|(l, v)| format!("{l} {}", money::major_text(*v, code)))
                .collect();
            format!("{code}: {}.", days.join(", "))
        })
        .collect::<Vec<_>>()
        .join(" ");
    let chart = if series.is_empty() {
        html! { p { "No captured payment in this range." } }
    } else {
        let alt = Alt {
            id: "chart-volume",
            title: "Captured volume per day, one panel per currency",
            desc,
        };
        charts::volume(labels, &series, &alt)?
    };
    Ok(html! {
        section aria-labelledby="volume" {
            h2 id="volume" { "Volume" }
            @if figures.volume.is_empty() {
                p { "No approved payment in this range." }
            } @else {
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Volume per currency" }
                        thead { tr {
                            th scope="col" { "Currency" }
                            th scope="col" class="num" { "Approved payments" }
                            th scope="col" class="num" { "Gross (captured)" }
                            th scope="col" class="num" { "Refunds" }
                            th scope="col" class="num" { "Net" }
                            th scope="col" class="num" { "Authorized, not captured" }
                        } }
                        tbody {
                            @for (code, v) in &figures.volume {
                                tr {
                                    th scope="row" { (code) }
                                    td class="num" { (v.payments) }
                                    td class="num" { (money::format(v.gross, code)) }
                                    td class="num" { (money::format(v.refunds, code)) }
                                    td class="num" { (money::format(v.net(), code)) }
                                    td class="num" { (money::format(v.authorized, code)) }
                                }
                            }
                        }
                    }
                }
            }
            h3 { "Captured volume per day" }
            (chart)
            @if !series.is_empty() {
                details {
                    summary { "Volume per day as a table" }
                    div class="table-wrap" {
                        table {
                            caption class="skip" { "Captured volume per day and currency" }
                            thead { tr {
                                th scope="col" { "Day" }
                                @for (code, _) in &series { th scope="col" class="num" { (code) } }
                            } }
                            tbody {
                                @for (i, label) in labels.iter().enumerate() {
                                    tr {
                                        th scope="row" { (label) }
                                        @for (code, values) in &series {
                                            td class="num" { (money::format(values.get(i).copied().unwrap_or(0), code)) }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

fn approval_section(
    figures: &Figures,
    previous: Rate,
    range: &Range,
    labels: &[String],
) -> Result<Markup, DashboardError> {
    let rates: Vec<Option<u64>> = figures.days.iter().map(|d| d.rate.per_mille()).collect();
    let desc = labels
        .iter()
        .zip(&figures.days)
        .map(|(l, d)| {
            format!(
                "{l} {} ({} of {})",
                percent(d.rate),
                d.rate.approved,
                d.rate.attempted
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    let alt = Alt {
        id: "chart-approval",
        title: "Approval rate per day",
        desc: format!("Approval rate per day: {desc}."),
    };
    let chart = charts::approval(labels, &rates, &alt)?;
    Ok(html! {
        section aria-labelledby="approval" {
            h2 id="approval" { "Approval rate" }
            p class="figure" {
                strong { (percent(figures.rate)) }
                " (" (figures.rate.approved) " approved of " (figures.rate.attempted) " attempted); its trend day by day below."
            }
            p id="approval-trend" { (trend::text(figures.rate, previous, range.len_days())) }
            p { (figures.undecided) " payments without an outcome yet (pending or in review) are not counted. Days in " (range.tz_name) "." }
            (chart)
            details {
                summary { "Approval rate per day as a table" }
                div class="table-wrap" {
                    table {
                        caption class="skip" { "Approval rate per day" }
                        thead { tr {
                            th scope="col" { "Day" }
                            th scope="col" class="num" { "Approved" }
                            th scope="col" class="num" { "Attempted" }
                            th scope="col" class="num" { "Rate" }
                        } }
                        tbody {
                            @for (label, day) in labels.iter().zip(&figures.days) {
                                tr {
                                    th scope="row" { (label) }
                                    td class="num" { (day.rate.approved) }
                                    td class="num" { (day.rate.attempted) }
                                    td class="num" { (percent(day.rate)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

fn subscriptions_section(state: &DashboardState, standing: &SubscriptionStanding) -> Markup {
    let (mrr, unknown) = recurring::monthly(&standing.active_plans, &state.app.config.plans);
    html! {
        section aria-labelledby="subscriptions" {
            h2 id="subscriptions" { "Subscriptions" }
            dl class="figures" {
                dt { "Active" } dd { (standing.active) }
                dt { "Paused" } dd { (standing.paused) }
                dt { "Cancelled in this range" } dd { (standing.cancelled) }
                @for (code, minor) in &mrr {
                    dt { "Monthly recurring revenue, " (code) } dd { (money::format(*minor, code)) }
                }
            }
            @if unknown > 0 {
                p { (unknown) " active subscriptions are on plans no longer in the catalogue and are left out of the monthly revenue." }
            }
        }
    }
}
