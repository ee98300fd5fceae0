//! The usage texts: `crdgen --help` prints every command's, `crdgen COMMAND --help` its own.

use std::io::Write;

const HEADER: &str =
    "crdgen: CustomResourceDefinitions from Rust types, checked like the Kubernetes API server does

USAGE:
";

const PRINT: &str = "    crdgen [--output yaml|json]
        Print the built-in CRDs, one document each.
";

const CHECK: &str = "    crdgen check [--output text|json] CRD.yaml|DIR...
        Would the API server accept these CRDs on create?
    crdgen check --old OLD.yaml|DIR [--stored-versions v1beta1,v1]
                 [--fail-on breaks-stored-objects|breaks-clients|info|none] [--output text|json]
                 CRD.yaml|DIR...
        Would the API server accept these CRDs as updates of the old ones (same name), and what
        would the update break? The API server's update rules (stored versions kept, immutable
        names and scope, ...), then a compatibility report: each change with its field path and
        severity, breaks-stored-objects (stored objects fail updates, lose data or become
        unreachable), breaks-clients (requests of existing clients may fail, writes of values a
        new or tighter validation refuses among them: validation ratcheting, on by default since
        Kubernetes 1.30, spares the stored objects) or info. --stored-versions: the old CRD's
        status.storedVersions (default: its status when it lists them, else its storage version,
        as a cluster records it on create; the report says which). --fail-on: the least severe
        change that fails the run (default breaks-clients).
";

const VALIDATE: &str =
    "    crdgen validate [--crd CRD.yaml|DIR]... [--old OLD.yaml [--subresource status]]
                    [--field-validation Strict|Warn|Ignore] [--unknown-kinds fail|warn|ignore]
                    [--non-kubernetes skip|warn|fail] [--kubernetes-version 1.35]
                    [--output text|json|github] OBJECT.yaml|DIR...
        Prune, default and validate objects as the API server does on create (or update, with --old;
        or an update of the status subresource, which keeps all but the object's status): custom
        objects against the CRDs given or met earlier in the input, built-in kinds against the
        schemas Kubernetes publishes (structural checks only). CRDs in the input are checked too.
        Each object is validated against the schema of its own version; a version its CRD does not
        serve is rejected (`no matches for kind`), a deprecated one warns as the API server does;
        a stored object (--old) of another version is read at the object's version first.
        --field-validation: unknown and duplicate fields fail the object (Strict, the default, as
        kubectl), warn, or are dropped. --unknown-kinds: objects of a kind nothing defines fail
        (the default), warn, or are skipped. --non-kubernetes: documents with neither apiVersion
        nor kind (a Prometheus config, a dashboard) and kustomize's Kustomization and Component
        are skipped, with a warning (the default), silently, or fail the run. A file or document
        that cannot be read or checked is reported and the others still are; a summary line ends
        the report.
";

const CONVERT: &str = "    crdgen convert --to VERSION [--crd CRD.yaml|DIR]... [--webhook-url URL] [--ca-bundle CA.pem]
                   [--output yaml|json] OBJECT.yaml|DIR...
        Objects as the API server returns them at VERSION (or GROUP/VERSION) of their CRD: read at
        their own version (pruned, defaulted), converted (None: apiVersion only; Webhook: a
        ConversionReview posted to --webhook-url or the CRD's url, trusting --ca-bundle or the
        CRD's caBundle), then pruned to VERSION's schema. Other documents are written unchanged.
";

const OPENAPI: &str =
    "    crdgen openapi [--v2] [--group-version GROUP/VERSION] [--output json|yaml] CRD.yaml|DIR...
        The OpenAPI documents the API server publishes for these CRDs (Kubernetes 1.36): v3, one
        document per served group-version (/openapi/v3/apis/GROUP/VERSION), or the one asked for;
        with --v2, the CRDs' share of /openapi/v2, with its lossy conversion of the schemas.
";

const IMPORT: &str = "    crdgen import [-o FILE.rs] CRD.yaml|DIR...
        Rust types for these CRDs, written with crdkit's derive: one module per CRD (named after
        the kind), one type per object schema, every version, keyword, CEL rule, printer column,
        subresource and conversion setting, and `crds()`, which the derive builds back into the
        input CRD. A CRD the API server would reject is reported as `crdgen check` reports it;
        what the derive cannot say is warned about.
";

const SERVE: &str = "    crdgen serve [--addr 127.0.0.1:PORT] [--data DIR | --etcd URL[,URL...] [--etcd-prefix PREFIX]]
                 [--kubeconfig FILE] [--allow-remote [--insecure-remote-http]]
                 [--token TOKEN | --token-file FILE] [--accept-hosts REGEXPS]
                 [--tls-generate | --tls-cert FILE --tls-key FILE]
                 [--service-cluster-ip-range CIDR[,CIDR]] [--service-node-port-range RANGE]
        Serve the Kubernetes API for CustomResourceDefinitions and their objects, and for the
        built-in kinds of Kubernetes 1.35, to kubectl and kube-rs (the local API server, a cluster
        without nodes: no Pod runs, no controller but namespace deletion and garbage collection);
        prints the URL and the kubeconfig's path once listening, runs until interrupted.
        --addr ADDR         listen address (default 127.0.0.1:8001; port 0 picks a free port)
        --data DIR          keep objects in DIR (persistent); without it, in memory
        --etcd URLS         keep objects in etcd (several servers may share it; feature `etcd`)
        --etcd-prefix P     prefix of every etcd key (default none)
        --kubeconfig FILE   write a kubeconfig for the server to FILE (default DIR/kubeconfig or
                            a temporary file)
        --allow-remote      allow a non-loopback address (requires a token, and TLS unless
                            --insecure-remote-http)
        --insecure-remote-http  allow --allow-remote over plain HTTP (the token travels in clear)
        --token TOKEN       require `Authorization: Bearer TOKEN` (visible in `ps`: prefer
                            --token-file or $CRDGEN_TOKEN, read when no flag names a token)
        --token-file FILE   the token, read from FILE
        --accept-hosts RES  without a token, serve only these hosts (comma-separated Go regexps
                            matched against Host and Origin; default ^localhost$,^127\\.0\\.0\\.1$,
                            ^\\[::1\\]$ as kubectl proxy; '.*' for any)
        --tls-generate      serve HTTPS with a generated CA, serving and client certificate (the
                            kubeconfig carries the CA and the client certificate, which
                            authenticates)
        --tls-cert, --tls-key FILE   serve HTTPS with this PEM certificate chain and key
        --service-cluster-ip-range CIDRS   Service cluster IPs (default 10.96.0.0/12; two CIDRs
                            of different families for dual stack)
        --service-node-port-range RANGE    Service node ports (default 30000-32767)
";

const FOOTER: &str = "
Files may hold several documents (YAML `---` or concatenated JSON) and `kind: List`; `-` is stdin.
A directory stands for its .yaml, .yml and .json files, recursively.
Exit status: 0 valid, 1 invalid or rejected (or, with --old, a change at or above --fail-on),
2 usage or input errors. `crdgen COMMAND --help` shows one command.
";

const SERVE_FOOTER: &str = "
Exit status: 0 after a clean shutdown (SIGINT, SIGTERM), 1 when the server cannot start, 2 usage
errors.
";

/// The commands, in the order `crdgen --help` lists them.
const COMMANDS: &[(&str, &str)] = &[
    ("print", PRINT),
    ("check", CHECK),
    ("validate", VALIDATE),
    ("convert", CONVERT),
    ("openapi", OPENAPI),
    ("import", IMPORT),
    ("serve", SERVE),
];

/// Writes the usage of `command` (every command's for `None`).
pub(crate) fn write(out: &mut dyn Write, command: Option<&str>) -> std::io::Result<()> {
    out.write_all(HEADER.as_bytes())?;
    for (name, text) in COMMANDS {
        if command.is_none_or(|c| c == *name) {
            if command.is_none() && *name != "print" {
                out.write_all(b"\n")?;
            }
            out.write_all(text.as_bytes())?;
        }
    }
    let footer = if command == Some("serve") {
        SERVE_FOOTER
    } else {
        FOOTER
    };
    out.write_all(footer.as_bytes())
}
