#!/usr/bin/env python3
"""Extracts the apply-direction facts of apimachinery's strategicpatch/patch_test.go into JSON.

usage: extract_go_patch_test.py PATCH_TEST_GO COMMIT > go_patch_test.json
"""
import json, re, sys
import yaml

src = open(sys.argv[1]).read()
commit = sys.argv[2]

def block(var):
    """The text of `var NAME = ...` up to the next top-level `var`/`func`."""
    start = src.index("var " + var + " = ")
    m = re.compile(r"^(var|func) ", re.M).search(src, start + 1)
    return src[start:m.start() if m else len(src)]

def yaml_cases(var):
    text = block(var)
    body = text[text.index("`") + 1:text.rindex("`")]
    return yaml.safe_load(body)["testCases"]

def raw_cases(var):
    text = block(var)
    cases = []
    for chunk in re.split(r"\n\t\{\n(?:\t\t//[^\n]*\n)*\t\tDescription: ", text)[1:]:
        desc, rest = chunk.split("\n", 1)
        case = {"description": json.loads(desc.rstrip(","))}
        for name, doc in re.findall(r"\n\t\t\t(\w+): \[\]byte\(`(.*?)`\)", rest, re.S):
            case[name[0].lower() + name[1:]] = yaml.safe_load(doc)
        for name, s in re.findall(r"\n\t\t\t(ExpectedError): (\".*?\")", rest):
            case["expectedError"] = json.loads(s)
        cases.append(case)
    return cases

out = {
    "source": "kubernetes/apimachinery pkg/util/strategicpatch/patch_test.go at " + commit,
    "license": "Apache-2.0, The Kubernetes Authors",
    "create": yaml_cases("createStrategicMergePatchTestCaseData"),
    "custom": yaml_cases("customStrategicMergePatchTestCaseData"),
    "raw": raw_cases("strategicMergePatchRawTestCases"),
    "customRaw": raw_cases("customStrategicMergePatchRawTestCases"),
    "rawExtension": raw_cases("replaceRawExtensionPatchTestCases"),
}
json.dump(out, sys.stdout, indent=1, sort_keys=True)
print()
