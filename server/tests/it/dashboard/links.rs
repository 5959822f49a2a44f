//! Payment links in the dashboard: an operator makes one (amounts in major units, the billing
//! fields as checkboxes; a bad value named) and deactivates it, each change in the audit log;
//! its page shows the address to send, a QR code, its figures and the payments made through
//! it; a viewer sees the links without the form and gets a 403 on every change.

use checkout_server::store::prelude::*;
use serde_json::json;

use super::support::{Browser, dashboard_suite, location};
use crate::api::support::{Harness, cards};
use crate::links::{link_session, public_id};

dashboard_suite!(
    an_operator_makes_and_deactivates_a_link_and_each_change_is_audited,
    a_viewer_sees_the_links_but_changes_none,
);

/// The audit lines about payment links: (who, action, link id, amount).
async fn link_lines(h: &Harness) -> Vec<(String, String, Option<String>, Option<u64>)> {
    h.store()
        .list_audit(None, 100)
        .await
        .expect("audit")
        .into_iter()
        .filter(|line| line.entry.object_type.as_deref() == Some("payment_link"))
        .map(|line| {
            let e = line.entry;
            (e.staff_email, e.action, e.object_id, e.amount)
        })
        .collect()
}

async fn an_operator_makes_and_deactivates_a_link_and_each_change_is_audited(h: &Harness) {
    let operator = Browser::as_role(h, "ops@shop.example", StaffRole::Operator).await;
    let page = operator.get("/links").await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("No payment link yet."));
    assert!(
        page.text.contains("action=\"/links\""),
        "the form is offered"
    );
    let csrf = operator.csrf.as_str();
    let form = [
        ("csrf", csrf),
        ("description", "Invoice 42"),
        ("currency", "eur"),
        ("amount_kind", "fixed"),
        ("amount", "12.50"),
        ("reusable", "on"),
        ("payment_limit", "3"),
        ("ask_email", "optional"),
        ("ask_payer_reference", "off"),
        ("billing_field", "country"),
        ("billing_field", "postal_code"),
    ];
    let made = operator.post("/links", &form).await;
    assert_eq!(made.status, 303, "{}", made.text);
    let place = location(&made).to_owned();
    let id = place
        .strip_prefix("/links/")
        .and_then(|rest| rest.strip_suffix("?done=created"))
        .expect("the link's page")
        .to_owned();
    let link = h.state.links.get(&id).await.expect("stored");
    assert_eq!(link.terms.currency, "EUR");
    assert_eq!(link.places(), Some(3));
    assert_eq!(link.terms.billing_fields.len(), 2);

    // A payer pays it; the link's page shows the address, the QR code, the figures and the
    // payment.
    let api_view = json!({"id": id, "url": h.state.urls.link_page(&link.public_id)});
    h.state
        .links
        .record_view(&public_id(&api_view))
        .await
        .expect("view");
    let billing = json!({"billing_address": {"country": "JP", "postal_code": "100-0001"}});
    let session = link_session(h, &api_view, billing).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let shown = operator.get(&place).await;
    assert_eq!(shown.status, 200, "{}", shown.text);
    assert!(
        shown
            .text
            .contains(&h.state.urls.link_page(&link.public_id))
    );
    assert!(shown.text.contains("<svg role=\"img\""), "a QR code");
    assert!(shown.text.contains("12.50"), "{}", shown.text);
    assert!(
        shown.text.contains("100 %"),
        "one view, one payment: {}",
        shown.text
    );
    let payment = h.stored_payment(&session).await;
    assert!(shown.text.contains(&format!("/payments/{}", payment.id)));

    let bad = operator
        .post(
            "/links",
            &[
                ("csrf", csrf),
                ("description", "Tip"),
                ("currency", "EUR"),
                ("amount_kind", "chosen"),
                ("min_amount", "5"),
                ("max_amount", "1"),
            ],
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert!(bad.text.contains("max_amount"), "{}", bad.text);

    let off = operator
        .post(&format!("/links/{id}/deactivate"), &[("csrf", csrf)])
        .await;
    assert_eq!(off.status, 303, "{}", off.text);
    assert!(!h.state.links.get(&id).await.expect("stored").active);
    let lines = link_lines(h).await;
    let actions: Vec<_> = lines.iter().map(|l| l.1.as_str()).collect();
    assert_eq!(
        actions,
        ["payment_link_deactivated", "payment_link_created"]
    );
    for (who, _, object, amount) in &lines {
        assert_eq!(who, "ops@shop.example");
        assert_eq!(object.as_deref(), Some(id.as_str()));
        assert_eq!(*amount, Some(1250));
    }
}

async fn a_viewer_sees_the_links_but_changes_none(h: &Harness) {
    let link = h
        .state
        .links
        .create(checkout_server::store::model::NewPaymentLink {
            description: "Deposit".into(),
            currency: "EUR".into(),
            amount: LinkAmount::Fixed { amount: 5000 },
            quantity_max: None,
            reusable: false,
            payment_limit: None,
            expires_at: None,
            ask_email: Ask::Off,
            ask_payer_reference: Ask::Off,
            billing_fields: Vec::new(),
            after_payment: AfterPayment::Receipt,
            plan_id: None,
        })
        .await
        .expect("created");
    let viewer = Browser::as_role(h, "view@shop.example", StaffRole::Viewer).await;
    let list = viewer.get("/links").await;
    assert_eq!(list.status, 200, "{}", list.text);
    assert!(list.text.contains("Deposit"));
    assert!(
        !list.text.contains("action=\"/links\""),
        "no form for a viewer"
    );
    let page = viewer.get(&format!("/links/{}", link.id)).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(!page.text.contains("/deactivate"), "no button for a viewer");
    let csrf = viewer.csrf.as_str();
    let made = viewer
        .post(
            "/links",
            &[("csrf", csrf), ("description", "X"), ("amount", "1")],
        )
        .await;
    assert_eq!(made.status, 403, "{}", made.text);
    let off = viewer
        .post(&format!("/links/{}/deactivate", link.id), &[("csrf", csrf)])
        .await;
    assert_eq!(off.status, 403, "{}", off.text);
    assert!(h.state.links.get(&link.id).await.expect("read").active);
    assert!(link_lines(h).await.is_empty());
    let unknown = viewer.get("/links/plink_0").await;
    assert_eq!(unknown.status, 404, "{}", unknown.text);
}
