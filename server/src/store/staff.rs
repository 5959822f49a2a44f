//! The merchant dashboard's records: staff accounts, their sessions and the append-only audit
//! log (migration `0005_dashboard`). The store keeps no password and no session token: an
//! argon2id PHC string for the one, a [`SecretHash`] for the other. Policy (how long a
//! session lives, how many failures lock an account) is the caller's; the store applies it
//! in single statements so two instances agree.

use async_trait::async_trait;
use secrecy::SecretString;
use time::{Duration, OffsetDateTime};

use super::error::StoreResult;
use super::secret::SecretHash;

/// What a staff member may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StaffRole {
    /// Reads payments.
    Viewer,
    /// Also captures, refunds and voids.
    Operator,
    /// Also rotates webhook secrets, changes the block lists and reads the audit log.
    Admin,
}

impl StaffRole {
    /// Every role, least first.
    pub const ALL: [StaffRole; 3] = [Self::Viewer, Self::Operator, Self::Admin];

    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Viewer => "viewer",
            Self::Operator => "operator",
            Self::Admin => "admin",
        }
    }

    /// Reads a stored (or typed) name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|role| role.as_str() == name)
    }
}

/// A staff account.
#[derive(Clone, Debug)]
pub struct StaffUser {
    /// Account id (a UUID).
    pub id: String,
    /// Login name, lower case.
    pub email: String,
    /// What the account may do.
    pub role: StaffRole,
    /// The argon2id PHC string (never the password).
    pub password_hash: String,
    /// Guesses at its proof since the last success or lock (each counted before it is checked).
    pub failed_logins: u32,
    /// No login before this.
    pub locked_until: Option<OffsetDateTime>,
    /// Disabled accounts cannot log in and have no session.
    pub disabled_at: Option<OffsetDateTime>,
    /// Created.
    pub created_at: OffsetDateTime,
    /// The TOTP secret (base32) once two-factor sign-in is confirmed.
    pub totp_secret: Option<SecretString>,
    /// A TOTP secret offered on the account page, not yet confirmed by a code.
    pub totp_pending_secret: Option<SecretString>,
}

impl StaffUser {
    /// Whether a login needs a code after the password.
    pub fn has_two_factor(&self) -> bool {
        self.totp_secret.is_some()
    }

    /// Whether a login may be tried at `now`.
    pub fn locked_at(&self, now: OffsetDateTime) -> bool {
        self.locked_until.is_some_and(|until| until > now)
    }
}

/// A session to record at login.
#[derive(Clone, Debug)]
pub struct NewStaffSession {
    /// Hash of the cookie's token.
    pub token_hash: SecretHash,
    /// Whose.
    pub staff_id: String,
    /// Now.
    pub created_at: OffsetDateTime,
    /// Its absolute end.
    pub expires_at: OffsetDateTime,
}

/// One line of the audit log to append.
#[derive(Clone, Debug)]
pub struct NewAuditEntry {
    /// The account that acted (`None`: a login attempt for no known account).
    pub staff_id: Option<String>,
    /// Its login name (kept as written, so the line stays readable if the account goes).
    pub staff_email: String,
    /// `login`, `login_failed`, `logout`, `refund`, `capture`, `void`, ...
    pub action: String,
    /// The payment acted on.
    pub payment_id: Option<String>,
    /// Another object acted on: `subscription`, `webhook_endpoint`, `event`.
    pub object_type: Option<String>,
    /// Its id.
    pub object_id: Option<String>,
    /// Minor units moved or asked for.
    pub amount: Option<u64>,
    /// Its currency.
    pub currency: Option<String>,
    /// The client's address.
    pub address: Option<String>,
    /// `ok`, or the refusal's code.
    pub outcome: String,
    /// A short human note (never a secret).
    pub detail: Option<String>,
}

impl NewAuditEntry {
    /// What a `checkout-server` command (not a web request: no address) did: to the account
    /// `staff_id` known by `staff_email`, or to no account (`None`, `(command line)`).
    pub fn of_command(
        account: Option<(&str, &str)>,
        action: &str,
        outcome: &str,
        detail: String,
    ) -> Self {
        Self {
            staff_id: account.map(|(id, _)| id.to_owned()),
            staff_email: account
                .map_or("(command line)", |(_, email)| email)
                .to_owned(),
            action: action.to_owned(),
            payment_id: None,
            object_type: None,
            object_id: None,
            amount: None,
            currency: None,
            address: None,
            outcome: outcome.to_owned(),
            detail: Some(detail),
        }
    }
}

/// A stored line of the audit log.
#[derive(Clone, Debug)]
pub struct AuditEntry {
    /// Increasing id.
    pub id: i64,
    /// When.
    pub at: OffsetDateTime,
    /// What was appended.
    pub entry: NewAuditEntry,
}

/// Staff accounts and sessions.
#[async_trait]
pub trait StaffStore: Send + Sync {
    /// Creates an account; a taken e-mail is a `Conflict`.
    async fn create_staff(
        &self,
        email: &str,
        role: StaffRole,
        password_hash: &str,
    ) -> StoreResult<StaffUser>;
    /// The account with this e-mail (lower case).
    async fn staff_by_email(&self, email: &str) -> StoreResult<Option<StaffUser>>;
    /// The id of the account with this e-mail, without opening its TOTP keys (so it answers
    /// even when they were sealed under a key no longer configured).
    async fn staff_id_by_email(&self, email: &str) -> StoreResult<Option<String>>;
    /// Every account, by e-mail.
    async fn list_staff(&self) -> StoreResult<Vec<StaffUser>>;
    /// Replaces an enabled account's password hash, clears its lock and ends its sessions and
    /// half-finished logins; whether an enabled account had that e-mail (a disabled one is left
    /// as it is: only staff enable an account).
    async fn reset_staff_password(&self, email: &str, password_hash: &str) -> StoreResult<bool>;
    /// Disables an account and ends its sessions; whether it existed.
    async fn disable_staff(&self, email: &str, now: OffsetDateTime) -> StoreResult<bool>;
    /// Reserves one guess at the account's proof before it is checked, in one statement: unless
    /// the account is disabled or locked at `now`, counts the guess as a failure (at the
    /// `max`-th in a row the account is locked until `now + lock` and the count starts again)
    /// and returns the account as it is afterwards; otherwise `None`, and nothing changes.
    async fn reserve_login_attempt(
        &self,
        staff_id: &str,
        now: OffsetDateTime,
        max: u32,
        lock: Duration,
    ) -> StoreResult<Option<StaffUser>>;
    /// Forgets the failed logins of an account (a right proof), and lifts its lock if it is
    /// still `own_lock` (the `locked_until` the right guess's own reservation set).
    async fn clear_login_failures(
        &self,
        staff_id: &str,
        own_lock: Option<OffsetDateTime>,
    ) -> StoreResult<()>;
    /// Gives back one reserved guess whose proof was right but is not the whole login (a
    /// password before the code): the count goes down by one, or, when that guess's own
    /// reservation locked the account (`own_lock` still its `locked_until`), the lock is lifted
    /// and the count is `max - 1` again.
    async fn release_login_attempt(
        &self,
        staff_id: &str,
        own_lock: Option<OffsetDateTime>,
        max: u32,
    ) -> StoreResult<()>;
    /// Records a session.
    async fn create_staff_session(&self, session: NewStaffSession) -> StoreResult<()>;
    /// The enabled account whose session `token_hash` is, if the session is live at `now`
    /// (before its absolute end, and seen less than `idle` ago); marks it seen at `now`.
    async fn touch_staff_session(
        &self,
        token_hash: &SecretHash,
        now: OffsetDateTime,
        idle: Duration,
    ) -> StoreResult<Option<StaffUser>>;
    /// Ends a session; whether it existed.
    async fn end_staff_session(&self, token_hash: &SecretHash) -> StoreResult<bool>;
    /// Deletes at most `limit` sessions that [`StaffStore::touch_staff_session`] would refuse
    /// at `now` (past their absolute end, or not seen for `idle`); how many it deleted.
    async fn delete_expired_staff_sessions(
        &self,
        now: OffsetDateTime,
        idle: Duration,
        limit: u32,
    ) -> StoreResult<u64>;
}

/// The append-only audit log.
#[async_trait]
pub trait AuditStore: Send + Sync {
    /// Appends a line, stamped `now`.
    async fn append_audit(&self, entry: NewAuditEntry, now: OffsetDateTime) -> StoreResult<i64>;
    /// Lines newest first, `limit` of them before id `before`.
    async fn list_audit(&self, before: Option<i64>, limit: u32) -> StoreResult<Vec<AuditEntry>>;
    /// A payment's lines, oldest first.
    async fn payment_audit(&self, payment_id: &str) -> StoreResult<Vec<AuditEntry>>;
    /// The lines about another object (a subscription, an endpoint, an event), oldest first.
    async fn object_audit(&self, object_id: &str) -> StoreResult<Vec<AuditEntry>>;
}
