//! Reading the server's JSON answers as JS objects, field by field. Hand-written readers cost a
//! fraction of what serde's generic deserializers add to the wasm; browser tests feed them JSON
//! produced by serde from the contract types, so the two cannot drift apart unnoticed.

use crate::card::Brand;
use crate::contract::{
    ApiErrorBody, BillingField, CheckoutKind, CheckoutView, CycleUnit, DeclineCode, Discount,
    PayResponse, PaymentResult, PaymentState, PlanTerms, ProofChallenge, SavedCard,
    SubscriptionCharge, SubscriptionStatus, SubscriptionView,
};
use wasm_bindgen::{JsCast, JsValue};

/// A parsed JSON value (a JS value from `JSON.parse`).
pub struct Json(pub JsValue);

impl Json {
    /// Field `key` (`undefined` when absent or when this is not an object).
    pub fn get(&self, key: &str) -> Json {
        let value = if self.0.is_object() {
            js_sys::Reflect::get(&self.0, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
        } else {
            JsValue::UNDEFINED
        };
        Json(value)
    }

    /// The string at `key`, if it is one.
    pub fn str(&self, key: &str) -> Option<String> {
        self.get(key).0.as_string()
    }

    /// The string at `key`, empty when absent.
    pub fn text(&self, key: &str) -> String {
        self.str(key).unwrap_or_default()
    }

    /// A non-negative integer at `key` (no fractions, at most 2^53).
    pub fn uint(&self, key: &str) -> Option<u64> {
        let number = self.get(key).0.as_f64()?;
        (number >= 0.0 && number.fract() == 0.0 && number <= 9_007_199_254_740_992.0)
            .then_some(number as u64)
    }

    /// The integer at `key` narrowed to `u32`.
    pub fn u32(&self, key: &str) -> Option<u32> {
        self.uint(key).and_then(|n| u32::try_from(n).ok())
    }

    /// The boolean at `key`, false when absent.
    pub fn flag(&self, key: &str) -> bool {
        self.get(key).0.as_bool().unwrap_or(false)
    }

    /// The elements of the array at `key` (none when absent).
    pub fn list(&self, key: &str) -> Vec<Json> {
        match self.get(key).0.dyn_into::<js_sys::Array>() {
            Ok(array) => array.iter().map(Json).collect(),
            Err(_) => Vec::new(),
        }
    }

    /// The elements at `key` that `read` accepts; `None` if any is refused.
    pub fn all<T>(&self, key: &str, read: fn(&Json) -> Option<T>) -> Option<Vec<T>> {
        self.list(key).iter().map(read).collect()
    }
}

/// `CheckoutView`.
pub fn checkout_view(j: &Json) -> Option<CheckoutView> {
    let kind = j.get("kind");
    let kind = match kind.str("type")?.as_str() {
        "payment" => CheckoutKind::Payment,
        "subscription" => CheckoutKind::Subscription {
            plan: plan_terms(&kind.get("plan"))?,
        },
        _ => return None,
    };
    Some(CheckoutView {
        id: j.str("id")?,
        amount: j.uint("amount")?,
        currency: j.str("currency")?,
        currency_exponent: u8::try_from(j.uint("currency_exponent")?).ok()?,
        description: j.str("description"),
        merchant_name: j.str("merchant_name")?,
        kind,
        billing_fields: j.all("billing_fields", |f| billing_field(&f.0.as_string()?))?,
        saved_cards: j.all("saved_cards", saved_card)?,
        can_save_card: j.flag("can_save_card"),
    })
}

fn billing_field(name: &str) -> Option<BillingField> {
    Some(match name {
        "country" => BillingField::Country,
        "email" => BillingField::Email,
        "phone" => BillingField::Phone,
        "address" => BillingField::Address,
        "city" => BillingField::City,
        "state" => BillingField::State,
        "postal_code" => BillingField::PostalCode,
        _ => return None,
    })
}

fn saved_card(j: &Json) -> Option<SavedCard> {
    Some(SavedCard {
        id: j.str("id")?,
        brand: Brand::from_id(&j.str("brand")?)?,
        last4: j.str("last4")?,
        expiry_month: u8::try_from(j.uint("expiry_month")?).ok()?,
        expiry_year: u16::try_from(j.uint("expiry_year")?).ok()?,
        billing_on_file: j.flag("billing_on_file"),
    })
}

/// `PlanTerms`.
pub fn plan_terms(j: &Json) -> Option<PlanTerms> {
    let discount = j.get("discount");
    let discount = match discount.0.is_object() {
        true => Some(Discount {
            percentage: u8::try_from(discount.uint("percentage")?).ok()?,
            cycles: discount.u32("cycles")?,
        }),
        false => None,
    };
    Some(PlanTerms {
        id: j.str("id")?,
        name: j.str("name")?,
        description: j.text("description"),
        amount: j.uint("amount")?,
        currency: j.str("currency")?,
        cycle_unit: match j.str("cycle_unit")?.as_str() {
            "days" => CycleUnit::Days,
            "weeks" => CycleUnit::Weeks,
            "months" => CycleUnit::Months,
            _ => return None,
        },
        cycle_interval: j.u32("cycle_interval")?,
        trial_days: j.u32("trial_days"),
        discount,
        max_cycles: j.u32("max_cycles")?,
    })
}

/// `PayResponse`.
pub fn pay_response(j: &Json) -> Option<PayResponse> {
    match j.str("next_action")?.as_str() {
        "redirect" => Some(PayResponse::Redirect {
            redirect_url: j.str("redirect_url")?,
        }),
        "none" => Some(PayResponse::None {
            result: payment_result(&j.get("result"))?,
        }),
        _ => None,
    }
}

/// `PaymentResult`.
pub fn payment_result(j: &Json) -> Option<PaymentResult> {
    let state = match j.str("state")?.as_str() {
        "created" => PaymentState::Created,
        "pending" => PaymentState::Pending,
        "authorized" => PaymentState::Authorized,
        "captured" => PaymentState::Captured,
        "declined" => PaymentState::Declined,
        "failed" => PaymentState::Failed,
        "partially_refunded" => PaymentState::PartiallyRefunded,
        "refunded" => PaymentState::Refunded,
        "voided" => PaymentState::Voided,
        "needs_review" => PaymentState::NeedsReview,
        "blocked" => PaymentState::Blocked,
        _ => return None,
    };
    let decline = j.str("decline").map(|code| match code.as_str() {
        "do_not_honour" => DeclineCode::DoNotHonour,
        "insufficient_funds" => DeclineCode::InsufficientFunds,
        "expired_card" => DeclineCode::ExpiredCard,
        "lost_or_stolen" => DeclineCode::LostOrStolen,
        "issuer_unavailable" => DeclineCode::IssuerUnavailable,
        "risk_rejected" => DeclineCode::RiskRejected,
        "authentication_failed" => DeclineCode::AuthenticationFailed,
        _ => DeclineCode::Other,
    });
    Some(PaymentResult {
        payment_id: j.str("payment_id")?,
        state,
        amount: j.uint("amount")?,
        currency: j.str("currency")?,
        decline,
        subscription_id: j.str("subscription_id"),
    })
}

/// `SubscriptionView`.
pub fn subscription_view(j: &Json) -> Option<SubscriptionView> {
    Some(SubscriptionView {
        id: j.str("id")?,
        status: match j.str("status")?.as_str() {
            "active" => SubscriptionStatus::Active,
            "paused" => SubscriptionStatus::Paused,
            "cancelled" => SubscriptionStatus::Cancelled,
            "expired" => SubscriptionStatus::Expired,
            _ => return None,
        },
        plan: plan_terms(&j.get("plan"))?,
        completed_cycles: j.u32("completed_cycles")?,
        next_payment_date: j.str("next_payment_date"),
        history: j.all("history", charge)?,
    })
}

fn charge(j: &Json) -> Option<SubscriptionCharge> {
    Some(SubscriptionCharge {
        cycle: j.u32("cycle")?,
        amount: j.uint("amount")?,
        currency: j.str("currency")?,
        succeeded: j.flag("succeeded"),
        date: j.str("date")?,
    })
}

/// A proof-of-work challenge (`error.challenge`).
fn proof_challenge(j: &Json) -> Option<ProofChallenge> {
    Some(ProofChallenge {
        algorithm: j.str("algorithm")?,
        challenge: j.str("challenge")?,
        salt: j.str("salt")?,
        maxnumber: j.uint("maxnumber")?,
        signature: j.str("signature")?,
    })
}

/// The `error` of an `ApiError` body.
pub fn api_error(j: &Json) -> Option<ApiErrorBody> {
    let error = j.get("error");
    Some(ApiErrorBody {
        code: error.str("code")?,
        message: error.text("message"),
        field: error.str("field"),
        challenge: proof_challenge(&error.get("challenge")).map(Box::new),
    })
}
