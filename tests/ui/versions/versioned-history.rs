use serde::{Deserialize, Serialize};

#[crdkit::versioned(version(name = "v1alpha1"), version(name = "v1beta1"), version(name = "v1", storage))]
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", kind = "CronTab", version = "v1", namespaced)]
pub struct CronTabSpec {
    #[versioned(added(since = "v1beta"))]
    a: String,
    #[versioned(added(since = "v1alpha1"))]
    b: String,
    #[versioned(added(since = "v1"), renamed(since = "v1beta1", from = "old_c"))]
    c: String,
    #[versioned(removed(since = "v1beta1"), deprecated(since = "v1"))]
    d: String,
    #[versioned(renamed(since = "v1", from = "e1"), renamed(since = "v1", from = "e2"))]
    e: String,
    #[versioned(changed(since = "v1"), moved(since = "v1"))]
    f: String,
}

fn main() {}
