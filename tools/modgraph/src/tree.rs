//! A crate's module tree read from its files: for each module, its child modules, the names it
//! defines, its imports (`use`) and every path it mentions.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::lex::{Tok, Token, tokenize};

/// An index into [`Tree::modules`].
pub type ModId = usize;

/// One module: a file, or an inline `mod name { … }` block.
#[derive(Debug, Default)]
pub struct Module {
    /// The path from the crate root (`["eval", "json"]`); empty for the root.
    pub path: Vec<String>,
    pub parent: Option<ModId>,
    /// The file of a file module; inline modules have their file's.
    pub file: PathBuf,
    /// Where the files of child modules declared with `mod name;` live.
    dir: PathBuf,
    pub children: BTreeMap<String, ModId>,
    /// Names of items defined here (`fn`, `struct`, `const`, …).
    pub items: BTreeSet<String>,
    /// `use a::b as c;` at module level: `c` → `a::b`.
    pub imports: BTreeMap<String, Vec<String>>,
    /// `use a::b::*;` at module level.
    pub globs: Vec<Vec<String>>,
    /// Every path this module's code mentions, in `use` or inline.
    pub refs: Vec<Ref>,
}

/// A path mentioned in a module's code.
#[derive(Debug, Clone)]
pub struct Ref {
    pub path: Vec<String>,
    pub line: u32,
}

/// The module tree of one crate root (`lib.rs`, `main.rs` or a `bin/` file).
#[derive(Debug)]
pub struct Tree {
    pub modules: Vec<Module>,
}

impl Tree {
    /// Reads the tree rooted at `root_file` (a `lib.rs`, `main.rs` or `bin/*.rs`).
    pub fn read(root_file: &Path) -> Result<Tree, String> {
        Tree::read_with(root_file, &|file| std::fs::read_to_string(file).ok())
    }

    /// Builds a tree from in-memory files (`path` → source); the first is the crate root.
    pub fn from_sources(files: &[(&str, &str)]) -> Result<Tree, String> {
        let map: BTreeMap<PathBuf, &str> =
            files.iter().map(|(p, s)| (PathBuf::from(p), *s)).collect();
        let root = files.first().map_or("lib.rs", |f| f.0);
        Tree::read_with(Path::new(root), &|file| {
            map.get(file).map(|s| (*s).to_owned())
        })
    }

    fn read_with(root_file: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Result<Tree, String> {
        let mut tree = Tree {
            modules: Vec::new(),
        };
        let dir = root_file.parent().unwrap_or(Path::new("")).to_path_buf();
        let root = tree.add(Module {
            file: root_file.to_path_buf(),
            dir,
            ..Module::default()
        });
        let src = read(root_file).ok_or_else(|| format!("{}: cannot read", root_file.display()))?;
        let mut pending = vec![(root, src)];
        while let Some((id, src)) = pending.pop() {
            // Each file is read once; the bound guards against a `mod` graph that never ends.
            if tree.modules.len() > 100_000 {
                return Err("more than 100000 modules".to_owned());
            }
            for (parent, name) in tree.parse_file(id, &tokenize(&src)) {
                let dir = &tree.modules[parent].dir;
                let candidates = [
                    dir.join(format!("{name}.rs")),
                    dir.join(&name).join("mod.rs"),
                ];
                let Some((file, src)) = candidates
                    .into_iter()
                    .find_map(|f| read(&f).map(|s| (f, s)))
                else {
                    let decl = tree.modules[parent].file.display();
                    return Err(format!("{decl}: `mod {name};` has no file"));
                };
                pending.push((tree.add_child(parent, &name, file, true), src));
            }
        }
        Ok(tree)
    }

    /// The module at `path` from the root, if any.
    pub fn find(&self, path: &[&str]) -> Option<ModId> {
        let mut id = 0;
        for seg in path {
            id = *self.modules.get(id)?.children.get(*seg)?;
        }
        Some(id)
    }

    fn add(&mut self, module: Module) -> ModId {
        self.modules.push(module);
        self.modules.len() - 1
    }

    fn add_child(&mut self, parent: ModId, name: &str, file: PathBuf, own_file: bool) -> ModId {
        let p = &self.modules[parent];
        let mut path = p.path.clone();
        path.push(name.to_owned());
        let dir = if !own_file {
            p.dir.join(name)
        } else if file.file_name().is_some_and(|f| f == "mod.rs") {
            file.parent().expect("a file has a parent").to_path_buf()
        } else {
            file.with_extension("")
        };
        let id = self.add(Module {
            path,
            parent: Some(parent),
            file,
            dir,
            ..Module::default()
        });
        self.modules[parent].children.insert(name.to_owned(), id);
        id
    }

    /// Records what the tokens of `file_mod`'s file define, import and mention; returns the
    /// `mod name;` declarations as (declaring module, name).
    fn parse_file(&mut self, file_mod: ModId, toks: &[Token]) -> Vec<(ModId, String)> {
        let mut declared = Vec::new();
        // One entry per open brace: the inline module it opens, if it does.
        let mut braces: Vec<Option<ModId>> = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let module = braces.iter().rev().find_map(|b| *b).unwrap_or(file_mod);
            let at_module_level = braces.last().is_none_or(Option::is_some);
            let prev_is_sep = i > 0 && toks[i - 1].tok == Tok::PathSep;
            match &toks[i].tok {
                Tok::Punct('{') => braces.push(None),
                Tok::Punct('}') => {
                    braces.pop();
                }
                Tok::Ident(kw) if kw == "mod" && at_module_level => {
                    if let (Some(name), Some(next)) =
                        (toks.get(i + 1).and_then(Token::ident), toks.get(i + 2))
                    {
                        if next.is_punct(';') {
                            declared.push((module, name.to_owned()));
                            i += 3;
                            continue;
                        }
                        if next.is_punct('{') {
                            let file = self.modules[module].file.clone();
                            let id = self.add_child(module, name, file, false);
                            braces.push(Some(id));
                            i += 3;
                            continue;
                        }
                    }
                }
                Tok::Ident(kw)
                    if kw == "use" && !toks.get(i + 1).is_some_and(|t| t.is_punct('<')) =>
                {
                    let line = toks[i].line;
                    let (uses, next) = parse_use(toks, i + 1);
                    let m = &mut self.modules[module];
                    for (path, alias) in uses {
                        if at_module_level {
                            match &alias {
                                Some(alias) => {
                                    m.imports.insert(alias.clone(), path.clone());
                                }
                                None => m.globs.push(path.clone()),
                            }
                        }
                        m.refs.push(Ref { path, line });
                    }
                    i = next;
                    continue;
                }
                // `pub(in crate::a)` names a visibility, not a dependency.
                Tok::Ident(kw) if kw == "in" && i > 0 && toks[i - 1].is_punct('(') => {
                    while i < toks.len() && !toks[i].is_punct(')') {
                        i += 1;
                    }
                    continue;
                }
                Tok::Ident(kw) if at_module_level && is_item_keyword(kw, toks.get(i + 1)) => {
                    if let Some(name) = item_name(toks, i) {
                        self.modules[module].items.insert(name.to_owned());
                    }
                }
                Tok::Ident(first)
                    if first != "Self"
                        && !prev_is_sep
                        && toks.get(i + 1).is_some_and(|t| t.tok == Tok::PathSep) =>
                {
                    let line = toks[i].line;
                    let (path, next) = parse_path(toks, i);
                    self.modules[module].refs.push(Ref { path, line });
                    i = next;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        declared
    }
}

fn is_item_keyword(kw: &str, next: Option<&Token>) -> bool {
    match kw {
        "fn" | "struct" | "enum" | "trait" | "type" | "const" | "static" => true,
        // `union` is a keyword only before a name.
        "union" | "macro_rules" => next.is_some_and(|t| t.ident().is_some() || t.is_punct('!')),
        _ => false,
    }
}

/// The name an item keyword at `i` introduces: `fn name`, `static mut NAME`, `macro_rules! name`;
/// none for `const fn` (the `fn` names it), `const _` or `fn(u8)` types.
fn item_name(toks: &[Token], i: usize) -> Option<&str> {
    let mut j = i + 1;
    if toks
        .get(j)
        .is_some_and(|t| t.is_punct('!') || t.ident() == Some("mut"))
    {
        j += 1;
    }
    let name = toks.get(j)?.ident()?;
    let qualifier = ["fn", "unsafe", "async", "extern", "_"];
    (!qualifier.contains(&name)).then_some(name)
}

/// A path starting at `i`: `a::b::c`, stopping before `::<`, `::{` or `::*`.
fn parse_path(toks: &[Token], mut i: usize) -> (Vec<String>, usize) {
    let mut path = Vec::new();
    while let Some(name) = toks.get(i).and_then(Token::ident) {
        path.push(name.to_owned());
        i += 1;
        if toks.get(i).map(|t| &t.tok) == Some(&Tok::PathSep)
            && toks.get(i + 1).and_then(Token::ident).is_some()
        {
            i += 1;
        } else {
            break;
        }
    }
    (path, i)
}

/// An imported path and the name it binds (`None` for a glob).
type Import = (Vec<String>, Option<String>);

/// A `use` tree from `i` (after `use`) to its `;`: each imported path with the name it binds
/// (`None` for a glob). A leading `::` (an extern crate) yields nothing.
fn parse_use(toks: &[Token], i: usize) -> (Vec<Import>, usize) {
    let mut out = Vec::new();
    let end = toks[i..]
        .iter()
        .position(|t| t.is_punct(';'))
        .map_or(toks.len(), |p| i + p);
    if toks.get(i).is_some_and(|t| t.tok != Tok::PathSep) {
        use_tree(&toks[i..end], &mut Vec::new(), &mut out);
    }
    (out, end + 1)
}

fn use_tree(
    toks: &[Token],
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, Option<String>)>,
) {
    let depth = prefix.len();
    let mut i = 0;
    while let Some(tok) = toks.get(i) {
        match &tok.tok {
            Tok::Ident(name) if name == "as" => {
                if let (Some(alias), Some(last)) =
                    (toks.get(i + 1).and_then(Token::ident), out.last_mut())
                {
                    last.1 = Some(alias.to_owned());
                }
                i += 2;
                continue;
            }
            Tok::Ident(name) => {
                let last = !toks.get(i + 1).is_some_and(|t| t.tok == Tok::PathSep);
                if last {
                    let mut path = prefix.clone();
                    if name != "self" {
                        path.push(name.clone());
                    }
                    let bound = path.last().cloned();
                    out.push((path, bound));
                } else {
                    prefix.push(name.clone());
                }
            }
            Tok::Punct('*') => out.push((prefix.clone(), None)),
            Tok::Punct('{') => {
                let close = matching_brace(toks, i);
                // Each comma-separated subtree starts from the same prefix.
                let inner = &toks[i + 1..close];
                let mut start = 0;
                let mut level = 0usize;
                for (k, t) in inner.iter().enumerate() {
                    match t.tok {
                        Tok::Punct('{') => level += 1,
                        Tok::Punct('}') => level = level.saturating_sub(1),
                        Tok::Punct(',') if level == 0 => {
                            use_tree(&inner[start..k], &mut prefix.clone(), out);
                            start = k + 1;
                        }
                        _ => {}
                    }
                }
                use_tree(&inner[start..], &mut prefix.clone(), out);
                i = close + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    prefix.truncate(depth);
}

fn matching_brace(toks: &[Token], open: usize) -> usize {
    let mut level = 0usize;
    for (k, t) in toks.iter().enumerate().skip(open) {
        match t.tok {
            Tok::Punct('{') => level += 1,
            Tok::Punct('}') => {
                level -= 1;
                if level == 0 {
                    return k;
                }
            }
            _ => {}
        }
    }
    toks.len()
}
