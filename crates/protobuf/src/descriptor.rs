//! The message descriptors of Kubernetes 1.35, read once from `data/descriptors.txt` (written
//! by `examples/generate.rs` from the release's `generated.proto` files and Go structs).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::special::Special;

const DATA: &str = include_str!("../data/descriptors.txt");

/// A scalar's protobuf type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scalar {
    String,
    Bool,
    Int32,
    Int64,
    Uint32,
    Uint64,
    Double,
    Float,
    Bytes,
}

impl Scalar {
    fn parse(code: &str) -> Option<Self> {
        Some(match code {
            "s" => Self::String,
            "b" => Self::Bool,
            "i" => Self::Int32,
            "l" => Self::Int64,
            "u" => Self::Uint32,
            "U" => Self::Uint64,
            "d" => Self::Double,
            "f" => Self::Float,
            "y" => Self::Bytes,
            _ => return None,
        })
    }

    /// The wire type a single value is written with.
    pub(crate) fn wire(self) -> u8 {
        match self {
            Self::String | Self::Bytes => crate::wire::LEN,
            Self::Double => crate::wire::FIXED64,
            Self::Float => crate::wire::FIXED32,
            _ => crate::wire::VARINT,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    Scalar(Scalar),
    Message(MessageId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Label {
    Single,
    Repeated,
    /// `map<key, value>`: the key's scalar type; `Field::ty` is the value's.
    Map(Scalar),
}

/// Index of a message in [`Registry::messages`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MessageId(pub(crate) u32);

#[derive(Debug)]
pub(crate) struct Field {
    pub(crate) number: u32,
    /// The Go field's JSON name; `None` for `json:"-"` and embedded structs.
    pub(crate) json: Option<&'static str>,
    pub(crate) ty: Type,
    pub(crate) label: Label,
    /// A Go pointer: written only when set, and `null` (or omitted) when not.
    pub(crate) pointer: bool,
    pub(crate) omitempty: bool,
    pub(crate) omitzero: bool,
    /// An embedded struct whose fields Go's encoding/json writes into the parent object.
    pub(crate) inline: bool,
}

#[derive(Debug)]
pub(crate) struct Message {
    pub(crate) name: &'static str,
    /// The protobuf package (`k8s.io.api.apps.v1`).
    pub(crate) package: &'static str,
    /// Ordered by number, the order gogo writes them in.
    pub(crate) fields: Vec<Field>,
    pub(crate) special: Option<Special>,
}

impl Message {
    pub(crate) fn field(&self, number: u32) -> Option<(usize, &Field)> {
        let i = self
            .fields
            .binary_search_by_key(&number, |f| f.number)
            .ok()?;
        Some((i, &self.fields[i]))
    }
}

#[derive(Debug)]
struct Package {
    name: &'static str,
    /// `apps/v1`, `v1`; `None` for apimachinery's packages without a group.
    group_version: Option<&'static str>,
}

#[derive(Debug)]
pub(crate) struct Registry {
    pub(crate) messages: Vec<Message>,
    /// group version → kind → message.
    kinds: HashMap<&'static str, HashMap<&'static str, MessageId>>,
    meta: HashMap<&'static str, MessageId>,
}

/// Kinds every group version serves from meta/v1 (apimachinery `AddToGroupVersion`:
/// `WatchEvent`, the options, `Status`), and the discovery documents of `v1`.
const META_KINDS: &[&str] = &[
    "Status",
    "WatchEvent",
    "DeleteOptions",
    "ListOptions",
    "GetOptions",
    "CreateOptions",
    "UpdateOptions",
    "PatchOptions",
    "APIVersions",
    "APIGroupList",
    "APIGroup",
    "APIResourceList",
];

pub(crate) fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| Registry::parse(DATA))
}

impl Registry {
    fn parse(data: &'static str) -> Self {
        let mut packages: Vec<Package> = Vec::new();
        let mut messages: Vec<Message> = Vec::new();
        // Field types name messages that may come later: resolve after reading everything.
        let mut pending: Vec<(usize, usize, &'static str, &'static str)> = Vec::new();
        for line in data.lines() {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix("P ") {
                let (name, gv) = rest.split_once(' ').expect("package line");
                packages.push(Package {
                    name,
                    group_version: (gv != "-").then_some(gv),
                });
            } else if let Some(name) = line.strip_prefix("M ") {
                let package = packages.last().expect("a package line first").name;
                messages.push(Message {
                    name,
                    package,
                    fields: Vec::new(),
                    special: None,
                });
            } else {
                let mut parts = line.split(' ');
                let (Some(number), Some(json), Some(ty), Some(flags)) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    panic!("descriptor line {line:?}")
                };
                let value = parts.next();
                let label = if flags.contains('{') {
                    Label::Map(Scalar::parse(ty).expect("map key"))
                } else if flags.contains('[') {
                    Label::Repeated
                } else {
                    Label::Single
                };
                let ty_code = value.unwrap_or(ty);
                let m = messages.len() - 1;
                let f = messages[m].fields.len();
                let ty = if let Some(s) = Scalar::parse(ty_code) {
                    Type::Scalar(s)
                } else {
                    pending.push((m, f, messages[m].package, ty_code));
                    Type::Message(MessageId(u32::MAX))
                };
                messages[m].fields.push(Field {
                    number: number.parse().expect("field number"),
                    json: (json != "-").then_some(json),
                    ty,
                    label,
                    pointer: flags.contains('*'),
                    omitempty: flags.contains('o'),
                    omitzero: flags.contains('z'),
                    inline: flags.contains('='),
                });
            }
        }
        let by_name: HashMap<String, MessageId> = messages
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let id = MessageId(u32::try_from(i).expect("message count"));
                (format!("{}.{}", m.package, m.name), id)
            })
            .collect();
        for (m, f, package, code) in pending {
            let (pkg, name) = code.split_once('.').expect("message reference");
            let pkg = if pkg.is_empty() {
                package
            } else {
                packages[pkg.parse::<usize>().expect("package index")].name
            };
            let id = by_name[&format!("{pkg}.{name}")];
            messages[m].fields[f].ty = Type::Message(id);
        }
        for (name, id) in &by_name {
            messages[id.0 as usize].special = Special::of(name);
        }
        let mut kinds: HashMap<&'static str, HashMap<&'static str, MessageId>> = HashMap::new();
        let mut meta = HashMap::new();
        for (i, m) in messages.iter().enumerate() {
            let id = MessageId(u32::try_from(i).expect("message count"));
            let package = packages
                .iter()
                .find(|p| p.name == m.package)
                .expect("package");
            if let Some(gv) = package.group_version {
                kinds.entry(gv).or_default().insert(m.name, id);
            }
            if m.package == "k8s.io.apimachinery.pkg.apis.meta.v1" && META_KINDS.contains(&m.name) {
                meta.insert(m.name, id);
            }
        }
        Self {
            messages,
            kinds,
            meta,
        }
    }

    pub(crate) fn message(&self, id: MessageId) -> &Message {
        &self.messages[id.0 as usize]
    }

    /// The message of a kind in a group version, as the API server's scheme finds it: the
    /// group version's own types, then the meta/v1 kinds registered in every group version
    /// (`v1` `Status`). Unknown group versions (custom resources) have none.
    pub(crate) fn kind(&self, api_version: &str, kind: &str) -> Option<MessageId> {
        let kinds = self.kinds.get(api_version)?;
        kinds.get(kind).or_else(|| self.meta.get(kind)).copied()
    }

    /// `k8s.io.api.apps.v1.Deployment`.
    #[cfg(test)]
    pub(crate) fn full_name(&self, id: MessageId) -> String {
        let m = self.message(id);
        format!("{}.{}", m.package, m.name)
    }
}

#[cfg(test)]
mod tests;
