use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Widget {
    priority: i64,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self['xyz'].prio < 10"))]
    components: BTreeMap<String, Widget>,
}

fn main() {}
