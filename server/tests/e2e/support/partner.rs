//! The rig of the scenarios that need the shop on another origin: a partner site serving the
//! component and its pages, a checkout server allowing that origin and sending customers back
//! to it, and the merchant and emulator views. For the fault scenarios the emulator runs in a
//! process of its own, so it keeps its state (the charge) while the checkout server is killed.

use serde_json::json;

use super::embed_pages::{checkout_page, isolated_page, landing_page};
use super::framing_pages::{direct_page, framed_page, outer_page, poster_page};
use super::merchant::{Emulator, Merchant};
use super::server::{Process, ServeOptions};
use super::site::{Bundle, StaticSite, dist};

/// Partner site + checkout server (+ emulator process).
pub struct PartnerRig {
    /// The partner's site (second origin).
    pub partner: StaticSite,
    /// `checkout-server serve`.
    pub server: Process,
    /// `checkout-server sandbox`, when the emulator runs on its own (kept alive here).
    _emulator_process: Option<Process>,
    /// The merchant API.
    pub merchant: Merchant,
    /// The emulator's control API.
    pub emulator: Emulator,
}

/// Where the emulator runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmulatorAt {
    /// Inside the checkout server (`/_sandbox`).
    InProcess,
    /// In its own `checkout-server sandbox` process; `hang_seconds` for the hanging card.
    OwnProcess {
        /// How long the hanging test card takes.
        hang_seconds: u64,
    },
}

impl PartnerRig {
    /// Starts everything; `env` is added to the checkout server's environment.
    pub fn start(emulator_at: EmulatorAt, env: Vec<(String, String)>) -> Self {
        let dist = dist();
        let bundle = Bundle::find(&dist);
        let partner = StaticSite::start(
            &dist,
            vec![
                ("/embed.html", checkout_page(&bundle)),
                ("/done.html", landing_page()),
                ("/isolated.html", isolated_page()),
                ("/framed.html", framed_page()),
                ("/outer.html", outer_page()),
                ("/direct.html", direct_page()),
                ("/poster.html", poster_page()),
            ],
        );
        let emulator_process = match emulator_at {
            EmulatorAt::InProcess => None,
            EmulatorAt::OwnProcess { hang_seconds } => Some(Process::sandbox(hang_seconds)),
        };
        let mut server_env = vec![
            ("ALLOWED_ORIGINS".to_owned(), partner.base.clone()),
            (
                "SUCCESS_URL".to_owned(),
                format!("{}/done.html", partner.base),
            ),
            (
                "DECLINE_URL".to_owned(),
                format!("{}/done.html", partner.base),
            ),
        ];
        server_env.extend(env);
        let server = Process::serve(ServeOptions {
            // What the emulator's banner tells a user to set.
            gateway: emulator_process.as_ref().map(|p| {
                let line = p.banner("GATEWAY_BASE_URL=");
                line.split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_owned()
            }),
            env: server_env,
        });
        let emulator = match &emulator_process {
            Some(process) => Emulator::new(&process.base),
            None => Emulator::new(&format!("{}/_sandbox", server.base)),
        };
        Self {
            merchant: Merchant::new(&server.base),
            partner,
            server,
            _emulator_process: emulator_process,
            emulator,
        }
    }

    /// A one-off session (purchase) of `amount` minor units of `currency`:
    /// `(session_id, client_secret, reference)`.
    pub async fn session(
        &self,
        amount: u64,
        currency: &str,
        label: &str,
    ) -> (String, String, String) {
        let reference = format!(
            "e2e-{label}-{}",
            &uuid::Uuid::new_v4().simple().to_string()[..8]
        );
        let (id, secret) = self
            .merchant
            .create_session(json!({
                "amount": amount, "currency": currency, "reference": reference,
                "description": format!("Partner order {label}"),
            }))
            .await;
        (id, secret, reference)
    }

    /// The partner's checkout page for a session.
    pub fn checkout_url(&self, session: &str, secret: &str) -> String {
        format!(
            "{}/embed.html?session={session}&secret={secret}&server={}",
            self.partner.base, self.server.base
        )
    }

    /// The partner's page that embeds the form through `/checkout.js` beside a skimmer.
    pub fn isolated_url(&self, session: &str, secret: &str) -> String {
        format!(
            "{}/isolated.html?session={session}&secret={secret}&server={}",
            self.partner.base, self.server.base
        )
    }

    /// The partner's page embedding the form through `/checkout.js` in light DOM
    /// (support/framing_pages.rs).
    pub fn framed_url(&self, session: &str, secret: &str) -> String {
        format!(
            "{}/framed.html?session={session}&secret={secret}&server={}",
            self.partner.base, self.server.base
        )
    }

    /// The partner's page that posts the loader's fields itself into its frame
    /// `card-checkout-direct`, to `server` (checkout-server or a proxy in front of it)
    /// (support/framing_pages.rs).
    pub fn direct_url(&self, session: &str, secret: &str, server: &str) -> String {
        format!(
            "{}/direct.html?session={session}&secret={secret}&server={server}",
            self.partner.base
        )
    }

    /// The partner's order page for a session (as a customer reopens it later).
    pub fn landing_url(&self, session: &str) -> String {
        format!("{}/done.html?session_id={session}", self.partner.base)
    }
}
