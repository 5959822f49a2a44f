//! Keyset pages of the payments list within a creation range, and the CSV export's batches of
//! lines with the same filters: payments sharing one creation time are split across page
//! borders and still come once each, newest first and by id among equals, and the range's end
//! holds even under a cursor from beyond it (the statement's upper bound on `created_at` is
//! the lower of the two).

use checkout_server::store::prelude::*;
use time::OffsetDateTime;

use super::{TestDb, new_payment};

store_suite!(pages_split_equal_times_within_a_range);

async fn created_at(db: &TestDb, id: &str, at_ms: i64) {
    let sql = format!("UPDATE payments SET created_at = {at_ms} WHERE id = '{id}'");
    db.raw.execute(&sql).await;
}

fn at(ms: i64) -> OffsetDateTime {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).expect("time")
}

/// Every page of `query`, `limit` at a time, from `after` on: the ids in order. Read both as
/// the list reads them and as the export does (its lines); both must agree.
async fn all_pages(db: &TestDb, query: &PaymentQuery, after: Option<PageCursor>) -> Vec<String> {
    let (mut listed, mut lines) = (Vec::new(), Vec::new());
    let mut next = after.clone();
    loop {
        let page = db
            .store
            .list_payments(PaymentQuery {
                after: next.take(),
                ..query.clone()
            })
            .await
            .expect("page");
        assert!(page.items.len() <= query.limit as usize);
        listed.extend(page.items.into_iter().map(|p| p.id));
        match page.next {
            Some(cursor) => next = Some(cursor),
            None => break,
        }
    }
    let mut next = after;
    loop {
        let batch = db
            .store
            .payment_lines(PaymentQuery {
                after: next.take(),
                ..query.clone()
            })
            .await
            .expect("batch");
        assert!(batch.items.len() <= query.limit as usize);
        lines.extend(batch.items.into_iter().map(|p| p.id));
        match batch.next {
            Some(cursor) => next = Some(cursor),
            None => break,
        }
    }
    assert_eq!(listed, lines, "the list and the export's lines");
    listed
}

async fn pages_split_equal_times_within_a_range(db: &TestDb) {
    let t: i64 = 1_750_000_000_000;
    // Creation times: three at `t`, two a second before, one after the range, one before it.
    let times = [t, t, t, t - 1_000, t - 1_000, t + 5_000, t - 100_000];
    let mut made = Vec::new();
    for time in times {
        let payment = new_payment(db, 100).await;
        created_at(db, &payment.id, time).await;
        made.push((time, payment.id));
    }
    let mut expected: Vec<(i64, String)> = made
        .iter()
        .filter(|(time, _)| (t - 1_000..=t).contains(time))
        .cloned()
        .collect();
    expected.sort_by(|a, b| b.cmp(a));
    let expected: Vec<String> = expected.into_iter().map(|(_, id)| id).collect();
    for bulk in [false, true] {
        let query = PaymentQuery {
            created_from: Some(at(t - 1_000)),
            created_before: Some(at(t + 1)),
            limit: 2,
            bulk,
            ..PaymentQuery::default()
        };
        assert_eq!(
            all_pages(db, &query, None).await,
            expected,
            "every payment of the range once, newest first, by id among equals (bulk {bulk})"
        );
        // A cursor from beyond the range's end still stops at it.
        let beyond = PageCursor {
            created_at_ms: t + 10_000,
            id: "ffffffff".into(),
        };
        assert_eq!(all_pages(db, &query, Some(beyond)).await, expected);
    }
    // Without an end, the cursor alone bounds the pages.
    let open = PaymentQuery {
        created_from: Some(at(t - 1_000)),
        limit: 2,
        ..PaymentQuery::default()
    };
    let after_first = PageCursor {
        created_at_ms: t,
        id: expected[0].clone(),
    };
    assert_eq!(all_pages(db, &open, Some(after_first)).await, expected[1..]);
}
