//! The card-testing surge's pace (`CardTestingStore::try_pace`): the tries of the last seconds
//! from the payments, and the busiest quarter hour of the day before the present one from the
//! rollup, its blocked tries left out and the present quarter hour never part of it.

use checkout_server::store::card_testing::TryPace;
use time::Duration;

use super::{TestDb, new_payment, now};

store_suite!(the_pace_reads_the_last_seconds_and_the_days_busiest_quarter_hour);

async fn the_pace_reads_the_last_seconds_and_the_days_busiest_quarter_hour(db: &TestDb) {
    let started = now();
    for _ in 0..4 {
        new_payment(db, 1_000).await;
    }
    let blocked = new_payment(db, 1_000).await;
    db.raw
        .execute(&format!(
            "UPDATE payments SET state = 'blocked' WHERE id = '{}'",
            blocked.id
        ))
        .await;
    // All five in the quarter hour `started` falls in, whenever the test runs.
    let started_ms = started.unix_timestamp() * 1_000;
    db.raw
        .execute(&format!("UPDATE payments SET created_at = {started_ms}"))
        .await;
    let pace = |recent_since, at| db.store.try_pace(recent_since, at);

    let today = pace(started - Duration::seconds(10), started)
        .await
        .expect("pace");
    assert_eq!(
        today,
        TryPace {
            recent: 5,
            busiest_quarter_hour: 0,
        },
        "every try counts as recent; the present quarter hour is not the past's peak"
    );
    let tomorrow = started + Duration::days(1);
    let next_day = pace(tomorrow - Duration::seconds(10), tomorrow)
        .await
        .expect("pace");
    assert_eq!(
        next_day,
        TryPace {
            recent: 0,
            busiest_quarter_hour: 4,
        },
        "a day later the quarter hour is the day's busiest, its blocked try left out"
    );
    let past = tomorrow + Duration::minutes(15);
    let later = pace(past - Duration::seconds(10), past)
        .await
        .expect("pace");
    assert_eq!(later.busiest_quarter_hour, 0, "more than a day ago");
}
