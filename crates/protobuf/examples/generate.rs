//! Regenerates `data/descriptors.txt` from Kubernetes' sources:
//!
//! ```sh
//! cargo run -p crdkit-protobuf --example generate -- SRC > crates/protobuf/data/descriptors.txt
//! ```
//!
//! `SRC` holds the release's trees side by side: `api/` (k8s.io/api), `apimachinery/`,
//! `apiextensions-apiserver/` and `kube-aggregator/` (each `git archive` of the tag). Every
//! package with a `generated.proto` is read twice: the `.proto` gives messages, field numbers
//! and wire types; the Go structs beside it give what the proto does not say and the JSON
//! encoding needs: JSON names, `omitempty`/`omitzero`, pointers (nullable) and embedded
//! (inlined) structs. A proto field without its Go field is an error, so the two cannot drift.
//! Only std is used: the normal build never runs this.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Messages whose JSON is written by hand in Go (`MarshalJSON`): their Go structs are not
/// matched (the codec has a rule for each, `src/special.rs`).
const SPECIAL: &[&str] = &[
    "k8s.io.apimachinery.pkg.apis.meta.v1.Time",
    "k8s.io.apimachinery.pkg.apis.meta.v1.MicroTime",
    "k8s.io.apimachinery.pkg.apis.meta.v1.Timestamp",
    "k8s.io.apimachinery.pkg.apis.meta.v1.Duration",
    "k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1",
    "k8s.io.apimachinery.pkg.apis.meta.v1.Fields",
    "k8s.io.apimachinery.pkg.apis.meta.v1.Verbs",
    "k8s.io.apimachinery.pkg.apis.meta.v1.GroupVersion",
    "k8s.io.apimachinery.pkg.api.resource.Quantity",
    "k8s.io.apimachinery.pkg.api.resource.QuantityValue",
    "k8s.io.apimachinery.pkg.util.intstr.IntOrString",
    "k8s.io.apimachinery.pkg.runtime.RawExtension",
];

/// Message names ending so are special in every package that has them.
const SPECIAL_SUFFIXES: &[&str] = &[
    ".ExtraValue",
    "apiextensions.v1.JSON",
    "apiextensions.v1.JSONSchemaPropsOrArray",
    "apiextensions.v1.JSONSchemaPropsOrBool",
    "apiextensions.v1.JSONSchemaPropsOrStringArray",
    "apiextensions.v1beta1.JSON",
    "apiextensions.v1beta1.JSONSchemaPropsOrArray",
    "apiextensions.v1beta1.JSONSchemaPropsOrBool",
    "apiextensions.v1beta1.JSONSchemaPropsOrStringArray",
];

fn is_special(full: &str) -> bool {
    SPECIAL.contains(&full) || SPECIAL_SUFFIXES.iter().any(|s| full.ends_with(s))
}

struct ProtoField {
    repeated: bool,
    map_key: Option<String>,
    ty: String,
    name: String,
    number: u32,
}

struct ProtoMessage {
    name: String,
    fields: Vec<ProtoField>,
}

struct ProtoFile {
    package: String,
    messages: Vec<ProtoMessage>,
}

struct GoField {
    name: String,
    ty: String,
    embedded: bool,
    json: Option<String>,
    protobuf: Option<String>,
}

/// The text without `//` and `/* */` comments (string literals and Go tags kept whole).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '/' if chars.peek() == Some(&'/') => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                    }
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            '"' | '`' => {
                out.push(c);
                let mut escaped = false;
                for d in chars.by_ref() {
                    out.push(d);
                    if d == c && !escaped {
                        break;
                    }
                    escaped = c == '"' && d == '\\' && !escaped;
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn parse_proto(text: &str) -> ProtoFile {
    let text = strip_comments(text);
    let mut package = String::new();
    let mut messages = Vec::new();
    let mut current: Option<ProtoMessage> = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(p) = line.strip_prefix("package ") {
            package = p.trim_end_matches(';').to_owned();
        } else if let Some(m) = line.strip_prefix("message ") {
            assert!(current.is_none(), "nested message in {package}: {line}");
            let name = m.trim_end_matches('{').trim().to_owned();
            current = Some(ProtoMessage {
                name,
                fields: Vec::new(),
            });
        } else if line == "}" {
            messages.extend(current.take());
        } else if let Some(msg) = current.as_mut() {
            let (decl, number) = line
                .trim_end_matches(';')
                .split_once('=')
                .unwrap_or_else(|| panic!("field without number in {package}: {line}"));
            let number: u32 = number.trim().parse().expect("field number");
            let decl = decl.trim();
            let field = if let Some(m) = decl.strip_prefix("map<") {
                let (kv, name) = m.split_once('>').expect("map type");
                let (k, v) = kv.split_once(',').expect("map key, value");
                ProtoField {
                    repeated: false,
                    map_key: Some(k.trim().to_owned()),
                    ty: v.trim().to_owned(),
                    name: name.trim().to_owned(),
                    number,
                }
            } else {
                let parts: Vec<&str> = decl.split_whitespace().collect();
                let [label, ty, name] = parts[..] else {
                    panic!("unexpected field in {package}: {line}")
                };
                ProtoField {
                    repeated: label == "repeated",
                    map_key: None,
                    ty: ty.to_owned(),
                    name: name.to_owned(),
                    number,
                }
            };
            msg.fields.push(field);
        }
    }
    ProtoFile { package, messages }
}

fn tag_value(tags: &str, key: &str) -> Option<String> {
    let start = tags.find(&format!("{key}:\""))? + key.len() + 2;
    let end = tags[start..].find('"')?;
    Some(tags[start..start + end].to_owned())
}

/// `type X struct { ... }` blocks of a Go file: the fields with their tags.
fn parse_go_structs(text: &str, out: &mut HashMap<String, Vec<GoField>>) {
    let text = strip_comments(text);
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("type ") else {
            continue;
        };
        // `type StorageVersionSpec struct{}`
        if let Some(name) = rest.strip_suffix("struct{}") {
            out.insert(name.trim().to_owned(), Vec::new());
            continue;
        }
        // `type List metav1.List`: the struct of another package (resolved by name).
        if let [name, ty] = rest.split_whitespace().collect::<Vec<_>>()[..] {
            if let Some((_, target)) = ty.split_once('.')
                && target.chars().next().is_some_and(char::is_uppercase)
            {
                out.entry(name.to_owned()).or_insert_with(|| {
                    vec![GoField {
                        name: target.to_owned(),
                        ty: ty.to_owned(),
                        embedded: false,
                        json: None,
                        protobuf: Some("alias".to_owned()),
                    }]
                });
            }
            continue;
        }
        let Some(name) = rest.strip_suffix("struct {").map(str::trim) else {
            continue;
        };
        let mut fields = Vec::new();
        for l in lines.by_ref() {
            let l = l.trim();
            if l == "}" {
                break;
            }
            if l.is_empty() {
                continue;
            }
            let (decl, tags) = match l.find('`') {
                Some(i) => (&l[..i], l[i..].trim_matches('`')),
                None => (l, ""),
            };
            let parts: Vec<&str> = decl.split_whitespace().collect();
            let (fname, ty, embedded) = match parts[..] {
                [ty] => (
                    ty.trim_start_matches('*').rsplit('.').next().unwrap_or(ty),
                    ty,
                    true,
                ),
                [n, ty] => (n, ty, false),
                _ => continue,
            };
            fields.push(GoField {
                name: fname.to_owned(),
                ty: ty.to_owned(),
                embedded,
                json: tag_value(tags, "json"),
                protobuf: tag_value(tags, "protobuf"),
            });
        }
        out.insert(name.to_owned(), fields);
    }
}

fn scalar_code(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "string" => "s",
        "bool" => "b",
        "int32" => "i",
        "int64" => "l",
        "uint32" => "u",
        "uint64" => "U",
        "double" => "d",
        "float" => "f",
        "bytes" => "y",
        _ => return None,
    })
}

struct Package {
    dir: PathBuf,
    group_version: String,
    file: ProtoFile,
    structs: HashMap<String, Vec<GoField>>,
}

/// The API group: `// +groupName=` in doc.go, else `const GroupName = ".."` in register.go.
fn group_name(dir: &Path) -> Option<String> {
    let doc = std::fs::read_to_string(dir.join("doc.go")).unwrap_or_default();
    if let Some(g) = doc
        .lines()
        .find_map(|l| l.trim().strip_prefix("// +groupName="))
    {
        return Some(g.to_owned());
    }
    let register = std::fs::read_to_string(dir.join("register.go")).ok()?;
    register
        .lines()
        .find_map(|l| l.trim().strip_prefix("const GroupName = "))
        .map(|g| g.trim_matches('"').to_owned())
}

fn find_protos(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            find_protos(&p, out);
        } else if p.file_name().is_some_and(|n| n == "generated.proto") {
            out.push(p.parent().expect("parent").to_path_buf());
        }
    }
}

fn main() {
    let src = PathBuf::from(std::env::args().nth(1).expect("usage: generate SRC"));
    let mut dirs = Vec::new();
    for tree in [
        "apimachinery/pkg",
        "api",
        "apiextensions-apiserver/pkg/apis",
        "kube-aggregator/pkg/apis",
    ] {
        find_protos(&src.join(tree), &mut dirs);
    }
    dirs.retain(|d| !d.to_string_lossy().contains("testapigroup"));
    let mut packages: Vec<Package> = Vec::new();
    for dir in dirs {
        let file =
            parse_proto(&std::fs::read_to_string(dir.join("generated.proto")).expect("proto"));
        let mut structs = HashMap::new();
        let mut go_files: Vec<_> = std::fs::read_dir(&dir)
            .expect("package dir")
            .map(|e| e.expect("entry").path())
            .filter(|p| {
                let n = p.file_name().unwrap_or_default().to_string_lossy();
                n.ends_with(".go")
                    && !n.ends_with("_test.go")
                    && !n.starts_with("zz_generated")
                    && !n.starts_with("generated.")
            })
            .collect();
        go_files.sort();
        for f in go_files {
            parse_go_structs(&std::fs::read_to_string(&f).expect("go file"), &mut structs);
        }
        let version = dir
            .file_name()
            .expect("version")
            .to_string_lossy()
            .into_owned();
        let group_version = match group_name(&dir) {
            Some(g) if g.is_empty() => version,
            Some(g) => format!("{g}/{version}"),
            None if file.package == "k8s.io.api.core.v1" => version,
            None => "-".to_owned(),
        };
        packages.push(Package {
            dir,
            group_version,
            file,
            structs,
        });
    }
    // Resolve `type X pkg.Y` to Y's struct found in another package.
    let all: HashMap<String, Vec<(usize, String)>> =
        packages
            .iter()
            .enumerate()
            .fold(HashMap::new(), |mut m, (i, p)| {
                for name in p.structs.keys() {
                    m.entry(name.clone()).or_default().push((i, name.clone()));
                }
                m
            });
    for i in 0..packages.len() {
        let aliases: Vec<(String, String, String)> = packages[i]
            .structs
            .iter()
            .filter(|(_, f)| f.len() == 1 && f[0].protobuf.as_deref() == Some("alias"))
            .map(|(n, f)| (n.clone(), f[0].name.clone(), f[0].ty.clone()))
            .collect();
        for (name, target, ty) in aliases {
            let qualifier = ty.split_once('.').map_or("", |(q, _)| q);
            let candidates: Vec<usize> = all
                .get(&target)
                .into_iter()
                .flatten()
                .map(|(j, _)| *j)
                .filter(|&j| {
                    j != i && packages[j].dir.ends_with(qualifier)
                        || qualifier == "metav1" && packages[j].file.package.ends_with("meta.v1")
                })
                .collect();
            let source = candidates
                .iter()
                .copied()
                .find(|&j| packages[j].dir.parent() == packages[i].dir.parent())
                .or(candidates.first().copied());
            match source {
                Some(j) => {
                    let fields = packages[j].structs[&target]
                        .iter()
                        .map(|f| GoField {
                            name: f.name.clone(),
                            ty: f.ty.clone(),
                            embedded: f.embedded,
                            json: f.json.clone(),
                            protobuf: f.protobuf.clone(),
                        })
                        .collect();
                    packages[i].structs.insert(name, fields);
                }
                None => {
                    packages[i].structs.remove(&name);
                }
            }
        }
    }
    let index: HashMap<String, usize> = packages
        .iter()
        .enumerate()
        .map(|(i, p)| (p.file.package.clone(), i))
        .collect();

    let mut out = String::new();
    out.push_str(HEADER);
    let mut problems = Vec::new();
    for (pi, pkg) in packages.iter().enumerate() {
        writeln!(out, "P {} {}", pkg.file.package, pkg.group_version).expect("write");
        let mut messages: Vec<&ProtoMessage> = pkg.file.messages.iter().collect();
        messages.sort_by(|a, b| a.name.cmp(&b.name));
        for msg in messages {
            let full = format!("{}.{}", pkg.file.package, msg.name);
            let special = is_special(&full);
            writeln!(out, "M {}", msg.name).expect("write");
            let go = pkg.structs.get(&msg.name);
            if go.is_none() && !special {
                problems.push(format!("{full}: no Go struct in {}", pkg.dir.display()));
            }
            let mut fields: Vec<&ProtoField> = msg.fields.iter().collect();
            fields.sort_by_key(|f| f.number);
            for f in fields {
                let mut ty_ref = |ty: &str| {
                    type_ref(&index, pi, ty).unwrap_or_else(|e| {
                        problems.push(format!("{full}.{}: {e}", f.name));
                        String::from("?")
                    })
                };
                let key = f.map_key.as_deref().map(&mut ty_ref);
                let value = ty_ref(&f.ty);
                let (json, flags) = if special {
                    (f.name.clone(), String::new())
                } else if let Some(gf) = go.and_then(|g| go_field(g, f.number)) {
                    go_flags(gf)
                } else {
                    problems.push(format!("{full}.{} = {}: no Go field", f.name, f.number));
                    (f.name.clone(), String::new())
                };
                let mut flags = flags;
                if f.repeated {
                    flags.push('[');
                }
                let flags = if flags.is_empty() {
                    "-".to_owned()
                } else {
                    flags
                };
                match key {
                    Some(k) => writeln!(out, "{} {json} {k} {flags}{{ {value}", f.number),
                    None => writeln!(out, "{} {json} {value} {flags}", f.number),
                }
                .expect("write");
            }
        }
    }
    if !problems.is_empty() {
        for p in &problems {
            eprintln!("{p}");
        }
        std::process::exit(1);
    }
    print!("{out}");
}

fn type_ref(index: &HashMap<String, usize>, pi: usize, ty: &str) -> Result<String, String> {
    if let Some(c) = scalar_code(ty) {
        return Ok(c.to_owned());
    }
    let ty = ty.trim_start_matches('.');
    match ty.rsplit_once('.') {
        Some((p, n)) => match index.get(p) {
            Some(&i) if i == pi => Ok(format!(".{n}")),
            Some(&i) => Ok(format!("{i}.{n}")),
            None => Err(format!("unknown type {ty}")),
        },
        None => Ok(format!(".{ty}")),
    }
}

fn go_field(fields: &[GoField], number: u32) -> Option<&GoField> {
    fields.iter().find(|f| {
        f.protobuf
            .as_deref()
            .and_then(|t| t.split(',').nth(1))
            .and_then(|n| n.parse::<u32>().ok())
            == Some(number)
    })
}

/// The JSON name and flags of a Go field: `*` pointer, `o` omitempty, `z` omitzero, `=` an
/// embedded struct whose fields Go's encoding/json inlines.
fn go_flags(f: &GoField) -> (String, String) {
    let tag = f.json.as_deref().unwrap_or("");
    let mut opts = tag.split(',');
    let name = opts.next().unwrap_or("");
    let opts: Vec<&str> = opts.collect();
    let mut flags = String::new();
    if f.ty.starts_with('*') {
        flags.push('*');
    }
    if opts.contains(&"omitempty") {
        flags.push('o');
    }
    if opts.contains(&"omitzero") {
        flags.push('z');
    }
    let json = if name == "-" {
        "-".to_owned()
    } else if !name.is_empty() {
        name.to_owned()
    } else if f.embedded {
        flags.push('=');
        "-".to_owned()
    } else {
        f.name.clone()
    };
    (json, flags)
}

const HEADER: &str = "\
# crdkit-protobuf message descriptors for Kubernetes 1.35 (k8s.io/api, apimachinery,
# apiextensions-apiserver v0.35.7, kube-aggregator v0.35.6), written by examples/generate.rs.
# Derived from Kubernetes' generated.proto files and Go types (Apache-2.0, The Kubernetes
# Authors); see data/NOTICE. Do not edit: regenerate.
#
# P <proto package> <group/version, or - >       a package; its messages follow
# M <name>                                        a message; its fields follow, by number
# <number> <json name or -> <type> <flags>[{ <value type>]
#   type: s string, b bool, i int32, l int64, u uint32, U uint64, d double, f float, y bytes,
#         .Name a message of this package, N.Name of the N-th package (from 0)
#   flags: * pointer, o omitempty, z omitzero, = embedded (inlined), [ repeated, { map, - none
";
