use serde::{Deserialize, Serialize};

mod parts {
    use serde::{Deserialize, Serialize};

    #[derive(crdkit::Schema, Serialize, Deserialize)]
    pub struct Limits {
        pub cpu: String,
        pub memory: i64,
    }
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
#[crd(validation(rule = "self.limits.memory.startsWith('1')"))]
struct Spec {
    limits: parts::Limits,
}

fn main() {}
