//! A count that cannot be read lets the try through, logged: the defence never takes checkout
//! down with it. With the block lists' table gone, the statement that records a payment with
//! its counts fails; the payment is then recorded without them (`payments::claim`), the
//! counts read on their own fail too, and the try goes to the gateway, past a limit it would
//! otherwise have met.

use serde_json::json;

use super::{Db, risk_suite, session, start, visa};
use crate::api::support::pay_body;

risk_suite!(a_try_whose_counts_cannot_be_read_goes_on);

async fn a_try_whose_counts_cannot_be_read_goes_on(db: Db) {
    let Some(h) = start(db, &[("RISK_MAX_CARDS_PER_ADDRESS", "1")]).await else {
        return;
    };
    h.execute("DROP TABLE risk_blocks").await;
    // A second new card from one address is past the limit: read, it would ask for a proof.
    for n in 1..=2 {
        let s = session(&h, json!({})).await;
        let reply = h.pay(&s, &pay_body(&visa(300 + n), "123"), None).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
        assert_eq!(h.gateway_charges(&s.reference), 1);
    }
    h.finish().await;
}
