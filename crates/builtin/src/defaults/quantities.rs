//! Quantities as the typed round trip writes them back: canonical (`0.5` → `500m`, a JSON number
//! → a string), and in resource lists rounded up to milli units (`SetDefaults_ResourceList`,
//! kubernetes `pkg/apis/core/v1/defaults.go`). A value that does not parse is left for
//! validation to report.

use serde_json::Value;

use super::json::{Obj, obj_mut};
use crdkit_apimachinery::quantity::Quantity;

fn parse(v: &Value) -> Option<Quantity> {
    match v {
        Value::String(s) => Quantity::parse(s.trim()).ok(),
        Value::Number(n) => Quantity::parse(&n.to_string()).ok(),
        _ => None,
    }
}

/// The quantity at `k` in its canonical form.
pub(crate) fn canonical(m: &mut Obj, k: &str) {
    if let Some(q) = m.get(k).and_then(parse) {
        m.insert(k.to_owned(), Value::from(q.to_string()));
    }
}

/// A `Quantity` that is not a pointer: written as `"0"` when unset.
pub(crate) fn zero_or_canonical(m: &mut Obj, k: &str) {
    if m.get(k).is_none_or(Value::is_null) {
        m.insert(k.to_owned(), Value::from("0"));
    } else {
        canonical(m, k);
    }
}

/// `SetDefaults_ResourceList` on the map at `k`: every value rounded up to milli units.
pub(crate) fn resource_list(m: &mut Obj, k: &str) {
    let Some(list) = obj_mut(m, k) else {
        return;
    };
    for v in list.values_mut() {
        if let Some(mut q) = parse(v) {
            q.round_up(-3);
            *v = Value::from(q.to_string());
        }
    }
}

/// `ResourceRequirements`: its limits and requests.
pub(crate) fn requirements(res: &mut Obj) {
    resource_list(res, "limits");
    resource_list(res, "requests");
}
