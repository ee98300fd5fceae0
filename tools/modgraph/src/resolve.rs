//! Name resolution, enough of Rust's to say which module a path's item lives in: child
//! modules, items, `use` imports (followed through re-exports) and glob imports.

use crate::tree::{ModId, Tree};

/// Imports are followed at most this deep (a glob that imports itself must not recurse forever).
const MAX_DEPTH: usize = 32;

/// What a path names: a module, or an item defined (or not found) in a module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Res {
    Module(ModId),
    Item(ModId),
}

impl Res {
    /// The module the named thing lives in.
    pub fn module(self) -> ModId {
        match self {
            Res::Module(id) | Res::Item(id) => id,
        }
    }
}

impl Tree {
    /// Resolves `path` as written in module `from`; `None` for paths into other crates, the
    /// prelude or local names.
    pub fn resolve(&self, from: ModId, path: &[String]) -> Option<Res> {
        self.resolve_at(from, path, 0)
    }

    fn resolve_at(&self, from: ModId, path: &[String], depth: usize) -> Option<Res> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (first, rest) = path.split_first()?;
        let mut cur = match first.as_str() {
            "crate" => 0,
            "self" => from,
            "super" => self.modules[from].parent?,
            name => match self.lookup(from, name, depth + 1)? {
                Res::Module(id) => id,
                item @ Res::Item(_) => return Some(item),
            },
        };
        for seg in rest {
            cur = match seg.as_str() {
                "super" => self.modules[cur].parent?,
                "self" => cur,
                name => match self.lookup(cur, name, depth + 1) {
                    Some(Res::Module(id)) => id,
                    Some(item @ Res::Item(_)) => return Some(item),
                    // A name rustc found and we did not (a macro's item, a derive's): its module.
                    None => return Some(Res::Item(cur)),
                },
            };
        }
        Some(Res::Module(cur))
    }

    /// `name` in the scope of module `m`, as Rust looks it up: child modules and items, then
    /// named imports, then glob imports.
    fn lookup(&self, m: ModId, name: &str, depth: usize) -> Option<Res> {
        if depth > MAX_DEPTH {
            return None;
        }
        let module = &self.modules[m];
        if let Some(&child) = module.children.get(name) {
            return Some(Res::Module(child));
        }
        if module.items.contains(name) {
            return Some(Res::Item(m));
        }
        if let Some(path) = module.imports.get(name) {
            // An import of another crate's name still shadows globs.
            return self.resolve_at(m, path, depth + 1);
        }
        module
            .globs
            .iter()
            .find_map(|glob| match self.resolve_at(m, glob, depth + 1)? {
                Res::Module(g) if g != m => self.lookup(g, name, depth + 1),
                _ => None,
            })
    }
}
