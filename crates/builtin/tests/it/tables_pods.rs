//! Server-side printing of pods: the rows of kubernetes `pkg/printers/internalversion/printers_test.go`
//! (`TestPrintPod`, `TestPrintPodWithRestartableInitContainer`, `TestPrintPodwide`), transcribed
//! as JSON, ages relative to a fixed now.

use serde_json::{Value, json};

use super::tables::{NOW, cells, ts};
use crdkit_builtin::tables;

/// The first five cells of a pod (Go's tests print without `Wide`).
fn pod5(pod: &Value) -> Vec<Value> {
    cells("", "Pod", pod)[..5].to_vec()
}

fn pod(name: &str, spec: Value, status: Value) -> Value {
    json!({"metadata": {"name": name}, "spec": spec, "status": status})
}

fn two() -> Value {
    json!({"containers": [{}, {}]})
}

#[test]
fn print_pod_rows_of_go() {
    let running = json!({"running": {}});
    let cases = [
        (
            pod(
                "test2",
                two(),
                json!({"phase": "podPhase", "containerStatuses": [
            {"ready": true, "restartCount": 3, "state": running},
            {"state": {"waiting": {"reason": "ContainerWaitingReason"}}, "restartCount": 3}]}),
            ),
            ["test2", "1/2", "ContainerWaitingReason", "6", "<unknown>"],
        ),
        (
            pod(
                "test3",
                two(),
                json!({"phase": "podPhase", "containerStatuses": [
            {"state": {"waiting": {"reason": "ContainerWaitingReason"}}, "restartCount": 3},
            {"state": {"terminated": {"reason": "ContainerTerminatedReason"}}, "restartCount": 3}]}),
            ),
            ["test3", "0/2", "ContainerWaitingReason", "6", "<unknown>"],
        ),
        (
            pod(
                "test4",
                two(),
                json!({"phase": "podPhase", "containerStatuses": [
            {"ready": true, "restartCount": 3, "state": running}, {"ready": true, "restartCount": 3}]}),
            ),
            ["test4", "1/2", "podPhase", "6", "<unknown>"],
        ),
        (
            pod(
                "test5",
                two(),
                json!({"reason": "podReason", "phase": "podPhase", "containerStatuses": [
            {"ready": true, "restartCount": 3, "state": running}, {"ready": true, "restartCount": 3}]}),
            ),
            ["test5", "1/2", "podReason", "6", "<unknown>"],
        ),
        (
            pod(
                "test6",
                two(),
                json!({"phase": "Running", "containerStatuses": [
            {"ready": true, "restartCount": 3, "state": {"terminated": {"reason": "Completed", "exitCode": 0}}},
            {"ready": true, "restartCount": 3, "state": running}]}),
            ),
            ["test6", "1/2", "NotReady", "6", "<unknown>"],
        ),
        (
            pod(
                "test6",
                two(),
                json!({"phase": "Running", "conditions": [{"type": "Ready", "status": "True"}], "containerStatuses": [
            {"ready": true, "restartCount": 3, "state": {"terminated": {"reason": "Completed", "exitCode": 0}}},
            {"ready": true, "restartCount": 3, "state": running}]}),
            ),
            ["test6", "1/2", "Running", "6", "<unknown>"],
        ),
        (
            pod(
                "test7",
                json!({"initContainers": [{}], "containers": [{}]}),
                json!({"phase": "podPhase",
            "initContainerStatuses": [{"restartCount": 3, "state": running, "lastState": {"terminated": {"finishedAt": ts(10)}}}],
            "containerStatuses": [{"restartCount": 0, "state": {"waiting": {}}}]}),
            ),
            ["test7", "0/1", "Init:0/1", "3 (10s ago)", "<unknown>"],
        ),
        (
            pod(
                "test8",
                json!({"initContainers": [{}, {}], "containers": [{}]}),
                json!({"phase": "podPhase",
            "initContainerStatuses": [{"restartCount": 3, "state": running, "lastState": {"terminated": {"finishedAt": ts(10)}}},
                                      {"state": {"waiting": {}}}],
            "containerStatuses": [{"state": {"waiting": {}}}]}),
            ),
            ["test8", "0/1", "Init:0/2", "3 (10s ago)", "<unknown>"],
        ),
        (
            pod(
                "test9",
                json!({"initContainers": [{}, {}], "containers": [{}]}),
                json!({"phase": "podPhase",
            "initContainerStatuses": [{"state": {"terminated": {}}},
                {"restartCount": 3, "state": running, "lastState": {"terminated": {"finishedAt": ts(10)}}}],
            "containerStatuses": [{"state": {"waiting": {}}}]}),
            ),
            ["test9", "0/1", "Init:1/2", "3 (10s ago)", "<unknown>"],
        ),
        (
            pod(
                "test10",
                json!({"initContainers": [{}, {}], "containers": [{}]}),
                json!({"phase": "podPhase",
            "initContainerStatuses": [
                {"restartCount": 2, "state": {"terminated": {}}, "lastState": {"terminated": {"finishedAt": ts(120)}}},
                {"restartCount": 3, "state": running, "lastState": {"terminated": {"finishedAt": ts(10)}}}],
            "containerStatuses": [{"state": {"waiting": {}}}]}),
            ),
            ["test10", "0/1", "Init:1/2", "5 (10s ago)", "<unknown>"],
        ),
        (
            pod(
                "test11",
                json!({"initContainers": [{}], "containers": [{}]}),
                json!({"phase": "Running",
            "initContainerStatuses": [{"restartCount": 2, "state": {"terminated": {}}, "lastState": {"terminated": {"finishedAt": ts(120)}}}],
            "containerStatuses": [{"restartCount": 4, "state": running, "lastState": {"terminated": {"finishedAt": ts(20)}}}]}),
            ),
            ["test11", "0/1", "Running", "4 (20s ago)", "<unknown>"],
        ),
        (
            pod(
                "test12",
                json!({"containers": [{}]}),
                json!({"phase": "Running", "containerStatuses": [
            {"ready": true, "restartCount": 3, "state": running, "lastState": {"terminated": {"finishedAt": ts(5 * 86_400)}}}]}),
            ),
            ["test12", "1/1", "Running", "3 (5d ago)", "<unknown>"],
        ),
        (
            pod(
                "test13",
                two(),
                json!({"phase": "Running", "containerStatuses": [
            {"ready": true, "restartCount": 0, "state": running},
            {"ready": true, "restartCount": 3, "state": running, "lastState": {"terminated": {"finishedAt": ts(10 * 86_400)}}}]}),
            ),
            ["test13", "2/2", "Running", "3 (10d ago)", "<unknown>"],
        ),
        (
            pod(
                "test14",
                two(),
                json!({"phase": "Running", "containerStatuses": [
            {"ready": true, "restartCount": 6, "state": running, "lastState": {"terminated": {"finishedAt": ts(5 * 86_400)}}},
            {"ready": true, "restartCount": 3, "state": running, "lastState": {"terminated": {"finishedAt": ts(20 * 86_400)}}}]}),
            ),
            ["test14", "2/2", "Running", "9 (5d ago)", "<unknown>"],
        ),
        (
            pod(
                "test15",
                two(),
                json!({"phase": "podPhase", "conditions": [
            {"type": "PodScheduled", "status": "False", "reason": "SchedulingGated"}]}),
            ),
            ["test15", "0/2", "SchedulingGated", "0", "<unknown>"],
        ),
        (
            pod(
                "test19",
                json!({"containers": [{}]}),
                json!({"phase": "Running", "containerStatuses": [{"state": running}]}),
            ),
            ["test19", "0/1", "Running", "0", "<unknown>"],
        ),
    ];
    for (p, want) in cases {
        let want: Vec<Value> = want.iter().map(|s| json!(s)).collect();
        assert_eq!(pod5(&p), want, "{p}");
    }
}

#[test]
fn pods_terminating_and_completed() {
    let deleted = |phase: &str, statuses: Value| {
        json!({"metadata": {"name": "t", "deletionTimestamp": ts(1)}, "spec": {"containers": [{}]},
               "status": {"phase": phase, "containerStatuses": statuses}})
    };
    let completed = json!([{"state": {"terminated": {"reason": "Completed", "exitCode": 0}}}]);
    // test18: a succeeded pod being deleted stays Completed, with the row condition.
    let row = tables::printer("", "Pod").row(&deleted("Succeeded", completed.clone()), NOW);
    assert_eq!(row.cells[2], "Completed");
    assert_eq!(
        row.conditions,
        [
            json!({"type": "Completed", "status": "True", "reason": "Succeeded", "message": "The pod has completed successfully."})
        ]
    );
    // test19, test20: running or pending pods being deleted are Terminating.
    assert_eq!(
        cells(
            "",
            "Pod",
            &deleted("Running", json!([{"state": {"running": {}}}]))
        )[2],
        "Terminating"
    );
    assert_eq!(
        cells("", "Pod", &deleted("Pending", json!([])))[2],
        "Terminating"
    );
    // test17: failed, with the Failed condition.
    let failed = pod(
        "test17",
        json!({"containers": [{}]}),
        json!({"phase": "Failed",
        "containerStatuses": [{"state": {"terminated": {"reason": "Error", "exitCode": 1}}}]}),
    );
    let row = tables::printer("", "Pod").row(&failed, NOW);
    assert_eq!(row.cells[2], "Error");
    assert_eq!(row.conditions[0]["message"], "The pod failed.");
    // A node lost: Unknown.
    let lost = json!({"metadata": {"name": "t", "deletionTimestamp": ts(1)}, "spec": {"containers": [{}]},
                      "status": {"phase": "Running", "reason": "NodeLost"}});
    assert_eq!(cells("", "Pod", &lost)[2], "Unknown");
    // Signals and exit codes without reasons.
    let killed = pod(
        "k",
        json!({"containers": [{}]}),
        json!({"phase": "Running",
        "containerStatuses": [{"state": {"terminated": {"signal": 9, "exitCode": 137}}}]}),
    );
    assert_eq!(cells("", "Pod", &killed)[2], "Signal:9");
    let init_failed = pod(
        "i",
        json!({"initContainers": [{}], "containers": [{}]}),
        json!({"phase": "Pending",
        "initContainerStatuses": [{"state": {"terminated": {"exitCode": 2}}}]}),
    );
    assert_eq!(cells("", "Pod", &init_failed)[2], "Init:ExitCode:2");
}

#[test]
fn print_pod_with_restartable_init_containers_of_go() {
    let sidecars = json!([{"name": "restartable-init-1", "restartPolicy": "Always"},
                          {"name": "restartable-init-2", "restartPolicy": "Always"}]);
    let spec = json!({"initContainers": sidecars, "containers": [{}]});
    let last10 = json!({"terminated": {"finishedAt": ts(10)}});
    let cases = [
        (
            pod(
                "test1",
                spec.clone(),
                json!({"phase": "Pending", "conditions": [{"type": "Initialized", "status": "False"}],
            "initContainerStatuses": [
                {"name": "restartable-init-1", "restartCount": 3, "state": {"running": {}}, "started": false, "lastState": last10},
                {"name": "restartable-init-2", "state": {"waiting": {}}, "started": false}],
            "containerStatuses": [{"state": {"waiting": {}}}]}),
            ),
            ["test1", "0/3", "Init:0/2", "3 (10s ago)", "<unknown>"],
        ),
        (
            pod(
                "test1",
                spec.clone(),
                json!({"phase": "Pending", "conditions": [{"type": "Initialized", "status": "False"}],
            "initContainerStatuses": [
                {"name": "restartable-init-1", "restartCount": 3, "state": {"running": {}}, "started": true, "lastState": last10},
                {"name": "restartable-init-2", "state": {"running": {}}, "started": false}],
            "containerStatuses": [{"state": {"waiting": {}}}]}),
            ),
            ["test1", "0/3", "Init:1/2", "3 (10s ago)", "<unknown>"],
        ),
        (
            pod(
                "test2",
                spec.clone(),
                json!({"phase": "Running", "conditions": [{"type": "Initialized", "status": "True"}],
            "initContainerStatuses": [
                {"name": "restartable-init-1", "restartCount": 3, "state": {"running": {}}, "started": true, "lastState": last10},
                {"name": "restartable-init-2", "state": {"running": {}}, "started": true}],
            "containerStatuses": [{"ready": true, "restartCount": 4, "state": {"running": {}},
                                   "lastState": {"terminated": {"finishedAt": ts(20)}}}]}),
            ),
            ["test2", "1/3", "Running", "7 (10s ago)", "<unknown>"],
        ),
        (
            pod(
                "test3",
                spec,
                json!({"phase": "Succeeded", "conditions": [{"type": "Initialized", "status": "True"}],
            "initContainerStatuses": [
                {"name": "restartable-init-1", "restartCount": 3, "state": {"terminated": {"reason": "Error", "exitCode": 137}},
                 "started": false, "lastState": last10},
                {"name": "restartable-init-2", "state": {"terminated": {"reason": "Error", "exitCode": 137}}, "started": false}],
            "containerStatuses": [{"restartCount": 4, "state": {"terminated": {"reason": "Completed", "exitCode": 0}},
                                   "lastState": {"terminated": {"finishedAt": ts(20)}}}]}),
            ),
            ["test3", "0/3", "Completed", "7 (10s ago)", "<unknown>"],
        ),
        // test4: statuses of containers the spec does not have.
        (
            pod(
                "test4",
                json!({"initContainers": [{"name": "init1", "image": "initimage"},
                {"name": "sidecar1", "image": "sidecarimage", "restartPolicy": "Always"}],
                "containers": [{"name": "container1", "image": "containerimage"}]}),
                json!({"phase": "Running",
                "initContainerStatuses": [{"name": "initinvalid"}, {"name": "init1"}, {"name": "sidecar1"}],
                "containerStatuses": [{"name": "containerinvalid"}, {"name": "container1"}]}),
            ),
            ["test4", "0/2", "Init:0/2", "0", "<unknown>"],
        ),
    ];
    for (p, want) in cases {
        let want: Vec<Value> = want.iter().map(|s| json!(s)).collect();
        assert_eq!(pod5(&p), want, "{p}");
    }
}

#[test]
fn print_pod_wide_of_go() {
    let gates = json!([{"conditionType": "condition1"}, {"conditionType": "condition2"}, {"conditionType": "condition3"}]);
    let status = |ips: Value| {
        json!({"phase": "podPhase", "podIPs": ips, "nominatedNodeName": "node1",
        "conditions": [{"type": "condition1", "status": "False"}, {"type": "condition2", "status": "True"}],
        "containerStatuses": [{"ready": true, "restartCount": 3, "state": {"running": {}}}, {"restartCount": 3}]})
    };
    let spec = json!({"containers": [{}, {}], "nodeName": "test1", "readinessGates": gates});
    let want = [
        "test1",
        "1/2",
        "podPhase",
        "6",
        "<unknown>",
        "1.1.1.1",
        "test1",
        "node1",
        "1/3",
    ]
    .map(|s| json!(s));
    assert_eq!(
        cells(
            "",
            "Pod",
            &pod("test1", spec.clone(), status(json!([{"ip": "1.1.1.1"}])))
        ),
        want
    );
    assert_eq!(
        cells(
            "",
            "Pod",
            &pod(
                "test1",
                spec,
                status(json!([{"ip": "1.1.1.1"}, {"ip": "2001:db8::"}]))
            )
        ),
        want
    );
    let bare = pod(
        "test2",
        two(),
        json!({"phase": "podPhase", "containerStatuses": [
        {"ready": true, "restartCount": 3, "state": {"running": {}}},
        {"state": {"waiting": {"reason": "ContainerWaitingReason"}}, "restartCount": 3}]}),
    );
    assert_eq!(
        cells("", "Pod", &bare),
        [
            "test2",
            "1/2",
            "ContainerWaitingReason",
            "6",
            "<unknown>",
            "<none>",
            "<none>",
            "<none>",
            "<none>"
        ]
        .map(|s| json!(s))
    );
}
