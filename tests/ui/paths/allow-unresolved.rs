// `allow_unresolved` turns the check of a path the type graph cannot show into a warning;
// denied here, so that this case shows it.
#![deny(deprecated)]

use serde::{Deserialize, Serialize};

#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(
    group = "example.com",
    version = "v1",
    kind = "Foo",
    status = FooStatus,
    scale(spec_replicas = ".spec.replicas", status_replicas = ".status.replicas", allow_unresolved),
    print_column(name = "Owner", json_path = ".metadata.annotations['owner']", allow_unresolved)
)]
pub struct FooSpec {
    x: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct FooStatus {
    ready: bool,
}

fn main() {}
