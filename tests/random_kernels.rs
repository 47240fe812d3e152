//! Differential testing of the two executions of a kernel: the native code
//! `#[ballot::kernel]` generates, and `ballot_sim::interp` on the kernel's IR.
//!
//! `tests/random/kernels.rs` holds random kernels written by the seeded
//! generator in `tests/random/gen.rs`, with adapters to their generated API.
//! Each is run on random subgroups (every size from 1 to 128, full, ragged,
//! sparse, single-lane and empty active sets) and random inputs, through
//! both executions, which must give the same value in every lane or the same
//! error. A disagreement is a bug in one of them.
//!
//! `BALLOT_RANDOM_SEED` and `BALLOT_RANDOM_CASES` change the inputs' seed and
//! the number of cases per kernel for a longer search.
//!
//! After changing the generator, run
//! `cargo test --test random_kernels -- --ignored regenerate`. If the
//! committed kernels no longer compile, first replace `tests/random/kernels.rs`
//! with the single line `pub const ENTRIES: &[Entry] = &[];`.

use std::collections::BTreeSet;

use ballot::ir::{Kernel, Type};
use ballot::prelude::*;
use ballot::{Op, Scan};
use ballot_sim::interp::{Arg, InterpError, Interpreter, Value};

#[path = "random/gen.rs"]
#[allow(dead_code)]
mod gen;

#[path = "random/inputs.rs"]
mod inputs;

use gen::Rng;
use inputs::{active_lanes, random_arg};

/// The generated kernels. `include!` rather than a module file keeps rustfmt
/// off the generated text, which the freshness test compares byte for byte.
mod kernels {
    use super::*;
    include!("random/kernels.rs");
}

use kernels::ENTRIES;

/// One generated kernel and its adapters.
pub struct Entry {
    name: &'static str,
    /// Each parameter's type, and whether it is uniform.
    params: &'static [(Type, bool)],
    run: fn(&Subgroup, &[Arg]) -> Result<PerLane<Value>, SimError>,
    run_dispatch: fn(&Dispatch, &[Arg]) -> Result<Vec<Value>, SimError>,
    ir: fn() -> &'static Kernel,
}

// ---- adapters between `Arg` / `Value` and the typed generated API ----

/// A kernel output that converts to a [`Value`].
trait IntoValue {
    fn into_value(self) -> Value;
}

macro_rules! into_value {
    ($($t:ty => $v:ident),*) => {$(
        impl IntoValue for $t {
            fn into_value(self) -> Value {
                Value::$v(self)
            }
        }
    )*};
}

into_value!(bool => Bool, u32 => U32, i32 => I32, f32 => F32, SubgroupMask => Mask);

impl IntoValue for () {
    fn into_value(self) -> Value {
        Value::Unit
    }
}

fn per_lane<T: IntoValue>(out: PerLane<T>) -> PerLane<Value> {
    PerLane::from_vec(
        out.into_vec()
            .into_iter()
            .map(|v| v.map(IntoValue::into_value))
            .collect(),
    )
}

fn values<T: IntoValue>(out: Vec<T>) -> Vec<Value> {
    out.into_iter().map(IntoValue::into_value).collect()
}

// The generated table uses the adapters its kernels' parameters need.
macro_rules! arg_adapters {
    ($($lanes:ident, $uniform:ident: $t:ty => $get:ident),*) => {$(
        #[allow(dead_code)]
        fn $lanes(arg: &Arg) -> Vec<$t> {
            match arg {
                Arg::PerLane(values) => values.iter().map(|v| v.$get().expect(stringify!($t))).collect(),
                Arg::Uniform(_) => panic!("the harness passes per-lane values to per-lane parameters"),
            }
        }
        #[allow(dead_code)]
        fn $uniform(arg: &Arg) -> $t {
            match arg {
                Arg::Uniform(v) => v.$get().expect(stringify!($t)),
                Arg::PerLane(_) => panic!("the harness passes one value to uniform parameters"),
            }
        }
    )*};
}

arg_adapters!(
    lanes_bool, uniform_bool: bool => as_bool,
    lanes_u32, uniform_u32: u32 => as_u32,
    lanes_i32, uniform_i32: i32 => as_i32,
    lanes_f32, uniform_f32: f32 => as_f32,
    lanes_mask, uniform_mask: SubgroupMask => as_mask
);

// ---- comparison ----

/// Equal values, `f32`s compared by bits, except that any two NaNs are
/// equal: the compiler may fold a NaN-producing constant expression to a
/// NaN with another payload than the CPU computes at run time.
fn same_value(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) if x.is_nan() && y.is_nan() => true,
        (a, b) => a.bit_eq(b),
    }
}

fn same_error(native: &SimError, interp: &InterpError) -> bool {
    matches!(interp, InterpError::Sim(e) if e == native)
}

fn same_lanes(native: &PerLane<Value>, interp: &PerLane<Value>) -> bool {
    native.len() == interp.len()
        && native
            .as_slice()
            .iter()
            .zip(interp.as_slice())
            .all(|pair| match pair {
                (None, None) => true,
                (Some(a), Some(b)) => same_value(*a, *b),
                _ => false,
            })
}

fn seed() -> u64 {
    std::env::var("BALLOT_RANDOM_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_0fba_1107)
}

fn cases() -> u32 {
    std::env::var("BALLOT_RANDOM_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200)
}

/// Outcomes of one kernel's cases.
#[derive(Default)]
struct Tally {
    ok: u32,
    undefined: u32,
    /// The operations whose undefined behaviour both executions reported.
    reported: BTreeSet<Op>,
}

fn interpreter() -> Interpreter<'static> {
    // Every loop of a generated kernel runs at most 5 times per entry, so
    // this only stops a runaway interpreter.
    Interpreter::new(ENTRIES.iter().map(|e| (e.ir)())).with_iteration_limit(1 << 24)
}

/// Runs one subgroup case; `Err` describes a disagreement.
fn subgroup_case(
    interp: &Interpreter,
    entry: &Entry,
    rng: &mut Rng,
    tally: &mut Tally,
) -> Result<(), String> {
    let size = 1 << rng.below(8);
    let active = active_lanes(rng, size);
    // Half the cases run under a schedule that splits diverged
    // collectives: both executions must draw the same partitions.
    let schedule = match rng.below(2 * Model::ALL.len() as u32) as usize {
        m if m < Model::ALL.len() => Schedule::Split {
            model: Model::ALL[m],
            seed: u64::from(rng.below(u32::MAX)),
        },
        _ => Schedule::Maximal,
    };
    let sg = Subgroup::new(size, active)
        .map_err(|e| e.to_string())?
        .with_schedule(schedule);
    let args: Vec<Arg> = entry
        .params
        .iter()
        .map(|&(ty, uniform)| random_arg(rng, ty, uniform, size, size as usize))
        .collect();
    let native = (entry.run)(&sg, &args);
    let interpreted = interp.run(entry.name, &sg, &args);
    let agree = match (&native, &interpreted) {
        (Ok(a), Ok(b)) => same_lanes(a, b),
        (Err(a), Err(b)) => same_error(a, b),
        _ => false,
    };
    match &native {
        Ok(_) => tally.ok += 1,
        Err(e) => {
            tally.undefined += 1;
            if let Some(ub) = e.as_undefined() {
                tally.reported.insert(ub.op);
            }
        }
    }
    if agree {
        return Ok(());
    }
    Err(format!(
        "kernel `{}` disagrees on a subgroup of {size} with lanes {active:#} under {schedule:?}\n  args: {args:?}\n  native:      {native:?}\n  interpreter: {interpreted:?}",
        entry.name
    ))
}

/// Runs one dispatch case; `Err` describes a disagreement.
fn dispatch_case(interp: &Interpreter, entry: &Entry, rng: &mut Rng) -> Result<(), String> {
    let subgroup = 1 << rng.below(8);
    let workgroup = [1 + rng.below(150), 1 + rng.below(2), 1];
    let count = [1 + rng.below(3), 1, 1];
    let dispatch = Dispatch::new(workgroup, subgroup, count).map_err(|e| e.to_string())?;
    let n = dispatch.invocation_count();
    let args: Vec<Arg> = entry
        .params
        .iter()
        .map(|&(ty, uniform)| random_arg(rng, ty, uniform, subgroup, n))
        .collect();
    let native = (entry.run_dispatch)(&dispatch, &args);
    let interpreted = interp.run_dispatch(entry.name, &dispatch, &args);
    let agree = match (&native, &interpreted) {
        (Ok(a), Ok(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(*x, *y)),
        (Err(a), Err(b)) => same_error(a, b),
        _ => false,
    };
    if agree {
        return Ok(());
    }
    Err(format!(
        "kernel `{}` disagrees on {dispatch:?}\n  args: {args:?}\n  native:      {native:?}\n  interpreter: {interpreted:?}",
        entry.name
    ))
}

#[test]
fn native_and_interpreter_agree() {
    let interp = interpreter();
    let (seed, cases) = (seed(), cases());
    let mut failures = Vec::new();
    let mut total = Tally::default();
    for (k, entry) in ENTRIES.iter().enumerate() {
        // A seed of its own per kernel, so that a kernel's cases do not
        // change when another kernel is added.
        let mut rng = Rng::new(seed ^ (k as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut tally = Tally::default();
        // Report one disagreement per kernel: later ones are usually the same.
        let outcome = (0..cases)
            .try_for_each(|_| subgroup_case(&interp, entry, &mut rng, &mut tally))
            .and_then(|()| {
                (0..cases / 10).try_for_each(|_| dispatch_case(&interp, entry, &mut rng))
            });
        if let Err(failure) = outcome {
            failures.push(failure);
        }
        eprintln!(
            "{}: {} defined, {} undefined",
            entry.name, tally.ok, tally.undefined
        );
        total.ok += tally.ok;
        total.undefined += tally.undefined;
        total.reported.extend(tally.reported);
    }
    assert!(
        failures.is_empty(),
        "seed {seed}:\n{}",
        failures.join("\n\n")
    );
    // Runs that end in undefined behaviour compare little of the kernel, so
    // most runs must be defined for the comparison to mean something.
    assert!(
        total.ok >= 2 * total.undefined,
        "only {} of {} runs were defined",
        total.ok,
        total.ok + total.undefined
    );
    // Both executions must also agree on every kind of report.
    let reportable = [
        Op::InverseBallot,
        Op::BitExtract,
        Op::FindLsb,
        Op::FindMsb,
        Op::Broadcast,
    ];
    if cases >= 200 {
        for op in reportable {
            assert!(
                total.reported.contains(&op),
                "no run reported undefined `{op}`"
            );
        }
    }
}

const GENERATED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/random/kernels.rs");

/// The if-converted form that the native code and both emulated targets
/// print keeps its invariants on every generated kernel.
#[test]
fn every_kernel_if_converts_within_the_invariants() {
    for entry in ENTRIES {
        let kernel = (entry.ir)();
        let masked = ballot_shader::lower::masked::if_convert(kernel);
        if let Err(broken) = masked.verify(kernel) {
            panic!("`{}`: {broken}", entry.name);
        }
    }
}

#[test]
fn committed_kernels_are_what_the_generator_writes() {
    let committed = std::fs::read_to_string(GENERATED).expect("read tests/random/kernels.rs");
    assert!(
        committed == gen::generate(gen::SEED),
        "tests/random/kernels.rs is stale: run `cargo test --test random_kernels -- --ignored regenerate`"
    );
}

/// Rewrites `tests/random/kernels.rs` from the generator.
#[test]
#[ignore = "rewrites a committed file; run after changing the generator"]
fn regenerate() {
    std::fs::write(GENERATED, gen::generate(gen::SEED)).expect("write tests/random/kernels.rs");
}

#[test]
fn generator_is_deterministic() {
    assert_eq!(gen::generate(7), gen::generate(7));
    assert_ne!(gen::generate(7), gen::generate(8));
}

/// The committed kernels exercise every operation and construct the
/// comparison is meant to cover.
#[test]
fn kernels_cover_the_language() {
    let irs: Vec<&Kernel> = ENTRIES.iter().map(|e| (e.ir)()).collect();
    for op in Op::BALLOT {
        assert!(irs.iter().any(|k| k.uses_op(op)), "no kernel uses {op}");
    }
    // The rest of the family: every kind the generator draws. The f32
    // reductions are tests/family.rs's alone, as their order is no spec's.
    for op in [
        Op::All,
        Op::Any,
        Op::AllEqual,
        Op::Shuffle,
        Op::ShuffleXor,
        Op::ShuffleUp,
        Op::ShuffleDown,
        Op::QuadBroadcast,
    ] {
        assert!(irs.iter().any(|k| k.uses_op(op)), "no kernel uses {op}");
    }
    assert!(
        irs.iter().any(|k| Op::ALL
            .iter()
            .any(|&op| matches!(op, Op::QuadSwap(_)) && k.uses_op(op))),
        "no kernel swaps within quads"
    );
    for scan in [Scan::Reduce, Scan::Inclusive, Scan::Exclusive] {
        assert!(
            irs.iter().any(|k| Op::ALL
                .iter()
                .any(|&op| matches!(op, Op::Arith(_, s) if s == scan) && k.uses_op(op))),
            "no kernel uses a {scan:?}"
        );
    }
    let source = std::fs::read_to_string(GENERATED).expect("read tests/random/kernels.rs");
    for construct in [
        "#[uniform]",
        "while ",
        "loop {",
        "for ",
        "break;",
        "continue;",
        "return ",
        "return;",
        " else {",
        "(if ",
        "as f32",
        "as u32",
        "as i32",
        ".contains(",
        ".count()",
        ".is_empty()",
        "SubgroupMask::first(",
        "SubgroupMask::lane(",
        "subgroup_size()",
        "subgroup_local_invocation_id()",
        "= h",
        "+=",
        "<<=",
        ": bool",
        ": u32",
        ": i32",
        ": f32",
        ": SubgroupMask",
    ] {
        assert!(
            source.contains(construct),
            "no kernel contains `{construct}`"
        );
    }
}
