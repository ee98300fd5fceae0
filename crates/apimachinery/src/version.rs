//! Version priority: the order in which kubectl prefers the versions of a kind.
//!
//! Mirrors apimachinery `pkg/version/helpers.go` (`CompareKubeAwareVersionStrings`), the
//! comparison the API server's discovery sorts CRD versions with, and which the versioning page
//! describes: versions of the Kubernetes form `v<major>[(alpha|beta)<minor>]` come first, GA
//! before beta before alpha, larger numbers first; the others follow in alphabetical order.
//!
//! ```
//! use crdkit_apimachinery::version::sort_by_priority;
//! let mut versions = ["v1beta1", "foo10", "v1", "v2alpha1", "foo1"];
//! sort_by_priority(&mut versions);
//! assert_eq!(versions, ["v1", "v1beta1", "v2alpha1", "foo1", "foo10"]);
//! ```

use std::cmp::Ordering;

/// The stability of a Kubernetes-style version; a larger value has a higher priority.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stability {
    /// `v1alpha1`
    Alpha,
    /// `v1beta1`
    Beta,
    /// `v1`
    Ga,
}

/// A version of the form `v<major>[(alpha|beta)<minor>]` (Go's `parseKubeVersion`): the major
/// number, the stability and the minor number (0 for GA). `None` for any other string,
/// including numbers that overflow Go's `int` (`strconv.Atoi` fails on them).
#[must_use]
pub fn parse_kube_version(v: &str) -> Option<(u64, Stability, u64)> {
    let rest = v.strip_prefix('v')?;
    // Go's `[\d]` is ASCII only.
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let major = atoi(&rest[..digits])?;
    let rest = &rest[digits..];
    if rest.is_empty() {
        return Some((major, Stability::Ga, 0));
    }
    let (stability, minor) = if let Some(m) = rest.strip_prefix("alpha") {
        (Stability::Alpha, m)
    } else {
        (Stability::Beta, rest.strip_prefix("beta")?)
    };
    if !minor.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((major, stability, atoi(minor)?))
}

/// `strconv.Atoi` on one or more ASCII digits: fails beyond `i64::MAX`.
fn atoi(digits: &str) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits
        .parse::<i64>()
        .ok()
        .and_then(|n| u64::try_from(n).ok())
}

/// Compares two versions by priority (Go's `CompareKubeAwareVersionStrings`): `Greater` when
/// `a` has the higher priority, so that sorting in descending order gives kubectl's order.
#[must_use]
pub fn compare_priority(a: &str, b: &str) -> Ordering {
    if a == b {
        return Ordering::Equal;
    }
    match (parse_kube_version(a), parse_kube_version(b)) {
        // Alphabetical, the smaller string first (`strings.Compare(v2, v1)`).
        (None, None) => b.cmp(a),
        (None, Some(_)) => Ordering::Less,
        (Some(_), None) => Ordering::Greater,
        (Some((a_major, a_stab, a_minor)), Some((b_major, b_stab, b_minor))) => a_stab
            .cmp(&b_stab)
            .then(a_major.cmp(&b_major))
            .then(a_minor.cmp(&b_minor)),
    }
}

/// Sorts versions from the highest priority to the lowest: the order of `spec.versions` in the
/// CRDs crdkit writes, and the order of the API server's discovery documents.
pub fn sort_by_priority<S: AsRef<str>>(versions: &mut [S]) {
    versions.sort_by(|a, b| compare_priority(b.as_ref(), a.as_ref()));
}

#[cfg(test)]
mod tests {
    use super::{Stability, compare_priority, parse_kube_version, sort_by_priority};
    use std::cmp::Ordering;

    /// The list of the versioning page ("Version priority"), in its order.
    #[test]
    fn the_pages_sorted_list() {
        let want = [
            "v10",
            "v2",
            "v1",
            "v11beta2",
            "v10beta3",
            "v3beta1",
            "v12alpha1",
            "v11alpha2",
            "foo1",
            "foo10",
        ];
        let mut got = want;
        got.reverse();
        sort_by_priority(&mut got);
        assert_eq!(got, want);
        let mut shuffled = [
            "foo10",
            "v3beta1",
            "v1",
            "v12alpha1",
            "foo1",
            "v10",
            "v11alpha2",
            "v2",
            "v10beta3",
            "v11beta2",
        ];
        sort_by_priority(&mut shuffled);
        assert_eq!(shuffled, want);
    }

    /// apimachinery `pkg/version/helpers_test.go` TestCompareKubeAwareVersionStrings.
    #[test]
    fn compare_kube_aware_version_strings() {
        let cases = [
            ("v1", "v2", false),
            ("v2", "v1", true),
            ("v10", "v2", true),
            ("v1", "v2alpha1", true),
            ("v1", "v2beta1", true),
            ("v1alpha2", "v1alpha1", true),
            ("v1beta1", "v2alpha3", true),
            ("v1alpha10", "v1alpha2", true),
            ("v1beta10", "v1beta2", true),
            ("foo", "v1beta2", false),
            ("bar", "foo", true),
            ("version1", "version2", true),
            ("version1", "version10", true),
        ];
        for (a, b, greater) in cases {
            assert_eq!(
                compare_priority(a, b) == Ordering::Greater,
                greater,
                "{a} vs {b}"
            );
        }
        assert_eq!(compare_priority("v1", "v1"), Ordering::Equal);
    }

    /// apimachinery `pkg/version/helpers_test.go` Test_parseKubeVersion, plus Go's `\d` (ASCII)
    /// and `strconv.Atoi` overflow.
    #[test]
    fn parse() {
        assert_eq!(parse_kube_version("v1.1"), None);
        assert_eq!(parse_kube_version("v1alpha1.1"), None);
        assert_eq!(
            parse_kube_version("v1alpha1"),
            Some((1, Stability::Alpha, 1))
        );
        assert_eq!(
            parse_kube_version("v2beta10"),
            Some((2, Stability::Beta, 10))
        );
        assert_eq!(parse_kube_version("v3"), Some((3, Stability::Ga, 0)));
        assert_eq!(parse_kube_version("v"), None);
        assert_eq!(parse_kube_version("v1beta"), None);
        assert_eq!(parse_kube_version("v1gamma1"), None);
        assert_eq!(parse_kube_version("v١"), None);
        assert_eq!(parse_kube_version("v99999999999999999999"), None);
        assert_eq!(parse_kube_version("v007"), Some((7, Stability::Ga, 0)));
    }
}
