//! Browser tests of subscriptions: plan terms before paying, and the customer's management view
//! (status, next payment, cycles, pause / resume / cancel behind a confirmation, history).
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::contract::{
    ApiError, CheckoutKind, CustomerSubscriptions, SubscriptionCharge, SubscriptionStatus,
    SubscriptionView,
};
use common::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

const TOKEN: &str = "cust_token_1";
const LIST: &str = "/v1/customer/subscriptions";

#[wasm_bindgen_test]
async fn plan_terms_show_before_paying() {
    let mut view = session_view(vec![], vec![]);
    view.kind = CheckoutKind::Subscription { plan: plan() };
    view.amount = 0;
    let (host, _handle) = mount_form(&view).await;
    let root: Element = host.unchecked_into();
    assert_eq!(text(&root, "#cc-plan-name"), "Coffee club");
    let line = |id: &str| text(&root, &["#cc-plan [data-testid=", id, "]"].concat());
    assert_eq!(line("plan-price"), "€12.99 every month");
    assert_eq!(line("plan-trial"), "14-day free trial");
    assert_eq!(line("plan-discount"), "10% off the first 3 payments");
    assert_eq!(line("plan-cycles"), "12 payments in total");
    assert_eq!(line("plan-due"), "Due today: €0.00");
    assert_eq!(text(&root, "#cc-submit"), "Subscribe");
    // Other intervals and an open end.
    let mut weekly = plan();
    weekly.cycle_unit = checkout::contract::CycleUnit::Weeks;
    weekly.cycle_interval = 2;
    weekly.trial_days = None;
    weekly.discount = None;
    weekly.max_cycles = 0;
    let mut view = session_view(vec![], vec![]);
    view.kind = CheckoutKind::Subscription { plan: weekly };
    let (host, _second) = mount_form_in(&view, "de").await;
    let root: Element = host.unchecked_into();
    let line = |id: &str| text(&root, &["#cc-plan [data-testid=", id, "]"].concat());
    assert_eq!(line("plan-price"), "12,99\u{a0}€ alle 2 Wochen");
    assert_eq!(line("plan-cycles"), "Bis zur Kündigung");
    assert!(find(&root, "[data-testid=plan-trial]").is_none());
    assert!(find(&root, "[data-testid=plan-discount]").is_none());
}

#[wasm_bindgen_test]
async fn plan_terms_take_the_plural_form_of_each_count() {
    let cases: [(&str, u32, u32, u32, [&str; 3]); 5] = [
        // locale, interval (days), discounted payments, payments: price, discount, cycles.
        (
            "en",
            1,
            1,
            1,
            [
                "€12.99 every day",
                "10% off the first payment",
                "1 payment in total",
            ],
        ),
        (
            "ar",
            2,
            2,
            11,
            ["كل يومين", "خصم 10% على أول دفعتين", "11 دفعة إجمالًا"],
        ),
        (
            "pl",
            5,
            3,
            22,
            [
                "co 5 dni",
                "10% zniżki na pierwsze 3 płatności",
                "Łącznie 22 płatności",
            ],
        ),
        (
            "he",
            2,
            2,
            2,
            [
                "כל יומיים",
                "10% הנחה על שני התשלומים הראשונים",
                "שני תשלומים בסך הכול",
            ],
        ),
        (
            "ja",
            1,
            1,
            3,
            ["毎日", "初回のお支払いが10%オフ", "全3回のお支払い"],
        ),
    ];
    for (locale, interval, discounted, cycles, expected) in cases {
        let mut terms = plan();
        terms.cycle_unit = checkout::contract::CycleUnit::Days;
        terms.cycle_interval = interval;
        terms.discount = terms.discount.map(|d| checkout::contract::Discount {
            cycles: discounted,
            ..d
        });
        terms.max_cycles = cycles;
        let mut view = session_view(vec![], vec![]);
        view.kind = CheckoutKind::Subscription { plan: terms };
        let (host, _handle) = mount_form_in(&view, locale).await;
        let root: Element = host.unchecked_into();
        let line = |id: &str| text(&root, &["#cc-plan [data-testid=", id, "]"].concat());
        assert!(
            line("plan-price").contains(expected[0]),
            "{locale}: {}",
            line("plan-price")
        );
        assert_eq!(line("plan-discount"), expected[1], "{locale}");
        assert_eq!(line("plan-cycles"), expected[2], "{locale}");
    }
}

#[wasm_bindgen_test]
fn the_browsers_plural_categories_are_the_ones_catalogues_cover() {
    use checkout::i18n::{Locale, plural};
    for locale in Locale::ALL {
        let rules = js_sys::Intl::PluralRules::new(
            &js_sys::Array::of1(&locale.tag().into()),
            &js_sys::Object::new(),
        );
        for count in 0..=1000 {
            let category = String::from(rules.select(f64::from(count)));
            assert!(
                plural::categories(locale).contains(&category.as_str()),
                "{locale:?} {count}: {category}"
            );
        }
    }
}

fn charge(cycle: u32, succeeded: bool, date: &str) -> SubscriptionCharge {
    SubscriptionCharge {
        cycle,
        amount: 1169,
        currency: "EUR".into(),
        succeeded,
        date: date.into(),
    }
}

fn subscription(id: &str, status: SubscriptionStatus) -> SubscriptionView {
    SubscriptionView {
        id: id.into(),
        status,
        plan: plan(),
        completed_cycles: 2,
        next_payment_date: Some("2026-07-01T12:00:00Z".into()),
        history: vec![
            charge(1, true, "2026-05-01T12:00:00Z"),
            charge(2, false, "2026-06-01T12:00:00Z"),
        ],
    }
}

async fn manage(list: &CustomerSubscriptions) -> (Element, checkout::embed::mount::Checkout) {
    fake_server();
    route("GET", LIST, 200, list);
    let host = container();
    capture(&host);
    let handle = checkout::embed::mount::mount(
        host.clone(),
        options(&[
            ("mode", "subscriptions"),
            ("customerToken", TOKEN),
            ("server", SERVER),
            ("locale", "en"),
        ]),
    )
    .expect("mounts");
    let root: Element = host.unchecked_into();
    until("list", || find(&root, "#cc-subscriptions-title").is_some()).await;
    until("loaded", || {
        text(&root, ".cc-subscriptions") != "Your subscriptionsLoading…"
    })
    .await;
    (root, handle)
}

fn row(root: &Element, id: &str) -> Element {
    get(
        root,
        &["[data-testid=subscription][data-id=", id, "]"].concat(),
    )
}

#[wasm_bindgen_test]
async fn lists_status_next_payment_cycles_and_history() {
    let list = CustomerSubscriptions {
        subscriptions: vec![
            subscription("sub_a", SubscriptionStatus::Active),
            subscription("sub_p", SubscriptionStatus::Paused),
            subscription("sub_c", SubscriptionStatus::Cancelled),
        ],
    };
    let (root, _handle) = manage(&list).await;
    let active = row(&root, "sub_a");
    assert_eq!(text(&active, "[data-testid=subscription-status]"), "Active");
    assert_eq!(
        text(&active, "[data-testid=subscription-price]"),
        "€12.99 every month"
    );
    assert_eq!(
        text(&active, "[data-testid=subscription-next]"),
        "Next payment: July 1, 2026"
    );
    assert_eq!(
        text(&active, "[data-testid=subscription-cycles]"),
        "2 of 12 payments made"
    );
    let charges = active
        .query_selector_all("[data-testid=charge]")
        .expect("rows");
    assert_eq!(charges.length(), 2);
    let second: Element = charges.item(1).expect("row").unchecked_into();
    assert_eq!(
        second.get_attribute("data-succeeded").as_deref(),
        Some("false")
    );
    assert_eq!(
        second.text_content().as_deref(),
        Some("2June 1, 2026€11.69Failed")
    );
    assert!(find(&active, "[data-testid=pause]").is_some());
    assert!(find(&active, "[data-testid=resume]").is_none());
    let paused = row(&root, "sub_p");
    assert_eq!(text(&paused, "[data-testid=subscription-status]"), "Paused");
    assert!(find(&paused, "[data-testid=resume]").is_some());
    assert!(find(&paused, "[data-testid=subscription-next]").is_none());
    let cancelled = row(&root, "sub_c");
    assert!(find(&cancelled, "button").is_none());
    let request = &requests_to("GET", LIST)[0];
    assert_eq!(
        request.headers.get("x-customer-token").map(String::as_str),
        Some(TOKEN)
    );
}

#[wasm_bindgen_test]
async fn actions_ask_first_then_apply() {
    let list = CustomerSubscriptions {
        subscriptions: vec![subscription("sub_a", SubscriptionStatus::Active)],
    };
    let (root, _handle) = manage(&list).await;
    let host: web_sys::EventTarget = root.clone().into();
    click(&row(&root, "sub_a"), "[data-testid=pause]");
    until("question", || {
        find(&root, "[data-testid=confirm]").is_some()
    })
    .await;
    assert_eq!(
        text(&root, "#cc-sub-sub_a-question"),
        "Pause this subscription? No payments are taken until you resume it."
    );
    until("focus on confirm", || {
        active_id(&root) == "cc-sub-sub_a-confirm"
    })
    .await;
    click(&root, "[data-testid=go-back]");
    until("back", || find(&root, "[data-testid=pause]").is_some()).await;
    until("focus back", || active_id(&root) == "cc-sub-sub_a-pause").await;
    assert!(
        requests().iter().all(|r| r.method == "GET"),
        "nothing sent without confirmation"
    );

    let path = "/v1/customer/subscriptions/sub_a/pause";
    route(
        "POST",
        path,
        200,
        &subscription("sub_a", SubscriptionStatus::Paused),
    );
    click(&root, "[data-testid=pause]");
    until("question", || {
        find(&root, "[data-testid=confirm]").is_some()
    })
    .await;
    click(&root, "[data-testid=confirm]");
    until("paused", || {
        text(&root, "[data-testid=subscription-status]") == "Paused"
    })
    .await;
    assert_eq!(text(&root, "#cc-subs-status"), "Subscription updated.");
    let sent = requests_to("POST", path);
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0].headers.get("x-customer-token").map(String::as_str),
        Some(TOKEN)
    );
    assert_eq!(sent[0].headers["idempotency-key"].len(), 36);
    let success = events(&host)
        .into_iter()
        .find(|e| e.kind == "success")
        .expect("success");
    assert_eq!(success.detail["action"], "pause");
    assert_eq!(success.detail["subscription_id"], "sub_a");
    assert_eq!(success.detail["status"], "paused");

    let resume = "/v1/customer/subscriptions/sub_a/resume";
    route(
        "POST",
        resume,
        200,
        &subscription("sub_a", SubscriptionStatus::Active),
    );
    click(&root, "[data-testid=resume]");
    until("question", || {
        find(&root, "[data-testid=confirm]").is_some()
    })
    .await;
    assert_eq!(
        text(&root, "#cc-sub-sub_a-question"),
        "Resume this subscription? Payments restart on the next billing date."
    );
    click(&root, "[data-testid=confirm]");
    until("active", || {
        text(&root, "[data-testid=subscription-status]") == "Active"
    })
    .await;

    let cancel = "/v1/customer/subscriptions/sub_a/cancel";
    route("POST", cancel, 500, &ApiError::new("internal", "down"));
    route(
        "POST",
        cancel,
        200,
        &subscription("sub_a", SubscriptionStatus::Cancelled),
    );
    click(&root, "[data-testid=cancel]");
    until("question", || {
        find(&root, "[data-testid=confirm]").is_some()
    })
    .await;
    click(&root, "[data-testid=confirm]");
    until("failure", || {
        text(&root, "#cc-subs-status") == "The change could not be made. Please try again."
    })
    .await;
    assert!(
        events(&host)
            .iter()
            .any(|e| e.kind == "error" && e.detail["code"] == "action_failed")
    );
    until("enabled", || {
        !get(&root, "[data-testid=confirm]").has_attribute("disabled")
    })
    .await;
    click(&root, "[data-testid=confirm]");
    until("cancelled", || {
        text(&root, "[data-testid=subscription-status]") == "Cancelled"
    })
    .await;
    assert!(find(&root, "[data-testid=subscription] button").is_none());
    let keys: Vec<String> = requests_to("POST", cancel)
        .into_iter()
        .map(|r| r.headers["idempotency-key"].clone())
        .collect();
    assert_eq!(keys.len(), 2);
}

#[wasm_bindgen_test]
async fn an_empty_list_says_so() {
    let (root, _handle) = manage(&CustomerSubscriptions::default()).await;
    assert_eq!(
        text(&root, "#cc-subscriptions-empty"),
        "You have no subscriptions."
    );
}
