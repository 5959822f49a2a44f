//! The README's `sh` snippets that are not curl calls are `checkout-server` commands (the
//! dashboard's `users add|list|disable`): each line is run as written (its `#` comment cut)
//! with the real binary on a fresh SQLite database, the password on standard input, and must
//! succeed; `users list` then shows what they did.

use std::process::Output;

use super::snippets;
use crate::cli;

/// The password `users add` reads from standard input.
const PASSWORD: &str = "correct horse battery staple";

fn checkout_server(args: &[&str], database: &str) -> Output {
    cli::checkout_server(
        args,
        &[("DATABASE_URL", database)],
        &format!("{PASSWORD}\n"),
    )
}

#[test]
fn the_readmes_commands_run_as_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let database = dir.path().join("readme.db").display().to_string();
    let commands: Vec<_> = snippets::of("sh")
        .into_iter()
        .filter(|s| !s.code.contains("curl "))
        .collect();
    assert!(
        !commands.is_empty(),
        "README.md shows no checkout-server command"
    );
    let mut emails = Vec::new();
    for snippet in &commands {
        for line in snippet.code.lines() {
            let command = line.split('#').next().unwrap_or_default().trim();
            if command.is_empty() {
                continue;
            }
            let args: Vec<&str> = command.split_whitespace().collect();
            assert_eq!(
                args[0], "checkout-server",
                "README.md:{}: an sh snippet runs neither curl nor checkout-server: {command}",
                snippet.line
            );
            let output = checkout_server(&args[1..], &database);
            assert!(
                output.status.success(),
                "README.md:{}: `{command}` failed: {}{}",
                snippet.line,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            let all = format!(
                "{}{}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
            assert!(!all.contains(PASSWORD), "`{command}` printed the password");
            if args.get(1..3) == Some(&["users", "add"]) {
                emails.push(args[3].to_owned());
            }
        }
    }
    let listed = checkout_server(&["users", "list"], &database);
    let listed = String::from_utf8_lossy(&listed.stdout);
    for email in emails {
        let line = listed
            .lines()
            .find(|l| l.starts_with(&email))
            .unwrap_or_else(|| panic!("{email} is not listed:\n{listed}"));
        assert!(
            line.contains("disabled"),
            "the README disables {email}: {line}"
        );
    }
}
