//! The emulator's shared state: configuration, clock, transactions, tokens, 3DS sessions,
//! faults, webhook log and subscriptions. Cloning it is one `Arc` increment; each part guards
//! its own data, so requests touching different parts do not wait on each other.

use std::ops::Deref;
use std::sync::Arc;

use super::acs_sessions::AcsSessions;
use super::changes::ChangeCounter;
use super::clock::SandboxClock;
use super::config::SandboxConfig;
use super::credentials::Credentials;
use super::faults::FaultBook;
use super::ledger::Ledger;
use super::persist::StateSnapshot;
use super::subscriptions::SubscriptionBook;
use super::tokens::TokenVault;
use super::velocity::VelocityTracker;
use super::webhook::WebhookSender;

/// Handle to one emulator's state (the axum router state).
#[derive(Debug, Clone)]
pub struct SandboxState {
    shared: Arc<SandboxShared>,
}

/// The parts of the state; reached through [`SandboxState`]'s `Deref`
/// (`state.ledger`, `state.clock`, `state.subscriptions`).
pub struct SandboxShared {
    /// The run's configuration.
    pub config: SandboxConfig,
    /// The keys accepted.
    pub credentials: Credentials,
    /// The sandbox clock.
    pub clock: SandboxClock,
    /// Recorded transactions.
    pub ledger: Ledger,
    /// Stored cards.
    pub tokens: TokenVault,
    /// Recent card uses for the velocity rule.
    pub velocity: VelocityTracker,
    /// 3DS sessions.
    pub acs: AcsSessions,
    /// Armed faults.
    pub faults: FaultBook,
    /// Webhook delivery and its log.
    pub webhooks: WebhookSender,
    /// Subscriptions.
    pub subscriptions: SubscriptionBook,
    /// Changes to what persists (ledger, tokens, subscriptions, 3DS sessions), counted for
    /// the [`StateKeeper`](super::keeper::StateKeeper).
    pub changes: ChangeCounter,
}

impl SandboxState {
    /// Fresh state for `config`, with its default faults armed and a clock at real time.
    pub fn new(config: SandboxConfig) -> Self {
        Self::with_clock(config, SandboxClock::new())
    }

    /// Fresh state using `clock` (shared with whoever else holds it), holding what
    /// `config.persistence` restored, if anything.
    pub fn with_clock(config: SandboxConfig, clock: SandboxClock) -> Self {
        let credentials = Credentials::new(&config.api_key, &config.x_api_key);
        let faults = FaultBook::new(config.default_faults.clone());
        let changes = ChangeCounter::default();
        let restored = config
            .persistence
            .as_ref()
            .and_then(|persistence| persistence.restored.clone());
        let state = Self {
            shared: Arc::new(SandboxShared {
                config,
                credentials,
                clock,
                ledger: Ledger::with_changes(changes.clone()),
                tokens: TokenVault::with_changes(changes.clone()),
                velocity: VelocityTracker::default(),
                acs: AcsSessions::with_changes(changes.clone()),
                faults,
                webhooks: WebhookSender::default(),
                subscriptions: SubscriptionBook::with_changes(changes.clone()),
                changes,
            }),
        };
        if let Some(snapshot) = restored {
            snapshot.restore_into(&state);
        }
        state
    }
}

impl std::fmt::Debug for SandboxShared {
    /// A summary: the parts hold card snapshots and large maps, not worth printing whole.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxShared")
            .field("public_base_url", &self.config.public_base_url)
            .field("clock_offset", &self.clock.offset())
            .field("transactions", &self.ledger.len())
            .field("stored_cards", &self.tokens.len())
            .finish_non_exhaustive()
    }
}

impl Deref for SandboxState {
    type Target = SandboxShared;

    fn deref(&self) -> &SandboxShared {
        &self.shared
    }
}

/// The snapshot taken of a running state, and put back into a new one (`persist` keeps only
/// the value; this side knows the parts).
impl StateSnapshot {
    /// A copy of what persists of `state`, taken part by part (each under its own lock).
    pub fn capture(state: &SandboxShared) -> Self {
        let offset = state.clock.offset().whole_nanoseconds();
        Self {
            clock_offset_nanos: i64::try_from(offset).unwrap_or(i64::MAX),
            next_reference: state.ledger.peek_next_reference(),
            transactions: state.ledger.all(),
            stored_cards: state.tokens.entries(),
            subscriptions: state.subscriptions.all(),
            acs_sessions: state.acs.undecided(),
        }
    }

    /// Puts this snapshot into a freshly created `state`.
    pub fn restore_into(&self, state: &SandboxShared) {
        state
            .clock
            .advance(time::Duration::nanoseconds(self.clock_offset_nanos));
        state
            .ledger
            .restore(self.transactions.iter().cloned(), self.next_reference);
        state.tokens.restore(self.stored_cards.iter().cloned());
        for subscription in &self.subscriptions {
            state.subscriptions.insert(subscription.clone());
        }
        state.acs.restore(self.acs_sessions.iter().cloned());
    }
}
