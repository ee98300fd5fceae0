//! The workspace's module-graph check: inside every crate, sibling modules (the top-level
//! modules of the crate, the files of one module directory) must not import each other in a
//! circle. What two siblings share belongs in a module below both.
//!
//! It reads each crate's `src/**/*.rs` from its roots (`lib.rs`, `main.rs`, `bin/*.rs`) along
//! `mod` declarations, resolves `use crate::…`/`super::…`/`self::…` imports and inline paths
//! (through re-exports and glob imports) to the module that defines the item, and reports each
//! circle with the reference behind every edge. No dependencies: a small lexer is enough.
//!
//! ```text
//! cargo run -p crdkit-modgraph            # every circle of the workspace
//! ```
#![forbid(unsafe_code)]

mod graph;
mod lex;
mod resolve;
mod tree;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use graph::{Circle, Edge};
pub use resolve::Res;
pub use tree::{ModId, Module, Ref, Tree};

/// One crate root of the workspace and its module tree.
#[derive(Debug)]
pub struct CrateTree {
    /// The package name, with ` (bin x)` for a binary target's tree.
    pub name: String,
    pub tree: Tree,
}

/// The circles of one crate tree, as text: `parent: a → b → a` and one line per edge.
pub fn describe(krate: &CrateTree, circle: &Circle, root: &Path) -> String {
    let tree = &krate.tree;
    let short = |m: ModId| tree.modules[m].path.last().cloned().unwrap_or_default();
    let mut names: Vec<String> = circle.edges.iter().map(|e| short(e.from)).collect();
    names.push(names.first().cloned().unwrap_or_default());
    let mut out = format!(
        "{}: in `{}`: {}",
        krate.name,
        tree.name(circle.parent),
        names.join(" → ")
    );
    if circle.members.len() > circle.edges.len() {
        let all: Vec<String> = circle.members.iter().map(|&m| short(m)).collect();
        let _ = write!(out, " (one circle of {})", all.join(", "));
    }
    for e in &circle.edges {
        let file = e.file.strip_prefix(root).unwrap_or(&e.file);
        let _ = write!(
            out,
            "\n    {} → {}: {}:{} `{}`",
            short(e.from),
            short(e.to),
            file.display(),
            e.line,
            e.path
        );
    }
    out
}

/// The members of a circle by name (module paths from the crate root).
pub fn member_names(tree: &Tree, circle: &Circle) -> Vec<String> {
    circle.members.iter().map(|&m| tree.name(m)).collect()
}

/// Reads the module trees of every package of the workspace at `root` (the root package and the
/// `members` of its `[workspace]`).
pub fn read_workspace(root: &Path) -> Result<Vec<CrateTree>, String> {
    let manifest = read(&root.join("Cargo.toml"))?;
    let mut dirs = vec![root.to_path_buf()];
    dirs.extend(
        workspace_members(&manifest)
            .into_iter()
            .map(|m| root.join(m)),
    );
    let mut out = Vec::new();
    for dir in dirs {
        let name = package_name(&read(&dir.join("Cargo.toml"))?)
            .ok_or_else(|| format!("{}: no [package] name", dir.display()))?;
        for (file, bin) in crate_roots(&dir.join("src")) {
            let name = bin.map_or_else(|| name.clone(), |b| format!("{name} (bin {b})"));
            out.push(CrateTree {
                name,
                tree: Tree::read(&file)?,
            });
        }
    }
    Ok(out)
}

/// Every circle of the workspace, each as the crate tree's index and the circle.
pub fn workspace_circles(crates: &[CrateTree]) -> Vec<(usize, Circle)> {
    let mut out = Vec::new();
    for (i, krate) in crates.iter().enumerate() {
        out.extend(krate.tree.circles().into_iter().map(|c| (i, c)));
    }
    out
}

/// The check CI runs: every circle of the workspace, described. Empty when the workspace is clean.
pub fn check_workspace(root: &Path) -> Result<Vec<String>, String> {
    let crates = read_workspace(root)?;
    Ok(workspace_circles(&crates)
        .into_iter()
        .map(|(i, circle)| format!("module circle: {}", describe(&crates[i], &circle, root)))
        .collect())
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// `lib.rs`, `main.rs`, `bin/*.rs` and `bin/*/main.rs`, the binaries with their names.
fn crate_roots(src: &Path) -> Vec<(PathBuf, Option<String>)> {
    let mut roots = Vec::new();
    for main in ["lib.rs", "main.rs"] {
        if src.join(main).is_file() {
            roots.push((
                src.join(main),
                (main == "main.rs").then(|| "main".to_owned()),
            ));
        }
    }
    let mut bins: Vec<PathBuf> = std::fs::read_dir(src.join("bin"))
        .map(|dir| dir.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    bins.sort();
    for bin in bins {
        let file = if bin.is_dir() {
            bin.join("main.rs")
        } else {
            bin.clone()
        };
        let name = bin.file_stem().map(|s| s.to_string_lossy().into_owned());
        if file.is_file() && file.extension().is_some_and(|e| e == "rs") {
            roots.push((file, name));
        }
    }
    roots
}

/// The strings of `members = [ … ]` in a `[workspace]` table.
fn workspace_members(manifest: &str) -> Vec<String> {
    let Some(start) = manifest.find("\nmembers") else {
        return Vec::new();
    };
    let rest = &manifest[start..];
    let (Some(open), Some(close)) = (rest.find('['), rest.find(']')) else {
        return Vec::new();
    };
    rest[open + 1..close]
        .split(',')
        .filter_map(|m| {
            let m = m.trim().trim_matches('"');
            (!m.is_empty()).then(|| m.to_owned())
        })
        .collect()
}

/// `name = "…"` of the `[package]` table.
fn package_name(manifest: &str) -> Option<String> {
    let package = &manifest[manifest.find("[package]")?..];
    let line = package
        .lines()
        .find(|l| l.trim_start().starts_with("name"))?;
    Some(line.split_once('=')?.1.trim().trim_matches('"').to_owned())
}
