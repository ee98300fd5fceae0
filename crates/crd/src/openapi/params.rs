//! The parameters of routes: apiserver `pkg/endpoints/installer.go` `AddObjectParams` (one query
//! parameter per field of an option struct, `typeToJSON` for its type, the struct's swagger doc
//! for its description), read once from `data/parameters.json`, and the `pretty`, `namespace`
//! and `name` parameters of apiextensions-apiserver's `buildRoute`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde::Deserialize;

pub(crate) const PRETTY: &str = "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).";
pub(crate) const NAMESPACE: &str = "object name and auth scope, such as for teams and projects";

/// Where a parameter goes (go-restful's parameter kinds the builder uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum In {
    /// The request body.
    Body,
    /// `{name}` or `{namespace}` in the path.
    Path,
    /// A query parameter.
    Query,
}

impl In {
    pub fn as_str(self) -> &'static str {
        match self {
            In::Body => "body",
            In::Path => "path",
            In::Query => "query",
        }
    }
}

/// One parameter of a route.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Param {
    pub name: String,
    pub description: String,
    pub place: In,
    /// `string`, `integer` or `boolean` (the OpenAPI type of the data type).
    pub ty: &'static str,
    pub required: bool,
}

impl Param {
    pub fn query(name: &str, description: &str, ty: &'static str) -> Param {
        Param {
            name: name.to_owned(),
            description: description.to_owned(),
            place: In::Query,
            ty,
            required: false,
        }
    }

    pub fn path(name: &str, description: &str) -> Param {
        Param {
            name: name.to_owned(),
            description: description.to_owned(),
            place: In::Path,
            ty: "string",
            required: true,
        }
    }
}

#[derive(Deserialize)]
struct Data {
    options: BTreeMap<String, Vec<Field>>,
}

#[derive(Deserialize)]
struct Field {
    name: String,
    #[serde(rename = "type")]
    ty: String,
    description: String,
}

fn data() -> &'static BTreeMap<String, Vec<Field>> {
    static DATA: OnceLock<BTreeMap<String, Vec<Field>>> = OnceLock::new();
    DATA.get_or_init(|| {
        serde_json::from_str::<Data>(include_str!("data/parameters.json"))
            .map(|d| d.options)
            .unwrap_or_default()
    })
}

fn json_type(ty: &str) -> &'static str {
    match ty {
        "integer" => "integer",
        "boolean" => "boolean",
        "number" => "number",
        _ => "string",
    }
}

/// `AddObjectParams` of the option struct `options` (`ListOptions`, `GetOptions`, ...).
pub(crate) fn object_params(options: &str) -> Vec<Param> {
    data()
        .get(options)
        .map(|fields| {
            fields
                .iter()
                .map(|f| Param::query(&f.name, &f.description, json_type(&f.ty)))
                .collect()
        })
        .unwrap_or_default()
}

/// The option struct of a route's action (`buildRoute`'s switch).
pub(crate) fn options_of(action: &str) -> Option<&'static str> {
    match action {
        "get" => Some("GetOptions"),
        "list" | "deletecollection" => Some("ListOptions"),
        "put" => Some("UpdateOptions"),
        "patch" => Some("PatchOptions"),
        "post" => Some("CreateOptions"),
        "delete" => Some("DeleteOptions"),
        _ => None,
    }
}
