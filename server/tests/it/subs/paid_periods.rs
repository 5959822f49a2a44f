//! Every paid period is an event (issue 46): after a trial, cycle 1's charge (the first money
//! the gateway takes) is `subscription.renewed` with its amount and period, like every later
//! cycle; a plan without a trial sends none for cycle 1, which its sign-up's payment charged
//! (`subscription.created` and `payment.captured` report it).

use reqwest::Method;
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::api::support::{Harness, cards};
use crate::ops::support::{
    advance_gateway_clock, after_the_startup_pass, in_seconds, object_events, ops_suite,
    reconciler, send, subscribe, unique,
};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(
    after_a_trial_cycle_1_is_the_paid_period_event,
    a_plain_sign_up_sends_no_paid_period_event_for_cycle_1,
);

fn types(events: &[Value]) -> Vec<&str> {
    events.iter().filter_map(|e| e["type"].as_str()).collect()
}

fn at(value: &Value) -> OffsetDateTime {
    OffsetDateTime::parse(value.as_str().expect("a time"), &Rfc3339).expect("RFC 3339")
}

async fn after_a_trial_cycle_1_is_the_paid_period_event(h: &Harness) {
    after_the_startup_pass(h).await;
    // demo-trial: 1200 EUR a month after a 7-day trial, 20% off the first two cycles.
    let (_, id) = subscribe(h, &unique("cust"), "demo-trial", cards::VISA_OK).await;
    assert_eq!(
        types(&object_events(h, &id).await),
        ["subscription.created"]
    );

    advance_gateway_clock(h, 8);
    let report = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(report.cycles_paid, 1, "{report:?}");
    let told = object_events(h, &id).await;
    assert_eq!(
        types(&told),
        ["subscription.created", "subscription.renewed"]
    );
    let charge = &told[1]["data"]["object"]["charge"];
    assert_eq!(charge["cycle"], 1, "{charge}");
    assert_eq!(
        charge["amount"], 960,
        "the discounted first month: {charge}"
    );
    assert_eq!(charge["currency"], "EUR");
    assert_eq!(charge["status"], "succeeded");
    assert_eq!(
        charge["payment_id"],
        Value::Null,
        "the gateway charged it by itself"
    );
    let (start, end) = (at(&charge["period_start"]), at(&charge["period_end"]));
    let month = end - start;
    assert!(
        (28..=31).contains(&month.whole_days()),
        "one month: {start} to {end}"
    );
    assert_eq!(told[1]["data"]["object"]["id"], id.as_str());
}

async fn a_plain_sign_up_sends_no_paid_period_event_for_cycle_1(h: &Harness) {
    after_the_startup_pass(h).await;
    let (_, id) = subscribe(h, &unique("cust"), "demo-monthly", cards::VISA_OK).await;
    let sign_up = send(h.merchant(Method::GET, &format!("/v1/subscriptions/{id}"))).await;
    let first = &sign_up.json["history"][0];
    assert_eq!(first["cycle"], 1, "{}", sign_up.text);
    assert_eq!(
        first["payment_id"], sign_up.json["first_payment_id"],
        "cycle 1 is the sign-up payment's"
    );

    advance_gateway_clock(h, 31);
    let report = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(report.cycles_paid, 1, "cycle 2: {report:?}");
    let told = object_events(h, &id).await;
    assert_eq!(
        types(&told),
        ["subscription.created", "subscription.renewed"]
    );
    let charge = &told[1]["data"]["object"]["charge"];
    assert_eq!(charge["cycle"], 2, "never cycle 1: {charge}");
    assert_eq!(charge["amount"], 980);
    assert!(at(&charge["period_end"]) > at(&charge["period_start"]));
}
