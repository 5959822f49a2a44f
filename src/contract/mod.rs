//! The JSON the checkout component and checkout-server exchange (the browser API).
//!
//! Both sides compile these same types, so a field renamed here is a compile error on the other
//! side rather than a silent mismatch. Amounts are integers in the currency's minor units; the
//! browser displays them and never decides them.

mod absent;
mod browser_info;
mod customer;
mod decline;
mod error;
mod pay;
mod proof;
pub mod routes;
mod session;
mod subscription;

pub use browser_info::{BrowserInfo, ChallengeWindow, clamp_color_depth};
pub use customer::{CustomerSubscriptions, SubscriptionAction};
pub use decline::DeclineCode;
pub use error::{ApiError, ApiErrorBody};
pub use pay::{Address, CardFields, PayRequest, PayResponse, PaymentResult, PaymentState};
pub use proof::{ProofChallenge, ProofOfWork};
pub use session::{BillingField, CheckoutKind, CheckoutView, SavedCard};
pub use subscription::{
    CycleUnit, Discount, PlanTerms, SubscriptionCharge, SubscriptionStatus, SubscriptionView,
};
