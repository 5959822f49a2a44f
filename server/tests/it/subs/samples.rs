//! The backend samples act on the paid-period event (issue 46): the subscription events a real
//! server sends for a plan with a trial (created, then cycle 1 paid after the trial) and for a
//! plan without one (created, then cycle 2) are fed, as the shop receives them (`GET
//! /v1/events`, one repeated as a retry would), to `examples/backend-python/memberships.py`
//! and `examples/backend-node/memberships.mjs`; each extends the membership to the paid
//! period's end and credits each period once.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

use crate::api::support::{Harness, cards};
use crate::ops::support::{
    advance_gateway_clock, after_the_startup_pass, in_seconds, object_events, ops_suite,
    reconciler, subscribe, unique,
};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(the_samples_extend_memberships_on_paid_periods);

/// The repository's root.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_owned()
}

/// `events` through both samples' memberships: what each holds afterwards (a sample whose
/// language is not installed is skipped, loudly).
fn through_the_samples(events: &[Value]) -> Vec<Value> {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("events.json");
    std::fs::write(&file, serde_json::to_vec(events).expect("json")).expect("written");
    let python = format!(
        "import json, sys\n\
         sys.path.insert(0, {sample:?})\n\
         from memberships import Memberships\n\
         m = Memberships()\n\
         for event in json.load(open({file:?})):\n    m.record_event(event)\n\
         print(json.dumps(m.all()))",
        sample = root().join("examples/backend-python").display().to_string(),
        file = file.display().to_string(),
    );
    let node = format!(
        "import {{ Memberships }} from {module:?};\n\
         import {{ readFileSync }} from 'node:fs';\n\
         const m = new Memberships();\n\
         for (const event of JSON.parse(readFileSync({file:?}, 'utf8'))) m.recordEvent(event);\n\
         console.log(JSON.stringify(m.all()));",
        module = format!(
            "file://{}",
            root()
                .join("examples/backend-node/memberships.mjs")
                .display()
        ),
        file = file.display().to_string(),
    );
    let run = |program: &str, args: &[&str]| {
        let output = match Command::new(program).args(args).output() {
            Ok(output) => output,
            Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
                // As the end-to-end suite does for the samples: loud, not fatal (scripts/setup.sh
                // test installs both).
                eprintln!(
                    "\n***** SKIPPED: {program} not found: its backend sample's memberships were not run *****\n"
                );
                return None;
            }
            Err(error) => panic!("{program} runs: {error}"),
        };
        assert!(
            output.status.success(),
            "{program}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        Some(serde_json::from_slice::<Value>(&output.stdout).expect("the memberships as JSON"))
    };
    [
        run("python3", &["-c", &python]),
        run("node", &["--input-type=module", "-e", &node]),
    ]
    .into_iter()
    .flatten()
    .collect()
}

async fn the_samples_extend_memberships_on_paid_periods(h: &Harness) {
    after_the_startup_pass(h).await;
    let (_, trial) = subscribe(h, &unique("cust"), "demo-trial", cards::VISA_OK).await;
    let (_, plain) = subscribe(h, &unique("cust"), "demo-monthly", cards::VISA_OK).await;
    let mut told = object_events(h, &trial).await;
    told.extend(object_events(h, &plain).await);
    advance_gateway_clock(h, 32);
    let report = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(
        report.cycles_paid, 2,
        "cycle 1 after the trial, cycle 2 of the plain plan: {report:?}"
    );
    let trial_events = object_events(h, &trial).await;
    let plain_events = object_events(h, &plain).await;
    let renewed = |events: &[Value]| {
        events
            .iter()
            .find(|e| e["type"] == "subscription.renewed")
            .cloned()
            .expect("a paid period")
    };
    let (trial_paid, plain_paid) = (renewed(&trial_events), renewed(&plain_events));
    told.push(trial_paid.clone());
    told.push(plain_paid.clone());
    told.push(trial_paid.clone()); // delivered again, as a retry would

    for memberships in through_the_samples(&told) {
        let member = |id: &str| -> Value {
            memberships
                .as_array()
                .expect("a list")
                .iter()
                .find(|m| m["subscription_id"] == id)
                .cloned()
                .unwrap_or_else(|| panic!("{id} in {memberships}"))
        };
        let trial_member = member(&trial);
        let charge = &trial_paid["data"]["object"]["charge"];
        assert_eq!(
            trial_member["access_until"], charge["period_end"],
            "{trial_member}"
        );
        assert_eq!(
            trial_member["paid_periods"]["1"]["amount"], 960,
            "{trial_member}"
        );
        assert_eq!(
            trial_member["paid_periods"].as_object().map(|p| p.len()),
            Some(1)
        );

        let plain_member = member(&plain);
        let charge = &plain_paid["data"]["object"]["charge"];
        assert_eq!(charge["cycle"], 2);
        assert_eq!(
            plain_member["access_until"], charge["period_end"],
            "{plain_member}"
        );
        let periods: Vec<&String> = plain_member["paid_periods"]
            .as_object()
            .expect("periods")
            .keys()
            .collect();
        assert_eq!(
            periods,
            ["2"],
            "cycle 1 was the sign-up's payment: {plain_member}"
        );
    }
}
