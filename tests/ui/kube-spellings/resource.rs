use serde::{Deserialize, Serialize};

// kube-derive's `#[kube(..)]` keys, moved into `#[crd(..)]`: each error gives crdkit's form.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "clux.dev",
    version = "v1",
    kind = "Foo",
    doc = "Custom resource representing a Foo",
    shortname = "f",
    selectable = "spec.name",
    attr = "allow(deprecated)",
    deprecated = "use v2",
    printcolumn = r#"{"name":"Spec", "type":"string", "description":"name of foo", "jsonPath":".spec.name"}"#,
    scale = r#"{"specReplicasPath":".spec.replicas", "statusReplicasPath":".status.replicas"}"#,
    no_spec,
    crates(kube_core = "::kube::core"),
    schema = "manual",
    validation = Rule::new("self.metadata.name != 'forbidden'").message("forbidden name")
)]
pub struct FooSpec {
    name: String,
}

fn main() {}
