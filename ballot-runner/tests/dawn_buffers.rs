//! [`Dawn::run_buffers`]: WGSL shaders over several large storage buffers,
//! whose words go to and from Node as binary files.
//!
//! - Two read-only buffers of 2^20 + 3 words are added into a third, with
//!   the workgroups spread over x and y (x capped at 65535), and every word
//!   is checked: the buffers pass the default 4 MiB a JSON batch handles
//!   comfortably, the odd length checks the tail, and the 2D grid the
//!   dispatch's y. An unused binding and a read-back input show that the
//!   explicit layout accepts the one and the files carry the other back
//!   unchanged.
//! - A shader Tint rejects, between two that run, fails alone.
//!
//! Without Node's `webgpu` (or a Vulkan adapter for Dawn) the tests say why
//! on stderr and pass, unless `BALLOT_REQUIRE_GPU=1`.

use ballot_runner::dawn::{BufferSpec, BuffersJob, Dawn};
use ballot_runner::RunnerError;
use ballot_shader::back::Target;

mod common;

use common::{loud, required, skip};

/// 2^20 + 3: past a power of two, so the last workgroup is partly idle.
const WORDS: usize = (1 << 20) + 3;
const WORKGROUP: u32 = 16;
/// The dispatch's x at most: WebGPU's guaranteed
/// `maxComputeWorkgroupsPerDimension`.
const MAX_X: u32 = 65535;

/// `c = a + b` over flat invocation indices of a 2D grid of workgroups of
/// `WORKGROUP`; binding 3 is declared by nothing in the shader.
const ADD: &str = "
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> c: array<u32>;

@compute @workgroup_size(16)
fn main(
    @builtin(workgroup_id) wg: vec3<u32>,
    @builtin(num_workgroups) groups: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    let i = (wg.y * groups.x + wg.x) * 16u + local;
    if i < arrayLength(&c) {
        c[i] = a[i] + b[i];
    }
}
";

/// Runs `jobs`, or says why Dawn cannot run here (`None`: skipped).
fn run(what: &str, jobs: &[BuffersJob]) -> Option<Vec<Result<Vec<Vec<u32>>, RunnerError>>> {
    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => {
            skip(what, &why);
            return None;
        }
    };
    match dawn.run_buffers(jobs) {
        Ok(results) => Some(results),
        // Dawn finds no adapter where Vulkan has none: the same skip.
        Err(e) if !required() && e.to_string().contains("no Vulkan adapter") => {
            skip(what, &e.to_string());
            None
        }
        Err(e) => panic!("{what}: {e}"),
    }
}

/// Words that differ from their neighbours and, added, wrap past 2^32.
fn pattern(i: usize, seed: u32) -> u32 {
    (i as u32)
        .wrapping_mul(2654435761)
        .wrapping_add(seed)
        .rotate_left(seed % 32)
}

fn add_job(name: &str, shader: &str) -> BuffersJob {
    let groups = (WORDS as u32).div_ceil(WORKGROUP);
    let x = groups.min(MAX_X);
    BuffersJob {
        name: name.to_string(),
        target: Target::WgslNoSubgroup,
        shader: shader.to_string(),
        entries: vec![],
        workgroups: [x, groups.div_ceil(x), 1],
        buffers: vec![
            BufferSpec {
                binding: 0,
                read_only: true,
                words: (0..WORDS).map(|i| pattern(i, 0x1234_5678)).collect(),
                read_back: true,
                ..Default::default()
            },
            BufferSpec {
                binding: 1,
                read_only: true,
                words: (0..WORDS).map(|i| pattern(i, 0x9abc_def1)).collect(),
                read_back: false,
                ..Default::default()
            },
            BufferSpec {
                binding: 2,
                read_only: false,
                // Not zeros, so that a word the shader missed shows.
                words: vec![0xdead_beef; WORDS],
                read_back: true,
                ..Default::default()
            },
            BufferSpec {
                binding: 3,
                read_only: false,
                words: vec![7; 5],
                read_back: false,
                ..Default::default()
            },
        ],
    }
}

#[test]
fn two_large_buffers_add_into_a_third_on_dawn() {
    let job = add_job("add", ADD);
    assert!(
        job.workgroups[1] > 1,
        "the grid is 2D: {:?}",
        job.workgroups
    );
    let start = std::time::Instant::now();
    let Some(results) = run("large buffers on Dawn", std::slice::from_ref(&job)) else {
        return;
    };
    // Seen in a passing run: what ran, and what the files cost.
    loud(&format!(
        "dawn_buffers: 3 buffers of {WORDS} words, {:?} workgroups of {WORKGROUP}, in {:.2?} with Node",
        job.workgroups,
        start.elapsed()
    ));
    let read = results
        .into_iter()
        .next()
        .expect("one result")
        .expect("the add job runs");
    assert_eq!(read.len(), 2, "the read-back buffers, a and c");
    let (a, b) = (&job.buffers[0].words, &job.buffers[1].words);
    assert!(read[0] == *a, "binding 0 came back changed");
    assert_eq!(read[1].len(), WORDS);
    let wrong: Vec<usize> = (0..WORDS)
        .filter(|&i| read[1][i] != a[i].wrapping_add(b[i]))
        .collect();
    let shown: Vec<String> = wrong
        .iter()
        .take(10)
        .map(|&i| {
            format!(
                "word {i}: {:#010x}, not {:#010x}",
                read[1][i],
                a[i].wrapping_add(b[i])
            )
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "c = a + b fails in {} of {WORDS} words, first:\n{}",
        wrong.len(),
        shown.join("\n")
    );
}

#[test]
fn a_shader_error_fails_its_job_alone() {
    // Small buffers: this is about the batch, not the sizes.
    let small = |name: &str, shader: &str| BuffersJob {
        name: name.to_string(),
        target: Target::WgslNoSubgroup,
        shader: shader.to_string(),
        entries: vec![],
        workgroups: [1, 1, 1],
        buffers: vec![BufferSpec {
            binding: 0,
            read_only: false,
            words: (0..64).collect(),
            read_back: true,
            ..Default::default()
        }],
    };
    let double = "
@group(0) @binding(0) var<storage, read_write> v: array<u32>;
@compute @workgroup_size(64)
fn main(@builtin(local_invocation_index) i: u32) { v[i] = 2u * v[i]; }
";
    let broken = double.replace("2u * v[i]", "2u * undeclared[i]");
    let jobs = [
        small("before", double),
        small("broken", &broken),
        small("after", double),
    ];
    let Some(results) = run("a shader error on Dawn", &jobs) else {
        return;
    };
    assert_eq!(results.len(), 3);
    let doubled: Vec<u32> = (0..64).map(|i| 2 * i).collect();
    for (job, result) in jobs.iter().zip(&results) {
        match (job.name.as_str(), result) {
            ("broken", Err(RunnerError::Pipeline { job, message })) => {
                assert_eq!(job, "broken");
                assert!(
                    message.contains("Tint rejects") && message.contains("undeclared"),
                    "{message}"
                );
            }
            ("broken", other) => panic!("the broken shader: {other:?}"),
            (name, Ok(read)) => assert_eq!(read, std::slice::from_ref(&doubled), "{name}"),
            (name, Err(e)) => panic!("{name}: {e}"),
        }
    }
}
