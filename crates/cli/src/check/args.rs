//! The arguments of `crdgen check`.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::exit::Failure;
use crate::output::Output;
use crdkit_crd::compat::Severity;

/// `--fail-on`: the least severe finding of the compatibility report that fails the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FailOn {
    /// Any finding at or above this severity.
    Severity(Severity),
    /// No finding: only the API server's rejection fails the run.
    Never,
}

/// The options of a run.
pub(super) struct Options {
    pub(super) output: Output,
    pub(super) old_files: Vec<PathBuf>,
    pub(super) stored_versions: Option<Vec<String>>,
    pub(super) fail_on: FailOn,
    pub(super) files: Vec<PathBuf>,
}

/// The options, or `None` for `--help`.
pub(super) fn parse_args(args: Vec<OsString>) -> Result<Option<Options>, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut o = Options {
        output: Output::Text,
        old_files: Vec::new(),
        stored_versions: None,
        fail_on: FailOn::Severity(Severity::BreaksClients),
        files: Vec::new(),
    };
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Long("output") | Short('o') => {
                o.output = Output::parse(parser.value()?, &[Output::Text, Output::Json])?;
            }
            Long("old") => o.old_files.push(parser.value()?.into()),
            Long("stored-versions") => {
                let v = parser.value()?.string()?;
                o.stored_versions = Some(
                    v.split(',')
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .map(str::to_owned)
                        .collect(),
                );
            }
            Long("fail-on") => {
                let v = parser.value()?.string()?;
                o.fail_on = match v.as_str() {
                    "none" => FailOn::Never,
                    s => FailOn::Severity(Severity::parse(s).ok_or_else(|| {
                        Failure::Usage(format!(
                            "unknown `--fail-on {v}` (breaks-stored-objects, breaks-clients, info or none)"
                        ))
                    })?),
                };
            }
            Value(f) => o.files.push(f.into()),
            _ => return Err(arg.unexpected().into()),
        }
    }
    if o.old_files.is_empty()
        && (o.stored_versions.is_some() || o.fail_on != FailOn::Severity(Severity::BreaksClients))
    {
        return Err(Failure::Usage(
            "`--stored-versions` and `--fail-on` compare with the stored CRDs: give them with `--old OLD.yaml`"
                .to_owned(),
        ));
    }
    Ok(Some(o))
}
