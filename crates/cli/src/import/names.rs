//! Rust names for JSON names: fields (`podIP` → `pod_ip`, renamed when serde's `camelCase`
//! would not give the JSON name back), types and variants (`tls` → `Tls`, `ClusterIP` →
//! `ClusterIp`, `=~` → `EqualTilde`), modules (`CronTab` → `cron_tab`), and the plural of a
//! field naming a list's items (`containers` → `Container`).

/// Rust's keywords (2024 edition, strict and reserved): a field of such a name is written raw
/// (`r#type`), a module or type name gets a suffix.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// Keywords that cannot be raw identifiers.
const NOT_RAW: &[&str] = &["crate", "self", "super"];

/// Words for the symbols a JSON name may hold, so that `=~` and `!~` get distinct names.
const SYMBOLS: &[(char, &str)] = &[
    ('=', "Equal"),
    ('!', "Not"),
    ('~', "Tilde"),
    ('*', "Star"),
    ('+', "Plus"),
    ('<', "Less"),
    ('>', "Greater"),
    ('%', "Percent"),
    ('&', "And"),
    ('|', "Or"),
    ('?', "Question"),
    ('@', "At"),
    ('#', "Hash"),
    ('$', "Dollar"),
    ('^', "Caret"),
];

/// The words of a JSON name: split at non-alphanumerics and at case changes (`podIP` → `pod`,
/// `IP`; `HTTPRoute` → `HTTP`, `Route`; `v1beta1` stays one word).
fn words(name: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = name.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            if let Some((_, w)) = SYMBOLS.iter().find(|(s, _)| *s == c) {
                words.push((*w).to_owned());
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1);
        let boundary = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if boundary && !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
        cur.push(c);
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// `podIP` → `pod_ip`; empty for a name without letters or digits.
#[must_use]
pub(crate) fn snake(name: &str) -> String {
    let w: Vec<String> = words(name).iter().map(|w| w.to_lowercase()).collect();
    w.join("_")
}

/// `tls` → `Tls`, `ClusterIP` → `ClusterIp`; empty for a name without letters or digits.
#[must_use]
pub(crate) fn pascal(name: &str) -> String {
    words(name)
        .iter()
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_uppercase().collect::<String>() + &c.as_str().to_lowercase())
                .unwrap_or_default()
        })
        .collect()
}

/// What serde's `rename_all = "camelCase"` makes of a field `ident` (raw prefix dropped), as
/// serde_derive's `RenameRule::CamelCase` does.
#[must_use]
pub(crate) fn serde_camel(ident: &str) -> String {
    let ident = ident.strip_prefix("r#").unwrap_or(ident);
    let mut pascal = String::new();
    let mut capitalize = true;
    for ch in ident.chars() {
        if ch == '_' {
            capitalize = true;
        } else if capitalize {
            pascal.push(ch.to_ascii_uppercase());
            capitalize = false;
        } else {
            pascal.push(ch);
        }
    }
    match pascal.chars().next() {
        Some(f) => f.to_ascii_lowercase().to_string() + &pascal[f.len_utf8()..],
        None => pascal,
    }
}

fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// A field identifier for the JSON name `name`, not among `taken`: snake case, raw when a
/// keyword, `field` when the name has no letters, a number appended when taken.
#[must_use]
pub(crate) fn field_ident(name: &str, taken: &[String]) -> String {
    let mut base = snake(name);
    if base.is_empty() {
        base = "field".to_owned();
    }
    if base.starts_with(|c: char| c.is_ascii_digit()) {
        base = format!("f_{base}");
    }
    if !base.is_ascii() {
        base = base
            .chars()
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
    }
    let candidate = |n: usize| {
        let s = if n == 1 {
            base.clone()
        } else {
            format!("{base}_{n}")
        };
        if NOT_RAW.contains(&s.as_str()) {
            format!("{s}_")
        } else if is_keyword(&s) {
            format!("r#{s}")
        } else {
            s
        }
    };
    (1..)
        .map(candidate)
        .find(|c| !taken.contains(c))
        .unwrap_or_default()
}

/// A type or variant name for the JSON name `name` (a property, an enum value), not among
/// `taken`: Pascal case, `Empty` for `""`, `V` before a leading digit, a number appended when
/// taken.
#[must_use]
pub(crate) fn type_ident(name: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let mut base = pascal(name);
    if !base.is_ascii() {
        base = base.chars().filter(char::is_ascii_alphanumeric).collect();
    }
    if base.is_empty() {
        base = if name.is_empty() { "Empty" } else { "Value" }.to_owned();
    }
    if base.starts_with(|c: char| c.is_ascii_digit()) {
        base = format!("V{base}");
    }
    if base == "Self" {
        base = "Self_".to_owned();
    }
    unique(&base, taken)
}

/// `base`, or `base2`, `base3`... the first not taken.
#[must_use]
pub(crate) fn unique(base: &str, taken: &dyn Fn(&str) -> bool) -> String {
    (1..)
        .map(|n| {
            if n == 1 {
                base.to_owned()
            } else {
                format!("{base}{n}")
            }
        })
        .find(|c| !taken(c))
        .unwrap_or_default()
}

/// A module name for a kind or version: snake case, a keyword suffixed with `_`.
#[must_use]
pub(crate) fn module_ident(name: &str) -> String {
    let mut s = snake(name);
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s = format!("m_{s}");
    }
    if is_keyword(&s) {
        s.push('_');
    }
    s
}

/// The singular of an English plural, for the items of a list field (`containers` →
/// `container`, `policies` → `policy`, `addresses` → `address`); other words unchanged.
#[must_use]
pub(crate) fn singular(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    let cut = |n: usize, add: &str| format!("{}{add}", &word[..word.len() - n]);
    if lower.ends_with("ies") && word.len() > 4 {
        cut(3, "y")
    } else if ["sses", "shes", "ches", "xes", "zzes"]
        .iter()
        .any(|s| lower.ends_with(s))
    {
        cut(2, "")
    } else if lower.ends_with('s')
        && !lower.ends_with("ss")
        && !lower.ends_with("us")
        && !lower.ends_with("is")
        && word.len() > 3
    {
        cut(1, "")
    } else {
        word.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names() {
        for (json, ident) in [
            ("podIP", "pod_ip"),
            ("hostIPC", "host_ipc"),
            ("apiVersion", "api_version"),
            ("URL", "url"),
            ("x-kubernetes-foo", "x_kubernetes_foo"),
            ("type", "r#type"),
            ("self", "self_"),
            ("$ref", "dollar_ref"),
            ("v1beta1", "v1beta1"),
            ("HTTPRoute", "http_route"),
            ("3d", "f_3d"),
            ("", "field"),
        ] {
            assert_eq!(field_ident(json, &[]), ident, "{json}");
        }
        assert_eq!(field_ident("fooBar", &["foo_bar".to_owned()]), "foo_bar_2");
    }

    #[test]
    fn serde_camel_case() {
        assert_eq!(serde_camel("pod_ip"), "podIp");
        assert_eq!(serde_camel("r#type"), "type");
        assert_eq!(serde_camel("api_version"), "apiVersion");
        assert_eq!(serde_camel("v1beta1"), "v1beta1");
    }

    #[test]
    fn type_names() {
        let none = |_: &str| false;
        for (json, ident) in [
            ("tls", "Tls"),
            ("ClusterIP", "ClusterIp"),
            ("TCP", "Tcp"),
            ("=~", "EqualTilde"),
            ("!=", "NotEqual"),
            ("", "Empty"),
            ("3xx", "V3xx"),
            ("HTTP/2", "Http2"),
            ("foo.bar-baz", "FooBarBaz"),
        ] {
            assert_eq!(type_ident(json, &none), ident, "{json}");
        }
        assert_eq!(type_ident("tls", &|s| s == "Tls"), "Tls2");
    }

    #[test]
    fn plurals() {
        for (p, s) in [
            ("containers", "container"),
            ("policies", "policy"),
            ("addresses", "address"),
            ("matchExpressions", "matchExpression"),
            ("status", "status"),
            ("ingress", "ingress"),
            ("data", "data"),
        ] {
            assert_eq!(singular(p), s);
        }
    }
}
