//! `metadata.managedFields`: reading, writing and identifying its entries.
//!
//! Mirrors apimachinery `pkg/util/managedfields/internal/managedfields.go` (`DecodeManagedFields`,
//! `BuildManagerIdentifier`, `encodeManagedFields`, `sortEncodedManagedFields`),
//! `internal/fieldmanager.go` (`isResetManagedFields`, `decodeLiveOrNew`) and
//! `apis/meta/v1/unstructured` (`GetManagedFields`: entries that do not decode make the whole
//! list absent).
//!
//! A manager is identified by its entry without `time`, `fieldsType` and `fieldsV1` (and without
//! `apiVersion` for appliers), as Go's JSON of that entry:
//! `{"manager":"kubectl","operation":"Update","apiVersion":"v1"}`.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crdkit_apimachinery::goparse::{format_rfc3339, parse_rfc3339};

use crate::fieldpath::Set;
use crate::merge::{ManagedFields, VersionedSet};

/// `Apply`.
pub const APPLY: &str = "Apply";
/// `Update`.
pub const UPDATE: &str = "Update";

/// One `metadata.managedFields` entry.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ManagedFieldsEntry {
    /// `manager`
    pub manager: String,
    /// `operation`: `Apply` or `Update`.
    pub operation: String,
    /// `apiVersion`
    pub api_version: String,
    /// `time`, RFC 3339 in seconds, UTC.
    pub time: Option<String>,
    /// `fieldsType`: `FieldsV1`.
    pub fields_type: String,
    /// `fieldsV1`, raw.
    pub fields_v1: Option<Value>,
    /// `subresource`
    pub subresource: String,
}

/// A string field of an entry (absent is empty; another type fails the entry).
fn string_field(m: &Map<String, Value>, key: &str) -> Option<String> {
    match m.get(key) {
        None | Some(Value::Null) => Some(String::new()),
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => None,
    }
}

impl ManagedFieldsEntry {
    /// An entry from its JSON (as `runtime.DefaultUnstructuredConverter` reads one); `None` when a
    /// field has the wrong type or the time does not parse.
    #[must_use]
    pub fn from_value(v: &Value) -> Option<ManagedFieldsEntry> {
        let m = v.as_object()?;
        let time = match m.get("time") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(format_rfc3339(parse_rfc3339(s).ok()?)),
            Some(_) => return None,
        };
        Some(ManagedFieldsEntry {
            manager: string_field(m, "manager")?,
            operation: string_field(m, "operation")?,
            api_version: string_field(m, "apiVersion")?,
            time,
            fields_type: string_field(m, "fieldsType")?,
            fields_v1: m.get("fieldsV1").filter(|v| !v.is_null()).cloned(),
            subresource: string_field(m, "subresource")?,
        })
    }

    /// The entry's JSON, empty fields left out.
    #[must_use]
    pub fn to_value(&self) -> Value {
        self.clone().into_value()
    }

    /// [`ManagedFieldsEntry::to_value`], its strings and `fieldsV1` moved instead of copied
    /// (every write encodes its entries).
    #[must_use]
    pub fn into_value(self) -> Value {
        let ManagedFieldsEntry {
            manager,
            operation,
            api_version,
            time,
            fields_type,
            fields_v1,
            subresource,
        } = self;
        let strings = [
            ("manager", manager),
            ("operation", operation),
            ("apiVersion", api_version),
            ("time", time.unwrap_or_default()),
            ("fieldsType", fields_type),
            ("subresource", subresource),
        ];
        let mut m: Map<String, Value> = strings
            .into_iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.to_owned(), Value::String(v)))
            .collect();
        if let Some(f) = fields_v1 {
            m.insert("fieldsV1".to_owned(), f);
        }
        Value::Object(m)
    }

    /// `BuildManagerIdentifier`.
    #[must_use]
    pub fn identifier(&self) -> String {
        let api_version = if self.operation == APPLY {
            ""
        } else {
            self.api_version.as_str()
        };
        identifier(
            &self.manager,
            &self.operation,
            api_version,
            &self.subresource,
        )
    }
}

/// Go's JSON of the identifying fields of an entry, in the struct's field order.
#[must_use]
pub fn identifier(manager: &str, operation: &str, api_version: &str, subresource: &str) -> String {
    // Written into one buffer: every write computes its manager's identifier.
    let mut out = String::with_capacity(64 + manager.len() + api_version.len());
    out.push('{');
    for (k, v) in [
        ("\"manager\":", manager),
        ("\"operation\":", operation),
        ("\"apiVersion\":", api_version),
        ("\"subresource\":", subresource),
    ] {
        if !v.is_empty() {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(k);
            crdkit_apimachinery::gofmt::json_str_into(v, &mut out);
        }
    }
    out.push('}');
    out
}

/// The fields of an identifier (or of any entry JSON), `None` when it is not an entry.
#[must_use]
pub fn parse_identifier(id: &str) -> Option<ManagedFieldsEntry> {
    // What [`identifier`] writes (every write encodes its managers' identifiers) is read
    // straight into its four strings; anything else as an entry's JSON.
    #[derive(serde::Deserialize)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Identifier {
        #[serde(default)]
        manager: String,
        #[serde(default)]
        operation: String,
        #[serde(default)]
        api_version: String,
        #[serde(default)]
        subresource: String,
    }
    // A struct also reads from an array: only objects take the short way.
    if id.trim_start().starts_with('{')
        && let Ok(i) = serde_json::from_str::<Identifier>(id)
    {
        return Some(ManagedFieldsEntry {
            manager: i.manager,
            operation: i.operation,
            api_version: i.api_version,
            subresource: i.subresource,
            ..ManagedFieldsEntry::default()
        });
    }
    let v: Value = serde_json::from_str(id).ok()?;
    ManagedFieldsEntry::from_value(&v)
}

/// Managers' fields with the time of each one's last change (`Managed`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Managed {
    /// Per manager identifier.
    pub fields: ManagedFields,
    /// Per manager identifier; `None`: an entry without time.
    pub times: BTreeMap<String, Option<String>>,
}

/// `GetManagedFields` of an object: `None` when absent, not a list, or any entry fails to read.
#[must_use]
pub fn object_managed_fields(obj: &Value) -> Option<Vec<ManagedFieldsEntry>> {
    let items = obj.get("metadata")?.get("managedFields")?.as_array()?;
    items.iter().map(ManagedFieldsEntry::from_value).collect()
}

/// `isResetManagedFields`: `[]`, or one entry with nothing set.
#[must_use]
pub fn is_reset(entries: Option<&[ManagedFieldsEntry]>) -> bool {
    match entries {
        Some([]) => true,
        Some([one]) => *one == ManagedFieldsEntry::default(),
        _ => false,
    }
}

/// `DecodeManagedFields`.
///
/// # Errors
/// An entry whose operation, apiVersion, fieldsType or fieldsV1 is invalid, with Go's text.
pub fn decode(entries: &[ManagedFieldsEntry]) -> Result<Managed, String> {
    let mut out = Managed::default();
    for (i, e) in entries.iter().enumerate() {
        if e.operation != APPLY && e.operation != UPDATE {
            return Err("operation must be `Apply` or `Update`".to_owned());
        }
        if e.api_version.is_empty() {
            return Err("apiVersion must not be empty".to_owned());
        }
        match e.fields_type.as_str() {
            "FieldsV1" => {}
            "" => return Err(format!("missing fieldsType in managed fields entry {i}")),
            other => {
                return Err(format!(
                    "invalid fieldsType {} in managed fields entry {i}",
                    crdkit_apimachinery::gofmt::quote(other)
                ));
            }
        }
        let id = e.identifier();
        let set = match &e.fields_v1 {
            None => Set::new(),
            Some(v) => Set::from_value(v).map_err(|err| {
                format!(
                    "error decoding versioned set from {}: error decoding set: {err}",
                    go_entry(e)
                )
            })?,
        };
        out.fields.insert(
            id.clone(),
            VersionedSet::new(set, e.api_version.clone(), e.operation == APPLY),
        );
        out.times.insert(id, e.time.clone());
    }
    Ok(out)
}

/// Go's `%v` of a `ManagedFieldsEntry` (for error texts).
fn go_entry(e: &ManagedFieldsEntry) -> String {
    format!(
        "{{{} {} {} {} {} {} {}}}",
        e.manager,
        e.operation,
        e.api_version,
        // time.Time and FieldsV1 print through their String methods.
        e.time.as_deref().map_or("<nil>".to_owned(), |t| format!(
            "{} +0000 UTC",
            t.trim_end_matches('Z').replace('T', " ")
        )),
        e.fields_type,
        e.fields_v1
            .as_ref()
            .map_or("<nil>".to_owned(), Value::to_string),
        e.subresource
    )
}

/// Unix seconds of an entry's time, 0 without one.
pub(crate) fn seconds(t: Option<&String>) -> i64 {
    t.and_then(|t| parse_rfc3339(t).ok()).unwrap_or(0)
}

/// `encodeManagedFields` with `sortEncodedManagedFields`: entries by operation (`Apply` first),
/// time, manager, apiVersion, subresource. `None` when there are no managers.
///
/// # Errors
/// A manager that is not an identifier.
pub fn encode(managed: &Managed) -> Result<Option<Vec<ManagedFieldsEntry>>, String> {
    if managed.fields.is_empty() {
        return Ok(None);
    }
    let mut out = Vec::new();
    for (id, vs) in &managed.fields {
        let mut e = parse_identifier(id).ok_or_else(|| {
            format!(
                "error encoding versioned set for {id}: error unmarshalling manager identifier {id}"
            )
        })?;
        e.api_version.clone_from(&vs.api_version);
        if vs.applied {
            e.operation = APPLY.to_owned();
        }
        e.fields_type = "FieldsV1".to_owned();
        e.fields_v1 = Some(vs.set.to_value());
        e.time = managed.times.get(id).cloned().flatten();
        out.push(e);
    }
    sort_entries(&mut out);
    Ok(Some(out))
}

/// `sortEncodedManagedFields`: by operation (`Apply` first), time in seconds (none first),
/// manager, apiVersion, subresource.
pub fn sort_entries(entries: &mut [ManagedFieldsEntry]) {
    entries.sort_by(|p, q| {
        p.operation
            .cmp(&q.operation)
            .then_with(|| seconds(p.time.as_ref()).cmp(&seconds(q.time.as_ref())))
            .then_with(|| p.manager.cmp(&q.manager))
            .then_with(|| p.api_version.cmp(&q.api_version))
            .then_with(|| p.subresource.cmp(&q.subresource))
    });
}

/// Writes `entries` as the object's `metadata.managedFields` (removing it for `None`).
pub fn set_object_managed_fields(obj: &mut Value, entries: Option<&[ManagedFieldsEntry]>) {
    put_managed_fields(
        obj,
        entries.map(|e| e.iter().map(ManagedFieldsEntry::to_value).collect()),
    );
}

/// [`set_object_managed_fields`], taking the entries instead of copying their `fieldsV1`.
pub fn put_object_managed_fields(obj: &mut Value, entries: Option<Vec<ManagedFieldsEntry>>) {
    put_managed_fields(
        obj,
        entries.map(|e| e.into_iter().map(ManagedFieldsEntry::into_value).collect()),
    );
}

fn put_managed_fields(obj: &mut Value, entries: Option<Vec<Value>>) {
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    match entries {
        Some(entries) => {
            let meta = root
                .entry("metadata")
                .or_insert_with(|| Value::Object(Map::new()));
            if !meta.is_object() {
                *meta = Value::Object(Map::new());
            }
            meta["managedFields"] = Value::Array(entries);
        }
        None => {
            if let Some(Value::Object(meta)) = root.get_mut("metadata") {
                meta.remove("managedFields");
            }
        }
    }
}
