//! A Pod's quality-of-service class, which its status gets on create.
//!
//! Mirrors kubernetes `pkg/apis/core/helper/qos/qos.go` (`ComputePodQOS`): only CPU and memory
//! count; with pod-level resources (`spec.resources`, gate `PodLevelResources`, on in 1.35)
//! those decide, else the containers' and init containers' do.

use std::collections::BTreeMap;

use serde_json::Value;

use super::json::Obj;
use crdkit_apimachinery::quantity::Quantity;

type Sums = BTreeMap<String, Quantity>;

/// Adds the positive CPU and memory quantities of `list` to `sums`; returns the names found.
fn add(list: Option<&Value>, sums: &mut Sums) -> Vec<String> {
    let mut found = Vec::new();
    let Some(Value::Object(m)) = list else {
        return found;
    };
    for (name, v) in m {
        if name != "cpu" && name != "memory" {
            continue;
        }
        let q = match v {
            Value::String(s) => Quantity::parse(s.trim()).ok(),
            Value::Number(n) => Quantity::parse(&n.to_string()).ok(),
            _ => None,
        };
        let Some(q) = q.filter(|q| q.sign() > 0) else {
            continue;
        };
        found.push(name.clone());
        let sum = match sums.get(name) {
            Some(prev) => q.checked_add(prev).unwrap_or(q),
            None => q,
        };
        sums.insert(name.clone(), sum);
    }
    found
}

/// `ComputePodQOS`: `Guaranteed`, `Burstable` or `BestEffort`.
pub(crate) fn pod_qos(pod: &Obj) -> &'static str {
    let (mut requests, mut limits) = (Sums::new(), Sums::new());
    let mut guaranteed = true;
    let spec = pod.get("spec");
    let pod_level = spec
        .and_then(|s| s.get("resources"))
        .filter(|r| r.is_object());
    let mut consider = |res: Option<&Value>| {
        add(res.and_then(|r| r.get("requests")), &mut requests);
        let found = add(res.and_then(|r| r.get("limits")), &mut limits);
        let has = |n: &str| found.iter().any(|f| f == n);
        if !(has("cpu") && has("memory")) {
            guaranteed = false;
        }
    };
    if let Some(res) = pod_level {
        let has_limits = res
            .get("limits")
            .and_then(Value::as_object)
            .is_some_and(|l| !l.is_empty());
        if has_limits {
            consider(Some(res));
        } else {
            add(res.get("requests"), &mut requests);
        }
    } else {
        for list in ["containers", "initContainers"] {
            let containers = spec
                .and_then(|s| s.get(list))
                .and_then(Value::as_array)
                .into_iter()
                .flatten();
            for c in containers {
                consider(c.get("resources"));
            }
        }
    }
    if requests.is_empty() && limits.is_empty() {
        return "BestEffort";
    }
    if guaranteed {
        guaranteed = requests
            .iter()
            .all(|(name, req)| limits.get(name).is_some_and(|lim| lim == req));
    }
    if guaranteed && requests.len() == limits.len() {
        "Guaranteed"
    } else {
        "Burstable"
    }
}
