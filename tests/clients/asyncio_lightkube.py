"""kubernetes_asyncio and lightkube (sync and async) against `crdgen serve`.

Usage: python asyncio_lightkube.py KUBECONFIG  -- one `PASS|FAIL step` line per step; exit 1 on any failure.
"""
import asyncio, os, sys, traceback, uuid

RESULTS = []


async def astep(name, coro):
    try:
        await coro
        RESULTS.append((name, True, ""))
    except Exception as e:  # noqa: BLE001
        RESULTS.append((name, False, f"{type(e).__name__}: {e}"[:600]))
        traceback.print_exc(file=sys.stderr)


def step(name, fn):
    try:
        fn()
        RESULTS.append((name, True, ""))
    except Exception as e:  # noqa: BLE001
        RESULTS.append((name, False, f"{type(e).__name__}: {e}"[:600]))
        traceback.print_exc(file=sys.stderr)


def deployment_dict(name):
    labels = {"app": name}
    return {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": name, "labels": labels},
            "spec": {"selector": {"matchLabels": labels}, "template": {"metadata": {"labels": labels},
                     "spec": {"containers": [{"name": "c", "image": "nginx"}]}}}}


async def kubernetes_asyncio_steps(kc, ns):
    from kubernetes_asyncio import client, config, watch
    await config.load_kube_config(config_file=kc)
    async with client.ApiClient() as api:
        core, apps = client.CoreV1Api(api), client.AppsV1Api(api)

        async def crud():
            await core.create_namespace({"metadata": {"name": ns}})
            d = await apps.create_namespaced_deployment(ns, deployment_dict("a"))
            assert d.spec.replicas == 1
            d = await apps.patch_namespaced_deployment("a", ns, {"spec": {"replicas": 2}})
            assert d.spec.replicas == 2
            await core.create_namespaced_secret(ns, {"metadata": {"name": "s"}, "stringData": {"a": "b"}})
            s = await core.read_namespaced_secret("s", ns)
            assert s.data == {"a": "Yg=="}
            svc = await core.create_namespaced_service(ns, {"metadata": {"name": "svc"},
                                                            "spec": {"ports": [{"port": 80}]}})
            assert svc.spec.cluster_ip
            await core.delete_namespaced_service("svc", ns)
        await astep("asyncio typed crud", crud())

        async def watching():
            w = watch.Watch()
            names = []
            async with w.stream(apps.list_namespaced_deployment, ns, timeout_seconds=2) as stream:
                async for ev in stream:
                    names.append(ev["object"].metadata.name)
            assert "a" in names, names
        await astep("asyncio watch", watching())

        async def listing():
            lst = await core.list_namespaced_secret(ns, limit=1)
            assert len(lst.items) == 1
            pods = await core.list_pod_for_all_namespaces()
            assert isinstance(pods.items, list)
        await astep("asyncio list", listing())

        async def leader():
            from kubernetes_asyncio.leaderelection import leaderelection, electionconfig
            from kubernetes_asyncio.leaderelection.resourcelock.leaselock import LeaseLock
            led = asyncio.Event()
            async def started():
                led.set()
            async def stopped():
                pass
            cfg = electionconfig.Config(LeaseLock("le", ns, "me", api), lease_duration=4, renew_deadline=3,
                                        retry_period=1, onstarted_leading=started(), onstopped_leading=stopped())
            task = asyncio.create_task(leaderelection.LeaderElection(cfg).run())
            await asyncio.wait_for(led.wait(), 10)
            task.cancel()
        await astep("asyncio leader election lease", leader())


def lightkube_sync(ns):
    from lightkube import Client, codecs
    from lightkube.resources.apps_v1 import Deployment
    from lightkube.resources.core_v1 import Service, ConfigMap, Secret, ServiceAccount
    from lightkube.models.meta_v1 import ObjectMeta
    from lightkube.types import PatchType
    c = Client(namespace=ns, field_manager="lk")

    def crud():
        d = codecs.from_dict(deployment_dict("lk"))
        c.create(d)
        got = c.get(Deployment, "lk")
        assert got.spec.replicas == 1
        c.patch(Deployment, "lk", {"spec": {"replicas": 3}})
        c.patch(Deployment, "lk", {"metadata": {"labels": {"m": "1"}}}, patch_type=PatchType.MERGE)
        c.patch(Deployment, "lk", [{"op": "add", "path": "/metadata/labels/j", "value": "1"}], patch_type=PatchType.JSON)
        assert c.get(Deployment, "lk").metadata.labels["j"] == "1"
        assert [d.metadata.name for d in c.list(Deployment)] == ["a", "lk"]
    step("lightkube sync crud", crud)

    def apply():
        svc = codecs.from_dict({"apiVersion": "v1", "kind": "Service", "metadata": {"name": "lk"},
                                "spec": {"ports": [{"port": 80}], "selector": {"app": "lk"}}})
        out = c.apply(svc)
        assert out.spec.clusterIP
        c.apply(ConfigMap(metadata=ObjectMeta(name="lk"), data={"a": "1"}))
        c.apply(ServiceAccount(metadata=ObjectMeta(name="lk")))
        c.apply(Secret(metadata=ObjectMeta(name="lk"), stringData={"a": "b"}))
        assert c.get(Secret, "lk").data == {"a": "Yg=="}
        c.replace(c.get(ConfigMap, "lk"))
        c.delete(Service, "lk")
    step("lightkube sync apply", apply)

    def scale():
        sc = c.get(Deployment.Scale, "lk")
        assert sc.spec.replicas == 3
        c.replace(Deployment.Scale.from_dict({"metadata": {"name": "lk", "namespace": ns}, "spec": {"replicas": 4}}))
        assert c.get(Deployment, "lk").spec.replicas == 4
    step("lightkube scale", scale)

    def watching():
        seen = []
        for op, obj in c.watch(Deployment):  # existing objects arrive first as ADDED
            seen.append((op, obj.metadata.name))
            if obj.metadata.name == "lk" or len(seen) > 10:
                break
        assert ("ADDED", "lk") in seen, seen
    step("lightkube sync watch", watching)


async def lightkube_async(ns):
    from lightkube import AsyncClient
    from lightkube.resources.apps_v1 import Deployment
    from lightkube.resources.core_v1 import ConfigMap
    from lightkube.models.meta_v1 import ObjectMeta
    c = AsyncClient(namespace=ns, field_manager="lka")

    async def crud():
        await c.create(ConfigMap(metadata=ObjectMeta(name="lka"), data={"x": "1"}))
        assert (await c.get(ConfigMap, "lka")).data == {"x": "1"}
        await c.apply(ConfigMap(metadata=ObjectMeta(name="lka"), data={"x": "2"}), force=True)
        names = [d.metadata.name async for d in c.list(Deployment)]
        assert "lk" in names, names
        await c.delete(ConfigMap, "lka")
    await astep("lightkube async crud", crud())

    async def watching():
        seen = []
        async for op, obj in c.watch(Deployment):
            seen.append(obj.metadata.name)
            if obj.metadata.name == "lk" or len(seen) > 10:
                break
        assert "lk" in seen
    await astep("lightkube async watch", watching())
    await c.close()


async def main(kc):
    ns = "aio-" + uuid.uuid4().hex[:6]
    await kubernetes_asyncio_steps(kc, ns)
    os.environ["KUBECONFIG"] = kc
    lightkube_sync(ns)
    await lightkube_async(ns)
    for name, ok, err in RESULTS:
        print(("PASS " if ok else "FAIL ") + name + ("" if ok else "  -- " + err))
    return 0 if all(ok for _, ok, _ in RESULTS) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1])))
