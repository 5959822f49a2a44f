//! The merchant dashboard as staff reach it: its address and the admin login from the server's
//! banner, staff added with `checkout-server users add` (as the README says), a keyboard-only
//! login, and the check that every field of a page has a label.

use std::io::Write as _;
use std::process::{Command, Stdio};

use fantoccini::key::Key;

use super::page::Page;
use super::server::Process;

/// The dashboard of a running server and the admin login its banner printed.
pub struct Dashboard {
    /// `http://127.0.0.1:<port>`, without a trailing slash.
    pub address: String,
    /// The generated admin's e-mail.
    pub admin_email: String,
    /// The generated admin's password.
    pub admin_password: String,
}

impl Dashboard {
    /// Reads the dashboard's address and admin login from `server`'s banner.
    pub fn of(server: &Process) -> Self {
        let line = server.banner("dashboard:");
        let address = line
            .split_whitespace()
            .next()
            .expect("the dashboard's address")
            .trim_end_matches('/')
            .to_owned();
        let login = server.banner("staff login:");
        let (email, rest) = login.split_once(" / ").expect("e-mail / password");
        let password = rest.split_whitespace().next().expect("password");
        Self {
            address,
            admin_email: email.to_owned(),
            admin_password: password.to_owned(),
        }
    }

    /// Logs in as the generated admin.
    pub async fn log_in_as_admin(&self, page: &Page) {
        self.log_in(page, &self.admin_email, &self.admin_password)
            .await;
    }

    /// Logs in with the keyboard: type, Tab, type, Enter.
    pub async fn log_in(&self, page: &Page, email: &str, password: &str) {
        page.goto(&format!("{}/login", self.address)).await;
        page.click("#email").await;
        page.type_focused(email).await;
        page.press(Key::Tab).await;
        page.type_focused(password).await;
        page.press(Key::Enter).await;
        // Staff land on the overview, the dashboard's home.
        page.wait_text("h1", "Overview").await;
    }
}

/// Adds a staff member with `role` to `server`'s database, the password on stdin.
pub fn add_staff(server: &Process, email: &str, role: &str, password: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkout-server"))
        .args(["users", "add", email, "--role", role])
        .env_clear()
        .env("DATABASE_URL", server.database())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("checkout-server users add");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(format!("{password}\n").as_bytes())
        .expect("password written");
    let output = child.wait_with_output().expect("users add ends");
    assert!(
        output.status.success(),
        "users add: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Fails unless every visible field of the page has a label.
pub async fn every_field_is_labelled(page: &Page, what: &str) {
    let unlabelled = page
        .eval(
            "return [...document.querySelectorAll('input:not([type=hidden]), select, textarea')] \
             .filter((f) => !(f.labels && f.labels.length) && !f.getAttribute('aria-label')) \
             .map((f) => f.name || f.id);",
        )
        .await;
    assert_eq!(
        unlabelled,
        serde_json::json!([]),
        "{what}: unlabelled fields"
    );
}
