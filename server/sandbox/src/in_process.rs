//! The emulator and the demo shop as checkout-server runs them when no gateway is configured:
//! the emulator under [`PREFIX`] on checkout-server's own listener, the shop on a listener of
//! its own (another origin, so its page embeds the card form across origins exactly as a
//! merchant's shop does). Built from plain values (addresses, keys, the merchant's name and
//! plans) so this crate needs nothing of checkout-server. When the template asks for
//! persistence, [`InProcess::keeper`] writes the emulator's state while the server runs.

use axum::Router;
use checkout::contract::PlanTerms;
use secrecy::SecretString;

use crate::demo::{self, DemoShop, MerchantApi};
use crate::keeper::StateKeeper;
use crate::{SandboxConfig, SandboxState};

/// Where the in-process emulator is mounted.
pub const PREFIX: &str = "/_sandbox";

/// What the in-process pair needs to know of the server it runs in.
#[derive(Debug)]
pub struct Host {
    /// The server's public base URL (browsers reach the 3-D Secure page and the frame there).
    pub public_url: String,
    /// The demo shop's base URL (its own origin); `None`: the emulator alone, no demo shop.
    pub shop_url: Option<String>,
    /// A base URL this process reaches the server at (the shop calls the merchant API there).
    pub internal_url: String,
    /// The gateway credentials the server's client sends (the emulator accepts exactly these).
    pub api_key: SecretString,
    /// The `x-api-key` the client sends.
    pub x_api_key: SecretString,
    /// The merchant's secret key for the merchant API.
    pub merchant_secret_key: SecretString,
    /// `MERCHANT_NAME`.
    pub merchant_name: String,
    /// The plans the server sells.
    pub plans: Vec<PlanTerms>,
    /// The origins allowed to embed the card form (`ALLOWED_ORIGINS`, the demo shop's
    /// included): the pages that may show the 3-D Secure page in a dialog.
    pub shop_origins: Vec<String>,
}

/// The emulator and the shop, ready to mount.
pub struct InProcess {
    /// The emulator's state (tests reach its ledger and clock through it).
    pub state: SandboxState,
    /// The emulator's routes, to nest under [`PREFIX`].
    pub gateway: Router,
    /// The demo shop's routes, to serve at [`Host::shop_url`]; `None` without one.
    pub shop: Option<Router>,
    /// Saves the state to its file (`SandboxConfig::persistence`); `None` when it is kept in
    /// memory only. Hold it while the server runs and [`StateKeeper::finish`] it after a
    /// graceful stop (dropping it also writes the last changes).
    pub keeper: Option<StateKeeper>,
}

impl InProcess {
    /// The emulator configured from `template` with the host's keys and its public URL under
    /// [`PREFIX`], and the demo shop of the host's merchant. Needs a tokio runtime when
    /// `template` asks for persistence (the keeper's task).
    pub fn new(template: SandboxConfig, host: Host) -> Self {
        let state = SandboxState::new(SandboxConfig {
            api_key: host.api_key,
            x_api_key: host.x_api_key,
            // One merchant name everywhere: the issuer's page names the shop the form names.
            merchant_legal_name: host.merchant_name.clone(),
            public_base_url: Some(format!("{}{PREFIX}", host.public_url)),
            acs_frame_ancestors: host.shop_origins,
            ..template
        });
        let shop = host.shop_url.map(|shop_url| {
            demo::router(DemoShop {
                merchant_name: host.merchant_name,
                plans: host.plans,
                merchant_api: MerchantApi::new(host.internal_url, host.merchant_secret_key),
                origin: demo::pages::own_origin(&shop_url),
                checkout_server: host.public_url,
                events: demo::events::Receiver::default(),
            })
        });
        Self {
            gateway: crate::router(state.clone()),
            keeper: StateKeeper::for_state(&state),
            state,
            shop,
        }
    }
}
