//! Mode `subscriptions`: a signed-in customer's subscriptions with status, price, next payment
//! and cycles paid; pause, resume and cancel behind an inline confirmation; charge history.

use super::context::Ctx;
use super::dom::{self, El, el};
use super::loading::{Outline, loading};
use super::plan_terms::{Line, line_list, price_line};
use super::ready;
use crate::browser::clock::sleep;
use crate::browser::ids::random_uuid;
use crate::contract::{SubscriptionAction, SubscriptionStatus, SubscriptionView};
use crate::embed::events::{ActionDetail, ErrorDetail};
use crate::embed::options::Mode;
use crate::i18n::{Msg, counted, fill, format_date, money, number_text};
use any_spawner::Executor;
use reactive_graph::owner::{LocalStorage, StoredValue};
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;
use wasm_bindgen::JsCast;

/// The list as loaded.
#[derive(Clone)]
enum List {
    Loading,
    Failed,
    Loaded(Vec<SubscriptionView>),
}

/// The view's state, shared by every row.
#[derive(Clone, Copy)]
struct Manage {
    ctx: Ctx,
    list: RwSignal<List>,
    /// The action awaiting confirmation, on which subscription.
    asking: RwSignal<Option<(String, SubscriptionAction)>>,
    busy: RwSignal<bool>,
    notice: RwSignal<Option<Msg>>,
    root: StoredValue<Option<web_sys::Element>, LocalStorage>,
}

/// The management view for the customer token in `ctx`.
pub fn subscriptions(ctx: Ctx) -> El {
    let m = Manage {
        ctx,
        list: RwSignal::new(List::Loading),
        asking: RwSignal::new(None),
        busy: RwSignal::new(false),
        notice: RwSignal::new(None),
        root: StoredValue::new_local(None),
    };
    Executor::spawn_local(async move {
        let Some(api) = ctx.api() else {
            return;
        };
        let loaded = match api.subscriptions().await {
            Ok(found) => List::Loaded(found.subscriptions),
            Err(_) => List::Failed,
        };
        let failed = matches!(loaded, List::Failed);
        if m.list.try_set(loaded).is_none() {
            if failed {
                error(ctx, "load_failed", Msg::LoadFailed);
            } else {
                ready(ctx, Mode::Subscriptions);
            }
        }
    });
    let section = el("section")
        .id("cc-subscriptions")
        .class("cc-subscriptions")
        .child(el("div").region(move || {
            let c = ctx.rendering();
            let mut body = el("div").child(
                el("h2")
                    .id("cc-subscriptions-title")
                    .text(c.t(Msg::SubscriptionsTitle)),
            );
            body = match m.list.get() {
                List::Loading => body.child(loading(c, Outline::List)),
                List::Failed => body.child(el("p").class("cc-alert").text(c.t(Msg::LoadFailed))),
                List::Loaded(subs) if subs.is_empty() => body.child(
                    el("p")
                        .id("cc-subscriptions-empty")
                        .text(c.t(Msg::SubscriptionsEmpty)),
                ),
                List::Loaded(subs) => {
                    body.children(subs.into_iter().map(|s| row(m, c, s)).collect())
                }
            };
            Some(body)
        }))
        .child(
            el("p")
                .id("cc-subs-status")
                .class("cc-sr-only")
                .attr("role", "status")
                .attr("aria-live", "polite")
                .text_of(move || {
                    let c = ctx.rendering();
                    m.notice
                        .get()
                        .map(|msg| c.t(msg))
                        .unwrap_or_default()
                        .to_owned()
                }),
        );
    m.root.set_value(Some(section.0.clone()));
    section
}

fn status_text(status: SubscriptionStatus) -> (&'static str, Msg) {
    match status {
        SubscriptionStatus::Active => ("active", Msg::StatusActive),
        SubscriptionStatus::Paused => ("paused", Msg::StatusPaused),
        SubscriptionStatus::Cancelled => ("cancelled", Msg::StatusCancelled),
        SubscriptionStatus::Expired => ("expired", Msg::StatusExpired),
    }
}

/// One subscription: terms, actions (or the confirmation), history.
fn row(m: Manage, c: Ctx, sub: SubscriptionView) -> El {
    let (status_id, status_msg) = status_text(sub.status);
    let mut lines: Vec<Line> = vec![("subscription-price", price_line(c.loc, &sub.plan))];
    if let Some(date) = sub.next_payment_date.as_deref()
        && sub.status == SubscriptionStatus::Active
    {
        let text = fill(c.t(Msg::NextPayment), &[&format_date(c.loc, date)]);
        lines.push(("subscription-next", text));
    }
    let completed = u64::from(sub.completed_cycles);
    let cycles = if sub.plan.max_cycles == 0 {
        counted(c.loc, Msg::CyclesPaid, completed)
    } else {
        let paid = number_text(completed);
        let total = number_text(u64::from(sub.plan.max_cycles));
        fill(c.t(Msg::CyclesPaidOf), &[&paid, &total])
    };
    lines.push(("subscription-cycles", cycles));
    let asking = m
        .asking
        .get()
        .filter(|(id, _)| *id == sub.id)
        .map(|(_, action)| action);
    let controls = match asking {
        Some(action) => vec![confirm(m, c, sub.id.clone(), action)],
        None => {
            let mut actions = Vec::new();
            match sub.status {
                SubscriptionStatus::Active => {
                    actions.extend([SubscriptionAction::Pause, SubscriptionAction::Cancel])
                }
                SubscriptionStatus::Paused => {
                    actions.extend([SubscriptionAction::Resume, SubscriptionAction::Cancel])
                }
                SubscriptionStatus::Cancelled | SubscriptionStatus::Expired => {}
            }
            actions
                .into_iter()
                .map(|action| ask_button(m, c, sub.id.clone(), action))
                .collect()
        }
    };
    el("article")
        .class("cc-sub")
        .attr("data-testid", "subscription")
        .attr("data-id", &sub.id)
        .attr("data-status", status_id)
        .child(
            el("h3").text(&sub.plan.name).text(" ").child(
                el("span")
                    .class("cc-badge")
                    .attr("data-testid", "subscription-status")
                    .text(c.t(status_msg)),
            ),
        )
        .child(line_list(lines))
        .child(el("div").class("cc-actions").children(controls))
        .child(history(c, &sub))
}

fn action_label(action: SubscriptionAction) -> (Msg, Msg) {
    match action {
        SubscriptionAction::Pause => (Msg::Pause, Msg::ConfirmPause),
        SubscriptionAction::Resume => (Msg::Resume, Msg::ConfirmResume),
        SubscriptionAction::Cancel => (Msg::CancelSubscription, Msg::ConfirmCancel),
    }
}

/// `cc-sub-{id}-{suffix}`: ids of a row's buttons, for focus and tests.
fn button_id(sub_id: &str, suffix: &str) -> String {
    ["cc-sub-", sub_id, "-", suffix].concat()
}

fn button(id: &str, class: &str, testid: &str, label: &str) -> El {
    el("button")
        .id(id)
        .class(class)
        .attr("type", "button")
        .attr("data-testid", testid)
        .text(label)
}

fn ask_button(m: Manage, c: Ctx, sub_id: String, action: SubscriptionAction) -> El {
    let id = button_id(&sub_id, action.as_str());
    let focus_id = button_id(&sub_id, "confirm");
    button(
        &id,
        "cc-button cc-secondary",
        action.as_str(),
        c.t(action_label(action).0),
    )
    .on("click", move |_| {
        m.notice.set(None);
        m.asking.set(Some((sub_id.clone(), action)));
        focus_later(m, focus_id.clone());
    })
}

fn confirm(m: Manage, c: Ctx, sub_id: String, action: SubscriptionAction) -> El {
    let question_id = button_id(&sub_id, "question");
    let back_focus = button_id(&sub_id, action.as_str());
    let run_id = sub_id.clone();
    let yes = button(
        &button_id(&sub_id, "confirm"),
        "cc-button cc-danger",
        "confirm",
        c.t(Msg::Confirm),
    )
    .bind(move |e| dom::set_attr(e, "disabled", m.busy.get().then_some("")))
    .on("click", move |_| run(m, run_id.clone(), action));
    let back = button(
        &button_id(&sub_id, "back"),
        "cc-button cc-secondary",
        "go-back",
        c.t(Msg::GoBack),
    )
    .on("click", move |_| {
        m.asking.set(None);
        focus_later(m, back_focus.clone());
    });
    el("div")
        .class("cc-confirm")
        .attr("role", "group")
        .attr("aria-labelledby", &question_id)
        .child(el("p").id(&question_id).text(c.t(action_label(action).1)))
        .child(yes)
        .child(back)
}

/// Sends the confirmed action with its own idempotency key and puts the answer in the list.
fn run(m: Manage, sub_id: String, action: SubscriptionAction) {
    if m.busy.get_untracked() {
        return;
    }
    m.busy.set(true);
    let ctx = m.ctx;
    Executor::spawn_local(async move {
        let key = random_uuid();
        let Some(api) = ctx.api() else {
            return;
        };
        let answer = api.subscription_action(&sub_id, action, &key).await;
        if m.busy.try_set(false).is_some() {
            return;
        }
        match answer {
            Ok(updated) => {
                let detail = ActionDetail {
                    action,
                    subscription_id: updated.id.clone(),
                    status: updated.status,
                };
                m.asking.set(None);
                m.list.update(|list| {
                    if let List::Loaded(subs) = list
                        && let Some(slot) = subs.iter_mut().find(|s| s.id == updated.id)
                    {
                        *slot = updated;
                    }
                });
                m.notice.set(Some(Msg::SubscriptionUpdated));
                ctx.emit("success", &detail);
            }
            Err(_) => {
                m.notice.set(Some(Msg::ActionFailed));
                error(ctx, "action_failed", Msg::ActionFailed);
            }
        }
    });
}

/// The charge history in a disclosure.
fn history(c: Ctx, sub: &SubscriptionView) -> El {
    let details = el("details")
        .class("cc-details")
        .attr("data-testid", "subscription-history")
        .child(el("summary").text(c.t(Msg::History)));
    if sub.history.is_empty() {
        return details.child(el("p").text(c.t(Msg::HistoryEmpty)));
    }
    let cell = |tag: &str, text: &str| el(tag).text(text);
    let mut head = el("tr");
    for msg in [
        Msg::ColPayment,
        Msg::ColDate,
        Msg::ColAmount,
        Msg::ColStatus,
    ] {
        head = head.child(cell("th", c.t(msg)).attr("scope", "col"));
    }
    let mut body = el("tbody");
    for charge in &sub.history {
        let status = c.t(if charge.succeeded {
            Msg::ChargePaid
        } else {
            Msg::ChargeFailed
        });
        body = body.child(
            el("tr")
                .attr("data-testid", "charge")
                .attr(
                    "data-succeeded",
                    if charge.succeeded { "true" } else { "false" },
                )
                .child(cell("td", &number_text(u64::from(charge.cycle))))
                .child(cell("td", &format_date(c.loc, &charge.date)))
                .child(cell("td", &money(c.loc, charge.amount, &charge.currency)))
                .child(cell("td", status)),
        );
    }
    details.child(
        el("table")
            .class("cc-history")
            .child(el("thead").child(head))
            .child(body),
    )
}

/// Focuses the element `id` inside the view once the pending re-render has happened.
fn focus_later(m: Manage, id: String) {
    Executor::spawn_local(async move {
        sleep(0).await;
        let Some(root) = m.root.try_get_value().flatten() else {
            return;
        };
        let selector = ["#", &id].concat();
        if let Ok(Some(element)) = root.query_selector(&selector)
            && let Ok(element) = element.dyn_into::<web_sys::HtmlElement>()
        {
            let _ = element.focus();
        }
    });
}

fn error(ctx: Ctx, code: &'static str, msg: Msg) {
    ctx.emit(
        "error",
        &ErrorDetail {
            code,
            message: ctx.now(msg).to_owned(),
            decline: None,
        },
    );
}
