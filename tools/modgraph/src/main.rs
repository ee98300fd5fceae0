//! `cargo run -p crdkit-modgraph [WORKSPACE]`: prints every module circle of the workspace
//! and exits 1 if there is one.
//! `cargo run -p crdkit-modgraph -- --edges PACKAGE [WORKSPACE]`: prints the package's edges
//! between sibling modules, each with the first reference that makes it.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let edges_of = match args.first() {
        Some(flag) if flag == "--edges" && args.len() > 1 => {
            let package = args[1].to_string_lossy().into_owned();
            args.drain(..2);
            Some(package)
        }
        _ => None,
    };
    let root = args.first().map_or_else(
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
    if let Some(package) = edges_of {
        for krate in crates.iter().filter(|c| c.name == package) {
            for e in krate.tree.edges().values() {
                let file = e.file.strip_prefix(&root).unwrap_or(&e.file);
                let (from, to) = (krate.tree.name(e.from), krate.tree.name(e.to));
                println!("{from} → {to}: {}:{} `{}`", file.display(), e.line, e.path);
            }
        }
        return ExitCode::SUCCESS;
    }
    let circles = crdkit_modgraph::workspace_circles(&crates);
    for (i, circle) in &circles {
        println!("{}", crdkit_modgraph::describe(&crates[*i], circle, &root));
    }
    println!("{} crate trees, {} circles", crates.len(), circles.len());
    if circles.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
