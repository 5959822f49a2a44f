//! A subscription plan's terms as short lines (price per interval, trial, discount, number of
//! payments), shown before paying and in the management view.

use super::context::Ctx;
use super::dom::{El, el};
use crate::contract::{CycleUnit, PlanTerms};
use crate::i18n::{Locale, Msg, count_text, counted, fill, money, number_text};

/// A labelled line: its `data-testid` and its text.
pub type Line = (&'static str, String);

/// "every month", "every 3 weeks", ... in `locale`.
pub fn interval_text(locale: Locale, unit: CycleUnit, interval: u32) -> String {
    let msg = match unit {
        CycleUnit::Days => Msg::EveryDays,
        CycleUnit::Weeks => Msg::EveryWeeks,
        CycleUnit::Months => Msg::EveryMonths,
    };
    counted(locale, msg, u64::from(interval.max(1)))
}

/// "€9.99 every month" for `plan`.
pub fn price_line(locale: Locale, plan: &PlanTerms) -> String {
    fill(
        locale.text(Msg::PriceEvery),
        &[
            &money(locale, plan.amount, &plan.currency),
            &interval_text(locale, plan.cycle_unit, plan.cycle_interval),
        ],
    )
}

/// Trial, discount and total number of payments of `plan`, each when it applies.
pub fn terms_lines(locale: Locale, plan: &PlanTerms) -> Vec<Line> {
    let mut lines = vec![("plan-price", price_line(locale, plan))];
    if let Some(days) = plan.trial_days.filter(|d| *d > 0) {
        lines.push((
            "plan-trial",
            counted(locale, Msg::TrialDays, u64::from(days)),
        ));
    }
    if let Some(discount) = plan.discount {
        let percent = number_text(u64::from(discount.percentage));
        let cycles = u64::from(discount.cycles.max(1));
        let text = fill(
            count_text(locale, Msg::DiscountFirstN, cycles),
            &[&percent, &number_text(cycles)],
        );
        lines.push(("plan-discount", text));
    }
    let cycles = if plan.max_cycles == 0 {
        locale.text(Msg::UntilCancelled).to_owned()
    } else {
        counted(locale, Msg::CyclesTotal, u64::from(plan.max_cycles))
    };
    lines.push(("plan-cycles", cycles));
    lines
}

/// A `<ul>` of lines, each `<li data-testid=...>`.
pub fn line_list(lines: Vec<Line>) -> El {
    el("ul").class("cc-terms").children(
        lines
            .into_iter()
            .map(|(testid, text)| el("li").attr("data-testid", testid).text(&text))
            .collect(),
    )
}

/// The plan box above a subscription's pay button; `due_now` is the session amount.
pub fn plan_terms(c: Ctx, plan: &PlanTerms, due_now: u64, currency: &str) -> El {
    let mut lines = terms_lines(c.loc, plan);
    lines.push((
        "plan-due",
        fill(c.t(Msg::DueToday), &[&money(c.loc, due_now, currency)]),
    ));
    el("section")
        .id("cc-plan")
        .class("cc-plan")
        .child(el("h2").id("cc-plan-name").text(&plan.name))
        .child(el("p").class("cc-muted").text(&plan.description))
        .child(line_list(lines))
}
