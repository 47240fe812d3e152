//! Turns on `cfg(random_kernels)` when the generated random kernels of the
//! root package's differential tests exist, so the suite runs them too.

fn main() {
    println!("cargo::rustc-check-cfg=cfg(random_kernels)");
    let generated =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/random/kernels.rs");
    println!("cargo::rerun-if-changed={}", generated.display());
    // BALLOT_NO_RANDOM_KERNELS=1 leaves them out (while the file is being
    // regenerated, say).
    println!("cargo::rerun-if-env-changed=BALLOT_NO_RANDOM_KERNELS");
    let off = std::env::var_os("BALLOT_NO_RANDOM_KERNELS").is_some();
    if generated.exists() && !off {
        println!("cargo::rustc-cfg=random_kernels");
    }
}
