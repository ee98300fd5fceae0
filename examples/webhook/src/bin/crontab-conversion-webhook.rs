//! Serves the versioning page's CronTab conversions over HTTPS.
//!
//! ```text
//! crontab-conversion-webhook [--addr 127.0.0.1:9443] [--path /crdconvert]
//!                            [--cert tls.crt --key tls.key] [--dns-name NAME]...
//! ```
//!
//! Without `--cert`, a CA and a certificate are generated, and the CRD's `spec.conversion` with
//! the CA bundle is printed. Stops on Ctrl-C or SIGTERM, finishing open requests.

use std::io::Write as _;
use std::net::SocketAddr;
use std::process::ExitCode;

use crdkit_webhook::{Server, Tls, Webhook};

struct Args {
    addr: SocketAddr,
    path: String,
    cert: Option<String>,
    key: Option<String>,
    dns_names: Vec<String>,
}

const USAGE: &str = "usage: crontab-conversion-webhook [--addr ADDR] [--path PATH] [--cert PEM --key PEM] [--dns-name NAME]...";

/// The arguments, or the message to print and the exit status.
fn parse() -> Result<Args, (String, u8)> {
    let mut args = Args {
        addr: SocketAddr::from(([127, 0, 0, 1], 9443)),
        path: "/crdconvert".to_owned(),
        cert: None,
        key: None,
        dns_names: Vec::new(),
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        if flag == "--help" || flag == "-h" {
            return Err((USAGE.to_owned(), 0));
        }
        let value = it
            .next()
            .ok_or_else(|| (format!("{flag} needs a value\n{USAGE}"), 2))?;
        match flag.as_str() {
            "--addr" => {
                args.addr = value
                    .parse()
                    .map_err(|e| (format!("--addr {value}: {e}"), 2))?;
            }
            "--path" => args.path = value,
            "--cert" => args.cert = Some(value),
            "--key" => args.key = Some(value),
            "--dns-name" => args.dns_names.push(value),
            _ => return Err((format!("unknown argument {flag}\n{USAGE}"), 2)),
        }
    }
    Ok(args)
}

async fn run(args: Args) -> Result<(), String> {
    let tls = match (&args.cert, &args.key) {
        (Some(cert), Some(key)) => Tls::Pem {
            cert_chain: std::fs::read(cert).map_err(|e| format!("{cert}: {e}"))?,
            key: std::fs::read(key).map_err(|e| format!("{key}: {e}"))?,
        },
        (None, None) => Tls::Generate,
        _ => return Err("--cert and --key go together".to_owned()),
    };
    let webhook = Webhook::new(crdkit_example_webhook::conversions());
    let server = Server::new(webhook)
        .bind(args.addr)
        .path(&args.path)
        .tls(tls)
        .dns_names(args.dns_names)
        .start()
        .await
        .map_err(|e| e.to_string())?;
    // One write, whose failure (a reader that went away) does not stop the server: `println!`
    // would panic on a closed pipe.
    let mut banner = format!("serving {}\n", server.url());
    if let Some(bundle) = server.ca_bundle() {
        banner.push_str(&format!("caBundle: {bundle}\n"));
    }
    banner.push_str(&crdkit_example_webhook::conversion_stanza(
        &server.url(),
        server.ca_bundle().as_deref(),
    ));
    banner.push('\n');
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(banner.as_bytes())
        .and_then(|()| stdout.flush());
    drop(stdout);
    let token = server.shutdown_token();
    tokio::spawn(async move {
        shutdown_signal().await;
        token.cancel();
    });
    server.wait().await;
    Ok(())
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}

#[tokio::main]
async fn main() -> ExitCode {
    let args = match parse() {
        Ok(a) => a,
        Err((msg, 0)) => {
            println!("{msg}");
            return ExitCode::SUCCESS;
        }
        Err((msg, code)) => {
            eprintln!("{msg}");
            return ExitCode::from(code);
        }
    };
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("error: {msg}");
            ExitCode::FAILURE
        }
    }
}
