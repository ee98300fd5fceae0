//! Ratcheted OpenAPI validation of an update: one walk of the new and the old object.
//!
//! The API server validates every property, map value and map-list item that correlates with
//! the old object through a ratcheting validator, which drops all errors of its value when the
//! value is unchanged (apiextensions-apiserver `pkg/apiserver/validation/ratcheting.go`,
//! `CachedDeepEqual`). Junctor branches and items of other lists get plain validators (kube-openapi
//! `pkg/validation/validate/schema_option.go`: `Options()` hands no hooks on), so what they
//! report ratchets only with the correlated value that holds them; the root's `apiVersion` and
//! `kind` are never ratcheted on their own.
//!
//! Done after the new object was validated as on create, and only when that found errors: the
//! walk follows those errors down the correlated values that hold them (a value no error names
//! raises none), validates each such value again, and compares it with its old value only when
//! it raised errors of its own, to drop them if it is unchanged. Everything else of both
//! objects is neither validated again nor compared.

use serde_json::{Map, Value};

use super::{At, Children, OpenApi};
use crate::compiled::Node;
use crate::compiled::errors::OpenApiError;
use crate::compiled::properties::sorted_maps;
use crate::ratchet::{MapList, map_list_keys, unchanged};
use crdkit_apimachinery::gofmt;
use crdkit_schema::ListType;

impl OpenApi {
    /// `ValidateCustomResourceUpdate` with ratcheting: the errors of `new` (schema `n`) that are
    /// not on parts equal to `old` go to `self.errors`. `created` are the errors of `new` as on
    /// create: values none of them names raise none and are not visited.
    pub(crate) fn validate_update(
        &mut self,
        n: &Node,
        new: &Value,
        old: &Value,
        created: &[OpenApiError],
    ) {
        self.update(n, new, old, &At::ROOT, true, created);
    }

    /// A value correlated with `old`, at `at`: validated, its children that correlate each on
    /// their own; what it raises itself is dropped when it is unchanged.
    fn update(
        &mut self,
        n: &Node,
        new: &Value,
        old: &Value,
        at: &At,
        root: bool,
        created: &[OpenApiError],
    ) {
        let olds = match (new, old) {
            (Value::Object(_), Value::Object(old_map)) => Olds::Map(OldKeys::new(old_map)),
            (Value::Array(_), Value::Array(old_items)) if is_map_list(n) => {
                Olds::List(MapList::with_keys(map_list_keys(n), old_items))
            }
            // Nothing below correlates: unchanged, it drops all it raises (and an error names
            // it, so it raises some); changed, it keeps all.
            _ => {
                if !unchanged(n, new, old, self.depth) {
                    self.check(n, new, at);
                }
                return;
            }
        };
        let mark = self.errors.len();
        let mut c = Correlate {
            olds,
            root,
            created,
            path: at.render(),
            items: None,
            raised_below: 0,
        };
        self.check_with(n, new, at, &mut c);
        let own = self.errors.len() - mark - c.raised_below;
        if own > 0 && unchanged(n, new, old, self.depth) {
            // Unchanged, so were its correlated children: they raised nothing.
            self.errors.truncate(mark);
        }
    }
}

/// Items of `x-kubernetes-list-type: map` lists correlate by their keys.
fn is_map_list(n: &Node) -> bool {
    n.structure.list_type == Some(ListType::Map)
}

/// The old counterparts of a container's children.
enum Olds<'o> {
    Map(OldKeys<'o>),
    List(MapList<'o>),
}

/// The children of a container that correlates with an old value: those some error names are
/// validated, each through [`OpenApi::update`] where it has an old counterpart.
struct Correlate<'o, 'e> {
    olds: Olds<'o>,
    /// The object is the root: `apiVersion` and `kind` are not ratcheted on their own.
    root: bool,
    /// The errors of the new object as on create, and the container's path as they name it.
    created: &'e [OpenApiError],
    path: String,
    /// The indices of items they name, collected on the first item (`None` inside: any).
    items: Option<Option<Vec<usize>>>,
    /// How many errors the correlated children raised (they ratchet on their own).
    raised_below: usize,
}

impl Correlate<'_, '_> {
    /// Whether some error may be about the value of key `k` (or below it).
    fn names_key(&self, k: &str) -> bool {
        let name = if self.path.is_empty() {
            k.to_owned()
        } else {
            format!("{}.{k}", self.path)
        };
        names(self.created, &name)
    }

    /// Whether some error may be about item `i` (or below it).
    fn names_item(&mut self, i: usize) -> bool {
        let (path, created) = (&self.path, self.created);
        let items = self.items.get_or_insert_with(|| {
            if gofmt::quote(path).len() != path.len() + 2 {
                return None;
            }
            let open = format!("{path}[");
            let mut found = Vec::new();
            for e in created {
                let m = e.message();
                for (at, _) in m.match_indices(&open) {
                    let digits = &m[at + open.len()..];
                    let end = digits.find(|c: char| !c.is_ascii_digit());
                    match end.map(|end| digits[..end].parse()) {
                        Some(Ok(index)) => found.push(index),
                        // A key that looks like an index: look at every item.
                        _ => return None,
                    }
                }
            }
            Some(found)
        });
        items.as_ref().is_none_or(|found| found.contains(&i))
    }

    fn child(
        &mut self,
        o: &mut OpenApi,
        n: &Node,
        v: &Value,
        old: Option<&Value>,
        at: &At,
    ) -> usize {
        match old {
            Some(old) => {
                let before = o.errors.len();
                o.update(n, v, old, at, false, self.created);
                self.raised_below += o.errors.len() - before;
                0
            }
            None => o.check(n, v, at),
        }
    }
}

/// Whether one of `errors` may be about the value at kube-openapi path `name` or below it
/// (every message names the path it is about; a name Go would quote differently is assumed to).
fn names(errors: &[OpenApiError], name: &str) -> bool {
    gofmt::quote(name).len() != name.len() + 2 || errors.iter().any(|e| e.message().contains(name))
}

impl Children for Correlate<'_, '_> {
    fn property(&mut self, o: &mut OpenApi, n: &Node, k: &str, v: &Value, at: &At) -> usize {
        if !self.names_key(k) {
            return 0;
        }
        if self.root && (k == "apiVersion" || k == "kind") {
            return o.check(n, v, at);
        }
        let old = match &mut self.olds {
            Olds::Map(olds) => olds.find(k),
            Olds::List(_) => None,
        };
        self.child(o, n, v, old, at)
    }

    fn item(&mut self, o: &mut OpenApi, n: &Node, i: usize, v: &Value, at: &At) -> usize {
        if !self.names_item(i) {
            return 0;
        }
        let old = match &self.olds {
            Olds::List(olds) => olds.get(v),
            Olds::Map(_) => None,
        };
        self.child(o, n, v, old, at)
    }
}

/// The values of an old object looked up by key. The check asks for keys in the map's order
/// (twice: values of `additionalProperties`, then properties), so with sorted maps a cursor over
/// the old object finds each in a comparison or two.
struct OldKeys<'o> {
    map: &'o Map<String, Value>,
    iter: serde_json::map::Iter<'o>,
    head: Option<(&'o String, &'o Value)>,
    /// The last old key the cursor moved past: a key up to it starts over.
    behind: Option<&'o str>,
}

impl<'o> OldKeys<'o> {
    fn new(map: &'o Map<String, Value>) -> OldKeys<'o> {
        let mut iter = map.iter();
        let head = iter.next();
        OldKeys {
            map,
            iter,
            head,
            behind: None,
        }
    }

    fn find(&mut self, k: &str) -> Option<&'o Value> {
        if !sorted_maps() {
            return self.map.get(k);
        }
        if self.behind.is_some_and(|b| k <= b) {
            *self = OldKeys::new(self.map);
        }
        while let Some((old_k, old_v)) = self.head {
            let order = old_k.as_str().cmp(k);
            if order.is_gt() {
                return None;
            }
            self.behind = Some(old_k);
            self.head = self.iter.next();
            if order.is_eq() {
                return Some(old_v);
            }
        }
        None
    }
}
