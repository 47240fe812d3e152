//! The four shapes nearly every hand-written compute shader has, linked by
//! `ballot_naga::link::link` for every target of its language and run on
//! real drivers (issue 28):
//!
//! 1. `guard`: a bounds guard, `if (i >= n) { return; }`, with 109 of 128
//!    invocations active (the second workgroup partly, and 109 is no
//!    multiple of 8), then a ballot of a per-invocation predicate: its bit
//!    count, exclusive bit count and FindLSB;
//! 2. `loop`: a ballot inside a `for` loop of `i % 5` trips, with a
//!    `continue` before it and a `break` after it on some iterations;
//! 3. `call`: a function of the shader's own holding a ballot, after an
//!    early return on some inputs, called in both arms of a branch, and a
//!    copy of it called at the top of the entry point, by every invocation;
//! 4. `compact`: Khronos-style stream compaction inside a branch
//!    (`subgroupElect`, `atomicAdd`, `subgroupBroadcastFirst`,
//!    `subgroupBallotExclusiveBitCount`);
//! 5. `family`: the rest of the subgroup family (issue 29) in the same
//!    control flow: after the bounds guard, a reduction, an inclusive scan,
//!    a vote and a shuffle of a two-component vector from the first active
//!    lane; an integer Max in one arm of a branch and an f32 sum in the
//!    other; and, in a loop of `i % 4` trips, a sum and a vote per
//!    iteration.
//!
//! Each shape is written once in WGSL and once in GLSL
//! (`tests/shapes/*.wgsl`, `*.comp`) and run as one dispatch of two
//! workgroups of 64 over one storage buffer:
//!
//! - hardware subgroups: `glsl` and `wgsl` on wgpu/Vulkan (lavapipe at its
//!   native size), `wgsl-web` on Dawn;
//! - emulated subgroups at virtual sizes 4, 8, 16, 32 and 64 (the whole
//!   workgroup): `glsl-no-subgroup` and `wgsl-no-subgroup` on wgpu/Vulkan,
//!   and `wgsl-no-subgroup` on Dawn with the adapter's `subgroups`
//!   feature hidden, so that the device has none.
//!
//! The expected values come from the spec, not from the code under test:
//! a reference here computes each shape under maximal reconvergence (the
//! invocations of a subgroup that reach a collective by the same path
//! execute it together; `../shared/DESIGN.md`, "Hand-written shaders on
//! emulated targets") over a subgroup layout. On the emulated targets the
//! layout is the documented one (virtual subgroup k of a workgroup holds
//! the local indices [k·V, (k+1)·V), lane = index % V), and the lane ids,
//! keys and sizes the shader records are checked against it. On the
//! hardware targets nothing is assumed of the driver's mapping: each
//! invocation records its lane id, subgroup size and a key
//! (`subgroupBroadcastFirst(local_invocation_index)`, taken while every
//! invocation is active), and the layout is rebuilt from them. The
//! compaction is compared as a set: every kept index is written once, at
//! the slots the counter handed out, and each subgroup's kept invocations
//! occupy a contiguous run of slots in lane order (the order of the
//! subgroups' atomics is free).
//!
//! One test per (target, driver); each runs every (shape, size) it covers
//! and fails once, at the end, listing each failed run: a link error, the
//! driver's or Tint's refusal, or the first mismatches (invocation,
//! expected, got). One more test runs the GLSL sources as written,
//! through glslang alone, on Vulkan's subgroups: the shaders and the
//! reference agree there whatever the linker does.
//! Without a Vulkan adapter (or Node's `webgpu`) the tests say why on
//! stderr and pass, unless `BALLOT_REQUIRE_GPU=1`. `BALLOT_TARGETS` limits
//! the targets, as in the other driver tests.

use std::sync::mpsc;

use ballot_naga::link::{link, LinkOptions};
use ballot_runner::dawn::Dawn;
use ballot_runner::gpu::storage_entry;
use ballot_runner::job::UNWRITTEN;
use ballot_runner::{Gpu, RunnerError};
use ballot_shader::back::{Language, Target};
use wgpu::util::DeviceExt as _;

mod common;

use common::{loud, required, skip, targets};

/// Invocations per workgroup: `@workgroup_size(64)`, `local_size_x = 64`.
const WORKGROUP: u32 = 64;
const WORKGROUPS: u32 = 2;
const INVOCATIONS: u32 = WORKGROUP * WORKGROUPS;
/// The buffer's header: `n`, the compaction's counter, two words of padding.
const HEADER: usize = 4;
/// Words per invocation's record: lane id, subgroup key, subgroup size,
/// then five words of the shape's own.
const RECORD: usize = 8;
/// Where, in the words after the header, the compaction's slots start.
const SLOTS: usize = 1024;
const WORDS: usize = HEADER + SLOTS + INVOCATIONS as usize;
/// The bounds guard's `n`: the second workgroup has 45 of its 64
/// invocations active.
const N: u32 = 109;
/// What the shaders write for FindLSB of an empty ballot, which the spec
/// leaves undefined (they do not call it then).
const EMPTY_LSB: u32 = 0xffff_fffe;
/// The emulated targets' virtual subgroup sizes; 64 is the whole workgroup.
const VIRTUAL_SIZES: [u32; 5] = [4, 8, 16, 32, 64];
/// How many mismatches a failed run shows.
const SHOWN: usize = 6;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Guard,
    Loop,
    Call,
    Compact,
    Family,
}

impl Shape {
    const ALL: [Shape; 5] = [
        Shape::Guard,
        Shape::Loop,
        Shape::Call,
        Shape::Compact,
        Shape::Family,
    ];

    fn name(self) -> &'static str {
        match self {
            Shape::Guard => "guard",
            Shape::Loop => "loop",
            Shape::Call => "call",
            Shape::Compact => "compact",
            Shape::Family => "family",
        }
    }

    /// The shader's path (for the linker's messages) and text.
    fn source(self, language: Language) -> (String, &'static str) {
        let text = match (self, language) {
            (Shape::Guard, Language::Wgsl) => include_str!("shapes/guard.wgsl"),
            (Shape::Guard, Language::Glsl) => include_str!("shapes/guard.comp"),
            (Shape::Loop, Language::Wgsl) => include_str!("shapes/loop.wgsl"),
            (Shape::Loop, Language::Glsl) => include_str!("shapes/loop.comp"),
            (Shape::Call, Language::Wgsl) => include_str!("shapes/call.wgsl"),
            (Shape::Call, Language::Glsl) => include_str!("shapes/call.comp"),
            (Shape::Compact, Language::Wgsl) => include_str!("shapes/compact.wgsl"),
            (Shape::Compact, Language::Glsl) => include_str!("shapes/compact.comp"),
            (Shape::Family, Language::Wgsl) => include_str!("shapes/family.wgsl"),
            (Shape::Family, Language::Glsl) => include_str!("shapes/family.comp"),
        };
        let ext = match language {
            Language::Wgsl => "wgsl",
            Language::Glsl => "comp",
        };
        (
            format!("ballot-runner/tests/shapes/{}.{ext}", self.name()),
            text,
        )
    }
}

/// One (shape, target, virtual size) to run; `size` is `None` on the
/// hardware targets.
#[derive(Clone, Copy, Debug)]
struct Run {
    shape: Shape,
    target: Target,
    size: Option<u32>,
}

impl Run {
    /// The run's name; `how`: "linked" or what else was done to the source.
    fn describe(&self, how: &str, driver: &str) -> String {
        let size = match self.size {
            Some(v) => format!(" in virtual subgroups of {v}"),
            None => String::new(),
        };
        format!(
            "shape `{}` {how} for {}{size} on {driver}",
            self.shape.name(),
            self.target
        )
    }

    /// The linked shader, or the linker's error as the run's failure.
    fn link(&self) -> Result<String, String> {
        let (path, text) = self.shape.source(self.target.language());
        let options = LinkOptions::default().subgroup_size(self.size.unwrap_or(32));
        link(text, &path, self.target, &options)
            .map(|linked| linked.text)
            .map_err(|e| format!("the linker refuses it:\n{e}"))
    }
}

/// Every run of `shapes` on each target of `of` (as `BALLOT_TARGETS`
/// allows), at each virtual size on the emulated ones.
fn runs(of: &[Target]) -> Vec<Run> {
    let mut runs = Vec::new();
    for target in targets(of) {
        for shape in Shape::ALL {
            if target.has_subgroups() {
                runs.push(Run {
                    shape,
                    target,
                    size: None,
                });
            } else {
                for v in VIRTUAL_SIZES {
                    runs.push(Run {
                        shape,
                        target,
                        size: Some(v),
                    });
                }
            }
        }
    }
    runs
}

/// The buffer before the dispatch: `n`, a zero counter, and every other
/// word [`UNWRITTEN`].
fn initial() -> Vec<u32> {
    let mut words = vec![UNWRITTEN; WORDS];
    words[..HEADER].copy_from_slice(&[N, 0, 0, 0]);
    words
}

// ---------------------------------------------------------------------------
// The reference: each shape under maximal reconvergence, from the spec.
// ---------------------------------------------------------------------------

/// Subgroups, each as its members' (lane id, global invocation index), by
/// lane.
type Layout = Vec<Vec<(u32, u32)>>;

/// The shaders' `keep`.
fn keep(i: u32) -> bool {
    i.is_multiple_of(3) || ((i.wrapping_mul(2654435761) >> 28) & 1) == 1
}

/// The documented layout of the emulated targets: virtual subgroup k of a
/// workgroup holds local indices [k·v, (k+1)·v), lane = index % v.
fn emulated_layout(v: u32) -> Layout {
    (0..INVOCATIONS / v)
        .map(|k| (0..v).map(|lane| (lane, k * v + lane)).collect())
        .collect()
}

/// One ballot: the lanes of `members` that ballot `true`, from the
/// (lane, vote) of each member that executes it.
struct Ballot(Vec<u32>);

impl Ballot {
    fn of(votes: impl IntoIterator<Item = (u32, bool)>) -> Self {
        Ballot(votes.into_iter().filter(|v| v.1).map(|v| v.0).collect())
    }
    fn bit_count(&self) -> u32 {
        self.0.len() as u32
    }
    fn exclusive_bit_count(&self, lane: u32) -> u32 {
        self.0.iter().filter(|&&l| l < lane).count() as u32
    }
    fn find_lsb(&self) -> u32 {
        self.0.iter().copied().min().unwrap_or(EMPTY_LSB)
    }
}

/// Words 3..8 of each invocation's record, as the spec says `shape`
/// computes them in `layout` ([`UNWRITTEN`] where the shape writes
/// nothing). For `compact`, whose slots depend on the order of the
/// subgroups' atomics, see [`compaction_slots`].
fn expected_words(shape: Shape, layout: &Layout) -> Vec<[u32; 5]> {
    let mut out = vec![[UNWRITTEN; 5]; INVOCATIONS as usize];
    for subgroup in layout {
        match shape {
            Shape::Guard => {
                // The invocations past `n` returned: only the others ballot.
                let active: Vec<(u32, u32)> =
                    subgroup.iter().copied().filter(|&(_, i)| i < N).collect();
                let ballot = Ballot::of(active.iter().map(|&(lane, i)| (lane, keep(i))));
                for &(lane, i) in &active {
                    let count = ballot.bit_count();
                    let lsb = if count > 0 {
                        ballot.find_lsb()
                    } else {
                        EMPTY_LSB
                    };
                    out[i as usize][..3].copy_from_slice(&[
                        count,
                        ballot.exclusive_bit_count(lane),
                        lsb,
                    ]);
                }
            }
            Shape::Loop => {
                // Iteration k's ballot: the members still in the loop (k <
                // trips, no break yet) that did not `continue` at k.
                let mut broke = vec![false; subgroup.len()];
                let mut acc = vec![(0u32, 0u32); subgroup.len()];
                for k in 0..5u32 {
                    let reach: Vec<usize> = (0..subgroup.len())
                        .filter(|&m| {
                            let i = subgroup[m].1;
                            !broke[m] && k < i % 5 && !(k == 1 && i % 2 == 0)
                        })
                        .collect();
                    let ballot = Ballot::of(reach.iter().map(|&m| (subgroup[m].0, true)));
                    for &m in &reach {
                        let (lane, i) = subgroup[m];
                        let (a, b) = acc[m];
                        acc[m] = (
                            a.wrapping_mul(67).wrapping_add(ballot.bit_count()),
                            b.wrapping_add((k + 1).wrapping_mul(ballot.exclusive_bit_count(lane))),
                        );
                        if k == 2 && i % 3 == 0 {
                            broke[m] = true;
                        }
                    }
                }
                for (m, &(_, i)) in subgroup.iter().enumerate() {
                    out[i as usize][..2].copy_from_slice(&[acc[m].0, acc[m].1]);
                }
            }
            Shape::Call => {
                // Each arm's call is its own collective: its members that
                // do not return early ballot together.
                for then_arm in [true, false] {
                    let (x_of, plus) = arm_input(then_arm);
                    let arm: Vec<(u32, u32)> = subgroup
                        .iter()
                        .copied()
                        .filter(|&(_, i)| (i % 3 != 0) == then_arm)
                        .collect();
                    let ballot = Ballot::of(
                        arm.iter()
                            .filter(|&&(_, i)| x_of(i) % 4 != 1)
                            .map(|&(lane, i)| (lane, x_of(i) & 2 != 0)),
                    );
                    for &(lane, i) in &arm {
                        let x = x_of(i);
                        let tally = if x % 4 == 1 {
                            1000 + x
                        } else {
                            ballot.bit_count() * 256 + ballot.exclusive_bit_count(lane)
                        };
                        out[i as usize][0] = tally + plus;
                    }
                }
                // `whole`, at the top of main: every member calls it; those
                // that do not return early ballot together.
                let ballot = Ballot::of(
                    subgroup
                        .iter()
                        .filter(|&&(_, i)| (i * 3) % 11 % 4 != 1)
                        .map(|&(lane, i)| (lane, ((i * 3) % 11) & 2 != 0)),
                );
                for &(lane, i) in subgroup {
                    let x = (i * 3) % 11;
                    out[i as usize][1] = if x % 4 == 1 {
                        1000 + x
                    } else {
                        ballot.bit_count() * 256 + ballot.exclusive_bit_count(lane)
                    };
                }
            }
            Shape::Compact => {}
            Shape::Family => family_words(subgroup, &mut out),
        }
    }
    out
}

/// The `family` shape's words of one subgroup's members, from the spec of
/// each operation (docs/design.md, "The rest of the subgroup family"):
/// every collective over the members that reach it together. The sums of
/// small integers as f32 are exact in any order.
fn family_words(subgroup: &[(u32, u32)], out: &mut [[u32; 5]]) {
    let active: Vec<(u32, u32)> = subgroup.iter().copied().filter(|&(_, i)| i < N).collect();
    let Some(&(_, first)) = active.iter().min_by_key(|&&(lane, _)| lane) else {
        return;
    };
    let sum: u32 = active.iter().map(|&(_, i)| i).sum();
    // The vote is made only where `i % 5 != 0` (the right operand of
    // `||`): among those.
    let all_even = active
        .iter()
        .filter(|&&(_, i)| i % 5 != 0)
        .all(|&(_, i)| i % 2 == 0);
    let max_of_arm = active.iter().map(|&(_, i)| i).filter(|i| i % 3 != 0).max();
    let sum_of_other_arm: f32 = active
        .iter()
        .map(|&(_, i)| i)
        .filter(|i| i % 3 == 0)
        .map(|i| i as f32)
        .sum();
    let mut acc = vec![0u32; active.len()];
    for k in 0..4u32 {
        let reach: Vec<usize> = (0..active.len()).filter(|&m| active[m].1 % 4 > k).collect();
        let added = (k + 1) * reach.len() as u32;
        let all_odd = reach.iter().all(|&m| active[m].1 % 2 == 1);
        for &m in &reach {
            acc[m] = acc[m] * 7 + added + if all_odd { 100 } else { 0 };
        }
    }
    for (m, &(lane, i)) in active.iter().enumerate() {
        let scan: u32 = active
            .iter()
            .filter(|&&(l, _)| l <= lane)
            .map(|&(_, j)| j & 7)
            .sum();
        let arm = match i % 3 {
            0 => sum_of_other_arm.to_bits(),
            _ => max_of_arm.unwrap_or(UNWRITTEN),
        };
        out[i as usize] = [
            sum,
            scan + if i % 5 == 0 || all_even { 1000 } else { 0 },
            (first as i32).wrapping_neg() as u32,
            arm,
            acc[m],
        ];
    }
}

/// The `call` shape's arms: the argument each passes to `tally`, and what
/// it adds to the result.
fn arm_input(then_arm: bool) -> (fn(u32) -> u32, u32) {
    if then_arm {
        (|i| (i * 5) % 11, 0)
    } else {
        (|i| (i * 7 + 3) % 11, 50000)
    }
}

/// The compaction's slots, per invocation, as the spec allows them given
/// the bases the driver's atomics handed out: each subgroup's kept
/// members, in lane order, take consecutive slots from their base. A
/// subgroup's base is taken as what its first kept lane wrote (the other
/// checks of [`check_compaction`] then say whether the bases are a
/// partition of the counter's range).
fn compaction_slots(layout: &Layout, words: &[u32]) -> Vec<[u32; 5]> {
    let mut out = vec![[UNWRITTEN; 5]; INVOCATIONS as usize];
    for subgroup in layout {
        let kept: Vec<u32> = subgroup
            .iter()
            .map(|&(_, i)| i)
            .filter(|&i| keep(i))
            .collect();
        let Some(&first) = kept.first() else { continue };
        let base = record(words, first)[3];
        for (j, &i) in kept.iter().enumerate() {
            out[i as usize][0] = base.wrapping_add(j as u32);
        }
    }
    out
}

/// Invocation `i`'s record in the buffer `words`.
fn record(words: &[u32], i: u32) -> &[u32] {
    let at = HEADER + RECORD * i as usize;
    &words[at..at + RECORD]
}

/// The layout the hardware path ran in, rebuilt from each invocation's
/// lane id, subgroup size and key; an error where the records do not make
/// subgroups (lanes repeated or out of range, a key that is not the first
/// lane's local index, sizes that differ).
fn recorded_layout(words: &[u32]) -> Result<Layout, String> {
    let mut groups: std::collections::BTreeMap<(u32, u32), Vec<(u32, u32)>> = Default::default();
    for i in 0..INVOCATIONS {
        let r = record(words, i);
        groups
            .entry((i / WORKGROUP, r[1]))
            .or_default()
            .push((r[0], i));
    }
    let mut layout = Vec::new();
    for ((workgroup, key), mut members) in groups {
        members.sort_unstable();
        let what = format!("the subgroup of key {key} in workgroup {workgroup}");
        let size = record(words, members[0].1)[2];
        if !size.is_power_of_two() || size > 128 {
            return Err(format!("{what}: subgroup size {size}"));
        }
        for pair in members.windows(2) {
            if pair[0].0 == pair[1].0 {
                return Err(format!(
                    "{what}: invocations {} and {} both have lane {}",
                    pair[0].1, pair[1].1, pair[0].0
                ));
            }
        }
        for &(lane, i) in &members {
            let reported = record(words, i)[2];
            if lane >= size || reported != size {
                return Err(format!(
                    "{what}: invocation {i} has lane {lane} and size {reported} (first member's size {size})"
                ));
            }
        }
        if members[0].1 % WORKGROUP != key {
            return Err(format!(
                "{what}: the key is not the local index of its first lane, invocation {}",
                members[0].1
            ));
        }
        layout.push(members);
    }
    Ok(layout)
}

/// Every invocation's whole record against `lane_key_size` (what the
/// first three words must be) and `rest` (the shape's five words):
/// the first [`SHOWN`] mismatches.
fn compare_records(
    words: &[u32],
    lane_key_size: impl Fn(u32) -> [u32; 3],
    rest: &[[u32; 5]],
) -> Result<(), String> {
    let mut mismatches = Vec::new();
    for i in 0..INVOCATIONS {
        let mut want = [0u32; RECORD];
        want[..3].copy_from_slice(&lane_key_size(i));
        want[3..].copy_from_slice(&rest[i as usize]);
        let got = record(words, i);
        if got != want {
            mismatches.push(format!(
                "invocation {i} (workgroup {}, local {}): expected {}, got {}",
                i / WORKGROUP,
                i % WORKGROUP,
                show(&want),
                show(got)
            ));
        }
    }
    if mismatches.is_empty() {
        return Ok(());
    }
    Err(format!(
        "{} of {INVOCATIONS} invocations' records differ (lane, key, size, then the shape's words; \
         `-` is unwritten):\n  {}",
        mismatches.len(),
        mismatches[..mismatches.len().min(SHOWN)].join("\n  ")
    ))
}

fn show(words: &[u32]) -> String {
    let words: Vec<String> = words
        .iter()
        .map(|&w| match w {
            UNWRITTEN => "-".to_string(),
            EMPTY_LSB => "empty".to_string(),
            w => w.to_string(),
        })
        .collect();
    format!("[{}]", words.join(", "))
}

/// The compaction's slots and counter: the counter is the number of kept
/// invocations, every kept index is written exactly once, at the slot its
/// invocation recorded, inside the counter's range, and nothing past it.
fn check_compaction(words: &[u32]) -> Result<(), String> {
    let kept: Vec<u32> = (0..INVOCATIONS).filter(|&i| keep(i)).collect();
    let total = kept.len();
    let counter = words[1];
    let slots = &words[HEADER + SLOTS..];
    let mut problems = Vec::new();
    if counter as usize != total {
        problems.push(format!(
            "the counter is {counter}, not the {total} kept invocations"
        ));
    }
    for &i in &kept {
        let slot = record(words, i)[3];
        if slot as usize >= total {
            problems.push(format!(
                "invocation {i} (kept) wrote slot {}, past the {total} kept",
                show(&[slot])
            ));
        } else if slots[slot as usize] != i {
            problems.push(format!(
                "invocation {i} (kept) recorded slot {slot}, which holds {}",
                show(&[slots[slot as usize]])
            ));
        }
    }
    let mut written: Vec<u32> = slots[..total].to_vec();
    written.sort_unstable();
    if written != kept {
        let missing: Vec<u32> = kept
            .iter()
            .copied()
            .filter(|i| !written.contains(i))
            .collect();
        problems.push(format!(
            "the {total} slots do not hold the kept indices once each: missing {missing:?}"
        ));
    }
    if let Some(past) = slots[total..].iter().position(|&w| w != UNWRITTEN) {
        problems.push(format!(
            "slot {} past the kept ones holds {}",
            total + past,
            slots[total + past]
        ));
    }
    if problems.is_empty() {
        return Ok(());
    }
    Err(format!(
        "the compaction's slots are wrong ({} problems):\n  {}",
        problems.len(),
        problems[..problems.len().min(SHOWN)].join("\n  ")
    ))
}

/// Checks one run's buffer: the header, the layout (documented for the
/// emulated targets, rebuilt for the hardware ones) and every record
/// against the reference; for `compact`, the slots too.
fn check(run: &Run, words: &[u32]) -> Result<(), String> {
    if words.len() != WORDS {
        return Err(format!("{} words read back, not {WORDS}", words.len()));
    }
    if words[0] != N || words[2..HEADER] != [0, 0] {
        return Err(format!(
            "the header was overwritten: {}",
            show(&words[..HEADER])
        ));
    }
    if run.shape != Shape::Compact && words[1] != 0 {
        return Err(format!("the unused counter is {}", words[1]));
    }
    let (layout, lane_key_size): (Layout, Box<dyn Fn(u32) -> [u32; 3]>) = match run.size {
        Some(v) => (
            emulated_layout(v),
            Box::new(move |i| {
                let local = i % WORKGROUP;
                [local % v, local - local % v, v]
            }),
        ),
        None => {
            let layout = recorded_layout(words)
                .map_err(|e| format!("the lane records make no subgroups: {e}"))?;
            (
                layout,
                Box::new(|i| {
                    let r = record(words, i);
                    [r[0], r[1], r[2]]
                }),
            )
        }
    };
    let rest = match run.shape {
        Shape::Compact => compaction_slots(&layout, words),
        shape => expected_words(shape, &layout),
    };
    let records = compare_records(words, lane_key_size, &rest);
    let slots = match run.shape {
        Shape::Compact => check_compaction(words),
        _ => Ok(()),
    };
    match (records, slots) {
        (Ok(()), Ok(())) => Ok(()),
        (Err(a), Ok(())) | (Ok(()), Err(a)) => Err(a),
        (Err(a), Err(b)) => Err(format!("{a}\n{b}")),
    }
}

/// The subgroup sizes the invocations recorded, for the report.
fn sizes(words: &[u32]) -> String {
    let mut sizes: Vec<u32> = (0..INVOCATIONS).map(|i| record(words, i)[2]).collect();
    sizes.sort_unstable();
    sizes.dedup();
    format!("{sizes:?}")
}

/// Fails with every failed run, after saying which passed.
fn finish(what: &str, outcomes: Vec<(String, Result<String, String>)>) {
    let total = outcomes.len();
    let mut failed = Vec::new();
    for (name, outcome) in outcomes {
        match outcome {
            Ok(note) => loud(&format!("{name}: agrees with the reference{note}")),
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    assert!(
        failed.is_empty(),
        "{what}: {} of {total} runs fail:\n\n{}",
        failed.len(),
        failed.join("\n\n")
    );
}

// ---------------------------------------------------------------------------
// wgpu on Vulkan.
// ---------------------------------------------------------------------------

/// A run's buffer after its dispatch, or why there is none.
type Buffer = Result<Vec<u32>, String>;

/// Runs `text` for `target` over one read-write buffer at binding 0 that
/// starts as [`initial`], in [`WORKGROUPS`] workgroups, and reads it back.
fn run_vulkan(gpu: &Gpu, what: &str, target: Target, text: &str) -> Result<Vec<u32>, String> {
    let error = |message: String| RunnerError::Dispatch {
        job: what.to_string(),
        message,
    };
    let module = || {
        gpu.module_of(target, what, [WORKGROUP, 1, 1], text)
            .map_err(|message| RunnerError::Shader {
                job: what.to_string(),
                message,
            })
    };
    let (bind_layout, pipeline) = gpu
        .pipeline(what, what, module, &[storage_entry(0, false)])
        .map_err(|e| e.to_string())?;
    let device = gpu.device();
    let scope = device.push_error_scope(wgpu::ErrorFilter::Validation);
    let contents: Vec<u8> = initial().iter().flat_map(|w| w.to_le_bytes()).collect();
    let buffer = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: None,
        contents: &contents,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC,
    });
    let bytes = contents.len() as u64;
    let staging = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: bytes,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: None,
        layout: &bind_layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: buffer.as_entire_binding(),
        }],
    });
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor::default());
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor::default());
        pass.set_pipeline(&pipeline);
        pass.set_bind_group(0, &group, &[]);
        pass.dispatch_workgroups(WORKGROUPS, 1, 1);
    }
    encoder.copy_buffer_to_buffer(&buffer, 0, &staging, 0, bytes);
    gpu.queue().submit([encoder.finish()]);
    if let Some(e) = pollster::block_on(scope.pop()) {
        return Err(error(e.to_string()).to_string());
    }
    let (tx, rx) = mpsc::channel();
    staging.map_async(wgpu::MapMode::Read, .., move |r| {
        let _ = tx.send(r);
    });
    device
        .poll(wgpu::PollType::wait_indefinitely())
        .map_err(|e| error(e.to_string()).to_string())?;
    rx.recv()
        .map_err(|e| e.to_string())?
        .map_err(|e| error(format!("reading back: {e}")).to_string())?;
    let view = staging.get_mapped_range(..).map_err(|e| e.to_string())?;
    let words = ballot_runner::gpu::words_of(&view);
    drop(view);
    staging.unmap();
    Ok(words)
}

/// Runs every shape linked for `target` on wgpu/Vulkan (at each virtual
/// size on an emulated target), each dispatched and checked.
fn on_vulkan(target: Target) {
    on_vulkan_with(
        &format!("the four shapes linked for {target} on Vulkan"),
        target,
        "linked",
        Run::link,
    );
}

/// [`on_vulkan`] with the shader text `text` gives of each run.
fn on_vulkan_with(
    what: &str,
    target: Target,
    how: &str,
    text: impl Fn(&Run) -> Result<String, String>,
) {
    let runs = runs(&[target]);
    if runs.is_empty() {
        return loud(&format!("{what}: not in BALLOT_TARGETS"));
    }
    let gpu = match Gpu::new() {
        Ok(gpu) => gpu,
        Err(e) => return skip(what, &e.to_string()),
    };
    if let Some(why) = gpu.unsupported(target) {
        return skip(what, &why);
    }
    let driver = gpu.describe();
    let mut outcomes = Vec::new();
    for run in runs {
        let name = run.describe(how, &driver);
        let linked = text(&run);
        let outcome = linked
            .and_then(|text| run_vulkan(&gpu, &name, run.target, &text))
            .and_then(|words| {
                check(&run, &words)?;
                Ok(format!(" in subgroups of {}", sizes(&words)))
            });
        outcomes.push((name, outcome));
    }
    finish(what, outcomes);
}

#[test]
fn glsl_on_vulkan_subgroups() {
    on_vulkan(Target::Glsl);
}

#[test]
fn wgsl_on_vulkan_subgroups() {
    on_vulkan(Target::Wgsl);
}

#[test]
fn glsl_no_subgroup_on_vulkan() {
    on_vulkan(Target::GlslNoSubgroup);
}

#[test]
fn wgsl_no_subgroup_on_vulkan() {
    on_vulkan(Target::WgslNoSubgroup);
}

/// The GLSL sources as written, compiled by glslang alone: no ballot code
/// between them and the driver, so that the shaders and the reference are
/// shown to agree on hardware subgroups whatever the linker does.
#[test]
fn the_glsl_sources_unlinked_agree_with_the_reference_on_vulkan_subgroups() {
    on_vulkan_with(
        "the four GLSL shapes, unlinked, on Vulkan",
        Target::Glsl,
        "compiled by glslang, unlinked,",
        |run| Ok(run.shape.source(Language::Glsl).1.to_string()),
    );
}

// ---------------------------------------------------------------------------
// Dawn.
// ---------------------------------------------------------------------------

/// The module script of a page that `dawn/page.mjs` runs, after the
/// constants `WANT_SUBGROUPS`, `WORKGROUPS`, `INITIAL`, `SHADERS` and
/// `RESULTS`: each shader in turn over one read-write buffer that starts
/// as `INITIAL`, on a device that asks for `subgroups` only if
/// `WANT_SUBGROUPS` (with `page.mjs
/// --hide-subgroups` the adapter does not list it at all). It writes one
/// JSON object to `RESULTS`: whether the device has `subgroups`, and per
/// shader the buffer's words or the error.
const PAGE_SCRIPT: &str = r#"
const adapter = await navigator.gpu.requestAdapter({ powerPreference: 'high-performance' });
if (!adapter) {
  throw new Error('Dawn found no Vulkan adapter (it needs lavapipe from Mesa 25 or a real GPU)');
}
const features = WANT_SUBGROUPS && adapter.features.has('subgroups') ? ['subgroups'] : [];
const device = await adapter.requestDevice({ requiredFeatures: features });
const results = [];
for (const shader of SHADERS) {
  try {
    device.pushErrorScope('validation');
    const module = device.createShaderModule({ code: shader });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter((m) => m.type === 'error');
    if (errors.length) {
      await device.popErrorScope();
      throw new Error(`Tint rejects the shader: ${errors.map((m) => `${m.lineNum}:${m.linePos}: ${m.message}`).join('; ')}`);
    }
    const pipeline = device.createComputePipeline({ layout: 'auto', compute: { module, entryPoint: 'main' } });
    const rejected = await device.popErrorScope();
    if (rejected) throw new Error(`pipeline rejected: ${rejected.message}`);
    device.pushErrorScope('validation');
    const buffer = device.createBuffer({ size: INITIAL.length * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC, mappedAtCreation: true });
    new Uint32Array(buffer.getMappedRange()).set(INITIAL);
    buffer.unmap();
    const staging = device.createBuffer({ size: INITIAL.length * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    pass.dispatchWorkgroups(WORKGROUPS);
    pass.end();
    encoder.copyBufferToBuffer(buffer, 0, staging, 0, INITIAL.length * 4);
    device.queue.submit([encoder.finish()]);
    const failed = await device.popErrorScope();
    if (failed) throw new Error(`dispatch rejected: ${failed.message}`);
    await staging.mapAsync(GPUMapMode.READ);
    results.push({ words: Array.from(new Uint32Array(staging.getMappedRange())) });
    staging.unmap();
    buffer.destroy();
    staging.destroy();
  } catch (e) {
    results.push({ error: String((e && e.message) || e) });
  }
}
// Written to a file, not to the log element: page.mjs exits as soon as the
// script is done, which cuts a long write to its stdout pipe short.
const { writeFileSync } = await import('node:fs');
writeFileSync(RESULTS, JSON.stringify({ subgroups: device.features.has('subgroups'), results }));
device.destroy();
document.getElementById('log').textContent = `${results.length} shaders run`;
"#;

/// Runs `shaders` on Dawn through a page, the adapter's `subgroups`
/// feature hidden unless `subgroups`: whether the device had `subgroups`,
/// and each shader's buffer or error. `None`: Dawn cannot run here
/// (skipped).
fn run_dawn(what: &str, shaders: &[String], subgroups: bool) -> Option<(bool, Vec<Buffer>)> {
    let dawn = match Dawn::find() {
        Ok(dawn) => dawn,
        Err(why) => {
            skip(what, &why);
            return None;
        }
    };
    let dir = std::env::temp_dir().join(format!(
        "ballot-shapes-{}-{}",
        std::process::id(),
        if subgroups { "web" } else { "emulated" }
    ));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let page = dir.join("shapes.html");
    let results = dir.join("results.json");
    let script = format!(
        "const WANT_SUBGROUPS = {subgroups};\nconst WORKGROUPS = {WORKGROUPS};\n\
         const INITIAL = {};\nconst SHADERS = {};\nconst RESULTS = {};\n{PAGE_SCRIPT}",
        serde_json::json!(initial()),
        serde_json::json!(shaders),
        serde_json::json!(results.display().to_string()),
    );
    std::fs::write(
        &page,
        format!(
            "<!doctype html>\n<pre id=\"log\"></pre>\n<script type=\"module\">{script}</script>\n"
        ),
    )
    .expect("the page written");
    let output = dawn.run_page(&page, !subgroups);
    let written = std::fs::read_to_string(&results);
    let _ = std::fs::remove_dir_all(&dir);
    match output {
        Ok(_) => {}
        Err(e) if !required() && e.to_string().contains("no Vulkan adapter") => {
            skip(what, &e.to_string());
            return None;
        }
        Err(e) => panic!("{what}: {e}"),
    }
    let written = written.unwrap_or_else(|e| panic!("{what}: the page wrote no results: {e}"));
    let value: serde_json::Value = serde_json::from_str(&written)
        .unwrap_or_else(|e| panic!("{what}: the page's results are no JSON: {e}"));
    let had = value["subgroups"].as_bool().unwrap_or(true);
    let results = value["results"]
        .as_array()
        .unwrap_or_else(|| panic!("{what}: the page's results lack `results`"))
        .iter()
        .map(|r| match r.get("words").and_then(|w| w.as_array()) {
            Some(words) => Ok(words
                .iter()
                .map(|w| w.as_u64().unwrap_or(u64::MAX) as u32)
                .collect()),
            None => Err(r["error"].as_str().unwrap_or("no result").to_string()),
        })
        .collect();
    Some((had, results))
}

/// Runs `runs` of `of` on Dawn, with the `subgroups` feature only if
/// `subgroups`.
fn on_dawn(what: &str, of: &[Target], subgroups: bool) {
    let runs = runs(of);
    if runs.is_empty() {
        return loud(&format!("{what}: not in BALLOT_TARGETS"));
    }
    let driver = if subgroups {
        "Dawn"
    } else {
        "Dawn without `subgroups`"
    };
    let linked: Vec<Result<String, String>> = runs.iter().map(Run::link).collect();
    let shaders: Vec<String> = linked
        .iter()
        .filter_map(|l| l.as_ref().ok().cloned())
        .collect();
    let Some((had, mut results)) = run_dawn(what, &shaders, subgroups) else {
        return;
    };
    if subgroups && !had {
        return skip(what, "Dawn's adapter lacks the `subgroups` feature");
    }
    assert!(
        subgroups || !had,
        "{what}: the device has the `subgroups` feature, which the page hid"
    );
    results.reverse();
    let mut outcomes = Vec::new();
    for (run, linked) in runs.iter().zip(linked) {
        let outcome = linked.and_then(|_| {
            let words = results.pop().expect("one result per shader")?;
            check(run, &words)?;
            Ok(format!(" in subgroups of {}", sizes(&words)))
        });
        outcomes.push((run.describe("linked", driver), outcome));
    }
    finish(what, outcomes);
}

#[test]
fn wgsl_web_on_dawn_subgroups() {
    on_dawn(
        "the four shapes linked for wgsl-web on Dawn",
        &[Target::WgslWeb],
        true,
    );
}

#[test]
fn wgsl_no_subgroup_on_dawn_without_the_subgroups_feature() {
    on_dawn(
        "the four shapes linked for wgsl-no-subgroup on Dawn without `subgroups`",
        &[Target::WgslNoSubgroup],
        false,
    );
}

// ---------------------------------------------------------------------------
// A workgroup of two dimensions on the hardware WGSL targets.
// ---------------------------------------------------------------------------

/// naga refuses `@builtin(subgroup_invocation_id)` in a workgroup of more
/// than one dimension, so the linker's init ranks the lanes there instead.
/// Each invocation of an 8×8 workgroup records its subgroup's key and, of
/// two ballots, what the spec fixes without any lane mapping: the bit count
/// and exclusive bit count of `subgroupBallot(true)` (a permutation of
/// 0..n), InverseBallot and the inclusive bit count of another ballot.
const GRID: &str = "\
struct Buffer {
    n: u32,
    counter: atomic<u32>,
    pad0: u32,
    pad1: u32,
    words: array<u32>,
}

@group(0) @binding(0) var<storage, read_write> buf: Buffer;

@compute @workgroup_size(8, 8)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    let r = 8u * (wg.x * 64u + local);
    buf.words[r] = subgroupBroadcastFirst(local);
    let all = subgroupBallot(true);
    buf.words[r + 1u] = subgroupBallotBitCount(all);
    buf.words[r + 2u] = subgroupBallotExclusiveBitCount(all);
    let third = subgroupBallot(local % 3u == 0u);
    buf.words[r + 3u] = select(0u, 1u, subgroupInverseBallot(third));
    buf.words[r + 4u] = subgroupBallotInclusiveBitCount(third);
}
";

/// Checks [`GRID`]'s records: within each subgroup (workgroup and key),
/// every count is the subgroup's size, the exclusive counts are 0..n in
/// some order (the lane order), InverseBallot is the invocation's own
/// predicate, and the inclusive count is the predicate's count over the
/// lanes up to its own.
fn check_grid(words: &[u32]) -> Result<(), String> {
    // By (workgroup, key): each member's local index and record.
    type Members<'a> = Vec<(u32, &'a [u32])>;
    let mut groups: std::collections::BTreeMap<(u32, u32), Members<'_>> =
        std::collections::BTreeMap::new();
    for i in 0..INVOCATIONS {
        let r = record(words, i);
        groups
            .entry((i / WORKGROUP, r[0]))
            .or_default()
            .push((i % WORKGROUP, r));
    }
    for ((wg, key), mut members) in groups {
        let n = members.len() as u32;
        members.sort_by_key(|(_, r)| r[2]);
        let mut kept = 0;
        for (rank, (local, r)) in members.iter().enumerate() {
            let own = local % 3 == 0;
            kept += u32::from(own);
            let expected = [key, n, rank as u32, u32::from(own), kept];
            if r[..5] != expected {
                return Err(format!(
                    "workgroup {wg}, invocation {local} of the subgroup keyed {key}: \
                     expected {expected:?}, got {:?}",
                    &r[..5]
                ));
            }
        }
    }
    Ok(())
}

#[test]
fn a_two_dimensional_workgroup_on_hardware_subgroups() {
    let what = "an 8x8 workgroup linked for wgsl on Vulkan and wgsl-web on Dawn";
    let link_for = |target: Target| {
        link(GRID, "grid.wgsl", target, &LinkOptions::default())
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .text
    };
    let mut outcomes = Vec::new();
    if !targets(&[Target::Wgsl]).is_empty() {
        match Gpu::new() {
            Ok(gpu) if gpu.unsupported(Target::Wgsl).is_none() => {
                let name = format!("the grid linked for wgsl on {}", gpu.describe());
                let outcome = run_vulkan(&gpu, &name, Target::Wgsl, &link_for(Target::Wgsl))
                    .and_then(|words| check_grid(&words).map(|()| String::new()));
                outcomes.push((name, outcome));
            }
            Ok(gpu) => skip(what, &gpu.unsupported(Target::Wgsl).unwrap_or_default()),
            Err(e) => skip(what, &e.to_string()),
        }
    }
    if !targets(&[Target::WgslWeb]).is_empty() {
        if let Some((had, results)) = run_dawn(what, &[link_for(Target::WgslWeb)], true) {
            if had {
                let outcome = results
                    .into_iter()
                    .next()
                    .expect("one result")
                    .and_then(|words| check_grid(&words).map(|()| String::new()));
                outcomes.push(("the grid linked for wgsl-web on Dawn".to_string(), outcome));
            } else {
                skip(what, "Dawn's adapter lacks the `subgroups` feature");
            }
        }
    }
    finish(what, outcomes);
}

// ---------------------------------------------------------------------------
// Broadcasts of every type on the emulated targets.
// ---------------------------------------------------------------------------

/// Broadcasts of an `f32`, an `i32` vector from an `i32` lane and a
/// `vec2<f32>` (WGSL: one linked function per type, from naga's types),
/// and in GLSL a `bool` too (overloads), all while every invocation is
/// active. Each invocation records the results' bits at its 8 words.
const TYPED_WGSL: &str = "\
struct Buffer {
    n: u32,
    counter: atomic<u32>,
    pad0: u32,
    pad1: u32,
    words: array<u32>,
}

@group(0) @binding(0) var<storage, read_write> buf: Buffer;

@compute @workgroup_size(64)
fn main(@builtin(workgroup_id) wg: vec3<u32>, @builtin(local_invocation_index) local: u32) {
    let i = wg.x * 64u + local;
    let r = 8u * i;
    const lane = 1i;
    let f = subgroupBroadcast(f32(i) * 0.5, 1u);
    let v = subgroupBroadcast(vec3<i32>(-i32(i), i32(i), 7), lane);
    let first = subgroupBroadcastFirst(select(0i, 1i, i % 3u == 1u));
    let w = subgroupBroadcastFirst(vec2<f32>(f32(i), 2.0));
    buf.words[r] = bitcast<u32>(f);
    buf.words[r + 1u] = bitcast<u32>(v.x);
    buf.words[r + 2u] = bitcast<u32>(v.z);
    buf.words[r + 3u] = u32(first);
    buf.words[r + 4u] = bitcast<u32>(w.x);
    buf.words[r + 5u] = bitcast<u32>(w.y);
}
";

const TYPED_GLSL: &str = "\
#version 450
#extension GL_KHR_shader_subgroup_ballot : enable
layout(local_size_x = 64) in;
layout(std430, set = 0, binding = 0) buffer Buffer {
    uint n;
    uint counter;
    uint pad0;
    uint pad1;
    uint words[];
} buf;

void main() {
    uint i = gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex;
    uint r = 8u * i;
    float f = subgroupBroadcast(float(i) * 0.5, 1u);
    ivec3 v = subgroupBroadcast(ivec3(-int(i), int(i), 7), 1);
    bool first = subgroupBroadcastFirst(i % 3u == 1u);
    vec2 w = subgroupBroadcastFirst(vec2(float(i), 2.0));
    buf.words[r] = floatBitsToUint(f);
    buf.words[r + 1u] = uint(v.x);
    buf.words[r + 2u] = uint(v.z);
    buf.words[r + 3u] = first ? 1u : 0u;
    buf.words[r + 4u] = floatBitsToUint(w.x);
    buf.words[r + 5u] = floatBitsToUint(w.y);
}
";

/// [`TYPED_WGSL`]'s and [`TYPED_GLSL`]'s records against the spec in the
/// emulation's documented layout: virtual subgroup k of a workgroup holds
/// the local indices [k·V, (k+1)·V), so lane 1 is local index k·V + 1 and
/// the first active lane k·V.
fn check_typed(words: &[u32], v: u32) -> Result<(), String> {
    for i in 0..INVOCATIONS {
        let base = i - i % v;
        let (one, first) = (base + 1, base);
        let expected = [
            (one as f32 * 0.5).to_bits(),
            (-(one as i32)) as u32,
            7,
            u32::from(first % 3 == 1),
            (first as f32).to_bits(),
            2f32.to_bits(),
        ];
        let got = &record(words, i)[..6];
        if got != expected {
            return Err(format!(
                "invocation {i}: expected {expected:?}, got {got:?}"
            ));
        }
    }
    Ok(())
}

#[test]
fn broadcasts_of_every_type_on_the_emulated_targets() {
    let what = "typed broadcasts linked for glsl-no-subgroup and wgsl-no-subgroup";
    let linked = |target: Target, v: u32| {
        let (text, path) = match target.language() {
            Language::Wgsl => (TYPED_WGSL, "typed.wgsl"),
            Language::Glsl => (TYPED_GLSL, "typed.comp"),
        };
        link(text, path, target, &LinkOptions::default().subgroup_size(v))
            .map(|l| l.text)
            .map_err(|e| format!("the linker refuses it:\n{e}"))
    };
    let mut outcomes = Vec::new();
    let emulated = targets(&[Target::GlslNoSubgroup, Target::WgslNoSubgroup]);
    match Gpu::new() {
        Ok(gpu) => {
            for &target in &emulated {
                for v in VIRTUAL_SIZES {
                    let name = format!("{target} at {v} on {}", gpu.describe());
                    let outcome = linked(target, v)
                        .and_then(|text| run_vulkan(&gpu, &name, target, &text))
                        .and_then(|words| check_typed(&words, v).map(|()| String::new()));
                    outcomes.push((name, outcome));
                }
            }
        }
        Err(e) => skip(what, &e.to_string()),
    }
    if emulated.contains(&Target::WgslNoSubgroup) {
        let texts: Vec<Result<String, String>> = VIRTUAL_SIZES
            .iter()
            .map(|&v| linked(Target::WgslNoSubgroup, v))
            .collect();
        let shaders: Vec<String> = texts.iter().filter_map(|t| t.clone().ok()).collect();
        if let Some((had, mut results)) = run_dawn(what, &shaders, false) {
            assert!(
                !had,
                "{what}: the device has `subgroups`, which the page hid"
            );
            results.reverse();
            for (v, text) in VIRTUAL_SIZES.into_iter().zip(texts) {
                let outcome = text.and_then(|_| {
                    let words = results.pop().expect("one result per shader")?;
                    check_typed(&words, v).map(|()| String::new())
                });
                outcomes.push((format!("wgsl-no-subgroup at {v} on Dawn"), outcome));
            }
        }
    }
    finish(what, outcomes);
}
