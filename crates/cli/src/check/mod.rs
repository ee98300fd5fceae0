//! `crdgen check`: would the API server accept these CRDs on create, or, with `--old`, as
//! updates of the stored ones, and what would the update break (`update`)?

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use crate::crds::read_crds;
use crate::exit::{Failure, INVALID, OK};
use crate::help;
use crate::report;
use crdkit_crd::crd_check::check_crd_full;
use crdkit_schema::crd::CustomResourceDefinition;

mod args;
mod update;

use args::parse_args;

/// Runs `crdgen check [--output text|json] [--old OLD.yaml|DIR]... [--stored-versions V,..]
/// [--fail-on SEVERITY|none] CRD.yaml|DIR...`; without files, checks `builtin`. Returns [`OK`]
/// when every CRD would be accepted (and, with `--old`, no change is at or above `--fail-on`),
/// else [`INVALID`].
///
/// # Errors
/// [`Failure::Usage`] for bad arguments, [`Failure::Input`] for a file that is not YAML or JSON
/// CRDs, [`Failure::Io`] when reading or writing fails.
pub(crate) fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    let Some(o) = parse_args(args)? else {
        help::write(out, Some("check"))?;
        return Ok(OK);
    };
    let mut crds: Vec<(String, CustomResourceDefinition)> = Vec::new();
    if o.files.is_empty() {
        crds.extend(
            builtin
                .iter()
                .map(|c| (String::from("<built-in>"), c.clone())),
        );
    }
    for f in &o.files {
        crds.extend(read_crds(f, err)?);
    }
    if crds.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no CustomResourceDefinition to check",
            names(&o.files)
        )));
    }
    if !o.old_files.is_empty() {
        let mut olds = Vec::new();
        for f in &o.old_files {
            olds.extend(read_crds(f, err)?);
        }
        if olds.is_empty() {
            return Err(Failure::Input(format!(
                "{}: no CustomResourceDefinition to compare with",
                names(&o.old_files)
            )));
        }
        return update::run(&o, &crds, olds, out);
    }
    let mut code = OK;
    for (position, crd) in &crds {
        let errors = check_crd_full(crd);
        if !errors.is_empty() {
            code = INVALID;
        }
        let name = crd.metadata.name.clone().unwrap_or_default();
        report::write(
            out,
            o.output,
            position,
            "CustomResourceDefinition",
            &name,
            None,
            &errors,
        )?;
    }
    Ok(code)
}

fn names(files: &[PathBuf]) -> String {
    files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(max: i64) -> CustomResourceDefinition {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "crontabs.stable.example.com"},
            "spec": {"group": "stable.example.com", "scope": "Namespaced",
                     "names": {"plural": "crontabs", "kind": "CronTab"},
                     "versions": [{"name": "v1", "served": true, "storage": true, "schema": {
                         "openAPIV3Schema": {"type": "object", "properties": {"replicas": {
                             "type": "integer", "maximum": max}}}}}]}
        }))
        .unwrap()
    }

    /// A program's own CRDs (from its Rust types) against the YAML it released.
    #[test]
    fn builtin_crds_against_a_release() {
        let dir = std::env::temp_dir().join(format!("crdgen-check-old-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let released = dir.join("released.yaml");
        std::fs::write(&released, crd(10).to_yaml()).unwrap();
        let run_with = |builtin: &[CustomResourceDefinition]| {
            let (mut out, mut err) = (Vec::new(), Vec::new());
            let args = vec![OsString::from("--old"), released.clone().into_os_string()];
            let code = run(args, builtin, &mut out, &mut err).unwrap();
            (code, String::from_utf8(out).unwrap())
        };
        assert_eq!(
            run_with(&[crd(10)]),
            (
                OK,
                "<built-in>: CustomResourceDefinition \"crontabs.stable.example.com\" is valid\n  \
                 stored versions: v1 (assumed: the old CRD's storage version, as a cluster \
                 records it on create; the file lists none, --stored-versions gives them)\n"
                    .to_owned()
            )
        );
        let (code, out) = run_with(&[crd(5)]);
        assert_eq!(code, INVALID);
        assert!(
            out.ends_with(
                "  breaks-clients: version v1: .replicas: maximum lowered from 10 to 5; ratcheted \
                 (Kubernetes 1.30+): stored objects that fail it keep updating while that value \
                 is unchanged (bound-tightened)\n"
            ),
            "{out}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
