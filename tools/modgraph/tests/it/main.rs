//! The module-graph check: on small synthetic crates (circles found, none found, the
//! resolution rules behind an edge), and on this workspace.

mod synthetic;
mod workspace;
