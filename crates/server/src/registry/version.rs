//! Kubernetes-aware version ordering: `v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > foo`.
//!
//! Mirrors apimachinery `pkg/version/helpers.go` (`CompareKubeAwareVersionStrings`): GA before
//! beta before alpha, higher major then higher minor first, versions that are not
//! `v<major>[(alpha|beta)<minor>]` last, in lexical order.

use std::cmp::Ordering;

fn parse(v: &str) -> Option<(u64, u8, u64)> {
    let rest = v.strip_prefix('v')?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    let major: u64 = rest[..digits].parse().ok()?;
    let rest = &rest[digits..];
    if rest.is_empty() {
        return Some((major, 2, 0));
    }
    let (stage, minor) = if let Some(m) = rest.strip_prefix("beta") {
        (1, m)
    } else if let Some(m) = rest.strip_prefix("alpha") {
        (0, m)
    } else {
        return None;
    };
    if minor.is_empty() || !minor.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((major, stage, minor.parse().ok()?))
}

/// `Greater` when `a` has priority over `b`.
#[must_use]
pub fn compare(a: &str, b: &str) -> Ordering {
    match (parse(a), parse(b)) {
        (Some((ma, sa, na)), Some((mb, sb, nb))) => sa.cmp(&sb).then(ma.cmp(&mb)).then(na.cmp(&nb)),
        (Some(_), None) => Ordering::Greater,
        (None, Some(_)) => Ordering::Less,
        (None, None) => b.cmp(a),
    }
}

/// Sorts versions by priority, highest first.
pub fn sort(versions: &mut [String]) {
    versions.sort_by(|a, b| compare(b, a));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kube_aware_order() {
        // The ordering example of the CRD versioning page.
        let mut v: Vec<String> = [
            "v1alpha1",
            "foo10",
            "v11alpha2",
            "v2",
            "v12alpha1",
            "v3beta1",
            "v1",
            "foo1",
            "v10",
            "v10beta3",
            "v11beta2",
            "v1beta1",
        ]
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
        sort(&mut v);
        assert_eq!(
            v,
            [
                "v10",
                "v2",
                "v1",
                "v11beta2",
                "v10beta3",
                "v3beta1",
                "v1beta1",
                "v12alpha1",
                "v11alpha2",
                "v1alpha1",
                "foo1",
                "foo10"
            ]
        );
    }
}
