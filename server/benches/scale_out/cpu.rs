//! How many cores each party kept busy while a measurement ran, read from `/proc` (Linux):
//! the instances' processes, every `postgres` process, and this one (the shoppers and the
//! emulator). On a machine where they together fill every core, a second instance has no
//! core to run on, and that is the figure to read beside the ratio.

use std::future::Future;
use std::time::Instant;

/// Clock ticks a second of `/proc/<pid>/stat`'s times (`getconf CLK_TCK`, 100 on Linux).
const TICKS_A_SECOND: f64 = 100.0;

/// User and system ticks of process `pid` so far (0 when it cannot be read).
fn ticks(pid: &str) -> u64 {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return 0;
    };
    // The fields after the command (in parentheses, which may hold spaces): utime is the
    // 14th field of the line, stime the 15th.
    let Some((_, after)) = stat.rsplit_once(')') else {
        return 0;
    };
    let fields: Vec<&str> = after.split_whitespace().collect();
    let field = |n: usize| {
        fields
            .get(n)
            .and_then(|f| f.parse::<u64>().ok())
            .unwrap_or(0)
    };
    field(11) + field(12)
}

/// Ticks of every process named `postgres`.
fn postgres_ticks() -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| name.bytes().all(|b| b.is_ascii_digit()))
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|comm| comm.trim() == "postgres")
        })
        .map(|pid| ticks(&pid))
        .sum()
}

/// Ticks of the instances, of PostgreSQL and of this process.
fn snapshot(instances: &[u32]) -> [u64; 3] {
    [
        instances.iter().map(|pid| ticks(&pid.to_string())).sum(),
        postgres_ticks(),
        ticks("self"),
    ]
}

/// Runs `work`; its output and the cores each party kept busy meanwhile, in words.
pub async fn measured<T>(instances: &[u32], work: impl Future<Output = T>) -> (T, String) {
    let before = snapshot(instances);
    let started = Instant::now();
    let output = work.await;
    let seconds = started.elapsed().as_secs_f64();
    let after = snapshot(instances);
    let cores = |n: usize| (after[n].saturating_sub(before[n])) as f64 / TICKS_A_SECOND / seconds;
    let busy = format!("{:.2} / {:.2} / {:.2}", cores(0), cores(1), cores(2));
    (output, busy)
}
