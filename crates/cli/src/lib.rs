//! `crdgen`: print CRDs, check CRD files (and updates of them), validate and convert manifests
//! offline, write the OpenAPI documents the API server publishes for CRDs, write Rust types for
//! CRDs (`import`), and (feature `serve`) run the local API server.
//!
//! A user's own binary is three lines: `fn main() -> ExitCode { crdkit::cli::main(&[CronTab::crd()?]) }`.
//! Exit codes: [`OK`] success (valid, accepted), [`INVALID`] invalid or rejected, [`USAGE`]
//! usage or input errors.
//!
//! Depends on `crdkit-apiextensions` (the engine), `crdkit-crd`, `crdkit-schema` and
//! `crdkit-apimachinery`, and on the YAML reader (`serde-saphyr`) and argument parser (`lexopt`),
//! which no library user needs: the facade includes this crate only with its `cli` feature.
//! Features: `webhook` (`crdgen convert` through conversion webhooks: an HTTPS client), `serve`
//! (`crdgen serve`: `crdkit-server`, tokio, hyper, rustls), `etcd` (`crdgen serve --etcd`).
//!
//! Modules, each using only those listed after it: the commands (`check`, `validate`,
//! `convert`, `openapi`, `import`, `serve`) → `registry` (the kinds `validate` knows;
//! Kubernetes' published schemas from `crdkit-builtin`) and `report` (kubectl's texts, JSON, GitHub annotations) →
//! `lines` (the line of a field) and `crds` (CRDs read from files) → `load` (manifests) ;
//! `help`, `output` and `exit` (exit codes, `Failure`) sit below the commands.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod check;
mod convert;
mod crds;
mod exit;
mod help;
mod import;
mod lines;
mod load;
mod openapi;
mod output;
mod registry;
mod report;
#[cfg(feature = "serve")]
mod serve;
mod validate;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use crdkit_schema::crd::CustomResourceDefinition;

use exit::Failure;
pub use exit::{INVALID, OK, USAGE};
pub use load::{
    Document, Duplicate, LoadError, MAX_DEPTH, MAX_FILE_BYTES, STACK_BYTES,
    parse as parse_manifests,
};
use output::Output;

/// Runs `crdgen` with the process's arguments and exits.
///
/// `builtin` are the program's own CRDs: printed by `crdgen` without a command, checked by
/// `crdgen check` without files, and the CRDs of `crdgen validate` and `convert` without
/// `--crd`. Runs on a thread with a stack of [`STACK_BYTES`].
#[must_use]
pub fn main(builtin: &[CustomResourceDefinition]) -> ExitCode {
    let run_here = || {
        run(
            std::env::args_os().skip(1).collect(),
            builtin,
            &mut std::io::stdout(),
            &mut std::io::stderr(),
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
/// exit code ([`OK`], [`INVALID`] or [`USAGE`]). See [`main`] for `builtin`.
///
/// `crdgen serve` (feature `serve`) runs until the process is interrupted.
pub fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> u8 {
    let mut command = None;
    match dispatch(args, builtin, out, err, &mut command) {
        Ok(code) => code,
        Err(Failure::Usage(msg)) => {
            let help = match command {
                Some(c) => format!("crdgen {c} --help"),
                None => "crdgen --help".to_owned(),
            };
            let _ = writeln!(err, "crdgen: {msg}\n\nRun `{help}` for usage.");
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

/// Runs the command `args` name (`command`: its name, once known).
fn dispatch(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
    command: &mut Option<&'static str>,
) -> Result<u8, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut output = Output::Yaml;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => {
                help::write(out, None)?;
                return Ok(OK);
            }
            Long("version") | Short('V') => {
                writeln!(out, "crdgen {}", env!("CARGO_PKG_VERSION"))?;
                return Ok(OK);
            }
            Long("output") | Short('o') => {
                output = Output::parse(parser.value()?, &[Output::Yaml, Output::Json])?;
            }
            Value(cmd) => {
                let cmd = cmd.string()?;
                let rest: Vec<OsString> = parser.raw_args()?.collect();
                let (name, run): (&'static str, Command) = match cmd.as_str() {
                    "print" => ("print", print_command),
                    "validate" => ("validate", validate::run),
                    "check" => ("check", check::run),
                    "openapi" => ("openapi", openapi::run),
                    "convert" => ("convert", convert::run),
                    "import" => ("import", import::run),
                    "serve" => ("serve", serve_command),
                    _ => return Err(Failure::Usage(format!("unknown command `{cmd}`"))),
                };
                *command = Some(name);
                return run(rest, builtin, out, err);
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    print(builtin, output, out)?;
    Ok(OK)
}

/// A command: its arguments (after its name), the built-in CRDs, the two streams.
type Command = fn(
    Vec<OsString>,
    &[CustomResourceDefinition],
    &mut dyn Write,
    &mut dyn Write,
) -> Result<u8, Failure>;

/// `crdgen print [--output yaml|json]`: what `crdgen` alone does.
fn print_command(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    _: &mut dyn Write,
) -> Result<u8, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut output = Output::Yaml;
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => {
                help::write(out, Some("print"))?;
                return Ok(OK);
            }
            Long("output") | Short('o') => {
                output = Output::parse(parser.value()?, &[Output::Yaml, Output::Json])?;
            }
            _ => return Err(arg.unexpected().into()),
        }
    }
    print(builtin, output, out)?;
    Ok(OK)
}

#[cfg(feature = "serve")]
fn serve_command(
    args: Vec<OsString>,
    _: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    serve::run(args, out, err)
}

/// Without the server, `crdgen serve --help` still says what it would do.
#[cfg(not(feature = "serve"))]
fn serve_command(
    args: Vec<OsString>,
    _: &[CustomResourceDefinition],
    out: &mut dyn Write,
    _: &mut dyn Write,
) -> Result<u8, Failure> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        help::write(out, Some("serve"))?;
        return Ok(OK);
    }
    Err(Failure::Input(
        "this crdgen is built without the local API server (feature `serve` of crdkit-cli; \
         `cargo install crdgen` has it)"
            .to_owned(),
    ))
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
        assert!(err.ends_with("Run `crdgen --help` for usage.\n"), "{err}");
        assert_eq!(run_args(&["--output", "xml"]).0, USAGE);
        assert_eq!(run_args(&["--bogus"]).0, USAGE);
        // A command's own usage errors point at its own help.
        let (code, _, err) = run_args(&["check", "--bogus"]);
        assert_eq!(code, USAGE);
        assert!(
            err.ends_with("Run `crdgen check --help` for usage.\n"),
            "{err}"
        );
    }

    #[test]
    fn help_and_version() {
        let (code, out, _) = run_args(&["--help"]);
        assert_eq!(code, OK);
        assert!(out.contains("crdgen validate [--crd CRD.yaml|DIR]"));
        assert!(out.contains("crdgen serve [--addr"));
        assert!(run_args(&["--version"]).1.starts_with("crdgen "));
    }

    /// Every command has a usage text of its own, printed with exit 0.
    #[test]
    fn every_command_has_help() {
        for command in [
            "print", "check", "validate", "convert", "openapi", "import", "serve",
        ] {
            for flag in ["--help", "-h"] {
                let (code, out, err) = run_args(&[command, flag]);
                assert_eq!((code, err.as_str()), (OK, ""), "{command} {flag}");
                assert!(out.starts_with("crdgen: "), "{command}: {out}");
                assert!(
                    out.contains(&format!("    crdgen {}", command.replace("print", "["))),
                    "{command}: {out}"
                );
                let (_, all, _) = run_args(&["--help"]);
                assert!(out.len() < all.len(), "{command}: only its own usage");
            }
        }
        // After options too, as lexopt reads them; a value that looks like a flag stays a value.
        assert_eq!(run_args(&["validate", "--crd", "x.yaml", "--help"]).0, OK);
    }
}
