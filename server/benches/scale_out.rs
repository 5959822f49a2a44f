//! Whether a second instance adds pays per second: `checkout-server serve` processes on one
//! PostgreSQL (`TEST_DATABASE_URL_POSTGRES`, required), the gateway emulator in this process
//! on its own port, and this process's shoppers paying through the instances in turn (shopper
//! `i` through instance `i mod n`). Each level runs one instance, then two, alternating for
//! `--rounds` rounds so drift in the machine's load falls on both; prints the pays per second
//! of each, the ratio (target ≥ 1.7×), the machine's cores and load, how many cores the
//! instances, PostgreSQL and this process kept busy ([`cpu`], where the machine is the limit),
//! and PostgreSQL's busiest statements when `pg_stat_statements` is loaded (where one
//! database is the limit).
//!
//! Run: `cargo bench -p checkout-server --bench scale_out [-- --shoppers 16 --pays 40 --rounds 3]`.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use checkout_sandbox::{Sandbox, SandboxConfig};

#[path = "support/pay_server.rs"]
#[allow(dead_code)] // `Series`, `pay_once`: no latency is timed here
mod pay_server;

#[path = "support/cli.rs"]
#[allow(dead_code)] // `ms`: no figure here is in milliseconds
mod cli;

#[path = "support/databases.rs"]
#[allow(dead_code)] // `drop_triggers`: no trigger is compared here
mod databases;

#[path = "scale_out/cpu.rs"]
mod cpu;

#[path = "../tests/e2e/support/net.rs"]
mod net;

use pay_server::{BenchServer, pays_per_second, server_settings, start_server, store_card};

const POSTGRES_ENV: &str = "TEST_DATABASE_URL_POSTGRES";

/// A `checkout-server serve` process, killed when dropped.
struct Instance {
    child: Child,
    server: Arc<BenchServer>,
}

impl Drop for Instance {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A `COMPONENT_DIR` for the instances, which `serve` needs to start: the shoppers here pay
/// through the API and never load the card form, so a page standing in for its build will do.
fn stand_in_component(dir: &Path) -> PathBuf {
    let component = dir.join("component");
    std::fs::create_dir_all(&component).expect("component dir");
    std::fs::write(
        component.join("index.html"),
        "<!doctype html><title>not the card form: scale_out bench</title>",
    )
    .expect("stand-in page");
    component
}

/// Starts `serve` on `database_url` and waits until it answers; `cards` are the customers'.
fn spawn_instance(
    database_url: &str,
    sandbox: &Sandbox,
    cards: &[String],
    component: &Path,
) -> Instance {
    let port = net::free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_checkout-server"))
        .arg("serve")
        .envs(server_settings(database_url, sandbox))
        .env("COMPONENT_DIR", component)
        .env("LISTEN", format!("127.0.0.1:{port}"))
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("checkout-server serve starts");
    let instance = Instance {
        child,
        server: Arc::new(BenchServer::at(
            format!("http://127.0.0.1:{port}"),
            cards.to_vec(),
        )),
    };
    tokio::task::block_in_place(|| net::wait_for_port(port, Duration::from_secs(30)))
        .unwrap_or_else(|error| panic!("instance on {port}: {error}"));
    instance
}

fn main() {
    let shoppers = cli::number("--shoppers", 16, 2);
    let pays = cli::number("--pays", 40, 1);
    let rounds = cli::number("--rounds", 3, 1);
    cli::run_on(2, run(shoppers, pays, rounds));
}

async fn run(shoppers: usize, pays: usize, rounds: usize) {
    let Ok(postgres) = std::env::var(POSTGRES_ENV) else {
        println!("scale out: SKIPPED: set {POSTGRES_ENV} (scripts/postgres.sh prints a URL)");
        return;
    };
    let sandbox = Sandbox::start(SandboxConfig::default())
        .await
        .expect("emulator starts");
    let http = reqwest::Client::new();
    let token = store_card(&http, &sandbox).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let database = databases::Database::new(dir.path(), "scale", Some(&postgres)).await;
    // Migrated, and the customers' cards saved, by a server in this process.
    let setup = start_server(&database.url, &sandbox, &token).await;
    let cards = setup.cards().to_vec();
    setup.stop().await;
    let component = stand_in_component(dir.path());
    let first = spawn_instance(&database.url, &sandbox, &cards, &component);
    let second = spawn_instance(&database.url, &sandbox, &cards, &component);
    let one = [first.server.clone()];
    let two = [first.server.clone(), second.server.clone()];
    // Warm both (connections, statement caches, the session and card memories).
    pays_per_second(&two, 4, 10).await;

    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!(
        "scale out: {shoppers} shoppers at once, {pays} pays each, {rounds} rounds; {cores} cores, load {}",
        cli::load_average()
    );
    println!(
        "{:<7} {:>14} {:>14} {:>8}   cores busy (instances / PostgreSQL / shoppers+emulator)",
        "round", "1 inst pays/s", "2 inst pays/s", "ratio"
    );
    let (alone, both) = ([first.child.id()], [first.child.id(), second.child.id()]);
    let (mut sum_one, mut sum_two) = (0.0, 0.0);
    for round in 1..=rounds {
        let one_run = cpu::measured(&alone, pays_per_second(&one, shoppers, pays));
        let two_runs = cpu::measured(&both, pays_per_second(&two, shoppers, pays));
        let ((a, busy_one), (b, busy_two)) = if round % 2 == 1 {
            let a = one_run.await;
            (a, two_runs.await)
        } else {
            let b = two_runs.await;
            (one_run.await, b)
        };
        sum_one += a;
        sum_two += b;
        println!(
            "{round:<7} {a:>14.0} {b:>14.0} {:>7.2}×   1 inst: {busy_one}; 2 inst: {busy_two}",
            b / a
        );
    }
    let ratio = sum_two / sum_one;
    println!(
        "mean    {:>14.0} {:>14.0} {ratio:>7.2}×  (target ≥ 1.70×: {}); load after {}",
        sum_one / rounds as f64,
        sum_two / rounds as f64,
        if ratio >= 1.7 { "MET" } else { "MISSED" },
        cli::load_average()
    );
    busiest_statements(&postgres).await;
    drop((first, second));
    database.drop().await;
}

/// PostgreSQL's statements by the time they took, when `pg_stat_statements` is loaded
/// (`shared_preload_libraries`); a notice otherwise.
async fn busiest_statements(postgres: &str) {
    let admin = sqlx::PgPool::connect(postgres)
        .await
        .expect("postgres reachable");
    let rows: Result<Vec<(i64, f64, String)>, _> = sqlx::query_as(
        "SELECT calls, total_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) \
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 6",
    )
    .fetch_all(&admin)
    .await;
    match rows {
        Ok(rows) => {
            println!("PostgreSQL's busiest statements since its statistics were reset:");
            for (calls, total_ms, query) in rows {
                println!("  {calls:>8} calls {total_ms:>10.0} ms  {query}");
            }
        }
        Err(_) => println!(
            "(PostgreSQL's busiest statements: with pg_stat_statements in shared_preload_libraries \
             and the extension created in this database, they are listed here)"
        ),
    }
    admin.close().await;
}
