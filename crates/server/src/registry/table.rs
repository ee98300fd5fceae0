//! `meta.k8s.io/v1` `Table` output.
//!
//! Mirrors apiextensions-apiserver `pkg/registry/customresource/tableconvertor/tableconvertor.go`
//! (the implicit Name column, printer columns read with JSONPath, values coerced to the column
//! type, dates as ages, missing values as `null`), apiserver `pkg/registry/rest/table.go` (the
//! default convertor: Name and Created At) and `handlers/response.go` (rows carry their object as
//! `PartialObjectMetadata` unless `includeObject` says otherwise).

use serde_json::{Map, Value, json};

use crate::clock;
use crate::engine::CustomResourceColumnDefinition;
use crate::jsonpath::{self, JsonPath};

/// The description of the Name column (`metav1.ObjectMeta` `name`).
pub const NAME_DESCRIPTION: &str = "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names";
/// The description of `creationTimestamp`.
pub const CREATION_DESCRIPTION: &str = "CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

/// Columns and one row of cells per object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Table {
    /// `columnDefinitions`
    pub columns: Vec<Value>,
    /// The cells of each row.
    pub rows: Vec<Vec<Value>>,
}

/// A column definition.
#[must_use]
pub fn column(name: &str, ty: &str, format: &str, description: &str, priority: i32) -> Value {
    json!({"name": name, "type": ty, "format": format, "description": description, "priority": priority})
}

/// The Name column.
#[must_use]
pub fn name_column() -> Value {
    column("Name", "string", "name", NAME_DESCRIPTION, 0)
}

/// Printer columns of a CRD version, compiled.
#[derive(Clone, Debug)]
pub struct PrinterColumns {
    columns: Vec<(CustomResourceColumnDefinition, Option<JsonPath>)>,
}

impl PrinterColumns {
    /// The version's columns; without any, the default `Age` column
    /// (`serveDefaultColumnsIfEmpty`).
    #[must_use]
    pub fn new(defs: &[CustomResourceColumnDefinition]) -> PrinterColumns {
        let defs = if defs.is_empty() {
            vec![CustomResourceColumnDefinition {
                name: "Age".to_owned(),
                ty: "date".to_owned(),
                description: CREATION_DESCRIPTION.to_owned(),
                json_path: ".metadata.creationTimestamp".to_owned(),
                ..CustomResourceColumnDefinition::default()
            }]
        } else {
            defs.to_vec()
        };
        PrinterColumns {
            columns: defs
                .into_iter()
                .map(|d| {
                    let p = JsonPath::parse(&d.json_path).ok();
                    (d, p)
                })
                .collect(),
        }
    }

    /// The table of `objs`.
    #[must_use]
    pub fn table(&self, objs: &[&Value], now: i64) -> Table {
        let mut columns = vec![name_column()];
        for (d, _) in &self.columns {
            columns.push(column(
                &d.name,
                &d.ty,
                &d.format,
                &d.description,
                d.priority,
            ));
        }
        let rows = objs
            .iter()
            .map(|obj| {
                let mut cells = vec![Value::String(crate::object::name(obj).to_owned())];
                for (d, path) in &self.columns {
                    let value = path.as_ref().and_then(|p| p.find(obj).first().copied());
                    cells.push(match value {
                        None => Value::Null,
                        Some(v) if d.ty == "string" => match v {
                            Value::Null => Value::Null,
                            v => Value::String(jsonpath::print(v)),
                        },
                        Some(v) => cell(&d.ty, v, now),
                    });
                }
                cells
            })
            .collect();
        Table { columns, rows }
    }
}

/// `cellForJSONValue`: a value coerced to the column type, `null` when it does not fit.
fn cell(ty: &str, v: &Value, now: i64) -> Value {
    match (ty, v) {
        ("integer", Value::Number(n)) => n
            .as_i64()
            .or_else(|| {
                #[allow(clippy::cast_possible_truncation)]
                n.as_f64().map(|f| f as i64)
            })
            .map_or(Value::Null, Value::from),
        ("number", Value::Number(n)) => n.as_f64().map_or(Value::Null, Value::from),
        ("boolean", Value::Bool(b)) => Value::Bool(*b),
        ("date", Value::String(s)) => Value::String(age(s, now)),
        _ => Value::Null,
    }
}

/// `ConvertToHumanReadableDateType` of a timestamp string: its age, or `<invalid>`.
#[must_use]
pub fn age(timestamp: &str, now: i64) -> String {
    match clock::parse(timestamp) {
        Some(t) => clock::human_duration(now - t),
        None if timestamp.is_empty() => "<unknown>".to_owned(),
        None => "<invalid>".to_owned(),
    }
}

/// What a row carries as `object` (`includeObject`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IncludeObject {
    /// Nothing.
    None,
    /// `PartialObjectMetadata` (the default).
    Metadata,
    /// The whole object.
    Object,
}

impl IncludeObject {
    /// Parses the `includeObject` parameter.
    ///
    /// # Errors
    /// An unknown value, as a message for a 400.
    pub fn parse(v: Option<&str>) -> Result<IncludeObject, String> {
        match v {
            None | Some("" | "Metadata") => Ok(IncludeObject::Metadata),
            Some("None") => Ok(IncludeObject::None),
            Some("Object") => Ok(IncludeObject::Object),
            Some(other) => Err(format!(
                "includeObject: Unsupported value: \"{other}\": supported values: \"Metadata\", \"None\", \"Object\""
            )),
        }
    }
}

/// `PartialObjectMetadata` of an object.
#[must_use]
pub fn partial_metadata(obj: &Value, meta_version: &str) -> Value {
    json!({
        "kind": "PartialObjectMetadata",
        "apiVersion": format!("meta.k8s.io/{meta_version}"),
        "metadata": obj.get("metadata").cloned().unwrap_or_else(|| Value::Object(Map::new())),
    })
}

/// The `Table` object.
#[must_use]
pub fn render(
    table: Table,
    objs: &[&Value],
    include: IncludeObject,
    meta_version: &str,
    list_meta: Value,
) -> Value {
    let rows: Vec<Value> = table
        .rows
        .into_iter()
        .zip(objs)
        .map(|(cells, obj)| {
            let mut row = Map::new();
            row.insert("cells".to_owned(), Value::Array(cells));
            match include {
                IncludeObject::None => {}
                IncludeObject::Metadata => {
                    row.insert("object".to_owned(), partial_metadata(obj, meta_version));
                }
                IncludeObject::Object => {
                    row.insert("object".to_owned(), (*obj).clone());
                }
            }
            Value::Object(row)
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": format!("meta.k8s.io/{meta_version}"),
        "metadata": list_meta,
        "columnDefinitions": table.columns,
        "rows": rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printer_columns_as_the_docs_print_them() {
        let defs: Vec<CustomResourceColumnDefinition> = serde_json::from_value(json!([
            {"name": "Spec", "type": "string", "jsonPath": ".spec.cronSpec"},
            {"name": "Replicas", "type": "integer", "jsonPath": ".spec.replicas"},
            {"name": "Age", "type": "date", "jsonPath": ".metadata.creationTimestamp"},
            {"name": "Wide", "type": "string", "jsonPath": ".spec.missing", "priority": 1},
            {"name": "Ratio", "type": "number", "jsonPath": ".spec.replicas"},
            {"name": "Bad", "type": "integer", "jsonPath": ".spec.cronSpec"},
        ]))
        .unwrap();
        let cols = PrinterColumns::new(&defs);
        let obj = json!({"metadata": {"name": "my-new-cron-object", "creationTimestamp": "2021-06-20T07:35:27Z"},
            "spec": {"cronSpec": "* * * * */5", "replicas": 3}});
        let now = clock::parse("2021-06-20T07:35:34Z").unwrap();
        let t = cols.table(&[&obj], now);
        assert_eq!(t.columns.len(), 7);
        assert_eq!(t.columns[4]["priority"], 1);
        assert_eq!(
            t.rows[0],
            vec![
                json!("my-new-cron-object"),
                json!("* * * * */5"),
                json!(3),
                json!("7s"),
                Value::Null,
                json!(3.0),
                Value::Null
            ]
        );
    }

    #[test]
    fn default_age_column() {
        let cols = PrinterColumns::new(&[]);
        let obj = json!({"metadata": {"name": "a", "creationTimestamp": "bogus"}});
        let t = cols.table(&[&obj], 0);
        assert_eq!(t.columns[1]["name"], "Age");
        assert_eq!(t.rows[0][1], "<invalid>");
    }

    #[test]
    fn rows_carry_partial_metadata() {
        let obj = json!({"metadata": {"name": "a", "namespace": "default"}, "spec": {}});
        let t = Table {
            columns: vec![name_column()],
            rows: vec![vec![json!("a")]],
        };
        let v = render(
            t,
            &[&obj],
            IncludeObject::Metadata,
            "v1",
            json!({"resourceVersion": "5"}),
        );
        assert_eq!(v["rows"][0]["object"]["kind"], "PartialObjectMetadata");
        assert_eq!(v["rows"][0]["object"]["metadata"]["namespace"], "default");
        assert_eq!(v["metadata"]["resourceVersion"], "5");
    }
}
