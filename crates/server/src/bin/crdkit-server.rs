//! The server alone (`crdkit-server [--addr …] [--data DIR]`); `crdgen serve` runs the same.

fn main() -> std::process::ExitCode {
    crdkit_server::cli::main(std::env::args_os().skip(1))
}
