//! A Swagger 2.0 document from a CRD version's routes: kube-openapi `pkg/builder/openapi.go`
//! (`BuildOpenAPISpecFromRoutes`: body parameters, `consumes`, `produces`, `schemes`, common
//! parameters on the path) and `pkg/builder/parameters.go` (`deduplicateParameters`: parameters
//! moved to `#/parameters/<name>-<hash>`, where the hash is the FNV-1 hash of the parameter's
//! JSON as Go writes it, so that every document names a parameter the same way), with
//! apiextensions-apiserver's `getOpenAPIConfig`.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use super::definitions::V2_PREFIX;
use super::naming::operation_id;
use super::params::{In, Param};
use super::routes::{Builder, Route};
use super::v3doc::{info, sort_params};

/// The document of the builder's routes, its parameters shared.
pub(crate) fn build(b: &Builder) -> Value {
    let mut defs: Map<String, Value> = Map::new();
    let mut by_path: BTreeMap<&str, Vec<&Route>> = BTreeMap::new();
    for r in &b.routes {
        by_path.entry(&r.path).or_default().push(r);
    }
    let mut shared = Map::new();
    let mut paths = Map::new();
    for (path, routes) in by_path {
        let common = common_parameters(&routes);
        let mut item = Map::new();
        let mut on_path: Vec<&Param> = common.clone();
        sort_params(&mut on_path);
        let on_path: Vec<Value> = on_path
            .iter()
            .map(|p| share(parameter(p, None), &mut shared))
            .collect();
        if !on_path.is_empty() {
            item.insert("parameters".to_owned(), Value::Array(on_path));
        }
        for r in routes {
            let op = operation(b, r, &common, &mut defs, &mut shared);
            item.insert(r.method.to_owned(), op);
        }
        paths.insert(path.to_owned(), Value::Object(item));
    }
    let mut doc = Map::new();
    doc.insert("swagger".to_owned(), json!("2.0"));
    doc.insert("info".to_owned(), info());
    doc.insert("paths".to_owned(), Value::Object(paths));
    doc.insert("definitions".to_owned(), Value::Object(defs));
    if !shared.is_empty() {
        doc.insert("parameters".to_owned(), Value::Object(shared));
    }
    Value::Object(doc)
}

fn common_parameters<'r>(routes: &[&'r Route]) -> Vec<&'r Param> {
    let mut count: BTreeMap<(String, In), (usize, &Param)> = BTreeMap::new();
    for r in routes {
        for p in &r.params {
            let e = count.entry((p.name.clone(), p.place)).or_insert((0, p));
            e.0 += 1;
            e.1 = p;
        }
    }
    count
        .into_values()
        .filter(|(n, p)| *n == routes.len() && p.place != In::Body)
        .map(|(_, p)| p)
        .collect()
}

fn operation(
    b: &Builder,
    r: &Route,
    common: &[&Param],
    defs: &mut Map<String, Value>,
    shared: &mut Map<String, Value>,
) -> Value {
    let (id, tags) = operation_id(&r.operation, &r.path);
    let mut op = Map::new();
    op.insert("description".to_owned(), json!(r.description));
    op.insert("consumes".to_owned(), json!(r.consumes));
    op.insert("produces".to_owned(), json!(r.produces));
    op.insert("schemes".to_owned(), json!(["https"]));
    op.insert("operationId".to_owned(), json!(id));
    op.insert("tags".to_owned(), json!(tags));
    let mut own: Vec<&Param> = r
        .params
        .iter()
        .filter(|p| {
            !common
                .iter()
                .any(|c| c.name == p.name && c.place == p.place)
        })
        .collect();
    sort_params(&mut own);
    let body_ref = r.reads.map(|s| reference(b, &b.sample_name(s), defs));
    let own: Vec<Value> = own
        .iter()
        .map(|p| share(parameter(p, body_ref.as_ref()), shared))
        .collect();
    if !own.is_empty() {
        op.insert("parameters".to_owned(), Value::Array(own));
    }
    let mut responses = Map::new();
    for (code, message, sample) in &r.responses {
        let schema = reference(b, &b.sample_name(*sample), defs);
        responses.insert(
            code.to_string(),
            json!({"description": message, "schema": schema}),
        );
    }
    responses
        .entry("401")
        .or_insert_with(|| json!({"description": "Unauthorized"}));
    op.insert("responses".to_owned(), Value::Object(responses));
    op.insert("x-kubernetes-action".to_owned(), json!(r.action));
    op.insert(
        "x-kubernetes-group-version-kind".to_owned(),
        json!({"group": b.names.group, "version": b.names.version, "kind": b.names.kind}),
    );
    Value::Object(op)
}

/// `toSchema`: a reference to a definition, built (with its dependencies) on first use.
fn reference(b: &Builder, name: &str, defs: &mut Map<String, Value>) -> Value {
    let mut todo = vec![name.to_owned()];
    while let Some(n) = todo.pop() {
        if defs.contains_key(&n) {
            continue;
        }
        if let Some((schema, deps)) = b.definition(&n) {
            defs.insert(n, schema);
            todo.extend(deps);
        }
    }
    json!({ "$ref": format!("{V2_PREFIX}{name}") })
}

/// A parameter as Go writes it (`spec.Parameter`'s field order: `uniqueItems`, `type`,
/// `description`, `name`, `in`, `required`, `schema`), as text, and as a value.
fn parameter(p: &Param, body: Option<&Value>) -> (String, Value) {
    let mut text = String::from("{");
    let mut fields: Vec<String> = Vec::new();
    let mut m = Map::new();
    if p.place != In::Body {
        fields.push("\"uniqueItems\":true".to_owned());
        fields.push(format!("\"type\":{}", go_string(p.ty)));
        m.insert("uniqueItems".to_owned(), json!(true));
        m.insert("type".to_owned(), json!(p.ty));
    }
    if !p.description.is_empty() {
        fields.push(format!("\"description\":{}", go_string(&p.description)));
        m.insert("description".to_owned(), json!(p.description));
    }
    fields.push(format!("\"name\":{}", go_string(&p.name)));
    fields.push(format!("\"in\":{}", go_string(p.place.as_str())));
    m.insert("name".to_owned(), json!(p.name));
    m.insert("in".to_owned(), json!(p.place.as_str()));
    if p.required {
        fields.push("\"required\":true".to_owned());
        m.insert("required".to_owned(), json!(true));
    }
    if p.place == In::Body
        && let Some(schema) = body
    {
        let r = schema.get("$ref").and_then(Value::as_str).unwrap_or("");
        fields.push(format!("\"schema\":{{\"$ref\":{}}}", go_string(r)));
        m.insert("schema".to_owned(), schema.clone());
    }
    text.push_str(&fields.join(","));
    text.push('}');
    (text, Value::Object(m))
}

/// `collectSharedParameters` and `replaceSharedParameters`: every parameter but `name`,
/// `fieldValidation` and `dryRun` (kept inline for kubectl's feature detection) and bodies of
/// a CRD's own kinds moves to `#/parameters/<name>-<hash>`.
fn share((text, value): (String, Value), shared: &mut Map<String, Value>) -> Value {
    let name = value.get("name").and_then(Value::as_str).unwrap_or("");
    let place = value.get("in").and_then(Value::as_str).unwrap_or("");
    let keep = matches!((place, name), ("query" | "path", "name"))
        || (place == "query" && (name == "fieldValidation" || name == "dryRun"))
        || (place == "body"
            && !value
                .pointer("/schema/$ref")
                .and_then(Value::as_str)
                .is_some_and(|r| r.starts_with("#/definitions/io.k8s.apimachinery")));
    if keep {
        return value;
    }
    let key = format!(
        "{}-{}",
        if name.is_empty() { "param" } else { name },
        hash_name(&text)
    );
    shared.entry(key.clone()).or_insert(value);
    json!({ "$ref": format!("#/parameters/{key}") })
}

/// `base64Hash`: the first 6 bytes of the 64-bit FNV-1 hash, URL-safe base64
/// (`base64.URLEncoding`: six bytes make eight digits, never padding).
pub(crate) fn hash_name(s: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h = h.wrapping_mul(0x0100_0000_01b3);
        h ^= u64::from(b);
    }
    let bytes = h.to_be_bytes();
    crdkit_apimachinery::gobase64::encode_url(&bytes[..6])
}

/// A string as Go's `encoding/json` writes it: HTML-sensitive characters and the line and
/// paragraph separators escaped as `\u` sequences.
fn go_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", u32::from(c)));
            }
            c if u32::from(c) < 0x20 => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shared_parameter_names_hash_as_kube_openapi() {
        // kube-openapi pkg/builder/parameters_test.go
        let cases = [
            (
                r#"{"uniqueItems":true,"type":"boolean","description":"x","name":"x","in":"query"}"#,
                "x-yaDSHpi7",
            ),
            (
                r#"{"uniqueItems":true,"type":"boolean","description":"y","name":"y","in":"query"}"#,
                "y-g6h7lEsz",
            ),
            (
                r#"{"uniqueItems":true,"type":"boolean","description":"z","name":"z","in":"query"}"#,
                "z--SXYWoM_",
            ),
            (
                r#"{"uniqueItems":true,"type":"boolean","description":"x","name":"x2","in":"query"}"#,
                "x2-nds6MpS1",
            ),
            (
                r#"{"uniqueItems":true,"type":"boolean","description":"y","name":"y2","in":"query"}"#,
                "y2-exnalzYE",
            ),
            (
                r#"{"uniqueItems":true,"type":"boolean","description":"z","name":"z2","in":"query"}"#,
                "z2-8oJfzBQF",
            ),
        ];
        for (json, want) in cases {
            let name = want.split_once('-').unwrap().0;
            assert_eq!(format!("{name}-{}", hash_name(json)), want, "{json}");
        }
    }

    #[test]
    fn go_strings_escape_html() {
        assert_eq!(go_string("a<b>&\"\n"), r#""a\u003cb\u003e\u0026\"\n""#);
    }
}
