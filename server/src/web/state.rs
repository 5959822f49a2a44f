//! The router's shared state: configuration, store, gateway client, payment service, the
//! merchant key digest and the tasks that outlive their requests. Cloning is one `Arc`
//! increment; fields are public so new areas (rate limits, metrics, the reconciler) can add
//! what they need beside them.

use std::ops::Deref;
use std::sync::Arc;

use tokio_util::task::TaskTracker;

use super::merchant_key::MerchantKey;
use crate::config::{CardFingerprintKey, Config};
use crate::events::endpoints::{Endpoints, TargetRules};
use crate::gateway::GatewayClient;
use crate::payments::links::{LinkSettings, PaymentLinkService};
use crate::payments::{PaymentService, PaymentSettings, PublicUrls};
use crate::reconcile::ReconcileServices;
use crate::store::Store;
use crate::subscriptions::Subscriptions;

/// Handle to the server's state (the axum router state).
#[derive(Clone)]
pub struct AppState {
    shared: Arc<AppShared>,
}

/// What every handler can reach through [`AppState`]'s `Deref`.
pub struct AppShared {
    /// The configuration the server started with.
    pub config: Config,
    /// This server's public addresses and the shop's landing pages.
    pub urls: PublicUrls,
    /// The database.
    pub store: Arc<dyn Store>,
    /// The gateway client.
    pub gateway: GatewayClient,
    /// Payments: pay, settle, webhook, capture/refund/void.
    pub payments: PaymentService,
    /// Payment links: made by the merchant, a session made when a payer pays one.
    pub links: PaymentLinkService,
    /// Digest of `MERCHANT_SECRET_KEY`.
    pub merchant_key: MerchantKey,
    /// Work that goes on after its request is answered or its client has left (a pay call's
    /// gateway exchange, a webhook being judged): spawn it here, so shutdown waits for it.
    pub tasks: TaskTracker,
}

impl AppState {
    /// State for a server reachable at `public_base_url` (no trailing slash).
    pub fn new(
        config: Config,
        public_base_url: String,
        store: Arc<dyn Store>,
        gateway: GatewayClient,
    ) -> Self {
        let urls = PublicUrls::new(
            public_base_url,
            config.merchant.success_url.clone(),
            config.merchant.decline_url.clone(),
        );
        let payments = PaymentService::new(
            store.clone(),
            gateway.clone(),
            PaymentSettings {
                merchant_id: config.gateway.merchant_id.clone(),
                urls: urls.clone(),
                timing: config.timing,
                plans: config.plans.clone(),
                gateway_timeout: config.gateway.timeout,
                risk: config.risk,
                subscriptions: config.subscriptions,
                card_fingerprint_key: config.card_fingerprint_key.clone().unwrap_or_else(|| {
                    tracing::warn!(
                        "no CARD_FINGERPRINT_KEY was resolved; card fingerprints use a key of \
                         this process only"
                    );
                    CardFingerprintKey::generate()
                }),
            },
        );
        let links = PaymentLinkService::new(
            payments.clone(),
            LinkSettings {
                merchant_name: config.merchant.name.clone(),
                secret_key: config.merchant.secret_key.clone(),
                session_ttl: config.timing.session_ttl,
            },
        );
        Self {
            shared: Arc::new(AppShared {
                merchant_key: MerchantKey::new(&config.merchant.secret_key),
                config,
                urls,
                store,
                gateway,
                payments,
                links,
                tasks: TaskTracker::new(),
            }),
        }
    }
}

impl AppState {
    /// The webhook endpoint operations over this server's store, under its target rules.
    pub fn endpoints(&self) -> Endpoints<'_> {
        Endpoints::new(self.store.as_ref(), TargetRules::from_config(&self.config))
    }

    /// The subscription operations over this server's store, gateway and plans.
    pub fn subscriptions(&self) -> Subscriptions<'_> {
        Subscriptions::new(
            self.store.as_ref(),
            &self.gateway,
            &self.config.plans,
            self.config.ops.subscription_poll,
        )
    }

    /// What a reconciler of this server works with.
    pub fn reconciler_services(&self) -> ReconcileServices {
        ReconcileServices {
            config: self.config.clone(),
            store: self.store.clone(),
            gateway: self.gateway.clone(),
            payments: self.payments.clone(),
        }
    }
}

impl Deref for AppState {
    type Target = AppShared;

    fn deref(&self) -> &AppShared {
        &self.shared
    }
}

impl std::fmt::Debug for AppState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AppState")
            .field("public_base_url", &self.urls.base)
            .field("store", &self.store.backend_name())
            .field("gateway", &self.gateway)
            .finish_non_exhaustive()
    }
}
