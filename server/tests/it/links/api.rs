//! `/v1/payment_links`: create (fixed or payer-chosen amounts, every option), read, list in
//! pages newest first, deactivate for good; bad input is a 400 naming the field.

use reqwest::Method;
use serde_json::json;

use super::{create_link, public_id};
use crate::api::support::{Harness, api_suite};
use crate::events::call;

api_suite!(
    a_link_is_created_read_listed_and_deactivated,
    bad_links_are_refused_naming_the_field,
);

async fn a_link_is_created_read_listed_and_deactivated(h: &Harness) {
    let link = create_link(
        h,
        json!({
            "description": "Donation", "amount": null, "min_amount": 500, "max_amount": 50000,
            "quantity_max": 3, "reusable": true, "payment_limit": 10,
            "expires_at": "2099-01-01T00:00:00Z", "ask_email": "required",
            "ask_payer_reference": "optional", "billing_fields": ["country", "postal_code"],
            "redirect_url": "https://shop.example/thanks"
        }),
    )
    .await;
    let id = link["id"].as_str().expect("id");
    assert!(id.starts_with("plink_"), "{link}");
    let public = public_id(&link);
    assert!(public.len() >= 43, "a public id of 256 bits: {public}");
    assert!(!public.contains(id.trim_start_matches("plink_")));
    assert_eq!(link["min_amount"], 500);
    assert_eq!(link["max_amount"], 50000);
    assert_eq!(link["amount"], serde_json::Value::Null);
    assert_eq!(link["quantity_max"], 3);
    assert_eq!(link["payment_limit"], 10);
    assert_eq!(link["ask_email"], "required");
    assert_eq!(link["billing_fields"], json!(["country", "postal_code"]));
    assert_eq!(link["after_payment"], "redirect");
    assert_eq!(link["active"], true);
    assert_eq!(link["expires_at"], "2099-01-01T00:00:00Z");

    let read = call(h, Method::GET, &format!("/v1/payment_links/{id}"), None).await;
    assert_eq!(read.status, 200, "{}", read.text);
    assert_eq!(read.json, link);

    let second = create_link(h, json!({})).await;
    let third = create_link(h, json!({})).await;
    let page = call(h, Method::GET, "/v1/payment_links?limit=2", None).await;
    assert_eq!(page.status, 200, "{}", page.text);
    let ids: Vec<_> = page.json["data"]
        .as_array()
        .expect("data")
        .iter()
        .map(|l| l["id"].clone())
        .collect();
    assert_eq!(ids, vec![third["id"].clone(), second["id"].clone()]);
    assert_eq!(page.json["has_more"], true);
    let cursor = page.json["next_cursor"].as_str().expect("cursor");
    let rest = call(
        h,
        Method::GET,
        &format!("/v1/payment_links?limit=2&after={cursor}"),
        None,
    )
    .await;
    assert_eq!(rest.status, 200, "{}", rest.text);
    assert_eq!(rest.json["data"][0]["id"], link["id"]);
    assert_eq!(rest.json["has_more"], false);

    let path = format!("/v1/payment_links/{id}/deactivate");
    let off = call(h, Method::POST, &path, None).await;
    assert_eq!(off.status, 200, "{}", off.text);
    assert_eq!(off.json["active"], false);
    let again = call(h, Method::POST, &path, None).await;
    assert_eq!(again.json["deactivated_at"], off.json["deactivated_at"]);
    let unknown = call(
        h,
        Method::POST,
        "/v1/payment_links/plink_0/deactivate",
        None,
    )
    .await;
    unknown.assert_error(404, "not_found", None);
    let unknown = call(h, Method::GET, "/v1/payment_links/plink_0", None).await;
    unknown.assert_error(404, "not_found", None);
}

async fn bad_links_are_refused_naming_the_field(h: &Harness) {
    let cases = [
        (json!({"amount": 0}), "amount"),
        (json!({"amount": null}), "amount"),
        (json!({"amount": null, "min_amount": 100}), "max_amount"),
        (
            json!({"amount": null, "min_amount": 900, "max_amount": 100}),
            "max_amount",
        ),
        (json!({"min_amount": 1, "max_amount": 5}), "min_amount"),
        (json!({"currency": "XYZ"}), "currency"),
        (json!({"description": ""}), "description"),
        (json!({"description": "x".repeat(501)}), "description"),
        (json!({"quantity_max": 0}), "quantity_max"),
        (json!({"quantity_max": 1001}), "quantity_max"),
        (json!({"payment_limit": 2}), "payment_limit"),
        (
            json!({"reusable": true, "payment_limit": 0}),
            "payment_limit",
        ),
        (json!({"expires_at": "tomorrow"}), "expires_at"),
        (json!({"expires_at": "2001-01-01T00:00:00Z"}), "expires_at"),
        (json!({"ask_email": "always"}), "ask_email"),
        (json!({"ask_payer_reference": 1}), "ask_payer_reference"),
        (json!({"billing_fields": ["shoe_size"]}), "billing_fields"),
        (
            json!({"redirect_url": "javascript:alert(1)"}),
            "redirect_url",
        ),
        (
            json!({"redirect_url": "https://user:pw@shop.example/"}),
            "redirect_url",
        ),
        (json!({"plan_id": "no-such-plan"}), "plan_id"),
        (json!({"amount": "12"}), "amount"),
        (json!({"colour": "red"}), "colour"),
    ];
    for (extra, field) in cases {
        let mut body = json!({"description": "Invoice", "amount": 1500, "currency": "JPY"});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let reply = call(h, Method::POST, "/v1/payment_links", Some(body.clone())).await;
        assert_eq!(reply.status, 400, "{body}: {}", reply.text);
        assert_eq!(
            reply.json["error"]["field"], field,
            "{body}: {}",
            reply.text
        );
    }
    let page = call(h, Method::GET, "/v1/payment_links?colour=red", None).await;
    assert_eq!(page.status, 400, "{}", page.text);
    let page = call(h, Method::GET, "/v1/payment_links?after=nonsense", None).await;
    assert_eq!(page.status, 400, "{}", page.text);
}
