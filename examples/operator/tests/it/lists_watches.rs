//! Lists, selectors and watches over what the controller manages.

use std::time::Duration;

use crdkit_example_operator::CronTab;
use futures_util::{StreamExt, TryStreamExt};
use kube::ResourceExt;
use kube::api::{ListParams, Patch, PatchParams, PostParams, WatchEvent, WatchParams};
use kube::runtime::{WatchStreamExt, reflector, watcher};
use serde_json::json;

use crate::common::{crontab, start};

async fn labelled(op: &crate::common::Op, name: &str, labels: serde_json::Value) {
    let mut ct = crontab(name, 1);
    ct.metadata.labels = serde_json::from_value(labels).unwrap();
    op.api.create(&PostParams::default(), &ct).await.unwrap();
}

fn names(l: &kube::core::ObjectList<CronTab>) -> Vec<String> {
    l.items.iter().map(ResourceExt::name_any).collect()
}

#[tokio::test]
async fn equality_selectors() {
    let op = start().await;
    labelled(&op, "a", json!({"tier": "web"})).await;
    labelled(&op, "b", json!({"tier": "db"})).await;
    let l = op
        .api
        .list(&ListParams::default().labels("tier=web"))
        .await
        .unwrap();
    assert_eq!(names(&l), ["a"]);
    let l = op
        .api
        .list(&ListParams::default().labels("tier!=web"))
        .await
        .unwrap();
    assert_eq!(names(&l), ["b"]);
}

#[tokio::test]
async fn set_based_selectors() {
    let op = start().await;
    labelled(&op, "a", json!({"tier": "web", "canary": "1"})).await;
    labelled(&op, "b", json!({"tier": "db"})).await;
    labelled(&op, "c", json!({})).await;
    let l = op
        .api
        .list(&ListParams::default().labels("tier in (web,db),!canary"))
        .await
        .unwrap();
    assert_eq!(names(&l), ["b"]);
    let l = op
        .api
        .list(&ListParams::default().labels("tier notin (web)"))
        .await
        .unwrap();
    assert_eq!(names(&l), ["b", "c"]);
}

#[tokio::test]
async fn field_selectors_by_name_and_owned_config_maps_by_label() {
    let op = start().await;
    op.create("a", 1).await;
    op.create("b", 1).await;
    let l = op
        .api
        .list(&ListParams::default().fields("metadata.name=b"))
        .await
        .unwrap();
    assert_eq!(names(&l), ["b"]);
    let cms = op
        .cms
        .list(&ListParams::default().labels("crontab=a"))
        .await
        .unwrap();
    assert_eq!(cms.items.len(), 1);
    assert_eq!(cms.items[0].name_any(), "a-schedule");
}

#[tokio::test]
async fn pagination() {
    let op = start().await;
    for i in 0..5 {
        op.api
            .create(&PostParams::default(), &crontab(&format!("p{i}"), 1))
            .await
            .unwrap();
    }
    let mut seen = Vec::new();
    let mut lp = ListParams::default().limit(2);
    loop {
        let page = op.api.list(&lp).await.unwrap();
        assert!(page.items.len() <= 2);
        seen.extend(names(&page));
        match page.metadata.continue_ {
            Some(c) if !c.is_empty() => lp = lp.continue_token(&c),
            _ => break,
        }
    }
    assert_eq!(seen, ["p0", "p1", "p2", "p3", "p4"]);
}

#[tokio::test]
async fn a_watcher_sees_create_update_and_delete() {
    let op = start().await;
    let mut events = watcher(op.api.clone(), watcher::Config::default())
        .applied_objects()
        .boxed();
    op.api
        .create(&PostParams::default(), &crontab("w", 1))
        .await
        .unwrap();
    let first = tokio::time::timeout(Duration::from_secs(5), events.try_next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(first.name_any(), "w");
    // The controller's writes (finalizer, status) come as further applies.
    let with_status = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            let o = events.try_next().await.unwrap().unwrap();
            if o.status.is_some() {
                return o;
            }
        }
    })
    .await
    .unwrap();
    assert_eq!(with_status.status.unwrap().replicas, 1);
}

#[tokio::test]
async fn streaming_lists_start_with_the_current_state() {
    let op = start().await;
    op.create("a", 1).await;
    op.create("b", 1).await;
    let mut events = watcher(op.api.clone(), watcher::Config::default().streaming_lists()).boxed();
    let mut initial = Vec::new();
    loop {
        match tokio::time::timeout(Duration::from_secs(5), events.try_next())
            .await
            .unwrap()
            .unwrap()
        {
            Some(watcher::Event::InitApply(o)) => initial.push(o.name_any()),
            Some(watcher::Event::InitDone) => break,
            Some(_) => {}
            None => panic!("ended"),
        }
    }
    initial.sort();
    assert_eq!(initial, ["a", "b"]);
    let streaming = op.env.requests().into_iter().any(|r| {
        r.query_param("sendInitialEvents").as_deref() == Some("true")
            && r.query_param("resourceVersionMatch").as_deref() == Some("NotOlderThan")
    });
    assert!(streaming);
}

#[tokio::test]
async fn a_watch_from_a_resource_version_replays_later_changes() {
    let op = start().await;
    let a = op
        .api
        .create(&PostParams::default(), &crontab("a", 1))
        .await
        .unwrap();
    op.api
        .create(&PostParams::default(), &crontab("b", 1))
        .await
        .unwrap();
    let mut w = op
        .api
        .watch(&WatchParams::default(), &a.resource_version().unwrap())
        .await
        .unwrap()
        .boxed();
    let mut saw_b = false;
    while let Ok(Some(Ok(e))) = tokio::time::timeout(Duration::from_secs(5), w.next()).await {
        if let WatchEvent::Added(o) = e {
            assert_eq!(o.name_any(), "b");
            saw_b = true;
            break;
        }
    }
    assert!(saw_b);
}

#[tokio::test]
async fn a_reflector_store_follows_the_server() {
    let op = start().await;
    let (reader, writer) = reflector::store::<CronTab>();
    let stream =
        reflector(writer, watcher(op.api.clone(), watcher::Config::default())).applied_objects();
    op.env
        .spawn(stream.for_each(|_| futures_util::future::ready(())));
    op.create("r1", 1).await;
    op.create("r2", 2).await;
    op.env
        .eventually("the store has both", || {
            let reader = reader.clone();
            async move { (reader.state().len() == 2).then_some(()) }
        })
        .await
        .unwrap();
    op.api
        .patch(
            "r2",
            &PatchParams::default(),
            &Patch::Merge(json!({"spec": {"replicas": 3}})),
        )
        .await
        .unwrap();
    op.env
        .eventually("the store sees the update", || {
            let reader = reader.clone();
            async move {
                reader
                    .state()
                    .iter()
                    .any(|c| c.name_any() == "r2" && c.spec.replicas == 3)
                    .then_some(())
            }
        })
        .await
        .unwrap();
}

#[tokio::test]
async fn watches_with_a_label_selector_see_only_matches() {
    let op = start().await;
    let mut events = watcher(op.api.clone(), watcher::Config::default().labels("pick=me"))
        .applied_objects()
        .boxed();
    labelled(&op, "no", json!({})).await;
    labelled(&op, "yes", json!({"pick": "me"})).await;
    let first = tokio::time::timeout(Duration::from_secs(5), events.try_next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert_eq!(first.name_any(), "yes");
}

#[tokio::test]
async fn discovery_finds_crontabs_with_scale() {
    let op = start().await;
    let d = kube::Discovery::new(op.env.client()).run().await.unwrap();
    let (ar, caps) = d
        .groups()
        .flat_map(|g| g.recommended_resources())
        .find(|(ar, _)| ar.kind == "CronTab")
        .unwrap();
    assert_eq!(ar.plural, "crontabs");
    let subs: Vec<String> = caps
        .subresources
        .iter()
        .map(|(s, _)| s.plural.clone())
        .collect();
    assert!(subs.iter().any(|s| s.ends_with("scale")), "{subs:?}");
    assert!(subs.iter().any(|s| s.ends_with("status")), "{subs:?}");
}
