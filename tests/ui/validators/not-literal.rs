use serde::{Deserialize, Serialize};

const MAX: u64 = 10;

// The schema is written at compile time: bounds and patterns must be literals.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[garde(length(max = MAX))]
    name: String,
    #[validate(regex(path = *NAME_RE))]
    other: String,
    #[garde(range(min = i32::MIN))]
    count: i32,
}

fn main() {}
