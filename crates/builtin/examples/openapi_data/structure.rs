//! `structure 1.29=DIR ...`: `data/kubernetes-openapi.json`, the structure of every definition
//! of each minor version, from the OpenAPI v3 documents the API server publishes
//! (`/openapi/v3/apis/<group>/<version>`; kubernetes `api/openapi-spec/v3/*.json` in a
//! release's source, one file per group version).
//!
//! Each directory is read recursively (every `*.json`); only `components.schemas` is kept, and of
//! each schema only what validation reads: the words (descriptions, patch strategies, merge keys,
//! unions) are `docs`' part. A definition identical in several minor versions is stored once.
//! The output is deterministic.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

/// The keywords validation reads; everything else (`description`, `example`,
/// `x-kubernetes-patch-strategy`, `x-kubernetes-patch-merge-key`, `x-kubernetes-unions`) is
/// `docs`' part.
const KEPT: &[&str] = &[
    "$ref",
    "type",
    "format",
    "enum",
    "required",
    "properties",
    "items",
    "additionalProperties",
    "default",
    "nullable",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "maximum",
    "minimum",
    "exclusiveMaximum",
    "exclusiveMinimum",
    "maxLength",
    "minLength",
    "pattern",
    "maxItems",
    "minItems",
    "uniqueItems",
    "multipleOf",
    "maxProperties",
    "minProperties",
    "x-kubernetes-group-version-kind",
    "x-kubernetes-preserve-unknown-fields",
    "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string",
    "x-kubernetes-list-type",
    "x-kubernetes-list-map-keys",
    "x-kubernetes-map-type",
    "x-kubernetes-validations",
];

fn strip(v: &Value) -> Value {
    let Value::Object(map) = v else {
        return v.clone();
    };
    let mut out = Map::new();
    for (k, v) in map {
        if !KEPT.contains(&k.as_str()) {
            continue;
        }
        let v = match k.as_str() {
            "properties" => Value::Object(
                v.as_object()
                    .into_iter()
                    .flatten()
                    .map(|(name, s)| (name.clone(), strip(s)))
                    .collect(),
            ),
            "items" | "additionalProperties" | "not" => strip(v),
            "allOf" | "anyOf" | "oneOf" => {
                Value::Array(v.as_array().into_iter().flatten().map(strip).collect())
            }
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    Value::Object(out)
}

fn json_files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            json_files(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    Ok(())
}

/// Writes the structure file for `MAJOR.MINOR=DIRECTORY` arguments.
pub fn run(args: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let mut versions: BTreeMap<(u32, u32), BTreeMap<String, Value>> = BTreeMap::new();
    for arg in args {
        let (minor, dir) = arg
            .split_once('=')
            .ok_or("arguments are MAJOR.MINOR=DIRECTORY")?;
        let (major, minor) = minor.split_once('.').ok_or("a version is MAJOR.MINOR")?;
        let key = (major.parse()?, minor.parse()?);
        let mut files = Vec::new();
        json_files(Path::new(dir), &mut files)?;
        files.sort();
        let defs = versions.entry(key).or_default();
        for f in files {
            let doc: Value = serde_json::from_str(&std::fs::read_to_string(&f)?)?;
            let Some(schemas) = doc
                .pointer("/components/schemas")
                .and_then(Value::as_object)
            else {
                continue;
            };
            for (name, schema) in schemas {
                defs.insert(name.clone(), strip(schema));
            }
        }
    }
    // One entry per distinct (name, schema); each version lists the entries it has.
    let mut pool: BTreeMap<(String, String), usize> = BTreeMap::new();
    for defs in versions.values() {
        for (name, schema) in defs {
            pool.entry((name.clone(), schema.to_string())).or_insert(0);
        }
    }
    for (i, index) in pool.values_mut().enumerate() {
        *index = i;
    }
    let definitions: Vec<Value> = pool
        .keys()
        .map(|(name, schema)| {
            let schema: Value = serde_json::from_str(schema).unwrap_or_default();
            json!([name, schema])
        })
        .collect();
    let mut by_version = Map::new();
    for ((major, minor), defs) in &versions {
        let indices: Vec<usize> = defs
            .iter()
            .map(|(name, schema)| pool[&(name.clone(), schema.to_string())])
            .collect();
        by_version.insert(format!("{major}.{minor}"), json!(indices));
    }
    let out = json!({"versions": by_version, "definitions": definitions});
    // One definition per line: small diffs when a version is added.
    println!("{{\"versions\":{},", out["versions"]);
    println!("\"definitions\":[");
    for (i, d) in definitions.iter().enumerate() {
        let comma = if i + 1 < definitions.len() { "," } else { "" };
        println!("{d}{comma}");
    }
    println!("]}}");
    Ok(())
}
