//! Who may use the dashboard: staff accounts ([`accounts`]: add, list, disable, reset-2fa,
//! shared with the CLI), argon2id passwords ([`password`]) under a bound on hashes at once
//! ([`hash_gate`], each permit lending its reused memory: [`work_areas`]), database sessions ([`session`]), CSRF ([`csrf`]), sign-in limits
//! ([`limits`]: per address and in all here, per account in the store, each guess reserved
//! before it is checked: [`attempt`]),
//! and optional two-factor sign-in: TOTP codes ([`totp`]), recovery codes ([`recovery`]),
//! enrolment ([`enrolment`]), the half-logged-in state between password and code
//! ([`challenge`]), the code step ([`second_step`]) and `DASHBOARD_REQUIRE_2FA`
//! ([`required`]).

pub mod accounts;
pub mod attempt;
pub mod challenge;
pub mod csrf;
pub mod enrolment;
pub mod hash_gate;
pub mod limits;
pub mod login;
pub mod password;
pub mod recovery;
pub mod required;
pub mod second_step;
pub mod session;
pub mod totp;
pub mod work_areas;

pub use required::Enrolling;
pub use session::Staff;
