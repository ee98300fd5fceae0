//! The shared suite on the in-memory backend.

use std::sync::Arc;

use crdkit_storage::{CompactionPolicy, MemoryStorage};

use crate::suite::Backend;

fn open(
    policy: CompactionPolicy,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Option<Backend>> + Send>> {
    Box::pin(async move {
        Some(Backend {
            store: Arc::new(MemoryStorage::with_policy(policy)),
            _guard: Box::new(()),
        })
    })
}

crate::storage_suite!(open);
