//! `gpu_bench shapes`: what the emulation costs a hand-written shader.
//!
//! The four shapes of `ballot-runner/tests/shapes.rs` (a bounds guard, a
//! loop, a call of the shader's own, a compaction in a branch), each
//! linked by `ballot_naga::link` for the hardware target of its language
//! and for the emulated one at the device's subgroup size, over 2^20
//! invocations and over 65,535 workgroups, timed side by side: the ratio is the cost of the
//! emulation's exchanges and of the if-conversion. The records the shapes
//! write that do not depend on the order of the subgroups' atomics (every
//! word but the compaction's slots) are compared between the two, so that
//! the times are of shaders that agree.

use ballot::prelude::Target;
use ballot_naga::link::{link, LinkOptions};
use ballot_runner::Gpu;
use ballot_shader::back::Language;

use crate::timing::{download, grid, storage, time, Kernel};

/// Invocations per dispatch: 2^20 (16,384 workgroups of 64), and the most
/// a dispatch of one dimension holds (65,535 workgroups), as the shapes
/// index by `global_invocation_id.x`.
const SIZES: [u32; 2] = [1 << 20, 65_535 * WORKGROUP];
const WORKGROUP: u32 = 64;
/// The buffer's header: `n`, the compaction's counter, two words of padding.
const HEADER: usize = 4;
/// Words per invocation's record.
const RECORD: usize = 8;
/// Timed dispatches per figure (the median is reported).
const REPEATS: usize = 50;

/// A shape's name and its two sources.
const SHAPES: [(&str, &str, &str); 4] = [
    (
        "guard",
        include_str!("../../../tests/shapes/guard.wgsl"),
        include_str!("../../../tests/shapes/guard.comp"),
    ),
    (
        "loop",
        include_str!("../../../tests/shapes/loop.wgsl"),
        include_str!("../../../tests/shapes/loop.comp"),
    ),
    (
        "call",
        include_str!("../../../tests/shapes/call.wgsl"),
        include_str!("../../../tests/shapes/call.comp"),
    ),
    (
        "compact",
        include_str!("../../../tests/shapes/compact.wgsl"),
        include_str!("../../../tests/shapes/compact.comp"),
    ),
];

/// Where the compaction's slots start: after every record, where the
/// tests' 128 invocations have them at word 1024.
fn slots_at(invocations: u32) -> usize {
    RECORD * invocations as usize
}

/// `source` linked for `target`, the compaction's slots moved past the
/// records of 2^20 invocations.
fn linked(
    source: &str,
    path: &str,
    target: Target,
    subgroup: u32,
    invocations: u32,
) -> Result<String, String> {
    let moved = source.replace(
        "1024u + slot",
        &format!("{}u + slot", slots_at(invocations)),
    );
    let options = LinkOptions::default().subgroup_size(subgroup);
    link(&moved, path, target, &options)
        .map(|l| l.text)
        .map_err(|e| format!("{path} for {target}: {e}"))
}

/// One shape on one target: its median time in ms and its records.
fn run(
    gpu: &Gpu,
    target: Target,
    label: &str,
    text: &str,
    invocations: u32,
) -> Result<(f64, Vec<u32>), String> {
    let kernel = Kernel::sized(gpu, target, label, text, &[false], [WORKGROUP, 1, 1])?;
    let words = HEADER + slots_at(invocations) + invocations as usize;
    let buffer = storage(gpu, label, words);
    // `n` of the bounds guard: 109 of every 128 invocations, as the tests.
    let n = invocations / 128 * 109;
    gpu.queue()
        .write_buffer(&buffer, 0, crate::timing::bytes(&[n, 0, 0, 0]));
    let group = kernel.bind(gpu, &[&buffer]);
    let reset = |encoder: &mut wgpu::CommandEncoder| {
        // The compaction's counter, before each dispatch.
        encoder.clear_buffer(&buffer, 4, Some(4));
    };
    let times = time(
        gpu,
        &kernel,
        &group,
        grid(invocations / WORKGROUP),
        REPEATS,
        &reset,
    );
    let records = download(gpu, &buffer, HEADER + slots_at(invocations));
    Ok((times.median, records[HEADER..].to_vec()))
}

/// The words of two runs' records that must agree, and where they first
/// do not: each record but the compaction's slot (word 3 of `compact`).
fn first_difference(shape: &str, a: &[u32], b: &[u32]) -> Option<usize> {
    (0..a.len()).find(|&w| {
        let skip = shape == "compact" && w % RECORD == 3;
        !skip && a[w] != b[w]
    })
}

/// Times the four shapes on both targets of each language and prints the
/// table of docs/performance.md.
pub fn run_all(gpu: &Gpu, subgroup: u32) -> Result<(), String> {
    for invocations in SIZES {
        table(gpu, subgroup, invocations)?;
    }
    Ok(())
}

fn table(gpu: &Gpu, subgroup: u32, invocations: u32) -> Result<(), String> {
    println!(
        "## Hand-written shapes: the emulation against hardware subgroups \
         ({invocations} invocations, workgroups of {WORKGROUP}, virtual subgroups of \
         {subgroup}; median of {REPEATS}; ms)\n"
    );
    println!("| shape | glsl | glsl-no-subgroup | ratio | wgsl | wgsl-no-subgroup | ratio | records agree |");
    println!("|---|---:|---:|---:|---:|---:|---:|---|");
    let mut failures = Vec::new();
    for (name, wgsl, glsl) in SHAPES {
        let mut row = format!("| {name} |");
        let mut agree = Vec::new();
        for (language, source) in [(Language::Glsl, glsl), (Language::Wgsl, wgsl)] {
            let (hardware, emulated, ext) = match language {
                Language::Glsl => (Target::Glsl, Target::GlslNoSubgroup, "comp"),
                Language::Wgsl => (Target::Wgsl, Target::WgslNoSubgroup, "wgsl"),
            };
            let path = format!("ballot-runner/tests/shapes/{name}.{ext}");
            let mut figures = Vec::new();
            for target in [hardware, emulated] {
                let text = linked(source, &path, target, subgroup, invocations)?;
                let label = format!("{name} {target}");
                figures.push(run(gpu, target, &label, &text, invocations)?);
            }
            let (hw, em) = (&figures[0], &figures[1]);
            row.push_str(&format!(
                " {:.3} | {:.3} | {:.2}× |",
                hw.0,
                em.0,
                em.0 / hw.0
            ));
            match first_difference(name, &hw.1, &em.1) {
                None => agree.push(format!("{}: yes", language_name(language))),
                Some(w) => {
                    let i = w / RECORD;
                    failures.push(format!(
                        "{name} ({}): invocation {i}, word {}: {} on hardware, {} emulated",
                        language_name(language),
                        w % RECORD,
                        hw.1[w],
                        em.1[w]
                    ));
                    agree.push(format!("{}: no", language_name(language)));
                }
            }
        }
        println!("{row} {} |", agree.join(", "));
    }
    println!();
    // Not an error: where the device's lanes are not the linear layout, or
    // it does not reconverge maximally where the shapes diverge, the two
    // may differ without either being wrong; the times stand either way.
    for failure in &failures {
        println!("records differ: {failure}");
    }
    Ok(())
}

fn language_name(language: Language) -> &'static str {
    match language {
        Language::Glsl => "GLSL",
        Language::Wgsl => "WGSL",
    }
}
