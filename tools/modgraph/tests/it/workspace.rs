//! The check CI runs: no module circle in any crate of this workspace.

use std::path::Path;

#[test]
fn workspace_has_no_module_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let problems =
        crdkit_modgraph::check_workspace(&root).expect("the workspace's sources are readable");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn reads_every_package_of_the_workspace() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let crates =
        crdkit_modgraph::read_workspace(&root).expect("the workspace's sources are readable");
    let names: Vec<&str> = crates.iter().map(|c| c.name.as_str()).collect();
    for expected in [
        "crdkit",
        "crdkit-cel",
        "crdkit-server",
        "crdkit-macros",
        "crdkit-modgraph (bin main)",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    // The facade and the CEL crate have many modules: the trees were followed, not just roots.
    let cel = crates
        .iter()
        .find(|c| c.name == "crdkit-cel")
        .expect("read above");
    assert!(cel.tree.modules.len() > 20, "{}", cel.tree.modules.len());
}
