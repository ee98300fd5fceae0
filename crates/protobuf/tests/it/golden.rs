//! Golden bytes (hex) of a few objects; `BLESS=1` rewrites them. Their decoding by prost is
//! checked in `prost_cross`, so the goldens are what an independent encoder reads back.

use crate::common::{hex, load};

#[test]
fn golden_bytes() {
    for name in ["configmap", "service", "lease", "secret", "status"] {
        let got = hex(&crdkit_protobuf::encode(&load(name)).unwrap());
        let path = format!("{}/tests/golden/{name}.hex", env!("CARGO_MANIFEST_DIR"));
        if std::env::var_os("BLESS").is_some() {
            std::fs::write(&path, format!("{got}\n")).unwrap();
        }
        let want = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{path}: {e} (BLESS=1 writes it)"));
        assert_eq!(got, want.trim_end(), "{name}");
    }
}

/// A ConfigMap written out by hand from gogo's marshal order: typeMeta, raw (metadata with
/// every ObjectMeta value field, `data`, `binaryData`), empty contentEncoding/contentType.
#[test]
fn configmap_bytes_by_hand() {
    let cm = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}, "data": {"k": "v"}});
    let mut want: Vec<u8> = b"k8s\0".to_vec();
    // typeMeta { apiVersion: "v1", kind: "ConfigMap" }
    want.extend([0x0a, 0x0f, 0x0a, 0x02, b'v', b'1', 0x12, 0x09]);
    want.extend(b"ConfigMap");
    // ObjectMeta: name=1 "a", generateName=2 "", namespace=3 "", selfLink=4 "", uid=5 "",
    // resourceVersion=6 "", generation=7 0, creationTimestamp=8 {} (zero Time: no bytes).
    let meta: Vec<u8> = vec![
        0x0a, 0x01, b'a', 0x12, 0x00, 0x1a, 0x00, 0x22, 0x00, 0x2a, 0x00, 0x32, 0x00, 0x38, 0x00,
        0x42, 0x00,
    ];
    // ConfigMap: metadata=1, data=2 {key=1 "k", value=2 "v"}.
    let mut raw = vec![0x0a, meta.len() as u8];
    raw.extend(&meta);
    raw.extend([0x12, 0x06, 0x0a, 0x01, b'k', 0x12, 0x01, b'v']);
    want.extend([0x12, raw.len() as u8]);
    want.extend(raw);
    want.extend([0x1a, 0x00, 0x22, 0x00]);
    assert_eq!(hex(&crdkit_protobuf::encode(&cm).unwrap()), hex(&want));
}
