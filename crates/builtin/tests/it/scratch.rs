use crdkit_builtin::{defaults, validation};
use serde_json::json;

#[test]
fn scratch() {
    let mut d = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "default", "uid": "u1"},
        "spec": {"selector": {"matchLabels": {"app": "web"}},
            "template": {"metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.25",
                    "ports": [{"containerPort": 80}],
                    "resources": {"limits": {"cpu": 0.5, "memory": "1.5Gi"}},
                    "livenessProbe": {"httpGet": {"port": 80}}}]}}}});
    defaults::apply("apps/v1", "Deployment", &mut d);
    defaults::prepare_for_create("apps/v1", "Deployment", &mut d);
    println!("{}", serde_json::to_string_pretty(&d).unwrap());
    println!(
        "{:?}",
        validation::validate_create("apps/v1", "Deployment", &d)
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    let mut s = json!({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "web", "namespace": "default"},
        "spec": {"type": "NodePort", "selector": {"app": "web"}, "ports": [{"port": 80}, {"port": 443, "name": "https"}]}});
    defaults::apply("v1", "Service", &mut s);
    let mut alloc = defaults::ServiceAllocator::default();
    let a = alloc.allocate_create(&mut s);
    println!("{a:?}");
    defaults::prepare_for_create("v1", "Service", &mut s);
    println!("{}", serde_json::to_string_pretty(&s).unwrap());
    println!(
        "{:?}",
        validation::validate_create("v1", "Service", &s)
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    let mut j = json!({"metadata": {"name": "pi", "namespace": "default", "uid": "abc"},
        "spec": {"template": {"spec": {"containers": [{"name": "pi", "image": "perl"}], "restartPolicy": "Never"}}}});
    defaults::apply("batch/v1", "Job", &mut j);
    defaults::prepare_for_create("batch/v1", "Job", &mut j);
    println!("{}", serde_json::to_string_pretty(&j).unwrap());
    println!(
        "{:?}",
        validation::validate_create("batch/v1", "Job", &j)
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
    let mut p = json!({"metadata": {"name": "p", "namespace": "default"},
        "spec": {"containers": [{"name": "c", "image": "busybox", "resources": {"limits": {"cpu": "1", "memory": "1Gi"}}}]}});
    defaults::apply("v1", "Pod", &mut p);
    defaults::prepare_for_create("v1", "Pod", &mut p);
    println!("{}", serde_json::to_string_pretty(&p).unwrap());
    println!(
        "{:?}",
        validation::validate_create("v1", "Pod", &p)
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
    );
}
