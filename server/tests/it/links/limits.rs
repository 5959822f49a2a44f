//! Starting a link's session takes from a per-client limit of `PAY_RATE_LIMIT_PER_IP` starts a
//! minute, every start counted (the pay call's budget counts only failures): a bot calling it
//! from one address is refused with 429 once over the limit, and the refused calls make no
//! session.

use serde_json::json;

use super::{create_link, public_id, start};
use crate::api::support::{Backend, Harness};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn session_starts_take_from_the_pay_rate_limit() {
    let h = Harness::start_with(Backend::Sqlite, &[("PAY_RATE_LIMIT_PER_IP", "3")]).await;
    let link = create_link(&h, json!({"reusable": true})).await;
    let public = public_id(&link);
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(start(&h, &public, json!({})).await.status);
    }
    assert_eq!(statuses, [201, 201, 201, 429, 429]);
    h.finish().await;
}
