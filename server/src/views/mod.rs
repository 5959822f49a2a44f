//! JSON shapes of the merchant API, shared by the API that answers with them and the events
//! that carry them to the shop (the browser API's shapes live in `checkout::contract`).

pub mod blocks;
pub mod card_testing;
pub mod cards;
pub mod links;
pub mod merchant;
pub mod subscriptions;
pub mod webhooks;

pub use blocks::{BlockList, BlockView};
pub use card_testing::CardTestingView;
pub use cards::CustomerCard;
pub use links::{PaymentLinkList, PaymentLinkView};
pub use merchant::*;
pub use subscriptions::{MerchantCharge, MerchantSubscription, customer_view};
pub use webhooks::{
    AttemptList, AttemptView, DeliveryView, EndpointList, EndpointView, Redelivered,
};
