//! Protobuf bodies and watch events (crdkit-protobuf) never panic and never recurse or
//! allocate past their limits; what decodes is written back and reads the same. JSON inputs
//! go through the encoder, which refuses what Go's `json.Unmarshal` would, without panicking.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let codec = crdkit_protobuf::Codec::with_max_depth(64);
    if let Ok(object) = codec.decode(data) {
        if let Ok(bytes) = codec.encode(&object) {
            assert_eq!(codec.decode(&bytes).as_ref(), Ok(&object), "decode(encode(decode(x))) != decode(x)");
        }
    }
    let _ = codec.decode_watch_event(data);
    let _ = crdkit_protobuf::split_frame(data, 1 << 16);
    if let Ok(json) = serde_json::from_slice::<serde_json::Value>(data) {
        let _ = codec.encode(&json);
        let _ = crdkit_protobuf::encode_openapi_v2(&json);
    }
});
