//! Wire types for every gateway endpoint, shared by checkout-server's client and
//! checkout-sandbox's emulator. Each type follows gateway-interface.md field by field;
//! gateway-notes.md adds `/authorization`, `/capture`, `/refund`, `/void` and the tolerance
//! real traffic needs.
//!
//! Serialisation rules:
//! - request amounts are strings, response amounts numbers ([`RequestAmount`], [`ResponseAmount`]);
//! - fields the contract shows on every form are plain; fields shown on some forms are
//!   `Option` and omitted when `None`; fields it says "may be null" are `Option` written as `null`;
//! - quirky keys (`risk-details`/`risk_details`, `statusCode`/`status_code`) are kept as read;
//! - unknown fields are ignored; unknown enum strings land in `Other(..)`.

mod tolerant_enum;

pub mod address;
pub mod adjustment_request;
pub mod amount;
pub mod browser_info;
pub mod card;
pub mod enums;
pub mod envelope;
pub mod failure;
pub mod payment_details;
pub mod payment_method;
pub mod payment_request;
pub mod return_url;
pub mod scalars;
pub mod subscription;
pub mod subscription_request;
pub mod subscription_response;
pub mod three_ds;
pub mod transaction_response;
pub mod validate;

pub use address::Address;
pub use adjustment_request::{AmountAdjustmentRequest, CaptureRequest, RefundRequest, VoidRequest};
pub use amount::{MinorUnits, RequestAmount, ResponseAmount};
pub use browser_info::BrowserInfo;
pub use card::Card;
pub use enums::{
    CycleType, GatewayResponseType, PaymentMethodType, SubscriptionEndType, SubscriptionEvent,
    SubscriptionPaymentStatus, SubscriptionStatus, TransactionType, TrialPeriodType,
};
pub use envelope::{GatewayResponse, StatusCodeField};
pub use failure::FailureBody;
pub use payment_details::{AdditionalData, PaymentDataSource, PaymentDetails, ResponseCard};
pub use payment_method::PaymentMethod;
pub use payment_request::{PaymentForm, PaymentRequest};
pub use return_url::ReturnUrl;
pub use scalars::{GatewayTimestamp, TransactionRef};
pub use subscription::{SubscriptionDetails, SubscriptionPlan, SubscriptionTransaction};
pub use subscription_request::{SubscriptionPaymentRequest, SubscriptionPlanRequest};
pub use subscription_response::{
    SubscriptionListResponse, SubscriptionManagementResponse, SubscriptionResponse,
    SubscriptionRetrieveResponse,
};
pub use three_ds::ThreeDsInitiationResponse;
pub use transaction_response::{
    BillingDetails, DeviceDetails, MerchantDetails, RiskDetails, TransactionDetails,
    TransactionResponse, WebhookNotification,
};
pub use validate::WireValidationError;

// wire types complete
