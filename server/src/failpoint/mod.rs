//! Crash points for the end-to-end fault tests, off unless the process is started with
//! `CHECKOUT_FAILPOINT=<name>`. A task that reaches an armed point logs one line naming it and
//! then never continues, so a test can wait for that line and kill the process (SIGKILL) at
//! exactly that moment, as a power cut would.
//!
//! | name | where |
//! |---|---|
//! | `after_gateway_before_record` | the gateway approved a payment (its answer or a status lookup said so) and the approval is about to be written to the store |
//!
//! Beside them, [`hold`]: points where an in-process test pauses a task and lets it go on.

pub mod hold;

use std::sync::OnceLock;

use checkout::contract::PaymentState;

/// Environment variable that arms a failpoint.
pub const ENV_VAR: &str = "CHECKOUT_FAILPOINT";
/// The gateway approved; the store does not know yet.
pub const AFTER_GATEWAY_BEFORE_RECORD: &str = "after_gateway_before_record";

fn armed() -> Option<&'static str> {
    static ARMED: OnceLock<Option<String>> = OnceLock::new();
    ARMED
        .get_or_init(|| {
            std::env::var(ENV_VAR)
                .ok()
                .filter(|name| !name.trim().is_empty())
        })
        .as_deref()
}

/// Called right before a payment's state is recorded as `to`: with
/// `after_gateway_before_record` armed and `to` an approval, the calling task stops here.
pub async fn before_recording(to: PaymentState) {
    if to.is_paid() {
        stop_if_armed(AFTER_GATEWAY_BEFORE_RECORD).await;
    }
}

async fn stop_if_armed(name: &'static str) {
    if armed() == Some(name) {
        tracing::error!(
            failpoint = name,
            "FAILPOINT {name} reached: this task waits here to be killed"
        );
        std::future::pending::<()>().await;
    }
}
