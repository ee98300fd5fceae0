//! The import graph between sibling modules and its circles.
//!
//! A reference from module X to an item of module Y is an edge between the two children of
//! their nearest common ancestor that contain X and Y. Those children are the top-level modules
//! of the crate when the ancestor is the root, and the files of one module directory below it.
//! A reference from a module to its ancestor or descendant is no edge: a parent declares its
//! children, and children use what their parent defines (the layer below them).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;

use crate::tree::{ModId, Tree};

/// An edge between two sibling modules with the first reference that makes it.
#[derive(Clone, Debug)]
pub struct Edge {
    pub from: ModId,
    pub to: ModId,
    pub file: PathBuf,
    pub line: u32,
    pub path: String,
}

/// Siblings (children of `parent`) that import each other, with one circle through them.
#[derive(Clone, Debug)]
pub struct Circle {
    pub parent: ModId,
    /// Every module of the strongly connected component, sorted.
    pub members: Vec<ModId>,
    /// One shortest circle, as edges, starting at the first member.
    pub edges: Vec<Edge>,
}

impl Tree {
    fn ancestors(&self, mut m: ModId) -> Vec<ModId> {
        let mut chain = vec![m];
        while let Some(p) = self.modules[m].parent {
            chain.push(p);
            m = p;
        }
        chain.reverse();
        chain
    }

    /// The sibling edges of the whole tree, the first reference kept for each.
    pub fn edges(&self) -> BTreeMap<(ModId, ModId), Edge> {
        let mut edges = BTreeMap::new();
        for (x, module) in self.modules.iter().enumerate() {
            for r in &module.refs {
                let Some(res) = self.resolve(x, &r.path) else {
                    continue;
                };
                let (from, to) = (self.ancestors(x), self.ancestors(res.module()));
                let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
                if let (Some(&a), Some(&b)) = (from.get(common), to.get(common)) {
                    edges.entry((a, b)).or_insert_with(|| Edge {
                        from: a,
                        to: b,
                        file: module.file.clone(),
                        line: r.line,
                        path: r.path.join("::"),
                    });
                }
            }
        }
        edges
    }

    /// Every circle between siblings, parents in tree order.
    pub fn circles(&self) -> Vec<Circle> {
        let edges = self.edges();
        let mut out = Vec::new();
        for parent in 0..self.modules.len() {
            let nodes: Vec<ModId> = self.modules[parent].children.values().copied().collect();
            let succ = |n: ModId| {
                edges
                    .range((n, 0)..=(n, usize::MAX))
                    .map(|(&(_, to), _)| to)
            };
            for members in components(&nodes, &succ) {
                let edges = shortest_circle(members[0], &members, &succ)
                    .windows(2)
                    .map(|w| edges[&(w[0], w[1])].clone())
                    .collect();
                out.push(Circle {
                    parent,
                    members,
                    edges,
                });
            }
        }
        out
    }

    /// `a::b` for a module path; `crate` for the root.
    pub fn name(&self, m: ModId) -> String {
        let path = &self.modules[m].path;
        if path.is_empty() {
            "crate".to_owned()
        } else {
            path.join("::")
        }
    }
}

/// Strongly connected components with more than one node (Tarjan's algorithm, iterative so
/// that a deep graph cannot overflow the stack), each sorted, in order of their first node.
fn components<I: Iterator<Item = ModId>>(
    nodes: &[ModId],
    succ: &dyn Fn(ModId) -> I,
) -> Vec<Vec<ModId>> {
    let set: BTreeSet<ModId> = nodes.iter().copied().collect();
    let mut index: BTreeMap<ModId, usize> = BTreeMap::new();
    let mut low: BTreeMap<ModId, usize> = BTreeMap::new();
    let mut stack: Vec<ModId> = Vec::new();
    let mut on_stack: BTreeSet<ModId> = BTreeSet::new();
    let mut out = Vec::new();
    for &start in nodes {
        if index.contains_key(&start) {
            continue;
        }
        let mut work: Vec<(ModId, Vec<ModId>)> = Vec::new();
        let visit =
            |n: ModId, index: &mut BTreeMap<ModId, usize>, low: &mut BTreeMap<ModId, usize>| {
                let i = index.len();
                index.insert(n, i);
                low.insert(n, i);
                (n, succ(n).filter(|s| set.contains(s)).collect::<Vec<_>>())
            };
        work.push(visit(start, &mut index, &mut low));
        stack.push(start);
        on_stack.insert(start);
        while let Some((n, next)) = work.last_mut() {
            let n = *n;
            if let Some(s) = next.pop() {
                if !index.contains_key(&s) {
                    work.push(visit(s, &mut index, &mut low));
                    stack.push(s);
                    on_stack.insert(s);
                } else if on_stack.contains(&s) {
                    let l = low[&n].min(index[&s]);
                    low.insert(n, l);
                }
                continue;
            }
            work.pop();
            if let Some((parent, _)) = work.last() {
                let l = low[parent].min(low[&n]);
                low.insert(*parent, l);
            }
            if low[&n] == index[&n] {
                let mut component = Vec::new();
                while let Some(m) = stack.pop() {
                    on_stack.remove(&m);
                    component.push(m);
                    if m == n {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort_unstable();
                    out.push(component);
                }
            }
        }
    }
    out.sort();
    out
}

/// The shortest path from `start` back to itself inside `members` (breadth first), as nodes
/// with `start` at both ends.
fn shortest_circle<I: Iterator<Item = ModId>>(
    start: ModId,
    members: &[ModId],
    succ: &dyn Fn(ModId) -> I,
) -> Vec<ModId> {
    let mut came_from: BTreeMap<ModId, ModId> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(n) = queue.pop_front() {
        for s in succ(n).filter(|s| members.contains(s)) {
            if s == start {
                let mut path = vec![start, n];
                let mut cur = n;
                while cur != start {
                    cur = came_from[&cur];
                    path.push(cur);
                }
                path.reverse();
                return path;
            }
            if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(s) {
                e.insert(n);
                queue.push_back(s);
            }
        }
    }
    vec![start]
}
