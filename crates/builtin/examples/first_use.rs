//! What the data costs on first use (`cargo run --release -p crdkit-builtin --example first_use`):
//! each step's time, once per process, as a server pays it on the first request that needs it.

use std::time::Instant;

use crdkit_builtin::{openapi, resources, schemas, tables};

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let start = Instant::now();
    let out = f();
    println!("{what:<58} {:>9.2} ms", start.elapsed().as_secs_f64() * 1e3);
    out
}

fn main() {
    timed("resources: resolve `all` (static table)", || {
        resources::resolve("all").len()
    });
    let n = timed(
        "openapi: components of apps/v1 (structure parsed, words of ~100 definitions)",
        || openapi::components("apps", "v1").map_or(0, |c| c.len()),
    );
    println!("  {n} definitions");
    timed("openapi: components of apps/v1 again", || {
        openapi::components("apps", "v1").map_or(0, |c| c.len())
    });
    timed("openapi: components of v1 (core)", || {
        openapi::components("", "v1").map_or(0, |c| c.len())
    });
    let n = timed("openapi: every group-version's components", || {
        openapi::group_versions()
            .iter()
            .map(|(g, v)| openapi::components(g, v).map_or(0, |c| c.len()))
            .sum::<usize>()
    });
    println!("  {n} definitions in all documents");
    let n = timed("openapi: /openapi/v2 definitions", || {
        openapi::definitions_v2().len()
    });
    println!("  {n} definitions");
    let text = serde_json::to_vec(openapi::definitions_v2()).unwrap_or_default();
    println!("  {} bytes of JSON", text.len());
    timed(
        "schemas: Catalog 1.35 + Deployment's structural schema",
        || {
            let c = schemas::Catalog::new(schemas::KubernetesVersion::newest());
            c.schema("apps/v1", "Deployment").map(|s| s.is_ok())
        },
    );
    timed("tables: Pod columns with their descriptions", || {
        tables::printer("", "Pod").column_definitions().len()
    });
}
