//! Files that hold credentials or data, created private to their owner: directories 0700,
//! files 0600 (the kubeconfig with its token or client key, the data directory and its store),
//! as kubeadm and kind write `admin.conf`. Directories that already exist are left as they
//! are (they may be the user's own, `/tmp` say); files the server writes are made private
//! whether new or not. Elsewhere than on Unix, the platform's defaults apply.

use std::io::Write as _;
use std::path::Path;

/// Creates `dir` and its missing parents, each new one 0700.
///
/// # Errors
/// The directory cannot be created.
pub fn create_dir_all(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir)
}

/// Writes `contents` to `path` (its missing parent directories created 0700), the file 0600.
///
/// # Errors
/// The write failing.
pub fn write(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_dir_all(dir)?;
    }
    let mut file = open_private(path, true)?;
    file.write_all(contents)?;
    file.sync_all()
}

/// Creates `path` empty and 0600 if it does not exist, and makes it 0600 if it does (a store
/// that another program opens afterwards, such as redb's file).
///
/// # Errors
/// The file cannot be created or its mode set.
pub fn touch(path: &Path) -> std::io::Result<()> {
    open_private(path, false).map(drop)
}

fn open_private(path: &Path, truncate: bool) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(truncate);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(path)?;
    // The mode above applies to a new file only; an existing one is narrowed here.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mut perms = file.metadata()?.permissions();
        if perms.mode() & 0o077 != 0 {
            perms.set_mode(perms.mode() & 0o700);
            file.set_permissions(perms)?;
        }
    }
    Ok(file)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt as _;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn new_files_and_directories_are_private() {
        let tmp = tempfile::tempdir().unwrap();
        let before = mode(tmp.path());
        let file = tmp.path().join("a/b/kubeconfig");
        write(&file, b"x").unwrap();
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(&tmp.path().join("a")), 0o700);
        assert_eq!(mode(&tmp.path().join("a/b")), 0o700);
        // An existing file made readable to others is narrowed; an existing directory is not.
        std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
        write(&file, b"y").unwrap();
        assert_eq!(mode(&file), 0o600);
        assert_eq!(std::fs::read(&file).unwrap(), b"y");
        let store = tmp.path().join("store");
        std::fs::write(&store, b"keep").unwrap();
        std::fs::set_permissions(&store, std::fs::Permissions::from_mode(0o664)).unwrap();
        touch(&store).unwrap();
        assert_eq!(mode(&store), 0o600);
        assert_eq!(std::fs::read(&store).unwrap(), b"keep");
        assert_eq!(
            mode(tmp.path()),
            before,
            "an existing directory is left alone"
        );
    }
}
