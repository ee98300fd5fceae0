//! Every imported module's `crds()` (written by the `current` test with `BLESS=1`).

/// The module path and its `crds()`.
pub type Crds = fn() -> Result<Vec<crdkit::CustomResourceDefinition>, crdkit::CrdError>;

/// Every module of every project.
pub const ALL: &[(&str, Crds)] = &[
    #[cfg(feature = "argo-cd")]
    ("argo_cd::application", crate::argo_cd::application::crds),
    #[cfg(feature = "argo-cd")]
    (
        "argo_cd::application_set",
        crate::argo_cd::application_set::crds,
    ),
    #[cfg(feature = "argo-cd")]
    ("argo_cd::app_project", crate::argo_cd::app_project::crds),
    #[cfg(feature = "cert-manager")]
    (
        "cert_manager::challenge",
        crate::cert_manager::challenge::crds,
    ),
    #[cfg(feature = "cert-manager")]
    ("cert_manager::order", crate::cert_manager::order::crds),
    #[cfg(feature = "cert-manager")]
    (
        "cert_manager::certificate_request",
        crate::cert_manager::certificate_request::crds,
    ),
    #[cfg(feature = "cert-manager")]
    (
        "cert_manager::certificate",
        crate::cert_manager::certificate::crds,
    ),
    #[cfg(feature = "cert-manager")]
    (
        "cert_manager::cluster_issuer",
        crate::cert_manager::cluster_issuer::crds,
    ),
    #[cfg(feature = "cert-manager")]
    ("cert_manager::issuer", crate::cert_manager::issuer::crds),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::cluster_resource_set_binding",
        crate::cluster_api::cluster_resource_set_binding::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::cluster_resource_set",
        crate::cluster_api::cluster_resource_set::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::kubeadm_config",
        crate::cluster_api::kubeadm_config::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::kubeadm_config_template",
        crate::cluster_api::kubeadm_config_template::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::cluster_class",
        crate::cluster_api::cluster_class::crds,
    ),
    #[cfg(feature = "cluster-api")]
    ("cluster_api::cluster", crate::cluster_api::cluster::crds),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::machine_deployment",
        crate::cluster_api::machine_deployment::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::machine_drain_rule",
        crate::cluster_api::machine_drain_rule::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::machine_health_check",
        crate::cluster_api::machine_health_check::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::machine_pool",
        crate::cluster_api::machine_pool::crds,
    ),
    #[cfg(feature = "cluster-api")]
    ("cluster_api::machine", crate::cluster_api::machine::crds),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::machine_set",
        crate::cluster_api::machine_set::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::kubeadm_control_plane",
        crate::cluster_api::kubeadm_control_plane::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::kubeadm_control_plane_template",
        crate::cluster_api::kubeadm_control_plane_template::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::ip_address_claim",
        crate::cluster_api::ip_address_claim::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::ip_address",
        crate::cluster_api::ip_address::crds,
    ),
    #[cfg(feature = "cluster-api")]
    (
        "cluster_api::extension_config",
        crate::cluster_api::extension_config::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::composite_resource_definition",
        crate::crossplane::composite_resource_definition::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::composition_revision",
        crate::crossplane::composition_revision::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::composition",
        crate::crossplane::composition::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::environment_config",
        crate::crossplane::environment_config::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::managed_resource_activation_policy",
        crate::crossplane::managed_resource_activation_policy::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::managed_resource_definition",
        crate::crossplane::managed_resource_definition::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::usage_apiextensions_crossplane_io",
        crate::crossplane::usage_apiextensions_crossplane_io::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::cron_operation",
        crate::crossplane::cron_operation::crds,
    ),
    #[cfg(feature = "crossplane")]
    ("crossplane::operation", crate::crossplane::operation::crds),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::watch_operation",
        crate::crossplane::watch_operation::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::configuration_revision",
        crate::crossplane::configuration_revision::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::configuration",
        crate::crossplane::configuration::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::deployment_runtime_config",
        crate::crossplane::deployment_runtime_config::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::function_revision",
        crate::crossplane::function_revision::crds,
    ),
    #[cfg(feature = "crossplane")]
    ("crossplane::function", crate::crossplane::function::crds),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::image_config",
        crate::crossplane::image_config::crds,
    ),
    #[cfg(feature = "crossplane")]
    ("crossplane::lock", crate::crossplane::lock::crds),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::provider_revision",
        crate::crossplane::provider_revision::crds,
    ),
    #[cfg(feature = "crossplane")]
    ("crossplane::provider", crate::crossplane::provider::crds),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::cluster_usage",
        crate::crossplane::cluster_usage::crds,
    ),
    #[cfg(feature = "crossplane")]
    (
        "crossplane::usage_protection_crossplane_io",
        crate::crossplane::usage_protection_crossplane_io::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::backend_tls_policy",
        crate::gateway_api::backend_tls_policy::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::gateway_class",
        crate::gateway_api::gateway_class::crds,
    ),
    #[cfg(feature = "gateway-api")]
    ("gateway_api::gateway", crate::gateway_api::gateway::crds),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::grpc_route",
        crate::gateway_api::grpc_route::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::http_route",
        crate::gateway_api::http_route::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::listener_set",
        crate::gateway_api::listener_set::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::reference_grant",
        crate::gateway_api::reference_grant::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::tcp_route",
        crate::gateway_api::tcp_route::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::tls_route",
        crate::gateway_api::tls_route::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::udp_route",
        crate::gateway_api::udp_route::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::x_backend",
        crate::gateway_api::x_backend::crds,
    ),
    #[cfg(feature = "gateway-api")]
    (
        "gateway_api::x_backend_traffic_policy",
        crate::gateway_api::x_backend_traffic_policy::crds,
    ),
    #[cfg(feature = "gateway-api")]
    ("gateway_api::x_mesh", crate::gateway_api::x_mesh::crds),
    #[cfg(feature = "istio")]
    (
        "istio::traffic_extension",
        crate::istio::traffic_extension::crds,
    ),
    #[cfg(feature = "istio")]
    ("istio::wasm_plugin", crate::istio::wasm_plugin::crds),
    #[cfg(feature = "istio")]
    (
        "istio::destination_rule",
        crate::istio::destination_rule::crds,
    ),
    #[cfg(feature = "istio")]
    ("istio::envoy_filter", crate::istio::envoy_filter::crds),
    #[cfg(feature = "istio")]
    ("istio::gateway", crate::istio::gateway::crds),
    #[cfg(feature = "istio")]
    ("istio::proxy_config", crate::istio::proxy_config::crds),
    #[cfg(feature = "istio")]
    ("istio::service_entry", crate::istio::service_entry::crds),
    #[cfg(feature = "istio")]
    ("istio::sidecar", crate::istio::sidecar::crds),
    #[cfg(feature = "istio")]
    (
        "istio::virtual_service",
        crate::istio::virtual_service::crds,
    ),
    #[cfg(feature = "istio")]
    ("istio::workload_entry", crate::istio::workload_entry::crds),
    #[cfg(feature = "istio")]
    ("istio::workload_group", crate::istio::workload_group::crds),
    #[cfg(feature = "istio")]
    (
        "istio::authorization_policy",
        crate::istio::authorization_policy::crds,
    ),
    #[cfg(feature = "istio")]
    (
        "istio::peer_authentication",
        crate::istio::peer_authentication::crds,
    ),
    #[cfg(feature = "istio")]
    (
        "istio::request_authentication",
        crate::istio::request_authentication::crds,
    ),
    #[cfg(feature = "istio")]
    ("istio::telemetry", crate::istio::telemetry::crds),
    #[cfg(feature = "knative")]
    ("knative::certificate", crate::knative::certificate::crds),
    #[cfg(feature = "knative")]
    (
        "knative::configuration",
        crate::knative::configuration::crds,
    ),
    #[cfg(feature = "knative")]
    (
        "knative::cluster_domain_claim",
        crate::knative::cluster_domain_claim::crds,
    ),
    #[cfg(feature = "knative")]
    (
        "knative::domain_mapping",
        crate::knative::domain_mapping::crds,
    ),
    #[cfg(feature = "knative")]
    ("knative::image", crate::knative::image::crds),
    #[cfg(feature = "knative")]
    ("knative::ingress", crate::knative::ingress::crds),
    #[cfg(feature = "knative")]
    ("knative::metric", crate::knative::metric::crds),
    #[cfg(feature = "knative")]
    (
        "knative::pod_autoscaler",
        crate::knative::pod_autoscaler::crds,
    ),
    #[cfg(feature = "knative")]
    ("knative::revision", crate::knative::revision::crds),
    #[cfg(feature = "knative")]
    ("knative::route", crate::knative::route::crds),
    #[cfg(feature = "knative")]
    (
        "knative::serverless_service",
        crate::knative::serverless_service::crds,
    ),
    #[cfg(feature = "knative")]
    ("knative::service", crate::knative::service::crds),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::alertmanager_config",
        crate::prometheus_operator::alertmanager_config::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::alertmanager",
        crate::prometheus_operator::alertmanager::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::pod_monitor",
        crate::prometheus_operator::pod_monitor::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::probe",
        crate::prometheus_operator::probe::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::prometheus_agent",
        crate::prometheus_operator::prometheus_agent::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::prometheus",
        crate::prometheus_operator::prometheus::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::prometheus_rule",
        crate::prometheus_operator::prometheus_rule::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::scrape_config",
        crate::prometheus_operator::scrape_config::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::service_monitor",
        crate::prometheus_operator::service_monitor::crds,
    ),
    #[cfg(feature = "prometheus-operator")]
    (
        "prometheus_operator::thanos_ruler",
        crate::prometheus_operator::thanos_ruler::crds,
    ),
];
