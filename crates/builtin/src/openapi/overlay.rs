//! The words of the published definitions: descriptions, patch strategies, merge keys and
//! unions (`data/kubernetes-openapi-docs.json`), kept apart from their structure (the 1.35
//! definitions of `data/kubernetes-openapi.json`, which validation reads) so that no definition
//! is stored twice, and grafted back onto it when a definition is asked for.
//!
//! The file is one JSON object laid out as lines: `{"header":{...},` (the Kubernetes release,
//! the definitions each group-version document starts from, the definitions only `/openapi/v2`
//! has), then `"definitions":[`, then one `["name",{...}]` per line, so that a definition is
//! parsed only when a document that needs it is first built.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

/// The overlay, as written by `examples/openapi_data.rs docs`.
const DOCS: &str = include_str!("../../data/kubernetes-openapi-docs.json");

/// The keys an overlay node carries onto its structure node.
pub(crate) const WORDS: &[&str] = &[
    "description",
    "example",
    "x-kubernetes-patch-merge-key",
    "x-kubernetes-patch-strategy",
    "x-kubernetes-unions",
];

/// The keys whose values are schemas, walked in step with the structure.
pub(crate) const NESTED: &[&str] = &["items", "additionalProperties", "not"];

/// The header (everything but the definitions) and the text of each definition's line.
pub(crate) struct Overlay {
    pub(crate) header: Value,
    lines: HashMap<&'static str, &'static str>,
}

/// The overlay, indexed on first use (one pass over the lines; no definition is parsed).
pub(crate) fn overlay() -> &'static Overlay {
    static OVERLAY: OnceLock<Overlay> = OnceLock::new();
    OVERLAY.get_or_init(|| {
        let mut lines = HashMap::new();
        let mut header = Value::Null;
        for line in DOCS.lines() {
            if let Some(text) = line.strip_prefix("{\"header\":") {
                header = serde_json::from_str(text.trim_end_matches(',')).unwrap_or(Value::Null);
            } else if let Some(rest) = line.strip_prefix("[\"")
                && let Some(end) = rest.find('"')
            {
                lines.insert(&rest[..end], line.trim_end_matches(','));
            }
        }
        Overlay { header, lines }
    })
}

impl Overlay {
    /// The words of definition `name`, parsed now.
    pub(crate) fn words(&self, name: &str) -> Option<Value> {
        let line = self.lines.get(name)?;
        match serde_json::from_str::<Value>(line) {
            Ok(Value::Array(mut pair)) if pair.len() == 2 => pair.pop(),
            _ => None,
        }
    }

    /// The names of every definition with words.
    pub(crate) fn names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.lines.keys().copied()
    }
}

/// `structure` with the words of `words` put back where they were published.
pub(crate) fn graft(structure: &Value, words: Option<&Value>) -> Value {
    let (Value::Object(s), Some(Value::Object(w))) = (structure, words) else {
        return structure.clone();
    };
    let mut out: Map<String, Value> = s.clone();
    for &k in WORDS {
        if let Some(v) = w.get(k) {
            out.insert(k.to_owned(), v.clone());
        }
    }
    if let (Some(Value::Object(props)), Some(Value::Object(wprops))) =
        (out.get_mut("properties"), w.get("properties"))
    {
        for (name, schema) in props.iter_mut() {
            if let Some(wp) = wprops.get(name) {
                *schema = graft(schema, Some(wp));
            }
        }
    }
    for &k in NESTED {
        if let (Some(schema), Some(wn)) = (out.get_mut(k), w.get(k)) {
            *schema = graft(schema, Some(wn));
        }
    }
    Value::Object(out)
}
