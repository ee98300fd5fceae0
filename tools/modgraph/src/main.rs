//! `cargo run -p crdkit-modgraph [WORKSPACE]`: prints every module circle of the workspace
//! (known ones marked) and exits 1 if the check fails.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = std::env::args_os().nth(1).map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.."),
        PathBuf::from,
    );
    let crates = match crdkit_modgraph::read_workspace(&root) {
        Ok(crates) => crates,
        Err(e) => {
            eprintln!("modgraph: {e}");
            return ExitCode::from(2);
        }
    };
    let circles = crdkit_modgraph::workspace_circles(&crates);
    for (i, circle) in &circles {
        let krate = &crates[*i];
        let members = crdkit_modgraph::member_names(&krate.tree, circle);
        let known = crdkit_modgraph::KNOWN_CIRCLES
            .iter()
            .any(|(n, m)| *n == krate.name && *m == members);
        let mark = if known { " [known]" } else { "" };
        println!("{}{mark}", crdkit_modgraph::describe(krate, circle, &root));
    }
    println!("{} crate trees, {} circles", crates.len(), circles.len());
    match crdkit_modgraph::check_workspace(&root) {
        Ok(problems) if problems.is_empty() => ExitCode::SUCCESS,
        Ok(problems) => {
            for p in problems {
                eprintln!("{p}");
            }
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("modgraph: {e}");
            ExitCode::from(2)
        }
    }
}
