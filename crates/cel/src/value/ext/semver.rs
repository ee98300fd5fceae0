//! `kubernetes.Semver`: mirrors apiserver `pkg/cel/semver.go` with the parsing and precedence of
//! `github.com/blang/semver/v4` (and the normalising parse of the version 1 overloads of
//! `library/semverlib.go`).

use std::cmp::Ordering;
use std::fmt;

/// A semantic version.
#[derive(Clone, Debug, PartialEq)]
pub struct Semver {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<String>,
    pub build: Vec<String>,
}

impl fmt::Display for Semver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}

fn numeric(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

impl Semver {
    /// Precedence (blang `Compare`): build metadata is ignored.
    pub(crate) fn cmp_precedence(&self, o: &Semver) -> Ordering {
        let base = (self.major, self.minor, self.patch).cmp(&(o.major, o.minor, o.patch));
        if base != Ordering::Equal {
            return base;
        }
        match (self.pre.is_empty(), o.pre.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Greater,
            (false, true) => return Ordering::Less,
            _ => {}
        }
        for (a, b) in self.pre.iter().zip(&o.pre) {
            let c = match (numeric(a), numeric(b)) {
                (true, true) => a
                    .parse::<u64>()
                    .unwrap_or(0)
                    .cmp(&b.parse::<u64>().unwrap_or(0)),
                (true, false) => Ordering::Less,
                (false, true) => Ordering::Greater,
                (false, false) => a.cmp(b),
            };
            if c != Ordering::Equal {
                return c;
            }
        }
        self.pre.len().cmp(&o.pre.len())
    }
}

fn ident_ok(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// blang `semver.Parse`.
pub(crate) fn parse(s: &str) -> Result<Semver, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    if parts.len() != 3 {
        return Err("No Major.Minor.Patch elements found".into());
    }
    let num = |p: &str, what: &str| -> Result<u64, String> {
        if !numeric(p) {
            return Err(format!("Invalid character(s) found in {what} number {p:?}"));
        }
        if p.len() > 1 && p.starts_with('0') {
            return Err(format!(
                "{} number must not contain leading zeroes {p:?}",
                capital(what)
            ));
        }
        p.parse().map_err(|e| format!("{e}"))
    };
    let major = num(parts[0], "major")?;
    let minor = num(parts[1], "minor")?;
    let (rest, build) = match parts[2].split_once('+') {
        Some((r, b)) => (r, b.split('.').map(str::to_string).collect::<Vec<_>>()),
        None => (parts[2], Vec::new()),
    };
    let (patch_s, pre) = match rest.split_once('-') {
        Some((p, pre)) => (p, pre.split('.').map(str::to_string).collect::<Vec<_>>()),
        None => (rest, Vec::new()),
    };
    let patch = num(patch_s, "patch")?;
    for p in &pre {
        if !ident_ok(p) {
            return Err(format!("Invalid character(s) found in prerelease {p:?}"));
        }
        if numeric(p) && p.len() > 1 && p.starts_with('0') {
            return Err(format!(
                "Numeric PreRelease version must not contain leading zeroes {p:?}"
            ));
        }
    }
    for b in &build {
        if !ident_ok(b) {
            return Err(format!(
                "Invalid character(s) found in build meta data {b:?}"
            ));
        }
    }
    Ok(Semver {
        major,
        minor,
        patch,
        pre,
        build,
    })
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
        .unwrap_or_default()
}

/// apiserver `normalizeAndParse`.
pub(crate) fn normalize_and_parse(s: &str) -> Result<Semver, String> {
    let s = s.strip_prefix('v').unwrap_or(s);
    let mut parts: Vec<String> = s.splitn(3, '.').map(str::to_string).collect();
    for p in &mut parts {
        if p.len() > 1 {
            let t = p.trim_start_matches('0');
            *p = if t.is_empty() || !t.as_bytes()[0].is_ascii_digit() {
                format!("0{t}")
            } else {
                t.to_string()
            };
        }
    }
    if parts.len() < 3 {
        if parts.last().is_some_and(|p| p.contains(['+', '-'])) {
            return Err("short version cannot contain PreRelease/Build meta data".into());
        }
        while parts.len() < 3 {
            parts.push("0".into());
        }
    }
    parse(&parts.join("."))
}
