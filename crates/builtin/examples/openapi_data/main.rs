//! Writes and checks crdkit-builtin's data from upstream files kept outside git.
//!
//! ```text
//! # data/kubernetes-openapi.json: the structure of the definitions of each minor version, from
//! # the v3 documents of each release (kubernetes api/openapi-spec/v3 at the release tag)
//! cargo run -p crdkit-builtin --example openapi_data -- structure \
//!     1.29=DIR-OF-1.29-DOCUMENTS ... 1.35=DIR-OF-1.35-DOCUMENTS > crates/builtin/data/kubernetes-openapi.json
//! # data/kubernetes-openapi-docs.json: descriptions, patch strategies and each group-version's
//! # definitions, from the published v2 document (kubernetes api/openapi-spec/swagger.json at
//! # v1.35.4; kube-rs/k8s-pb carries it as k8s-pb-codegen/openapi/swagger.json at commit 8d5c28e)
//! cargo run -p crdkit-builtin --example openapi_data -- docs 1.35.4 swagger.json \
//!     > crates/builtin/data/kubernetes-openapi-docs.json
//! # both data files and the resource table against swagger.json (exit 1 on a difference)
//! cargo run -p crdkit-builtin --example openapi_data -- check 1.35.4 swagger.json
//! ```

mod check;
mod docs;
mod structure;

use std::path::Path;

/// The structure file, relative to this crate.
const STRUCTURE: &str = "data/kubernetes-openapi.json";
/// The overlay file, relative to this crate.
const DOCS: &str = "data/kubernetes-openapi-docs.json";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    match args.split_first() {
        Some((cmd, rest)) if cmd == "structure" => structure::run(rest),
        Some((cmd, [release, swagger])) if cmd == "docs" => {
            let text = docs::build(release, Path::new(swagger), &crate_dir.join(STRUCTURE))?;
            print!("{text}");
            Ok(())
        }
        Some((cmd, [release, swagger])) if cmd == "check" => {
            let problems = check::run(release, Path::new(swagger), crate_dir)?;
            for p in &problems {
                eprintln!("{p}");
            }
            if problems.is_empty() {
                eprintln!("data and resource table agree with {swagger}");
                Ok(())
            } else {
                Err(format!("{} differences", problems.len()).into())
            }
        }
        _ => Err("usage: openapi_data structure MAJOR.MINOR=DIR... | docs RELEASE SWAGGER | check RELEASE SWAGGER".into()),
    }
}
