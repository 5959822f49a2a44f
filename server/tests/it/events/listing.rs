//! `/v1/events` listed: filtered by object, type and time, paged newest first; a bad query
//! names its parameter.

use reqwest::Method;
use serde_json::{Value, json};
use time::format_description::well_known::Rfc3339;
use time::{Duration, OffsetDateTime};

use super::call;
use crate::api::support::{Harness, Reply, api_suite};

use super::api::{events, ids, paid, rfc3339};

api_suite!(
    events_filter_and_page_newest_first,
    bad_event_queries_name_the_parameter,
);

async fn events_filter_and_page_newest_first(h: &Harness) {
    let start = OffsetDateTime::now_utc() - Duration::seconds(1);
    let (_, first) = paid(h).await;
    let (_, second) = paid(h).await;

    let all = events(h, "limit=100").await;
    assert_eq!(all["has_more"], false);
    assert_eq!(all["next_cursor"], Value::Null);
    let everything = ids(&all);
    assert!(everything.len() >= 4, "{all}");
    let times: Vec<OffsetDateTime> = all["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|e| {
            OffsetDateTime::parse(e["created_at"].as_str().expect("time"), &Rfc3339).expect("time")
        })
        .collect();
    assert!(times.windows(2).all(|w| w[0] >= w[1]), "newest first");

    // Page by two, by `starting_after`: the same events in the same order, none twice.
    let mut paged = Vec::new();
    let mut query = "limit=2".to_owned();
    loop {
        let page = events(h, &query).await;
        let page_ids = ids(&page);
        assert!(page_ids.len() <= 2);
        paged.extend(page_ids);
        match page["next_cursor"].as_str() {
            Some(cursor) => {
                assert_eq!(page["has_more"], true);
                query = format!("limit=2&starting_after={cursor}");
            }
            None => {
                assert_eq!(page["has_more"], false);
                break;
            }
        }
    }
    assert_eq!(paged, everything);
    let first_page = events(h, "limit=1").await;
    let cursor = first_page["next_cursor"].as_str().expect("a cursor");
    assert_eq!(
        ids(&events(h, &format!("limit=1&after={cursor}")).await),
        vec![everything[1].clone()],
        "`after` as the other lists name it"
    );

    // Filters: type, object, time range.
    let captured = events(h, "type=payment.captured&limit=100").await;
    let captured_objects: Vec<&str> = captured["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|e| e["data"]["object"]["id"].as_str().expect("id"))
        .collect();
    assert_eq!(captured_objects, vec![second.as_str(), first.as_str()]);
    assert!(
        captured["data"]
            .as_array()
            .expect("data")
            .iter()
            .all(|e| e["type"] == "payment.captured")
    );
    let one = events(h, &format!("type=payment.captured&object_id={first}")).await;
    assert_eq!(one["data"].as_array().map(Vec::len), Some(1));
    let none = events(h, &format!("type=session.completed&object_id={first}")).await;
    assert_eq!(none["data"], json!([]));
    let since = rfc3339(start);
    let later = rfc3339(OffsetDateTime::now_utc() + Duration::minutes(1));
    let earlier = rfc3339(start - Duration::days(1));
    assert_eq!(
        ids(&events(h, &format!("limit=100&created_gte={}", urlencode(&since))).await),
        everything
    );
    assert_eq!(
        ids(&events(h, &format!("limit=100&created_lt={}", urlencode(&later))).await),
        everything
    );
    assert_eq!(
        events(h, &format!("created_gte={}", urlencode(&later))).await["data"],
        json!([])
    );
    assert_eq!(
        events(h, &format!("created_lt={}", urlencode(&earlier))).await["data"],
        json!([])
    );
}

/// `+` in an offset must travel as `%2B`.
fn urlencode(text: &str) -> String {
    text.replace('+', "%2B").replace(':', "%3A")
}

async fn bad_event_queries_name_the_parameter(h: &Harness) {
    for (query, field) in [
        ("type=payment.paid", "type"),
        ("object_id=", "object_id"),
        ("created_gte=yesterday", "created_gte"),
        ("created_lt=2026-13-01T00:00:00Z", "created_lt"),
        ("limit=0", "limit"),
        ("limit=1000", "limit"),
        ("starting_after=nonsense", "starting_after"),
        ("starting_after=1700000000000_evt_abc", "starting_after"),
    ] {
        call(h, Method::GET, &format!("/v1/events?{query}"), None)
            .await
            .assert_error(400, "invalid_field", Some(field));
    }
    call(h, Method::GET, "/v1/events?order=asc", None)
        .await
        .assert_error(400, "unknown_parameter", Some("order"));
    for id in ["nothing", "evt_%00"] {
        call(h, Method::GET, &format!("/v1/events/{id}"), None)
            .await
            .assert_error(404, "not_found", None);
        Reply::read(
            h.merchant(Method::POST, &format!("/v1/events/{id}/redeliver"))
                .header("Idempotency-Key", "unknown-event")
                .send()
                .await
                .expect("sent"),
        )
        .await
        .assert_error(404, "not_found", None);
    }
    let anonymous = Reply::read(
        h.api
            .get(format!("{}/v1/events", h.base))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
}
