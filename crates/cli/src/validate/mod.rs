//! `crdgen validate`: prune, default and validate objects offline, as the API server does on
//! create (or, with `--old`, on update): custom objects against their CRDs, built-in kinds
//! against the schemas Kubernetes publishes ([`crdkit_builtin::schemas`]), CRDs in the input with the
//! checks of `crdgen check`.
//!
//! Made for real repositories: a document that is no Kubernetes object is skipped
//! (`--non-kubernetes`), and a file or document that cannot be read or checked is reported in
//! its place while the others still are; a summary line ends the report. Files: `args` →
//! `inputs` (reading) → `plan` (what each document is) → `admit` (one object) → `summary`.

use std::ffi::OsString;
use std::io::Write;

mod admit;
mod args;
mod inputs;
mod plan;
mod summary;

use args::{NonKubernetes, Options, UnknownKinds, parse_args};
use plan::Step;
use summary::{Summary, Verdict};

use crate::crds::warn_duplicates;
use crate::exit::{Failure, INVALID, OK};
use crate::output::Output;
use crate::registry::Registry;
use crate::report::Reporter;
use crdkit_schema::crd::CustomResourceDefinition;

/// Runs `crdgen validate [--crd CRD.yaml|DIR]... [--old OLD.yaml [--subresource status]]
/// [--field-validation Strict|Warn|Ignore] [--unknown-kinds fail|warn|ignore]
/// [--non-kubernetes skip|warn|fail] [--kubernetes-version 1.35] [--output text|json|github]
/// OBJECT.yaml|DIR...`. Returns [`OK`] when nothing is invalid or unchecked (skipped documents
/// aside), else [`INVALID`].
///
/// # Errors
/// [`Failure::Usage`] for bad arguments, [`Failure::Input`] when no input file can be read (or
/// they hold nothing), an `--old` file cannot be read or a `--crd` path holds no CRD,
/// [`Failure::Io`] when writing fails.
pub(crate) fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    let Some(o) = parse_args(args)? else {
        crate::help::write(out, Some("validate"))?;
        return Ok(OK);
    };
    let mut registry = Registry::new(o.version);
    if o.crd_files.is_empty() {
        for c in builtin {
            registry.add_crd("<built-in>".to_owned(), c.clone(), true);
        }
    }
    let unreadable_crds = inputs::add_crds(&o.crd_files, &mut registry, err)?;
    let olds = inputs::read_olds(&o.old_files)?;
    let inputs = inputs::read(&o.files)?;
    let steps = plan::plan(&o, &mut registry, &inputs.entries, &olds, err);
    let mut summary = Summary::new(inputs.files);
    let mut reporter = Reporter::new(o.output, out, inputs.texts);
    for e in &unreadable_crds {
        reporter.unreadable(e)?;
        summary.count(Verdict::Error);
    }
    for step in steps {
        let verdict = report(&o, &registry, step, &mut reporter, err)?;
        summary.count(verdict);
    }
    // The JSON output stays one document per object: the summary goes beside it.
    match o.output {
        Output::Json => {
            let _ = writeln!(err, "{summary}");
        }
        _ => writeln!(out, "{summary}")?,
    }
    Ok(if summary.failed() { INVALID } else { OK })
}

/// Checks what `step` says and reports it.
fn report(
    o: &Options,
    registry: &Registry,
    step: Step<'_>,
    reporter: &mut Reporter<'_>,
    err: &mut dyn Write,
) -> std::io::Result<Verdict> {
    Ok(match step {
        Step::Crd(doc, crd) => {
            warn_duplicates(err, doc);
            let errors = crdkit_crd::crd_check::check_crd_full(&crd);
            let name = crd.metadata.name.clone().unwrap_or_default();
            reporter.object(doc, "CustomResourceDefinition", &name, None, &errors, false)?;
            Verdict::of(errors.is_empty())
        }
        Step::Object(doc, target, old) => {
            admit::admit(o, registry, doc, target, old.as_ref(), reporter, err)?
        }
        Step::Unknown(doc, message) => match o.unknown_kinds {
            UnknownKinds::Fail => {
                reporter.rejected(doc, None, &message, "unknown kind", &[])?;
                Verdict::Invalid
            }
            UnknownKinds::Warn => {
                let _ = writeln!(err, "Warning: {}: {message}", doc.position());
                reporter.warning(doc, None, "unknown kind", &message)?;
                Verdict::Skipped
            }
            UnknownKinds::Ignore => Verdict::Skipped,
        },
        Step::NotServed(doc, message) => {
            reporter.rejected(doc, None, &message, "version not served", &[])?;
            Verdict::Invalid
        }
        Step::NotKubernetes(doc, why) => match o.non_kubernetes {
            NonKubernetes::Fail => {
                reporter.error(doc, &why)?;
                Verdict::Error
            }
            NonKubernetes::Warn => {
                let message = format!("{why}; skipped");
                let _ = writeln!(err, "Warning: {}: {message}", doc.position());
                reporter.warning(doc, None, "not a Kubernetes object", &message)?;
                Verdict::Skipped
            }
            NonKubernetes::Skip => Verdict::Skipped,
        },
        Step::Error(doc, why) => {
            reporter.error(doc, &why)?;
            Verdict::Error
        }
        Step::Unreadable(e) => {
            reporter.unreadable(e)?;
            Verdict::Error
        }
    })
}
