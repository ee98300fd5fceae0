//! The event printer, for core and `events.k8s.io` Events (printers.go `printEvent`).

use serde_json::{Value, json};

use super::format::{at, int_at, name_cell, str_at, timestamp};
use super::{Column, Description::Field};
use super::{OBJECT_META, Printer, Row, col};
use crdkit_apimachinery::duration::human_duration;

const EVENT: &str = "io.k8s.api.core.v1.Event";

pub(super) const PRINTERS: &[(&str, &str, &Printer)] = &[
    ("", "Event", &EVENT_PRINTER),
    ("events.k8s.io", "Event", &EVENTS_K8S_IO),
];

const EVENT_COLUMNS: &[Column] = &[
    col("Last Seen", "string", Field(EVENT, "lastTimestamp")),
    col("Type", "string", Field(EVENT, "type")),
    col("Reason", "string", Field(EVENT, "reason")),
    col("Object", "string", Field(EVENT, "involvedObject")),
    col(
        "Subobject",
        "string",
        Field("io.k8s.api.core.v1.ObjectReference", "fieldPath"),
    )
    .wide(),
    col("Source", "string", Field(EVENT, "source")).wide(),
    col("Message", "string", Field(EVENT, "message")),
    col("First Seen", "string", Field(EVENT, "firstTimestamp")).wide(),
    col("Count", "string", Field(EVENT, "count")).wide(),
    Column {
        format: "name",
        ..col("Name", "string", Field(OBJECT_META, "name")).wide()
    },
];

static EVENT_PRINTER: Printer = Printer {
    columns: EVENT_COLUMNS,
    print: |obj, now| event(obj, now, &CORE_EVENT),
};
static EVENTS_K8S_IO: Printer = Printer {
    columns: EVENT_COLUMNS,
    print: |obj, now| event(obj, now, &NEW_EVENT),
};

/// Where an Event's fields are: core `v1`, or `events.k8s.io/v1`, whose conversion to the
/// internal type renames them (`regarding` is `involvedObject`, `note` `message`, the
/// `deprecated*` fields the core ones).
struct EventFields {
    involved: &'static str,
    message: &'static str,
    source: &'static str,
    first: &'static str,
    last: &'static str,
    count: &'static str,
}

const CORE_EVENT: EventFields = EventFields {
    involved: "involvedObject",
    message: "message",
    source: "source",
    first: "firstTimestamp",
    last: "lastTimestamp",
    count: "count",
};
const NEW_EVENT: EventFields = EventFields {
    involved: "regarding",
    message: "note",
    source: "deprecatedSource",
    first: "deprecatedFirstTimestamp",
    last: "deprecatedLastTimestamp",
    count: "deprecatedCount",
};

/// `printEvent`.
fn event(obj: &Value, now: i64, f: &EventFields) -> Row {
    let since = |v: &Value| timestamp(v).map(|t| human_duration(now - t));
    let unknown = || "<unknown>".to_owned();
    let first = since(at(obj, &[f.first]))
        .unwrap_or_else(|| since(at(obj, &["eventTime"])).unwrap_or_else(unknown));
    let mut last = since(at(obj, &[f.last])).unwrap_or_else(|| first.clone());
    let mut count = int_at(obj, &[f.count]);
    let series = at(obj, &["series"]);
    if series.is_object() {
        last = since(at(series, &["lastObservedTime"])).unwrap_or_else(unknown);
        count = int_at(series, &["count"]);
    } else if count == 0 {
        // Singleton events of the new API have no count.
        count = 1;
    }
    let involved = at(obj, &[f.involved]);
    let kind = str_at(involved, &["kind"]).to_lowercase();
    let target = match str_at(involved, &["name"]) {
        "" => kind,
        n => format!("{kind}/{n}"),
    };
    let first_non_empty = |a: &'static str, b: &'static str| match str_at(obj, &[f.source, a]) {
        "" => str_at(obj, &[b]).to_owned(),
        s => s.to_owned(),
    };
    let component = first_non_empty("component", "reportingController");
    let instance = first_non_empty("host", "reportingInstance");
    let source = if instance.is_empty() {
        component
    } else {
        format!("{component}, {instance}")
    };
    vec![
        json!(last),
        json!(str_at(obj, &["type"])),
        json!(str_at(obj, &["reason"])),
        json!(target),
        json!(str_at(involved, &["fieldPath"])),
        json!(source),
        json!(str_at(obj, &[f.message]).trim()),
        json!(first),
        json!(count),
        name_cell(obj),
    ]
    .into()
}
