//! The string sets the contract names, each tolerant of values it does not name.
//!
//! Sources: gateway-interface.md ("Transaction response", "Subscription creation request",
//! "Subscription", "Plan", "Subscription transaction", "Errors") and gateway-notes.md
//! (capture/refund/void endpoints).

use super::tolerant_enum::tolerant_enum;

tolerant_enum! {
    /// `transaction_type`: `CAPTURE` and `PRE_AUTH` in the contract; `REFUND` and `VOID`
    /// from gateway-notes.md.
    pub enum TransactionType {
        /// A purchase, or a capture of an authorization.
        Capture => "CAPTURE",
        /// An authorization only (the `/authorization` endpoints).
        PreAuth => "PRE_AUTH",
        /// A refund of a captured amount.
        Refund => "REFUND",
        /// A void of an authorization.
        Void => "VOID",
    }
}

tolerant_enum! {
    /// `gateway_response.type`: `INFO` on informative responses; `ERROR` on failure bodies
    /// (the failure shape is not published; `ERROR` is the emulator's choice).
    pub enum GatewayResponseType {
        /// Informative (success) response.
        Info => "INFO",
        /// Failure response.
        Error => "ERROR",
    }
}

tolerant_enum! {
    /// Billing cycle unit: `subscription.cycle_type` in the request (`DAYS`, `WEEKLY`,
    /// `MONTHLY`) and `billing_cycle_type` in the plan (`DAYS`, `MONTHS`). The contract uses
    /// different spellings on the two sides; both are kept as sent.
    pub enum CycleType {
        /// Every `interval` days.
        Days => "DAYS",
        /// Every `interval` weeks (request spelling).
        Weekly => "WEEKLY",
        /// Every `interval` months (request spelling).
        Monthly => "MONTHLY",
        /// Every `interval` months (plan spelling in responses).
        Months => "MONTHS",
        /// Every `interval` weeks (plan spelling the emulator uses; the contract shows none).
        Weeks => "WEEKS",
    }
}

tolerant_enum! {
    /// `trial_period_duration_type`: `DAYS` in requests; `NONE`, `DAYS` or `MONTHS` in plans.
    pub enum TrialPeriodType {
        /// No trial period (responses only).
        NoTrial => "NONE",
        /// Trial measured in days.
        Days => "DAYS",
        /// Trial measured in months.
        Months => "MONTHS",
    }
}

tolerant_enum! {
    /// `subscription.subscription_end_type` in requests and `subscription_details.type` in
    /// responses: `CYCLE` is the value used; the unlimited type's spelling is not shown.
    pub enum SubscriptionEndType {
        /// Ends after `max_cycle_count` cycles.
        Cycle => "CYCLE",
    }
}

tolerant_enum! {
    /// `subscription_details.status` (contract, "Subscription status").
    pub enum SubscriptionStatus {
        /// Billing on schedule.
        Active => "ACTIVE",
        /// Billing halted until resumed.
        Paused => "PAUSED",
        /// Stopped for good; cannot be resumed.
        Cancelled => "CANCELLED",
        /// Ran its cycles (the text mentions expired subscriptions).
        Expired => "EXPIRED",
    }
}

tolerant_enum! {
    /// `last_payment_status` and subscription transaction `status`: `SUCCESSFUL` seen.
    /// `FAILED` is not shown by the contract; the emulator uses it for a declined cycle.
    pub enum SubscriptionPaymentStatus {
        /// The cycle was charged.
        Successful => "SUCCESSFUL",
        /// The cycle charge was declined (emulator's spelling).
        Failed => "FAILED",
    }
}

tolerant_enum! {
    /// Subscription transaction `event`: `CAPTURED` seen.
    pub enum SubscriptionEvent {
        /// The cycle amount was captured.
        Captured => "CAPTURED",
        /// The cycle charge was declined (emulator's spelling; the contract shows none).
        Declined => "DECLINED",
    }
}

tolerant_enum! {
    /// `payment_method.type`: `scheme` is the only value shown.
    pub enum PaymentMethodType {
        /// A card scheme payment method.
        Scheme => "scheme",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values_round_trip() {
        let parsed: TransactionType = serde_json::from_str("\"PRE_AUTH\"").unwrap();
        assert_eq!(parsed, TransactionType::PreAuth);
        assert_eq!(serde_json::to_string(&parsed).unwrap(), "\"PRE_AUTH\"");
    }

    #[test]
    fn unknown_values_are_kept_verbatim() {
        let parsed: SubscriptionStatus = serde_json::from_str("\"SUSPENDED\"").unwrap();
        assert_eq!(parsed, SubscriptionStatus::Other("SUSPENDED".into()));
        assert_eq!(serde_json::to_string(&parsed).unwrap(), "\"SUSPENDED\"");
    }

    #[test]
    fn non_strings_are_rejected() {
        assert!(serde_json::from_str::<CycleType>("3").is_err());
    }
}
