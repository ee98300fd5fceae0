#!/usr/bin/env bash
# kubectl's common verbs on built-in kinds against `crdgen serve`, for one kubectl binary.
# Usage: kubectl.sh KUBECTL KUBECONFIG  -- one `PASS|FAIL step` line per step; exit 1 on any failure.
set -u
K="$1"; export KUBECONFIG="$2"
V=$("$K" version --client -o json 2>/dev/null | sed -n 's/.*"minor": "\([0-9]*\).*/\1/p' | head -1)
NS="kc${V}-$RANDOM"
FAILS=0
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
step() { # step NAME CMD...
  local name="$1"; shift
  if out=$("$@" 2>&1); then echo "PASS $name"; else
    echo "FAIL $name -- $(echo "$out" | tail -3 | tr '\n' ' ' | cut -c1-400)"; FAILS=$((FAILS+1)); fi
}
k() { timeout 30 "$K" -n "$NS" "$@"; }
has() { # has PATTERN CMD...: the command succeeds and prints PATTERN
  local pat="$1"; shift; local o; o=$("$@" 2>&1) || { echo "$o"; return 1; }
  grep -q -- "$pat" <<<"$o" || { echo "missing $pat in: $o"; return 1; }
}
cat > "$DIR/bundle.yaml" <<YAML
apiVersion: v1
kind: ServiceAccount
metadata: {name: bundle}
---
apiVersion: v1
kind: Secret
metadata: {name: bundle}
stringData: {password: hunter2}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: bundle, labels: {app: bundle}}
spec:
  replicas: 2
  selector: {matchLabels: {app: bundle}}
  template:
    metadata: {labels: {app: bundle}}
    spec:
      serviceAccountName: bundle
      containers:
      - name: app
        image: nginx:1.25
        ports: [{containerPort: 80}]
        env: [{name: A, value: "1"}]
---
apiVersion: v1
kind: Service
metadata: {name: bundle}
spec:
  selector: {app: bundle}
  ports: [{port: 80, targetPort: 80}]
YAML
sed 's/nginx:1.25/nginx:1.26/' "$DIR/bundle.yaml" > "$DIR/bundle2.yaml"
step "create namespace" "$K" create namespace "$NS"
step "create deployment" k create deployment web --image=nginx:1.25 --replicas=2 --port=80
step "deployment defaults" has '"maxSurge":"25%"' k get deploy web -o jsonpath='{.spec.strategy}'
step "expose" k expose deployment web --port=80 --target-port=8080
step "service clusterIP" has '^10\.' k get svc web -o jsonpath='{.spec.clusterIP}'
step "create service nodeport" k create service nodeport np --tcp=80:8080
step "create secret generic" k create secret generic s1 --from-literal=a=b
step "create secret tls-less docker" k create secret docker-registry reg --docker-server=r.example --docker-username=u --docker-password=p
step "create configmap" k create configmap cm1 --from-literal=a=b
step "create serviceaccount" k create serviceaccount sa1
step "create token" k create token sa1
step "create role" k create role r1 --verb=get --resource=pods
step "create rolebinding" k create rolebinding rb1 --role=r1 --serviceaccount="$NS:sa1"
step "create job" k create job j1 --image=busybox -- true
step "create cronjob" k create cronjob cj1 --image=busybox --schedule='*/5 * * * *' -- true
step "create pdb" k create poddisruptionbudget pdb1 --selector=app=web --min-available=1
step "create ingress" k create ingress ing1 --rule='example.com/=web:80'
step "run pod" k run p1 --image=busybox --restart=Never
step "scale" k scale deployment web --replicas=3
step "set image" k set image deployment/web nginx=nginx:1.26
step "set env" k set env deployment/web A=1
step "set resources" k set resources deployment web --limits=cpu=200m
step "label" k label deployment web tier=fe
step "annotate" k annotate deployment web note=x
step "edit" env KUBE_EDITOR="sed -i s/tier:\ fe/tier:\ be/" "$K" -n "$NS" edit deployment web
step "edit took" has 'be' k get deploy web -o jsonpath='{.metadata.labels.tier}'
step "patch strategic" k patch deployment web -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","imagePullPolicy":"Always"}]}}}}'
step "patch merge" k patch deployment web --type=merge -p '{"metadata":{"labels":{"m":"1"}}}'
step "patch json" k patch deployment web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":1}]'
step "patch status" k patch deployment web --subresource=status --type=merge -p '{"status":{"replicas":0}}'
step "autoscale" k autoscale deployment web --max=3 --cpu-percent=50
step "get hpa" k get hpa web
step "get -o wide" k get deploy,svc,pods -o wide
step "get -o yaml" has 'kind: Deployment' k get deploy web -o yaml
step "get -o json" has '"kind": "Service"' k get svc web -o json
step "get jsonpath" has nginx:1.26 k get deploy web -o jsonpath='{.spec.template.spec.containers[0].image}'
step "get custom-columns" k get deploy -o custom-columns=N:.metadata.name,R:.spec.replicas
step "get all" has 'deployment.apps/web' k get all
step "get --show-labels sort" k get pods --show-labels --sort-by=.metadata.name
step "get field-selector" has p1 k get pods --field-selector=status.phase=Pending
step "get --watch bounded" bash -c "timeout 3 $K -n $NS get deploy --watch; [ \$? = 124 ]"
step "describe deployment" has 'Replicas:' k describe deployment web
step "describe service" has 'IP:' k describe service web
step "describe pod" has 'Containers:' k describe pod p1
step "events" k events
step "event recorded" k create -f - <<<'{"apiVersion":"v1","kind":"Event","metadata":{"name":"ev1"},"involvedObject":{"kind":"Pod","name":"p1"},"reason":"R","message":"m","type":"Normal"}'
step "events list" has ev1 k get events -o name
step "api-resources" has deployments "$K" api-resources
step "api-versions" has autoscaling/v1 "$K" api-versions
step "explain" has 'replicas' "$K" explain deployment.spec
step "explain recursive" "$K" explain pods --recursive
step "auth can-i" has yes "$K" auth can-i create deployments
step "auth can-i --list" "$K" auth can-i --list
# kubectl 1.27 asks for authentication.k8s.io v1alpha1/v1beta1, which a 1.33 server does not
# serve by default either (kubernetes pkg/controlplane/instance.go, betaAPIGroupVersionsDisabledByDefault).
step "auth whoami" bash -c "out=\$(KUBECONFIG=$KUBECONFIG $K auth whoami 2>&1) || { [ $V = 27 ] && grep -q 'selfsubjectreviews API is not enabled' <<<\"\$out\"; } || { echo \"\$out\"; exit 1; }"
step "apply client-side" k apply -f "$DIR/bundle.yaml"
step "apply client-side again" k apply -f "$DIR/bundle2.yaml"
step "diff" bash -c "$K -n $NS diff -f $DIR/bundle.yaml; [ \$? = 1 ]"
step "apply server-side" k apply --server-side --force-conflicts -f "$DIR/bundle.yaml"
step "apply dry-run server" k apply --dry-run=server -f "$DIR/bundle2.yaml"
step "apply prune-less replace" k replace -f "$DIR/bundle2.yaml"
step "rollout history" k rollout history deployment/web
step "create dry-run service no leak" bash -c "for i in 1 2 3; do $K -n $NS create service nodeport dr\$i --tcp=80 --dry-run=server -o name || exit 1; done"
step "delete --cascade=orphan" k delete deployment bundle --cascade=orphan
step "delete --cascade=foreground" k delete deployment web --cascade=foreground
step "delete --cascade=background" k delete job j1 --cascade=background
step "wait --for=delete" bash -c "$K -n $NS delete pod p1 --wait=false && $K -n $NS wait --for=delete pod/p1 --timeout=20s"
step "delete all by label" k delete all -l app=bundle
step "delete namespace" "$K" delete namespace "$NS" --timeout=30s
step "namespace gone" bash -c "! $K get namespace $NS 2>/dev/null"
exit $((FAILS > 0))
