//! The storage a server runs on: in memory (default), persistent in a directory (redb), or
//! etcd (feature `etcd`).

use std::path::Path;
use std::sync::Arc;

use crdkit_storage::{CompactionPolicy, RedbStorage, Storage};

/// The file of the store in a `--data` directory.
pub const DATA_FILE: &str = "crdkit.redb";

/// The persistent store in `dir` (created 0700 when missing; the store file is made 0600).
///
/// # Errors
/// The directory or the database failing to open (another server holding it, say).
pub fn open_dir(dir: &Path) -> Result<Arc<dyn Storage>, String> {
    crate::private::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let file = dir.join(DATA_FILE);
    // Created private before redb opens it (redb initialises an empty file as a new store).
    crate::private::touch(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    let store = RedbStorage::open(file, CompactionPolicy::default()).map_err(|e| e.to_string())?;
    Ok(Arc::new(store))
}

/// A store in etcd at `endpoints` (comma-separated URLs), keys under `prefix`.
///
/// # Errors
/// etcd unreachable.
#[cfg(feature = "etcd")]
pub async fn connect_etcd(endpoints: &str, prefix: &str) -> Result<Arc<dyn Storage>, String> {
    let mut config = crdkit_storage::EtcdConfig::new(endpoints.split(',').next().unwrap_or(""));
    config.endpoints = endpoints.split(',').map(str::to_owned).collect();
    config.prefix = prefix.to_owned();
    let store = crdkit_storage::EtcdStorage::connect(config)
        .await
        .map_err(|e| e.to_string())?;
    Ok(Arc::new(store))
}
