//! Server-side request forgery: without `WEBHOOK_ALLOW_PRIVATE`, an endpoint on a loopback
//! address, or on a name that resolves to one, is refused when the delivery is made (the
//! address connected to is what is checked): the attempt is logged with the reason and no
//! status, and nothing reaches the receiver. The same endpoints with private targets allowed
//! (the sandbox) receive the event.

use checkout_server::webhook_rules::secret::new_secret;
use secrecy::ExposeSecret as _;
use time::Duration;

use super::receiver::Receiver;
use super::receiver::support::{attempts, endpoint, paid, worker};
use crate::api::support::Harness;
use crate::ops::support::ops_suite;

/// The server's own worker stays quiet after its first pass: the tests drive theirs.
const CONFIG: &[(&str, &str)] = &[("WEBHOOK_DELIVERY_INTERVAL_MS", "86400000")];

ops_suite!(private_targets_are_refused_at_delivery);

async fn private_targets_are_refused_at_delivery(h: &Harness) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    let types = ["session.completed"];
    let literal = endpoint(h, &receiver.url(), &types, secret.expose_secret()).await;
    let by_name = format!("http://localhost:{}/events", receiver.port);
    let named = endpoint(h, &by_name, &types, secret.expose_secret()).await;
    paid(h, 1000).await;

    let guarded = worker(h, "ssrf-guarded", false);
    let pass = guarded.run_once().await;
    assert_eq!((pass.claimed, pass.retried), (2, 2), "{pass:?}");
    assert!(receiver.received().is_empty(), "nothing may reach loopback");
    for (endpoint_id, reason) in [(&literal, "is not public"), (&named, "no public address")] {
        let logged = attempts(h, endpoint_id).await;
        assert_eq!(logged.len(), 1, "{logged:?}");
        assert_eq!(logged[0].status_code, None);
        let error = logged[0].error.clone().expect("the refusal is logged");
        assert!(error.contains(reason), "{endpoint_id}: {error}");
        assert!(error.contains("WEBHOOK_ALLOW_PRIVATE"), "{error}");
    }

    // The sandbox's rule: the same endpoints receive the event.
    let open = worker(h, "ssrf-open", true);
    open.clock().advance(Duration::seconds(10));
    let pass = open.run_once().await;
    assert_eq!((pass.claimed, pass.delivered), (2, 2), "{pass:?}");
    let received = receiver.received();
    assert_eq!(received.len(), 2);
    assert!(received.iter().all(|r| r.verified && r.status == 200));
}
