//! `cargo run --bin crdgen`: prints the example CRDs as YAML; `crdgen check` / `crdgen validate`
//! check CRD files and manifests offline, `crdgen serve` runs the local API server (see
//! `crdgen --help` and `crdgen serve --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
    #[cfg(feature = "serve")]
    if std::env::args_os().nth(1).is_some_and(|a| a == "serve") {
        return crdkit_server::cli::main(std::env::args_os().skip(2));
    }
    match crdkit_examples::all() {
        Ok(crds) => {
            let crds: Vec<_> = crds.into_iter().map(|(_, c)| c).collect();
            crdkit::cli::main(&crds)
        }
        Err(e) => {
            eprintln!("crdgen: {e}");
            ExitCode::from(2)
        }
    }
}
