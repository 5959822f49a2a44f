//! The reconciler: settling what a lost webhook or an abandoned 3-D Secure left pending, review
//! deadlines, timeouts, several instances.

mod background;
mod instances;
mod lost_webhook;
mod pay_again;
mod review;
mod timeout;
mod unjudged_webhook;
