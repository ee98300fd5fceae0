//! The path languages of a CRD, parsed in the macro so that the const checks only walk steps.
//!
//! - printer columns: kubectl's JSONPath (`.status.conditions[?(@.type=="Ready")].status`);
//! - scale subresource paths: dot notation only (validation.go `validateSimpleJSONPath`, and the
//!   docs' "Only JSONPaths under .spec and with the dot notation are allowed");
//! - selectable fields and CEL `fieldPath`: apiextensions `cel.ValidFieldPath` (`.a.b`,
//!   `.a['key']`, no list indexing), whose grammar lives in `crdkit_schema::field_path`.

/// One step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Field(String),
    Elem,
}

/// A printer-column path: the value's steps, and the steps of fields tested in filters.
#[derive(Debug, Default)]
pub struct Parsed {
    pub steps: Vec<Step>,
    pub filters: Vec<Vec<Step>>,
}

/// kubectl JSONPath, as printer columns use it (without the surrounding `{}`).
pub fn printer(path: &str) -> Result<Parsed, String> {
    if !path.starts_with('.') {
        return Err("must be a simple json path starting with .".to_owned());
    }
    let b: Vec<char> = path.chars().collect();
    let mut out = Parsed::default();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            '.' => {
                if b.get(i + 1) == Some(&'.') {
                    return Err(
                        "recursive descent (`..`) does not lead to one field; name the path"
                            .to_owned(),
                    );
                }
                let start = i + 1;
                let mut j = start;
                while j < b.len() && b[j] != '.' && b[j] != '[' {
                    j += 1;
                }
                let name: String = b[start..j].iter().collect();
                if name.is_empty() {
                    if j == b.len() && start == 1 {
                        return Ok(out);
                    }
                    return Err("empty field name".to_owned());
                }
                if name == "*" {
                    return Err("wildcards (`.*`) do not lead to one field".to_owned());
                }
                out.steps.push(Step::Field(name));
                i = j;
            }
            '[' => {
                let close = matching_bracket(&b, i).ok_or("unterminated `[`")?;
                let inner: String = b[i + 1..close].iter().collect();
                let inner = inner.trim();
                if let Some(q) = quoted(inner) {
                    out.steps.push(Step::Field(q));
                } else if inner == "*" || is_index(inner) {
                    out.steps.push(Step::Elem);
                } else if let Some(filter) =
                    inner.strip_prefix("?(").and_then(|f| f.strip_suffix(')'))
                {
                    out.steps.push(Step::Elem);
                    for field in filter_fields(filter)? {
                        let mut s = out.steps.clone();
                        s.extend(field);
                        out.filters.push(s);
                    }
                } else {
                    return Err(format!(
                        "unsupported index `[{inner}]`: use a number, `*`, a quoted key or a filter `?(@.field==\"value\")`"
                    ));
                }
                i = close + 1;
            }
            c => return Err(format!("unexpected `{c}`; fields are written `.name`")),
        }
    }
    Ok(out)
}

fn matching_bracket(b: &[char], open: usize) -> Option<usize> {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for (i, &c) in b.iter().enumerate().skip(open) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[') => depth += 1,
            (None, ']') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

fn quoted(s: &str) -> Option<String> {
    let q = s.chars().next()?;
    if (q == '\'' || q == '"') && s.len() >= 2 && s.ends_with(q) {
        Some(s[1..s.len() - 1].to_owned())
    } else {
        None
    }
}

fn is_index(s: &str) -> bool {
    // `0`, `-1`, slices `1:3`, `:2`
    !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_digit() || c == '-' || c == ':')
}

/// The `@.a.b` operands of a filter, as steps below the element.
fn filter_fields(filter: &str) -> Result<Vec<Vec<Step>>, String> {
    let mut out = Vec::new();
    let mut rest = filter;
    while let Some(at) = rest.find('@') {
        let tail = &rest[at + 1..];
        let end = tail
            .find(|c: char| !(c.is_alphanumeric() || c == '.' || c == '_' || c == '-' || c == '/'))
            .unwrap_or(tail.len());
        let path = &tail[..end];
        let steps: Vec<Step> = path
            .split('.')
            .filter(|s| !s.is_empty())
            .map(|s| Step::Field(s.to_owned()))
            .collect();
        if !steps.is_empty() {
            out.push(steps);
        }
        rest = &tail[end..];
    }
    Ok(out)
}

/// Dot notation only: `.spec.replicas`.
pub fn dotted(path: &str) -> Result<Vec<Step>, String> {
    let Some(rest) = path.strip_prefix('.') else {
        return Err("must be a simple json path starting with .".to_owned());
    };
    if rest.is_empty() {
        return Err("must be a json path in the dot notation".to_owned());
    }
    rest.split('.')
        .map(|s| {
            if s.is_empty() {
                Err("empty field name: must be a json path in the dot notation".to_owned())
            } else if s.contains(['[', ']', '*', '?', '@', '\'', '"']) {
                Err("must be a json path in the dot notation".to_owned())
            } else {
                Ok(Step::Field(s.to_owned()))
            }
        })
        .collect()
}

/// apiextensions `cel.ValidFieldPath`'s grammar: `.a.b` and `.a['key']`, read by the schema
/// crate (its one home), errors in Go's words.
pub fn field_path(path: &str, allow_array_notation: bool) -> Result<Vec<Step>, String> {
    crdkit_schema::field_path::field_path_steps(path, allow_array_notation)
        .map(|s| s.map(Step::Field).map_err(|e| e.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: &str) -> Step {
        Step::Field(s.to_owned())
    }

    #[test]
    fn printer_paths() {
        let p = printer(".status.conditions[?(@.type==\"Ready\")].status").unwrap();
        assert_eq!(
            p.steps,
            vec![f("status"), f("conditions"), Step::Elem, f("status")]
        );
        assert_eq!(
            p.filters,
            vec![vec![f("status"), f("conditions"), Step::Elem, f("type")]]
        );
        assert_eq!(
            printer(".metadata.labels['app.kubernetes.io/name']")
                .unwrap()
                .steps,
            vec![f("metadata"), f("labels"), f("app.kubernetes.io/name")]
        );
        assert_eq!(
            printer(".spec.list[0].x").unwrap().steps,
            vec![f("spec"), f("list"), Step::Elem, f("x")]
        );
        assert!(printer("spec.x").is_err());
        assert!(printer(".spec..x").is_err());
    }

    #[test]
    fn dotted_paths() {
        assert_eq!(
            dotted(".spec.replicas").unwrap(),
            vec![f("spec"), f("replicas")]
        );
        assert!(dotted(".spec.list[0]").is_err());
        assert!(dotted("spec").is_err());
    }

    #[test]
    fn field_paths_as_the_api_server() {
        assert_eq!(
            field_path(".a['b.c'].d", true).unwrap(),
            vec![f("a"), f("b.c"), f("d")]
        );
        assert_eq!(
            field_path(".a[0]", true).unwrap_err(),
            "expected single quoted string but got 0"
        );
        assert_eq!(
            field_path(".a['b']", false).unwrap_err(),
            "array notation is not allowed"
        );
        assert_eq!(
            field_path("a", true).unwrap_err(),
            "expected [ or . but got: a"
        );
        // The API server's escapes: `\t` is a tab.
        assert_eq!(
            field_path(r".a['b\tc']", true).unwrap(),
            vec![f("a"), f("b\tc")]
        );
    }
}
