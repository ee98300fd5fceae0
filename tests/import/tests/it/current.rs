//! The sources in `src/` are what `crdgen import` writes for the test CRDs today (`BLESS=1`
//! writes them, with `src/all.rs`, the list of modules, each behind its project's feature).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// The source file of each project, its directory of CRDs under `tests/data`, and whether its
/// feature compiles it (every source is checked against `crdgen import` either way).
pub const PROJECTS: &[(&str, &str, bool)] = &[
    ("argo_cd", "import/argo-cd", cfg!(feature = "argo-cd")),
    (
        "cert_manager",
        "import/cert-manager",
        cfg!(feature = "cert-manager"),
    ),
    (
        "cluster_api",
        "import/cluster-api",
        cfg!(feature = "cluster-api"),
    ),
    (
        "crossplane",
        "import/crossplane",
        cfg!(feature = "crossplane"),
    ),
    (
        "gateway_api",
        "gateway-api/crds",
        cfg!(feature = "gateway-api"),
    ),
    ("istio", "import/istio", cfg!(feature = "istio")),
    ("knative", "import/knative", cfg!(feature = "knative")),
    (
        "prometheus_operator",
        "import/prometheus-operator",
        cfg!(feature = "prometheus-operator"),
    ),
];

pub fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

fn import(dir: &Path) -> String {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let args = vec![OsString::from("import"), dir.as_os_str().to_owned()];
    let code = crdkit_cli::run(args, &[], &mut out, &mut err);
    let err = String::from_utf8(err).unwrap();
    assert_eq!(code, crdkit_cli::OK, "{}: {err}", dir.display());
    String::from_utf8(out).unwrap()
}

#[test]
fn sources_are_what_crdgen_import_writes() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let bless = std::env::var_os("BLESS").is_some();
    let mut all = String::from(
        "//! Every imported module's `crds()` (written by the `current` test with `BLESS=1`).\n\n\
         /// The module path and its `crds()`.\n\
         pub type Crds = fn() -> Result<Vec<crdkit::CustomResourceDefinition>, crdkit::CrdError>;\n\n\
         /// Every module of every project.\n\
         pub const ALL: &[(&str, Crds)] = &[\n",
    );
    let mut stale = Vec::new();
    for (file, dir, _) in PROJECTS {
        let text = import(&data_dir().join(dir));
        let feature = file.replace('_', "-");
        for line in text.lines() {
            if let Some(m) = line
                .strip_prefix("pub mod ")
                .and_then(|l| l.strip_suffix(" {"))
            {
                let (name, crds) = (
                    format!("\"{file}::{m}\""),
                    format!("crate::{file}::{m}::crds"),
                );
                all.push_str(&format!("    #[cfg(feature = \"{feature}\")]\n"));
                // rustfmt's `fn_call_width`: a tuple whose items are wider goes vertical.
                if name.len() + 2 + crds.len() <= 60 {
                    all.push_str(&format!("    ({name}, {crds}),\n"));
                } else {
                    all.push_str(&format!(
                        "    (\n        {name},\n        {crds},\n    ),\n"
                    ));
                }
            }
        }
        let path = src.join(format!("{file}.rs"));
        if bless {
            std::fs::write(&path, &text).unwrap();
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    all.push_str("];\n");
    let path = src.join("all.rs");
    if bless {
        std::fs::write(&path, &all).unwrap();
    } else if std::fs::read_to_string(&path).ok().as_deref() != Some(all.as_str()) {
        stale.push(path.display().to_string());
    }
    assert!(
        stale.is_empty(),
        "not what `crdgen import` writes (run with BLESS=1): {}",
        stale.join(", ")
    );
}
