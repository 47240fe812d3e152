//! The inclusive scan of a tile's counts, per target: what the skeletons'
//! `{COUNT_SCAN_HEAD}`, `{COUNT_SCAN_MEMORY}` and `{COUNT_SCAN}` become.
//!
//! Every form keeps one contract, which the primitives' templates rely on:
//! it starts after the barrier that follows the counts' writes, with `sum`
//! holding invocation `lid`'s count (0 at or past `counts`); it ends after
//! a barrier, with `s_counts[lid]` and `sum` holding the inclusive sum of
//! the counts up to `lid`, for each `lid < counts`. `counts` is at most
//! the workgroup's 256 invocations.
//!
//! - With subgroups: each subgroup's counts by an inclusive subgroup add,
//!   then the totals of the subgroups before it, two barriers in all. Lane
//!   `lid % size` of subgroup `lid / size`, as compaction's ballots take
//!   them. On an H100 it took the GLSL exclusive scan at 2^28 from 0.771
//!   to 0.735 ms (`gpu_bench files`, docs/performance.md).
//! - Without: a raking scan. `RAKE` invocations each scan `SPAN`
//!   consecutive counts in place and keep their total; then every
//!   invocation adds the totals of the spans before its own. Two barriers,
//!   where the step-by-step scan of Hillis and Steele pays two for each
//!   power of two up to `counts`: sixteen for 256 counts.

use ballot_ir::target::{Language, Target};

/// The three texts of a target's count scan, and the lengths of the loops
/// that WGSL unrolls in it (`{EACH_SPAN:…}` and `{EACH_RAKER:…}`, as the
/// skeletons' other loops over constants).
pub(super) struct CountScan {
    /// After `#version` (GLSL) or at the top of the module (WGSL).
    pub head: &'static str,
    /// Workgroup memory and functions, beside the skeleton's own.
    pub memory: String,
    /// The statements, in the tile's loop.
    pub code: String,
    /// The counts each raking invocation scans (0 with subgroups).
    pub span: u32,
    /// The raking invocations (0 with subgroups).
    pub rakers: u32,
}

/// `target`'s count scan of at most `counts` counts. `subgroups_enabled`:
/// whether the module already enables `subgroups` (on `wgsl-web`, the
/// compaction kernel's helpers do). Only `wgsl-web` enables it: naga
/// rejects the directive, and `wgsl` is the text naga reads.
pub(super) fn count_scan(target: Target, counts: u32, subgroups_enabled: bool) -> CountScan {
    let glsl = target.language() == Language::Glsl;
    if target.has_subgroups() {
        let (head, memory, code) = if glsl {
            (GLSL_SUBGROUP_HEAD, GLSL_SUBGROUP_MEMORY, GLSL_SUBGROUP_SCAN)
        } else {
            let head = if target == Target::WgslWeb && !subgroups_enabled {
                "enable subgroups;"
            } else {
                ""
            };
            (head, WGSL_SUBGROUP_MEMORY, WGSL_SUBGROUP_SCAN)
        };
        return CountScan {
            head,
            memory: memory.to_string(),
            code: code.to_string(),
            span: 0,
            rakers: 0,
        };
    }
    let (span, rakers) = rake(counts);
    let (memory, code) = if glsl {
        (GLSL_RAKE_MEMORY, GLSL_RAKE_SCAN)
    } else {
        (WGSL_RAKE_MEMORY, WGSL_RAKE_SCAN)
    };
    let fill = |text: &str| {
        text.replace("{SPAN}", &span.to_string())
            .replace("{RAKERS}", &rakers.to_string())
    };
    CountScan {
        head: "",
        memory: fill(memory),
        code: fill(code),
        span,
        rakers,
    }
}

/// The span and the raking invocations for `counts` counts: the span the
/// power of two nearest the square root from above, so that the serial
/// scan of a span and the sum of the spans before are about as long.
fn rake(counts: u32) -> (u32, u32) {
    let counts = counts.max(1).next_power_of_two();
    let span = 1u32 << counts.trailing_zeros().div_ceil(2);
    (span, counts / span)
}

const GLSL_SUBGROUP_HEAD: &str = "#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require";

/// The subgroups' totals, one per subgroup of the workgroup at the
/// smallest size.
const GLSL_SUBGROUP_MEMORY: &str = "shared uint s_subgroup_sums[WG];";

const GLSL_SUBGROUP_SCAN: &str = "{
            uint size = gl_SubgroupSize;
            uint inclusive = subgroupInclusiveAdd(sum);
            if (lid % size == size - 1u) {
                s_subgroup_sums[lid / size] = inclusive;
            }
            barrier();
            uint before = 0u;
            for (uint g = 0u; g < lid / size; g++) {
                before += s_subgroup_sums[g];
            }
            sum = inclusive + before;
            if (lid < counts) {
                s_counts[lid] = sum;
            }
            barrier();
        }";

const WGSL_SUBGROUP_MEMORY: &str = "var<workgroup> s_subgroup_sums: array<u32, WG>;";

/// `ballot_lanes` is the entry point's `subgroup_size` built-in. The
/// subgroup add sits in the tile loop's uniform control flow, as WGSL
/// asks of it; the loop over the subgroups before is short (WG / size).
const WGSL_SUBGROUP_SCAN: &str = "{
            let size = ballot_lanes;
            let inclusive = subgroupInclusiveAdd(sum);
            if (lid % size == size - 1u) {
                s_subgroup_sums[lid / size] = inclusive;
            }
            workgroupBarrier();
            var before = 0u;
            for (var g = 0u; g < lid / size; g++) {
                before += s_subgroup_sums[g];
            }
            sum = inclusive + before;
            if (lid < counts) {
                s_counts[lid] = sum;
            }
            workgroupBarrier();
        }";

const GLSL_RAKE_MEMORY: &str = "shared uint s_rake[{RAKERS}];";

/// Each invocation then reads and writes only its own count, and the
/// spans' totals, so one barrier after the rake and one at the end do.
const GLSL_RAKE_SCAN: &str = "{
            if (lid < {RAKERS}u) {
                uint run = 0u;
                for (uint k = 0u; k < {SPAN}u; k++) {
                    uint i = lid * {SPAN}u + k;
                    if (i < counts) {
                        run += s_counts[i];
                        s_counts[i] = run;
                    }
                }
                s_rake[lid] = run;
            }
            barrier();
            if (lid < counts) {
                uint before = 0u;
                for (uint r = 0u; r < lid / {SPAN}u; r++) {
                    before += s_rake[r];
                }
                sum = s_counts[lid] + before;
                s_counts[lid] = sum;
            }
            barrier();
        }";

/// The loops over constants are calls, one per entry (`{EACH_…}`), as the
/// WGSL skeleton's others: wgpu bounds every loop it is given.
const WGSL_RAKE_MEMORY: &str = "var<workgroup> s_rake: array<u32, {RAKERS}>;
var<private> t_rake_first: u32;
var<private> t_rake_counts: u32;
var<private> t_rake_run: u32;
var<private> t_rake_spans: u32;

// Entry k of this invocation's span, summed into the run and written back.
fn rake_entry(k: u32) {
    let i = t_rake_first + k;
    if (i < t_rake_counts) {
        t_rake_run += s_counts[i];
        s_counts[i] = t_rake_run;
    }
}

// Span r's total, where it comes before this invocation's span.
fn rake_before(r: u32) {
    if (r < t_rake_spans) {
        t_rake_run += s_rake[r];
    }
}";

const WGSL_RAKE_SCAN: &str = "{
            t_rake_first = lid * {SPAN}u;
            t_rake_counts = counts;
            t_rake_run = 0u;
            if (lid < {RAKERS}u) {
                {EACH_SPAN:rake_entry}
                s_rake[lid] = t_rake_run;
            }
            workgroupBarrier();
            t_rake_run = 0u;
            t_rake_spans = lid / {SPAN}u;
            {EACH_RAKER:rake_before}
            if (lid < counts) {
                sum = s_counts[lid] + t_rake_run;
                s_counts[lid] = sum;
            }
            workgroupBarrier();
        }";

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size of compaction's counts (loads × 256 / subgroup size) and
    /// the scan's 256: the spans cover the counts, and neither the serial
    /// part nor the sum of the spans before exceeds twice the square root.
    #[test]
    fn the_spans_cover_the_counts_with_both_halves_near_the_square_root() {
        for counts in [8u32, 16, 32, 64, 128, 256] {
            let (span, rakers) = rake(counts);
            assert_eq!(span * rakers, counts, "{counts}");
            let root = f64::from(counts).sqrt();
            assert!(f64::from(span) <= 2.0 * root && f64::from(rakers) <= 2.0 * root);
        }
        assert_eq!(rake(256), (16, 16));
        assert_eq!(rake(64), (8, 8));
    }

    #[test]
    fn only_targets_without_subgroups_rake() {
        for target in Target::ALL {
            let scan = count_scan(target, 256, false);
            assert_eq!(scan.rakers == 0, target.has_subgroups(), "{target}");
            assert!(!scan.code.contains("{SPAN}") && !scan.memory.contains("{RAKERS}"));
        }
    }
}
