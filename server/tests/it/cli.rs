//! The `checkout-server` binary run as a separate process, as a user runs its commands
//! (`users …`, `keys …`, `serve`): with exactly the environment given, and text on standard
//! input (a password, or nothing).

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// `checkout-server args` with exactly `env`, its output captured.
fn command(args: &[&str], env: &[(&str, &str)]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_checkout-server"));
    command
        .args(args)
        .env_clear()
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// Runs `checkout-server args` with exactly `env` and `stdin` on standard input.
pub fn checkout_server(args: &[&str], env: &[(&str, &str)], stdin: &str) -> Output {
    let mut child = command(args, env)
        .stdin(Stdio::piped())
        .spawn()
        .expect("run checkout-server");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("stdin written");
    child.wait_with_output().expect("checkout-server ends")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs `checkout-server args` with exactly `env` in the working directory `dir`, nothing on
/// standard input, for a command expected to stop by itself: one still running after `within`
/// is killed and the test fails.
pub fn checkout_server_stops(
    dir: &Path,
    args: &[&str],
    env: &[(&str, &str)],
    within: Duration,
) -> Output {
    let mut child = command(args, env)
        .current_dir(dir)
        .stdin(Stdio::null())
        .spawn()
        .expect("run checkout-server");
    let started = Instant::now();
    while child.try_wait().expect("checkout-server polled").is_none() {
        if started.elapsed() > within {
            let _ = child.kill();
            let output = child
                .wait_with_output()
                .expect("killed checkout-server ends");
            panic!(
                "checkout-server {args:?} still ran after {within:?}: {}",
                text(&output.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().expect("checkout-server ends")
}
