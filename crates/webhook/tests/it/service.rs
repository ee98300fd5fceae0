//! The handler mounted in a router of the user's own, called as a tower service (no network).

use axum::Router;
use axum::body::Body;
use axum::routing::get;
use crdkit_webhook::Webhook;
use http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use crate::common::{conversions, data, json_data};

async fn call(app: Router, req: Request<Body>) -> (StatusCode, Value) {
    let resp = app.oneshot(req).await.unwrap();
    let status = resp.status();
    let body = resp.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

#[tokio::test]
async fn mounted_beside_other_routes() {
    let webhook = Webhook::new(conversions());
    let app = Router::new()
        .route("/crdconvert", webhook.service())
        .route("/other", get(|| async { "mine" }));
    let req = Request::post("/crdconvert")
        .header("content-type", "application/json")
        .body(Body::from(data("request-v1.json")))
        .unwrap();
    let (status, got) = call(app.clone(), req).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(got, json_data("response-v1.json"));
    let other = app
        .clone()
        .oneshot(Request::get("/other").body(Body::empty()).unwrap())
        .await
        .unwrap();
    assert_eq!(
        other.into_body().collect().await.unwrap().to_bytes(),
        "mine"
    );
    let (status, got) = call(
        app,
        Request::delete("/crdconvert").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(got["response"]["result"]["status"], "Failed");
}

#[tokio::test]
async fn the_router_has_a_health_route_and_a_limit() {
    let app = Webhook::new(conversions())
        .body_limit(16)
        .router("/convert");
    let (status, _) = call(
        app.clone(),
        Request::get("/healthz").body(Body::empty()).unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let req = Request::post("/convert")
        .body(Body::from(data("request-v1.json")))
        .unwrap();
    let (status, got) = call(app, req).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(
        got["response"]["result"]["message"],
        "request body is larger than the limit of 16 bytes"
    );
}

#[tokio::test]
async fn large_bodies_are_converted_off_the_async_workers() {
    // Above 256 KiB the review runs on the blocking pool: same answer.
    let mut req = json_data("request-v1.json");
    let objects = req["request"]["objects"].as_array().unwrap().clone();
    let many: Vec<Value> = (0..3000).map(|i| objects[i % 2].clone()).collect();
    req["request"]["objects"] = Value::from(many);
    let body = req.to_string();
    assert!(body.len() > 256 << 10);
    let app = Webhook::new(conversions()).router("/convert");
    let (status, got) = call(
        app,
        Request::post("/convert").body(Body::from(body)).unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let converted = got["response"]["convertedObjects"].as_array().unwrap();
    assert_eq!(converted.len(), 3000);
    let want = json_data("response-v1.json")["response"]["convertedObjects"].clone();
    assert_eq!(converted[2999], want[1]);
}
