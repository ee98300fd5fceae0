use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Spec {
    #[crd(validation(rule = "self.all(k, self[k].contains('secret') == false)"))]
    labels: BTreeMap<String, String>,
}

fn main() {}
