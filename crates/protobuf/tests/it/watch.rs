//! Watch frames: length prefix, `WatchEvent` without envelope, the object with its envelope.

use crdkit_protobuf::{Codec, FrameError, WatchEvent, split_frame};
use k8s_pb::apimachinery::pkg::apis::meta::v1 as meta;
use prost::Message;
use serde_json::json;

use crate::common::load;

#[test]
fn events_frame_and_read_back() {
    let codec = Codec::default();
    let pod = load("pod");
    let status = load("status");
    let bookmark = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"resourceVersion": "12", "annotations": {"k8s.io/initial-events-end": "true"}}});
    let mut stream = Vec::new();
    for (t, o) in [("ADDED", &pod), ("ERROR", &status), ("BOOKMARK", &bookmark)] {
        stream.extend(codec.encode_watch_event(t, o).unwrap());
    }
    let mut rest = &stream[..];
    let mut events = Vec::new();
    // Bounded: three frames were written.
    for _ in 0..3 {
        let (event, tail) = split_frame(rest, 1 << 20).unwrap().expect("a whole frame");
        // An independent reader of the event: prost's WatchEvent.
        let pb = meta::WatchEvent::decode(event).unwrap();
        assert!(
            pb.object
                .unwrap()
                .raw
                .unwrap()
                .starts_with(crdkit_protobuf::MAGIC)
        );
        events.push(codec.decode_watch_event(event).unwrap());
        rest = tail;
    }
    assert!(rest.is_empty());
    assert_eq!(events[0].event_type, "ADDED");
    assert_eq!(
        events[0].object,
        crdkit_protobuf::decode(&crdkit_protobuf::encode(&pod).unwrap()).unwrap()
    );
    assert_eq!(
        events[1],
        WatchEvent {
            event_type: "ERROR".into(),
            object: crdkit_protobuf::decode(&crdkit_protobuf::encode(&status).unwrap()).unwrap()
        }
    );
    assert_eq!(events[2].object["metadata"]["resourceVersion"], json!("12"));
}

#[test]
fn frames_split_incrementally_and_refuse_huge_lengths() {
    let frame = Codec::default()
        .encode_watch_event("DELETED", &load("configmap"))
        .unwrap();
    for cut in 0..frame.len() {
        assert_eq!(
            split_frame(&frame[..cut], 1 << 20).unwrap(),
            None,
            "cut at {cut}"
        );
    }
    assert!(split_frame(&frame, 1 << 20).unwrap().is_some());
    assert_eq!(
        split_frame(&[0xff, 0xff, 0xff, 0xff], 1 << 20),
        Err(FrameError::TooLarge {
            len: u64::from(u32::MAX),
            max: 1 << 20
        })
    );
}

#[test]
fn json_objects_in_watch_events_are_read_too() {
    let event = meta::WatchEvent {
        r#type: Some("MODIFIED".into()),
        object: Some(k8s_pb::apimachinery::pkg::runtime::RawExtension {
            raw: Some(br#"{"kind":"CronTab"}"#.to_vec()),
        }),
    };
    let got = Codec::default()
        .decode_watch_event(&event.encode_to_vec())
        .unwrap();
    assert_eq!(
        got,
        WatchEvent {
            event_type: "MODIFIED".into(),
            object: json!({"kind": "CronTab"})
        }
    );
}
