#!/usr/bin/env bash
# Compile-time cost of #[ballot::kernel]: a generated crate of 50 kernels,
# built cold and incrementally, with and without compile-time validation,
# against a baseline crate with the same dependencies and no kernels.
#
#     benches/compile_time.sh            # from the repository root
#     benches/compile_time.sh --generate-only   # write the crates, build nothing
#
# Everything goes under "${CARGO_TARGET_DIR:-target}/compile-bench" (removed
# at the start of each run): the generated crates, one fresh target
# directory shared by all of them, and the build logs. Environment:
#   BENCH_REPEAT  incremental rebuilds per variant; the median is reported (3)
#   BENCH_JOBS    cargo -j (default: cargo's, the number of CPUs)
#   BENCH_VARIANTS  the variants to build, in order, separated by spaces
#                 (default "default skip-valid build-opt", and "compare"
#                 after "default" when BENCH_COMPARE is set; "one-thread" and
#                 "no-cache" only when named); ratios are printed for the
#                 pairs that were built
#   BENCH_COMPARE another checkout of ballot (an older commit, say): adds the
#                 variant "compare", the default one built against it, so
#                 that both are measured in one run on the same machine
#
# Every crate is its own workspace, depends on `ballot` by path and builds in
# the dev profile that a user's crate gets by default: the repository's
# [profile.dev.package.*] settings do not apply to it. The variants:
#   default      ballot with default features: every kernel's shaders are
#                validated by naga at expansion
#   skip-valid   ballot/skip-validation
#   build-opt    default features, plus [profile.dev.build-override]
#                opt-level = 3: the proc macro and its dependencies optimised
#   compare      as default, with ballot from BENCH_COMPARE
#   one-thread   as default, with BALLOT_EXPANSION_THREADS=1: each expansion
#                emits and validates on the macro's thread alone
#   no-cache     as default, with BALLOT_VALIDATION_CACHE=off: naga reads
#                every text again in each build, even those it found valid
#                in the build before
# For each variant, the baseline crate (no kernels) is built first: its time
# is what the dependencies add to a cold build (only the units it does not
# share with the variants before it; the first one builds everything). The
# kernel crate is then built on top of it (its cold build: the 50 kernels
# alone), then rebuilt BENCH_REPEAT times after an edit of one kernel.
# BALLOT_TIME_EXPANSION makes each expansion print its time, and that of each
# phase; cargo -vv shows them, and the per-kernel figures are read off the
# logs.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target_root=${CARGO_TARGET_DIR:-$repo/target}
case $target_root in /*) ;; *) target_root=$repo/$target_root ;; esac
base=$target_root/compile-bench
repeat=${BENCH_REPEAT:-3}
jobs=()
if [[ -n ${BENCH_JOBS:-} ]]; then jobs=(-j "$BENCH_JOBS"); fi
kernels_per_group=10
groups=5

rm -rf "$base"
mkdir -p "$base/logs"
export CARGO_TARGET_DIR=$base/target
export BALLOT_TIME_EXPANSION=1
# Incremental compilation is on by default in dev; make it explicit.
export CARGO_INCREMENTAL=1
unset RUSTFLAGS CARGO_BUILD_RUSTFLAGS CARGO_ENCODED_RUSTFLAGS

# --- the generated crates -------------------------------------------------

# One group of ten kernels: ballots and bit counts, find lsb/msb, the
# relative masks, elect/broadcast, inverse ballot and bit extract, branches,
# all three loops, early exits, the mask API and calls between kernels.
# $1 is the group number; constants and some operations vary with it.
group() {
    local g=$1
    local c=$((g * 7 + 3)) lane=$((g % 4)) m=$((g + 2))
    local lt=subgroup_lt_mask gt=subgroup_gt_mask
    if ((g % 2)); then lt=subgroup_le_mask gt=subgroup_ge_mask; fi
    local lsb=subgroup_ballot_find_lsb
    if ((g % 3 == 1)); then lsb=subgroup_ballot_find_msb; fi
    cat <<EOF
//! Kernel group $g of the compile-time benchmark.
// The expansion names everything by path; users import the prelude anyway.
#[allow(unused_imports)]
use ballot::prelude::*;

/// The slot of each kept element in an ordered stream compaction.
#[ballot::kernel]
pub fn slot_$g(keep: bool) -> u32 {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep)) + ${c}u32
}

/// Calls another kernel in a divergent branch.
#[ballot::kernel]
pub fn slot_if_$g(x: u32) -> u32 {
    let mut n = 0xffff_ffffu32;
    if x % ${m}u32 == 0u32 {
        n = slot_$g(x > ${c}u32);
    }
    n
}

/// The spread of the lanes where x exceeds a threshold.
#[ballot::kernel]
pub fn span_$g(x: u32) -> u32 {
    let m = subgroup_ballot(x > ${c}u32);
    if m.is_empty() {
        return 0u32;
    }
    subgroup_ballot_find_msb(m) - subgroup_ballot_find_lsb(m)
}

/// Lanes below and above this one that vote yes.
#[ballot::kernel]
pub fn neighbours_$g(p: bool) -> u32 {
    let b = subgroup_ballot(p);
    (b & ${lt}()).count() + (b & ${gt}()).count() * ${m}u32
}

/// Atomic aggregation: one leader per subgroup, each lane's rank.
#[ballot::kernel]
pub fn reserve_$g(want: bool, base_if_leader: u32) -> u32 {
    let mut slot = 0xffff_ffffu32;
    if want {
        let rank = subgroup_ballot_exclusive_bit_count(subgroup_ballot(true));
        if subgroup_elect() {
            slot = base_if_leader;
        }
        slot = subgroup_broadcast_first(base_if_leader + ${c}u32) + rank;
    }
    slot
}

/// Lanes leave the loop at different iterations.
#[ballot::kernel]
pub fn laps_$g(n: u32) -> u32 {
    let step = 1u32; // bench: edit here
    let mut i = 0u32;
    let mut seen = 0u32;
    while i < n % ${m}u32 {
        seen += subgroup_ballot_bit_count(subgroup_ballot(true));
        i += step;
    }
    seen
}

/// A bounded scan with continue and break.
#[ballot::kernel]
pub fn scan_$g(x: u32, #[uniform] rounds: u32) -> u32 {
    let mut acc = 0u32;
    for r in 0u32..rounds {
        if ((x >> r) & 1u32) == 0u32 {
            continue;
        }
        acc += subgroup_ballot_inclusive_bit_count(subgroup_ballot((x & ${c}u32) != 0u32));
        if acc > ${c}00u32 {
            break;
        }
    }
    acc
}

/// Broadcast from a fixed lane, gated by an inverse ballot.
#[ballot::kernel]
pub fn vote_$g(v: i32, #[uniform] p: bool) -> i32 {
    let m = subgroup_ballot(p);
    let lead = subgroup_broadcast(v, ${lane});
    if subgroup_inverse_ballot(m) {
        lead
    } else {
        v * ${c}i32 - (${lsb}(subgroup_ballot(true)) as i32)
    }
}

/// A loop over the first lanes' bits, in floating point.
#[ballot::kernel]
pub fn share_$g(x: f32) -> f32 {
    let m = subgroup_ballot(x > ${c}.5f32);
    let mut k = 0u32;
    let mut total = 0.0f32;
    loop {
        if k >= ${m}u32 {
            break;
        }
        if subgroup_ballot_bit_extract(m, k) {
            total += 1.0f32;
        }
        k += 1u32;
    }
    total * x
}

/// A window of lanes from the mask API, minus this lane.
#[ballot::kernel]
pub fn window_$g(#[uniform] w: u32) -> SubgroupMask {
    let id = subgroup_local_invocation_id();
    let win = SubgroupMask::first(w + ${m}u32) & subgroup_ge_mask();
    if win.contains(id) && id < subgroup_size() {
        win ^ SubgroupMask::lane(id)
    } else {
        subgroup_eq_mask() | SubgroupMask::EMPTY
    }
}
EOF
}

# $1 directory, $2 package name, $3 ballot features (TOML list body),
# $4 extra Cargo.toml text, $5 "kernels" or "empty", $6 the ballot checkout.
make_crate() {
    local dir=$1 name=$2 features=$3 extra=$4 kind=$5 repo=$6
    mkdir -p "$dir/src"
    cat >"$dir/Cargo.toml" <<EOF
[package]
name = "$name"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
ballot = { path = "$repo", features = [$features] }

[workspace]
$extra
EOF
    # The repository's lock file pins the same dependency versions.
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
    if [[ $kind == empty ]]; then
        printf '//! No kernels: the dependencies alone.\nuse ballot as _;\n' >"$dir/src/lib.rs"
        return
    fi
    printf '//! %s kernels for the compile-time benchmark.\n' \
        $((groups * kernels_per_group)) >"$dir/src/lib.rs"
    local g
    for ((g = 0; g < groups; g++)); do
        printf 'pub mod g%d;\n' "$g" >>"$dir/src/lib.rs"
        group "$g" >"$dir/src/g$g.rs"
    done
}

opt_profile='
[profile.dev.build-override]
opt-level = 3'
all_variants=(default skip-valid build-opt)
compare=${BENCH_COMPARE:-}
if [[ -n $compare ]]; then
    compare=$(cd "$compare" && pwd)
    all_variants=(default compare skip-valid build-opt)
fi
read -r -a variants <<<"${BENCH_VARIANTS:-${all_variants[*]}}"
all_variants+=(one-thread no-cache)
for v in "${variants[@]}"; do
    case " ${all_variants[*]} " in
    *" $v "*) ;;
    *) echo "unknown variant '$v' in BENCH_VARIANTS (known: ${all_variants[*]})" >&2; exit 2 ;;
    esac
done
if ((${#variants[@]} == 0)); then echo "BENCH_VARIANTS names no variant" >&2; exit 2; fi
declare -A features=([default]='' [compare]='' [one-thread]='' [no-cache]='' [skip-valid]='"skip-validation"' [build-opt]='')
declare -A extra=([default]='' [compare]='' [one-thread]='' [no-cache]='' [skip-valid]='' [build-opt]="$opt_profile")
declare -A source=([default]=$repo [compare]=$compare [one-thread]=$repo [no-cache]=$repo [skip-valid]=$repo [build-opt]=$repo)
# The variables of each variant's builds (besides those of every build).
declare -A variables=([one-thread]=BALLOT_EXPANSION_THREADS=1 [no-cache]=BALLOT_VALIDATION_CACHE=off)
for v in "${variants[@]}"; do
    make_crate "$base/crates/base-$v" "base_${v//-/_}" "${features[$v]}" "${extra[$v]}" empty "${source[$v]}"
    make_crate "$base/crates/kernels-$v" "kernels_${v//-/_}" "${features[$v]}" "${extra[$v]}" kernels "${source[$v]}"
done

if [[ ${1:-} == --generate-only ]]; then
    echo "crates written to $base/crates"
    exit 0
fi

# --- measurement ----------------------------------------------------------

now() { date +%s.%N; }

# build LOG DIR VARIANT: cargo build -vv of the crate in DIR, with the
# variant's variables; prints the wall time.
build() {
    local log=$1 dir=$2 start end
    local -a vars
    read -r -a vars <<<"${variables[$3]:-}"
    start=$(now)
    if ! env "${vars[@]}" cargo build -vv "${jobs[@]}" --manifest-path "$dir/Cargo.toml" >"$log" 2>&1; then
        echo "cargo build failed for $dir; see $log" >&2
        tail -n 30 "$log" >&2
        exit 1
    fi
    end=$(now)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f\n", b - a }'
}

# The per-kernel expansion times in LOG, one per line, in ms.
expansions() {
    sed -n 's/.*ballot: expanded kernel `[^`]*` in \([0-9.]*\) ms.*/\1/p' "$1"
}

# min median max total count of the numbers on stdin; the total is divided
# by $1 (default 1), the number of builds they come from.
stats() {
    sort -g | awk -v builds="${1:-1}" '{ v[NR] = $1; t += $1 }
        END {
            if (NR == 0) { print "- - - - 0"; exit }
            med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
            printf "%.2f %.2f %.2f %.1f %d\n", v[1], med, v[NR], t / builds, NR
        }'
}

median() { stats | awk '{ print $2 }'; }

# The phases of the expansions in LOG (BALLOT_TIME_EXPANSION's second
# line): one row per phase, with its median and total over the kernels.
phases() {
    sed -n 's/.*ballot: phases of kernel `[^`]*` in ms: //p' "$1" |
        awk '{
            n = split($0, part, /[][]/)
            top = part[1] part[3] part[5]
            k = split(top, kv, /, */)
            for (i = 1; i <= k; i++) if (split(kv[i], f, " ") == 2) print f[1], f[2]
            k = split(part[2], kv, /, */)
            for (i = 1; i <= k; i++) if (split(kv[i], f, " ") == 2) print "emit:" f[1], f[2]
            k = split(part[4], kv, /, */)
            for (i = 1; i <= k; i++) if (split(kv[i], f, " ") == 2) print "validate:" f[1], f[2]
        }' |
        sort -k1,1 -k2,2g |
        awk 'function flush() {
                if (key == "") return
                med = (n % 2) ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
                printf "%s %.3f %.1f\n", key, med, t
            }
            $1 != key { flush(); key = $1; n = 0; t = 0 }
            { v[++n] = $2; t += $2 }
            END { flush() }'
}

# Edits one kernel (laps_2's step) so that the crate really changes.
edit_one() {
    local file=$1/src/g2.rs n=$2
    sed -i "s/let step = [0-9]*u32; \/\/ bench: edit here/let step = $((n % 2 + 1))u32; \/\/ bench: edit here/" "$file"
}

commit_of() {
    local c
    c=$(git -C "$1" rev-parse --short HEAD 2>/dev/null || echo unknown)
    if ! git -C "$1" diff --quiet HEAD 2>/dev/null; then c="$c (with uncommitted changes)"; fi
    echo "$c"
}
echo "ballot compile-time benchmark"
echo "commit:  $(commit_of "$repo")"
if [[ -n $compare ]]; then echo "compare: $(commit_of "$compare") ($compare)"; fi
echo "machine: $(nproc) CPUs, $(uname -sm), load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
echo "rustc:   $(rustc --version)"
echo "kernels: $((groups * kernels_per_group)) in 5 modules; incremental = median of $repeat rebuilds after editing one kernel"
echo "work:    $base"
echo

declare -A deps cold incr exp_cold exp_incr
for v in "${variants[@]}"; do
    echo "[$v] baseline crate (dependencies)..." >&2
    deps[$v]=$(build "$base/logs/$v-baseline.log" "$base/crates/base-$v" "$v")
    echo "[$v] kernel crate, cold..." >&2
    cold[$v]=$(build "$base/logs/$v-cold.log" "$base/crates/kernels-$v" "$v")
    n=$(expansions "$base/logs/$v-cold.log" | wc -l)
    if ((n != groups * kernels_per_group)); then
        echo "expected $((groups * kernels_per_group)) expansion timings in $base/logs/$v-cold.log, found $n" >&2
        exit 1
    fi
    exp_cold[$v]=$(expansions "$base/logs/$v-cold.log" | stats)
    times=()
    : >"$base/logs/$v-incr-expansions.txt"
    for ((i = 1; i <= repeat; i++)); do
        echo "[$v] kernel crate, incremental $i/$repeat..." >&2
        edit_one "$base/crates/kernels-$v" "$i"
        times+=("$(build "$base/logs/$v-incr-$i.log" "$base/crates/kernels-$v" "$v")")
        expansions "$base/logs/$v-incr-$i.log" >>"$base/logs/$v-incr-expansions.txt"
    done
    incr[$v]=$(printf '%s\n' "${times[@]}" | median)
    exp_incr[$v]=$(stats "$repeat" <"$base/logs/$v-incr-expansions.txt")
done

# --- report ---------------------------------------------------------------

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }'; }
field() { awk -v i="$2" '{ print $i }' <<<"$1"; }

echo "Wall times in seconds (cargo build -vv, dev profile):"
printf '%-11s %10s %12s %14s\n' variant "deps (s)" "cold 50 (s)" "incr 1 (s)"
for v in "${variants[@]}"; do
    printf '%-11s %10s %12s %14s\n' "$v" "${deps[$v]}" "${cold[$v]}" "${incr[$v]}"
done
echo "  deps: the baseline crate, no kernels (for default: every dependency, cold;"
echo "        later rows: only the units the variant does not share with those above)"
echo "  cold 50: the kernel crate built on top of its baseline's dependencies"
echo "  incr 1: rebuild after editing one kernel (median of $repeat)"
if [[ -n ${deps[default]:-} ]]; then
    echo "  cold build from scratch, default: deps + cold 50 = $(awk -v a="${deps[default]}" -v b="${cold[default]}" 'BEGIN { printf "%.2f", a + b }') s"
fi
echo
echo "Expansion time per kernel in ms (BALLOT_TIME_EXPANSION); total: per build;"
echo "n: expansions (incr: all $repeat rebuilds):"
printf '%-11s %-6s %8s %8s %8s %9s %6s\n' variant build min median max total n
for v in "${variants[@]}"; do
    for b in cold incr; do
        if [[ $b == cold ]]; then s=${exp_cold[$v]}; else s=${exp_incr[$v]}; fi
        # shellcheck disable=SC2086
        printf '%-11s %-6s %8s %8s %8s %9s %6s\n' "$v" "$b" $s
    done
done
echo
echo "Phases of the expansion in ms (BALLOT_TIME_EXPANSION), cold build:"
printf '%-28s' phase
for v in "${variants[@]}"; do printf ' %17s %9s' "$v median" total; done
echo
declare -A phase_rows
for v in "${variants[@]}"; do phase_rows[$v]=$(phases "$base/logs/$v-cold.log"); done
for key in parse lower emit emit:glsl emit:glsl-no-subgroup emit:wgsl emit:wgsl-web \
    emit:wgsl-no-subgroup validate validate:glsl validate:glsl-no-subgroup validate:wgsl \
    validate:wgsl-web validate:wgsl-no-subgroup rust wall other threads parsed cached; do
    printf '%-28s' "${key/:/ }"
    for v in "${variants[@]}"; do
        row=$(awk -v k="$key" '$1 == k { print $2, $3 }' <<<"${phase_rows[$v]}")
        # shellcheck disable=SC2086
        printf ' %17s %9s' ${row:-- -}
    done
    echo
done
echo
echo "Ratios:"
built() { [[ -n ${cold[$1]:-} ]]; }
if built default && built skip-valid; then
    echo "  validation on/off, kernel crate cold:       $(ratio "${cold[default]}" "${cold[skip-valid]}")"
    echo "  validation on/off, incremental:             $(ratio "${incr[default]}" "${incr[skip-valid]}")"
    echo "  validation on/off, median expansion (cold): $(ratio "$(field "${exp_cold[default]}" 2)" "$(field "${exp_cold[skip-valid]}" 2)")"
fi
if built default; then
    echo "  incremental/cold (default):                 $(ratio "${incr[default]}" "${cold[default]}")"
fi
if built skip-valid; then
    echo "  incremental/cold (skip-valid):              $(ratio "${incr[skip-valid]}" "${cold[skip-valid]}")"
fi
if built default && built compare; then
    echo "  compare/default, median expansion (cold):   $(ratio "$(field "${exp_cold[compare]}" 2)" "$(field "${exp_cold[default]}" 2)")"
    echo "  compare/default, median expansion (incr):   $(ratio "$(field "${exp_incr[compare]}" 2)" "$(field "${exp_incr[default]}" 2)")"
    echo "  compare/default, kernel crate cold:         $(ratio "${cold[compare]}" "${cold[default]}")"
    echo "  compare/default, incremental:               $(ratio "${incr[compare]}" "${incr[default]}")"
fi
if built default && built no-cache; then
    echo "  no-cache/default, median expansion (incr):  $(ratio "$(field "${exp_incr[no-cache]}" 2)" "$(field "${exp_incr[default]}" 2)")"
fi
if built default && built one-thread; then
    echo "  one-thread/default, median expansion (cold): $(ratio "$(field "${exp_cold[one-thread]}" 2)" "$(field "${exp_cold[default]}" 2)")"
fi
if built one-thread && built compare; then
    echo "  compare/one-thread, median expansion (cold): $(ratio "$(field "${exp_cold[compare]}" 2)" "$(field "${exp_cold[one-thread]}" 2)")"
fi
if built default && built build-opt; then
    echo "  default/build-opt, median expansion (cold): $(ratio "$(field "${exp_cold[default]}" 2)" "$(field "${exp_cold[build-opt]}" 2)")"
    echo "  default/build-opt, incremental:             $(ratio "${incr[default]}" "${incr[build-opt]}")"
fi
if built default; then
    echo "  kernel crate cold / dependencies (default): $(ratio "${cold[default]}" "${deps[default]}")"
fi
echo
echo "Logs: $base/logs"
