//! Patches are hostile input: large lists merge in near-linear work (Go scans lists inside
//! loops; here every lookup is a hash lookup), deep values stop at the depth limit instead of
//! the stack, and inputs that make Go's comparator inconsistent still end.

use crdkit_patch::{Limits, PatchError, strategic_merge_patch};
use serde_json::{Value, json};

use crate::common::{apply, merge_item, merge_item_schemas, object};

const N: usize = 5_000;

fn item(name: usize) -> Value {
    json!({"name": name, "value": "v"})
}

#[test]
fn large_list_reordered_and_merged_by_key() {
    let schemas = merge_item_schemas();
    let original = json!({"mergingList": (0..N).map(item).collect::<Vec<_>>()});
    let reversed: Vec<usize> = (0..N).rev().collect();
    let patch = json!({
        "$setElementOrder/mergingList": reversed.iter().map(|&i| json!({"name": i})).collect::<Vec<_>>(),
        "mergingList": reversed.iter().map(|&i| json!({"name": i, "other": "o"})).collect::<Vec<_>>(),
    });
    let got = apply(&original, &patch, &merge_item(&schemas)).unwrap();
    let want: Vec<Value> = reversed
        .iter()
        .map(|&i| json!({"name": i, "value": "v", "other": "o"}))
        .collect();
    assert_eq!(got["mergingList"], Value::Array(want));
}

#[test]
fn large_union_of_scalars() {
    let schemas = merge_item_schemas();
    let original = json!({"mergingIntList": (0..N).collect::<Vec<_>>()});
    let patch = json!({"mergingIntList": (N / 2..N + N / 2).collect::<Vec<_>>()});
    let got = apply(&original, &patch, &merge_item(&schemas)).unwrap();
    assert_eq!(
        got["mergingIntList"],
        json!((0..N + N / 2).collect::<Vec<_>>())
    );
}

#[test]
fn many_deletions() {
    let schemas = merge_item_schemas();
    let original = json!({"mergingList": (0..N).map(item).collect::<Vec<_>>()});
    let odd: Vec<usize> = (0..N).filter(|i| i % 2 == 1).collect();
    let patch = json!({
        "$setElementOrder/mergingList": odd.iter().map(|&i| json!({"name": i})).collect::<Vec<_>>(),
        "mergingList": (0..N).filter(|i| i % 2 == 0).map(|i| json!({"$patch": "delete", "name": i})).collect::<Vec<_>>(),
    });
    let got = apply(&original, &patch, &merge_item(&schemas)).unwrap();
    assert_eq!(
        got["mergingList"],
        Value::Array(odd.into_iter().map(item).collect())
    );
}

/// An empty `$setElementOrder` leaves the new items without a position: Go's comparator is then
/// inconsistent, and its own sort algorithm (followed step by step) decides.
#[test]
fn inconsistent_order_on_a_large_list() {
    let schemas = merge_item_schemas();
    let n = 3_000;
    let original = json!({"mergingIntList": (0..n).collect::<Vec<_>>()});
    let patch = json!({"$setElementOrder/mergingIntList": [], "mergingIntList": (n..2 * n).collect::<Vec<_>>()});
    let got = apply(&original, &patch, &merge_item(&schemas)).unwrap();
    let mut items: Vec<u64> = got["mergingIntList"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    // The server's items keep their order among themselves.
    let server: Vec<u64> = items.iter().copied().filter(|&i| i < n).collect();
    assert_eq!(server, (0..n).collect::<Vec<_>>());
    items.sort_unstable();
    assert_eq!(items, (0..2 * n).collect::<Vec<_>>());
}

fn nested(depth: usize, leaf: &str) -> Value {
    let mut v = json!({"name": leaf});
    for _ in 1..depth {
        v = json!({"mergeItemPtr": v});
    }
    v
}

/// Up to the default limit, on a thread with the default 2 MiB stack of test and tokio threads.
#[test]
fn deep_values_stop_at_the_limit() {
    let run = || {
        let schemas = merge_item_schemas();
        let schema = merge_item(&schemas);
        let limit = Limits::default().max_depth;
        let merge = |depth| {
            strategic_merge_patch(
                object(&nested(depth, "a")),
                object(&nested(depth, "b")),
                &schema,
                Limits::default(),
            )
        };
        assert_eq!(Value::Object(merge(limit).unwrap()), nested(limit, "b"));
        assert_eq!(merge(limit + 1).unwrap_err(), PatchError::TooDeep { limit });
        let added = strategic_merge_patch(
            object(&json!({})),
            object(&nested(limit + 1, "b")),
            &schema,
            Limits::default(),
        );
        assert_eq!(added.unwrap_err(), PatchError::TooDeep { limit });
    };
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(run)
        .unwrap()
        .join()
        .unwrap();
}
