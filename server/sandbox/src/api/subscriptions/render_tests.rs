//! Tests of `render`: the JSON each view produces.

use serde_json::{Value, json};
use time::OffsetDateTime;
use time::macros::datetime;
use uuid::Uuid;

use super::*;
use crate::subscriptions::cadence::{Cadence, CycleType};
use crate::subscriptions::history::ChargeResult;
use crate::subscriptions::status::Operation;
use crate::subscriptions::terms::{Discount, PlanTerms};

const CREATED: OffsetDateTime = datetime!(2025-03-01 09:30:00 UTC);

fn terms(unit: CycleType, trial_days: Option<u32>, discount: Option<Discount>) -> PlanTerms {
    PlanTerms {
        name: "Gold".into(),
        description: "gold plan".into(),
        cadence: Cadence { unit, interval: 1 },
        amount: 1000,
        currency: "JPY".into(),
        max_cycle_count: 3,
        trial_days,
        discount,
    }
}

fn charged(sub: &mut Subscription<()>, at: OffsetDateTime, approved: bool, reference: u64) {
    let billed = sub.bill_next(at, |_| {
        Ok::<_, ()>(ChargeResult {
            transaction_id: Uuid::nil(),
            reference,
            approved,
            charged_at: at,
        })
    });
    assert!(matches!(billed, Ok(Some(_))), "an attempt was due");
}

fn json_of(sub: &Subscription<()>, view: View) -> Value {
    serde_json::to_value(subscription_details(sub, view)).expect("serialisable")
}

#[test]
fn creation_view_matches_the_contract_sample_shape() {
    let discount = Discount {
        percentage: 10,
        duration: 2,
    };
    let mut sub = Subscription::new(
        Uuid::new_v4(),
        terms(CycleType::Monthly, None, Some(discount)),
        CREATED,
        (),
    );
    charged(&mut sub, CREATED, true, 100_001);
    let body = json_of(&sub, View::Creation);
    assert_eq!(body["id"], sub.id().to_string());
    assert_eq!(body["type"], "CYCLE");
    assert_eq!(body["max_cycle_count"], 3);
    assert_eq!(body["status"], "ACTIVE");
    assert_eq!(body["completed_payment_cycle"], 1);
    assert_eq!(body["next_payment_cycle"], 2);
    assert_eq!(body["next_payment_date"], "2025-04-01T09:30:00Z");
    assert!(body.get("last_payment_status").is_none());
    assert!(body.get("subscription_transaction_details").is_none());
    assert_eq!(
        body["subscription_plan_details"],
        json!({
            "name": "Gold",
            "desc": "gold plan",
            "billing_cycle_type": "MONTHS",
            "billing_cycle_interval": 1,
            "amount": 1000,
            "ccy": "JPY",
            "trial_period_duration": "",
            "trial_period_duration_type": "NONE",
            "plan_discount_percentage": 10,
            "plan_discount_duration": 2
        })
    );
}

#[test]
fn detail_view_has_history_and_last_payment_status() {
    let mut sub = Subscription::new(
        Uuid::new_v4(),
        terms(CycleType::Weekly, Some(7), None),
        CREATED,
        (),
    );
    let before_billing = json_of(&sub, View::Detail);
    assert!(before_billing.get("last_payment_status").is_none());
    assert_eq!(
        before_billing["subscription_transaction_details"],
        json!([])
    );
    assert_eq!(before_billing["completed_payment_cycle"], 0);
    assert_eq!(before_billing["next_payment_date"], "2025-03-08T09:30:00Z");
    let trial_end = datetime!(2025-03-08 09:30:00 UTC);
    charged(&mut sub, trial_end, false, 100_007);
    let body = json_of(&sub, View::Detail);
    assert_eq!(body["last_payment_status"], "FAILED");
    assert_eq!(
        body["subscription_transaction_details"],
        json!([{
            "id": Uuid::nil().to_string(),
            "ref": 100_007,
            "cycle": 1,
            "status": "FAILED",
            "transaction_date": "2025-03-08T09:30:00Z",
            "amount": 1000,
            "ccy": "JPY",
            "event": "DECLINED"
        }])
    );
    let plan = &body["subscription_plan_details"];
    assert_eq!(plan["billing_cycle_type"], "WEEKS");
    assert_eq!(plan["trial_period_duration"], "7");
    assert_eq!(plan["trial_period_duration_type"], "DAYS");
    assert_eq!(plan["plan_discount_percentage"], 0);
    assert_eq!(plan["plan_discount_duration"], 0);
}

#[test]
fn list_item_has_history_but_no_last_payment_status() {
    let mut sub = Subscription::new(
        Uuid::new_v4(),
        terms(CycleType::Days, None, None),
        CREATED,
        (),
    );
    charged(&mut sub, CREATED, true, 100_001);
    let body = json_of(&sub, View::ListItem);
    assert!(body.get("last_payment_status").is_none());
    assert_eq!(
        body["subscription_transaction_details"][0]["event"],
        "CAPTURED"
    );
    assert_eq!(
        body["subscription_transaction_details"][0]["status"],
        "SUCCESSFUL"
    );
    assert_eq!(
        body["subscription_plan_details"]["billing_cycle_type"],
        "DAYS"
    );
}

#[test]
fn cancelled_has_no_next_payment() {
    let mut sub = Subscription::new(
        Uuid::new_v4(),
        terms(CycleType::Days, None, None),
        CREATED,
        (),
    );
    charged(&mut sub, CREATED, true, 100_001);
    sub.apply(Operation::Cancel, CREATED).expect("cancel");
    let body = json_of(&sub, View::Detail);
    assert_eq!(body["status"], "CANCELLED");
    assert_eq!(body["next_payment_date"], Value::Null);
    assert_eq!(body["next_payment_cycle"], Value::Null);
    assert_eq!(body["completed_payment_cycle"], 1);
}
