use serde::{Deserialize, Serialize};

fn check(_: &str) -> Result<(), String> {
    Ok(())
}

// The validation attributes of garde and validator are read by the derive (it declares them
// as helpers, so these compile without garde's and validator's derives): a rule without a
// schema keyword is refused, never dropped.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[garde(custom(check))]
    name: String,
    #[garde(ip)]
    address: String,
    #[validate(must_match(other = "name"))]
    again: String,
    #[validate(credit_card)]
    card: String,
    // Kept client-side on purpose: no error.
    #[garde(custom(check), length(max = 10))]
    #[crd(allow_client_only)]
    note: String,
}

fn main() {}
