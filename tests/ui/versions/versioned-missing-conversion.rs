use serde::{Deserialize, Serialize};

#[crdkit::versioned(
    version(name = "v1beta1", storage),
    version(name = "v1"),
    webhook(url = "https://conversion.example.com/convert")
)]
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "example.com", kind = "CronTab", namespaced)]
pub struct CronTabSpec {
    // No conversion from text to a number: std has none, and none is named.
    #[versioned(changed(since = "v1", from_type = "String"))]
    port: u16,
    // Objects of v1beta1 have no value for it, and the type has no Default.
    #[versioned(added(since = "v1"))]
    mode: Mode,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    Fast,
    Slow,
}

fn main() {}
