//! The portability oracle over every kernel of `examples/`, as
//! `ballot portability examples/*.rs` runs it: for each kernel, the check
//! of the subgroup size, then each of the three models with the size in
//! the contract, 64 inputs each. Prints the wall-clock time of the whole
//! run, and of each file, measured in one process.
//!
//! `cargo bench -p ballot-bench --bench portability`

use std::time::Instant;

use ballot_front as front;
use ballot_ir::ir::Kernel;
use ballot_sim::portability::{Interpreted, PortabilityError};
use ballot_sim::schedule::Model;

/// One kernel's four checks; returns how many found it portable and how
/// many schedules ran.
fn survey(kernels: &[Kernel], name: &str) -> (usize, u64) {
    let mut portable = 0;
    let mut schedules = 0;
    let checks: [(Vec<Model>, bool); 4] = [
        (vec![], false),
        (vec![Model::Vulkan], true),
        (vec![Model::Wgsl], true),
        (vec![Model::Independent], true),
    ];
    for (models, contract) in checks {
        let subject = Interpreted::new(kernels, name).expect("the kernel is in its file");
        let mut oracle = subject.portability().models(models);
        if contract {
            oracle = oracle.size_is_contract();
        }
        match oracle.check() {
            Ok(c) => {
                portable += 1;
                schedules += c.schedules;
            }
            Err(PortabilityError::NotPortable(_)) => {}
            Err(e) => panic!("{e}"),
        }
    }
    (portable, schedules)
}

fn main() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let mut files: Vec<_> = std::fs::read_dir(root)
        .expect("the examples folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    // The interpreter wants a deep stack; a thread with one keeps it from
    // mapping a new one per run, as the CLI does.
    let worker = ballot_ir::stack::thread("portability-bench")
        .spawn(move || {
            let start = Instant::now();
            let (mut kernels_checked, mut checks_portable, mut schedules) = (0, 0, 0u64);
            for path in &files {
                let source = std::fs::read_to_string(path).expect("a readable example");
                let kernels: Vec<Kernel> = front::lower_file(&source)
                    .expect("the example's kernels lower")
                    .into_iter()
                    .map(|l| l.kernel)
                    .collect();
                let file_start = Instant::now();
                for k in &kernels {
                    let (p, s) = survey(&kernels, &k.name);
                    checks_portable += p;
                    schedules += s;
                }
                kernels_checked += kernels.len();
                println!(
                    "portability/{:<22} {:>2} kernels  {:>8.3} s",
                    path.file_name().unwrap().to_string_lossy(),
                    kernels.len(),
                    file_start.elapsed().as_secs_f64()
                );
            }
            println!(
                "portability/all examples    {kernels_checked:>2} kernels  {:>8.3} s  \
                 ({} checks, {checks_portable} portable, {schedules} schedules in the certified ones)",
                start.elapsed().as_secs_f64(),
                kernels_checked * 4,
            );
        })
        .expect("a thread");
    worker.join().expect("the survey ran");
}
