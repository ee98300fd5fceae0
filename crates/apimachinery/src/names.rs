//! Name validation with the API server's messages.
//!
//! Mirrors apimachinery `pkg/util/validation/validation.go` (`IsDNS1123Subdomain`,
//! `IsDNS1123Label`, `IsDNS1035Label`), `pkg/api/validation/generic.go` (the `ValidateNameFunc`s
//! that `ValidateObjectMeta` takes: `NameIsDNSSubdomain`, `NameIsDNSLabel`, `NameIsDNS1035Label`),
//! `pkg/api/validation/path/name.go` (`IsValidPathSegmentName`, `IsValidPathSegmentPrefix`) and
//! the name rules of apiextensions-apiserver `pkg/apis/apiextensions/validation/validation.go`.

const DNS1123_LABEL_FMT: &str = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const DNS1123_LABEL_MSG: &str = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG: &str = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_FMT: &str = "[a-z]([-a-z0-9]*[a-z0-9])?";
const DNS1035_LABEL_MSG: &str = "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";

/// `must be no more than N characters`
#[must_use]
pub fn max_len_error(n: usize) -> String {
    format!("must be no more than {n} characters")
}

/// apimachinery's `RegexError`.
#[must_use]
pub fn regex_error(msg: &str, fmt: &str, examples: &[&str]) -> String {
    if examples.is_empty() {
        return format!("{msg} (regex used for validation is '{fmt}')");
    }
    let ex: Vec<String> = examples.iter().map(|e| format!("'{e}', ")).collect();
    format!(
        "{msg} (e.g. {}regex used for validation is '{fmt}')",
        ex.join(" or ")
    )
}

fn is_label_char(b: u8) -> bool {
    b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'
}

/// Matches `[a-z0-9]([-a-z0-9]*[a-z0-9])?` (or with `[a-z]` first for DNS-1035).
fn matches_label(s: &str, alpha_first: bool) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    let first_ok = if alpha_first {
        first.is_ascii_lowercase()
    } else {
        first.is_ascii_lowercase() || first.is_ascii_digit()
    };
    first_ok
        && (last.is_ascii_lowercase() || last.is_ascii_digit())
        && b.iter().all(|&c| is_label_char(c))
}

/// `IsDNS1123Label`
#[must_use]
pub fn dns1123_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !matches_label(value, false) {
        if is_subdomain(value) {
            errs.push("must not contain dots".to_owned());
        } else {
            errs.push(regex_error(
                DNS1123_LABEL_MSG,
                DNS1123_LABEL_FMT,
                &["my-name", "123-abc"],
            ));
        }
    }
    errs
}

fn is_subdomain(value: &str) -> bool {
    value.split('.').all(|l| matches_label(l, false))
}

/// `IsDNS1123Subdomain`
#[must_use]
pub fn dns1123_subdomain(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 253 {
        errs.push(max_len_error(253));
    }
    if !is_subdomain(value) {
        let fmt = format!("{DNS1123_LABEL_FMT}(\\.{DNS1123_LABEL_FMT})*");
        errs.push(regex_error(DNS1123_SUBDOMAIN_MSG, &fmt, &["example.com"]));
    }
    errs
}

/// `IsDNS1035Label`
#[must_use]
pub fn dns1035_label(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push(max_len_error(63));
    }
    if !matches_label(value, true) {
        errs.push(regex_error(
            DNS1035_LABEL_MSG,
            DNS1035_LABEL_FMT,
            &["my-name", "abc-123"],
        ));
    }
    errs
}

/// `maskTrailingDash`: a `generateName` prefix may end with `-` (a suffix follows it), so its last
/// two characters are checked as `a` (Go replaces the dash and the character before it).
fn mask_trailing_dash(name: &str, prefix: bool) -> std::borrow::Cow<'_, str> {
    if prefix && name.len() > 1 && name.ends_with('-') {
        // `name[:len(name)-2] + "a"`, on bytes as in Go; a name whose last two bytes are not one
        // character boundary is not a valid name anyway, and is checked as it is.
        if let Some(head) = name.get(..name.len() - 2) {
            return std::borrow::Cow::Owned(format!("{head}a"));
        }
    }
    std::borrow::Cow::Borrowed(name)
}

/// `NameIsDNSSubdomain`: a `name` (or, with `prefix`, a `generateName`) that must be a DNS
/// subdomain, as most kinds' names.
#[must_use]
pub fn name_is_dns_subdomain(name: &str, prefix: bool) -> Vec<String> {
    dns1123_subdomain(&mask_trailing_dash(name, prefix))
}

/// `NameIsDNSLabel`: a name that must be a DNS (RFC 1123) label, as a `Namespace`'s.
#[must_use]
pub fn name_is_dns_label(name: &str, prefix: bool) -> Vec<String> {
    dns1123_label(&mask_trailing_dash(name, prefix))
}

/// `NameIsDNS1035Label`: a name that must be a DNS-1035 label, as a `Service`'s.
#[must_use]
pub fn name_is_dns1035_label(name: &str, prefix: bool) -> Vec<String> {
    dns1035_label(&mask_trailing_dash(name, prefix))
}

/// `IsValidPathSegmentName` (or, with `prefix`, `IsValidPathSegmentPrefix`): a name that only
/// has to fit in a URL path segment, as RBAC objects' (`system:controller:...`) and persistent
/// volumes'.
#[must_use]
pub fn path_segment_name(name: &str, prefix: bool) -> Vec<String> {
    if !prefix && (name == "." || name == "..") {
        return vec![format!("may not be '{name}'")];
    }
    ["/", "%"]
        .iter()
        .filter(|c| name.contains(*c))
        .map(|c| format!("may not contain '{c}'"))
        .collect()
}

/// `spec.group`: a DNS subdomain with at least one dot.
#[must_use]
pub fn group(value: &str) -> Option<String> {
    if value.is_empty() {
        return Some("Required value".to_owned());
    }
    let errs = dns1123_subdomain(value);
    if !errs.is_empty() {
        return Some(errs.join(","));
    }
    (!value.contains('.')).then(|| "should be a domain with at least one dot".to_owned())
}

/// `spec.names.kind` and `listKind`: DNS-1035 once lowercased.
#[must_use]
pub fn kind(value: &str) -> Option<String> {
    let errs = dns1035_label(&value.to_lowercase());
    (!errs.is_empty()).then(|| {
        format!(
            "may have mixed case, but should otherwise match: {}",
            errs.join(",")
        )
    })
}

/// `plural`, `singular`, short names, categories, version names: DNS-1035 labels.
#[must_use]
pub fn label(value: &str) -> Option<String> {
    let errs = dns1035_label(value);
    (!errs.is_empty()).then(|| errs.join(","))
}

/// `deprecationWarning` (validation.go `validateDeprecationWarning`). Lengths and indices are in
/// bytes, as in Go; any character Go's `unicode.IsPrint` rejects (control characters included)
/// is "non-printable".
#[must_use]
pub fn deprecation_warning(deprecated: bool, warning: Option<&str>) -> Vec<String> {
    let Some(w) = warning else { return Vec::new() };
    if !deprecated {
        return vec!["can only be set for deprecated versions".to_owned()];
    }
    let mut errs = Vec::new();
    if w.len() > 256 {
        errs.push("must be <= 256 characters long".to_owned());
    }
    if w.is_empty() {
        errs.push("must not be an empty string".to_owned());
    }
    if let Some((i, _)) = w.char_indices().find(|(_, c)| !crate::gofmt::is_print(*c)) {
        errs.push(format!(
            "must only contain printable UTF-8 characters; non-printable character found at index {i}"
        ));
    }
    errs
}

const LABEL_KEY_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const LABEL_KEY_MSG: &str = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

fn matches_label_key(s: &str) -> bool {
    let b = s.as_bytes();
    let (Some(&first), Some(&last)) = (b.first(), b.last()) else {
        return false;
    };
    first.is_ascii_alphanumeric()
        && last.is_ascii_alphanumeric()
        && b.iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// apimachinery `IsQualifiedName` (`content.IsLabelKey`): label keys, annotation keys (after
/// lowercasing), finalizers. Its length messages count bytes.
#[must_use]
pub fn label_key(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts[..] {
        [name] => name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_owned());
            } else {
                if prefix.len() > 253 {
                    errs.push("prefix part must be no more than 253 bytes".to_owned());
                }
                if !is_subdomain(prefix) {
                    let fmt = format!("{DNS1123_LABEL_FMT}(\\.{DNS1123_LABEL_FMT})*");
                    let msg = regex_error(DNS1123_SUBDOMAIN_MSG, &fmt, &["example.com"]);
                    errs.push(format!("prefix part {msg}"));
                }
            }
            name
        }
        _ => {
            return vec![format!(
                "a valid label key {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error(
                    LABEL_KEY_MSG,
                    LABEL_KEY_FMT,
                    &["MyName", "my.name", "123-abc"]
                )
            )];
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_owned());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 bytes".to_owned());
    }
    if !matches_label_key(name) {
        let msg = regex_error(
            LABEL_KEY_MSG,
            LABEL_KEY_FMT,
            &["MyName", "my.name", "123-abc"],
        );
        errs.push(format!("name part {msg}"));
    }
    errs
}

/// apimachinery `IsValidLabelValue` (`content.IsLabelValue`).
#[must_use]
pub fn label_value(value: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if value.len() > 63 {
        errs.push("must be no more than 63 bytes".to_owned());
    }
    if !value.is_empty() && !matches_label_key(value) {
        errs.push(regex_error(
            "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character",
            &format!("({LABEL_KEY_FMT})?"),
            &["MyValue", "my_value", "12345"],
        ));
    }
    errs
}

/// The plural kube-derive and kubebuilder guess from a kind: lowercase, English rules.
#[must_use]
pub fn plural_of(kind: &str) -> String {
    let s = kind.to_lowercase();
    if s.ends_with('s')
        || s.ends_with('x')
        || s.ends_with('z')
        || s.ends_with("ch")
        || s.ends_with("sh")
    {
        format!("{s}es")
    } else if s.ends_with('y')
        && !s.ends_with("ay")
        && !s.ends_with("ey")
        && !s.ends_with("oy")
        && !s.ends_with("uy")
    {
        format!("{}ies", &s[..s.len() - 1])
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_match_apimachinery() {
        assert_eq!(
            label("Foo").as_deref(),
            // The double space is apimachinery's.
            Some(
                "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
            )
        );
        assert_eq!(
            group("example"),
            Some("should be a domain with at least one dot".to_owned())
        );
        assert!(
            group("Example.com")
                .unwrap()
                .starts_with("a lowercase RFC 1123 subdomain")
        );
        assert_eq!(group("stable.example.com"), None);
        assert_eq!(kind("CronTab"), None);
        assert!(
            kind("Cron_Tab")
                .unwrap()
                .starts_with("may have mixed case, but should otherwise match: a DNS-1035")
        );
        assert_eq!(
            label(&"a".repeat(64)).unwrap().split(',').next(),
            Some("must be no more than 63 characters")
        );
    }

    #[test]
    fn name_funcs_mask_a_prefix_trailing_dash() {
        // apimachinery generic_test.go TestMaskTrailingDash, through the name functions.
        assert!(name_is_dns_subdomain("abc-", true).is_empty());
        assert!(!name_is_dns_subdomain("abc-", false).is_empty());
        assert!(!name_is_dns_subdomain("-", true).is_empty());
        assert!(name_is_dns_label("ab-", true).is_empty());
        assert_eq!(
            name_is_dns_label("a.b", false),
            ["must not contain dots".to_owned()]
        );
        assert!(name_is_dns1035_label("my-svc-", true).is_empty());
        assert!(!name_is_dns1035_label("1svc", false).is_empty());
        // path/name_test.go: `.` and `..` are only refused as whole names.
        assert_eq!(path_segment_name("..", false), ["may not be '..'"]);
        assert!(path_segment_name("..", true).is_empty());
        assert_eq!(
            path_segment_name("a/b%c", false),
            ["may not contain '/'", "may not contain '%'"]
        );
        assert!(path_segment_name("system:controller:x", false).is_empty());
    }

    #[test]
    fn plurals() {
        assert_eq!(plural_of("CronTab"), "crontabs");
        assert_eq!(plural_of("Policy"), "policies");
        assert_eq!(plural_of("Gateway"), "gateways");
        assert_eq!(plural_of("Ingress"), "ingresses");
    }
}
