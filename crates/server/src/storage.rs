//! The storage a server runs on: in memory, or persistent in a directory.

use std::path::Path;
use std::sync::Arc;

use crdkit_storage::Storage;

/// The persistent store in `dir` (created when missing).
///
/// # Errors
/// The directory or the database failing to open.
pub fn open_dir(dir: &Path) -> Result<Arc<dyn Storage>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Err(format!(
        "{}: persistent storage (--data) needs crdkit-storage's redb backend",
        dir.display()
    ))
}
