//! How a run ends: the exit codes, and why a run could not do its job ([`Failure`]).

/// Exit code for a successful run.
pub const OK: u8 = 0;
/// Exit code when an object is invalid or a CRD rejected.
pub const INVALID: u8 = 1;
/// Exit code for usage errors and unreadable input.
pub const USAGE: u8 = 2;

/// Why a run could not do its job (exit [`USAGE`]).
#[derive(Debug)]
pub(crate) enum Failure {
    /// Bad arguments: the message, printed with a pointer to `--help`.
    Usage(String),
    /// A file that could not be read as manifests or CRDs.
    Input(String),
    /// Reading or writing failed (a closed pipe is not reported).
    Io(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Io(e)
    }
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Self {
        Failure::Usage(e.to_string())
    }
}

impl From<crate::load::LoadError> for Failure {
    fn from(e: crate::load::LoadError) -> Self {
        Failure::Input(e.to_string())
    }
}
