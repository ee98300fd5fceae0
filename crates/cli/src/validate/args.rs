//! The arguments of `crdgen validate`.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::exit::Failure;
use crate::output::Output;
use crdkit_builtin::schemas::KubernetesVersion;

/// `--field-validation`: what unknown and duplicate fields do, as the API server's
/// `fieldValidation` parameter (`kubectl --validate=strict|warn|ignore`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldValidation {
    /// The request fails with a strict decoding error (kubectl's default).
    Strict,
    /// Warnings; the object is validated.
    Warn,
    /// Nothing is said; unknown fields are dropped, the last duplicate wins.
    Ignore,
}

/// `--unknown-kinds`: what an object of a kind that no CRD and no built-in kind has does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnknownKinds {
    /// Reported as invalid (exit 1), as kubectl-validate and kubeconform do by default: a kind
    /// that is not checked must not pass silently.
    Fail,
    /// A warning; the run goes on.
    Warn,
    /// Skipped silently (kubeconform's `-ignore-missing-schemas`).
    Ignore,
}

/// `--non-kubernetes`: what a document that is no Kubernetes object does (neither `apiVersion`
/// nor `kind`: a Prometheus config, a dashboard; or kustomize's `Kustomization`/`Component`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NonKubernetes {
    /// Counted as skipped in the summary, nothing else.
    Skip,
    /// Skipped with a warning naming the file and line (the default): repositories hold such
    /// files beside manifests.
    Warn,
    /// Reported as an error (exit 1).
    Fail,
}

/// The options of a run.
pub(super) struct Options {
    pub(super) output: Output,
    pub(super) status_subresource: bool,
    pub(super) field_validation: FieldValidation,
    pub(super) unknown_kinds: UnknownKinds,
    pub(super) non_kubernetes: NonKubernetes,
    pub(super) version: KubernetesVersion,
    pub(super) crd_files: Vec<PathBuf>,
    pub(super) old_files: Vec<PathBuf>,
    pub(super) files: Vec<PathBuf>,
}

/// The options, or `None` for `--help`.
pub(super) fn parse_args(args: Vec<OsString>) -> Result<Option<Options>, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut o = Options {
        output: Output::Text,
        status_subresource: false,
        field_validation: FieldValidation::Strict,
        unknown_kinds: UnknownKinds::Fail,
        non_kubernetes: NonKubernetes::Warn,
        version: KubernetesVersion::newest(),
        crd_files: Vec::new(),
        old_files: Vec::new(),
        files: Vec::new(),
    };
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Long("output") | Short('o') => {
                o.output = Output::parse(
                    parser.value()?,
                    &[Output::Text, Output::Json, Output::Github],
                )?;
            }
            Long("crd") => o.crd_files.push(parser.value()?.into()),
            Long("old") => o.old_files.push(parser.value()?.into()),
            Long("subresource") => {
                let v = parser.value()?.string()?;
                if v != "status" {
                    return Err(Failure::Usage(format!(
                        "unknown subresource `{v}` (only `status` is validated)"
                    )));
                }
                o.status_subresource = true;
            }
            Long("field-validation") | Long("validate") => {
                let v = parser.value()?.string()?;
                o.field_validation = match v.to_ascii_lowercase().as_str() {
                    "strict" | "true" => FieldValidation::Strict,
                    "warn" => FieldValidation::Warn,
                    "ignore" | "false" => FieldValidation::Ignore,
                    _ => {
                        return Err(Failure::Usage(format!(
                            "unknown field validation `{v}` (Strict, Warn or Ignore)"
                        )));
                    }
                };
            }
            Long("unknown-kinds") => {
                let v = parser.value()?.string()?;
                o.unknown_kinds = match v.as_str() {
                    "fail" => UnknownKinds::Fail,
                    "warn" => UnknownKinds::Warn,
                    "ignore" => UnknownKinds::Ignore,
                    _ => {
                        return Err(Failure::Usage(format!(
                            "unknown `--unknown-kinds {v}` (fail, warn or ignore)"
                        )));
                    }
                };
            }
            Long("non-kubernetes") => {
                let v = parser.value()?.string()?;
                o.non_kubernetes = match v.as_str() {
                    "skip" => NonKubernetes::Skip,
                    "warn" => NonKubernetes::Warn,
                    "fail" => NonKubernetes::Fail,
                    _ => {
                        return Err(Failure::Usage(format!(
                            "unknown `--non-kubernetes {v}` (skip, warn or fail)"
                        )));
                    }
                };
            }
            Long("kubernetes-version") => {
                o.version =
                    KubernetesVersion::parse(&parser.value()?.string()?).map_err(Failure::Usage)?;
            }
            Value(f) => o.files.push(f.into()),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if o.files.is_empty() {
        return Err(Failure::Usage(
            "`crdgen validate` needs at least one object file".to_owned(),
        ));
    }
    if o.status_subresource && o.old_files.is_empty() {
        return Err(Failure::Usage(
            "`--subresource status` updates a stored object: give it with `--old OLD.yaml`"
                .to_owned(),
        ));
    }
    Ok(Some(o))
}
