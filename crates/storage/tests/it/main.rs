//! crdkit-storage integration tests: one suite run against every backend (mini-redis style),
//! plus backend-specific tests (watch cache, redb persistence and kill -9, etcd replicas).

mod cache;
mod cache_list;
#[cfg(feature = "etcd")]
mod etcd;
mod memory;
mod redb;
mod suite;
