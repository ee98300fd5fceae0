//! Rules from fuzz bytes. Each byte is a choice; past the input's end every choice is 0, the
//! simplest option, so generation always ends. The generator walks the CEL declaration of the
//! rule's node: paths follow real fields, list items and map values (with now and then a field
//! that does not exist), and what is done with a value depends on its type (string functions
//! on strings, list library calls on lists, comparisons with literals of its kind), so that
//! most rules compile and their costs come from the schema's sizes. The rest is any call of the
//! overload table with any arguments, which explores the error messages.

use crdkit_cel_check::decl::{DeclKind, DeclType};
use crdkit_cel_check::env::{OVERLOADS, OverloadDecl};
use crdkit_cel_check::types::{Type, TypeSpec};

pub(crate) struct Gen<'a> {
    data: &'a [u8],
    pos: usize,
    /// The declaration of `self` (and `oldSelf`).
    pub(crate) root: Option<DeclType>,
    /// Comprehension variables in scope, with what they hold.
    vars: Vec<(String, Option<DeclType>)>,
    /// Nodes left to generate.
    budget: usize,
}

const INTS: &[&str] = &["0", "1", "2", "-1", "10", "100", "3", "9223372036854775807"];
const STRINGS: &[&str] = &[
    "'a'",
    "''",
    "'abc'",
    "'[a-z]+'",
    "'^[a-z]*$'",
    "'['",
    "'%s'",
    "'%d'",
    "'1h'",
    "'1Gi'",
    "'10.0.0.1'",
    "'10.0.0.0/8'",
    "'https://a.b/c?d=e'",
    "'1.2.3'",
    "'2020-01-01T00:00:00Z'",
    "'é'",
    "'.'",
    "'a,b'",
];
const OTHER_LITERALS: &[&str] = &[
    "true",
    "null",
    "1u",
    "1.5",
    "0.0",
    "b'ab'",
    "duration('1h')",
    "timestamp('2020-01-01T00:00:00Z')",
    "duration('1x')",
    "[]",
    "{}",
    "int",
    "[1, 2]",
    "['a', 'b']",
    "{'a': 1}",
];
const COMPARISONS: &[&str] = &["==", "!=", "<", "<=", ">", ">="];
const ARITHMETIC: &[&str] = &["+", "-", "*", "/", "%"];
const VAR_NAMES: &[&str] = &["x", "y", "e", "k", "v"];
const BOGUS_FIELDS: &[&str] = &[
    "nope",
    "namespace",
    "__namespace__",
    "x__dash__prop",
    "kind",
];
/// CEL's reserved words: functions of the table spelled so (`in`) cannot be called by name.
const RESERVED: &[&str] = &[
    "as",
    "break",
    "const",
    "continue",
    "else",
    "false",
    "for",
    "function",
    "if",
    "import",
    "in",
    "let",
    "loop",
    "package",
    "namespace",
    "null",
    "return",
    "true",
    "var",
    "void",
    "while",
];

/// What to do with a value of each kind: `$` is the value, `@S` a string literal, `@N` an int
/// literal, `@E` any expression, `@B` a condition.
const ON_STRING: &[&str] = &[
    "$ == @S",
    "$.size() < @N",
    "$.matches(@S)",
    "$.startsWith(@S)",
    "$.endsWith(@S)",
    "$.contains(@S)",
    "$.lowerAscii() == $",
    "$.upperAscii() != @S",
    "$.trim() == @S",
    "$.split(@S).size() < @N",
    "$.split(@S, @N).size() < @N",
    "$.replace(@S, @S) == @S",
    "$.replace(@S, @S, @N) != $",
    "$.find(@S) == @S",
    "$.findAll(@S).size() > @N",
    "$.findAll(@S, @N).size() > @N",
    "$.indexOf(@S) < @N",
    "$.lastIndexOf(@S, @N) < @N",
    "$.substring(@N) == @S",
    "$.charAt(@N) != @S",
    "$ + @S == $",
    "$ < @S",
    "$ >= $",
    "@S in [$, @S]",
    "isURL($) && url($).getHost() == @S",
    "url($) == url(@S)",
    "isIP($) && ip($).family() == @N",
    "ip.isCanonical($)",
    "isCIDR($) && cidr($).containsIP(@S)",
    "cidr($).containsCIDR($)",
    "isQuantity($) && quantity($).isLessThan(quantity(@S))",
    "quantity($) == quantity(@S)",
    "isSemver($) && semver($).major() > @N",
    "!format.dns1123Label().validate($).hasValue()",
    "'%s'.format([$]) == @S",
    "strings.quote($) != @S",
    "bytes($).size() < @N",
    "int($) > @N",
    "$.join(@S) == @S",
];
const ON_NUMBER: &[&str] = &[
    "$ > @N",
    "$ + @N < @N",
    "$ * 2 == $",
    "$ % 2 == 0",
    "$ / @N > @N",
    "$ in [@N, @N]",
    "$ == 1.5",
    "double($) > 1.5",
    "string($) == @S",
    "int($) == $",
    "$ - $ == @N",
    "$ > 1u",
];
const ON_BOOL: &[&str] = &["$", "!$", "$ == true", "$ || @B", "$ && @B", "$ ? @B : @B"];
const ON_TIME: &[&str] = &[
    "$ < timestamp('2020-01-01T00:00:00Z')",
    "$ + duration('1h') > $",
    "$.getHours() < @N",
    "$.getFullYear() > @N",
    "$ > duration('1s')",
    "$.getDayOfWeek('America/New_York') >= @N",
    "string($) == @S",
];
const ON_BYTES: &[&str] = &[
    "$.size() < @N",
    "string($) == @S",
    "$ + b'a' == $",
    "$ == b'ab'",
];
const ON_DYN: &[&str] = &[
    "$ == @N",
    "$ == @S",
    "type($) == int ? $ > @N : $.matches(@S)",
    "type($) == string",
    "$ > @N",
    "dyn($) == @E",
];
const ON_LIST: &[&str] = &[
    "$.size() < @N",
    "size($) == @N",
    "@E in $",
    "$ == $",
    "$ + $ == $",
    "$[0] == @E",
    "$.sum() > @N",
    "$.min() < @N",
    "$.max() > @E",
    "$.isSorted()",
    "$.indexOf(@E) < @N",
    "$.lastIndexOf(@E) >= @N",
    "$.includes(@E)",
    "$.join(@S).size() < @N",
    "$.join().contains(@S)",
    "$.sort() == $",
    "$.reverse().size() == @N",
    "$.distinct().size() < @N",
    "$.slice(0, @N).size() < @N",
    "$.flatten().size() < @N",
    "sets.contains($, $)",
    "sets.intersects($, [@E])",
    "sets.equivalent($, $)",
    "$.first().hasValue()",
    "$.last().orValue(@E) == @E",
    "$[?0].hasValue()",
    "lists.range(@N).size() < $.size()",
];
const ON_MAP: &[&str] = &[
    "@S in $",
    "$.size() < @N",
    "size($) == @N",
    "$['a'] == @E",
    "$.?a.orValue(@E) == @E",
    "$[?'a'].hasValue()",
    "$ == $",
];
const ON_OBJECT: &[&str] = &["$ == $", "$ != oldSelf", "type($) == @E"];

/// The macros of one iteration variable (`m` with a second expression for `map(x, p, e)`),
/// then those of two.
const MACROS: &[&str] = &[
    "all",
    "exists",
    "exists_one",
    "map",
    "filter",
    "sortBy",
    "m",
];
const TWO_VAR: &[&str] = &[
    "all",
    "exists",
    "existsOne",
    "transformList",
    "transformMap",
    "transformMapEntry",
];

impl<'a> Gen<'a> {
    pub(crate) fn new(data: &'a [u8]) -> Gen<'a> {
        Gen {
            data,
            pos: 0,
            root: None,
            vars: Vec::new(),
            budget: 0,
        }
    }

    pub(crate) fn byte(&mut self) -> u8 {
        let b = self.data.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        b
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        usize::from(self.byte()) % n
    }

    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }

    fn done(&self) -> bool {
        self.pos >= self.data.len() || self.budget == 0
    }

    /// A rule (usually a condition).
    pub(crate) fn rule(&mut self) -> String {
        self.budget = 40;
        self.cond(4)
    }

    /// A message expression (usually a string).
    pub(crate) fn message(&mut self) -> String {
        self.budget = 12;
        match self.below(5) {
            0 => self.expr(2),
            1 => format!("'bad: ' + string({})", self.path().0),
            2 => format!("'%s'.format([{}])", self.expr(1)),
            3 => format!("{} + {}", self.pick(STRINGS), self.typed(1)),
            _ => self.pick(STRINGS).to_string(),
        }
    }

    fn literal(&mut self) -> String {
        match self.below(3) {
            0 => self.pick(INTS),
            1 => self.pick(STRINGS),
            _ => self.pick(OTHER_LITERALS),
        }
        .to_string()
    }

    /// A path from `self`, `oldSelf` or a comprehension variable, following the declarations.
    fn path(&mut self) -> (String, Option<DeclType>) {
        let (mut text, mut decl) = match self.below(8) {
            0..=3 if !self.vars.is_empty() => {
                let i = self.below(self.vars.len());
                self.vars[self.vars.len() - 1 - i].clone()
            }
            6 => ("oldSelf".to_string(), self.root.clone()),
            _ => ("self".to_string(), self.root.clone()),
        };
        let steps = self.below(4);
        for _ in 0..steps {
            let Some(d) = decl.clone() else { break };
            match &d.kind {
                DeclKind::Object { fields, .. } if !fields.is_empty() => {
                    if self.below(16) == 0 {
                        text.push('.');
                        text.push_str(self.pick(BOGUS_FIELDS));
                        decl = None;
                    } else {
                        let i = self.below(fields.len());
                        let (name, f) = fields.iter().nth(i).expect("in range");
                        text.push_str(if self.below(12) == 0 { ".?" } else { "." });
                        text.push_str(name);
                        decl = Some(f.ty.clone());
                    }
                }
                DeclKind::List(e) => {
                    text.push_str(if self.below(8) == 0 { "[?0]" } else { "[0]" });
                    decl = Some((**e).clone());
                }
                DeclKind::Map(_, v) => {
                    text.push_str(match self.below(4) {
                        0 => ".a",
                        1 => "[?'a']",
                        _ => "['a']",
                    });
                    decl = Some((**v).clone());
                }
                _ => break,
            }
        }
        (text, decl)
    }

    /// A condition.
    fn cond(&mut self, depth: usize) -> String {
        self.budget = self.budget.saturating_sub(1);
        if depth == 0 || self.done() {
            return self.typed(0);
        }
        match self.below(10) {
            0..=3 => self.typed(depth - 1),
            4 => format!("{} && {}", self.cond(depth - 1), self.cond(depth - 1)),
            5 => format!("{} || {}", self.cond(depth - 1), self.cond(depth - 1)),
            6 => format!("!({})", self.cond(depth - 1)),
            7 => self.comprehension(depth),
            8 => {
                // `has()` takes a field selection.
                let (p, _) = self.path();
                let selects = p.rfind('.').is_some_and(|i| {
                    p[i + 1..]
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'_')
                });
                if selects {
                    format!("has({p})")
                } else {
                    format!("has({p}.nope)")
                }
            }
            _ => self.expr(depth - 1),
        }
    }

    /// Something done with a value of the schema, by its type.
    fn typed(&mut self, depth: usize) -> String {
        let (path, decl) = self.path();
        let table = match decl.as_ref().map(|d| &d.kind) {
            Some(DeclKind::List(_)) => ON_LIST,
            Some(DeclKind::Map(..)) => ON_MAP,
            Some(DeclKind::Object { .. }) => ON_OBJECT,
            Some(DeclKind::Simple(t)) => match t {
                Type::String => ON_STRING,
                Type::Int | Type::Double | Type::Uint => ON_NUMBER,
                Type::Bool => ON_BOOL,
                Type::Timestamp | Type::Duration => ON_TIME,
                Type::Bytes => ON_BYTES,
                _ => ON_DYN,
            },
            None => ON_DYN,
        };
        let template = self.pick(table);
        self.fill(template, &path, depth)
    }

    fn fill(&mut self, template: &str, value: &str, depth: usize) -> String {
        let mut out = String::new();
        let mut chars = template.chars();
        while let Some(c) = chars.next() {
            if c == '$' {
                out.push_str(value);
                continue;
            }
            if c != '@' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('S') => out.push_str(self.pick(STRINGS)),
                Some('N') => out.push_str(self.pick(INTS)),
                Some('E') => {
                    let e = if depth == 0 {
                        self.literal()
                    } else {
                        self.expr(depth - 1)
                    };
                    out.push_str(&format!("({e})"));
                }
                Some('B') => {
                    let b = if depth == 0 {
                        "true".to_string()
                    } else {
                        self.cond(depth - 1)
                    };
                    out.push_str(&format!("({b})"));
                }
                other => out.extend(other),
            }
        }
        out
    }

    /// A macro over a path (a list or a map, when the walk found one).
    fn comprehension(&mut self, depth: usize) -> String {
        let (range, decl) = self.range(depth);
        let (key, value) = match decl.as_ref().map(|d| &d.kind) {
            Some(DeclKind::List(e)) => (None, Some((**e).clone())),
            Some(DeclKind::Map(k, v)) => (Some((**k).clone()), Some((**v).clone())),
            _ => (None, None),
        };
        let x = self.pick(VAR_NAMES).to_string();
        let depth = depth.saturating_sub(1);
        if self.below(4) == 0 {
            let m = self.pick(TWO_VAR);
            let y = if x == "v" { "k" } else { "v" }.to_string();
            self.vars.push((x.clone(), key));
            self.vars.push((y.clone(), value));
            let body = if m.starts_with("transform") {
                self.expr(depth)
            } else {
                self.cond(depth)
            };
            let extra = if m.starts_with("transform") && self.below(3) == 0 {
                format!(", {}", self.cond(depth))
            } else {
                String::new()
            };
            self.vars.truncate(self.vars.len() - 2);
            return format!("{range}.{m}({x}, {y}, {body}{extra})");
        }
        let m = self.pick(MACROS);
        let elem = if key.is_some() { key } else { value };
        self.vars.push((x.clone(), elem));
        let out = match m {
            "map" | "sortBy" => format!("{range}.{m}({x}, {}).size() < 3", self.expr(depth)),
            "m" => format!(
                "{range}.map({x}, {}, {}).size() > 0",
                self.cond(depth),
                self.expr(depth)
            ),
            "filter" => format!("{range}.filter({x}, {}).size() == 1", self.cond(depth)),
            _ => format!("{range}.{m}({x}, {})", self.cond(depth)),
        };
        self.vars.pop();
        out
    }

    /// What a comprehension iterates over: mostly a path, else a value whose sizes the
    /// estimator derives (literals, `+`, `?:`, the result of another comprehension or call).
    fn range(&mut self, depth: usize) -> (String, Option<DeclType>) {
        let (path, decl) = self.path();
        if depth == 0 {
            return (path, decl);
        }
        let elem = decl.as_ref().and_then(|d| d.elem().cloned());
        let list = |d: Option<DeclType>| {
            d.map(|e| DeclType {
                kind: DeclKind::List(Box::new(e)),
                max_elements: 0,
                min_serialized_size: 2,
            })
        };
        match self.below(12) {
            0 => ("[1, 2, 3]".into(), None),
            1 => ("['a', 'bc']".into(), None),
            2 => ("{'a': 1, 'b': 2}".into(), None),
            3 => (format!("({path} + {path})"), decl),
            4 => {
                let c = self.cond(depth - 1);
                (format!("({c} ? {path} : {path})"), decl)
            }
            5 => {
                let x = self.pick(VAR_NAMES).to_string();
                self.vars.push((x.clone(), elem.clone()));
                let f = self.expr(depth - 1);
                self.vars.pop();
                (format!("{path}.map({x}, {f})"), None)
            }
            6 => {
                let x = self.pick(VAR_NAMES).to_string();
                self.vars.push((x.clone(), elem.clone()));
                let c = self.cond(depth - 1);
                self.vars.pop();
                (format!("{path}.filter({x}, {c})"), decl)
            }
            7 => (format!("lists.range({})", self.pick(INTS)), None),
            8 => (format!("{path}.split({})", self.pick(STRINGS)), None),
            9 => (format!("({path}).sort()"), list(elem)),
            _ => (path, decl),
        }
    }

    /// Any function of the table, with any arguments (literals of the declared types half of
    /// the time).
    fn call(&mut self, depth: usize) -> String {
        let callable: Vec<&OverloadDecl> = OVERLOADS
            .iter()
            .filter(|o| {
                o.function.as_bytes()[0].is_ascii_alphabetic()
                    && o.function
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || b == b'.')
                    && !RESERVED.contains(&o.function)
            })
            .collect();
        let hi = usize::from(self.byte());
        let o = callable[(hi * 256 + self.below(256)) % callable.len()];
        let mut args: Vec<String> = o.params.iter().map(|p| self.of_spec(p, depth)).collect();
        if o.receiver_style && !args.is_empty() {
            let target = args.remove(0);
            format!("({target}).{}({})", o.function, args.join(", "))
        } else {
            format!("{}({})", o.function, args.join(", "))
        }
    }

    /// A literal of a table type, or any expression.
    fn of_spec(&mut self, spec: &TypeSpec, depth: usize) -> String {
        if depth > 0 && self.below(2) == 0 {
            return self.expr(depth - 1);
        }
        match spec {
            TypeSpec::Int => self.pick(INTS).to_string(),
            TypeSpec::Uint => "1u".into(),
            TypeSpec::Double => "1.5".into(),
            TypeSpec::Bool => "true".into(),
            TypeSpec::String => self.pick(STRINGS).to_string(),
            TypeSpec::Bytes => "b'ab'".into(),
            TypeSpec::List(e) => format!("[{}]", self.of_spec(e, 0)),
            _ => self.path().0,
        }
    }

    /// Any expression.
    fn expr(&mut self, depth: usize) -> String {
        self.budget = self.budget.saturating_sub(1);
        if depth == 0 || self.done() {
            return match self.below(2) {
                0 => self.path().0,
                _ => self.literal(),
            };
        }
        match self.below(10) {
            0 => self.literal(),
            1 | 2 => self.path().0,
            3 => {
                let op = self.pick(ARITHMETIC);
                format!("({}) {op} ({})", self.expr(depth - 1), self.expr(depth - 1))
            }
            4 => {
                let op = self.pick(COMPARISONS);
                format!("({}) {op} ({})", self.expr(depth - 1), self.expr(depth - 1))
            }
            5 => format!(
                "({}) ? ({}) : ({})",
                self.cond(depth - 1),
                self.expr(depth - 1),
                self.expr(depth - 1)
            ),
            6 | 7 => self.call(depth - 1),
            8 => self.typed(depth - 1),
            _ => match self.below(5) {
                0 => format!("[{}, {}]", self.expr(depth - 1), self.expr(depth - 1)),
                1 => format!("{{{}: {}}}", self.literal(), self.expr(depth - 1)),
                2 => format!("optional.of({})", self.expr(depth - 1)),
                3 => format!("-({})", self.expr(depth - 1)),
                _ => format!(
                    "({}).orValue({})",
                    self.expr(depth - 1),
                    self.expr(depth - 1)
                ),
            },
        }
    }
}
