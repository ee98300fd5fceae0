//! 50 CEL rules on a CronTab-like resource; without the `rules` feature, the same types
//! without rules. `cargo build --features rules` against `cargo build` measures what the
//! compile-time CEL checks cost.
#![allow(dead_code)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(
    feature = "rules",
    crd(validation(rule = "self.weight <= 100 || !self.primary"))
)]
#[cfg_attr(
    feature = "rules",
    crd(validation(rule = "has(self.value) ? self.value.size() > 0 : true"))
)]
pub struct Item {
    #[crd(max_length = 63)]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self.size() <= 63")))]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.matches('^[a-z][a-z0-9-]*$')"))
    )]
    pub name: String,
    #[crd(max_length = 256)]
    #[cfg_attr(feature = "rules", crd(validation(rule = "!self.contains('\\n')")))]
    pub value: Option<String>,
    #[cfg_attr(feature = "rules", crd(validation(rule = "self >= 0")))]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self != 7")))]
    pub weight: i64,
    #[cfg_attr(feature = "rules", crd(validation(rule = "self || !self")))]
    pub primary: bool,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
#[cfg_attr(
    feature = "rules",
    crd(validation(rule = "self.port != 22 || self.protocol == 'TCP'"))
)]
pub struct Port {
    #[crd(max_length = 15)]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self.size() <= 15")))]
    pub name: String,
    #[cfg_attr(feature = "rules", crd(validation(rule = "self > 0")))]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self < 65536")))]
    pub port: i32,
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self in ['TCP', 'UDP', 'SCTP']"))
    )]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self.size() <= 4")))]
    pub protocol: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub enum Mode {
    Off,
    On,
    Auto,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
#[serde(tag = "type")]
#[cfg_attr(
    feature = "rules",
    crd(validation(rule = "self.type != 'Rolling' || self.maxSurge >= 0"))
)]
pub enum Strategy {
    Recreate {},
    Rolling {
        #[serde(rename = "maxSurge")]
        #[cfg_attr(feature = "rules", crd(validation(rule = "self <= 10")))]
        max_surge: i32,
    },
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct CronTabStatus {
    #[cfg_attr(feature = "rules", crd(validation(rule = "self >= 0")))]
    pub replicas: i32,
    #[crd(format = "date-time")]
    pub last_schedule_time: Option<String>,
}

/// The spec.
#[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "stable.example.com", version = "v1", kind = "CronTab", namespaced, status = CronTabStatus)]
#[cfg_attr(
    feature = "rules",
    crd(root_validation(rule = "self.status.replicas <= self.spec.maxReplicas"))
)]
#[cfg_attr(
    feature = "rules",
    crd(root_validation(rule = "self.metadata.name.size() <= 63"))
)]
#[cfg_attr(
    feature = "rules",
    crd(root_validation(rule = "self.spec.minReplicas <= self.spec.maxReplicas"))
)]
#[cfg_attr(
    feature = "rules",
    crd(validation(
        rule = "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas"
    ))
)]
#[cfg_attr(
    feature = "rules",
    crd(validation(rule = "self.items.all(i, i.name != self.image)"))
)]
#[cfg_attr(
    feature = "rules",
    crd(validation(rule = "!has(self.timeout) || self.timeout.endsWith('s')"))
)]
#[cfg_attr(
    feature = "rules",
    crd(validation(rule = "self.ports.size() <= 8 || self.mode == 'Auto'"))
)]
#[serde(rename_all = "camelCase")]
pub struct CronTabSpec {
    #[cfg_attr(feature = "rules", crd(validation(rule = "self >= 0")))]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self <= 1000")))]
    pub replicas: i32,
    #[cfg_attr(feature = "rules", crd(validation(rule = "self >= 0")))]
    pub min_replicas: i32,
    #[cfg_attr(feature = "rules", crd(validation(rule = "self >= 1")))]
    pub max_replicas: i32,
    #[crd(max_length = 256)]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self.size() > 0")))]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.matches('^[a-z0-9./:-]+$')"))
    )]
    #[cfg_attr(feature = "rules", crd(validation(rule = "!self.endsWith(':latest')")))]
    pub image: String,
    #[crd(max_length = 64)]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.split(' ').size() == 5"))
    )]
    pub schedule: String,
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self == true || self == false"))
    )]
    pub suspend: bool,
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self >= 0.0 && self <= 1.0"))
    )]
    pub ratio: f64,
    #[crd(format = "date-time")]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self < timestamp('2100-01-01T00:00:00Z')"))
    )]
    pub created: String,
    #[crd(max_items = 16, items(max_length = 32))]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.all(t, t.size() <= 32)"))
    )]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "size(self) == size(self.map(t, t.lowerAscii()))"))
    )]
    pub tags: Vec<String>,
    #[crd(max_properties = 32, values(max_length = 63))]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.all(k, k.size() <= 63)"))
    )]
    #[cfg_attr(feature = "rules", crd(validation(rule = "!('forbidden' in self)")))]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.all(k, self[k] != '')"))
    )]
    pub labels: BTreeMap<String, String>,
    #[crd(max_items = 32, list_type = "map", list_map_keys("name"))]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self.all(i, i.name != '')")))]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.exists_one(i, i.primary)"))
    )]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.map(i, i.weight).sum() <= 100"))
    )]
    pub items: Vec<Item>,
    #[crd(max_items = 16)]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.all(p, p.port > 0 && p.port < 65536)"))
    )]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.filter(p, p.protocol == 'TCP').size() <= 8"))
    )]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "self.all(p, self.exists_one(q, q.port == p.port))"))
    )]
    pub ports: Vec<Port>,
    #[cfg_attr(feature = "rules", crd(validation(rule = "self != 'Off' || true")))]
    pub mode: Mode,
    pub strategy: Strategy,
    #[crd(max_length = 63)]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self.lowerAscii() == self")))]
    #[cfg_attr(
        feature = "rules",
        crd(validation(rule = "!self.startsWith('system:')"))
    )]
    pub owner: String,
    #[crd(max_length = 8)]
    #[cfg_attr(feature = "rules", crd(validation(rule = "self.size() <= 8")))]
    pub timeout: Option<String>,
}
