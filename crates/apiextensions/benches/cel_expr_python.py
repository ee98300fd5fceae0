"""Times the four rules of `cel_eval.rs` with Google's C++ CEL runtime through its Python
binding (PyPI `cel-expr-python`), for comparison with crdkit's evaluator.

Not used by tests. Run it in a virtual environment:

    python3 -m venv /tmp/celpy && /tmp/celpy/bin/pip install cel-expr-python
    /tmp/celpy/bin/python crates/apiextensions/benches/cel_expr_python.py

Each rule is compiled once (type-checked, `self` declared as a map) and evaluated many times
with one activation built up front, so the C++ side only evaluates. The Python call itself
costs something: the `true` row measures it, and `net` subtracts it.
"""

import os
import sys
import timeit

# This file's name is the package's: import the package, not this script.
sys.path = [p for p in sys.path if os.path.abspath(p or ".") != os.path.dirname(os.path.abspath(__file__))]
from cel_expr_python import cel  # noqa: E402

RULES = [
    ("a_bounds", "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas"),
    ("b_list_all", "self.list.all(x, x >= 0 && x < 1000)"),
    ("c_name", "self.name.startsWith('my-') && self.name.matches('^[a-z-]+$')"),
    ("d_labels_exists", "self.labels.exists(k, k == 'app')"),
    ("d_labels_absent", "self.labels.exists(k, k == 'zzz')"),
]


def obj():
    labels = {f"a-{i:02}": f"value-{i}" for i in range(19)}
    labels["app"] = "crontab"
    return {
        "minReplicas": 1,
        "replicas": 5,
        "maxReplicas": 10,
        "list": list(range(100)),
        "name": "my-crontab",
        "labels": labels,
    }


def per_call(fn, min_time=1.0):
    n = 1
    while True:
        t = timeit.timeit(fn, number=n)
        if t >= min_time:
            break
        n *= 2
    best = min(timeit.repeat(fn, number=n, repeat=5))
    return best / n


def main():
    env = cel.NewEnv(variables={"self": cel.Type.Map(cel.Type.STRING, cel.Type.DYN)})
    act = env.Activation({"self": obj()})
    base_expr = env.compile("true")
    base = per_call(lambda: base_expr.eval(act))
    print(f"{'true':16} {base * 1e9:10.0f} ns  (Python call overhead)")
    for name, rule in RULES:
        expr = env.compile(rule)
        assert expr.eval(act).value() is (name != "d_labels_absent"), name
        t = per_call(lambda: expr.eval(act))
        print(f"{name:16} {t * 1e9:10.0f} ns  net {max(t - base, 0) * 1e9:10.0f} ns")


if __name__ == "__main__":
    main()
