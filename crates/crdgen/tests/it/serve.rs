//! `crdgen serve` as a process: its usage, its flags' errors, a clean exit on SIGTERM, and the
//! objects kept under `--data` across a `kill -9`.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};

use crate::http::{http, json};

const CT: &str = "/apis/stable.example.com/v1/namespaces/default/crontabs";
const CRDS: &str = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";

fn crdgen(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("crdgen runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn help_and_usage_errors() {
    for flag in ["--help", "-h"] {
        let (code, out, err) = crdgen(&["serve", flag]);
        assert_eq!((code, err.as_str()), (0, ""), "{flag}");
        for option in [
            "--addr",
            "--data",
            "--etcd",
            "--etcd-prefix",
            "--kubeconfig",
            "--allow-remote",
            "--token",
            "--tls-generate",
            "--tls-cert",
            "--tls-key",
            "--token-file",
            "--insecure-remote-http",
            "--accept-hosts",
        ] {
            assert!(out.contains(option), "{option} in\n{out}");
        }
    }
    let (code, out, err) = crdgen(&["serve", "--bogus"]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert_eq!(
        err,
        "crdgen: invalid option '--bogus'\n\nRun `crdgen serve --help` for usage.\n"
    );
    // A remote address needs a token: the server refuses to start (exit 1) before it binds.
    // 192.0.2.1 (RFC 5737 documentation range) is never a local interface, so even a regression
    // that bound first could not listen beyond loopback; the message says which check refused.
    let (code, _, err) = crdgen(&["serve", "--addr", "192.0.2.1:0", "--allow-remote"]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("needs a bearer token"), "{err}");
    // A token over plain HTTP to a remote address needs saying so.
    let (code, _, err) = crdgen(&[
        "serve",
        "--addr",
        "192.0.2.1:0",
        "--allow-remote",
        "--token",
        "t",
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("--insecure-remote-http"), "{err}");
    assert!(err.contains("--insecure-remote-http"), "{err}");
}

/// A server process, killed when the test ends however it ends.
struct Server {
    child: Child,
    addr: SocketAddr,
    kubeconfig: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        // Only the process this test started, by its handle.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `crdgen serve --addr 127.0.0.1:0 ARGS`, once it listens.
fn serve(args: &[&str]) -> Server {
    serve_with(args, None)
}

/// `crdgen serve --addr 127.0.0.1:0 ARGS` with `$CRDGEN_TOKEN` set to `env_token` (unset
/// without), once it listens.
fn serve_with(args: &[&str], env_token: Option<&str>) -> Server {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_crdgen"));
    match env_token {
        Some(t) => cmd.env("CRDGEN_TOKEN", t),
        None => cmd.env_remove("CRDGEN_TOKEN"),
    };
    let mut child = cmd
        .args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("crdgen serve starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let first = lines.next().expect("a line").expect("text");
    let second = lines.next().expect("a line").expect("text");
    // Keep reading what the server prints, so that its stdout stays open.
    std::thread::spawn(move || for _ in lines {});
    let addr = first
        .strip_prefix("serving on http://")
        .unwrap_or_else(|| panic!("{first}"))
        .parse()
        .expect("an address");
    let kubeconfig = PathBuf::from(second.strip_prefix("kubeconfig: ").expect("kubeconfig"));
    Server {
        child,
        addr,
        kubeconfig,
    }
}

fn crontab_crd() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/docs/crontab.crd.yaml");
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).expect("YAML")
}

fn post(addr: SocketAddr, path: &str, body: &Value) -> Value {
    let (status, body) = http(addr, "POST", path, Some(body));
    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&body));
    json(&body)
}

fn get(addr: SocketAddr, path: &str) -> Value {
    let (status, body) = http(addr, "GET", path, None);
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    json(&body)
}

/// SIGTERM (as `docker stop` and systemd send) shuts the server down cleanly: exit 0.
#[cfg(unix)]
#[test]
fn sigterm_exits_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    let mut server = serve(&["--kubeconfig", kubeconfig.to_str().unwrap()]);
    assert_eq!(server.kubeconfig, kubeconfig);
    let text = std::fs::read_to_string(&kubeconfig).expect("the kubeconfig is written");
    assert!(text.contains(&format!("http://{}", server.addr)), "{text}");
    assert_eq!(get(server.addr, "/version")["major"], "1");
    let status = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success());
    let exit = server.child.wait().expect("the server exits");
    assert_eq!(exit.code(), Some(0));
}

/// A write acknowledged to the client survives `kill -9` of a server running with `--data`.
#[test]
fn data_survives_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let server = serve(&["--data", data]);
    assert_eq!(server.kubeconfig, dir.path().join("kubeconfig"));
    let crd = post(server.addr, CRDS, &crontab_crd());
    let established = crd["status"]["conditions"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["type"] == "Established" && c["status"] == "True");
    assert!(established, "{crd}");
    let mut last = String::new();
    for i in 0..20 {
        let object = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
                            "metadata": {"name": format!("c{i}")}, "spec": {"replicas": i}});
        let r = post(server.addr, CT, &object);
        last = r["metadata"]["resourceVersion"]
            .as_str()
            .unwrap()
            .to_owned();
    }
    drop(server); // SIGKILL
    let server = serve(&["--data", data]);
    let list = get(server.addr, CT);
    assert_eq!(list["items"].as_array().unwrap().len(), 20);
    assert_eq!(list["metadata"]["resourceVersion"], json!(last));
    let crd = get(server.addr, &format!("{CRDS}/crontabs.stable.example.com"));
    assert_eq!(crd["status"]["storedVersions"], json!(["v1"]));
    let object = json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
                        "metadata": {"name": "after"}, "spec": {}});
    let next = post(server.addr, CT, &object);
    let next_rv: u64 = next["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(next_rv > last.parse::<u64>().unwrap());
    assert_eq!(
        http(server.addr, "GET", "/api/v1/namespaces/default", None).0,
        200
    );
}

/// The status of `GET /version` with `Authorization: Bearer TOKEN` (none without).
fn version_status(addr: SocketAddr, token: Option<&str>) -> u16 {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let auth = token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    write!(
        s,
        "GET /version HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n{auth}\r\n"
    )
    .expect("send");
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).expect("read");
    String::from_utf8_lossy(&raw[9..12])
        .parse()
        .expect("status")
}

/// The token from `--token-file` or `$CRDGEN_TOKEN` (a flag wins over the environment); the
/// kubeconfig that carries it private (0600).
#[test]
fn the_token_comes_from_a_file_or_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("token");
    std::fs::write(&file, "file-token\n").unwrap();
    let kubeconfig = dir.path().join("kubeconfig");
    let k = kubeconfig.to_str().unwrap();
    for (args, env, token) in [
        (
            vec!["--token-file", file.to_str().unwrap(), "--kubeconfig", k],
            Some("ignored"),
            "file-token",
        ),
        (vec!["--kubeconfig", k], Some("env-token"), "env-token"),
    ] {
        let server = serve_with(&args, env);
        assert_eq!(version_status(server.addr, None), 401);
        assert_eq!(version_status(server.addr, Some(token)), 200);
        let text = std::fs::read_to_string(&server.kubeconfig).unwrap();
        assert!(text.contains(&format!("token: {token}")), "{text}");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            let mode = std::fs::metadata(&server.kubeconfig)
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
