#!/usr/bin/env python3
"""Transcribes the test tables of structured-merge-diff's merge tests into YAML data.

Usage: transcribe.py <structured-merge-diff checkout> <merge/xxx_test.go> > smd/xxx.yaml

It reads Go composite literals of `map[string]TestCase{...}` (operations, expected object,
expected managers, expected conflicts) and writes them as data; only facts are kept (inputs and
expected outputs). Schemas are written by hand (as CRD `openAPIV3Schema`s) in each data file's
`schemas:` section, which this script leaves as a placeholder naming the Go parser.
"""
import json
import re
import sys

import yaml


# ---- a tokenizer and parser for the Go literals these tests use ----

TOKEN = re.compile(
    r"""
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:[^"\\\n]|\\.)*")
  | (?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)
  | (?P<punct>[{}()\[\],:&*])
    """,
    re.S | re.X,
)


def tokenize(src):
    out = []
    pos = 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            # Past the table: the rest of the function is not needed.
            break
        pos = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        out.append((kind, m.group(kind)))
    return out


class Lit:
    """A composite literal: type name and elements (key or None, value)."""

    def __init__(self, ty, elems):
        self.ty = ty
        self.elems = elems

    def get(self, key, default=None):
        for k, v in self.elems:
            if k == key:
                return v
        return default


class Call:
    def __init__(self, fn, args):
        self.fn = fn
        self.args = args


class Ident:
    def __init__(self, name):
        self.name = name


class Parser:
    def __init__(self, toks, i=0):
        self.t = toks
        self.i = i

    def peek(self, off=0):
        j = self.i + off
        return self.t[j] if j < len(self.t) else (None, None)

    def next(self):
        tok = self.t[self.i]
        self.i += 1
        return tok

    def expect(self, v):
        tok = self.next()
        if tok[1] != v:
            raise SyntaxError(f"expected {v}, got {tok}")

    def type_name(self):
        # map[string]TestCase, []Operation, pkg.Type
        parts = []
        while True:
            k, v = self.peek()
            if v == "[":
                self.next()
                inner = ""
                while self.peek()[1] != "]":
                    inner += self.next()[1]
                self.next()
                parts.append(f"[{inner}]")
            elif k == "ident":
                parts.append(self.next()[1])
                if self.peek()[1] != "[":
                    break
            elif v == "*":
                parts.append(self.next()[1])
            else:
                break
        return "".join(parts)

    def expr(self):
        k, v = self.peek()
        if v == "&":
            self.next()
            return self.expr()
        if k == "str":
            self.next()
            return json.loads(v) if "\\x" not in v else bytes(v[1:-1], "utf-8").decode("unicode_escape")
        if k == "raw":
            self.next()
            return v[1:-1]
        if k == "num":
            self.next()
            return float(v) if "." in v or "e" in v.lower() else int(v)
        if v == "{":
            return self.composite(None)
        if v == "[" or (k == "ident" and v == "map" and self.peek(1)[1] == "["):
            ty = self.type_name()
            return self.composite(ty)
        if k == "ident":
            if v in ("true", "false"):
                self.next()
                return v == "true"
            if v == "nil":
                self.next()
                return None
            ty = self.type_name()
            nk, nv = self.peek()
            if nv == "{":
                return self.composite(ty)
            if nv == "(":
                self.next()
                args = []
                while self.peek()[1] != ")":
                    args.append(self.expr())
                    if self.peek()[1] == ",":
                        self.next()
                self.next()
                return Call(ty, args)
            return Ident(ty)
        raise SyntaxError(f"unexpected {k} {v}")

    def composite(self, ty):
        self.expect("{")
        elems = []
        while self.peek()[1] != "}":
            first = self.expr()
            if self.peek()[1] == ":":
                self.next()
                key = first.name if isinstance(first, Ident) else first
                elems.append((key, self.expr()))
            else:
                elems.append((None, first))
            if self.peek()[1] == ",":
                self.next()
        self.next()
        return Lit(ty, elems)


# ---- from Go values to data ----


def text(v):
    """A string, or a template over the versions of a parameterised test (`${v1}`)."""
    if isinstance(v, str):
        return v
    if isinstance(v, Ident):
        return "${" + v.name + "}"
    if isinstance(v, Call) and v.fn == "typed.YAMLObject":
        return text(v.args[0])
    if isinstance(v, Call) and v.fn == "fieldpath.APIVersion":
        return text(v.args[0])
    if isinstance(v, Call) and v.fn == "fmt.Sprintf":
        parts = v.args[0].split("%s")
        out = parts[0]
        for arg, part in zip(v.args[1:], parts[1:]):
            out += text(arg) + part
        return out
    raise ValueError(f"not a string: {v!r} {getattr(v, 'fn', '')}")


def gval(v):
    """A Go value in a key: conversions such as float64(1) dropped."""
    if isinstance(v, Call) and v.fn in ("float64", "int", "int64"):
        return gval(v.args[0])
    return v


def go_json(v):
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def path_element(a):
    if isinstance(a, (str, Ident)) or (isinstance(a, Call) and a.fn == "fmt.Sprintf"):
        return "f:" + text(a)
    if isinstance(a, bool):
        raise ValueError("bool path element")
    if isinstance(a, int):
        return f"i:{a}"
    if isinstance(a, Call) and a.fn in ("_KBF", "fieldpath.KeyByFields", "KeyByFields"):
        fields = {}
        for j in range(0, len(a.args), 2):
            fields[a.args[j]] = gval(a.args[j + 1])
        return "k:" + go_json(dict(sorted(fields.items())))
    if isinstance(a, Call) and a.fn in ("_V", "value.NewValueInterface"):
        return "v:" + go_json(gval(a.args[0]))
    if isinstance(a, Call) and a.fn in ("_SV", "fieldpath.ValueElement"):
        return path_element(a.args[0])
    raise ValueError(f"path element {a!r} {getattr(a, 'fn', '')}")


def path(c):
    assert isinstance(c, Call) and c.fn in ("_P", "fieldpath.MakePathOrDie", "MakePathOrDie"), c
    return [path_element(a) for a in c.args]


def paths(c):
    assert isinstance(c, Call) and c.fn in ("_NS", "fieldpath.NewSet", "NewSet"), getattr(c, "fn", c)
    return [path(p) for p in c.args]


def dedent(obj):
    """FixTabsOrDie: drops the first line if empty and the leading tabs of the first line."""
    lines = obj.split("\n")
    if lines and lines[0] == "" and len(lines) > 1:
        lines = lines[1:]
    prefix = len(lines[0]) - len(lines[0].lstrip("\t"))
    out = []
    for i, line in enumerate(lines):
        if i == len(lines) - 1 and line.strip() == "":
            out.append("")
            break
        out.append(line[prefix:])
    return "\n".join(out).replace("\t", "  ")


OPS = {"Apply": "apply", "ForceApply": "force_apply", "Update": "update",
       "ExtractApply": "extract_apply", "ChangeParser": "change_schema"}


def op(lit):
    kind = OPS[lit.ty.removeprefix("fixture.")]
    out = {"op": kind}
    if kind == "change_schema":
        p = lit.get("Parser")
        out["schema"] = p.name if isinstance(p, Ident) else repr(p)
        return out
    out["manager"] = lit.get("Manager")
    out["version"] = text(lit.get("APIVersion"))
    out["object"] = dedent(text(lit.get("Object")))
    conflicts = lit.get("Conflicts")
    if conflicts is not None:
        out["conflicts"] = [
            {"manager": c.get("Manager"), "path": path(c.get("Path"))}
            for _, c in conflicts.elems
        ]
    return out


def managed(lit):
    out = {}
    for name, vs in lit.elems:
        assert isinstance(vs, Call) and vs.fn == "fieldpath.NewVersionedSet", vs
        out[name] = {"version": text(vs.args[1]), "applied": vs.args[2], "paths": paths(vs.args[0])}
    return out


def case(name, lit):
    out = {"name": name, "ops": [op(o) for _, o in lit.get("Ops").elems]}
    if lit.get("Object") is not None:
        out["object"] = dedent(text(lit.get("Object")))
        out["version"] = text(lit.get("APIVersion"))
    if lit.get("Managed") is not None:
        out["managed"] = managed(lit.get("Managed"))
    for extra in ("ReturnInputOnNoop", "IgnoreFilter", "IgnoredFields"):
        if lit.get(extra) is not None:
            v = lit.get(extra)
            if extra == "ReturnInputOnNoop":
                out["return_input_on_noop"] = v
            else:
                out["ignored"] = {
                    ver: paths(s.args[0] if isinstance(s, Call) and s.fn == "fieldpath.NewExcludeSetFilter" else s)
                    for ver, s in v.elems
                }
    return out


class Literal(str):
    pass


def literal_presenter(dumper, data):
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style="|" if "\n" in data else None)


yaml.add_representer(str, literal_presenter)


def main():
    repo, file = sys.argv[1], sys.argv[2]
    import subprocess
    src = subprocess.run(["git", "-C", repo, "show", f"HEAD:{file}"], capture_output=True, text=True, check=True).stdout

    cases = []
    # Each test function: its table and the parser it runs with.
    funcs = [(m.start(), m.group(1)) for m in re.finditer(r"^func ([Tt]est\w+)\(", src, re.M)]
    for idx, (start, fname) in enumerate(funcs):
        end = funcs[idx + 1][0] if idx + 1 < len(funcs) else len(src)
        body = src[start:end]
        pm = re.search(r"\.Test(?:WithConverter)?\((\w+)(?:,\s*&?(\w+)\{?)?", body)
        parser_name = pm.group(1) if pm else None
        converter = pm.group(2) if pm and pm.group(2) else None
        if converter:
            # A local variable: `converter := renamingConverter{...}`.
            am = re.search(r"\b" + converter + r"\s*:=\s*&?(\w+)\{", body)
            if am:
                converter = am.group(1)
        tm = re.search(r"map\[string\](?:fixture\.)?TestCase\{", body)
        if not tm:
            continue
        sub = tokenize(body[tm.start():])
        lit = Parser(sub).expr()
        expect_error = re.search(r"\.Test\w*\([^)]*\)\s*==\s*nil", body) is not None
        for name, c in lit.elems:
            d = case(f"{fname[0].upper() + fname[1:]}/{name}", c)
            if fname[0] == "t":
                # Run for every (v1, v2, v3) in {v1, v2, v3}^3 by its Test function.
                d["versions"] = ["v1", "v2", "v3"]
            d["schema"] = parser_name
            if expect_error:
                d["expect_error"] = True
            if converter:
                d["converter"] = converter
            cases.append(d)
    print(f"# Transcribed from structured-merge-diff {file} (facts of its test tables).")
    print(yaml.dump({"cases": cases}, sort_keys=False, allow_unicode=True, width=1000))


if __name__ == "__main__":
    main()
