//! The garbage collector: objects whose owners are gone are deleted, owners deleted in the
//! foreground wait for their blocking dependents, orphaning owners release their dependents.
//!
//! Mirrors kube-controller-manager `pkg/controller/garbagecollector`: `graph_builder.go` (a graph
//! of every object's `ownerReferences`, fed by watch events, with the transitions that queue
//! work: references changed, an owner observed deleting with `foregroundDeletion` or `orphan`,
//! an object gone) and `garbagecollector.go` (`attemptToDeleteItem`: owners classified as solid,
//! dangling or waiting for their dependents' deletion; references to dangling and waiting owners
//! removed from an object that keeps a solid one; otherwise the object deleted, in the
//! foreground when a waiting owner needs it to be and it has dependents itself, else with the
//! policy its own finalizers name; `processDeletingDependentsItem`: the `foregroundDeletion`
//! finalizer removed once no dependent with `blockOwnerDeletion` is left; `orphanDependents`:
//! the owner's references removed from every dependent, then the `orphan` finalizer).
//!
//! What differs: the graph observes every key of the storage prefix, so an owner absent from it
//! is absent (Go verifies "virtual" owners with a live read); an owner reference to a kind the
//! server does not serve is left alone, as Go leaves it while it cannot resolve the kind. Writes
//! are compare-and-swap on storage, retried on conflict, so several servers on one store may run
//! it side by side.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use crdkit_storage::EventKind;
use futures_util::StreamExt;
use serde_json::{Value, json};

use crate::api::Api;
use crate::http::status::GroupResource;
use crate::object;
use crate::registry::Strategy;
use crate::registry::custom_resource::CustomResourceStrategy;
use crate::rest::{FOREGROUND_FINALIZER, ORPHAN_FINALIZER, Options, Propagation, delete_object};
use crate::store::cached::{Change, Entry, OwnerRef, Ownership};

/// An object of the graph: the watch cache's entry, whose decoded head carries what the graph
/// reads ([`Ownership`]), shared rather than copied.
#[derive(Clone, Debug)]
struct Node(Arc<Entry>);

impl Node {
    /// The node of a cached object; none for an object without a uid.
    fn of(entry: &Arc<Entry>) -> Option<Node> {
        (!entry.object.ownership.uid.is_empty()).then(|| Node(Arc::clone(entry)))
    }

    fn key(&self) -> &str {
        &self.0.kv.key
    }

    fn name(&self) -> &str {
        &self.0.object.name
    }

    fn namespace(&self) -> &str {
        &self.0.object.namespace
    }

    fn ownership(&self) -> &Ownership {
        &self.0.object.ownership
    }

    fn uid(&self) -> &str {
        &self.ownership().uid
    }

    fn owners(&self) -> &[OwnerRef] {
        &self.ownership().owners
    }

    fn deleting(&self) -> bool {
        self.ownership().deleting
    }

    fn has(&self, finalizer: &str) -> bool {
        self.ownership().finalizers.iter().any(|f| f == finalizer)
    }

    /// `isDeletingDependents`.
    fn deleting_dependents(&self) -> bool {
        self.deleting() && self.has(FOREGROUND_FINALIZER)
    }
}

/// Work queued by graph changes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Work {
    AttemptToDelete(String),
    Orphan(String),
}

/// The owner graph and the work it queued.
#[derive(Default)]
struct Graph {
    /// By uid.
    nodes: HashMap<String, Node>,
    /// Owner uid → dependent uids (also for owners not in the graph).
    dependents: HashMap<String, BTreeSet<String>>,
    queue: VecDeque<Work>,
    queued: HashSet<Work>,
}

impl Graph {
    fn push(&mut self, w: Work) {
        if self.queued.insert(w.clone()) {
            self.queue.push_back(w);
        }
    }

    fn pop(&mut self) -> Option<Work> {
        let w = self.queue.pop_front()?;
        self.queued.remove(&w);
        Some(w)
    }

    /// Queues the owners of `owners` that wait for their dependents (a blocking dependent may
    /// have gone or let go).
    fn requeue_waiting_owners(&mut self, owners: &[OwnerRef]) {
        for r in owners {
            if self
                .nodes
                .get(&r.uid)
                .is_some_and(|n| n.deleting_dependents())
            {
                self.push(Work::AttemptToDelete(r.uid.clone()));
            }
        }
    }

    fn remove(&mut self, uid: &str) -> Option<Node> {
        let node = self.nodes.remove(uid)?;
        for r in node.owners() {
            if let Some(d) = self.dependents.get_mut(&r.uid) {
                d.remove(uid);
                if d.is_empty() {
                    self.dependents.remove(&r.uid);
                }
            }
        }
        Some(node)
    }

    /// `processGraphChanges` for one stored change.
    fn observe(&mut self, c: &Change) {
        let (node, before) = match c.kind {
            // The last state of the key.
            EventKind::Deleted => (None, Some(&c.object)),
            _ => (Node::of(&c.object), c.prev.as_ref()),
        };
        // A key deleted, or reused by a new object (another uid), is the old object gone first.
        let old_uid = before.map(|b| b.object.ownership.uid.as_str());
        if let Some(old_uid) = old_uid.filter(|u| !u.is_empty())
            && node.as_ref().is_none_or(|n| n.uid() != old_uid)
            && let Some(old) = self.remove(old_uid)
        {
            for dep in self.dependents.get(old_uid).cloned().unwrap_or_default() {
                self.push(Work::AttemptToDelete(dep));
            }
            self.requeue_waiting_owners(old.owners());
        }
        let Some(node) = node else {
            return;
        };
        let uid = node.uid().to_owned();
        let old = self.remove(&uid);
        for r in node.owners() {
            self.dependents
                .entry(r.uid.clone())
                .or_default()
                .insert(uid.clone());
        }
        let owners_changed = old.as_ref().is_none_or(|o| o.owners() != node.owners());
        let starts_deleting_dependents =
            node.deleting_dependents() && !old.as_ref().is_some_and(Node::deleting_dependents);
        let orphaning = node.deleting() && node.has(ORPHAN_FINALIZER);
        let deletion_changed = old.as_ref().is_none_or(|o| o.deleting() != node.deleting());
        if let Some(old) = &old
            && owners_changed
        {
            self.requeue_waiting_owners(old.owners());
        }
        let has_owners = !node.owners().is_empty();
        self.nodes.insert(uid.clone(), node.clone());
        if owners_changed && has_owners {
            self.push(Work::AttemptToDelete(uid.clone()));
            self.requeue_waiting_owners(node.owners());
        }
        if deletion_changed {
            self.requeue_waiting_owners(node.owners());
        }
        if starts_deleting_dependents {
            for dep in self.dependents.get(&uid).cloned().unwrap_or_default() {
                self.push(Work::AttemptToDelete(dep));
            }
            self.push(Work::AttemptToDelete(uid.clone()));
        }
        if orphaning {
            self.push(Work::Orphan(uid));
        }
    }

    /// Whether the owner `r` of the object `dependent` exists (`isDangling` inverted): the same
    /// uid, name and kind, in the dependent's namespace unless cluster-scoped.
    fn owner<'a>(&'a self, dependent: &Node, r: &OwnerRef) -> Option<&'a Node> {
        self.nodes.get(&r.uid).filter(|o| {
            o.name() == r.name
                && o.ownership().kind == r.kind
                && o.ownership().group == r.group
                && (o.namespace().is_empty() || o.namespace() == dependent.namespace())
        })
    }
}

/// What `attemptToDeleteItem` decided.
enum Action {
    None,
    /// Remove the references to these owners.
    Unlink(Vec<String>),
    Delete(Propagation),
    /// Remove this finalizer from the object (`foregroundDeletion`, nothing blocks any more).
    RemoveFinalizer(&'static str),
}

fn attempt(graph: &Graph, api: &Api, uid: &str) -> Action {
    let Some(item) = graph.nodes.get(uid) else {
        return Action::None;
    };
    if item.deleting_dependents() {
        // `processDeletingDependentsItem`.
        let blocking: Vec<&String> = graph
            .dependents
            .get(uid)
            .into_iter()
            .flatten()
            .filter(|d| {
                graph
                    .nodes
                    .get(*d)
                    .is_some_and(|dep| dep.owners().iter().any(|r| r.uid == uid && r.block))
            })
            .collect();
        return if blocking.is_empty() {
            Action::RemoveFinalizer(FOREGROUND_FINALIZER)
        } else {
            Action::None
        };
    }
    if item.deleting() || item.owners().is_empty() {
        return Action::None;
    }
    let (mut solid, mut dangling, mut waiting) = (0, Vec::new(), Vec::new());
    for r in item.owners() {
        match graph.owner(item, r) {
            Some(o) if o.deleting_dependents() => waiting.push(r.uid.clone()),
            Some(_) => solid += 1,
            // A kind the server does not serve cannot be looked up: left alone.
            None if !api.serves_kind(&r.group, &r.kind) => solid += 1,
            None => dangling.push(r.uid.clone()),
        }
    }
    if solid > 0 {
        if dangling.is_empty() && waiting.is_empty() {
            return Action::None;
        }
        dangling.extend(waiting);
        return Action::Unlink(dangling);
    }
    if !waiting.is_empty() && graph.dependents.get(uid).is_some_and(|d| !d.is_empty()) {
        return Action::Delete(Propagation::Foreground);
    }
    Action::Delete(if item.has(ORPHAN_FINALIZER) {
        Propagation::Orphan
    } else if item.has(FOREGROUND_FINALIZER) {
        Propagation::Foreground
    } else {
        Propagation::Background
    })
}

/// The strategy of the object stored at `key`.
fn strategy_of(api: &Api, key: &str) -> Option<Arc<dyn Strategy>> {
    if key.starts_with(&api.namespaces.info().prefix) {
        return Some(Arc::clone(&api.namespaces) as Arc<dyn Strategy>);
    }
    if key.starts_with(&api.crds.info().prefix) {
        return Some(Arc::clone(&api.crds) as Arc<dyn Strategy>);
    }
    if let Some(s) = api.builtins.for_key(key) {
        return Some(s as Arc<dyn Strategy>);
    }
    let registry = api
        .registry
        .read()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    registry.all().find_map(|e| {
        let info = e.info(&e.storage_version);
        key.starts_with(&info.prefix).then(|| {
            Arc::new(CustomResourceStrategy::new(
                Arc::clone(e),
                &e.storage_version,
            )) as Arc<dyn Strategy>
        })
    })
}

/// Reads, edits and writes back the object at `node.key` if it still has `uid`; an object whose
/// last finalizer goes while it is deleting is deleted (store.go `deleteForEmptyFinalizers`).
async fn edit(api: &Arc<Api>, node: &Node, uid: &str, f: impl Fn(&mut Value) -> bool) {
    let Some(strategy) = strategy_of(api, node.key()) else {
        return;
    };
    let gr = GroupResource::new(&node.ownership().group, &strategy.info().resource);
    for _ in 0..16 {
        let Ok(current) = api.objects.get(node.key(), &gr, node.name()).await else {
            return;
        };
        let mut obj = current.value;
        if object::uid(&obj) != uid || !f(&mut obj) {
            return;
        }
        let result = if object::is_deleting(&obj) && !strategy.has_finalizers(&obj) {
            crate::rest::delete(
                api,
                &*strategy,
                node.key(),
                node.name(),
                Some(current.revision),
            )
            .await
            .map(drop)
        } else {
            crate::rest::update(api, &*strategy, node.key(), &mut obj, current.revision)
                .await
                .map(drop)
        };
        match result {
            Err(e) if e.code == 409 => {}
            _ => return,
        }
    }
}

fn remove_owner_refs(obj: &mut Value, uids: &[String]) -> bool {
    let Some(refs) = obj["metadata"]["ownerReferences"].as_array() else {
        return false;
    };
    let kept: Vec<Value> = refs
        .iter()
        .filter(|r| !uids.iter().any(|u| r["uid"] == json!(u)))
        .cloned()
        .collect();
    if kept.len() == refs.len() {
        return false;
    }
    object::set_meta(
        obj,
        "ownerReferences",
        (!kept.is_empty()).then(|| json!(kept)),
    );
    true
}

fn remove_finalizer(obj: &mut Value, finalizer: &str) -> bool {
    let fins = object::finalizers(obj);
    if !fins.iter().any(|f| f == finalizer) {
        return false;
    }
    let kept: Vec<String> = fins.into_iter().filter(|f| f != finalizer).collect();
    object::set_finalizers(obj, &kept);
    true
}

async fn run(api: &Arc<Api>, graph: &Graph, work: Work) {
    match work {
        Work::AttemptToDelete(uid) => {
            let Some(node) = graph.nodes.get(&uid) else {
                return;
            };
            match attempt(graph, api, &uid) {
                Action::None => {}
                Action::Unlink(owners) => {
                    edit(api, node, &uid, |o| remove_owner_refs(o, &owners)).await;
                }
                Action::RemoveFinalizer(f) => {
                    edit(api, node, &uid, |o| {
                        object::is_deleting(o) && remove_finalizer(o, f)
                    })
                    .await;
                }
                Action::Delete(policy) => {
                    let Some(strategy) = strategy_of(api, node.key()) else {
                        return;
                    };
                    let o = Options {
                        uid: Some(uid.clone()),
                        policy: Some(policy),
                        ..Options::default()
                    };
                    let ns = (!node.namespace().is_empty()).then_some(node.namespace());
                    let _ = delete_object(api, &strategy, ns, node.name(), &o, false).await;
                }
            }
        }
        Work::Orphan(uid) => {
            let Some(node) = graph.nodes.get(&uid) else {
                return;
            };
            // `orphanDependents`, then the `orphan` finalizer goes.
            let owner = [uid.clone()];
            for dep in graph.dependents.get(&uid).into_iter().flatten() {
                if let Some(d) = graph.nodes.get(dep) {
                    edit(api, d, dep, |o| remove_owner_refs(o, &owner)).await;
                }
            }
            edit(api, node, &uid, |o| {
                object::is_deleting(o) && remove_finalizer(o, ORPHAN_FINALIZER)
            })
            .await;
        }
    }
}

/// Lists everything into a new graph from the watch cache; returns it with the revision read
/// at.
fn load(api: &Arc<Api>) -> Option<(Graph, u64)> {
    let list = api
        .cache
        .list("/registry/", &Default::default(), &|_| true)
        .ok()?;
    let mut graph = Graph::default();
    for entry in &list.items {
        if let Some(node) = Node::of(entry) {
            let uid = node.uid().to_owned();
            for r in node.owners() {
                graph
                    .dependents
                    .entry(r.uid.clone())
                    .or_default()
                    .insert(uid.clone());
            }
            graph.nodes.insert(uid, node);
        }
    }
    // What was pending when the server stopped (or another replica left) is looked at again.
    let uids: Vec<String> = graph.nodes.keys().cloned().collect();
    for uid in uids {
        let n = &graph.nodes[&uid];
        let orphaning = n.deleting() && n.has(ORPHAN_FINALIZER);
        if !n.owners().is_empty() || n.deleting_dependents() {
            graph.push(Work::AttemptToDelete(uid.clone()));
        }
        if orphaning {
            graph.push(Work::Orphan(uid));
        }
    }
    Some((graph, list.revision))
}

/// Runs the garbage collector until shutdown.
pub(crate) async fn run_loop(api: Arc<Api>) {
    loop {
        let Some((mut graph, revision)) = load(&api) else {
            tokio::select! {
                () = api.shutdown.cancelled() => return,
                () = tokio::time::sleep(Duration::from_millis(200)) => continue,
            }
        };
        let Ok(mut watcher) = api.cache.watch("/registry/", revision, None) else {
            continue;
        };
        loop {
            while let Some(w) = graph.pop() {
                if api.shutdown.is_cancelled() {
                    return;
                }
                run(&api, &graph, w).await;
            }
            tokio::select! {
                () = api.shutdown.cancelled() => return,
                event = watcher.next() => match event {
                    Some(Ok(c)) => graph.observe(&c),
                    // Lagged or ended: rebuild from a fresh list.
                    Some(Err(_)) | None => break,
                },
            }
        }
    }
}
