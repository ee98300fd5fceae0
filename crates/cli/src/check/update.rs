//! `crdgen check --old OLD.yaml NEW.yaml`: each new CRD as an update of the old one of the same
//! name (the API server's update rules, [`check_crd_update`]), and the compatibility report
//! between them ([`compat::compare`]); a new CRD without an old one is checked as a create, an
//! old one without a new one is reported as removed.

use std::io::Write;

use serde_json::{Value, json};

use super::{FailOn, Options};
use crate::report::{self, Output};
use crate::{Failure, INVALID, OK};
use crdkit_apimachinery::field::FieldError;
use crdkit_crd::compat::{self, Finding};
use crdkit_crd::crd_check::{check_crd_full, check_crd_update};
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
        let (errors, findings) = match old {
            Some(i) => {
                paired[i] = true;
                let old = &olds[i].1;
                (check_crd_update(crd, old), compat::compare(old, crd))
            }
            None => (check_crd_full(crd), Vec::new()),
        };
        if !errors.is_empty() || fails(o.fail_on, &findings) {
            code = INVALID;
        }
        write(
            out,
            o.output,
            position,
            &name(crd),
            &errors,
            &findings,
            false,
        )?;
    }
    for ((position, old), paired) in olds.iter().zip(paired) {
        if paired {
            continue;
        }
        let findings = [compat::removed(old)];
        if fails(o.fail_on, &findings) {
            code = INVALID;
        }
        write(out, o.output, position, &name(old), &[], &findings, true)?;
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

/// `--stored-versions`: the old CRD's `status.storedVersions`, as a cluster reports them.
fn set_stored_versions(crd: &mut CustomResourceDefinition, stored: &[String]) {
    let status = crd.status.get_or_insert_with(|| {
        // A CRD with objects stored is established.
        json!({"conditions": [{"type": "Established", "status": "True"}]})
    });
    if let Some(map) = status.as_object_mut() {
        map.insert("storedVersions".to_owned(), Value::from(stored.to_vec()));
    }
}

/// One CRD's verdict and findings: in text, the API server's verdict as `crdgen check` prints
/// it (or that the CRD is gone), then one indented line per finding; in JSON, one document.
fn write(
    out: &mut dyn Write,
    output: Output,
    position: &str,
    name: &str,
    errors: &[FieldError],
    findings: &[Finding],
    removed: bool,
) -> std::io::Result<()> {
    if output == Output::Json {
        let worst = compat::worst(findings).map(compat::Severity::as_str);
        let findings: Vec<Value> = findings.iter().map(finding_json).collect();
        let errors: Vec<Value> = errors.iter().map(report::error_json).collect();
        return writeln!(
            out,
            "{}",
            json!({"name": name, "errors": errors, "findings": findings, "worst": worst})
        );
    }
    if removed {
        writeln!(
            out,
            "{position}: CustomResourceDefinition {} is gone",
            crdkit_apimachinery::gofmt::quote(name)
        )?;
    } else {
        report::write(
            out,
            output,
            position,
            "CustomResourceDefinition",
            name,
            None,
            errors,
        )?;
    }
    for f in findings {
        writeln!(out, "  {f}")?;
    }
    Ok(())
}

/// The JSON form of a finding: `{"severity", "code", "version", "path", "message"}`.
#[must_use]
pub fn finding_json(f: &Finding) -> Value {
    json!({
        "severity": f.severity.as_str(),
        "code": f.code.as_str(),
        "version": f.version,
        "path": f.path,
        "message": f.message,
    })
}
