//! `cargo run --bin crdgen`: prints the example CRDs as YAML.

use std::process::ExitCode;

fn main() -> ExitCode {
    match crdkit_examples::all() {
        Ok(crds) => {
            let docs: Vec<_> = crds.iter().map(|(_, c)| c.to_value()).collect();
            print!("{}", crdkit::yaml::to_string_multi(&docs));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("crdgen: {e}");
            ExitCode::from(2)
        }
    }
}
