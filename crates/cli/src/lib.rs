//! `crdgen`: print CRDs, check CRD files (and updates of them), validate and convert manifests
//! offline, write the OpenAPI documents the API server publishes for CRDs.
//!
//! A user's own binary is three lines: `fn main() -> ExitCode { crdkit::cli::main(&[CronTab::crd()?]) }`.
//! Exit codes: 0 success (valid, accepted), 1 invalid or rejected, 2 usage or input errors.
//!
//! Depends on `crdkit-apiextensions` (the engine), `crdkit-schema` and `crdkit-apimachinery`, and on
//! the YAML reader (`serde-saphyr`) and argument parser (`lexopt`), which no library user needs:
//! the facade includes this crate only with its `cli` feature.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod builtin;
pub mod check;
pub mod convert;
pub mod lines;
pub mod load;
pub mod openapi;
pub mod registry;
pub mod report;
pub mod validate;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use crdkit_schema::crd::CustomResourceDefinition;

/// Exit code for a successful run.
pub const OK: u8 = 0;
/// Exit code when an object is invalid or a CRD rejected.
pub const INVALID: u8 = 1;
/// Exit code for usage errors and unreadable input.
pub const USAGE: u8 = 2;

const HELP: &str = "\
crdgen: CustomResourceDefinitions from Rust types, checked like the Kubernetes API server does

USAGE:
    crdgen [--output yaml|json]
        Print the built-in CRDs, one document each.
    crdgen check [--output text|json] CRD.yaml|DIR...
        Would the API server accept these CRDs on create?
    crdgen check --old OLD.yaml|DIR [--stored-versions v1beta1,v1]
                 [--fail-on breaks-stored-objects|breaks-clients|info|none] [--output text|json]
                 CRD.yaml|DIR...
        Would the API server accept these CRDs as updates of the old ones (same name), and what
        would the update break? The API server's update rules (stored versions kept, immutable
        names and scope, ...), then a compatibility report: each change with its field path and
        severity, breaks-stored-objects (existing objects may become invalid or lose data),
        breaks-clients (requests of existing clients may fail) or info. --stored-versions: the
        old CRD's status.storedVersions (default: its status, else its storage version).
        --fail-on: the least severe change that fails the run (default breaks-clients).
    crdgen validate [--crd CRD.yaml|DIR]... [--old OLD.yaml [--subresource status]]
                    [--field-validation Strict|Warn|Ignore] [--unknown-kinds fail|warn|ignore]
                    [--kubernetes-version 1.35] [--output text|json|github] OBJECT.yaml|DIR...
        Prune, default and validate objects as the API server does on create (or update, with --old;
        or an update of the status subresource, which keeps all but the object's status): custom
        objects against the CRDs given or met earlier in the input, built-in kinds against the
        schemas Kubernetes publishes (structural checks only). CRDs in the input are checked too.
        Each object is validated against the schema of its own version; a version its CRD does not
        serve is rejected (`no matches for kind`), a deprecated one warns as the API server does;
        a stored object (--old) of another version is read at the object's version first.
        --field-validation: unknown and duplicate fields fail the object (Strict, the default, as
        kubectl), warn, or are dropped. --unknown-kinds: objects of a kind nothing defines fail
        (the default), warn, or are skipped.

    crdgen convert --to VERSION [--crd CRD.yaml|DIR]... [--webhook-url URL] [--ca-bundle CA.pem]
                   [--output yaml|json] OBJECT.yaml|DIR...
        Objects as the API server returns them at VERSION (or GROUP/VERSION) of their CRD: read at
        their own version (pruned, defaulted), converted (None: apiVersion only; Webhook: a
        ConversionReview posted to --webhook-url or the CRD's url, trusting --ca-bundle or the
        CRD's caBundle), then pruned to VERSION's schema. Other documents are written unchanged.

    crdgen openapi [--v2] [--group-version GROUP/VERSION] [--output json|yaml] CRD.yaml|DIR...
        The OpenAPI documents the API server publishes for these CRDs (Kubernetes 1.36): v3, one
        document per served group-version (/openapi/v3/apis/GROUP/VERSION), or the one asked for;
        with --v2, the CRDs' share of /openapi/v2, with its lossy conversion of the schemas.

    crdgen serve [--addr 127.0.0.1:PORT] [--data DIR] ...
        Serve the Kubernetes API for CRDs and their objects to kubectl and kube-rs (the local API
        server; in the crdgen of this repository, see `crdgen serve --help`).

Files may hold several documents (YAML `---` or concatenated JSON) and `kind: List`; `-` is stdin.
A directory stands for its .yaml, .yml and .json files, recursively.
Exit status: 0 valid, 1 invalid or rejected (or, with --old, a change at or above --fail-on),
2 usage or input errors.
";

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// One line per object or CRD, as kubectl prints API errors (the default of `check` and
    /// `validate`).
    Text,
    /// One JSON document per CRD, object or report (`{"object": .., "errors": [..]}`).
    Json,
    /// YAML documents separated by `---` (the default when printing CRDs).
    Yaml,
    /// GitHub workflow commands, `::error file=F,line=L,title=T::M`, one per error at the line
    /// of its field (`validate` only).
    Github,
}

/// The stack `crdgen` runs on: reading, pruning, defaulting and validating recurse once per level
/// of an object (up to [`load::MAX_DEPTH`]), which takes a few MiB in debug builds; a main thread
/// may have only 1 MiB (Windows).
pub const STACK_BYTES: usize = 64 * 1024 * 1024;

/// Runs `crdgen` with the process's arguments and exits.
#[must_use]
pub fn main(builtin: &[CustomResourceDefinition]) -> ExitCode {
    let run_here = || {
        run(
            std::env::args_os().skip(1).collect(),
            builtin,
            &mut std::io::stdout().lock(),
            &mut std::io::stderr().lock(),
        )
    };
    let code = std::thread::scope(|s| {
        match std::thread::Builder::new()
            .stack_size(STACK_BYTES)
            .spawn_scoped(s, run_here)
        {
            // A panic has printed its message; 101 is Rust's exit code for it.
            Ok(worker) => worker.join().unwrap_or(101),
            // No thread (a limit on threads or memory): run here.
            Err(_) => run_here(),
        }
    });
    ExitCode::from(code)
}

/// Runs `crdgen` with `args` (without the program name), writing to `out` and `err`; returns the
/// exit code.
pub fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    match run_inner(args, builtin, out, err) {
        Ok(code) => code,
        Err(Failure::Usage(msg)) => {
            let _ = writeln!(err, "crdgen: {msg}\n\nRun `crdgen --help` for usage.");
            USAGE
        }
        Err(Failure::Input(msg)) => {
            let _ = writeln!(err, "crdgen: {msg}");
            USAGE
        }
        Err(Failure::Io(e)) => {
            // A closed pipe (`crdgen | head`) is not worth a message.
            if e.kind() != std::io::ErrorKind::BrokenPipe {
                let _ = writeln!(err, "crdgen: {e}");
            }
            USAGE
        }
    }
}

/// Why a run could not do its job.
#[derive(Debug)]
pub enum Failure {
    /// Bad arguments: the message, printed with a pointer to `--help`.
    Usage(String),
    /// A file that could not be read as manifests or CRDs.
    Input(String),
    /// Reading or writing failed (a closed pipe is not reported).
    Io(std::io::Error),
}

impl From<std::io::Error> for Failure {
    fn from(e: std::io::Error) -> Self {
        Failure::Io(e)
    }
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Self {
        Failure::Usage(e.to_string())
    }
}

impl From<load::LoadError> for Failure {
    fn from(e: load::LoadError) -> Self {
        Failure::Input(e.to_string())
    }
}

fn parse_output(v: OsString, allowed: &[Output]) -> Result<Output, Failure> {
    let s = v.to_string_lossy();
    let o = match s.as_ref() {
        "text" => Output::Text,
        "json" => Output::Json,
        "yaml" => Output::Yaml,
        "github" => Output::Github,
        _ => return Err(Failure::Usage(format!("unknown output format `{s}`"))),
    };
    if allowed.contains(&o) {
        Ok(o)
    } else {
        Err(Failure::Usage(format!(
            "`--output {s}` is not available here"
        )))
    }
}

fn run_inner(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut output = Output::Yaml;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => {
                out.write_all(HELP.as_bytes())?;
                return Ok(OK);
            }
            Long("version") | Short('V') => {
                writeln!(out, "crdgen {}", env!("CARGO_PKG_VERSION"))?;
                return Ok(OK);
            }
            Long("output") | Short('o') => {
                output = parse_output(parser.value()?, &[Output::Yaml, Output::Json])?
            }
            Value(cmd) => {
                let cmd = cmd.string()?;
                let rest: Vec<OsString> = parser.raw_args()?.collect();
                return match cmd.as_str() {
                    "print" => run_inner(rest, builtin, out, err),
                    "validate" => validate::run(rest, builtin, out, err),
                    "check" => check::run(rest, builtin, out, err),
                    "openapi" => openapi::run(rest, builtin, out, err),
                    "convert" => convert::run(rest, builtin, out, err),
                    _ => Err(Failure::Usage(format!("unknown command `{cmd}`"))),
                };
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    print(builtin, output, out)?;
    Ok(OK)
}

fn print(
    crds: &[CustomResourceDefinition],
    output: Output,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let values: Vec<serde_json::Value> = crds
        .iter()
        .map(CustomResourceDefinition::to_value)
        .collect();
    match output {
        Output::Json => {
            for v in &values {
                writeln!(
                    out,
                    "{}",
                    serde_json::to_string_pretty(v).unwrap_or_default()
                )?;
            }
        }
        _ => out.write_all(crdkit_schema::yaml::to_string_multi(&values).as_bytes())?,
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_args(args: &[&str]) -> (u8, String, String) {
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = run(
            args.iter().map(OsString::from).collect(),
            &[],
            &mut out,
            &mut err,
        );
        (
            code,
            String::from_utf8(out).unwrap(),
            String::from_utf8(err).unwrap(),
        )
    }

    #[test]
    fn usage_errors_exit_2() {
        let (code, _, err) = run_args(&["frobnicate"]);
        assert_eq!(code, USAGE);
        assert!(err.contains("unknown command `frobnicate`"), "{err}");
        assert_eq!(run_args(&["--output", "xml"]).0, USAGE);
        assert_eq!(run_args(&["--bogus"]).0, USAGE);
    }

    #[test]
    fn help_and_version() {
        let (code, out, _) = run_args(&["--help"]);
        assert_eq!(code, OK);
        assert!(out.contains("crdgen validate [--crd CRD.yaml|DIR]"));
        assert!(run_args(&["--version"]).1.starts_with("crdgen "));
    }
}
