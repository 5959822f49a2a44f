//! Subscription sign-ups (issue 46): each `subscription/payment` call is recorded before it is
//! made, tied to its payment, so a sign-up whose answer the gateway processed but never
//! delivered is found again in the gateway's list instead of forgotten, and so a customer
//! cannot start a second sign-up to a plan while one is still open.

use async_trait::async_trait;
use time::{Duration, OffsetDateTime};

use super::error::StoreResult;

/// Where a sign-up stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignupState {
    /// Its call runs, or its outcome is unknown: the reconciler looks for it once due.
    Open,
    /// The subscription it made is recorded.
    Recorded,
    /// The gateway made no subscription (declined, refused, or proven absent from its list).
    Failed,
    /// Its subscription could not be told apart from another: a person decides.
    Review,
}

impl SignupState {
    /// Stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Open => "open",
            Self::Recorded => "recorded",
            Self::Failed => "failed",
            Self::Review => "review",
        }
    }

    /// Reads a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Open, Self::Recorded, Self::Failed, Self::Review]
            .into_iter()
            .find(|state| state.as_str() == name)
    }
}

/// A sign-up about to call the gateway.
#[derive(Clone, Debug)]
pub struct NewSignup {
    /// Its payment (recorded `pending` already).
    pub payment_id: String,
    /// The subscription session.
    pub session_id: String,
    /// The customer, if the session names one: at most one open sign-up per customer and plan.
    pub customer_id: Option<String>,
    /// The plan.
    pub plan_id: String,
    /// When the gateway call starts.
    pub called_at: OffsetDateTime,
    /// When the reconciler may look for it if nobody closes it first: after the call's time
    /// limit, when its outcome can no longer come.
    pub check_at: OffsetDateTime,
    /// Whether the shop lets a customer hold several live subscriptions to one plan
    /// (`SUBSCRIPTION_SEVERAL_PER_PLAN`); otherwise a live one refuses the sign-up.
    pub several_per_plan: bool,
}

/// A stored sign-up.
#[derive(Clone, Debug)]
pub struct Signup {
    /// Its payment's id.
    pub id: String,
    /// The subscription session.
    pub session_id: String,
    /// The customer.
    pub customer_id: Option<String>,
    /// The plan.
    pub plan_id: String,
    /// Where it stands.
    pub state: SignupState,
    /// When its gateway call started.
    pub called_at: OffsetDateTime,
    /// The subscription it made, once recorded.
    pub subscription_id: Option<String>,
    /// Why it is in review (or failed): what the list showed.
    pub note: Option<String>,
    /// When the reconciler looks at it next (open sign-ups only).
    pub next_check_at: Option<OffsetDateTime>,
    /// Recorded.
    pub created_at: OffsetDateTime,
    /// Last changed.
    pub updated_at: OffsetDateTime,
}

/// Why a sign-up may not start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignupBlock {
    /// The customer has a sign-up to this plan whose outcome is not known yet.
    Pending,
    /// The customer has a live (active or paused) subscription to this plan.
    Live,
}

/// What [`SignupStore::open_signup`] did.
#[derive(Clone, Debug)]
pub enum SignupOpened {
    /// Recorded, open.
    Opened(Box<Signup>),
    /// Refused, nothing written.
    Refused(SignupBlock),
}

/// How an open sign-up ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SignupEnd {
    /// Its subscription (the server's id) is recorded.
    Recorded(String),
    /// No subscription was made; why.
    Failed(String),
    /// Ambiguous; what a person must look at.
    Review(String),
}

/// Sign-ups.
#[async_trait]
pub trait SignupStore: Send + Sync {
    /// Whether `customer_id` may sign up to `plan_id` now (a read; [`open_signup`] decides
    /// atomically).
    ///
    /// [`open_signup`]: SignupStore::open_signup
    async fn signup_block(
        &self,
        customer_id: &str,
        plan_id: &str,
        several_per_plan: bool,
    ) -> StoreResult<Option<SignupBlock>>;
    /// Records `new` as open in one statement, unless its customer already has an open sign-up
    /// to the plan or (without `several_per_plan`) a live subscription to it: then nothing is
    /// written. Of two concurrent sign-ups of one customer to one plan, one is refused.
    async fn open_signup(&self, new: NewSignup) -> StoreResult<SignupOpened>;
    /// An open sign-up's call ended with its outcome unknown: due for the reconciler at `due`.
    async fn signup_outcome_unknown(&self, id: &str, due: OffsetDateTime) -> StoreResult<bool>;
    /// Ends an open sign-up (compare-and-set: `false` when it was no longer open).
    async fn end_signup(&self, id: &str, end: SignupEnd) -> StoreResult<bool>;
    /// The sign-up of payment `id`.
    async fn get_signup(&self, id: &str) -> StoreResult<Option<Signup>>;
    /// Leases up to `limit` open sign-ups whose check is due, oldest due first.
    async fn claim_due_signups(
        &self,
        now: OffsetDateTime,
        owner: &str,
        lease: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Signup>>;
    /// Gives a sign-up's lease back and sets when it is due again (`None` keeps the time).
    async fn release_signup(
        &self,
        id: &str,
        owner: &str,
        next_check_at: Option<OffsetDateTime>,
    ) -> StoreResult<bool>;
    /// Open sign-ups, oldest first, at most `limit`.
    async fn open_signups(&self, limit: u32) -> StoreResult<Vec<Signup>>;
    /// Sign-ups in review, oldest first, at most `limit`.
    async fn signups_in_review(&self, limit: u32) -> StoreResult<Vec<Signup>>;
}
