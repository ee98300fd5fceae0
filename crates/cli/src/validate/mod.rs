//! `crdgen validate`: prune, default and validate objects offline, as the API server does on
//! create (or, with `--old`, on update): custom objects against their CRDs, built-in kinds
//! against the schemas Kubernetes publishes ([`crate::builtin`]), CRDs in the input with the
//! checks of `crdgen check`.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use serde_json::Value as Json;

mod args;

pub use args::{FieldValidation, UnknownKinds};
use args::{Options, parse_args};

use super::load::{self, Document};
use super::registry::{Found, Registry, is_crd};
use super::report::Reporter;
use super::{Failure, INVALID, OK};
use crdkit_apimachinery::gofmt;
use crdkit_apimachinery::strict;
use crdkit_schema::crd::CustomResourceDefinition;

/// What to do with one document of the input, decided before anything is printed.
enum Step<'a> {
    /// A CRD: checked as `crdgen check` does, and known to the objects after it.
    Crd(&'a Document, Box<CustomResourceDefinition>),
    /// An object, its target in the registry, and its stored version (`--old`), read at the
    /// object's version.
    Object(&'a Document, usize, Option<Json>),
    /// An object of a kind nobody has.
    Unknown(&'a Document, String),
    /// An object of a version its CRD does not serve.
    NotServed(&'a Document, String),
}

/// Runs `crdgen validate [--crd CRD.yaml|DIR]... [--old OLD.yaml [--subresource status]]
/// [--field-validation Strict|Warn|Ignore] [--unknown-kinds fail|warn|ignore]
/// [--kubernetes-version 1.35] [--output text|json|github] OBJECT.yaml|DIR...`.
/// Returns [`OK`] when every object is valid, else [`INVALID`].
///
/// # Errors
/// [`Failure::Usage`] for bad arguments, [`Failure::Input`] for a file that is not YAML or JSON
/// manifests (or a CRD that does not decode), [`Failure::Io`] when reading or writing fails.
pub fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    let o = parse_args(args)?;
    let mut registry = Registry::new(o.version);
    if o.crd_files.is_empty() {
        for c in builtin {
            registry.add_crd("<built-in>".to_owned(), c.clone(), true);
        }
    }
    for given in &o.crd_files {
        let mut found = false;
        for f in load::expand(std::slice::from_ref(given))? {
            for doc in load::load(&f)? {
                // Directories hold other things beside CRDs (a kustomization, a policy).
                if !is_crd(&doc.value) && given.is_dir() {
                    continue;
                }
                registry.add_crd(doc.position(), super::check::read_crd(&doc)?, true);
                warn_duplicates(err, &doc);
                found = true;
            }
        }
        if !found {
            return Err(Failure::Input(format!(
                "{}: no CustomResourceDefinition",
                given.display()
            )));
        }
    }
    let mut olds = Vec::new();
    for f in load::expand(&o.old_files)? {
        olds.extend(load::load(&f)?);
    }
    let mut texts: HashMap<PathBuf, String> = HashMap::new();
    let mut objects = Vec::new();
    for f in load::expand(&o.files)? {
        let text = load::read_text(&f)?;
        objects.extend(load::parse(&text, &f)?);
        texts.insert(f, text);
    }
    if objects.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no objects to validate",
            o.files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    // The API server takes `apiVersion` and `kind` from the request's URL: with one CRD, an
    // object without them is posted to its storage version.
    if let Some(crd) = registry.single_crd() {
        for doc in objects.iter_mut().chain(olds.iter_mut()) {
            fill_type_meta(&mut doc.value, crd);
        }
    }
    let steps = plan(&o, &mut registry, &objects, &olds, err)?;
    let mut reporter = Reporter::new(o.output, out, texts);
    let mut code = OK;
    for step in steps {
        let valid = match step {
            Step::Crd(doc, crd) => {
                warn_duplicates(err, doc);
                let errors = crdkit_crd::crd_check::check_crd_full(&crd);
                let name = crd.metadata.name.clone().unwrap_or_default();
                reporter.object(doc, "CustomResourceDefinition", &name, None, &errors, false)?;
                errors.is_empty()
            }
            Step::Unknown(doc, message) => match o.unknown_kinds {
                UnknownKinds::Fail => {
                    reporter.rejected(doc, None, &message, "unknown kind", &[])?;
                    false
                }
                UnknownKinds::Warn => {
                    let _ = writeln!(err, "Warning: {}: {message}", doc.position());
                    reporter.warning(doc, None, "unknown kind", &message)?;
                    true
                }
                UnknownKinds::Ignore => true,
            },
            Step::NotServed(doc, message) => {
                reporter.rejected(doc, None, &message, "version not served", &[])?;
                false
            }
            Step::Object(doc, target, old) => {
                admit(&o, &registry, doc, target, old.as_ref(), &mut reporter, err)?
            }
        };
        if !valid {
            code = INVALID;
        }
    }
    Ok(code)
}

/// Matches every object to its target and stored object first: an input error (exit 2) prints
/// nothing on the standard output.
fn plan<'a>(
    o: &Options,
    registry: &mut Registry,
    objects: &'a [Document],
    olds: &'a [Document],
    err: &mut dyn Write,
) -> Result<Vec<Step<'a>>, Failure> {
    let single_pair = olds.len() == 1 && objects.len() == 1;
    let mut steps = Vec::new();
    for doc in objects {
        if is_crd(&doc.value) {
            let crd = super::check::read_crd(doc)?;
            registry.add_crd(doc.position(), crd.clone(), false);
            steps.push(Step::Crd(doc, Box::new(crd)));
            continue;
        }
        let target = match registry.find(doc, err)? {
            Found::Target(i) => i,
            Found::Unknown(message) => {
                steps.push(Step::Unknown(doc, message));
                continue;
            }
            Found::NotServed(message) => {
                steps.push(Step::NotServed(doc, message));
                continue;
            }
        };
        let old = if single_pair {
            olds.first()
        } else {
            // The stored object may be at another version of the kind.
            olds.iter()
                .find(|old| same_object(old, doc, true))
                .or_else(|| olds.iter().find(|old| same_object(old, doc, false)))
        };
        if o.status_subresource {
            let t = registry.target(target);
            if old.is_none() {
                return Err(Failure::Input(format!(
                    "{}: no stored object in the --old files to update",
                    doc.position()
                )));
            }
            if !t.admission.has_status_subresource() {
                return Err(Failure::Input(format!(
                    "{}: the {} resource has no status subresource",
                    doc.position(),
                    t.kind
                )));
            }
        }
        // An update at another version than the stored one: the API server reads the stored
        // object at the request's version first.
        let stored = match old {
            Some(old) => Some(
                registry
                    .target(target)
                    .read_stored(&old.value)
                    .map_err(|e| Failure::Input(format!("{}: {e}", old.position())))?,
            ),
            None => None,
        };
        steps.push(Step::Object(doc, target, stored));
    }
    Ok(steps)
}

/// Admits one object and reports it; whether it is valid.
fn admit(
    o: &Options,
    registry: &Registry,
    doc: &Document,
    target: usize,
    old: Option<&Json>,
    reporter: &mut Reporter<'_>,
    err: &mut dyn Write,
) -> Result<bool, Failure> {
    let target = registry.target(target);
    if let Some(w) = &target.warning {
        // The API server's `Warning` header, which kubectl prints as `Warning: <text>`.
        let _ = writeln!(err, "Warning: {}: {w}", doc.position());
        reporter.warning(doc, None, "deprecated version", w)?;
    }
    let mut obj = doc.value.clone();
    let admitted = match (old, o.status_subresource) {
        (Some(old), false) => target.admission.update(&mut obj, old),
        (Some(old), true) => target.admission.update_status(&mut obj, old).map_err(|_| {
            Failure::Input(format!(
                "{}: the {} resource has no status subresource",
                doc.position(),
                target.kind
            ))
        })?,
        (None, _) => target.admission.create(&mut obj),
    };
    as_stored(&mut obj);
    let name = doc
        .value
        .pointer("/metadata/name")
        .and_then(Json::as_str)
        .unwrap_or_default();
    // Strict decoding (apimachinery `runtime/serializer/json` and apiextensions
    // `customresource_handler.go` `schemaCoercingDecoder`): the decoder's duplicate fields, then
    // the fields pruning dropped. A decoding error wins over them.
    let strict: Vec<(String, String)> = if admitted.decoding_failed {
        Vec::new()
    } else {
        doc.duplicates
            .iter()
            .map(|d| (d.path.clone(), strict::duplicate_field(&d.key)))
            .chain(
                admitted
                    .unknown_fields
                    .iter()
                    .map(|u| (u.clone(), strict::unknown_field(u))),
            )
            .collect()
    };
    match o.field_validation {
        FieldValidation::Strict if !strict.is_empty() => {
            // The handler turns it into a 400 (`transformDecodeError` in apiserver
            // `endpoints/handlers/rest.go`); nothing is validated.
            let version = target
                .admission
                .api_version()
                .rsplit_once('/')
                .map_or(target.admission.api_version(), |(_, v)| v);
            let kind = target.admission.kind();
            let message = |errors: &[String]| {
                strict::cannot_be_handled(kind, version, &strict::strict_decoding_error(errors))
            };
            let all: Vec<String> = strict.iter().map(|(_, s)| s.clone()).collect();
            // Each field on its own in annotations, at its line.
            let each: Vec<(String, String)> = strict
                .iter()
                .map(|(field, s)| (field.clone(), message(std::slice::from_ref(s))))
                .collect();
            let title = format!("{kind} {} is rejected", gofmt::quote(name));
            reporter.rejected(doc, Some(&obj), &message(&all), &title, &each)?;
            return Ok(false);
        }
        FieldValidation::Warn => {
            for (field, s) in &strict {
                let _ = writeln!(err, "Warning: {}: {s}", doc.position());
                reporter.warning(doc, Some(field), "strict decoding", s)?;
            }
        }
        _ => {}
    }
    let mut errors = admitted.errors;
    errors.dedup();
    if target.kind == target.admission.kind() {
        reporter.object(doc, &target.kind, name, Some(&obj), &errors, false)?;
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
        reporter.object(doc, &qualified, name, Some(&obj), &errors, true)?;
    }
    Ok(errors.is_empty())
}

/// `Warning: FILE:LINE: duplicate field "spec.replicas"` for each key a CRD document gives twice
/// (the last value is kept; see [`load::parse`]).
pub fn warn_duplicates(err: &mut dyn Write, doc: &Document) {
    for d in &doc.duplicates {
        let _ = writeln!(
            err,
            "Warning: {}: {}",
            doc.position(),
            strict::duplicate_field(&d.path)
        );
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

/// The same object in the old and new files: same kind, namespace and name, and the same
/// `apiVersion` (`same_version`) or only the same group.
fn same_object(a: &Document, b: &Document, same_version: bool) -> bool {
    let key = |d: &Document| {
        [
            "/apiVersion",
            "/kind",
            "/metadata/namespace",
            "/metadata/name",
        ]
        .map(|p| {
            let s = d
                .value
                .pointer(p)
                .and_then(Json::as_str)
                .unwrap_or_default();
            if p == "/apiVersion" && !same_version {
                s.rsplit_once('/').map_or("", |(g, _)| g).to_owned()
            } else {
                s.to_owned()
            }
        })
    };
    key(a) == key(b)
}
