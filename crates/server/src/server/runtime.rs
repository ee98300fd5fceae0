//! The threads a server runs on, and the process limit on open files.
//!
//! A server owns its tokio runtime, whoever starts it (`crdgen serve`, a test's runtime,
//! crdkit-envtest): every request, controller and watch runs on threads whose stack holds an
//! object of [`crate::deep::MAX_DEPTH`] levels going through serde's and the engine's recursive
//! code, which a caller's 2 MiB worker threads do not.
//!
//! The open-files limit is raised as Go's runtime raises it for every Go program, kube-apiserver
//! included (`os/rlimit.go`: the soft `RLIMIT_NOFILE` set to the hard one), so that idle or
//! slow connections do not exhaust a soft limit of 256 or 1024 long before the server's other
//! limits apply.

use crate::deep::THREAD_STACK;

/// Worker threads: the cores, at most four (a local server; many run side by side in tests).
fn workers() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4))
}

/// A runtime for one server.
///
/// # Errors
/// The threads cannot be started.
pub(crate) fn build() -> std::io::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers())
        .thread_stack_size(THREAD_STACK)
        .thread_name("crdkit-server")
        .enable_all()
        .build()
}

/// Raises the soft limit on open files to the hard limit (on macOS, at most `OPEN_MAX`, as Go
/// does); returns the limit in force. Nothing happens where limits cannot be read.
pub fn raise_open_files_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{Resource, getrlimit, setrlimit};
        let mut lim = getrlimit(Resource::Nofile);
        if lim.current != lim.maximum {
            let mut max = lim.maximum;
            // Darwin refuses more than OPEN_MAX for the soft limit (Go's `adjustFileLimit`).
            if cfg!(target_os = "macos") {
                max = Some(max.map_or(10_240, |m| m.min(10_240)));
            }
            let raised = rustix::process::Rlimit {
                current: max,
                maximum: lim.maximum,
            };
            if setrlimit(Resource::Nofile, raised).is_ok() {
                lim = raised;
            }
        }
        // `None` is unlimited.
        Some(lim.current.unwrap_or(u64::MAX))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    #[cfg(unix)]
    #[test]
    fn open_files_limit_is_the_hard_limit() {
        let before = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        let now = super::raise_open_files_limit().unwrap();
        let after = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        assert!(now >= before.current.unwrap_or(u64::MAX).min(now));
        assert_eq!(after.maximum, before.maximum);
        if !cfg!(target_os = "macos") {
            assert_eq!(after.current, after.maximum);
        }
    }
}
