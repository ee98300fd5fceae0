//! `events.k8s.io/v1` Events stored as core `v1` Events, as kube-apiserver stores them (one
//! resource, two groups): the field renames of kubernetes `pkg/apis/events/v1/conversion.go`
//! (`Convert_v1_Event_To_core_Event` and back); the other fields have the same names.

use serde_json::{Map, Value};

/// `events.k8s.io/v1` name ↔ core `v1` name.
const RENAMES: &[(&str, &str)] = &[
    ("regarding", "involvedObject"),
    ("note", "message"),
    ("deprecatedSource", "source"),
    ("deprecatedFirstTimestamp", "firstTimestamp"),
    ("deprecatedLastTimestamp", "lastTimestamp"),
    ("deprecatedCount", "count"),
    ("reportingController", "reportingComponent"),
];

fn rename(obj: &mut Value, api_version: &str, forward: bool) {
    let Value::Object(m) = obj else { return };
    let mut out = Map::new();
    for (k, v) in std::mem::take(m) {
        let name = RENAMES
            .iter()
            .find(|(new, core)| if forward { new == &k } else { core == &k })
            .map_or(k.clone(), |(new, core)| {
                (if forward { *core } else { *new }).to_owned()
            });
        out.insert(name, v);
    }
    out.insert("apiVersion".to_owned(), Value::from(api_version));
    *m = out;
}

/// An `events.k8s.io/v1` Event as a core `v1` Event.
pub fn to_core(obj: &mut Value) {
    rename(obj, "v1", true);
}

/// A core `v1` Event as an `events.k8s.io/v1` Event.
pub fn from_core(obj: &mut Value) {
    rename(obj, "events.k8s.io/v1", false);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn round_trip() {
        let new = json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "e"},
            "regarding": {"kind": "Pod", "name": "p"}, "note": "pulled", "reason": "Pulled",
            "reportingController": "kubelet", "deprecatedCount": 2});
        let mut core = new.clone();
        to_core(&mut core);
        assert_eq!(
            core,
            json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": "e"},
            "involvedObject": {"kind": "Pod", "name": "p"}, "message": "pulled", "reason": "Pulled",
            "reportingComponent": "kubelet", "count": 2})
        );
        from_core(&mut core);
        assert_eq!(core, new);
    }
}
