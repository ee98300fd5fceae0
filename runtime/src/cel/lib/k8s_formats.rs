//! Named formats (Kubernetes 1.31): mirrors apiserver `pkg/cel/library/format.go`, and the
//! parsing of `format: duration`, `date` and `date-time` strings (kube-openapi `strfmt`).

use super::FnDef;
use crate::cel::eval::time::{Duration, Timestamp};

/// A named format such as `dns1123Label`.
#[derive(Debug, PartialEq)]
pub struct NamedFormat {
    pub name: &'static str,
}

/// kube-openapi `strfmt.ParseDuration`.
pub(crate) fn parse_strfmt_duration(s: &str) -> Option<Duration> {
    crate::cel::eval::time::parse_go_duration(s)
}

/// `time.Parse("2006-01-02", s)`.
pub(crate) fn parse_full_date(s: &str) -> Option<Timestamp> {
    crate::cel::eval::time::parse_rfc3339(&format!("{s}T00:00:00Z"))?.ok()
}

/// kube-openapi `strfmt.ParseDateTime`.
pub(crate) fn parse_strfmt_datetime(s: &str) -> Option<Timestamp> {
    crate::cel::eval::time::parse_rfc3339(s)?.ok()
}

/// The format library.
pub(crate) static FUNCTIONS: &[FnDef] = &[];
