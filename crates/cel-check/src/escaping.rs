//! The CEL reserved words and the API server's escaping of property names: mirrors apiserver
//! `pkg/cel/escaping.go` (`celReservedSymbols`, `Escape`, `Unescape`). Its reserved words are
//! cel-go's `reservedIds` (`parser/parser.go`): the parser refuses them as identifiers and the
//! API server escapes properties so named as `__word__`. One list serves both, and
//! [`escaped_eq`] is `Escape` as a `const fn` for the derive's compile-time checker.

/// One list of words; the escaped forms are derived from it.
macro_rules! reserved {
    ($($word:literal),* $(,)?) => {
        /// The CEL reserved words (cel-go `reservedIds`, apiserver `celReservedSymbols`).
        pub const RESERVED: &[&str] = &[$($word),*];
        /// [`RESERVED`] escaped, in the same order: `__in__`.
        const RESERVED_ESCAPED: &[&str] = &[$(concat!("__", $word, "__")),*];
    };
}

reserved![
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `word` is a CEL reserved word.
///
/// ```
/// assert!(crdkit_cel_check::escaping::is_reserved("namespace"));
/// assert!(!crdkit_cel_check::escaping::is_reserved("name"));
/// ```
#[must_use]
pub const fn is_reserved(word: &str) -> bool {
    reserved_escaped(word).is_some()
}

/// The escaped form of a reserved word (`in` is `__in__`).
#[must_use]
pub const fn reserved_escaped(word: &str) -> Option<&'static str> {
    let mut i = 0;
    while i < RESERVED.len() {
        if str_eq(RESERVED[i], word) {
            return Some(RESERVED_ESCAPED[i]);
        }
        i += 1;
    }
    None
}

/// apiserver `Escape`: the CEL name of a property, or `None` if it cannot be accessed.
///
/// ```
/// use crdkit_cel_check::escaping::escape;
/// assert_eq!(escape("x-prop").as_deref(), Some("x__dash__prop"));
/// assert_eq!(escape("namespace").as_deref(), Some("__namespace__"));
/// assert_eq!(escape("a__b.c/d").as_deref(), Some("a__underscores__b__dot__c__slash__d"));
/// assert_eq!(escape("1st"), None);
/// assert_eq!(escape("a:b"), None);
/// ```
#[must_use]
pub fn escape(ident: &str) -> Option<String> {
    if ident.is_empty() || ident.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    if let Some(escaped) = reserved_escaped(ident) {
        return Some(escaped.to_owned());
    }
    let valid = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/');
    if !ident.chars().all(valid) {
        return None;
    }
    let mut out = String::with_capacity(ident.len());
    let mut rest = ident;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("__") {
            out.push_str("__underscores__");
            rest = r;
            continue;
        }
        match c {
            '.' => out.push_str("__dot__"),
            '-' => out.push_str("__dash__"),
            '/' => out.push_str("__slash__"),
            c => out.push(c),
        }
        rest = &rest[c.len_utf8()..];
    }
    Some(out)
}

/// apiserver `Unescape`: the property name of an escaped CEL name, or `None` if it is not a
/// valid escaping (`__illegal__`, or a reserved word inside a longer name).
///
/// ```
/// use crdkit_cel_check::escaping::unescape;
/// assert_eq!(unescape("x__dash__prop").as_deref(), Some("x-prop"));
/// assert_eq!(unescape("__namespace__").as_deref(), Some("namespace"));
/// assert_eq!(unescape("__int__extra"), None);
/// ```
#[must_use]
pub fn unescape(escaped: &str) -> Option<String> {
    let mut out = String::with_capacity(escaped.len());
    let mut rest = escaped;
    // Go's regexp `(_{2}[^_]+_{2})`, leftmost first, non-overlapping.
    while let Some(start) = rest.find("__") {
        let after = &rest[start + 2..];
        let body = after.find('_').unwrap_or(after.len());
        if body == 0 || !after[body..].starts_with("__") {
            // No match starting here: keep one character and search again.
            let c = rest[start..].chars().next().unwrap_or('_');
            out.push_str(&rest[..start]);
            out.push(c);
            rest = &rest[start + c.len_utf8()..];
            continue;
        }
        out.push_str(&rest[..start]);
        let contents = &after[..body];
        match contents {
            "underscores" => out.push_str("__"),
            "dot" => out.push('.'),
            "dash" => out.push('-'),
            "slash" => out.push('/'),
            word if is_reserved(word) => {
                if contents.len() + 4 != escaped.len() {
                    return None;
                }
                out.push_str(word);
            }
            _ => return None,
        }
        rest = &after[body + 2..];
    }
    out.push_str(rest);
    Some(out)
}

/// Whether the property `prop` is accessed in CEL as `cel`: `escape(prop) == Some(cel)`,
/// computed without allocating, so that `const fn` checkers can call it.
#[must_use]
pub const fn escaped_eq(prop: &str, cel: &str) -> bool {
    let p = prop.as_bytes();
    let c = cel.as_bytes();
    if p.is_empty() || p[0].is_ascii_digit() {
        return false;
    }
    if let Some(e) = reserved_escaped(prop) {
        return str_eq(e, cel);
    }
    let (mut i, mut j) = (0, 0);
    while i < p.len() {
        let b = p[i];
        let rep: &[u8] = if b == b'_' && i + 1 < p.len() && p[i + 1] == b'_' {
            i += 1;
            b"__underscores__"
        } else if b == b'.' {
            b"__dot__"
        } else if b == b'-' {
            b"__dash__"
        } else if b == b'/' {
            b"__slash__"
        } else if b.is_ascii_alphanumeric() || b == b'_' {
            if j >= c.len() || c[j] != b {
                return false;
            }
            i += 1;
            j += 1;
            continue;
        } else {
            return false;
        };
        let mut k = 0;
        while k < rep.len() {
            if j >= c.len() || c[j] != rep[k] {
                return false;
            }
            j += 1;
            k += 1;
        }
        i += 1;
    }
    j == c.len()
}

#[cfg(test)]
mod tests {
    use super::{RESERVED, escape, escaped_eq, is_reserved, reserved_escaped, unescape};

    #[test]
    fn escaping() {
        let cases: &[(&str, Option<&str>)] = &[
            ("x-prop", Some("x__dash__prop")),
            ("redact__d", Some("redact__underscores__d")),
            ("namespace", Some("__namespace__")),
            ("a.b/c", Some("a__dot__b__slash__c")),
            ("a___b", Some("a__underscores___b")),
            ("_x", Some("_x")),
            ("1a", None),
            ("a@b", None),
            ("é", None),
            ("", None),
        ];
        for (prop, want) in cases {
            assert_eq!(escape(prop).as_deref(), *want, "{prop}");
        }
        assert_eq!(unescape("x__dash__prop").as_deref(), Some("x-prop"));
        assert_eq!(unescape("__namespace__").as_deref(), Some("namespace"));
        assert_eq!(unescape("a__namespace__"), None);
        assert_eq!(
            unescape("redact__underscores__d").as_deref(),
            Some("redact__d")
        );
        assert_eq!(unescape("a__b").as_deref(), Some("a__b"));
        assert_eq!(unescape("___a__"), None);
    }

    #[test]
    fn reserved_words() {
        assert_eq!(RESERVED.len(), 21);
        for word in RESERVED {
            assert!(is_reserved(word));
            let escaped = format!("__{word}__");
            assert_eq!(reserved_escaped(word), Some(escaped.as_str()));
            assert_eq!(unescape(&escaped).as_deref(), Some(*word));
        }
        assert_eq!(reserved_escaped("int"), None);
    }

    /// The `const fn` form agrees with `escape` on every property built from the characters
    /// that matter, and `unescape` inverts `escape`.
    #[test]
    fn const_form_agrees() {
        let alphabet = ["a", "_", "-", ".", "/", "1", "@", "in"];
        let mut props = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = props
                .iter()
                .flat_map(|p| alphabet.iter().map(move |c| format!("{p}{c}")))
                .collect();
            props.extend(longer);
        }
        props.sort();
        props.dedup();
        for prop in &props {
            match escape(prop) {
                Some(cel) => {
                    assert!(escaped_eq(prop, &cel), "{prop} as {cel}");
                    assert!(!escaped_eq(prop, &format!("{cel}x")), "{prop}");
                    assert_eq!(unescape(&cel).as_deref(), Some(prop.as_str()), "{cel}");
                }
                None => assert!(!escaped_eq(prop, prop), "{prop}"),
            }
        }
    }
}
