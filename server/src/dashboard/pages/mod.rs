//! The dashboard's pages, one file each, on a shared [`layout`]; [`filters`] and
//! [`subscription_filters`] read the lists' queries, [`format`], [`timeline`] and [`health`]
//! render what the store keeps, [`qr`] draws the two-factor enrolment's QR code; the
//! overview keeps its outcome sections in `overview_outcomes`.

pub mod account;
pub mod audit;
pub mod blocks;
pub mod card_testing;
pub mod event;
pub mod events;
pub mod filters;
pub mod format;
pub mod health;
pub mod layout;
pub mod link;
pub mod links;
pub mod login;
pub mod login_code;
pub mod overview;
mod overview_outcomes;
pub mod payment;
pub mod payment_defence;
pub mod payments;
pub mod qr;
pub mod review;
pub mod review_found;
pub mod review_reason;
pub mod risk;
pub mod subscription;
pub mod subscription_filters;
pub mod subscriptions;
pub mod timeline;
pub mod webhook;
pub mod webhooks;
