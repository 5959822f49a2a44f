//! The dashboard's overview (its home page): the chosen range in the merchant's time zone
//! ([`range`]), the figures computed from the store's rollup ([`figures`]), decline reasons
//! ([`reasons`]), monthly recurring revenue ([`recurring`]), the approval rate's trend against
//! the previous period ([`trend`]) and the charts ([`charts`]). The page itself is
//! [`crate::dashboard::pages::overview`].

pub mod charts;
pub mod figures;
pub mod range;
pub mod reasons;
pub mod recurring;
pub mod trend;
