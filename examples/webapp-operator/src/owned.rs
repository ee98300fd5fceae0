//! The objects a WebApp owns, as the operator applies them: only the fields it has an opinion
//! on (server-side apply owns exactly those), everything else left to the API server's defaults.
//!
//! Each carries a controller reference with `blockOwnerDeletion`, so the garbage collector
//! removes it with its WebApp and a foreground deletion of the WebApp waits for it.

use std::collections::BTreeMap;

use k8s_openapi::api::apps::v1::{Deployment, DeploymentSpec};
use k8s_openapi::api::core::v1::{
    Container, ContainerPort, EnvFromSource, EnvVar, PodSpec, PodTemplateSpec, Secret,
    SecretEnvSource, Service, ServiceAccount, ServicePort, ServiceSpec,
};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{LabelSelector, ObjectMeta};
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use kube::{Resource, ResourceExt};

use crate::WebApp;

/// The label naming the WebApp an object belongs to (also the Deployment's selector).
pub const NAME_LABEL: &str = "app.kubernetes.io/name";
/// The label saying who manages an object.
pub const MANAGED_BY_LABEL: &str = "app.kubernetes.io/managed-by";
/// The container's name and the named port the Service targets.
pub const CONTAINER: &str = "web";
const PORT_NAME: &str = "http";

/// The selector of the WebApp's Pods (immutable in a Deployment, so never changed).
#[must_use]
pub fn selector(app: &WebApp) -> BTreeMap<String, String> {
    BTreeMap::from([(NAME_LABEL.to_owned(), app.name_any())])
}

/// Metadata of every owned object: the WebApp's name and namespace, the labels and the
/// controller reference.
#[must_use]
pub fn metadata(app: &WebApp) -> ObjectMeta {
    let owner = app.controller_owner_ref(&()).map(|mut r| {
        r.block_owner_deletion = Some(true);
        r
    });
    let mut labels = selector(app);
    labels.insert(MANAGED_BY_LABEL.to_owned(), crate::MANAGER.to_owned());
    ObjectMeta {
        name: Some(app.name_any()),
        namespace: app.namespace(),
        labels: Some(labels),
        owner_references: owner.map(|o| vec![o]),
        ..ObjectMeta::default()
    }
}

/// The ServiceAccount the Pods run as.
#[must_use]
pub fn service_account(app: &WebApp) -> ServiceAccount {
    ServiceAccount {
        metadata: metadata(app),
        ..ServiceAccount::default()
    }
}

/// The Secret holding the secret environment, given as `stringData`: the API server folds it
/// into `data` (base64) and never stores `stringData`.
#[must_use]
pub fn secret(app: &WebApp) -> Secret {
    Secret {
        metadata: metadata(app),
        string_data: Some(app.spec.secret.clone()),
        ..Secret::default()
    }
}

/// The Deployment: `spec.replicas` copies of the image, the plain environment inline and the
/// Secret's keys through `envFrom`. The strategy, `revisionHistoryLimit`,
/// `progressDeadlineSeconds` and the Pod template's defaults come from the API server.
#[must_use]
pub fn deployment(app: &WebApp) -> Deployment {
    let env: Vec<EnvVar> = app
        .spec
        .env
        .iter()
        .map(|(name, value)| EnvVar {
            name: name.clone(),
            value: Some(value.clone()),
            ..EnvVar::default()
        })
        .collect();
    let container = Container {
        name: CONTAINER.to_owned(),
        image: Some(app.spec.image.clone()),
        ports: Some(vec![ContainerPort {
            name: Some(PORT_NAME.to_owned()),
            container_port: app.spec.port,
            ..ContainerPort::default()
        }]),
        env: (!env.is_empty()).then_some(env),
        env_from: Some(vec![EnvFromSource {
            secret_ref: Some(SecretEnvSource {
                name: app.name_any(),
                ..SecretEnvSource::default()
            }),
            ..EnvFromSource::default()
        }]),
        ..Container::default()
    };
    Deployment {
        metadata: metadata(app),
        spec: DeploymentSpec {
            replicas: Some(app.spec.replicas),
            selector: LabelSelector {
                match_labels: Some(selector(app)),
                ..LabelSelector::default()
            },
            template: PodTemplateSpec {
                metadata: Some(ObjectMeta {
                    labels: Some(selector(app)),
                    ..ObjectMeta::default()
                }),
                spec: Some(PodSpec {
                    service_account_name: Some(app.name_any()),
                    containers: vec![container],
                    ..PodSpec::default()
                }),
            },
            ..DeploymentSpec::default()
        },
        ..Deployment::default()
    }
}

/// The Service: port 80 to the container's named port. Its type (`ClusterIP`), cluster IP,
/// protocol and session affinity come from the API server.
#[must_use]
pub fn service(app: &WebApp) -> Service {
    Service {
        metadata: metadata(app),
        spec: Some(ServiceSpec {
            selector: Some(selector(app)),
            ports: Some(vec![ServicePort {
                name: Some(PORT_NAME.to_owned()),
                port: 80,
                target_port: Some(IntOrString::String(PORT_NAME.to_owned())),
                ..ServicePort::default()
            }]),
            ..ServiceSpec::default()
        }),
        ..Service::default()
    }
}
