//! Server-side printing: the columns and cells of the `meta.k8s.io/v1` `Table` the API server
//! returns for built-in kinds (`kubectl get pods` asks for one), as kubectl shows them.
//!
//! Mirrors kubernetes `pkg/printers/internalversion/printers.go` (`AddHandlers`: each kind's
//! column definitions and `print*` function), `pkg/printers/storage/storage.go` (the API server
//! prints with `Wide: true`: every cell is computed and priority-1 columns are hidden by kubectl
//! unless `-o wide`), apiserver `pkg/registry/rest/table.go` (kinds without a printer: `Name`
//! and `Created At`) and kube-aggregator's `APIService` table.
//!
//! What differs: printers read the versioned JSON object rather than Go's internal type (the
//! fields the printers read have the same names in every served version; `events.k8s.io`
//! Events and `autoscaling/v1` autoscalers are read through their conversions to the internal
//! type); quantities print as stored (the API server stores their canonical form); column
//! descriptions that Go takes from versions 1.35 no longer serves (`extensions/v1beta1`
//! `DeploymentStatus`, ...) are taken from the served version's definition.
//!
//! ```
//! use crdkit_builtin::tables;
//! use serde_json::json;
//!
//! let printer = tables::printer("", "Service");
//! let names: Vec<&str> = printer.columns.iter().map(|c| c.name).collect();
//! assert_eq!(names, ["Name", "Type", "Cluster-IP", "External-IP", "Port(s)", "Age", "Selector"]);
//! let svc = json!({"metadata": {"name": "web", "creationTimestamp": "2025-01-01T00:00:00Z"},
//!     "spec": {"type": "ClusterIP", "clusterIPs": ["10.96.0.10"], "selector": {"app": "web"},
//!              "ports": [{"port": 80, "protocol": "TCP"}, {"port": 443, "protocol": "TCP"}]}});
//! let now = 1_735_689_600 + 90; // 90 s later
//! let row = printer.row(&svc, now);
//! assert_eq!(row.cells, [json!("web"), json!("ClusterIP"), json!("10.96.0.10"), json!("<none>"),
//!                        json!("80/TCP,443/TCP"), json!("90s"), json!("app=web")]);
//! ```

mod access;
mod apps;
mod batch;
mod core;
mod events;
mod format;
mod networking;
mod other;
mod pods;
mod services;
mod storage;

use std::collections::HashMap;
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::openapi;

/// `metav1.ObjectMeta`'s definition, whose field docs most columns use.
pub(crate) const OBJECT_META: &str = "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta";

/// Where a column's description comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Description {
    /// Written in the printer.
    Text(&'static str),
    /// `T{}.SwaggerDoc()["field"]`: the published description of a definition's property
    /// (empty when it has no such property, as Go's map lookup is).
    Field(&'static str, &'static str),
}

/// A `TableColumnDefinition`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// `Name`, `Ready`, `Port(s)`.
    pub name: &'static str,
    /// `string`, `integer`, `boolean`, `date`.
    pub ty: &'static str,
    /// `name` for the object's name, else empty.
    pub format: &'static str,
    /// 0, or 1 for the columns kubectl shows with `-o wide`.
    pub priority: i32,
    /// Its description.
    pub description: Description,
}

impl Column {
    /// The column's description text.
    #[must_use]
    pub fn description(&self) -> String {
        match self.description {
            Description::Text(t) => t.to_owned(),
            Description::Field(def, field) => openapi::definition(def)
                .and_then(|d| {
                    d["properties"][field]["description"]
                        .as_str()
                        .map(str::to_owned)
                })
                .unwrap_or_default(),
        }
    }

    /// The `columnDefinitions` entry.
    #[must_use]
    pub fn definition(&self) -> Value {
        json!({"name": self.name, "type": self.ty, "format": self.format,
               "description": self.description(), "priority": self.priority})
    }
}

/// A column of `ty` described by `description`.
pub(crate) const fn col(name: &'static str, ty: &'static str, description: Description) -> Column {
    Column {
        name,
        ty,
        format: "",
        priority: 0,
        description,
    }
}

impl Column {
    /// Shown with `-o wide` only.
    pub(crate) const fn wide(mut self) -> Column {
        self.priority = 1;
        self
    }
}

/// `Name`, formatted as a name.
pub(crate) const NAME: Column = Column {
    format: "name",
    ..col("Name", "string", Description::Field(OBJECT_META, "name"))
};
/// `Age`.
pub(crate) const AGE: Column = col(
    "Age",
    "string",
    Description::Field(OBJECT_META, "creationTimestamp"),
);
pub(crate) const CONTAINERS: Column = col(
    "Containers",
    "string",
    Description::Text("Names of each container in the template."),
)
.wide();
pub(crate) const IMAGES: Column = col(
    "Images",
    "string",
    Description::Text("Images referenced by each container in the template."),
)
.wide();

/// A row's cells and conditions (pods only: `Completed` for succeeded and failed pods).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Row {
    /// One cell per column.
    pub cells: Vec<Value>,
    /// `TableRowCondition`s.
    pub conditions: Vec<Value>,
}

impl From<Vec<Value>> for Row {
    fn from(cells: Vec<Value>) -> Row {
        Row {
            cells,
            conditions: Vec::new(),
        }
    }
}

/// The printer of a kind: its columns and the function computing a row.
pub struct Printer {
    /// The columns, in order.
    pub columns: &'static [Column],
    print: fn(&Value, i64) -> Row,
}

impl Printer {
    /// The row of `obj` at `now` (Unix seconds; ages are relative to it).
    #[must_use]
    pub fn row(&self, obj: &Value, now: i64) -> Row {
        (self.print)(obj, now)
    }

    /// The `columnDefinitions` of a `Table`.
    #[must_use]
    pub fn column_definitions(&self) -> Vec<Value> {
        self.columns.iter().map(Column::definition).collect()
    }
}

/// `rest.NewDefaultTableConvertor`: the name and the creation time in RFC 3339.
static DEFAULT: Printer = Printer {
    columns: &[
        NAME,
        Column {
            format: "",
            ..col(
                "Created At",
                "date",
                Description::Field(OBJECT_META, "creationTimestamp"),
            )
        },
    ],
    print: |obj, _| {
        let created = format::timestamp(format::at(obj, &["metadata", "creationTimestamp"]))
            .unwrap_or(-62_135_596_800); // Go's zero time, 0001-01-01T00:00:00Z
        vec![
            json!(format::str_at(obj, &["metadata", "name"])),
            json!(crdkit_apimachinery::goparse::format_rfc3339(created)),
        ]
        .into()
    },
};

/// `(group, kind)` → printer, for every kind with one.
fn printers() -> &'static HashMap<(&'static str, &'static str), &'static Printer> {
    static PRINTERS: OnceLock<HashMap<(&'static str, &'static str), &'static Printer>> =
        OnceLock::new();
    PRINTERS.get_or_init(|| {
        core::PRINTERS
            .iter()
            .chain(pods::PRINTERS)
            .chain(services::PRINTERS)
            .chain(apps::PRINTERS)
            .chain(batch::PRINTERS)
            .chain(events::PRINTERS)
            .chain(access::PRINTERS)
            .chain(networking::PRINTERS)
            .chain(other::PRINTERS)
            .chain(storage::PRINTERS)
            .map(|(group, kind, p)| ((*group, *kind), *p))
            .collect()
    })
}

/// The printer of `group` `kind` (the same for every version of a kind: Go prints the internal
/// type), or the default one (`Name`, `Created At`) for kinds without one (`Role`, `LimitRange`,
/// `CustomResourceDefinition`, ...).
#[must_use]
pub fn printer(group: &str, kind: &str) -> &'static Printer {
    printers().get(&(group, kind)).copied().unwrap_or(&DEFAULT)
}

/// Whether `group` `kind` has a printer of its own.
#[must_use]
pub fn has_printer(group: &str, kind: &str) -> bool {
    printers().contains_key(&(group, kind))
}
