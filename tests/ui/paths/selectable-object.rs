use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", version = "v1", kind = "Foo", selectable_field = ".spec.inner")]
pub struct FooSpec {
    inner: std::collections::BTreeMap<String, String>,
}

fn main() {}
