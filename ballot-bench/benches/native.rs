//! The native simulator against the practical CPU limit.
//!
//! The flagship compaction-slot kernel (ballot + exclusive bit count) and a
//! divergent kernel (a branch and a loop) run over 2^24 lanes in subgroups
//! of 32, next to hand-written loops over `u128` bit operations that compute
//! the same outputs. Criterion reports lanes per second for each; the ratio
//! of the two is the figure that matters.
//!
//! ```text
//! cargo bench -p ballot-bench --bench native
//! ```

use ballot::prelude::*;
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

const LANES: usize = 1 << 24;
const SUBGROUP: u32 = 32;

#[ballot::kernel]
fn compaction_slot(keep: bool) -> u32 {
    subgroup_ballot_exclusive_bit_count(subgroup_ballot(keep))
}

#[ballot::kernel]
fn divergent(n: u32) -> u32 {
    let mut total = 0u32;
    if n % 2 == 0 {
        total = subgroup_ballot_bit_count(subgroup_ballot(true));
    } else {
        let mut i = 0u32;
        while i < n % 4 {
            total += subgroup_ballot_find_lsb(subgroup_ballot(true));
            i += 1;
        }
    }
    total
}

/// The compaction slots, by hand: one `u128` ballot per subgroup.
fn compaction_slot_by_hand(keep: &[bool], out: &mut [u32]) {
    for (keep, out) in keep
        .chunks_exact(SUBGROUP as usize)
        .zip(out.chunks_exact_mut(SUBGROUP as usize))
    {
        let ballot = keep
            .iter()
            .enumerate()
            .fold(0u128, |m, (l, &k)| m | ((k as u128) << l));
        for (lane, slot) in out.iter_mut().enumerate() {
            *slot = (ballot & ((1u128 << lane) - 1)).count_ones();
        }
    }
}

/// The divergent kernel, by hand: masks for each branch and each iteration.
fn divergent_by_hand(n: &[u32], out: &mut [u32]) {
    for (n, out) in n
        .chunks_exact(SUBGROUP as usize)
        .zip(out.chunks_exact_mut(SUBGROUP as usize))
    {
        let even = n
            .iter()
            .enumerate()
            .fold(0u128, |m, (l, &v)| m | (((v % 2 == 0) as u128) << l));
        let odd = !even & ((1u128 << SUBGROUP) - 1);
        for (lane, o) in out.iter_mut().enumerate() {
            *o = if (even >> lane) & 1 == 1 {
                even.count_ones()
            } else {
                0
            };
        }
        // Lanes stay in the loop while i < n % 4.
        for i in 0..3u32 {
            let inside = n.iter().enumerate().fold(0u128, |m, (l, &v)| {
                m | ((((odd >> l) & 1 == 1) && i < v % 4) as u128) << l
            });
            if inside == 0 {
                break;
            }
            for (lane, o) in out.iter_mut().enumerate() {
                if (inside >> lane) & 1 == 1 {
                    *o += inside.trailing_zeros();
                }
            }
        }
    }
}

fn inputs() -> (Vec<bool>, Vec<u32>) {
    // A fixed xorshift stream: the same data for every run.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let keep = (0..LANES).map(|_| next() % 2 == 0).collect();
    let n = (0..LANES).map(|_| (next() % 16) as u32).collect();
    (keep, n)
}

fn bench(c: &mut Criterion) {
    let (keep, n) = inputs();
    let dispatch = Dispatch::new([256, 1, 1], SUBGROUP, [(LANES / 256) as u32, 1, 1]).unwrap();
    let mut out = vec![0u32; LANES];

    // Both sides must agree before their speeds mean anything.
    compaction_slot_by_hand(&keep, &mut out);
    assert_eq!(
        compaction_slot::run_dispatch(&dispatch, &keep).unwrap(),
        out
    );
    divergent_by_hand(&n, &mut out);
    assert_eq!(divergent::run_dispatch(&dispatch, &n).unwrap(), out);

    let mut group = c.benchmark_group("native");
    group.throughput(Throughput::Elements(LANES as u64));
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("compaction_slot", "kernel"), |b| {
        b.iter(|| compaction_slot::run_dispatch_into(&dispatch, &mut out, &keep).unwrap())
    });
    // The same, allocating its output as `run_dispatch` does: the price of
    // the convenient API.
    group.bench_function(BenchmarkId::new("compaction_slot", "kernel_vec"), |b| {
        b.iter(|| compaction_slot::run_dispatch(&dispatch, &keep).unwrap())
    });
    group.bench_function(BenchmarkId::new("compaction_slot", "by_hand"), |b| {
        b.iter(|| compaction_slot_by_hand(&keep, &mut out))
    });
    group.bench_function(BenchmarkId::new("divergent", "kernel"), |b| {
        b.iter(|| divergent::run_dispatch_into(&dispatch, &mut out, &n).unwrap())
    });
    group.bench_function(BenchmarkId::new("divergent", "by_hand"), |b| {
        b.iter(|| divergent_by_hand(&n, &mut out))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
