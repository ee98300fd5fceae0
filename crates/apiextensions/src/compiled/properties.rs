//! The properties of a compiled node and how an object's keys find them: a slot table hashed on
//! the names for lookups in any order (typed values come in field order), and a cursor for
//! objects whose keys come sorted (`serde_json::Map` unless its `preserve_order` feature is
//! on), each name then compared once, mostly as one number.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::ops::Deref;
use std::sync::LazyLock;

use super::Node;

/// A property of a compiled node.
#[derive(Debug)]
pub(crate) struct Property {
    pub(crate) name: String,
    /// [`head`] of the name.
    head: u64,
    pub(crate) node: Node,
    /// How many times `required` names this property.
    pub(crate) required: usize,
}

/// The properties of a node, sorted by name.
#[derive(Debug, Default)]
pub(crate) struct Properties {
    list: Vec<Property>,
    /// Property index + 1 by [`slot`] of the name (0: none); empty when no table of up to 256
    /// slots gives each name its own.
    slots: Vec<u8>,
    /// The seed of [`slot`] for this table.
    seed: u64,
}

impl Deref for Properties {
    type Target = [Property];

    fn deref(&self) -> &[Property] {
        &self.list
    }
}

impl Properties {
    /// Compiles `props`, counting how often `required` names each.
    pub(crate) fn compile<S>(
        props: &BTreeMap<String, S>,
        required: &[String],
        compile: impl Fn(&S) -> Node,
    ) -> Properties {
        let list: Vec<Property> = props
            .iter()
            .map(|(k, v)| Property {
                name: k.clone(),
                head: head(k),
                node: compile(v),
                required: required.iter().filter(|r| *r == k).count(),
            })
            .collect();
        let (slots, seed) = slots(&list).unwrap_or_default();
        Properties { list, slots, seed }
    }

    /// The property named `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Property> {
        let i = if self.slots.is_empty() {
            self.list
                .binary_search_by(|p| p.name.as_str().cmp(name))
                .ok()?
        } else {
            usize::from(self.slots[slot(name, self.slots.len(), self.seed)]).checked_sub(1)?
        };
        let p = &self.list[i];
        (p.name == name).then_some(p)
    }

    /// The property of key `k` of an object whose keys are visited in the map's order, one
    /// call per key; `cursor` starts at 0 for each object.
    #[inline]
    pub(crate) fn at(&self, k: &str, cursor: &mut usize) -> Option<&Property> {
        if sorted_maps() {
            self.at_sorted(k, cursor)
        } else {
            self.get(k)
        }
    }

    /// [`at`](Self::at) when [`sorted_maps`].
    #[inline(always)]
    pub(crate) fn at_sorted(&self, k: &str, cursor: &mut usize) -> Option<&Property> {
        let head = head(k);
        while let Some(p) = self.list.get(*cursor) {
            let order = match p.head.cmp(&head) {
                // Names of up to 8 bytes with equal heads differ in trailing zero bytes only.
                Ordering::Equal if p.name.len() <= 8 && k.len() <= 8 => p.name.len().cmp(&k.len()),
                Ordering::Equal => p.name.as_str().cmp(k),
                o => o,
            };
            match order {
                Ordering::Less => *cursor += 1,
                Ordering::Equal => {
                    *cursor += 1;
                    return Some(p);
                }
                Ordering::Greater => return None,
            }
        }
        None
    }
}

/// Whether `serde_json::Map` iterates in key order (it does unless its `preserve_order` feature
/// is on): then an object's keys find their properties with a cursor.
pub(crate) fn sorted_maps() -> bool {
    static SORTED: LazyLock<bool> = LazyLock::new(|| {
        let mut m = serde_json::Map::new();
        m.insert("b".into(), serde_json::Value::Null);
        m.insert("a".into(), serde_json::Value::Null);
        m.keys().next().is_some_and(|k| k == "a")
    });
    *SORTED
}

/// A table in which every name has a slot of its own and its seed, if one of up to 256 slots
/// is found (`u8` indices: up to 255 properties).
fn slots(list: &[Property]) -> Option<(Vec<u8>, u64)> {
    if list.is_empty() || list.len() > 255 {
        return None;
    }
    let mut len = (list.len() * 2).next_power_of_two().max(8);
    while len <= 256 {
        for seed in 0..8 {
            let mut table = vec![0u8; len];
            let free = list.iter().enumerate().all(|(i, p)| {
                let s = &mut table[slot(&p.name, len, seed)];
                let was = *s;
                *s = u8::try_from(i + 1).unwrap_or(0);
                was == 0
            });
            if free {
                return Some((table, seed));
            }
        }
        len *= 2;
    }
    None
}

/// The slot of `name` in a table of `len` (a power of two) slots: its length and first, second
/// and last bytes, mixed with `seed`.
fn slot(name: &str, len: usize, seed: u64) -> usize {
    let b = name.as_bytes();
    let byte = |i: Option<&u8>| u64::from(i.copied().unwrap_or(0));
    let key =
        (b.len() as u64) | byte(b.first()) << 16 | byte(b.get(1)) << 24 | byte(b.last()) << 32;
    let mixed =
        (key ^ seed.wrapping_mul(0xa24b_aed4_963e_e407)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (mixed >> (64 - len.trailing_zeros())) as usize
}

/// The first 8 bytes of a name as a big-endian number (zero-padded): heads order as the names
/// do, unless they are equal.
#[inline]
fn head(name: &str) -> u64 {
    let b = name.as_bytes();
    if let Some(first) = b.first_chunk::<8>() {
        return u64::from_be_bytes(*first);
    }
    let (mut h, rest) = match b.split_first_chunk::<4>() {
        Some((first, rest)) => (u64::from(u32::from_be_bytes(*first)) << 32, rest),
        None => (0, b),
    };
    let shift = if b.len() >= 4 { 24 } else { 56 };
    for (i, &x) in rest.iter().enumerate() {
        h |= u64::from(x) << (shift - 8 * i);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn props(names: &[&str]) -> Properties {
        let map: BTreeMap<String, ()> = names.iter().map(|n| ((*n).to_owned(), ())).collect();
        Properties::compile(&map, &[], |()| Node::default())
    }

    #[test]
    fn heads_order_as_names() {
        let names = [
            "",
            "a",
            "a\0",
            "ab",
            "abcdefg",
            "abcdefgh",
            "abcdefghi",
            "b",
            "é",
            "z\u{1}",
        ];
        for a in names {
            for b in names {
                let (ha, hb) = (head(a), head(b));
                if ha != hb {
                    assert_eq!(ha.cmp(&hb), a.cmp(b), "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn slot_tables() {
        let ps = props(&[
            "enabled", "labels", "mode", "name", "port", "tags", "targets", "weight",
        ]);
        assert!(!ps.slots.is_empty());
        let many: Vec<String> = (0..200).map(|i| format!("f{i}")).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert_eq!(
            props(&many).get("f150").map(|p| p.name.as_str()),
            Some("f150")
        );
    }

    #[test]
    fn lookups() {
        let names: Vec<String> = (0..40).map(|i| format!("field{i}")).collect();
        let mut all: Vec<&str> = names.iter().map(String::as_str).collect();
        all.extend([
            "a",
            "apiVersion",
            "kind",
            "metadata",
            "spec",
            "status",
            "x".repeat(20).leak(),
        ]);
        for n in [3, 8, 17, 47] {
            let ps = props(&all[..n]);
            for (i, name) in all.iter().enumerate() {
                let found = ps.get(name).map(|p| p.name.as_str());
                assert_eq!(found, (i < n).then_some(*name), "{n} {name}");
            }
            assert!(ps.get("nope").is_none() && ps.get("").is_none());
            // A cursor over sorted keys, some of them unknown.
            let mut keys: Vec<&str> = all.clone();
            keys.push("zzz");
            keys.sort_unstable();
            let mut cursor = 0;
            let got: Vec<&str> = keys
                .iter()
                .filter_map(|k| ps.at(k, &mut cursor).map(|p| p.name.as_str()))
                .collect();
            let mut want: Vec<&str> = all[..n].to_vec();
            want.sort_unstable();
            assert_eq!(got, want);
        }
    }
}
