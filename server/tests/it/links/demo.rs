//! The demo makes a payment link at start (`checkout-server serve` prints its address): made
//! once and found again at the next start, payable at once; with a real gateway, none.

use serde_json::json;

use super::start;
use crate::api::support::{Backend, Harness, UNREACHABLE_GATEWAY};
use crate::compose::demo_link;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_makes_one_payable_link_and_live_mode_none() {
    let h = Harness::start(Backend::Sqlite).await;
    let url = demo_link(&h.state)
        .await
        .expect("made")
        .expect("a sandbox link");
    let prefix = format!("{}/pay/", h.base);
    let public_id = url
        .strip_prefix(&prefix)
        .expect("on this server")
        .to_owned();
    let again = demo_link(&h.state)
        .await
        .expect("found")
        .expect("a sandbox link");
    assert_eq!(again, url, "a restart shows the same link");
    let reply = start(&h, &public_id, json!({})).await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    h.finish().await;

    let live = Harness::start_with(Backend::Sqlite, &UNREACHABLE_GATEWAY).await;
    assert_eq!(demo_link(&live.state).await.expect("asked"), None);
    assert!(
        live.state
            .links
            .list(10, None)
            .await
            .expect("listed")
            .items
            .is_empty()
    );
    live.finish().await;
}
