//! The default pull policy of an image reference.
//!
//! Mirrors the image part of kubernetes `pkg/apis/core/v1/defaults.go` (`SetDefaults_Container`,
//! the image volume source) with `pkg/util/parsers` `ParseImageName` over distribution's
//! reference grammar.

/// `Always` for an image tagged (or defaulting to) `latest`, else `IfNotPresent`, as
/// `SetDefaults_Container` decides with `parsers.ParseImageName`; an image that does not parse
/// gets `IfNotPresent`.
pub(crate) fn pull_policy(image: &str) -> &'static str {
    match image_tag(image) {
        Some(tag) if tag == "latest" => "Always",
        _ => "IfNotPresent",
    }
}

/// The tag `ParseImageName` finds: the explicit one, `latest` when there is neither a tag nor a
/// digest, `""` for a digest alone; `None` when the reference does not parse (distribution's
/// `ParseNormalizedNamed`: lowercase path components, a valid tag and digest).
fn image_tag(image: &str) -> Option<String> {
    let (rest, digest) = match image.split_once('@') {
        Some((r, d)) => (r, Some(d)),
        None => (image, None),
    };
    if let Some(d) = digest {
        let (alg, hex) = d.split_once(':')?;
        let alg_ok = !alg.is_empty()
            && alg
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b"+._-".contains(&b));
        if !alg_ok || hex.len() < 32 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
    }
    let last_slash = rest.rfind('/').map_or(0, |i| i + 1);
    let (name, tag) = match rest[last_slash..].rfind(':') {
        Some(i) => (&rest[..last_slash + i], Some(&rest[last_slash + i + 1..])),
        None => (rest, None),
    };
    if let Some(t) = tag {
        let b = t.as_bytes();
        let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
        if b.is_empty()
            || b.len() > 128
            || !word(&b[0])
            || !b.iter().all(|c| word(c) || b"-.".contains(c))
        {
            return None;
        }
    }
    if !valid_name(name) {
        return None;
    }
    Some(match (tag, digest) {
        (Some(t), _) => t.to_owned(),
        (None, Some(_)) => String::new(),
        (None, None) => "latest".to_owned(),
    })
}

/// A repository name: an optional domain (a first component with `.` or `:`, `localhost`, or
/// uppercase letters), then lowercase path components of alphanumerics joined by `.`, `_`, `__`
/// or dashes.
fn valid_name(name: &str) -> bool {
    if name.is_empty() {
        return false;
    }
    let mut parts: Vec<&str> = name.split('/').collect();
    if parts.len() > 1 {
        let first = parts[0];
        let domain = first.contains(['.', ':'])
            || first == "localhost"
            || first.bytes().any(|b| b.is_ascii_uppercase());
        if domain {
            let host_ok = !first.is_empty()
                && first
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"-.:[]".contains(&b));
            if !host_ok {
                return false;
            }
            parts.remove(0);
        }
    }
    parts.iter().all(|p| path_component(p))
}

fn path_component(p: &str) -> bool {
    let b = p.as_bytes();
    let alnum = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    if !alnum(first) || !alnum(last) {
        return false;
    }
    // Separators: `.`, `_`, `__` or one or more `-`, each between alphanumerics.
    let mut i = 0;
    while i < b.len() {
        if alnum(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !alnum(b[i]) {
            i += 1;
        }
        let sep = &p[start..i];
        if !(sep == "." || sep == "_" || sep == "__" || sep.bytes().all(|c| c == b'-')) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pull_policy_follows_the_tag() {
        // defaults_test.go TestSetDefaultsContainer-style facts.
        for (image, want) in [
            ("nginx", "Always"),
            ("nginx:latest", "Always"),
            ("docker.io/library/nginx", "Always"),
            ("localhost:5000/app", "Always"),
            ("nginx:1.25", "IfNotPresent"),
            ("registry.k8s.io/pause:3.10", "IfNotPresent"),
            (
                "nginx@sha256:0e072dddd1f7f8fc8909a2ca6f65e76c5f0d2fcfb8be47935ae3457e8bbceb20",
                "IfNotPresent",
            ),
            (
                "nginx:latest@sha256:0e072dddd1f7f8fc8909a2ca6f65e76c5f0d2fcfb8be47935ae3457e8bbceb20",
                "Always",
            ),
            ("NGINX", "IfNotPresent"),
            ("", "IfNotPresent"),
            ("my_repo/app", "Always"),
            ("Registry.Example.com/app", "Always"),
            ("repo//app", "IfNotPresent"),
            ("app:bad tag", "IfNotPresent"),
        ] {
            assert_eq!(pull_policy(image), want, "{image}");
        }
    }
}
