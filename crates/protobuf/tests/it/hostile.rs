//! Bad bytes get a typed error: never a panic, a hang or an allocation sized by the input's
//! claims. Every loop here is bounded.

use crdkit_protobuf::{Codec, DecodeError, decode, encode};
use serde_json::json;

use crate::common::{SAMPLES, load};

#[test]
fn every_truncation_of_every_sample_is_an_error_or_a_value() {
    for name in SAMPLES {
        let bytes = encode(&load(name)).unwrap();
        // Cutting before the end of the object leaves a declared length past the end; the
        // last four bytes are the empty contentEncoding and contentType, which may go.
        // A body that ends right after typeMeta is a kind with no fields (Go reads it so too).
        let type_meta_end = 6 + usize::from(bytes[5]);
        for cut in (0..bytes.len() - 4).filter(|c| *c != type_meta_end) {
            assert!(
                decode(&bytes[..cut]).is_err(),
                "{name}: cut at {cut} decoded"
            );
        }
        assert!(decode(&bytes[..bytes.len() - 4]).is_ok());
    }
}

#[test]
fn flipped_bytes_never_panic() {
    let bytes = encode(&load("pod")).unwrap();
    // A fixed linear congruential generator: the same 5 000 mutations every run.
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..5_000 {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let mut b = bytes.clone();
        let at = 4 + (seed >> 33) as usize % (b.len() - 4);
        b[at] ^= (seed >> 17) as u8 | 1;
        let _ = decode(&b);
    }
}

#[test]
fn a_huge_length_costs_nothing() {
    let mut b = b"k8s\0".to_vec();
    // typeMeta, then raw claiming 2^62 bytes.
    b.extend([0x0a, 0x06, 0x0a, 0x02, b'v', b'1', 0x12, 0x00]);
    b.extend([0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40]);
    assert_eq!(decode(&b).unwrap_err(), DecodeError::UnexpectedEof);
    let mut b = b"k8s\0".to_vec();
    b.extend([
        0x12, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01,
    ]);
    assert_eq!(decode(&b).unwrap_err(), DecodeError::InvalidLength);
    let mut b = b"k8s\0".to_vec();
    b.extend([0x28; 1]); // an unknown varint field of Unknown
    b.extend([0xff; 11]);
    assert_eq!(decode(&b).unwrap_err(), DecodeError::IntOverflow);
}

/// A CRD schema nested `levels` deep through `properties`.
fn nested_crd(levels: usize) -> serde_json::Value {
    let mut schema = json!({"type": "string"});
    for _ in 0..levels {
        schema = json!({"type": "object", "properties": {"a": schema}});
    }
    json!({"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition", "metadata": {"name": "x"},
           "spec": {"versions": [{"name": "v1", "schema": {"openAPIV3Schema": schema}}]}})
}

#[test]
fn nesting_is_bounded_both_ways() {
    let ok = encode(&nested_crd(20)).unwrap();
    assert!(decode(&ok).is_ok());
    let codec = Codec::with_max_depth(10);
    assert_eq!(codec.decode(&ok).unwrap_err(), DecodeError::TooDeep(10));
    assert!(matches!(
        codec.encode(&nested_crd(20)),
        Err(crdkit_protobuf::EncodeError::TooDeep(10))
    ));
    // Embedded envelopes count as nesting too (RawExtension holding protobuf objects).
    let mut inner =
        encode(&json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}})).unwrap();
    for _ in 0..200 {
        let mut raw = Vec::new();
        raw.push(0x12); // ControllerRevision.data = 2
        let mut ext = vec![0x0a]; // RawExtension.raw = 1
        push_len(&mut ext, inner.len());
        ext.extend(&inner);
        push_len(&mut raw, ext.len());
        raw.extend(ext);
        let mut env = b"k8s\0".to_vec();
        let tm: Vec<u8> = [0x0a, 0x07]
            .iter()
            .copied()
            .chain(*b"apps/v1")
            .chain([0x12, 18])
            .chain(*b"ControllerRevision")
            .collect();
        env.push(0x0a);
        push_len(&mut env, tm.len());
        env.extend(tm);
        env.push(0x12);
        push_len(&mut env, raw.len());
        env.extend(raw);
        inner = env;
    }
    assert_eq!(
        decode(&inner).unwrap_err(),
        DecodeError::TooDeep(crdkit_protobuf::DEFAULT_MAX_DEPTH)
    );
}

fn push_len(out: &mut Vec<u8>, mut n: usize) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

#[test]
fn wrong_wire_types_and_illegal_tags() {
    let mut b = b"k8s\0".to_vec();
    b.extend([0x0a, 0x0f, 0x0a, 0x02, b'v', b'1', 0x12, 0x09]);
    b.extend(b"ConfigMap");
    // raw: ConfigMap field 2 (data) as a varint.
    b.extend([0x12, 0x02, 0x10, 0x01]);
    assert_eq!(
        decode(&b).unwrap_err().to_string(),
        "proto: wrong wireType = 0 for field data"
    );
    let n = b.len();
    b[n - 2] = 0x00; // field 0
    assert_eq!(
        decode(&b).unwrap_err().to_string(),
        "proto: ConfigMap: illegal tag 0 (wire type 0)"
    );
    b[n - 2] = 0x0c; // field 1, end group
    assert_eq!(
        decode(&b).unwrap_err().to_string(),
        "proto: ConfigMap: wiretype end group for non-group"
    );
    // Unknown fields are skipped, groups included: field 31 varint 5, then field 30 as a
    // group holding a varint field.
    b.truncate(n - 4);
    b.extend([0x12, 0x07, 0xf8, 0x01, 0x05, 0xf3, 0x01, 0x08, 0x01]);
    b.extend([0xf4, 0x01]);
    b[n - 3] = 0x09;
    assert_eq!(
        decode(&b).unwrap(),
        json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {}})
    );
}

/// An empty `Deployment` is two bytes of protobuf and a dozen JSON members (Go's zero values):
/// the output is bounded by the input's size, big real lists pass.
#[test]
fn zero_value_blow_up_is_bounded() {
    let list = |items: Vec<serde_json::Value>| {
        encode(&json!({"apiVersion": "apps/v1", "kind": "DeploymentList", "metadata": {}, "items": items})).unwrap()
    };
    let mut deployment = load("deployment");
    let obj = deployment.as_object_mut().unwrap();
    obj.remove("apiVersion");
    obj.remove("kind");
    let real = list(vec![deployment; 2_000]);
    assert_eq!(
        decode(&real).unwrap()["items"].as_array().unwrap().len(),
        2_000
    );
    // 40 000 items of two bytes each: `12 00`.
    let mut body = b"k8s\0".to_vec();
    let type_meta: Vec<u8> = [0x0a, 0x07]
        .iter()
        .copied()
        .chain(*b"apps/v1")
        .chain([0x12, 14])
        .chain(*b"DeploymentList")
        .collect();
    body.push(0x0a);
    body.push(type_meta.len() as u8);
    body.extend(type_meta);
    let items: Vec<u8> = [0x12, 0x00].repeat(40_000);
    body.push(0x12);
    let mut n = items.len();
    while n >= 0x80 {
        body.push((n as u8) | 0x80);
        n >>= 7;
    }
    body.push(n as u8);
    body.extend(items);
    assert_eq!(decode(&body).unwrap_err(), DecodeError::TooManyValues);
}
