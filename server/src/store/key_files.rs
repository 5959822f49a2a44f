//! Where the sandbox keeps the server's generated keys (`SECRETS_KEY`, sealing secrets at rest,
//! and `CARD_FINGERPRINT_KEY`, keying card fingerprints) and the emulator's state: the data
//! directory. Reading a key's text and writing its file are the `checkout_key_file` crate's,
//! shared with the emulator.

use std::path::{Path, PathBuf};

/// The data directory when the database is not a SQLite file (PostgreSQL).
pub const DATA_DIR: &str = "data";

/// Where the sandbox keeps its key file `name` for `database_url`: beside the SQLite file, or
/// under [`DATA_DIR`] for another database; `None` for an in-memory database (whose key lives
/// and dies with the process, like its data).
pub fn sandbox_key_path(database_url: &str, name: &str) -> Option<PathBuf> {
    let url = database_url.trim();
    if url.contains(":memory:") || url.contains("mode=memory") {
        return None;
    }
    let dir = if url.starts_with("sqlite:") || !url.contains("://") {
        let path = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
            .unwrap_or(url);
        let path = path.split('?').next().unwrap_or(path);
        Path::new(path)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default()
    } else {
        PathBuf::from(DATA_DIR)
    };
    Some(dir.join(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sandbox_file_lives_beside_the_sqlite_database() {
        let at = |url| sandbox_key_path(url, "k.key");
        assert_eq!(at("data/checkout.db"), Some(PathBuf::from("data/k.key")));
        assert_eq!(
            at("sqlite:///var/lib/c/x.db?mode=rwc"),
            Some(PathBuf::from("/var/lib/c/k.key"))
        );
        assert_eq!(at("postgres://u@h/db"), Some(PathBuf::from("data/k.key")));
        assert_eq!(at("sqlite::memory:"), None);
    }
}
