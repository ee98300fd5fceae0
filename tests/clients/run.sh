#!/usr/bin/env bash
# The real-client sweep against `crdgen serve`, plain HTTP and TLS: the official Python client
# (typed, dynamic, watch, informer-style resume, leader election), kubernetes_asyncio, lightkube
# (sync and async), and every kubectl the machine has (kubectl.1.27 ... kubectl.1.33 next to the
# dispatcher, or the one `kubectl`).
#
# Usage: tests/clients/run.sh CRDGEN [PYTHON]   (PYTHON: a venv's python with `kubernetes`,
#        `kubernetes_asyncio` and `lightkube`; without it the Python steps are skipped)
# Prints one PASS/FAIL line per step; exit 1 when a step fails. Servers are stopped by their PID.
# MODES (default "plain tls") and KUBECTLS (default: every kubectl.1.* beside the dispatcher)
# narrow the run, e.g. MODES=tls KUBECTLS=/usr/bin/kubectl for a smoke.
set -u
CRDGEN="$1"; PY="${2:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
WORK="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done; rm -rf "$WORK"; }
trap cleanup EXIT
start() { # start NAME ARGS...: a server on a free port, its kubeconfig at $WORK/NAME.kc
  local name="$1"; shift
  "$CRDGEN" serve --addr 127.0.0.1:0 --kubeconfig "$WORK/$name.kc" "$@" >"$WORK/$name.log" 2>&1 &
  PIDS+=($!)
  for _ in $(seq 50); do grep -q '^kubeconfig:' "$WORK/$name.log" && return 0; sleep 0.1; done
  echo "FAIL start $name: $(cat "$WORK/$name.log")"; exit 1
}
start plain
start tls --tls-generate
FAILS=0
KUBECTLS=${KUBECTLS:-$(ls "$(dirname "$(readlink -f "$(command -v kubectl)")")"/kubectl.1.* 2>/dev/null || command -v kubectl)}
for mode in ${MODES:-plain tls}; do
  if [ -n "$PY" ]; then
    for script in typed.py asyncio_lightkube.py; do
      timeout 300 "$PY" "$HERE/$script" "$WORK/$mode.kc" 2>>"$WORK/python.err" | sed "s/^\(PASS\|FAIL\) /\1 $mode $script: /" \
        || true
    done
  fi
  for k in $KUBECTLS; do
    timeout 600 "$HERE/kubectl.sh" "$k" "$WORK/$mode.kc" | sed "s/^\(PASS\|FAIL\) /\1 $mode $(basename "$k"): /"
  done
done | tee "$WORK/all.out"
grep -c '^PASS' "$WORK/all.out" | sed 's/^/passed: /'
if grep -q '^FAIL' "$WORK/all.out"; then exit 1; fi
