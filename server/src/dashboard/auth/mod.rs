//! Who may use the dashboard: staff accounts ([`accounts`]: add, list, disable, shared with
//! the CLI), argon2id passwords ([`password`]), database sessions ([`session`]), CSRF
//! ([`csrf`]), and login limits ([`limits`]: per address here, per account in the store).

pub mod accounts;
pub mod csrf;
pub mod limits;
pub mod login;
pub mod password;
pub mod session;

pub use session::Staff;
