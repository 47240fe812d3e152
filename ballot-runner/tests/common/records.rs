//! The records both module tests (naga_oil, WESL) have their shaders write,
//! and their check against the spec's definitions (docs/design.md,
//! "Semantics"), over the subgroups the records themselves reveal. The
//! shaders call the modules as `ballot::NAME`: each test puts its own
//! import line first ([`wgsl_shader`], [`wgsl_no_subgroup_shader`]).

use std::collections::{BTreeMap, BTreeSet};

use ballot_runner::job::UNWRITTEN;
use ballot_runner::Gpu;
use ballot_shader::back::{Target, UNDEFINED_FIND};

/// `vec4<u32>` records per invocation.
pub const RECORDS: usize = 11;
pub const WORKGROUP: [u32; 3] = [64, 1, 1];
pub const WORKGROUPS: [u32; 3] = [2, 1, 1];
/// The virtual subgroup size of the `wgsl-no-subgroup` case.
pub const EMULATED_SIZE: u32 = 32;

/// The records, the same for both shaders, with `b = Ballot(lane is odd)`
/// over the whole subgroup and, in lanes with `lane % 3 != 0` only (the
/// *divergent* lanes), `c = Ballot(true)`:
///
/// | record | x | y | z | w |
/// |---|---|---|---|---|
/// | 0 | `BroadcastFirst(g)` | lane | size | `g` |
/// | 1 | `b` | | | |
/// | 2 | `BitCount(b)` | `InclusiveBitCount(b)` | `ExclusiveBitCount(b)` | `FindLSB(b)` |
/// | 3 | `FindMSB(b)` | `BitExtract(b, (lane + 1) % size)` | `InverseBallot(b)` | `Elect()` |
/// | 4–8 | `EqMask`, `GeMask`, `GtMask`, `LeMask`, `LtMask` | | | |
/// | 9 | divergent: `Elect()` | `ExclusiveBitCount(c)` | `FindLSB(c)` | `BitCount(c)` |
/// | 10 | divergent: `Broadcast(1000 + g, 2)` | `BroadcastFirst(1000 + g)` | `c.x` | |
///
/// `g` is the invocation's index in the dispatch. Records 9 and 10 stay
/// unwritten in the other lanes. Booleans are 0 or 1.
///
/// With the driver's subgroups: Ballot and the broadcasts are WGSL's own,
/// everything else the module's.
const WGSL_BODY: &str = r#"

@group(0) @binding(0) var<storage, read_write> out: array<vec4<u32>>;

@compute @workgroup_size(64)
fn main(
    @builtin(local_invocation_index) index: u32,
    @builtin(workgroup_id) workgroup: vec3<u32>,
    @builtin(subgroup_invocation_id) lane: u32,
    @builtin(subgroup_size) size: u32,
) {
    ballot::ballot_init(lane, size);
    let g = workgroup.x * 64u + index;
    let r = g * 11u;
    out[r] = vec4<u32>(subgroupBroadcastFirst(g), lane, size, g);
    let b = subgroupBallot(lane % 2u == 1u);
    out[r + 1u] = b;
    out[r + 2u] = vec4<u32>(
        ballot::subgroupBallotBitCount(b),
        ballot::subgroupBallotInclusiveBitCount(b),
        ballot::subgroupBallotExclusiveBitCount(b),
        ballot::subgroupBallotFindLSB(b),
    );
    out[r + 3u] = vec4<u32>(
        ballot::subgroupBallotFindMSB(b),
        u32(ballot::subgroupBallotBitExtract(b, (lane + 1u) % size)),
        u32(ballot::subgroupInverseBallot(b)),
        u32(ballot::subgroupElect()),
    );
    out[r + 4u] = ballot::subgroupEqMask();
    out[r + 5u] = ballot::subgroupGeMask();
    out[r + 6u] = ballot::subgroupGtMask();
    out[r + 7u] = ballot::subgroupLeMask();
    out[r + 8u] = ballot::subgroupLtMask();
    if (lane % 3u != 0u) {
        let c = subgroupBallot(true);
        out[r + 9u] = vec4<u32>(
            u32(ballot::subgroupElect()),
            ballot::subgroupBallotExclusiveBitCount(c),
            ballot::subgroupBallotFindLSB(c),
            ballot::subgroupBallotBitCount(c),
        );
        out[r + 10u] = vec4<u32>(
            subgroupBroadcast(1000u + g, 2u),
            subgroupBroadcastFirst(1000u + g),
            c.x,
            0u,
        );
    }
}
"#;

/// The same records with virtual subgroups of 32: every function is the
/// module's, and the collectives run in every invocation, with `on` saying
/// which take part. The lane and size written to record 0 are the
/// documented layout (`local_invocation_index % 32`); the test checks that
/// BroadcastFirst groups the invocations that way.
const WGSL_NO_SUBGROUP_BODY: &str = r#"

@group(0) @binding(0) var<storage, read_write> out: array<vec4<u32>>;

@compute @workgroup_size(64)
fn main(
    @builtin(local_invocation_index) index: u32,
    @builtin(workgroup_id) workgroup: vec3<u32>,
) {
    ballot::ballot_init(index);
    let lane = index % 32u;
    let size = 32u;
    let g = workgroup.x * 64u + index;
    let r = g * 11u;
    out[r] = vec4<u32>(ballot::subgroupBroadcastFirst(true, g), lane, size, g);
    let b = ballot::subgroupBallot(true, lane % 2u == 1u);
    out[r + 1u] = b;
    out[r + 2u] = vec4<u32>(
        ballot::subgroupBallotBitCount(b),
        ballot::subgroupBallotInclusiveBitCount(b),
        ballot::subgroupBallotExclusiveBitCount(b),
        ballot::subgroupBallotFindLSB(b),
    );
    out[r + 3u] = vec4<u32>(
        ballot::subgroupBallotFindMSB(b),
        u32(ballot::subgroupBallotBitExtract(b, (lane + 1u) % size)),
        u32(ballot::subgroupInverseBallot(b)),
        u32(ballot::subgroupElect(true)),
    );
    out[r + 4u] = ballot::subgroupEqMask();
    out[r + 5u] = ballot::subgroupGeMask();
    out[r + 6u] = ballot::subgroupGtMask();
    out[r + 7u] = ballot::subgroupLeMask();
    out[r + 8u] = ballot::subgroupLtMask();
    let on = lane % 3u != 0u;
    let c = ballot::subgroupBallot(on, true);
    let elect = ballot::subgroupElect(on);
    let from_two = ballot::subgroupBroadcast(on, 1000u + g, 2u);
    let first = ballot::subgroupBroadcastFirst(on, 1000u + g);
    if (on) {
        out[r + 9u] = vec4<u32>(
            u32(elect),
            ballot::subgroupBallotExclusiveBitCount(c),
            ballot::subgroupBallotFindLSB(c),
            ballot::subgroupBallotBitCount(c),
        );
        out[r + 10u] = vec4<u32>(from_two, first, c.x, 0u);
    }
}
"#;

/// The `wgsl` module's shader, after `import` (the line that names the
/// module `ballot`).
pub fn wgsl_shader(import: &str) -> String {
    format!("{import}\n{WGSL_BODY}")
}

/// The `wgsl-no-subgroup` module's shader, after `import`.
pub fn wgsl_no_subgroup_shader(import: &str) -> String {
    format!("{import}\n{WGSL_NO_SUBGROUP_BODY}")
}

// The spec's definitions, on masks of up to 128 lanes.

fn bit(lane: u32) -> u128 {
    1u128 << lane
}

/// Bits `0..n`.
fn first(n: u32) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        bit(n) - 1
    }
}

fn mask_of(lanes: impl IntoIterator<Item = u32>) -> u128 {
    lanes.into_iter().fold(0, |m, lane| m | bit(lane))
}

fn words(mask: u128) -> [u32; 4] {
    std::array::from_fn(|i| (mask >> (32 * i)) as u32)
}

fn count(mask: u128) -> u32 {
    mask.count_ones()
}

/// FindLSB / FindMSB of the bits below the size; the library documents
/// `UNDEFINED_FIND` where there is none.
fn find_lsb(mask: u128) -> u32 {
    if mask == 0 {
        UNDEFINED_FIND
    } else {
        mask.trailing_zeros()
    }
}

fn find_msb(mask: u128) -> u32 {
    if mask == 0 {
        UNDEFINED_FIND
    } else {
        127 - mask.leading_zeros()
    }
}

/// One subgroup as the records reveal it: its invocations by lane.
struct Subgroup {
    size: u32,
    /// lane → `g`.
    members: BTreeMap<u32, u32>,
}

/// Rebuilds the subgroups from record 0, checking they are what the spec
/// and the docs say: every lane `0..size` once (the workgroup is a
/// multiple of the size, so every subgroup is full), `BroadcastFirst(g)`
/// the `g` of lane 0, and on the emulated target lane = index % 32.
fn subgroups(target: Target, gpu: &Gpu, records: &[[u32; 4]]) -> Vec<Subgroup> {
    let mut by_first: BTreeMap<u32, Subgroup> = BTreeMap::new();
    for (g, record) in records.chunks(RECORDS).enumerate() {
        let [first, lane, size, own] = record[0];
        assert_eq!(own, g as u32, "{}: invocation {g} wrote record 0", target);
        let subgroup = by_first.entry(first).or_insert(Subgroup {
            size,
            members: BTreeMap::new(),
        });
        assert_eq!(
            subgroup.size, size,
            "{}: sizes differ in a subgroup",
            target
        );
        let twice = subgroup.members.insert(lane, g as u32);
        assert!(
            twice.is_none(),
            "{}: lane {lane} twice in a subgroup",
            target
        );
    }
    let info = gpu.info();
    for (&first, subgroup) in &by_first {
        let size = subgroup.size;
        if target.has_subgroups() {
            assert!(
                size.is_power_of_two()
                    && (info.subgroup_min_size..=info.subgroup_max_size).contains(&size),
                "{}: subgroup size {size} outside the adapter's {}..={}",
                target,
                info.subgroup_min_size,
                info.subgroup_max_size
            );
        } else {
            assert_eq!(size, EMULATED_SIZE);
        }
        let lanes: Vec<u32> = subgroup.members.keys().copied().collect();
        assert_eq!(
            lanes,
            (0..size).collect::<Vec<_>>(),
            "{}: a subgroup's lanes",
            target
        );
        assert_eq!(
            subgroup.members[&0], first,
            "{}: BroadcastFirst is lane 0's",
            target
        );
        if !target.has_subgroups() {
            for (&lane, &g) in &subgroup.members {
                assert_eq!(g - first, lane, "{}: the documented layout", target);
            }
        }
    }
    by_first.into_values().collect()
}

/// Every record of every invocation, computed from the spec; returns how
/// many values were compared, and the subgroup sizes seen.
pub fn check(target: Target, gpu: &Gpu, words_out: &[u32]) -> (usize, BTreeSet<u32>) {
    let records: Vec<[u32; 4]> = words_out
        .chunks_exact(4)
        .map(|w| [w[0], w[1], w[2], w[3]])
        .collect();
    let mut compared = 0;
    let mut sizes = BTreeSet::new();
    for subgroup in subgroups(target, gpu, &records) {
        let size = subgroup.size;
        sizes.insert(size);
        let below = first(size);
        let active = subgroup.members.keys().copied();
        let b = mask_of(active.clone().filter(|lane| lane % 2 == 1));
        let divergent: Vec<u32> = active.clone().filter(|lane| lane % 3 != 0).collect();
        let c = mask_of(divergent.iter().copied());
        let lowest = active.clone().min().unwrap();
        let g_of = |lane: u32| subgroup.members[&lane];
        for (&lane, &g) in &subgroup.members {
            let eq = bit(lane);
            let lt = first(lane);
            let le = first(lane + 1);
            let expected: [[u32; 4]; RECORDS] = [
                [g_of(lowest), lane, size, g],
                words(b),
                [
                    count(b & below),
                    count(b & le),
                    count(b & lt),
                    find_lsb(b & below),
                ],
                [
                    find_msb(b & below),
                    u32::from(b & bit((lane + 1) % size) != 0),
                    u32::from(b & eq != 0),
                    u32::from(lane == lowest),
                ],
                words(eq),
                words(!lt & below),
                words(!le & below),
                words(le & below),
                words(lt),
                if divergent.contains(&lane) {
                    let lowest_divergent = divergent[0];
                    [
                        u32::from(lane == lowest_divergent),
                        count(c & lt),
                        find_lsb(c & below),
                        count(c & below),
                    ]
                } else {
                    [UNWRITTEN; 4]
                },
                if divergent.contains(&lane) {
                    // Lane 2 is divergent where it exists; a broadcast from
                    // a lane beyond the size is undefined.
                    let from_two = if size > 2 {
                        1000 + g_of(2)
                    } else {
                        records[g as usize * RECORDS + 10][0]
                    };
                    [from_two, 1000 + g_of(divergent[0]), words(c)[0], 0]
                } else {
                    [UNWRITTEN; 4]
                },
            ];
            let got = &records[g as usize * RECORDS..][..RECORDS];
            for (r, (got, expected)) in got.iter().zip(&expected).enumerate() {
                assert_eq!(
                    got, expected,
                    "{}: invocation {g} (lane {lane} of {size}), record {r}",
                    target
                );
                compared += 4;
            }
        }
    }
    (compared, sizes)
}
