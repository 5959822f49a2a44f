//! The emulator's shared state: configuration, clock, transactions, tokens, 3DS sessions,
//! faults, webhook log and subscriptions. Cloning it is one `Arc` increment; each part guards
//! its own data, so requests touching different parts do not wait on each other.

use std::ops::Deref;
use std::sync::Arc;

use super::acs::AcsSessions;
use super::auth::Credentials;
use super::clock::SandboxClock;
use super::config::SandboxConfig;
use super::faults::FaultBook;
use super::ledger::Ledger;
use super::persist::ChangeCounter;
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
    /// the [`StateKeeper`](super::persist::StateKeeper).
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
