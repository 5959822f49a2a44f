//! `COMPONENT_DIR`, found at start: the card form's build (what trunk writes, served under
//! `/frame/`). A relative folder (the default `dist`) is looked for under the working directory,
//! then beside the executable, so a binary started outside the repository, or shipped with its
//! `dist/` next to it, finds its build; an absolute one only where it says. With no build in
//! any of those places `serve` stops at start with the folders it looked in and what to set,
//! rather than answering the first shopper with a page that says the form is missing.

use std::path::{Path, PathBuf};

use super::ConfigError;

/// The file a build always has: the card form's page (`api/frame/page.rs` reads it).
pub const BUILT_PAGE: &str = "index.html";

/// The folder holding the build named `setting` (`COMPONENT_DIR`), as an absolute path: under
/// `working_dir` first, then beside `executable` (the running program's path, when known).
pub fn locate(
    setting: &Path,
    working_dir: &Path,
    executable: Option<&Path>,
) -> Result<PathBuf, ConfigError> {
    let candidates: Vec<(PathBuf, &str)> = if setting.is_absolute() {
        vec![(setting.to_path_buf(), "as set")]
    } else {
        let beside = executable
            .and_then(Path::parent)
            .map(|dir| (dir.join(setting), "beside the executable"));
        std::iter::once((working_dir.join(setting), "under the working directory"))
            .chain(beside)
            .collect()
    };
    if let Some((found, _)) = candidates
        .iter()
        .find(|(dir, _)| dir.join(BUILT_PAGE).is_file())
    {
        return Ok(found.clone());
    }
    let looked_in: Vec<String> = candidates
        .iter()
        .map(|(dir, how)| format!("{} ({how})", dir.display()))
        .collect();
    Err(ConfigError::Invalid {
        key: "COMPONENT_DIR".to_owned(),
        reason: format!(
            "the card form's build ({BUILT_PAGE}) is not in {}; build it (scripts/component.sh \
             in the repository writes dist/) or set COMPONENT_DIR to the folder that holds it",
            looked_in.join(" nor in ")
        ),
    })
}

/// [`locate`] for this process: its working directory and executable.
pub fn locate_here(setting: &Path) -> Result<PathBuf, ConfigError> {
    let working_dir = std::env::current_dir().map_err(|error| ConfigError::Invalid {
        key: "COMPONENT_DIR".to_owned(),
        reason: format!("the working directory cannot be read: {error}"),
    })?;
    let executable = std::env::current_exe().ok();
    locate(setting, &working_dir, executable.as_deref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build_in(dir: &Path) {
        std::fs::create_dir_all(dir).expect("dir");
        std::fs::write(dir.join(BUILT_PAGE), "<html></html>").expect("page");
    }

    #[test]
    fn the_working_directory_first_then_beside_the_executable() {
        let root = tempfile::tempdir().expect("temp dir");
        let (cwd, bin) = (root.path().join("cwd"), root.path().join("opt/bin"));
        std::fs::create_dir_all(&cwd).expect("cwd");
        let executable = bin.join("checkout-server");
        build_in(&bin.join("dist"));
        let found = locate(Path::new("dist"), &cwd, Some(&executable)).expect("found");
        assert_eq!(found, bin.join("dist"));
        build_in(&cwd.join("dist"));
        let found = locate(Path::new("dist"), &cwd, Some(&executable)).expect("found");
        assert_eq!(found, cwd.join("dist"));
    }

    #[test]
    fn a_missing_build_names_where_it_looked_and_what_to_set() {
        let root = tempfile::tempdir().expect("temp dir");
        let executable = root.path().join("bin/checkout-server");
        let error = locate(Path::new("dist"), root.path(), Some(&executable))
            .expect_err("no build")
            .to_string();
        assert!(error.starts_with("COMPONENT_DIR"), "{error}");
        for looked in [root.path().join("dist"), root.path().join("bin/dist")] {
            assert!(error.contains(&looked.display().to_string()), "{error}");
        }
        // An empty folder is no build; an absolute setting is looked for only where it says.
        std::fs::create_dir_all(root.path().join("bin/dist")).expect("dir");
        assert!(locate(Path::new("dist"), root.path(), Some(&executable)).is_err());
        let absolute = root.path().join("elsewhere");
        build_in(&root.path().join("dist"));
        let error = locate(&absolute, root.path(), Some(&executable))
            .expect_err("not there")
            .to_string();
        assert!(error.contains(&absolute.display().to_string()), "{error}");
        assert!(!error.contains("working directory"), "{error}");
    }
}
