//! `--output`: the formats a command prints in.

use std::ffi::OsString;

use crate::exit::Failure;

/// Output format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Output {
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

impl Output {
    /// The value of `--output`, one of `allowed`.
    pub(crate) fn parse(v: OsString, allowed: &[Output]) -> Result<Output, Failure> {
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
}
