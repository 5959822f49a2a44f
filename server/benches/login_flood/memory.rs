//! This process's memory as the kernel counts it: a field of `/proc/self/status` (`VmRSS`
//! resident now, `VmHWM` the peak), or "unknown" off Linux.

/// The value of `field` in `/proc/self/status`, e.g. `"123456 kB"`, in MiB.
pub fn status(field: &str) -> String {
    let Ok(text) = std::fs::read_to_string("/proc/self/status") else {
        return "unknown".to_owned();
    };
    text.lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| "unknown".to_owned(), |kib| format!("{} MiB", kib / 1024))
}
