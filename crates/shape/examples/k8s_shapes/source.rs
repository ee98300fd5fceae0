//! Reads one k8s-openapi type file: its definition name, its schema (the `json_schema!` body,
//! turned into JSON), the serialized names of its fields and its merge strategies.

use std::collections::BTreeMap;

use serde_json::Value;

/// How k8s-openapi merges a field (`merge_from`): its reading of the list and map types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Merge {
    ListAtomic,
    ListSet,
    ListMap(Vec<String>),
    MapAtomic,
    MapGranular,
}

/// One struct of k8s-openapi.
#[derive(Clone, Debug)]
pub struct TypeSource {
    /// `io.k8s.api.core.v1.Toleration`
    pub definition: String,
    /// The schema k8s-openapi writes for schemars, with `$ref` holding Rust paths
    /// (`api::core::v1::Affinity`).
    pub schema: Value,
    /// Merge strategies by serialized field name.
    pub merge: BTreeMap<String, Merge>,
}

/// Parses a k8s-openapi type file; `None` for files that are not a generated struct with named
/// fields (newtypes such as `Quantity`, enums, modules).
pub fn parse(text: &str) -> Result<Option<TypeSource>, String> {
    let Some(definition) = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// Generated from definition "))
    else {
        return Ok(None);
    };
    if !text.contains(" {\n") || !text.contains("crate::schemars::json_schema!(") {
        return Ok(None);
    }
    // Serialized names, from the Deserialize visitor: `"tolerationSeconds" => Field::Key_toleration_seconds,`.
    let mut json_of = BTreeMap::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some((json, rust)) = l.split_once(" => Field::Key_") {
            let json = json.trim_matches('"');
            let rust = rust.trim_end_matches(',');
            json_of.insert(rust.to_owned(), json.to_owned());
        }
    }
    let schema = schema_json(text)?;
    let merge = merges(text, &json_of)?;
    Ok(Some(TypeSource {
        definition: definition.trim().to_owned(),
        schema,
        merge,
    }))
}

/// Rust field names of `T`'s keys are turned into serialized names by the caller, which knows
/// the item type; here they stay Rust names inside `ListMap` until [`resolve_keys`].
fn merges(
    text: &str,
    json_of: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, Merge>, String> {
    let mut out = BTreeMap::new();
    let Some(start) = text.find("fn merge_from(&mut self, other: Self) {") else {
        return Ok(out);
    };
    let body = &text[start..];
    let body = &body[..body.find("\n    }\n").unwrap_or(body.len())];
    let mut rest = body;
    while let Some(i) = rest.find("crate::merge_strategies::") {
        rest = &rest[i + "crate::merge_strategies::".len()..];
        let (kind, after) = rest
            .split_once('(')
            .ok_or("merge strategy without arguments")?;
        let after = after.trim_start();
        let field = after
            .strip_prefix("&mut self.")
            .ok_or_else(|| format!("merge strategy {kind} not on a field"))?;
        let end = field
            .find(|c: char| c == ',' || c.is_whitespace())
            .unwrap_or(field.len());
        let rust = &field[..end];
        let json = json_of
            .get(rust)
            .ok_or_else(|| format!("field {rust} has no serialized name"))?
            .clone();
        let m = match kind {
            "list::atomic" => Merge::ListAtomic,
            "list::set" => Merge::ListSet,
            "list::map" => {
                let keys_at = field.find("&[").ok_or("list::map without keys")?;
                let keys_end = field[keys_at..].find("],").ok_or("unterminated keys")? + keys_at;
                let keys = field[keys_at..keys_end]
                    .split("lhs.")
                    .skip(1)
                    .map(|k| k.split_whitespace().next().unwrap_or_default().to_owned())
                    .collect();
                Merge::ListMap(keys)
            }
            "map::atomic" => Merge::MapAtomic,
            "map::granular" => Merge::MapGranular,
            other => return Err(format!("unknown merge strategy {other}")),
        };
        out.insert(json, m);
    }
    Ok(out)
}

/// The keys of a `list::map` are Rust names of the item type's fields: their serialized names.
pub fn resolve_keys(keys: &[String], item_text: &str) -> Vec<String> {
    keys.iter()
        .map(|k| {
            let needle = format!(" => Field::Key_{k},");
            item_text
                .lines()
                .find(|l| l.trim_end().ends_with(&needle))
                .and_then(|l| l.trim().split_once(" => "))
                .map_or_else(|| k.clone(), |(j, _)| j.trim_matches('"').to_owned())
        })
        .collect()
}

/// The `json_schema!({...})` body as JSON: `__gen.subschema_for::<P>()` becomes `{"$ref": P}`
/// (with the description the block inserts), trailing commas go, Rust's `\u{..}` escapes
/// become JSON's.
fn schema_json(text: &str) -> Result<Value, String> {
    let open = "crate::schemars::json_schema!(";
    let start = text.find(open).ok_or("no json_schema!")? + open.len();
    let body = &text[start..];
    let end = body.find("})\n    }").ok_or("unterminated json_schema!")? + 1;
    let body = &body[..end];
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("({") {
            // A block: `({ let mut schema_obj = __gen.subschema_for::<P>(); schema_obj.ensure_object().insert("k".into(), "v".into()); schema_obj })`
            let block_end = find_block_end(r).ok_or("unterminated block")?;
            let block = &r[..block_end];
            let path = subschema_path(block)?;
            out.push_str(&format!("{{\"$ref\": {}", Value::from(path)));
            let mut b = block;
            while let Some(i) = b.find(".insert(") {
                b = &b[i + ".insert(".len()..];
                let (key, after) = rust_string(b)?;
                let after = after
                    .strip_prefix(".into(), ")
                    .ok_or("insert key not followed by a value")?;
                let (value, after) = rust_string(after)?;
                out.push_str(&format!(", {}: {}", Value::from(key), Value::from(value)));
                b = after;
            }
            out.push('}');
            rest = &r[block_end + 2..];
        } else if let Some(r) = rest.strip_prefix("(__gen.subschema_for::<") {
            let end = r.find(">())").ok_or("unterminated subschema_for")?;
            let path = r[..end].trim_start_matches("crate::");
            out.push_str(&format!("{{\"$ref\": {}}}", Value::from(path)));
            rest = &r[end + 4..];
        } else if let Some(r) = rest.strip_prefix("__gen.subschema_for::<") {
            let end = r.find(">()").ok_or("unterminated subschema_for")?;
            let path = r[..end].trim_start_matches("crate::");
            out.push_str(&format!("{{\"$ref\": {}}}", Value::from(path)));
            rest = &r[end + 3..];
        } else if rest.starts_with('"') {
            let (s, after) = rust_string(rest)?;
            out.push_str(&Value::from(s).to_string());
            rest = after;
        } else if let Some(r) = rest.strip_prefix(',') {
            let next = r.trim_start();
            if !(next.starts_with('}') || next.starts_with(']')) {
                out.push(',');
            }
            rest = r;
        } else {
            let c = rest.chars().next().unwrap_or_default();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    serde_json::from_str(&out).map_err(|e| format!("json_schema! body is not JSON: {e}"))
}

/// The end of a `({ ... })` block (the index of its `})`), counting braces outside strings.
fn find_block_end(r: &str) -> Option<usize> {
    let mut depth = 1usize;
    let mut in_str = false;
    let mut escaped = false;
    for (i, c) in r.char_indices() {
        if in_str {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '{' => depth += 1,
            '}' => {
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

fn subschema_path(block: &str) -> Result<String, String> {
    let i = block
        .find("subschema_for::<")
        .ok_or("block without subschema_for")?;
    let r = &block[i + "subschema_for::<".len()..];
    let end = r.find(">()").ok_or("unterminated subschema_for")?;
    Ok(r[..end].trim_start_matches("crate::").to_owned())
}

/// A Rust string literal at the start of `s` (after optional whitespace): its value and the rest.
fn rust_string(s: &str) -> Result<(String, &str), String> {
    let s = s.trim_start();
    let mut chars = s.char_indices();
    if chars.next().map(|(_, c)| c) != Some('"') {
        return Err(format!("expected a string at {:?}", &s[..s.len().min(40)]));
    }
    let mut out = String::new();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' => return Ok((out, &s[i + 1..])),
            '\\' => {
                let (_, e) = chars.next().ok_or("unterminated escape")?;
                match e {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    '0' => out.push('\0'),
                    '\\' => out.push('\\'),
                    '"' => out.push('"'),
                    '\'' => out.push('\''),
                    'u' => {
                        let rest = &s[i + 2..];
                        let end = rest.find('}').ok_or("unterminated \\u{..}")?;
                        let hex = &rest[1..end];
                        let cp = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                        out.push(char::from_u32(cp).ok_or("bad code point")?);
                        for _ in 0..=end {
                            chars.next();
                        }
                    }
                    other => return Err(format!("unknown escape \\{other}")),
                }
            }
            c => out.push(c),
        }
    }
    Err("unterminated string".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_unescape() {
        assert_eq!(
            rust_string(r#""a\"b\u{a0}c" x"#).unwrap(),
            ("a\"b\u{a0}c".to_owned(), " x")
        );
    }
}
