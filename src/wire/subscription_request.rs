//! The subscription creation request (gateway-interface.md, "Subscription creation request"):
//! the card form of the payment request without `browser_info`, with `payment_method` and a
//! `subscription` plan object. Body of `POST /subscription/payment`.

use serde::{Deserialize, Serialize};

use super::address::Address;
use super::amount::RequestAmount;
use super::card::Card;
use super::enums::{CycleType, SubscriptionEndType, TrialPeriodType};
use super::payment_method::PaymentMethod;
use super::payment_request::{CommonFields, validate_card, validate_common};
use super::return_url::ReturnUrl;
use super::validate::{self, Validation, WireValidationError};

/// Body of a subscription creation request; the first cycle is charged at once.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubscriptionPaymentRequest {
    /// Amount of each cycle in minor units, sent as a string.
    pub amount: RequestAmount,
    /// Three-letter currency code.
    pub currency: String,
    /// Card details.
    pub card: Card,
    /// Merchant identifier, at most 128 characters.
    pub merchant_id: String,
    /// Cardholder's billing address.
    pub billing_address: Address,
    /// Merchant's transaction reference, at most 45 characters.
    pub merchant_txn_ref: String,
    /// Cardholder's IP address, at most 45 characters.
    pub customer_ip: String,
    /// Return addresses (needed when the card goes through 3D Secure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub return_url: Option<ReturnUrl>,
    /// Optional shipping address.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shipping_address: Option<Address>,
    /// Region/city time zone, at most 128 characters.
    pub time_zone: String,
    /// `{type: "scheme", store_payment_method}`.
    pub payment_method: PaymentMethod,
    /// The plan.
    pub subscription: SubscriptionPlanRequest,
}

/// The `subscription` object of the creation request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubscriptionPlanRequest {
    /// Plan name.
    pub plan_name: String,
    /// Plan description.
    pub plan_desc: String,
    /// `DAYS`, `WEEKLY` or `MONTHLY`.
    pub cycle_type: CycleType,
    /// `CYCLE` is the value used.
    pub subscription_end_type: SubscriptionEndType,
    /// Cycle units between billings.
    pub cycle_interval: u32,
    /// Maximum number of billing cycles.
    pub max_cycle_count: u32,
    /// Whether a trial period is offered.
    pub has_trial_period: bool,
    /// `DAYS` is the value used.
    pub trial_period_duration_type: TrialPeriodType,
    /// Length of the trial period.
    pub trial_period_duration: u32,
    /// Whether a discount applies.
    pub has_discount: bool,
    /// Discount percentage (0 to 100).
    pub discount_percentage: u32,
    /// Number of billing cycles the discount lasts.
    pub discount_duration: u32,
}

impl SubscriptionPaymentRequest {
    /// Checks the contract's limits, the card shape and the plan's numbers.
    pub fn validate(&self) -> Validation {
        validate_common(&CommonFields {
            amount: self.amount,
            currency: &self.currency,
            merchant_id: &self.merchant_id,
            merchant_txn_ref: &self.merchant_txn_ref,
            customer_ip: &self.customer_ip,
            time_zone: &self.time_zone,
        })?;
        validate_card(&self.card)?;
        if self.payment_method.stored_payment_method_id.is_some() {
            return Err(WireValidationError::new(
                "payment_method.stored_payment_method_id",
                "is not used when creating a subscription",
            ));
        }
        let plan = &self.subscription;
        validate::bounded("subscription.plan_name", &plan.plan_name, 128)?;
        if plan.cycle_interval == 0 {
            return Err(WireValidationError::new(
                "subscription.cycle_interval",
                "must be at least 1",
            ));
        }
        if plan.max_cycle_count == 0 {
            return Err(WireValidationError::new(
                "subscription.max_cycle_count",
                "must be at least 1",
            ));
        }
        if plan.has_trial_period && plan.trial_period_duration == 0 {
            return Err(WireValidationError::new(
                "subscription.trial_period_duration",
                "must be at least 1 when has_trial_period is true",
            ));
        }
        if plan.discount_percentage > 100 {
            return Err(WireValidationError::new(
                "subscription.discount_percentage",
                "must be between 0 and 100",
            ));
        }
        Ok(())
    }
}
