//! Field selectors: `metadata.name=x,spec.color!=blue`.
//!
//! Mirrors apimachinery `pkg/fields/selector.go` (`ParseSelector`: terms split on unescaped
//! commas, operators `!=`, `==`, `=`, `\` escapes) and the matching of `fields.Set`: a field the
//! object does not have reads as the empty string.

use std::collections::BTreeMap;

/// One term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The field (`metadata.name`).
    pub field: String,
    /// The value compared with.
    pub value: String,
    /// `!=` rather than `=`/`==`.
    pub negated: bool,
}

/// A parsed field selector.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FieldSelector {
    /// Every term, all required.
    pub terms: Vec<Term>,
}

impl FieldSelector {
    /// Parses a selector; the empty string selects everything.
    ///
    /// # Errors
    /// `invalid selector: '<s>'; can't understand '<term>'`, as Go reports a term without operator.
    pub fn parse(s: &str) -> Result<FieldSelector, String> {
        let mut terms = Vec::new();
        for part in split_terms(s) {
            if part.is_empty() {
                continue;
            }
            let Some((field, op, value)) = split_term(&part) else {
                return Err(format!(
                    "invalid selector: '{s}'; can't understand '{part}'"
                ));
            };
            let value = unescape(value).map_err(|e| format!("invalid field selector: {e}"))?;
            terms.push(Term {
                field: field.to_owned(),
                value,
                negated: op == "!=",
            });
        }
        Ok(FieldSelector { terms })
    }

    /// Whether `fields` satisfy every term.
    #[must_use]
    pub fn matches(&self, fields: &BTreeMap<String, String>) -> bool {
        self.terms.iter().all(|t| {
            let v = fields.get(&t.field).map_or("", String::as_str);
            (v == t.value) != t.negated
        })
    }

    /// Whether the fields `get` reads satisfy every term (a field it does not know is empty).
    #[must_use]
    pub fn matches_with<'a>(&self, get: impl Fn(&str) -> Option<&'a str>) -> bool {
        self.terms.iter().all(|t| {
            let v = get(&t.field).unwrap_or("");
            (v == t.value) != t.negated
        })
    }

    /// Whether every term names one of `fields`.
    #[must_use]
    pub fn only(&self, fields: &[&str]) -> bool {
        self.terms
            .iter()
            .all(|t| fields.contains(&t.field.as_str()))
    }

    /// Whether the selector selects everything.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }
}

/// Splits on commas not preceded by a backslash escape.
fn split_terms(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            cur.push(c);
            escaped = false;
        } else if c == '\\' {
            cur.push(c);
            escaped = true;
        } else if c == ',' {
            out.push(std::mem::take(&mut cur));
        } else {
            cur.push(c);
        }
    }
    out.push(cur);
    out
}

/// The field, operator and (escaped) value of a term: the first operator found, `!=` and `==`
/// before `=` at the same position.
fn split_term(term: &str) -> Option<(&str, &'static str, &str)> {
    let bytes = term.as_bytes();
    for i in 0..bytes.len() {
        for op in ["!=", "==", "="] {
            if term[i..].starts_with(op) {
                return Some((&term[..i], op, &term[i + op.len()..]));
            }
        }
    }
    None
}

fn unescape(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some(e @ ('\\' | ',' | '=')) => out.push(e),
                Some(e) => return Err(format!("invalid escape sequence: \\{e}")),
                None => return Err("unterminated escape sequence".to_owned()),
            }
        } else if c == ',' || c == '=' {
            return Err(format!("unescaped {c} in value {s:?}"));
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsing_and_matching() {
        let s = FieldSelector::parse("spec.color=blue,spec.size!=M").unwrap();
        let mut f = BTreeMap::new();
        f.insert("spec.color".to_owned(), "blue".to_owned());
        f.insert("spec.size".to_owned(), "S".to_owned());
        assert!(s.matches(&f));
        f.insert("spec.size".to_owned(), "M".to_owned());
        assert!(!s.matches(&f));
        assert_eq!(
            FieldSelector::parse("metadata.name==a\\,b").unwrap().terms[0].value,
            "a,b"
        );
        let name = FieldSelector::parse("metadata.name=x,metadata.namespace!=y").unwrap();
        assert!(name.only(&["metadata.name", "metadata.namespace"]));
        assert!(!s.only(&["metadata.name"]));
        assert!(name.matches_with(|f| (f == "metadata.name").then_some("x")));
        assert!(!name.matches_with(|f| Some(if f == "metadata.name" { "x" } else { "y" })));
        assert!(FieldSelector::parse("").unwrap().is_empty());
        // A missing field reads as "".
        assert!(
            FieldSelector::parse("spec.x=")
                .unwrap()
                .matches(&BTreeMap::new())
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            FieldSelector::parse("nonsense").unwrap_err(),
            "invalid selector: 'nonsense'; can't understand 'nonsense'"
        );
        assert!(FieldSelector::parse("a=b=c").is_err());
        assert!(FieldSelector::parse("a=\\x").is_err());
    }
}
