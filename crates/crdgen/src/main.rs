//! `crdgen`: every command of crdkit's command line (`check`, `validate`, `convert`, `openapi`,
//! `serve`; see `crdgen --help`), with crdkit's example CRDs as its built-in ones (`crdgen`
//! alone prints them).

use std::process::ExitCode;

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
