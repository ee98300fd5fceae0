//! Protobuf bodies and watch events (crdkit-protobuf) never panic and never recurse or
//! allocate past their limits; what decodes is written back and reads the same. JSON inputs
//! go through the encoder, which refuses what Go's `json.Unmarshal` would, without panicking.
//!
//! "The same" is up to `null` members: as in Go, a pointer set to a zero `Time` is written
//! `null`, and `null` reads back as no pointer.
#![no_main]

use serde_json::Value;

fn without_nulls(v: &Value) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k.clone(), without_nulls(v))).collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_nulls).collect()),
        other => other.clone(),
    }
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let codec = crdkit_protobuf::Codec::with_max_depth(64);
    if let Ok(object) = codec.decode(data) {
        if let Ok(bytes) = codec.encode(&object) {
            match codec.decode(&bytes) {
                Ok(again) => assert_eq!(without_nulls(&again), without_nulls(&object), "decode(encode(decode(x))) != decode(x)"),
                Err(crdkit_protobuf::DecodeError::TooManyValues) => {}
                Err(e) => panic!("our own bytes do not decode: {e}"),
            }
        }
    }
    let _ = codec.decode_watch_event(data);
    let _ = crdkit_protobuf::split_frame(data, 1 << 16);
    if let Ok(json) = serde_json::from_slice::<Value>(data) {
        let _ = codec.encode(&json);
        let _ = crdkit_protobuf::encode_openapi_v2(&json);
    }
});
