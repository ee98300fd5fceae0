//! Each example's CRD equals, as parsed YAML, the CRD the Kubernetes documentation prints for it
//! (transcribed in `tests/data/docs/`), with field order and descriptions aside.

use std::path::PathBuf;

use serde_json::Value;

/// Drops `description` keys of schemas and turns integral floats into integers, so that
/// `maximum: 10` and `maximum: 10.0` compare equal as the API server would.
fn normalize(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if m.contains_key("type") || m.contains_key("properties") {
                m.remove("description");
            }
            m.values_mut().for_each(normalize);
        }
        Value::Array(a) => a.iter_mut().for_each(normalize),
        Value::Number(n) => {
            if let Some(f) = n
                .as_f64()
                .filter(|f| f.fract() == 0.0 && !n.is_i64() && !n.is_u64())
            {
                #[allow(clippy::cast_possible_truncation)]
                {
                    *v = Value::from(f as i64);
                }
            }
        }
        _ => {}
    }
}

#[test]
fn examples_equal_the_documentation() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/docs");
    let mut compared = 0;
    for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
        let path = dir.join(format!("{name}.crd.yaml"));
        let Ok(text) = std::fs::read_to_string(&path) else {
            // Examples beyond the task page (several versions) have no documentation counterpart.
            continue;
        };
        let mut want: Value = serde_saphyr::from_str(&text).expect("docs YAML parses");
        let mut got = crd.to_value();
        normalize(&mut want);
        normalize(&mut got);
        assert_eq!(
            got,
            want,
            "{name} differs from the documentation:\n{}",
            crd.to_yaml()
        );
        compared += 1;
    }
    assert_eq!(
        compared, 7,
        "every example has its documentation counterpart"
    );
}
