//! The dashboard's pages, one file each, on a shared [`layout`]; [`filters`] reads the
//! payments list's query, [`format`] and [`timeline`] render what the store keeps.

pub mod audit;
pub mod filters;
pub mod format;
pub mod layout;
pub mod login;
pub mod overview;
pub mod payment;
pub mod payments;
pub mod review;
pub mod timeline;
