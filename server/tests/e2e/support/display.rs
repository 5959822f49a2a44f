//! The X display WebKit's MiniBrowser needs (it has no headless mode): one Xvfb serves every
//! WebKit scenario running at the same time. It is started when the first one needs it, on a
//! display number Xvfb picks itself (`-displayfd`, so parallel runs never race for one), and
//! stopped when the last one is done.

use std::io::{BufRead as _, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex, Weak};

/// A running Xvfb; killed when the last user drops it.
pub struct Display {
    child: Mutex<Child>,
    /// `:N`, for `DISPLAY`.
    pub name: String,
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Ok(child) = self.child.get_mut() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The shared display, started with `xvfb` if none runs.
pub fn shared(xvfb: &Path) -> Arc<Display> {
    static CURRENT: Mutex<Weak<Display>> = Mutex::new(Weak::new());
    let mut current = CURRENT.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(display) = current.upgrade() {
        return display;
    }
    let mut child = Command::new(xvfb)
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            "1280x1024x24",
            "-nolisten",
            "tcp",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", xvfb.display()));
    let mut line = String::new();
    let stdout = child.stdout.take().expect("Xvfb's stdout");
    BufReader::new(stdout)
        .read_line(&mut line)
        .unwrap_or_else(|e| panic!("Xvfb's display number: {e}"));
    let number = line.trim();
    assert!(
        !number.is_empty() && number.chars().all(|c| c.is_ascii_digit()),
        "Xvfb did not name its display (got {line:?})"
    );
    let display = Arc::new(Display {
        name: format!(":{number}"),
        child: Mutex::new(child),
    });
    *current = Arc::downgrade(&display);
    display
}
