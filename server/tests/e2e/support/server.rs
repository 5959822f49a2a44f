//! Real `checkout-server` processes on loopback: `serve` (the checkout server, with the
//! in-process emulator unless a gateway address is given) and `sandbox` (the emulator alone,
//! for the crash test: it must outlive a killed checkout server).
//!
//! Each process writes its output to a log file the test can search ([`Process::wait_for_log`]).
//! `Drop` kills it; [`Process::kill`] sends SIGKILL on purpose (`Child::kill`).

use std::fs::File;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::net::{free_port, wait_for_port};
use super::tools::dist_dir;

/// The merchant key the suite's servers use (the shop backend's bearer key).
pub const MERCHANT_KEY: &str = "sk_e2e_0123456789abcdef";
/// `SECRETS_KEY` of a server with a real gateway address (the sandbox generates its own).
pub const SECRETS_KEY: &str =
    "e2e:603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4";
/// The emulator's default credentials (docs/sandbox.md).
pub const SANDBOX_API_KEY: &str = "sandbox_api_key";
/// The emulator's default `x-api-key`.
pub const SANDBOX_X_API_KEY: &str = "sandbox_x_api_key";

/// A spawned `checkout-server` subcommand.
pub struct Process {
    child: Option<Child>,
    command: Vec<String>,
    env: Vec<(String, String)>,
    log: PathBuf,
    ready_line: &'static str,
    starts: usize,
    /// `127.0.0.1:<port>`.
    pub port: u16,
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    /// The demo shop's `http://127.0.0.1:<port>` (`DEMO_LISTEN`; in-process emulator only).
    pub demo: Option<String>,
    dir: std::sync::Arc<tempfile::TempDir>,
}

/// How to start `checkout-server serve`.
#[derive(Debug, Default, Clone)]
pub struct ServeOptions {
    /// `GATEWAY_BASE_URL`; `None` runs the in-process emulator.
    pub gateway: Option<String>,
    /// Extra environment (`ALLOWED_ORIGINS`, `SUCCESS_URL`, `CHECKOUT_FAILPOINT`, ...).
    pub env: Vec<(String, String)>,
}

impl Process {
    /// The text of this server's `/checkout.js` (the loader with the form's build written in),
    /// as a shop pastes it into its page.
    pub async fn loader_text(&self) -> String {
        reqwest::get(format!("{}/checkout.js", self.base))
            .await
            .and_then(reqwest::Response::error_for_status)
            .expect("GET /checkout.js")
            .text()
            .await
            .expect("the loader's text")
    }

    /// Starts `checkout-server serve` on a free port with a fresh SQLite database, the
    /// component from `dist/`, the demo shop on a second free port (its own origin) and a
    /// reconciler that looks every second.
    pub fn serve(options: ServeOptions) -> Self {
        Self::on_free_ports(|| Self::try_serve(&options))
    }

    /// Tries `start` on fresh free ports until a try is not refused its port: another process
    /// may take a port between [`free_port`] and the server's bind.
    fn on_free_ports(start: impl Fn() -> Result<Self, String>) -> Self {
        let mut last = String::new();
        for _ in 0..3 {
            match start() {
                Ok(process) => return process,
                Err(log) => last = log,
            }
        }
        panic!("checkout-server was refused a free port three times. Log:\n{last}");
    }

    fn try_serve(options: &ServeOptions) -> Result<Self, String> {
        let dir = std::sync::Arc::new(tempfile::tempdir().expect("temp dir"));
        let port = free_port();
        let demo_port = free_port();
        let mut env = vec![
            ("LISTEN".to_owned(), format!("127.0.0.1:{port}")),
            ("DEMO_LISTEN".to_owned(), format!("127.0.0.1:{demo_port}")),
            // Several servers run at once: the dashboard on a free port too.
            ("DASHBOARD_LISTEN".to_owned(), "127.0.0.1:0".to_owned()),
            (
                "DATABASE_URL".to_owned(),
                dir.path().join("checkout.db").display().to_string(),
            ),
            ("MERCHANT_SECRET_KEY".to_owned(), MERCHANT_KEY.to_owned()),
            ("COMPONENT_DIR".to_owned(), dist_dir().display().to_string()),
            ("RECONCILE_INTERVAL_SECONDS".to_owned(), "1".to_owned()),
            ("PAYMENT_FIRST_CHECK_SECONDS".to_owned(), "1".to_owned()),
            ("RUST_LOG".to_owned(), "info".to_owned()),
        ];
        if let Some(gateway) = &options.gateway {
            env.push(("GATEWAY_BASE_URL".into(), gateway.clone()));
            env.push(("GATEWAY_API_KEY".into(), SANDBOX_API_KEY.into()));
            env.push(("GATEWAY_X_API_KEY".into(), SANDBOX_X_API_KEY.into()));
            env.push(("GATEWAY_MERCHANT_ID".into(), "e2e-merchant".into()));
            env.push(("SECRETS_KEY".into(), SECRETS_KEY.into()));
            env.push(("CARD_FINGERPRINT_KEY".into(), "ab".repeat(32)));
        }
        let demo = options
            .gateway
            .is_none()
            .then(|| format!("http://127.0.0.1:{demo_port}"));
        env.extend(options.env.iter().cloned());
        let mut process = Self::spawn(
            vec!["serve".into()],
            env,
            port,
            dir,
            "checkout-server listening on",
        )?;
        process.demo = demo;
        Ok(process)
    }

    /// Starts the emulator alone (`checkout-server sandbox`) on a free port, with fast webhook
    /// retries and `hang_seconds` for the hanging test card.
    pub fn sandbox(hang_seconds: u64) -> Self {
        Self::on_free_ports(|| Self::try_sandbox(hang_seconds))
    }

    fn try_sandbox(hang_seconds: u64) -> Result<Self, String> {
        let dir = std::sync::Arc::new(tempfile::tempdir().expect("temp dir"));
        let port = free_port();
        let command = vec![
            "sandbox".to_owned(),
            "--listen".to_owned(),
            format!("127.0.0.1:{port}"),
            "--hang-seconds".to_owned(),
            hang_seconds.to_string(),
            "--webhook-base-delay-ms".to_owned(),
            "200".to_owned(),
        ];
        Self::spawn(
            command,
            vec![("RUST_LOG".into(), "info".into())],
            port,
            dir,
            "gateway emulator listening on",
        )
    }

    fn spawn(
        command: Vec<String>,
        env: Vec<(String, String)>,
        port: u16,
        dir: std::sync::Arc<tempfile::TempDir>,
        ready_line: &'static str,
    ) -> Result<Self, String> {
        let log = dir.path().join(format!("{}.log", command[0]));
        let mut process = Self {
            child: None,
            command,
            env,
            log,
            ready_line,
            starts: 0,
            port,
            base: format!("http://127.0.0.1:{port}"),
            demo: None,
            dir,
        };
        process.try_start()?;
        Ok(process)
    }

    /// Starts the process on its port; a port another process holds is for the caller.
    fn start(&mut self) {
        if let Err(log) = self.try_start() {
            panic!(
                "checkout-server {} lost its port. Log:\n{log}",
                self.command.join(" ")
            );
        }
    }

    /// Starts the process; `Err(log)` when it exited because its port was taken.
    fn try_start(&mut self) -> Result<(), String> {
        let out = File::options()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("open log");
        let err = out.try_clone().expect("clone log handle");
        let mut command = Command::new(env!("CARGO_BIN_EXE_checkout-server"));
        command
            .args(&self.command)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .current_dir(super::tools::workspace_root())
            .stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err));
        let child = command.spawn().expect("spawn checkout-server");
        self.child = Some(child);
        self.starts += 1;
        self.wait_until_ready()?;
        if let Err(error) = wait_for_port(self.port, Duration::from_secs(10)) {
            panic!(
                "checkout-server {}: {error}. Log:\n{}",
                self.command.join(" "),
                self.log_text()
            );
        }
        Ok(())
    }

    /// SIGKILL, like a machine losing power under the process; waits for it to be gone.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the same command again, same port, same database.
    pub fn restart(&mut self) {
        self.kill();
        self.start();
    }

    /// Removes `key` from the environment of the next start.
    pub fn unset_env(&mut self, key: &str) {
        self.env.retain(|(k, _)| k != key);
    }

    /// Its SQLite database file (`DATABASE_URL`), for commands run beside it.
    pub fn database(&self) -> String {
        self.dir.path().join("checkout.db").display().to_string()
    }

    /// Everything the process has printed so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// What the banner line starting with `label` says after it (the rest of the line,
    /// trimmed), as a user reads it.
    pub fn banner(&self, label: &str) -> String {
        let log = self.log_text();
        log.lines()
            .find_map(|line| line.trim_start().strip_prefix(label))
            .unwrap_or_else(|| panic!("no `{label}` line in the banner:\n{log}"))
            .trim()
            .to_owned()
    }

    /// Fails if the log or any database file of this process holds one of `card_numbers`
    /// (digits only, as typed), in full or grouped as the form shows it.
    pub fn assert_no_card_data(&self, card_numbers: &[&str]) {
        let mut files = vec![self.log.clone()];
        if let Ok(entries) = std::fs::read_dir(self.dir.path()) {
            files.extend(
                entries
                    .filter_map(Result::ok)
                    .map(|e| e.path())
                    .filter(|p| {
                        p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with("checkout.db"))
                    }),
            );
        }
        for file in files {
            let bytes = std::fs::read(&file).unwrap_or_default();
            let text = String::from_utf8_lossy(&bytes);
            for number in card_numbers {
                let grouped: String = number
                    .as_bytes()
                    .chunks(4)
                    .map(|c| String::from_utf8_lossy(c).into_owned())
                    .collect::<Vec<_>>()
                    .join(" ");
                assert!(
                    !text.contains(number) && !text.contains(&grouped),
                    "{} holds the card number {}…",
                    file.display(),
                    &number[..6]
                );
            }
        }
    }

    /// Waits until the log contains `needle`.
    pub async fn wait_for_log(&self, needle: &str, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while !self.log_text().contains(needle) {
            assert!(
                Instant::now() < deadline,
                "`{needle}` did not appear in the log within {timeout:?}. Log:\n{}",
                self.log_text()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Blocks until the process printed its start banner; `Err(log)` when it exited because a
    /// port it was given was taken (`cannot listen on`).
    fn wait_until_ready(&mut self) -> Result<(), String> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let log = self.log_text();
            // Count banners: after a restart the log holds the earlier ones too.
            if log.matches(self.ready_line).count() >= self.starts {
                return Ok(());
            }
            let exited = self
                .child
                .as_mut()
                .and_then(|c| c.try_wait().ok().flatten());
            if exited.is_some() && log.contains("cannot listen on") {
                self.child = None;
                return Err(log);
            }
            if exited.is_some() || Instant::now() >= deadline {
                panic!(
                    "checkout-server {} did not come up (exit: {exited:?}). Log:\n{log}",
                    self.command.join(" ")
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Process {
    /// Kills the process; when a scenario failed, keeps its log under `target/e2e-logs/`.
    fn drop(&mut self) {
        self.kill();
        if std::thread::panicking() {
            let dir = super::tools::workspace_root()
                .join("target")
                .join("e2e-logs");
            let kept = dir.join(format!("{}-{}.log", self.command[0], self.port));
            if std::fs::create_dir_all(&dir).is_ok() && std::fs::copy(&self.log, &kept).is_ok() {
                super::tools::loud(&format!(
                    "log of checkout-server {} kept in {}",
                    self.command[0],
                    kept.display()
                ));
            }
        }
    }
}
