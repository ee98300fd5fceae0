//! `crdgen check`: would the API server accept these CRDs on create?

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use super::load::{self, Document};
use super::report::{self, Output};
use super::{Failure, INVALID, OK};
use crdkit_apiextensions::crd_check::check_crd_full;
use crdkit_schema::crd::CustomResourceDefinition;

/// Runs `crdgen check [--output text|json] CRD.yaml|DIR...`; without files, checks `builtin`.
/// Returns [`OK`] when every CRD would be accepted, else [`INVALID`].
///
/// # Errors
/// [`Failure::Usage`] for bad arguments, [`Failure::Input`] for a file that is not YAML or JSON
/// CRDs, [`Failure::Io`] when reading or writing fails.
pub fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut output = Output::Text;
    let mut files: Vec<PathBuf> = Vec::new();
    while let Some(arg) = parser.next()? {
        match arg {
            Long("output") | Short('o') => {
                output = super::parse_output(parser.value()?, &[Output::Text, Output::Json])?
            }
            Value(f) => files.push(f.into()),
            _ => return Err(arg.unexpected().into()),
        }
    }
    let mut crds: Vec<(String, CustomResourceDefinition)> = Vec::new();
    if files.is_empty() {
        crds.extend(
            builtin
                .iter()
                .map(|c| (String::from("<built-in>"), c.clone())),
        );
    }
    for given in &files {
        for f in load::expand(std::slice::from_ref(given))? {
            for doc in load::load(&f)? {
                // Directories hold other things beside CRDs (a kustomization, a policy).
                if given.is_dir() && !super::registry::is_crd(&doc.value) {
                    continue;
                }
                crds.push((doc.position(), read_crd(&doc)?));
                super::validate::warn_duplicates(err, &doc);
            }
        }
    }
    if crds.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no CustomResourceDefinition to check",
            files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
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
            output,
            position,
            "CustomResourceDefinition",
            &name,
            None,
            &errors,
        )?;
    }
    Ok(code)
}

/// A document as a CRD, or an input error naming the file and line.
///
/// # Errors
/// [`Failure::Input`] when the document is not a CRD or does not decode.
pub fn read_crd(doc: &Document) -> Result<CustomResourceDefinition, Failure> {
    CustomResourceDefinition::from_value(doc.value.clone())
        .map_err(|e| Failure::Input(format!("{}: {e}", doc.position())))
}
