//! [`Set`] against a reference kept in B-trees (the representation it replaced), on sets drawn
//! by a small deterministic generator: every operation must give the same tree, in the same
//! order.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::json;

use super::{Set, SetBuilder};
use crate::fieldpath::{Path, PathElement};

/// The reference: the same tree in a `BTreeSet` and a `BTreeMap`, with structured-merge-diff's
/// algebra written the obvious way.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Set2 {
    members: BTreeSet<PathElement>,
    children: BTreeMap<PathElement, Set2>,
}

impl Set2 {
    fn insert(&mut self, path: &Path) {
        let Some((last, parents)) = path.0.split_last() else {
            return;
        };
        let mut node = self;
        for pe in parents {
            node = node.children.entry(pe.clone()).or_default();
        }
        node.members.insert(last.clone());
    }

    fn is_empty(&self) -> bool {
        self.members.is_empty() && self.children.values().all(Set2::is_empty)
    }

    fn union(&self, o: &Set2) -> Set2 {
        let mut out = self.clone();
        out.members.extend(o.members.iter().cloned());
        for (pe, c) in &o.children {
            let u = match self.children.get(pe) {
                Some(mine) => mine.union(c),
                None => c.clone(),
            };
            out.children.insert(pe.clone(), u);
        }
        out
    }

    fn intersection(&self, o: &Set2) -> Set2 {
        let mut out = Set2 {
            members: self.members.intersection(&o.members).cloned().collect(),
            ..Set2::default()
        };
        for (pe, c) in &self.children {
            if let Some(theirs) = o.children.get(pe) {
                let i = c.intersection(theirs);
                if !i.is_empty() {
                    out.children.insert(pe.clone(), i);
                }
            }
        }
        out
    }

    fn difference(&self, o: &Set2, recursive: bool) -> Set2 {
        let mut out = Set2 {
            members: self.members.difference(&o.members).cloned().collect(),
            ..Set2::default()
        };
        for (pe, c) in &self.children {
            if recursive && o.members.contains(pe) {
                continue;
            }
            match o.children.get(pe) {
                Some(theirs) => {
                    let d = c.difference(theirs, recursive);
                    if !d.is_empty() {
                        out.children.insert(pe.clone(), d);
                    }
                }
                None => {
                    out.children.insert(pe.clone(), c.clone());
                }
            }
        }
        out
    }

    fn leaves(&self) -> Set2 {
        Set2 {
            members: (self.members.iter())
                .filter(|pe| !self.children.contains_key(pe))
                .cloned()
                .collect(),
            children: (self.children.iter())
                .map(|(pe, c)| (pe.clone(), c.leaves()))
                .collect(),
        }
    }

    fn paths(&self, prefix: &mut Vec<PathElement>, out: &mut Vec<Path>) {
        for pe in &self.members {
            out.push(Path([&prefix[..], std::slice::from_ref(pe)].concat()));
        }
        for (pe, c) in &self.children {
            prefix.push(pe.clone());
            c.paths(prefix, out);
            prefix.pop();
        }
    }
}

/// xorshift64*: the same draws on every run.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }

    fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }

    /// An element of every kind from a small pool, so that sets overlap.
    fn element(&mut self) -> PathElement {
        match self.below(9) {
            0 => PathElement::field("a"),
            1 => PathElement::field("b"),
            2 => PathElement::field("spec"),
            3 => PathElement::key(vec![("name".into(), json!("x"))]),
            4 => PathElement::key(vec![
                ("name".into(), json!("y")),
                ("port".into(), json!(80)),
            ]),
            5 => PathElement::Value(json!(1)),
            6 => PathElement::Value(json!("s")),
            7 => PathElement::Index(0),
            _ => PathElement::Index(2),
        }
    }

    pub(crate) fn paths(&mut self) -> Vec<Path> {
        (0..self.below(30))
            .map(|_| Path((0..=self.below(4)).map(|_| self.element()).collect()))
            .collect()
    }
}

/// The tree of `s` as the reference prints it.
fn same(s: &Set, r: &Set2, what: &str) {
    assert_eq!(
        format!("{s:?}"),
        format!("{r:?}").replace("Set2", "Set"),
        "{what}"
    );
    let mut want = Vec::new();
    r.paths(&mut Vec::new(), &mut want);
    assert_eq!(
        s.iter().collect::<Vec<_>>(),
        want,
        "{what}: iteration order"
    );
    assert_eq!(s.size(), want.len(), "{what}");
    assert_eq!(s.is_empty(), r.is_empty(), "{what}");
}

fn reference(paths: &[Path]) -> Set2 {
    let mut r = Set2::default();
    for p in paths {
        r.insert(p);
    }
    r
}

#[test]
fn algebra_matches_btree_reference() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for case in 0..400 {
        let (pa, pb) = (rng.paths(), rng.paths());
        let (ra, rb) = (reference(&pa), reference(&pb));
        let a = Set::from_paths(pa.iter().cloned());
        let b = Set::from_paths(pb.iter().cloned());
        same(&a, &ra, &format!("{case}: from_paths"));
        same(&b, &rb, &format!("{case}: from_paths"));
        // Inserted one by one in another order, some twice.
        let mut shuffled = pa.clone();
        shuffled.extend(pa.iter().take(3).cloned());
        rng.shuffle(&mut shuffled);
        let mut one_by_one = Set::new();
        for p in &shuffled {
            one_by_one.insert(p);
        }
        assert_eq!(one_by_one, a, "{case}: insert");
        for p in pa.iter().chain(&pb) {
            assert_eq!(a.has(p), pa.contains(p) && !p.is_empty(), "{case}: has {p}");
        }

        same(&a.union(&b), &ra.union(&rb), &format!("{case}: union"));
        same(
            &a.intersection(&b),
            &ra.intersection(&rb),
            &format!("{case}: intersection"),
        );
        let d = ra.difference(&rb, false);
        same(&a.difference(&b), &d, &format!("{case}: difference"));
        let rd = ra.difference(&rb, true);
        same(
            &a.recursive_difference(&b),
            &rd,
            &format!("{case}: recursive_difference"),
        );
        same(&a.leaves(), &ra.leaves(), &format!("{case}: leaves"));

        let mut u = a.clone();
        u.union_with(b.clone());
        same(&u, &ra.union(&rb), &format!("{case}: union_with"));
        let mut r = a.clone();
        r.remove(&b);
        same(&r, &d, &format!("{case}: remove"));
        let mut r = a.clone();
        r.remove_recursive(&b);
        same(&r, &rd, &format!("{case}: remove_recursive"));

        // Minus a larger set: several of its elements fall between two of `a`'s.
        let (u, ru) = (a.union(&b), ra.union(&rb));
        for (recursive, what) in [(false, "remove"), (true, "remove_recursive")] {
            let mut r = b.clone();
            match recursive {
                false => r.remove(&u),
                true => r.remove_recursive(&u),
            }
            same(
                &r,
                &rb.difference(&ru, recursive),
                &format!("{case}: {what} superset"),
            );
            let mut r = u.clone();
            match recursive {
                false => r.remove(&a),
                true => r.remove_recursive(&a),
            }
            same(
                &r,
                &ru.difference(&ra, recursive),
                &format!("{case}: union {what}"),
            );
        }

        assert_eq!(
            Set::from_json_str(&a.to_json_string()).unwrap(),
            a,
            "{case}: FieldsV1"
        );
        assert_eq!(
            Set::from_value(&a.to_value()).unwrap(),
            a,
            "{case}: FieldsV1 value"
        );
    }
}

#[test]
fn builder_joins_children_given_twice() {
    let mut rng = Rng(7);
    for case in 0..200 {
        // Children under a few elements, each given up to three times in any order.
        let mut parts: Vec<(PathElement, Vec<Path>)> = (0..rng.below(12))
            .map(|_| (rng.element(), rng.paths()))
            .collect();
        rng.shuffle(&mut parts);
        let mut members: Vec<PathElement> = (0..rng.below(10)).map(|_| rng.element()).collect();
        members.extend(members.clone());
        rng.shuffle(&mut members);

        let mut b = SetBuilder::default();
        let mut want = Set2::default();
        for pe in &members {
            b.add_member(pe.clone());
            want.insert(&Path(vec![pe.clone()]));
        }
        for (pe, paths) in &parts {
            let child = Set::from_paths(paths.iter().cloned());
            if !child.is_empty_node() {
                b.add_child(pe.clone(), child);
            }
            for p in paths.iter().filter(|p| !p.is_empty()) {
                want.insert(&Path([std::slice::from_ref(pe), &p.0].concat()));
            }
        }
        same(&b.finish(), &want, &format!("{case}"));
    }
}

#[test]
fn fields_v1_element_given_twice_keeps_the_later_subtree() {
    // Two spellings of one value element: as structured-merge-diff reads them, the later one
    // replaces what the earlier put below it; both make the element a member. (Keys are read in
    // serde_json's map order, sorted as strings; here that is also the text's order.)
    let s =
        Set::from_json_str(r#"{"v:\"A\"":{".":{},"f:x":{}},"v:\"\\u0041\"":{".":{},"f:y":{}}}"#)
            .unwrap();
    let v = PathElement::Value(json!("A"));
    let want = Set::from_paths([
        Path(vec![v.clone()]),
        Path(vec![v, PathElement::field("y")]),
    ]);
    assert_eq!(s, want);
}

#[test]
fn drops_deep_sets_without_recursion() {
    let mut s = Set::new();
    let mut node = &mut s;
    for _ in 0..100_000 {
        node = node
            .children
            .get_or_insert_default(&PathElement::field("a"));
    }
    node.members.insert(&PathElement::field("leaf"));
    assert_eq!(s.size(), 1);
}
