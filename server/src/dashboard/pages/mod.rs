//! The dashboard's pages, one file each, on a shared [`layout`]; [`filters`] reads the
//! payments list's query, [`format`] and [`timeline`] render what the store keeps, [`qr`]
//! draws the two-factor enrolment's QR code.

pub mod account;
pub mod audit;
pub mod filters;
pub mod format;
pub mod layout;
pub mod login;
pub mod login_code;
pub mod payment;
pub mod payments;
pub mod qr;
pub mod review;
pub mod timeline;
