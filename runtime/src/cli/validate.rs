//! `crdgen validate`: prune, default and validate objects offline, as the API server does on
//! create (or, with `--old`, on update).

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use serde_json::Value as Json;

use super::load::{self, Document};
use super::report::{self, Output};
use super::{Failure, INVALID, OK};
use crate::crd::CustomResourceDefinition;
use crate::schema::Structural;
use crate::validate::{CompiledSchema, ResourceInfo};

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
    let single_pair = olds.len() == 1 && objects.len() == 1;
    let mut code = OK;
    // Each CRD version is compiled once, whatever the number of objects.
    let mut targets: Vec<Target> = Vec::new();
    for doc in &objects {
        let key = Target::key(doc);
        let target = match targets.iter().position(|t| t.key == key) {
            Some(i) => &targets[i],
            None => {
                targets.push(Target::find(&crds, doc, err)?);
                &targets[targets.len() - 1]
            }
        };
        let old = if single_pair {
            olds.first()
        } else {
            olds.iter().find(|o| same_object(o, doc))
        };
        let mut obj = doc.value.clone();
        let mut errors = match target.schema.prune_and_default(&mut obj) {
            Ok(unknown) => {
                for u in unknown {
                    let _ = writeln!(
                        err,
                        "Warning: {}: unknown field {}",
                        doc.position(),
                        crate::field::go_quote(&u)
                    );
                }
                match old {
                    Some(o) => {
                        let mut old_obj = o.value.clone();
                        // The stored object went through the same decoding when it was written.
                        let _ = target.schema.prune_and_default(&mut old_obj);
                        if status_subresource {
                            if !target.status {
                                return Err(Failure::Input(format!(
                                    "{}: the {} resource has no status subresource",
                                    doc.position(),
                                    target.kind
                                )));
                            }
                            take_new_status(&mut obj, &old_obj);
                            target.schema.validate_status_update(&obj, &old_obj)
                        } else {
                            if target.status {
                                keep_old_status(&mut obj, &old_obj);
                            }
                            target.schema.validate_update(&obj, &old_obj)
                        }
                    }
                    None if status_subresource => {
                        return Err(Failure::Input(format!(
                            "{}: no stored object in the --old files to update",
                            doc.position()
                        )));
                    }
                    None => {
                        // With the status subresource, create cannot set `status`
                        // (`customResourceStrategy.PrepareForCreate` in
                        // apiextensions-apiserver `pkg/registry/customresource/strategy.go`).
                        if target.status
                            && let Json::Object(map) = &mut obj
                        {
                            map.remove("status");
                        }
                        target.schema.validate(&obj)
                    }
                }
            }
            Err(e) => vec![e],
        };
        errors.dedup();
        if !errors.is_empty() {
            code = INVALID;
        }
        let name = doc
            .value
            .pointer("/metadata/name")
            .and_then(Json::as_str)
            .unwrap_or_default();
        report::write(
            out,
            output,
            &doc.position(),
            &target.kind,
            name,
            Some(&obj),
            &errors,
        )?;
    }
    Ok(code)
}

/// The CRD version an object belongs to, compiled.
struct Target {
    /// `apiVersion` and `kind`.
    key: (String, String),
    kind: String,
    schema: CompiledSchema,
    /// The version has the status subresource: the main resource cannot change `status`.
    status: bool,
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
        let Some((position, crd)) = crds
            .iter()
            .find(|(_, c)| c.spec.group == group && c.spec.names.kind == kind)
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
        let Some(v) = crd.spec.versions.iter().find(|v| v.name == version) else {
            return Err(wrong(format!(
                "the CRD at {position} has no version {version} of {kind}"
            )));
        };
        if !v.served {
            return Err(wrong(format!("version {version} of {kind} is not served")));
        }
        let Some(props) = v
            .schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
        else {
            return Err(wrong(format!(
                "version {version} of {kind} has no schema (the CRD at {position})"
            )));
        };
        // A CRD the API server would reject serves nothing; still validate against what it
        // says (schemas in tests often skip the CRD's other requirements), and say so.
        let problems = crate::crd_check::check_crd_full(crd);
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
        let structural = Structural::from_props(props)
            .map_err(|e| Failure::Input(format!("{position}: {e}")))?;
        let info = ResourceInfo {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
            namespaced: None,
        };
        let subresources = v.subresources.as_ref();
        Ok(Target {
            key: Target::key(doc),
            kind: kind.to_owned(),
            schema: CompiledSchema::new(&structural)
                .with_resource(info)
                .with_scale(subresources.and_then(|s| s.scale.clone())),
            status: subresources.is_some_and(|s| s.status.is_some()),
        })
    }
}

/// An update through the status subresource keeps all of the stored object but its `status`
/// (`statusStrategy.PrepareForUpdate` in apiextensions-apiserver
/// `pkg/registry/customresource/status_strategy.go`).
fn take_new_status(new: &mut Json, old: &Json) {
    let status = new.get("status").cloned();
    *new = old.clone();
    if let Json::Object(map) = new {
        match status {
            Some(s) => {
                map.insert("status".to_owned(), s);
            }
            None => {
                map.remove("status");
            }
        }
    }
}

/// With the status subresource, an update keeps the stored `status`
/// (`customResourceStrategy.PrepareForUpdate`, apiextensions-apiserver
/// `pkg/registry/customresource/strategy.go`).
fn keep_old_status(new: &mut Json, old: &Json) {
    let Json::Object(map) = new else { return };
    match old.get("status") {
        Some(status) => {
            map.insert("status".to_owned(), status.clone());
        }
        None => {
            map.remove("status");
        }
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
