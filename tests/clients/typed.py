"""The official Python client against `crdgen serve`: typed, dynamic, watch, informer, leader election.

Usage: python typed.py KUBECONFIG  -- prints one `PASS|FAIL step` line per step; exit 1 on any failure.
"""
import sys, time, threading, traceback, uuid
from kubernetes import client, config, watch, dynamic
from kubernetes.client.rest import ApiException

RESULTS = []


def step(name):
    def wrap(fn):
        try:
            fn()
            RESULTS.append((name, True, ""))
        except Exception as e:  # noqa: BLE001 - every failure is a recorded step
            RESULTS.append((name, False, f"{type(e).__name__}: {e}"[:600]))
            traceback.print_exc(file=sys.stderr)
        return fn
    return wrap


def main(kc):
    config.load_kube_config(config_file=kc)
    api = client.ApiClient()
    core, apps, batch = client.CoreV1Api(api), client.AppsV1Api(api), client.BatchV1Api(api)
    rbac, coord = client.RbacAuthorizationV1Api(api), client.CoordinationV1Api(api)
    ns = "py-" + uuid.uuid4().hex[:6]
    labels = {"app": "web"}

    @step("namespace create")
    def _():
        core.create_namespace(client.V1Namespace(metadata=client.V1ObjectMeta(name=ns)))

    def deployment(name, image="nginx:1.25"):
        return client.V1Deployment(
            metadata=client.V1ObjectMeta(name=name, labels=labels),
            spec=client.V1DeploymentSpec(
                replicas=1, selector=client.V1LabelSelector(match_labels=labels),
                template=client.V1PodTemplateSpec(
                    metadata=client.V1ObjectMeta(labels=labels),
                    spec=client.V1PodSpec(containers=[client.V1Container(
                        name="web", image=image, ports=[client.V1ContainerPort(container_port=80)])]))))

    @step("deployment create (defaults)")
    def _():
        d = apps.create_namespaced_deployment(ns, deployment("web"))
        assert d.spec.strategy.type == "RollingUpdate", d.spec.strategy
        assert d.spec.revision_history_limit == 10
        assert d.spec.template.spec.containers[0].termination_message_path == "/dev/termination-log"
        assert d.metadata.generation == 1

    @step("deployment read/list")
    def _():
        assert apps.read_namespaced_deployment("web", ns).metadata.name == "web"
        items = apps.list_namespaced_deployment(ns, label_selector="app=web").items
        assert [i.metadata.name for i in items] == ["web"]
        assert any(i.metadata.name == "web" for i in apps.list_deployment_for_all_namespaces().items)

    @step("deployment patch strategic")
    def _():
        d = apps.patch_namespaced_deployment("web", ns, {"spec": {"template": {"spec": {"containers": [
            {"name": "web", "image": "nginx:1.26"}]}}}})
        c = d.spec.template.spec.containers
        assert len(c) == 1 and c[0].image == "nginx:1.26" and c[0].ports[0].container_port == 80
        assert d.metadata.generation == 2

    @step("deployment patch merge")
    def _():
        api.call_api  # the typed API picks strategic for dicts; force merge through the header
        d = apps.patch_namespaced_deployment("web", ns, {"metadata": {"labels": {"tier": "fe"}}},
                                             _content_type="application/merge-patch+json")
        assert d.metadata.labels["tier"] == "fe"

    @step("deployment patch json")
    def _():
        d = apps.patch_namespaced_deployment("web", ns, [{"op": "replace", "path": "/spec/replicas", "value": 3}])
        assert d.spec.replicas == 3

    @step("deployment patch apply")
    def _():
        body = {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "applied", "labels": labels},
                "spec": {"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels},
                         "spec": {"containers": [{"name": "web", "image": "nginx"}]}}}}
        d = apps.patch_namespaced_deployment("applied", ns, body, field_manager="py", force=True,
                                             _content_type="application/apply-patch+yaml")
        assert d.spec.replicas == 1
        assert any(m.manager == "py" and m.operation == "Apply" for m in d.metadata.managed_fields)

    @step("deployment scale subresource")
    def _():
        s = apps.patch_namespaced_deployment_scale("web", ns, {"spec": {"replicas": 5}})
        assert s.spec.replicas == 5
        assert apps.read_namespaced_deployment_scale("web", ns).spec.replicas == 5

    @step("deployment status read/replace")
    def _():
        d = apps.read_namespaced_deployment_status("web", ns)
        d.status = client.V1DeploymentStatus(replicas=0, observed_generation=1)
        apps.replace_namespaced_deployment_status("web", ns, d)

    @step("deployment replace")
    def _():
        d = apps.read_namespaced_deployment("web", ns)
        d.spec.replicas = 2
        assert apps.replace_namespaced_deployment("web", ns, d).spec.replicas == 2

    @step("deployment replace conflict 409")
    def _():
        d = apps.read_namespaced_deployment("web", ns)
        d.metadata.resource_version = "1"
        try:
            apps.replace_namespaced_deployment("web", ns, d)
            raise AssertionError("no conflict")
        except ApiException as e:
            assert e.status == 409, e.status

    @step("deployment invalid 422")
    def _():
        bad = deployment("bad")
        bad.spec.selector = client.V1LabelSelector(match_labels={"app": "other"})
        try:
            apps.create_namespaced_deployment(ns, bad)
            raise AssertionError("accepted")
        except ApiException as e:
            assert e.status == 422 and "selector" in e.body, e.body

    @step("service create (clusterIP, nodePort)")
    def _():
        s = core.create_namespaced_service(ns, client.V1Service(
            metadata=client.V1ObjectMeta(name="web"),
            spec=client.V1ServiceSpec(selector=labels, type="NodePort",
                                      ports=[client.V1ServicePort(port=80, target_port=8080)])))
        assert s.spec.cluster_ip and s.spec.cluster_ip == s.spec.cluster_ips[0]
        assert 30000 <= s.spec.ports[0].node_port <= 32767
        assert s.spec.ports[0].protocol == "TCP" and s.spec.session_affinity == "None"
        assert s.spec.ip_families == ["IPv4"] and s.spec.ip_family_policy == "SingleStack"

    @step("service patch/delete")
    def _():
        s = core.patch_namespaced_service("web", ns, {"metadata": {"annotations": {"a": "b"}}})
        assert s.metadata.annotations["a"] == "b"
        core.delete_namespaced_service("web", ns)

    @step("secret stringData")
    def _():
        s = core.create_namespaced_secret(ns, client.V1Secret(metadata=client.V1ObjectMeta(name="s"),
                                                             string_data={"k": "v"}))
        assert s.data == {"k": "dg=="} and s.type == "Opaque" and s.string_data is None

    @step("secret replace/delete")
    def _():
        s = core.read_namespaced_secret("s", ns)
        s.data["x"] = "eA=="
        core.replace_namespaced_secret("s", ns, s)
        core.delete_namespaced_secret("s", ns)

    @step("serviceaccount create/token")
    def _():
        core.create_namespaced_service_account(ns, client.V1ServiceAccount(metadata=client.V1ObjectMeta(name="sa")))
        tr = core.create_namespaced_service_account_token("sa", ns, client.AuthenticationV1TokenRequest(
            spec=client.V1TokenRequestSpec(audiences=["api"], expiration_seconds=3600)))
        assert tr.status.token and tr.status.expiration_timestamp

    @step("configmap crud")
    def _():
        core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="cm"),
                                                                 data={"a": "1"}))
        cm = core.patch_namespaced_config_map("cm", ns, {"data": {"b": "2"}})
        assert cm.data == {"a": "1", "b": "2"}
        core.delete_namespaced_config_map("cm", ns)

    @step("pod create/binding/delete")
    def _():
        p = core.create_namespaced_pod(ns, client.V1Pod(metadata=client.V1ObjectMeta(name="p"),
            spec=client.V1PodSpec(containers=[client.V1Container(name="c", image="busybox")])))
        assert p.status.phase == "Pending" and p.spec.restart_policy == "Always"
        core.create_namespaced_pod_binding("p", ns, client.V1Binding(
            metadata=client.V1ObjectMeta(name="p"), target=client.V1ObjectReference(kind="Node", name="n1")),
            _preload_content=False)
        assert core.read_namespaced_pod("p", ns).spec.node_name == "n1"
        core.delete_namespaced_pod("p", ns, grace_period_seconds=0)

    @step("job create (defaults)")
    def _():
        j = batch.create_namespaced_job(ns, client.V1Job(metadata=client.V1ObjectMeta(name="j"),
            spec=client.V1JobSpec(template=client.V1PodTemplateSpec(spec=client.V1PodSpec(
                restart_policy="Never", containers=[client.V1Container(name="c", image="busybox")])))))
        assert j.spec.backoff_limit == 6 and j.spec.completions == 1
        assert j.spec.selector.match_labels["batch.kubernetes.io/controller-uid"]
        batch.delete_namespaced_job("j", ns, propagation_policy="Background")

    @step("rbac role/rolebinding/clusterrole")
    def _():
        rbac.create_namespaced_role(ns, client.V1Role(metadata=client.V1ObjectMeta(name="r"), rules=[
            client.V1PolicyRule(api_groups=[""], resources=["pods"], verbs=["get"])]))
        rbac.create_namespaced_role_binding(ns, client.V1RoleBinding(metadata=client.V1ObjectMeta(name="rb"),
            role_ref=client.V1RoleRef(api_group="rbac.authorization.k8s.io", kind="Role", name="r"),
            subjects=[client.RbacV1Subject(kind="ServiceAccount", name="sa", namespace=ns)]))
        name = ns + "-cr"
        rbac.create_cluster_role(client.V1ClusterRole(metadata=client.V1ObjectMeta(name=name)))
        rbac.delete_cluster_role(name)

    @step("watch stream deployments")
    def _():
        w = watch.Watch()
        seen = []
        def poke():
            time.sleep(0.5)
            apps.patch_namespaced_deployment("web", ns, {"metadata": {"labels": {"w": "1"}}})
        threading.Thread(target=poke).start()
        for ev in w.stream(apps.list_namespaced_deployment, ns, timeout_seconds=5):
            seen.append((ev["type"], ev["object"].metadata.name))
            if ev["type"] == "MODIFIED":
                w.stop()
        assert ("MODIFIED", "web") in seen, seen

    @step("informer list+watch resume, 410")
    def _():
        lst = core.list_namespaced_config_map(ns)
        rv = lst.metadata.resource_version
        core.create_namespaced_config_map(ns, client.V1ConfigMap(metadata=client.V1ObjectMeta(name="inf")))
        w = watch.Watch()
        got = [ev["object"].metadata.name for ev in
               w.stream(core.list_namespaced_config_map, ns, resource_version=rv, timeout_seconds=2)]
        assert "inf" in got, got
        try:
            for ev in watch.Watch().stream(core.list_namespaced_config_map, ns, resource_version="1",
                                           timeout_seconds=2):
                if ev["type"] == "ERROR":
                    raise ApiException(status=ev["raw_object"]["code"])
        except ApiException as e:
            assert e.status == 410, e.status

    @step("dynamic client deployments")
    def _():
        dyn = dynamic.DynamicClient(client.ApiClient())
        r = dyn.resources.get(api_version="apps/v1", kind="Deployment")
        assert r.get(namespace=ns, name="web").metadata.name == "web"
        r.patch(namespace=ns, name="web", body={"metadata": {"labels": {"d": "1"}}},
                content_type="application/merge-patch+json")
        svc = dyn.resources.get(api_version="v1", kind="Service")
        svc.create(namespace=ns, body={"apiVersion": "v1", "kind": "Service", "metadata": {"name": "dyn"},
                                       "spec": {"ports": [{"port": 80}]}})
        assert len(svc.get(namespace=ns).items) == 1
        svc.server_side_apply(namespace=ns, body={"apiVersion": "v1", "kind": "Service",
                              "metadata": {"name": "dyn", "labels": {"x": "y"}}, "spec": {"ports": [{"port": 80}]}},
                              field_manager="dyn", force_conflicts=True)

    @step("dynamic client CRD + custom resource")
    def _():
        dyn = dynamic.DynamicClient(client.ApiClient())
        crds = dyn.resources.get(api_version="apiextensions.k8s.io/v1", kind="CustomResourceDefinition")
        crd = {"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
            "metadata": {"name": "widgets.py.example.com"},
            "spec": {"group": "py.example.com", "names": {"plural": "widgets", "kind": "Widget", "singular": "widget"},
                     "scope": "Namespaced", "versions": [{"name": "v1", "served": True, "storage": True,
                     "schema": {"openAPIV3Schema": {"type": "object", "properties": {"spec": {"type": "object",
                     "properties": {"size": {"type": "integer"}}}}}}}]}}
        try:
            crds.create(body=crd)
        except dynamic.exceptions.ConflictError:
            pass  # a rerun against the same server
        for _ in range(50):
            try:
                dyn.resources.invalidate_cache()
                w = dyn.resources.get(api_version="py.example.com/v1", kind="Widget")
                break
            except Exception:  # noqa: BLE001
                time.sleep(0.1)
        w.create(namespace=ns, body={"apiVersion": "py.example.com/v1", "kind": "Widget",
                                     "metadata": {"name": "w1"}, "spec": {"size": 1}})
        assert w.get(namespace=ns, name="w1").spec.size == 1

    def leader(lock_cls, name):
        from kubernetes.leaderelection import leaderelection, electionconfig
        led = threading.Event()
        lock = lock_cls(name, ns, "me")
        cfg = electionconfig.Config(lock, lease_duration=4, renew_deadline=3, retry_period=1,
                                    onstarted_leading=lambda: led.set(), onstopped_leading=lambda: None)
        le = leaderelection.LeaderElection(cfg)
        threading.Thread(target=le.run, daemon=True).start()
        assert led.wait(10), "never led"

    @step("leader election ConfigMap lock")
    def _():
        from kubernetes.leaderelection.resourcelock.configmaplock import ConfigMapLock
        leader(ConfigMapLock, "le-cm")

    @step("leader election Lease lock")
    def _():
        try:
            from kubernetes.leaderelection.resourcelock.leaselock import LeaseLock
        except ImportError:
            LeaseLock = None
        if LeaseLock is None:
            coord.create_namespaced_lease(ns, client.V1Lease(metadata=client.V1ObjectMeta(name="le-lease"),
                                          spec=client.V1LeaseSpec(holder_identity="me")))
        else:
            leader(LeaseLock, "le-lease")

    @step("events core/v1 create/list")
    def _():
        core.create_namespaced_event(ns, client.CoreV1Event(metadata=client.V1ObjectMeta(name="e1"),
            involved_object=client.V1ObjectReference(kind="Deployment", name="web", namespace=ns),
            reason="Test", message="hello", type="Normal"))
        assert any(e.reason == "Test" for e in core.list_namespaced_event(ns).items)

    @step("self subject access review")
    def _():
        r = client.AuthorizationV1Api(api).create_self_subject_access_review(client.V1SelfSubjectAccessReview(
            spec=client.V1SelfSubjectAccessReviewSpec(resource_attributes=client.V1ResourceAttributes(
                verb="get", resource="pods", namespace=ns))))
        assert r.status.allowed

    @step("componentstatuses list")
    def _():
        core.list_component_status()

    @step("hpa autoscaling/v1 and v2")
    def _():
        a1 = client.AutoscalingV1Api(api)
        h = a1.create_namespaced_horizontal_pod_autoscaler(ns, client.V1HorizontalPodAutoscaler(
            metadata=client.V1ObjectMeta(name="h"), spec=client.V1HorizontalPodAutoscalerSpec(
                max_replicas=3, scale_target_ref=client.V1CrossVersionObjectReference(
                    api_version="apps/v1", kind="Deployment", name="web"),
                target_cpu_utilization_percentage=50)))
        assert h.spec.min_replicas == 1 and h.spec.target_cpu_utilization_percentage == 50
        h2 = client.AutoscalingV2Api(api).read_namespaced_horizontal_pod_autoscaler("h", ns)
        assert h2.spec.metrics[0].resource.target.average_utilization == 50

    @step("deletecollection + namespace delete")
    def _():
        core.delete_collection_namespaced_config_map(ns)
        apps.delete_namespaced_deployment("web", ns, propagation_policy="Foreground")
        core.delete_namespace(ns)

    for name, ok, err in RESULTS:
        print(("PASS " if ok else "FAIL ") + name + ("" if ok else "  -- " + err))
    return 0 if all(ok for _, ok, _ in RESULTS) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
