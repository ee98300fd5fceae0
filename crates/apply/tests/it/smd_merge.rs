//! structured-merge-diff's merge test tables (`merge/*_test.go`), transcribed as data in
//! `tests/data/smd/*.yaml`, run through [`Updater`] as its `internal/fixture` runs them: each
//! operation against the live object and the managers, then the expected object, managers and
//! conflicts.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use crdkit_apply::merge::{
    Conflict, Conflicts, ConversionError, Converter, ManagedFields, SameVersion, UpdateError,
    Updater, VersionedSet, managed_fields_difference,
};
use crdkit_apply::schema::Schema;
use crdkit_apply::typed::{TypedValue, ValidationOptions};

use super::common::{path, plain_schema, read_yaml_file, set, yaml};

#[derive(Deserialize, Clone)]
struct Case {
    ops: Vec<Op>,
    object: Option<String>,
    version: Option<String>,
    managed: Option<BTreeMap<String, ManagedDef>>,
    schema: String,
    converter: Option<String>,
    #[serde(default)]
    return_input_on_noop: bool,
    ignored: Option<BTreeMap<String, Vec<Vec<String>>>>,
    #[serde(default)]
    expect_error: bool,
}

#[derive(Deserialize, Clone)]
struct ManagedDef {
    version: String,
    applied: bool,
    paths: Vec<Vec<String>>,
}

#[derive(Deserialize, Clone)]
struct ConflictDef {
    manager: String,
    path: Vec<String>,
}

#[derive(Deserialize, Clone)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Op {
    Apply {
        manager: String,
        version: String,
        object: String,
        conflicts: Option<Vec<ConflictDef>>,
    },
    ForceApply {
        manager: String,
        version: String,
        object: String,
    },
    Update {
        manager: String,
        version: String,
        object: String,
    },
    ExtractApply {
        manager: String,
        version: String,
        object: String,
    },
    ChangeSchema {
        schema: String,
    },
}

/// A Go test parser: one schema for every version (`SameVersionParser`), or one per version
/// (a `typed.Parser` whose named types are the versions).
#[derive(Clone)]
struct Parser {
    same: Option<Arc<Schema>>,
    versions: BTreeMap<String, Arc<Schema>>,
}

impl Parser {
    fn load(all: &Value, name: &str) -> Parser {
        let def = &all["schemas"][name];
        assert!(!def.is_null(), "no schema {name} in smd/schemas.yaml");
        if def["deduced"] == Value::Bool(true) {
            return Parser {
                same: Some(Arc::new(Schema::deduced())),
                versions: BTreeMap::new(),
            };
        }
        if let Some(s) = def.get("schema") {
            return Parser {
                same: Some(plain_schema(s)),
                versions: BTreeMap::new(),
            };
        }
        let versions = def["versions"]
            .as_object()
            .expect("versions")
            .iter()
            .map(|(v, s)| (v.clone(), plain_schema(s)))
            .collect();
        Parser {
            same: None,
            versions,
        }
    }

    fn schema(&self, version: &str) -> Result<Arc<Schema>, String> {
        if let Some(s) = &self.same {
            return Ok(s.clone());
        }
        self.versions
            .get(version)
            .cloned()
            .ok_or_else(|| format!("schema error: no type found matching: {version}"))
    }

    fn version_of(&self, tv: &TypedValue) -> Option<&str> {
        self.versions
            .iter()
            .find(|(_, s)| Arc::ptr_eq(s, tv.schema()))
            .map(|(v, _)| v.as_str())
    }

    fn typed(
        &self,
        text: &str,
        version: &str,
        allow_duplicates: bool,
    ) -> Result<TypedValue, String> {
        self.typed_value(yaml(text), version, allow_duplicates)
    }

    fn typed_value(
        &self,
        v: Value,
        version: &str,
        allow_duplicates: bool,
    ) -> Result<TypedValue, String> {
        TypedValue::new(
            v,
            self.schema(version)?,
            ValidationOptions { allow_duplicates },
        )
        .map_err(|e| e.to_string())
    }
}

fn missing() -> ConversionError {
    ConversionError {
        missing_version: true,
        message: "cannot convert to invalid version".to_owned(),
    }
}

/// `renamingConverter`: field names ending in the source version end in the target one.
struct Renaming(Parser);

fn rename(v: &Value, old: &str, new: &str) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let k = k
                        .strip_suffix(old)
                        .map_or_else(|| k.clone(), |s| format!("{s}{new}"));
                    (k, rename(v, old, new))
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|i| rename(i, old, new)).collect()),
        other => other.clone(),
    }
}

impl Converter for Renaming {
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError> {
        let from = self.0.version_of(object).unwrap_or(version).to_owned();
        let v = rename(object.value(), &from, version);
        self.0
            .typed_value(v, version, false)
            .map_err(|message| ConversionError {
                missing_version: false,
                message,
            })
    }
}

/// `repeatingConverter`: in version vN, the keys below the first top-level field are their first
/// letter N times (a line-based YAML rewrite in Go, which also turns leaves into nulls).
struct Repeating(Parser);

fn repeat_keys(v: &Value, n: usize) -> Value {
    match v {
        Value::Object(m) if !m.is_empty() => Value::Object(
            m.iter()
                .map(|(k, v)| {
                    let c = k.chars().next().map(String::from).unwrap_or_default();
                    (c.repeat(n), repeat_keys(v, n))
                })
                .collect(),
        ),
        _ => Value::Null,
    }
}

impl Converter for Repeating {
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError> {
        let n: usize = version
            .strip_prefix('v')
            .filter(|r| !r.is_empty())
            .and_then(|r| r.parse().ok())
            .ok_or_else(missing)?;
        let v = match object.value() {
            Value::Object(m) => match m.iter().next() {
                None => Value::Object(serde_json::Map::new()),
                Some((k, val)) => {
                    let inner = match val {
                        Value::Object(o) if !o.is_empty() => repeat_keys(val, n),
                        other => other.clone(),
                    };
                    serde_json::json!({ k.clone(): inner })
                }
            },
            other => other.clone(),
        };
        self.0
            .typed_value(v, version, false)
            .map_err(|message| ConversionError {
                missing_version: false,
                message,
            })
    }
}

/// `reliantFieldsConverter`: `required_field_bar` (v2) is `field_foo_rely_on_bar` (v1), and
/// converting to v1 needs it.
struct Reliant(Parser);

impl Converter for Reliant {
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError> {
        if self.0.version_of(object) == Some(version) {
            return Ok(object.clone());
        }
        let text = object.value().to_string();
        let out = match version {
            "v1" => {
                if !text.contains("required_field_bar") {
                    return Err(ConversionError {
                        missing_version: false,
                        message: "missing requried field bar".to_owned(),
                    });
                }
                text.replace("required_field_bar", "field_foo_rely_on_bar")
            }
            "v2" => text.replace("field_foo_rely_on_bar", "required_field_bar"),
            _ => return Err(missing()),
        };
        let v: Value = serde_json::from_str(&out).expect("json");
        self.0
            .typed_value(v, version, false)
            .map_err(|message| ConversionError {
                missing_version: false,
                message,
            })
    }
}

struct State {
    parser: Parser,
    live: Option<TypedValue>,
    managers: ManagedFields,
}

fn converter_for(case: &Case, parser: &Parser) -> Box<dyn Converter> {
    match case.converter.as_deref() {
        None => Box::new(SameVersion),
        Some("renamingConverter") => Box::new(Renaming(parser.clone())),
        Some("repeatingConverter") => Box::new(Repeating(parser.clone())),
        Some("reliantFieldsConverter") => Box::new(Reliant(parser.clone())),
        Some(other) => panic!("unknown converter {other}"),
    }
}

fn run_case(all_schemas: &Value, case: &Case) -> Result<(), String> {
    let parser = Parser::load(all_schemas, &case.schema);
    let converter = converter_for(case, &parser);
    let mut updater = Updater::new(converter.as_ref());
    updater.return_input_on_noop = case.return_input_on_noop;
    if let Some(ignored) = &case.ignored {
        updater.ignored_fields =
            std::borrow::Cow::Owned(ignored.iter().map(|(v, p)| (v.clone(), set(p))).collect());
    }
    let mut state = State {
        parser,
        live: None,
        managers: ManagedFields::new(),
    };
    for (i, op) in case.ops.iter().enumerate() {
        run_op(&updater, &mut state, op, all_schemas)
            .map_err(|e| format!("failed operation {i}: {e}"))?;
    }
    if let (Some(object), Some(version)) = (&case.object, &case.version)
        && !object.is_empty()
    {
        let expected = state.parser.typed(object, version, true)?;
        let live = match &state.live {
            Some(l) => updater
                .converter
                .convert(l, version)
                .map_err(|e| e.message)?,
            None => state.parser.typed_value(Value::Null, version, true)?,
        };
        if live.value() != expected.value() {
            return Err(format!(
                "expected live and config to be the same:\nexpected {}\ngot      {}",
                expected.value(),
                live.value()
            ));
        }
    }
    if let Some(managed) = &case.managed {
        let expected: ManagedFields = managed
            .iter()
            .map(|(m, d)| {
                (
                    m.clone(),
                    VersionedSet::new(set(&d.paths), d.version.clone(), d.applied),
                )
            })
            .collect();
        let diff = managed_fields_difference(&state.managers, &expected);
        if !diff.is_empty() {
            return Err(format!(
                "expected managers {}\ngot {}",
                show(&expected),
                show(&state.managers)
            ));
        }
    }
    if let Some((m, _)) = state.managers.iter().find(|(_, vs)| vs.set.is_empty()) {
        return Err(format!("manager {m} has an empty set"));
    }
    Ok(())
}

fn show(m: &ManagedFields) -> String {
    m.iter()
        .map(|(k, v)| {
            format!(
                "\n  {k} ({}, applied {}): {}",
                v.api_version,
                v.applied,
                v.set.to_json_string()
            )
        })
        .collect()
}

fn live_at(updater: &Updater, state: &State, version: &str) -> Result<TypedValue, String> {
    match &state.live {
        // `checkInit`: the first operation starts from a null object of its version's type.
        None => state.parser.typed_value(Value::Null, version, true),
        Some(l) => updater.converter.convert(l, version).map_err(|e| e.message),
    }
}

fn run_op(
    updater: &Updater,
    state: &mut State,
    op: &Op,
    all_schemas: &Value,
) -> Result<(), String> {
    match op {
        Op::Apply {
            manager,
            version,
            object,
            conflicts,
        } => {
            let config = state.parser.typed(object, version, false)?;
            let live = live_at(updater, state, version)?;
            match updater.apply(
                &live,
                &config,
                version,
                state.managers.clone(),
                manager,
                false,
            ) {
                Ok((new, managers)) => {
                    if let Some(c) = conflicts
                        && !c.is_empty()
                    {
                        return Err(format!("expected conflicts {}, got none", c.len()));
                    }
                    state.managers = managers;
                    state.live = Some(new.unwrap_or(live));
                }
                Err(UpdateError::Conflicts(got)) if conflicts.is_some() => {
                    let want = Conflicts(
                        conflicts
                            .iter()
                            .flatten()
                            .map(|c| Conflict {
                                manager: c.manager.clone(),
                                path: path(&c.path),
                            })
                            .collect(),
                    );
                    if !want.same_as(&got) {
                        return Err(format!("expected conflicts:\n{want}\ngot\n{got}"));
                    }
                    state.live = Some(live);
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        Op::ForceApply {
            manager,
            version,
            object,
        } => {
            let config = state.parser.typed(object, version, false)?;
            let live = live_at(updater, state, version)?;
            let (new, managers) = updater
                .apply(
                    &live,
                    &config,
                    version,
                    state.managers.clone(),
                    manager,
                    true,
                )
                .map_err(|e| e.to_string())?;
            state.managers = managers;
            state.live = Some(new.unwrap_or(live));
        }
        Op::Update {
            manager,
            version,
            object,
        } => {
            let new = state.parser.typed(object, version, true)?;
            let live = live_at(updater, state, version)?;
            state.managers = updater
                .update(&live, &new, version, state.managers.clone(), manager)
                .map_err(|e| e.to_string())?;
            state.live = Some(new);
        }
        Op::ExtractApply {
            manager,
            version,
            object,
        } => {
            let config = state.parser.typed(object, version, false)?;
            let Some(live) = &state.live else {
                let live = live_at(updater, state, version)?;
                let (new, managers) = updater
                    .apply(
                        &live,
                        &config,
                        version,
                        state.managers.clone(),
                        manager,
                        true,
                    )
                    .map_err(|e| e.to_string())?;
                state.managers = managers;
                state.live = Some(new.unwrap_or(live));
                return Ok(());
            };
            let current = updater
                .converter
                .convert(live, version)
                .map_err(|e| e.message)?;
            let owned = match state.managers.get(manager.as_str()) {
                Some(vs) if vs.api_version != *version => {
                    return Err("existing managed fieldpath set APIVersion differs".into());
                }
                Some(vs) => vs.set.leaves(),
                None => crdkit_apply::fieldpath::Set::new(),
            };
            let extracted = current.extract_items(&owned);
            let merged = extracted.merge(&config).map_err(|e| e.to_string())?;
            let (new, managers) = updater
                .apply(
                    &current,
                    &merged,
                    version,
                    state.managers.clone(),
                    manager,
                    true,
                )
                .map_err(|e| e.to_string())?;
            state.managers = managers;
            state.live = Some(new.unwrap_or(current));
        }
        Op::ChangeSchema { schema } => {
            state.parser = Parser::load(all_schemas, schema);
            if let Some(live) = &state.live {
                // The live object retyped (and checked) under the new schema's type of its version.
                let version = state
                    .parser
                    .versions
                    .keys()
                    .next()
                    .cloned()
                    .unwrap_or_default();
                let v = live.value().clone();
                state.live = Some(state.parser.typed_value(v, &version, false)?);
            }
        }
    }
    Ok(())
}

/// Substitutes `${v1}`, `${v2}`, `${v3}` of a parameterised case.
fn substitute(case: &Value, v: [&str; 3]) -> Value {
    let text = case
        .to_string()
        .replace("${v1}", v[0])
        .replace("${v2}", v[1])
        .replace("${v3}", v[2]);
    serde_json::from_str(&text).expect("json")
}

/// What running a data file gave.
pub struct Outcome {
    /// Cases that passed (every variant of a parameterised one).
    pub passed: usize,
    /// Cases with a failing variant.
    pub failed: usize,
    /// The failures' messages.
    pub failures: Vec<String>,
    /// Skipped cases with the reason.
    pub skipped: Vec<(String, String)>,
}

/// Runs one data file.
pub fn run_file(file: &str) -> Outcome {
    let schemas = read_yaml_file("smd/schemas.yaml");
    let skips = read_yaml_file("smd/skips.yaml");
    let data = read_yaml_file(&format!("smd/{file}.yaml"));
    let raw_cases = data["cases"].as_array().cloned().unwrap_or_default();
    let mut passed = 0;
    let mut failed = 0;
    let mut failures = Vec::new();
    let mut skipped = Vec::new();
    for raw in raw_cases {
        let name = raw["name"].as_str().unwrap_or_default().to_owned();
        if let Some(reason) = skips.get(&name).and_then(Value::as_str) {
            skipped.push((name, reason.to_owned()));
            continue;
        }
        let variants: Vec<(String, Value)> = if raw.get("versions").is_some() {
            let vs = ["v1", "v2", "v3"];
            let mut out = Vec::new();
            for a in vs {
                for b in vs {
                    for c in vs {
                        out.push((format!("{name}[{a}-{b}-{c}]"), substitute(&raw, [a, b, c])));
                    }
                }
            }
            out
        } else {
            vec![(name.clone(), raw.clone())]
        };
        let mut ok = true;
        for (label, v) in variants {
            let case: Case = serde_json::from_value(v).unwrap_or_else(|e| panic!("{label}: {e}"));
            let result = std::panic::catch_unwind(|| run_case(&schemas, &case))
                .unwrap_or_else(|_| Err("panicked".to_owned()));
            match (result, case.expect_error) {
                (Ok(()), false) | (Err(_), true) => {}
                (Ok(()), true) => {
                    ok = false;
                    failures.push(format!("{label}: expected an error"));
                }
                (Err(e), false) => {
                    ok = false;
                    failures.push(format!("{label}: {e}"));
                }
            }
        }
        if ok {
            passed += 1;
        } else {
            failed += 1;
        }
    }
    Outcome {
        passed,
        failed,
        failures,
        skipped,
    }
}

/// Every transcribed file, with how many cases it holds (a check that none went missing).
const FILES: &[(&str, usize)] = &[
    ("key", 1),
    ("preserve_unknown", 1),
    ("set", 10),
    ("leaf", 11),
    ("nested", 15),
    ("multiple_appliers", 23),
    ("deduced", 10),
    ("duplicates", 15),
    ("default_keys", 8),
    ("extract_apply", 15),
    ("ignore", 11),
    ("schema_change", 8),
    ("field_level_overrides", 4),
];

#[test]
fn smd_merge_tables() {
    let mut report = String::new();
    let mut all_failures = Vec::new();
    for (file, count) in FILES {
        let o = run_file(file);
        assert_eq!(
            o.passed + o.failed + o.skipped.len(),
            *count,
            "{file}: cases missing"
        );
        report.push_str(&format!(
            "merge/{file}_test.go: {count} cases, {} passed, {} failed, {} skipped\n",
            o.passed,
            o.failed,
            o.skipped.len()
        ));
        for (n, r) in &o.skipped {
            report.push_str(&format!("  skipped {n}: {r}\n"));
        }
        all_failures.extend(o.failures);
    }
    eprintln!("{report}");
    assert!(
        all_failures.is_empty(),
        "{} failures:\n{}",
        all_failures.len(),
        all_failures.join("\n\n")
    );
}
