//! `crdgen validate`: prune, default and validate objects offline, as the API server does on
//! create (or, with `--old`, on update).

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use serde_json::Value as Json;

use super::load::{self, Document};
use super::report::{self, Output};
use super::{Failure, INVALID, OK};
use crdkit_apiextensions::admission::{Admission, AdmissionError};
use crdkit_schema::crd::CustomResourceDefinition;

/// Runs `crdgen validate --crd CRD.yaml [--old OLD.yaml [--subresource status]] [--output text|json]
/// OBJECT.yaml...`.
/// Returns [`OK`] when every object is valid, else [`INVALID`].
///
/// # Errors
/// [`Failure::Usage`] for bad arguments (no object file, no CRD), [`Failure::Input`] for a file
/// that is not YAML or JSON manifests, [`Failure::Io`] when reading or writing fails.
pub fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut output = Output::Text;
    let mut status_subresource = false;
    let (mut crd_files, mut old_files, mut files): (Vec<PathBuf>, Vec<PathBuf>, Vec<PathBuf>) =
        Default::default();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("output") | Short('o') => {
                output = super::parse_output(parser.value()?, &[Output::Text, Output::Json])?
            }
            Long("crd") => crd_files.push(parser.value()?.into()),
            Long("old") => old_files.push(parser.value()?.into()),
            Long("subresource") => {
                let v = parser.value()?.string()?;
                if v != "status" {
                    return Err(Failure::Usage(format!(
                        "unknown subresource `{v}` (only `status` is validated)"
                    )));
                }
                status_subresource = true;
            }
            Value(f) => files.push(f.into()),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if files.is_empty() {
        return Err(Failure::Usage(
            "`crdgen validate` needs at least one object file".to_owned(),
        ));
    }
    let mut crds: Vec<(String, CustomResourceDefinition)> = Vec::new();
    if crd_files.is_empty() {
        crds.extend(
            builtin
                .iter()
                .map(|c| (String::from("<built-in>"), c.clone())),
        );
    }
    for f in &crd_files {
        for doc in load::load(f)? {
            crds.push((doc.position(), super::check::read_crd(&doc)?));
            warn_duplicates(err, &doc);
        }
    }
    if crds.is_empty() {
        return Err(Failure::Usage(
            "no CustomResourceDefinition: give one with `--crd CRD.yaml`".to_owned(),
        ));
    }
    if status_subresource && old_files.is_empty() {
        return Err(Failure::Usage(
            "`--subresource status` updates a stored object: give it with `--old OLD.yaml`"
                .to_owned(),
        ));
    }
    let mut olds = Vec::new();
    for f in &old_files {
        olds.extend(load::load(f)?);
    }
    let mut objects = Vec::new();
    for f in &files {
        objects.extend(load::load(f)?);
    }
    // The API server takes `apiVersion` and `kind` from the request's URL: with one CRD, an
    // object without them is posted to its storage version.
    if let [(_, crd)] = crds.as_slice() {
        for doc in objects.iter_mut().chain(olds.iter_mut()) {
            fill_type_meta(&mut doc.value, crd);
        }
    }
    if objects.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no objects to validate",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    let single_pair = olds.len() == 1 && objects.len() == 1;
    // Every object is matched to its CRD version and stored object first: an input error
    // (exit 2) prints nothing on the standard output.
    let mut targets: Vec<Target> = Vec::new();
    let mut plan: Vec<(&Document, usize, Option<&Document>)> = Vec::new();
    for doc in &objects {
        let key = Target::key(doc);
        // Each CRD version is compiled once, whatever the number of objects.
        let target = match targets.iter().position(|t| t.key == key) {
            Some(i) => i,
            None => {
                targets.push(Target::find(&crds, doc, err)?);
                targets.len() - 1
            }
        };
        let old = if single_pair {
            olds.first()
        } else {
            olds.iter().find(|o| same_object(o, doc))
        };
        if status_subresource {
            if old.is_none() {
                return Err(Failure::Input(format!(
                    "{}: no stored object in the --old files to update",
                    doc.position()
                )));
            }
            if !targets[target].admission.has_status_subresource() {
                return Err(Failure::Input(format!(
                    "{}: the {} resource has no status subresource",
                    doc.position(),
                    targets[target].kind
                )));
            }
        }
        plan.push((doc, target, old));
    }
    let mut code = OK;
    for (doc, target, old) in plan {
        let target = &targets[target];
        warn_duplicates(err, doc);
        let mut obj = doc.value.clone();
        let admitted = match (old, status_subresource) {
            (Some(o), false) => target.admission.update(&mut obj, &o.value),
            (Some(o), true) => {
                target
                    .admission
                    .update_status(&mut obj, &o.value)
                    .map_err(|_| {
                        Failure::Input(format!(
                            "{}: the {} resource has no status subresource",
                            doc.position(),
                            target.kind
                        ))
                    })?
            }
            (None, _) => target.admission.create(&mut obj),
        };
        for u in &admitted.unknown_fields {
            let _ = writeln!(
                err,
                "Warning: {}: unknown field {}",
                doc.position(),
                crdkit_apimachinery::field::go_quote(u)
            );
        }
        as_stored(&mut obj);
        let mut errors = admitted.errors;
        errors.dedup();
        if !errors.is_empty() {
            code = INVALID;
        }
        let name = doc
            .value
            .pointer("/metadata/name")
            .and_then(Json::as_str)
            .unwrap_or_default();
        if target.kind == target.admission.kind() {
            report::write(
                out,
                output,
                &doc.position(),
                &target.kind,
                name,
                Some(&obj),
                &errors,
            )?;
        } else {
            // Sent to the resource of another kind: kubectl has no mapping for such an object,
            // so the API server's own message is printed.
            let group = target
                .admission
                .api_version()
                .rsplit_once('/')
                .map(|(g, _)| g);
            let qualified = match group {
                Some(g) if !g.is_empty() => format!("{}.{g}", target.kind),
                _ => target.kind.clone(),
            };
            report::write_status(
                out,
                output,
                &doc.position(),
                &qualified,
                name,
                Some(&obj),
                &errors,
            )?;
        }
    }
    Ok(code)
}

/// `Warning: FILE:LINE: duplicate field "spec.replicas"` for each key the document gives twice
/// (the last value is kept; see [`load::parse`]).
pub fn warn_duplicates(err: &mut dyn Write, doc: &Document) {
    for d in &doc.duplicates {
        let _ = writeln!(
            err,
            "Warning: {}: duplicate field {}",
            doc.position(),
            crdkit_apimachinery::field::go_quote(d)
        );
    }
}

/// The CRD version an object belongs to, compiled.
struct Target {
    /// `apiVersion` and `kind`.
    key: (String, String),
    kind: String,
    admission: Admission,
}

impl Target {
    fn key(doc: &Document) -> (String, String) {
        let s = |k: &str| {
            doc.value
                .get(k)
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        (s("apiVersion"), s("kind"))
    }

    fn find(
        crds: &[(String, CustomResourceDefinition)],
        doc: &Document,
        err: &mut dyn Write,
    ) -> Result<Target, Failure> {
        let api_version = doc
            .value
            .get("apiVersion")
            .and_then(Json::as_str)
            .unwrap_or_default();
        let kind = doc
            .value
            .get("kind")
            .and_then(Json::as_str)
            .unwrap_or_default();
        let (group, version) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        let wrong = |what: String| Failure::Input(format!("{}: {what}", doc.position()));
        if kind.is_empty() || api_version.is_empty() {
            return Err(wrong(
                "the object has no `apiVersion` and `kind`".to_owned(),
            ));
        }
        // An object of another kind in the group of exactly one CRD is taken as sent to that
        // CRD's resource, whose validation rejects it (`kind: Invalid value`), as the API
        // server answers a client that posts it there (test/integration/validation_test.go
        // TestForProperValidationErrors "bad kind"). With several CRDs in the group, the
        // resource meant is unknown.
        let of_group = || {
            let mut in_group = crds.iter().filter(|(_, c)| c.spec.group == group);
            match (in_group.next(), in_group.next()) {
                (Some(one), None) => Some(one),
                _ => None,
            }
        };
        let Some((position, crd)) = crds
            .iter()
            .find(|(_, c)| c.spec.group == group && c.spec.names.kind == kind)
            .or_else(of_group)
        else {
            let known: Vec<String> = crds
                .iter()
                .map(|(_, c)| format!("{} ({})", c.spec.names.kind, c.spec.group))
                .collect();
            return Err(wrong(format!(
                "an object of kind {kind} ({api_version}) matches none of the CRDs: {}",
                known.join(", ")
            )));
        };
        let resource = &crd.spec.names.kind;
        let Some(v) = crd.spec.versions.iter().find(|v| v.name == version) else {
            return Err(wrong(format!(
                "the CRD at {position} has no version {version} of {resource}"
            )));
        };
        if !v.served {
            return Err(wrong(format!(
                "version {version} of {resource} is not served"
            )));
        }
        if v.schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .is_none()
        {
            return Err(wrong(format!(
                "version {version} of {resource} has no schema (the CRD at {position})"
            )));
        }
        // A CRD the API server would reject serves nothing; still validate against what it
        // says (schemas in tests often skip the CRD's other requirements), and say so.
        let problems = crdkit_apiextensions::crd_check::check_crd_full(crd);
        if !problems.is_empty() {
            let _ = writeln!(
                err,
                "Warning: {position}: the API server would reject this CRD: {}",
                report::kubectl_invalid(
                    "CustomResourceDefinition",
                    crd.metadata.name.as_deref().unwrap_or_default(),
                    &problems
                )
            );
        }
        let admission = Admission::new(crd, version).map_err(|e| match e {
            AdmissionError::Schema(e) => Failure::Input(format!("{position}: {e}")),
            e => wrong(e.to_string()),
        })?;
        Ok(Target {
            key: Target::key(doc),
            kind: kind.to_owned(),
            admission,
        })
    }
}

/// The object as the API server stores and returns it: encoded by Go's `encoding/json` and
/// decoded by apimachinery's, a whole `float64` below 1e21 (a default such as `0.0`) is written
/// without a fraction and read back as an `int64` when it fits (test/integration/
/// validation_test.go `TestZeroValueValidation`: `number_default: 0.0` is returned as `0`).
fn as_stored(v: &mut Json) {
    const TWO_POW_63: f64 = 9_223_372_036_854_775_808.0;
    match v {
        Json::Number(n) if !n.is_i64() && !n.is_u64() => {
            // Whole and within int64 (which is below 1e21, where Go switches to exponents).
            if let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && (-TWO_POW_63..TWO_POW_63).contains(&f)
            {
                #[allow(clippy::cast_possible_truncation)]
                let i = f as i64;
                *v = Json::from(i);
            }
        }
        Json::Array(items) => items.iter_mut().for_each(as_stored),
        Json::Object(map) => map.values_mut().for_each(as_stored),
        _ => {}
    }
}

/// Sets a missing `apiVersion`/`kind` to the CRD's storage version and kind.
fn fill_type_meta(obj: &mut Json, crd: &CustomResourceDefinition) {
    let Json::Object(map) = obj else { return };
    let version = crd
        .spec
        .versions
        .iter()
        .find(|v| v.storage)
        .or(crd.spec.versions.first());
    if let Some(v) = version
        && !map.contains_key("apiVersion")
    {
        map.insert(
            "apiVersion".to_owned(),
            Json::from(format!("{}/{}", crd.spec.group, v.name)),
        );
    }
    if !map.contains_key("kind") {
        map.insert("kind".to_owned(), Json::from(crd.spec.names.kind.clone()));
    }
}

/// The same object in the old and new files: same kind, namespace and name.
fn same_object(a: &Document, b: &Document) -> bool {
    let key = |d: &Document| {
        [
            "/apiVersion",
            "/kind",
            "/metadata/namespace",
            "/metadata/name",
        ]
        .map(|p| {
            d.value
                .pointer(p)
                .and_then(Json::as_str)
                .unwrap_or_default()
                .to_owned()
        })
    };
    key(a) == key(b)
}
