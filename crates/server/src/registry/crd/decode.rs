//! Reading a CRD body: the v1 defaults (apiextensions-apiserver
//! `pkg/apis/apiextensions/v1/defaults.go`) and the fields the typed form does not know (what
//! the strict decoder reports as `unknown field "spec.foo"`).

use serde_json::Value;

use crate::engine::CustomResourceDefinition;

/// `SetDefaults_CustomResourceDefinition(Spec)`.
pub(super) fn set_defaults(crd: &mut CustomResourceDefinition) {
    crd.spec.names.set_defaults();
    let conv = crd.spec.conversion.get_or_insert_with(Default::default);
    if conv.strategy.is_empty() {
        conv.strategy = "None".to_owned();
    }
    if let Some(svc) = conv
        .webhook
        .as_mut()
        .and_then(|w| w.client_config.as_mut())
        .and_then(|c| c.service.as_mut())
        && svc.port.is_none()
    {
        svc.port = Some(443);
    }
}

/// The paths of `input` that the typed round trip dropped, as the strict decoder names them
/// (`spec.foo`). Zero values (`false`, `""`, `0`, empty lists and maps, `null`) the typed form
/// omits are not unknown.
pub(super) fn unknown_fields(
    input: &Value,
    round: &Value,
    path: &str,
    out: &mut Vec<String>,
    depth: usize,
) {
    if depth > 64 {
        return;
    }
    match (input, round) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match b.get(k) {
                    Some(rv) => unknown_fields(v, rv, &p, out, depth + 1),
                    None if !is_zero(v) => out.push(p),
                    None => {}
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (i, (v, rv)) in a.iter().zip(b).enumerate() {
                unknown_fields(v, rv, &format!("{path}[{i}]"), out, depth + 1);
            }
        }
        _ => {}
    }
}

fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(m) => m.is_empty(),
    }
}
