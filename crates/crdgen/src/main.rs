//! `crdgen`: every command of crdkit's command line (`check`, `validate`, `convert`, `openapi`,
//! `serve`; see `crdgen --help`), with crdkit's example CRDs as its built-in ones (`crdgen`
//! alone prints them).

use std::process::ExitCode;

// `crdgen serve` allocates per request and per object: mimalloc spends less CPU on it than the
// system allocator (creates, LISTs) for the same memory, as measured in the README.
#[cfg(feature = "serve")]
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    match crdkit_examples::all() {
        Ok(crds) => {
            let crds: Vec<_> = crds.into_iter().map(|(_, c)| c).collect();
            crdkit_cli::main(&crds)
        }
        Err(e) => {
            eprintln!("crdgen: {e}");
            ExitCode::from(crdkit_cli::USAGE)
        }
    }
}
