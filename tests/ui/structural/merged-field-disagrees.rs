use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
pub struct Http {
    pub port: i32,
}

// serde merges the variants into one object, so `port` needs one schema.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(tag = "type")]
enum Probe {
    Http(Http),
    Tcp { port: String },
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(untagged)]
enum Target {
    Named { name: String, port: i64 },
    Numbered { port: i32 },
}

fn main() {}
