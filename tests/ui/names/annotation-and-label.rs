use serde::{Deserialize, Serialize};

// The CRD's labels and annotations, checked as the API server checks any object's metadata.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    annotation("not a key", "fine"),
    label("app.kubernetes.io/name", "not a value!"),
    label("app.kubernetes.io/name", "foo")
)]
pub struct FooSpec {
    x: String,
}

fn main() {}
