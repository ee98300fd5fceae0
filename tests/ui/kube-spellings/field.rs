use serde::{Deserialize, Serialize};

// kube-derive's `#[x_kube(..)]` keys, moved into `#[crd(..)]`.
#[derive(crdkit::Schema, Serialize, Deserialize)]
struct S {
    #[crd(validation = Rule::new("self != 'illegal'").message(Message::Expression("'string cannot be illegal'".into())).reason(Reason::FieldValueForbidden))]
    legal: String,
    #[crd(merge_strategy = ListMerge::Map(vec!["name".into()]))]
    ports: Vec<Port>,
    #[crd(validation = ("self != 'also not that'", "some pretty good reason"))]
    other: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize)]
struct Port {
    name: String,
}

fn main() {}
