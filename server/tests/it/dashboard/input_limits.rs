//! Input at the edges of what dates and durations hold never panics the dashboard: the
//! payments list and its export refuse `to=9999-12-31` with a 400 naming the field (it
//! overflowed into a panic), a rotation's `overlap_hours` far past any `Duration` is refused
//! naming the field (the same key answering the same refusal, not "still being processed"), and a
//! property test throws arbitrary strings and extreme numbers at every payment-list filter
//! (and the overview's range and time zone) and never gets a 5xx.

use checkout_server::store::prelude::*;
use proptest::prelude::*;
use proptest::strategy::ValueTree as _;
use proptest::test_runner::{Config, TestRunner};

use super::support::{Browser, dashboard_suite, hidden};
use crate::api::support::Harness;
use crate::events::receiver::support::endpoint;

dashboard_suite!(
    the_last_calendar_day_is_refused_not_a_panic,
    an_overlap_past_any_duration_is_refused_and_the_key_is_free,
    no_list_filter_brings_a_server_error,
);

async fn the_last_calendar_day_is_refused_not_a_panic(h: &Harness) {
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    for path in [
        "/payments?to=9999-12-31",
        "/payments/export.csv?to=9999-12-31",
    ] {
        let page = viewer.get(path).await;
        assert_eq!(page.status, 400, "{path}: {}", page.text);
        assert!(
            page.text.contains("to: must be a date"),
            "{path}: {}",
            page.text
        );
    }
    let fine = viewer.get("/payments?to=9999-12-30").await;
    assert_eq!(fine.status, 200, "{}", fine.text);
}

async fn an_overlap_past_any_duration_is_refused_and_the_key_is_free(h: &Harness) {
    let endpoint_id = endpoint(
        h,
        "http://127.0.0.1:9/hook",
        &[],
        "whsec_dGVzdHRlc3R0ZXN0dGVzdA==",
    )
    .await;
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    let page = admin.get(&format!("/webhooks/{endpoint_id}")).await;
    let key = hidden(&page.text, "idempotency_key").expect("the form's key");
    let path = format!("/webhooks/{endpoint_id}/rotate");
    for hours in ["9000000000000000000", "-9000000000000000000", "-1", "169"] {
        let refusal = [
            ("csrf", admin.csrf.as_str()),
            ("idempotency_key", &format!("overlap-{hours}")),
            ("overlap_hours", hours),
            ("confirm", "yes"),
        ];
        for attempt in ["first", "same key again"] {
            let refused = admin.post(&path, &refusal).await;
            assert_eq!(refused.status, 400, "{hours}, {attempt}: {}", refused.text);
            assert!(
                refused
                    .text
                    .contains("overlap_hours: must be 0 to 168 hours"),
                "{hours}, {attempt}: {}",
                refused.text
            );
        }
    }
    let rotated = admin
        .post(
            &path,
            &[
                ("csrf", admin.csrf.as_str()),
                ("idempotency_key", key.as_str()),
                ("overlap_hours", "1"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(rotated.status, 200, "the key is free: {}", rotated.text);
    assert!(rotated.text.contains("whsec_"), "{}", rotated.text);
}

/// Arbitrary text, and the numbers and dates at the edges of what the types hold.
fn field_value() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[0-9+-]{0,24}",
        "[+-]?[0-9]{1,6}-[0-9]{1,2}-[0-9]{1,2}",
        Just("9999-12-31".to_owned()),
        Just("-9999-01-01".to_owned()),
        Just("0000-01-01".to_owned()),
        Just("9999-12-31T23:59:59-23:59".to_owned()),
        Just("-9999-01-01T00:00:00+23:59".to_owned()),
        Just("0000-01-01T00:00:00+23:59".to_owned()),
        Just(i64::MAX.to_string()),
        Just(i64::MIN.to_string()),
        Just(u64::MAX.to_string()),
        Just("1e308".to_owned()),
        Just("Pacific/Kiritimati".to_owned()),
        Just("Etc/GMT+12".to_owned()),
        Just("99999999999999999999.99".to_owned()),
    ]
}

/// The overview's range form.
const OVERVIEW_FIELDS: &[&str] = &["range", "from", "to", "tz"];

/// The payments list's filters (its export reads the same).
const FIELDS: &[&str] = &[
    "state",
    "from",
    "to",
    "currency",
    "min",
    "max",
    "reference",
    "last4",
    "brand",
    "customer",
    "after",
];

/// `count` query strings setting a few of `fields` to generated values.
pub fn queries(fields: &'static [&'static str], count: usize) -> Vec<String> {
    let strategy =
        proptest::collection::vec((proptest::sample::select(fields), field_value()), 1..4);
    let mut runner = TestRunner::new(Config::default());
    (0..count)
        .map(|_| {
            let pairs = strategy.new_tree(&mut runner).expect("a case").current();
            pairs
                .iter()
                .map(|(name, value)| {
                    let value = percent_encoding::utf8_percent_encode(
                        value,
                        percent_encoding::NON_ALPHANUMERIC,
                    );
                    format!("{name}={value}")
                })
                .collect::<Vec<_>>()
                .join("&")
        })
        .collect()
}

async fn no_list_filter_brings_a_server_error(h: &Harness) {
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    for (index, query) in queries(FIELDS, 200).iter().enumerate() {
        let path = if index % 4 == 0 {
            "/payments/export.csv"
        } else {
            "/payments"
        };
        let page = viewer.get(&format!("{path}?{query}")).await;
        assert!(
            page.status < 500,
            "{path}?{query}: {} {}",
            page.status,
            page.text
        );
    }
    for query in queries(OVERVIEW_FIELDS, 100) {
        let path = format!("/?range=custom&{query}");
        let page = viewer.get(&path).await;
        assert!(page.status < 500, "{path}: {} {}", page.status, page.text);
    }
}
