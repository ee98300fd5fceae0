//! `crdgen openapi`: the OpenAPI documents the API server publishes for these CRDs, v3 per
//! served group-version (`/openapi/v3/apis/<group>/<version>`) or, with `--v2`, their share of
//! `/openapi/v2` (the lossy Swagger 2.0 conversion). Built by [`crdkit_crd::openapi`],
//! which the local API server serves too.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use serde_json::Value;

use crate::crds::read_crds;
use crate::exit::{Failure, INVALID, OK};
use crate::help;
use crate::output::Output;
use crate::report::kubectl_invalid;
use crdkit_crd::crd_check::check_crd_full;
use crdkit_crd::openapi;
use crdkit_schema::crd::CustomResourceDefinition;

/// Runs `crdgen openapi [--v2] [--group-version G/V] [--output json|yaml] CRD.yaml|DIR...`;
/// without files, for `builtin`. Returns [`OK`], or [`INVALID`] when the API server would reject
/// a CRD (its errors on standard error, no document written).
///
/// # Errors
/// [`Failure::Usage`] for bad arguments, [`Failure::Input`] for unreadable input, a
/// group-version no CRD serves, or CRDs that publish one kind differently; [`Failure::Io`] when
/// reading or writing fails.
pub(crate) fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut output = Output::Json;
    let mut v2 = false;
    let mut only: Option<(String, String)> = None;
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => {
                help::write(out, Some("openapi"))?;
                return Ok(OK);
            }
            Long("v2") => v2 = true,
            Long("group-version") => only = Some(group_version(parser.value()?)?),
            Long("output") | Short('o') => {
                output = Output::parse(parser.value()?, &[Output::Json, Output::Yaml])?
            }
            Value(f) => files.push(f.into()),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if v2 && only.is_some() {
        return Err(Failure::Usage(
            "`--group-version` selects a v3 document; `--v2` is one document for all".to_owned(),
        ));
    }
    let crds = read(&files, builtin, err)?;
    let mut code = OK;
    for (position, crd) in &crds {
        let errors = check_crd_full(crd);
        if !errors.is_empty() {
            code = INVALID;
            let name = crd.metadata.name.clone().unwrap_or_default();
            writeln!(
                err,
                "{position}: {}",
                kubectl_invalid("CustomResourceDefinition", &name, &errors)
            )?;
        }
    }
    if code != OK {
        return Ok(code);
    }
    let refs: Vec<&CustomResourceDefinition> = crds.iter().map(|(_, c)| c).collect();
    let conflict = |e: openapi::OpenApiError| Failure::Input(e.to_string());
    let docs = if v2 {
        vec![openapi::swagger(&refs).map_err(conflict)?]
    } else {
        let served = openapi::served_group_versions(&refs);
        let wanted: Vec<(String, String)> = match only {
            Some(gv) if served.contains(&gv) => vec![gv],
            Some((g, v)) => {
                return Err(Failure::Input(format!(
                    "no CustomResourceDefinition serves {g}/{v} (served: {})",
                    list(&served)
                )));
            }
            None => served,
        };
        let mut docs = Vec::new();
        for (g, v) in &wanted {
            docs.push(openapi::try_group_version(g, v, &refs).map_err(conflict)?);
        }
        docs
    };
    write(out, output, &docs)?;
    Ok(OK)
}

/// `G/V` of `--group-version`.
fn group_version(v: OsString) -> Result<(String, String), Failure> {
    let s = v.to_string_lossy();
    match s.split_once('/') {
        Some((g, v)) if !g.is_empty() && !v.is_empty() && !v.contains('/') => {
            Ok((g.to_owned(), v.to_owned()))
        }
        _ => Err(Failure::Usage(format!(
            "`--group-version {s}`: expected GROUP/VERSION, such as stable.example.com/v1"
        ))),
    }
}

fn list(gvs: &[(String, String)]) -> String {
    if gvs.is_empty() {
        return "none".to_owned();
    }
    gvs.iter()
        .map(|(g, v)| format!("{g}/{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The CRDs of the files (in a directory, only the CRD documents), or `builtin` without files.
fn read(
    files: &[PathBuf],
    builtin: &[CustomResourceDefinition],
    err: &mut dyn Write,
) -> Result<Vec<(String, CustomResourceDefinition)>, Failure> {
    let mut crds = Vec::new();
    if files.is_empty() {
        crds.extend(builtin.iter().map(|c| ("<built-in>".to_owned(), c.clone())));
    }
    for given in files {
        crds.extend(read_crds(given, err)?);
    }
    if crds.is_empty() && files.is_empty() {
        return Err(Failure::Input(
            "no CustomResourceDefinition to publish: give CRD files or directories".to_owned(),
        ));
    }
    if crds.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no CustomResourceDefinition",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    Ok(crds)
}

/// JSON documents one after another, or YAML documents separated by `---`.
fn write(out: &mut dyn Write, output: Output, docs: &[Value]) -> std::io::Result<()> {
    match output {
        Output::Yaml => out.write_all(crdkit_schema::yaml::to_string_multi(docs).as_bytes()),
        _ => {
            for d in docs {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(d).unwrap_or_default()
                )?;
            }
            Ok(())
        }
    }
}
