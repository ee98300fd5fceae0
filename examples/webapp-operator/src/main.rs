//! The WebApp operator against the cluster of the current kubeconfig (or `crdgen serve`'s);
//! `crd` prints the WebApp CRD as YAML instead (`… -- crd | kubectl apply -f -`).

use crdkit_example_webapp::{Context, WebApp, run};

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if std::env::args().nth(1).as_deref() == Some("crd") {
        print!("{}", WebApp::crd()?.to_yaml());
        return Ok(());
    }
    let client = kube::Client::try_default().await?;
    run(Context::new(client)).await;
    Ok(())
}
