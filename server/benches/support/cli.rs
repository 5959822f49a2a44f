//! What every benchmark program shares: its numeric `--name value` arguments, the runtime it
//! runs on, and how its figures print (milliseconds, and the load average they were taken
//! under). Included by each benchmark with `#[path]`; not a benchmark of its own.

use std::future::Future;
use std::time::Duration;

/// The number given after `--name` on the command line (the last one when repeated; `_` may
/// separate digits), or `default` when there is none or it is not a number; at least `least`.
pub fn number(name: &str, default: usize, least: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.windows(2)
        .rev()
        .find(|pair| pair[0] == name)
        .and_then(|pair| pair[1].replace('_', "").parse::<usize>().ok())
        .map_or(default, |given| given.max(least))
}

/// Runs `work` to its end on a multi-threaded runtime of `threads` workers (the targets are
/// set for a 2-core machine, so most benchmarks pass 2).
pub fn run_on<F: Future>(threads: usize, work: F) -> F::Output {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(threads)
        .enable_all()
        .build()
        .expect("tokio runtime")
        .block_on(work)
}

/// Milliseconds of `duration`.
pub fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// The machine's load averages over 1, 5 and 15 minutes ("unknown" where there is no
/// `/proc/loadavg`): printed beside the figures, which are noisy on a shared machine.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}
