//! `cargo run --bin crdgen`: prints the example CRDs as YAML; `crdgen check` / `crdgen validate`
//! check CRD files and manifests offline (see `crdgen --help`).

use std::process::ExitCode;

fn main() -> ExitCode {
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
