//! The CronTab controller against the cluster of the current kubeconfig (or `crdgen serve`'s).

#[tokio::main]
async fn main() -> Result<(), kube::Error> {
    let client = kube::Client::try_default().await?;
    crdkit_example_operator::run(crdkit_example_operator::Context::new(client)).await;
    Ok(())
}
