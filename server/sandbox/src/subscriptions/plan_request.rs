//! Validation of the `subscription` object of a creation request into [`PlanTerms`].
//!
//! The contract gives no limits; the emulator's (documented in docs/sandbox.md):
//! - `plan_name` required, 1..=128 characters, not blank; `plan_desc` optional, ≤ 512.
//! - `cycle_type` `DAYS` | `WEEKLY` | `MONTHLY`; `cycle_interval` 1..=365 days, 52 weeks or
//!   12 months (at most a year between billings).
//! - `subscription_end_type` required and `CYCLE` (the only value the contract shows).
//! - `max_cycle_count` 1..=1000.
//! - `has_trial_period` (default false): when true, `trial_period_duration_type` `DAYS` and
//!   `trial_period_duration` 1..=365; the trial fields are ignored when it is false.
//! - `has_discount` (default false): when true, `discount_percentage` 1..=99 and
//!   `discount_duration` ≥ 1, and the discounted cycle must still cost at least one minor
//!   unit; the discount fields are ignored when it is false.

use super::cadence::{Cadence, CycleType};
use super::error::SubscriptionError;
use super::terms::{Discount, PlanTerms, discounted_amount};

/// Longest accepted `plan_name`, in characters.
pub const MAX_PLAN_NAME: usize = 128;
/// Longest accepted `plan_desc`, in characters.
pub const MAX_PLAN_DESC: usize = 512;
/// Largest accepted `max_cycle_count`.
pub const MAX_CYCLE_COUNT: i64 = 1000;
/// Longest accepted trial, in days.
pub const MAX_TRIAL_DAYS: i64 = 365;

/// The `subscription` object as received, before validation. Numbers are wide and signed
/// so that a negative or huge value gets a message naming its field.
#[derive(Debug, Clone, Default)]
pub struct PlanRequest<'a> {
    /// `plan_name`.
    pub plan_name: Option<&'a str>,
    /// `plan_desc`.
    pub plan_desc: Option<&'a str>,
    /// `cycle_type`.
    pub cycle_type: Option<&'a str>,
    /// `subscription_end_type`.
    pub subscription_end_type: Option<&'a str>,
    /// `cycle_interval`.
    pub cycle_interval: Option<i64>,
    /// `max_cycle_count`.
    pub max_cycle_count: Option<i64>,
    /// `has_trial_period`.
    pub has_trial_period: Option<bool>,
    /// `trial_period_duration_type`.
    pub trial_period_duration_type: Option<&'a str>,
    /// `trial_period_duration`.
    pub trial_period_duration: Option<i64>,
    /// `has_discount`.
    pub has_discount: Option<bool>,
    /// `discount_percentage`.
    pub discount_percentage: Option<i64>,
    /// `discount_duration`.
    pub discount_duration: Option<i64>,
}

impl PlanRequest<'_> {
    /// Checks every field and builds the terms. `amount` (minor units, ≥ 1) and `currency`
    /// come from the top level of the request, already validated by the caller.
    pub fn validate(&self, amount: u64, currency: &str) -> Result<PlanTerms, SubscriptionError> {
        let name = text(
            "subscription.plan_name",
            self.plan_name,
            MAX_PLAN_NAME,
            true,
        )?;
        let description = text(
            "subscription.plan_desc",
            self.plan_desc,
            MAX_PLAN_DESC,
            false,
        )?;
        let unit = match self.cycle_type {
            None => return Err(missing("subscription.cycle_type")),
            Some(value) => CycleType::from_request(value).ok_or_else(|| {
                SubscriptionError::field(
                    "subscription.cycle_type",
                    "must be one of DAYS, WEEKLY, MONTHLY",
                )
            })?,
        };
        match self.subscription_end_type {
            None => return Err(missing("subscription.subscription_end_type")),
            Some("CYCLE") => {}
            Some(_) => {
                return Err(SubscriptionError::field(
                    "subscription.subscription_end_type",
                    "must be CYCLE",
                ));
            }
        }
        let interval = ranged(
            "subscription.cycle_interval",
            self.cycle_interval,
            i64::from(unit.max_interval()),
        )?;
        let max_cycle_count = ranged(
            "subscription.max_cycle_count",
            self.max_cycle_count,
            MAX_CYCLE_COUNT,
        )?;
        Ok(PlanTerms {
            name,
            description,
            cadence: Cadence { unit, interval },
            amount,
            currency: currency.to_owned(),
            max_cycle_count,
            trial_days: self.trial()?,
            discount: self.discount(amount)?,
        })
    }

    fn trial(&self) -> Result<Option<u32>, SubscriptionError> {
        if self.has_trial_period != Some(true) {
            return Ok(None);
        }
        match self.trial_period_duration_type {
            None => return Err(missing("subscription.trial_period_duration_type")),
            Some("DAYS") => {}
            Some(_) => {
                return Err(SubscriptionError::field(
                    "subscription.trial_period_duration_type",
                    "must be DAYS",
                ));
            }
        }
        ranged(
            "subscription.trial_period_duration",
            self.trial_period_duration,
            MAX_TRIAL_DAYS,
        )
        .map(Some)
    }

    fn discount(&self, amount: u64) -> Result<Option<Discount>, SubscriptionError> {
        if self.has_discount != Some(true) {
            return Ok(None);
        }
        let percentage = ranged(
            "subscription.discount_percentage",
            self.discount_percentage,
            99,
        )?;
        let percentage = u8::try_from(percentage).map_err(|_| {
            SubscriptionError::field("subscription.discount_percentage", "must be 1..=99")
        })?;
        if discounted_amount(amount, percentage) == 0 {
            return Err(SubscriptionError::field(
                "subscription.discount_percentage",
                format!("leaves nothing to charge on an amount of {amount}"),
            ));
        }
        let duration = ranged(
            "subscription.discount_duration",
            self.discount_duration,
            i64::from(u32::MAX),
        )?;
        Ok(Some(Discount {
            percentage,
            duration,
        }))
    }
}

fn missing(field: &'static str) -> SubscriptionError {
    SubscriptionError::field(field, "is required")
}

/// A required integer in 1..=`max`.
fn ranged(field: &'static str, value: Option<i64>, max: i64) -> Result<u32, SubscriptionError> {
    let value = value.ok_or_else(|| missing(field))?;
    if !(1..=max).contains(&value) {
        return Err(SubscriptionError::field(
            field,
            format!("must be between 1 and {max}, got {value}"),
        ));
    }
    u32::try_from(value)
        .map_err(|_| SubscriptionError::field(field, format!("must be between 1 and {max}")))
}

/// A text field of at most `max` characters; required ones must not be blank.
fn text(
    field: &'static str,
    value: Option<&str>,
    max: usize,
    required: bool,
) -> Result<String, SubscriptionError> {
    let value = value.unwrap_or_default();
    if required && value.trim().is_empty() {
        return Err(missing(field));
    }
    if value.chars().count() > max {
        return Err(SubscriptionError::field(
            field,
            format!("must be at most {max} characters"),
        ));
    }
    Ok(value.to_owned())
}

#[cfg(test)]
#[path = "plan_request_tests.rs"]
mod tests;
