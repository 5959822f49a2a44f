//! Tests of `plan_request`: every field's rule, and that the error names the field.

use super::*;

fn vendor_sample() -> PlanRequest<'static> {
    PlanRequest {
        plan_name: Some("Gold plan"),
        plan_desc: Some("Monthly gold membership"),
        cycle_type: Some("MONTHLY"),
        subscription_end_type: Some("CYCLE"),
        cycle_interval: Some(1),
        max_cycle_count: Some(12),
        has_trial_period: Some(true),
        trial_period_duration_type: Some("DAYS"),
        trial_period_duration: Some(7),
        has_discount: Some(true),
        discount_percentage: Some(10),
        discount_duration: Some(2),
    }
}

fn field_of(result: Result<PlanTerms, SubscriptionError>) -> &'static str {
    match result {
        Err(SubscriptionError::InvalidField { field, .. }) => field,
        other => panic!("expected an invalid field, got {other:?}"),
    }
}

#[test]
fn the_vendor_sample_is_accepted_with_every_term() {
    let terms = vendor_sample().validate(1000, "JPY").expect("valid");
    assert_eq!(terms.name, "Gold plan");
    assert_eq!(terms.description, "Monthly gold membership");
    assert_eq!(
        terms.cadence,
        Cadence {
            unit: CycleType::Monthly,
            interval: 1
        }
    );
    assert_eq!(terms.amount, 1000);
    assert_eq!(terms.currency, "JPY");
    assert_eq!(terms.max_cycle_count, 12);
    assert_eq!(terms.trial_days, Some(7));
    assert_eq!(
        terms.discount,
        Some(Discount {
            percentage: 10,
            duration: 2
        })
    );
}

#[test]
fn trial_and_discount_fields_are_ignored_when_their_flag_is_off() {
    let request = PlanRequest {
        has_trial_period: Some(false),
        trial_period_duration_type: Some("WHATEVER"),
        trial_period_duration: Some(-4),
        has_discount: None,
        discount_percentage: Some(500),
        ..vendor_sample()
    };
    let terms = request.validate(1000, "JPY").expect("valid");
    assert_eq!(terms.trial_days, None);
    assert_eq!(terms.discount, None);
}

#[test]
fn plan_desc_is_optional_plan_name_is_not() {
    let terms = PlanRequest {
        plan_desc: None,
        ..vendor_sample()
    }
    .validate(1000, "JPY")
    .expect("valid");
    assert_eq!(terms.description, "");
    for blank in [None, Some(""), Some("   ")] {
        let request = PlanRequest {
            plan_name: blank,
            ..vendor_sample()
        };
        assert_eq!(
            field_of(request.validate(1000, "JPY")),
            "subscription.plan_name"
        );
    }
}

#[test]
fn text_limits_count_characters() {
    let name_at_limit = "é".repeat(MAX_PLAN_NAME);
    let ok = PlanRequest {
        plan_name: Some(&name_at_limit),
        ..vendor_sample()
    };
    assert!(ok.validate(1000, "JPY").is_ok());
    let name_too_long = "a".repeat(MAX_PLAN_NAME + 1);
    let desc_too_long = "a".repeat(MAX_PLAN_DESC + 1);
    let long_name = PlanRequest {
        plan_name: Some(&name_too_long),
        ..vendor_sample()
    };
    assert_eq!(
        field_of(long_name.validate(1000, "JPY")),
        "subscription.plan_name"
    );
    let long_desc = PlanRequest {
        plan_desc: Some(&desc_too_long),
        ..vendor_sample()
    };
    assert_eq!(
        field_of(long_desc.validate(1000, "JPY")),
        "subscription.plan_desc"
    );
}

#[test]
fn cycle_type_and_end_type_must_be_known_values() {
    for bad in [None, Some("YEARLY"), Some("monthly")] {
        let request = PlanRequest {
            cycle_type: bad,
            ..vendor_sample()
        };
        assert_eq!(
            field_of(request.validate(1000, "JPY")),
            "subscription.cycle_type"
        );
    }
    for bad in [None, Some("UNLIMITED"), Some("")] {
        let request = PlanRequest {
            subscription_end_type: bad,
            ..vendor_sample()
        };
        assert_eq!(
            field_of(request.validate(1000, "JPY")),
            "subscription.subscription_end_type"
        );
    }
}

#[test]
fn cycle_interval_is_at_most_a_year_in_its_unit() {
    let cases = [
        ("DAYS", 365, true),
        ("DAYS", 366, false),
        ("WEEKLY", 52, true),
        ("WEEKLY", 53, false),
        ("MONTHLY", 12, true),
        ("MONTHLY", 13, false),
        ("MONTHLY", 0, false),
        ("DAYS", -1, false),
    ];
    for (unit, interval, accepted) in cases {
        let request = PlanRequest {
            cycle_type: Some(unit),
            cycle_interval: Some(interval),
            ..vendor_sample()
        };
        let result = request.validate(1000, "JPY");
        if accepted {
            assert!(result.is_ok(), "{unit} × {interval}");
        } else {
            assert_eq!(field_of(result), "subscription.cycle_interval");
        }
    }
    let missing = PlanRequest {
        cycle_interval: None,
        ..vendor_sample()
    };
    assert_eq!(
        field_of(missing.validate(1000, "JPY")),
        "subscription.cycle_interval"
    );
}

#[test]
fn max_cycle_count_is_1_to_1000() {
    for (count, accepted) in [
        (1, true),
        (1000, true),
        (0, false),
        (1001, false),
        (-3, false),
    ] {
        let request = PlanRequest {
            max_cycle_count: Some(count),
            ..vendor_sample()
        };
        let result = request.validate(1000, "JPY");
        assert_eq!(result.is_ok(), accepted, "{count}");
        if !accepted {
            assert_eq!(field_of(result), "subscription.max_cycle_count");
        }
    }
}

#[test]
fn trial_needs_days_and_a_length() {
    let months = PlanRequest {
        trial_period_duration_type: Some("MONTHS"),
        ..vendor_sample()
    };
    assert_eq!(
        field_of(months.validate(1000, "JPY")),
        "subscription.trial_period_duration_type"
    );
    for bad in [None, Some(0), Some(366)] {
        let request = PlanRequest {
            trial_period_duration: bad,
            ..vendor_sample()
        };
        assert_eq!(
            field_of(request.validate(1000, "JPY")),
            "subscription.trial_period_duration"
        );
    }
}

#[test]
fn discount_needs_a_percentage_below_100_and_a_duration() {
    for bad in [None, Some(0), Some(100), Some(-10)] {
        let request = PlanRequest {
            discount_percentage: bad,
            ..vendor_sample()
        };
        assert_eq!(
            field_of(request.validate(1000, "JPY")),
            "subscription.discount_percentage"
        );
    }
    for bad in [None, Some(0), Some(-1)] {
        let request = PlanRequest {
            discount_duration: bad,
            ..vendor_sample()
        };
        assert_eq!(
            field_of(request.validate(1000, "JPY")),
            "subscription.discount_duration"
        );
    }
}

#[test]
fn a_discount_that_leaves_nothing_to_charge_is_refused() {
    let request = PlanRequest {
        discount_percentage: Some(60),
        ..vendor_sample()
    };
    let error = request.validate(1, "JPY").expect_err("1 at 60% is 0");
    assert_eq!(
        error.to_string(),
        "subscription.discount_percentage leaves nothing to charge on an amount of 1"
    );
    assert!(request.validate(3, "JPY").is_ok());
}
