//! CEL rules over k8s-openapi types (`kube` feature): int-or-string, quantities, times, label
//! selectors and conditions are typed as the API server types them, so these rules compile,
//! and the CRD passes the API server's checks.

use std::collections::BTreeMap;

use crdkit::CustomResource;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{Condition, LabelSelector, Time};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use serde::{Deserialize, Serialize};

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "k8s.example.com", version = "v1", kind = "Workload", status = WorkloadStatus)]
#[crd(root_validation(
    rule = "!has(self.status) || self.status.conditions.all(c, c.type != 'Failed' || c.status != 'True')",
    message = "failed"
))]
#[serde(rename_all = "camelCase")]
pub struct WorkloadSpec {
    #[crd(validation(
        rule = "type(self) == int ? self > 0 && self < 65536 : self.matches('^[a-z]+$')",
        message = "a port number or name"
    ))]
    pub port: IntOrString,
    #[crd(validation(
        rule = "quantity(string(self)).isLessThan(quantity('64Gi'))",
        message = "too much memory"
    ))]
    pub memory: Quantity,
    #[crd(validation(rule = "self < timestamp('2100-01-01T00:00:00Z')"))]
    pub not_after: Time,
    #[crd(validation(
        rule = "!has(self.matchLabels) || self.matchLabels.all(k, k.size() <= 63)",
        message = "label keys are at most 63 characters"
    ))]
    pub selector: LabelSelector,
    #[crd(max_properties = 16, values(max_length = 63))]
    pub labels: BTreeMap<String, String>,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct WorkloadStatus {
    #[crd(max_items = 16, list_type = "map", list_map_keys("type"))]
    pub conditions: Vec<Condition>,
}

#[test]
fn the_api_server_admits_the_crd() {
    let crd = Workload::crd().unwrap();
    assert_eq!(crdkit::crd_check::check_crd_full(&crd), vec![]);
}
