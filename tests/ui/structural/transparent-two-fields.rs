use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(transparent)]
struct S {
    a: String,
    b: String,
}

// One field left once the skipped one is dropped: fine.
#[derive(crdkit::Schema, Serialize, Deserialize)]
#[serde(transparent)]
struct One {
    a: String,
    #[serde(skip)]
    b: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Skipped(#[serde(skip)] String);

fn main() {}
