//! `crdgen check --old OLD.yaml NEW.yaml`: each new CRD as an update of the old one of the same
//! name (the API server's update rules, [`check_crd_update`]), and the compatibility report
//! between them ([`compat::compare`]); a new CRD without an old one is checked as a create, an
//! old one without a new one is reported as removed.

use std::io::Write;

use serde_json::{Value, json};

use super::args::{FailOn, Options};
use crate::exit::{Failure, INVALID, OK};
use crate::output::Output;
use crate::report;
use crdkit_apimachinery::field::FieldError;
use crdkit_crd::compat::{self, Finding};
use crdkit_crd::crd_check::{StoredVersions, as_stored, check_crd_full, check_crd_update};
use crdkit_schema::crd::CustomResourceDefinition;

pub(super) fn run(
    o: &Options,
    crds: &[(String, CustomResourceDefinition)],
    mut olds: Vec<(String, CustomResourceDefinition)>,
    out: &mut dyn Write,
) -> Result<u8, Failure> {
    if let Some(stored) = &o.stored_versions {
        for (_, old) in &mut olds {
            set_stored_versions(old, stored);
        }
    }
    let name = |c: &CustomResourceDefinition| c.metadata.name.clone().unwrap_or_default();
    let mut code = OK;
    let mut paired = vec![false; olds.len()];
    for (position, crd) in crds {
        let old = olds.iter().position(|(_, old)| name(old) == name(crd));
        let (errors, findings, stored) = match old {
            Some(i) => {
                paired[i] = true;
                let old = &olds[i].1;
                let stored = Stored {
                    versions: StoredVersions::of(old),
                    given: o.stored_versions.is_some(),
                };
                (
                    check_crd_update(crd, old),
                    compat::compare(old, crd),
                    Some(stored),
                )
            }
            None => (check_crd_full(crd), Vec::new(), None),
        };
        if !errors.is_empty() || fails(o.fail_on, &findings) {
            code = INVALID;
        }
        let report = Report {
            position,
            name: &name(crd),
            errors: &errors,
            findings: &findings,
            stored: stored.as_ref(),
            removed: false,
        };
        write(out, o.output, &report)?;
    }
    for ((position, old), paired) in olds.iter().zip(paired) {
        if paired {
            continue;
        }
        let findings = [compat::removed(old)];
        if fails(o.fail_on, &findings) {
            code = INVALID;
        }
        let report = Report {
            position,
            name: &name(old),
            errors: &[],
            findings: &findings,
            stored: None,
            removed: true,
        };
        write(out, o.output, &report)?;
    }
    Ok(code)
}

/// Whether a finding is at or above `--fail-on`.
fn fails(fail_on: FailOn, findings: &[Finding]) -> bool {
    match fail_on {
        FailOn::Never => false,
        FailOn::Severity(s) => findings.iter().any(|f| f.severity >= s),
    }
}

/// `--stored-versions`: the old CRD's `status.storedVersions`, as a cluster reports them (the
/// rest of its status as the cluster has it, [`as_stored`]).
fn set_stored_versions(crd: &mut CustomResourceDefinition, stored: &[String]) {
    *crd = as_stored(crd);
    if let Some(map) = crd.status.as_mut().and_then(Value::as_object_mut) {
        map.insert("storedVersions".to_owned(), Value::from(stored.to_vec()));
    }
}

/// The stored versions an update was checked against, and where they come from.
struct Stored {
    versions: StoredVersions,
    /// Given with `--stored-versions`.
    given: bool,
}

impl Stored {
    /// Where the versions come from, for the report: `status`, `assumed` or `--stored-versions`.
    fn source(&self) -> &'static str {
        match (&self.versions, self.given) {
            (_, true) => "--stored-versions",
            (StoredVersions::Status(_), false) => "status",
            (StoredVersions::Assumed(_), false) => "assumed",
        }
    }

    /// `stored versions: v1 (assumed: ...)`, as the text report writes it.
    fn line(&self) -> String {
        let versions = self.versions.versions().join(", ");
        let why = match self.source() {
            "status" => "the old CRD's status.storedVersions",
            "assumed" => {
                "assumed: the old CRD's storage version, as a cluster records it on create; the \
                 file lists none, --stored-versions gives them"
            }
            _ => "--stored-versions",
        };
        format!("stored versions: {versions} ({why})")
    }
}

/// One CRD's verdict and findings.
struct Report<'a> {
    position: &'a str,
    name: &'a str,
    errors: &'a [FieldError],
    findings: &'a [Finding],
    /// For a CRD compared with its old one.
    stored: Option<&'a Stored>,
    /// The old CRD has no new one.
    removed: bool,
}

/// In text, the API server's verdict as `crdgen check` prints it (or that the CRD is gone),
/// the stored versions the update was checked against, then one indented line per finding;
/// in JSON, one document.
fn write(out: &mut dyn Write, output: Output, r: &Report<'_>) -> std::io::Result<()> {
    if output == Output::Json {
        let worst = compat::worst(r.findings).map(compat::Severity::as_str);
        let findings: Vec<Value> = r.findings.iter().map(finding_json).collect();
        let errors: Vec<Value> = r.errors.iter().map(report::error_json).collect();
        let mut doc =
            json!({"name": r.name, "errors": errors, "findings": findings, "worst": worst});
        if let Some(s) = r.stored {
            doc["storedVersions"] = json!({"versions": s.versions.versions(), "from": s.source()});
        }
        return writeln!(out, "{doc}");
    }
    if r.removed {
        writeln!(
            out,
            "{}: CustomResourceDefinition {} is gone",
            r.position,
            crdkit_apimachinery::gofmt::quote(r.name)
        )?;
    } else {
        report::write(
            out,
            output,
            r.position,
            "CustomResourceDefinition",
            r.name,
            None,
            r.errors,
        )?;
    }
    if let Some(s) = r.stored {
        writeln!(out, "  {}", s.line())?;
    }
    for f in r.findings {
        writeln!(out, "  {f}")?;
    }
    Ok(())
}

/// The JSON form of a finding: `{"severity", "code", "version", "path", "message"}`.
fn finding_json(f: &Finding) -> Value {
    json!({
        "severity": f.severity.as_str(),
        "code": f.code.as_str(),
        "version": f.version,
        "path": f.path,
        "message": f.message,
    })
}
