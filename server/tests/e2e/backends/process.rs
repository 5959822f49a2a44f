//! A backend sample of `examples/` (`backend-python`, `backend-node`) as its own process, run
//! as its README says (the Python one from its `.venv`, the Node one with `node`), its output
//! in a log file the scenario searches. A missing interpreter skips the scenario with a loud
//! notice; an interpreter without the sample's installed dependencies is a failure naming the
//! fix (`scripts/setup.sh test`). `Drop` kills the process, and prints its log when the
//! scenario failed.

use std::fs::File;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::support::tools::{loud, workspace_root};

/// Which sample.
#[derive(Debug, Clone, Copy)]
pub enum Language {
    /// `examples/backend-python`.
    Python,
    /// `examples/backend-node`.
    Node,
}

impl Language {
    /// The sample's folder.
    fn dir(self) -> PathBuf {
        let name = match self {
            Self::Python => "backend-python",
            Self::Node => "backend-node",
        };
        workspace_root().join("examples").join(name)
    }

    /// The program and its script, or `None` after the loud skip notice when the interpreter
    /// is not on this machine.
    pub fn command(self) -> Option<(PathBuf, &'static str)> {
        let dir = self.dir();
        let (interpreter, program, script, installed) = match self {
            Self::Python => (
                "python3",
                dir.join(".venv").join("bin").join("python"),
                "server.py",
                dir.join(".venv").join(".installed"),
            ),
            Self::Node => {
                let node = on_path("node").unwrap_or_default();
                let marker = dir.join("node_modules").join(".installed");
                ("node", node, "server.mjs", marker)
            }
        };
        if on_path(interpreter).is_none() {
            loud(&format!(
                "BACKEND SAMPLE SCENARIO SKIPPED: `{interpreter}` not found. Install it \
                 (scripts/setup.sh test does) to run {}.",
                dir.display()
            ));
            return None;
        }
        assert!(
            installed.is_file(),
            "{} is not installed ({} missing): run scripts/setup.sh test \
             (scripts/backend-samples.sh)",
            dir.display(),
            installed.display()
        );
        Some((program, script))
    }
}

/// The first `name` on `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// A running backend sample.
pub struct Backend {
    child: Child,
    log: PathBuf,
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    _dir: tempfile::TempDir,
}

impl Backend {
    /// Starts `program script` in the sample's folder on `port` with `env` (and `PATH`);
    /// waits until it listens.
    pub fn start(
        language: Language,
        (program, script): (PathBuf, &str),
        port: u16,
        env: Vec<(String, String)>,
    ) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let log = dir.path().join("backend.log");
        let out = File::create(&log).expect("create the backend's log");
        let err = out.try_clone().expect("clone log handle");
        let child = Command::new(&program)
            .arg(script)
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("LISTEN", format!("127.0.0.1:{port}"))
            // Python's output reaches the log as it is written.
            .env("PYTHONUNBUFFERED", "1")
            .envs(env)
            .current_dir(language.dir())
            .stdin(Stdio::null())
            .stdout(Stdio::from(out))
            .stderr(Stdio::from(err))
            .spawn()
            .unwrap_or_else(|e| panic!("start {} {script}: {e}", program.display()));
        let mut backend = Self {
            child,
            log,
            base: format!("http://127.0.0.1:{port}"),
            _dir: dir,
        };
        backend.wait_listening(Duration::from_secs(30));
        backend
    }

    /// Everything the backend has printed so far.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    fn wait_listening(&mut self, limit: Duration) {
        let deadline = Instant::now() + limit;
        while !self.log_text().contains("listening on") {
            let exited = self.child.try_wait().ok().flatten();
            assert!(
                exited.is_none() && Instant::now() < deadline,
                "the backend did not come up (exit: {exited:?}). Log:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Backend {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        if std::thread::panicking() {
            loud(&format!("log of the backend sample:\n{}", self.log_text()));
        }
    }
}
