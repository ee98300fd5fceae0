use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.port > 0"))]
struct Http {
    port: i64,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(tag = "type")]
enum Listener {
    Http(Http),
    Off {},
}

fn main() {}
