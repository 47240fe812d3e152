//! Rebuilds each subgroup a driver formed from the lane records, runs the IR
//! interpreter on exactly that subgroup, and compares lane by lane.
//!
//! Nothing here assumes how a driver maps invocations to subgroups: a
//! subgroup is the set of invocations of one workgroup that recorded the
//! same key, their lane ids and size are what they recorded, and the
//! interpreter's subgroup has exactly those lanes active.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use ballot_ir::ir::Type;
use ballot_sim::interp::{Arg, InterpError, Interpreter, Value};
use ballot_sim::{SimError, Subgroup, SubgroupMask};

use crate::job::{Dispatched, Job, LaneRecord, UNWRITTEN};

/// One lane where the driver and the interpreter disagree.
#[derive(Clone, Debug, PartialEq)]
pub struct Mismatch {
    /// The job, described ([`Job::describe`]).
    pub job: String,
    /// Which case of the job (which dispatch).
    pub case: usize,
    /// The workgroup index.
    pub workgroup: u32,
    /// The invocation's index in the dispatch.
    pub invocation: usize,
    /// Its `local_invocation_index`.
    pub local_index: usize,
    /// Its lane id.
    pub lane: u32,
    /// Its subgroup's size.
    pub size: u32,
    /// The lanes of its subgroup that ran.
    pub active: SubgroupMask,
    /// The lane's arguments, in parameter order.
    pub inputs: Vec<Value>,
    /// What the interpreter computed.
    pub expected: Value,
    /// What the driver computed.
    pub actual: Value,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} case {}: workgroup {}, invocation {} (local {}), lane {} of a subgroup of {} with lanes {:#}: inputs {:?}: expected {:?}, got {:?}",
            self.job,
            self.case,
            self.workgroup,
            self.invocation,
            self.local_index,
            self.lane,
            self.size,
            self.active,
            self.inputs,
            self.expected,
            self.actual
        )
    }
}

/// The outcome of comparing one job's dispatches with the interpreter.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    /// Subgroups compared.
    pub subgroups: usize,
    /// Subgroups skipped because the interpreter reports undefined
    /// behaviour in them: the driver's answer is unspecified there.
    pub undefined: usize,
    /// Lanes compared.
    pub lanes: usize,
    /// Lanes that differ.
    pub mismatches: Vec<Mismatch>,
    /// Records that contradict the shader interface, and interpreter
    /// failures other than undefined behaviour: a harness or writer bug.
    pub errors: Vec<String>,
    /// The subgroup sizes seen.
    pub sizes: BTreeSet<u32>,
}

impl Report {
    /// Adds `other`'s counts and findings to `self`.
    pub fn merge(&mut self, other: Report) {
        self.subgroups += other.subgroups;
        self.undefined += other.undefined;
        self.lanes += other.lanes;
        self.mismatches.extend(other.mismatches);
        self.errors.extend(other.errors);
        self.sizes.extend(other.sizes);
    }

    /// Whether nothing went wrong.
    pub fn passed(&self) -> bool {
        self.mismatches.is_empty() && self.errors.is_empty()
    }
}

/// Equal values, `f32`s compared by bits, except that any two NaNs are
/// equal: a driver may fold a NaN-producing constant expression to a NaN
/// with another payload than the CPU computes.
pub fn same_value(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::F32(x), Value::F32(y)) if x.is_nan() && y.is_nan() => true,
        (a, b) => a.bit_eq(b),
    }
}

/// A value of `ty` for the entries of lanes that did not run, which the
/// interpreter never reads but type-checks.
fn filler(ty: Type) -> Value {
    match ty {
        Type::Bool => Value::Bool(false),
        Type::U32 => Value::U32(0),
        Type::I32 => Value::I32(0),
        Type::F32 => Value::F32(0.0),
        Type::Mask => Value::Mask(SubgroupMask::EMPTY),
    }
}

/// How many loop iterations the interpreter may run per subgroup: far more
/// than any test kernel needs, so that only a runaway loop stops.
const ITERATION_LIMIT: u64 = 1 << 24;

/// Compares case `case` of `job`, whose arguments are `args`, with what the
/// driver returned.
pub fn compare(job: &Job<'_>, case: usize, args: &[Arg], got: &Dispatched) -> Report {
    let mut report = Report::default();
    let kernel = job.kernel();
    let interp =
        Interpreter::new(job.kernels.iter().copied()).with_iteration_limit(ITERATION_LIMIT);
    let n = job.invocation_count();
    let per_wg = job.invocations_per_workgroup();
    let describe = job.describe();
    if got.records.len() != n || got.values.len() != n {
        report.errors.push(format!(
            "{describe} case {case}: {n} invocations, but {} records and {} values came back",
            got.records.len(),
            got.values.len()
        ));
        return report;
    }

    // Group invocations into subgroups by (workgroup, key).
    let mut groups: BTreeMap<(u32, u32), Vec<usize>> = BTreeMap::new();
    for (g, record) in got.records.iter().enumerate() {
        let wg = (g / per_wg) as u32;
        if *record == LaneRecord::from_words([UNWRITTEN; 4]) {
            report.errors.push(format!(
                "{describe} case {case}: invocation {g} wrote no lane record"
            ));
            continue;
        }
        if record.workgroup != wg {
            report.errors.push(format!(
                "{describe} case {case}: invocation {g} is in workgroup {wg} but recorded {record:?}"
            ));
            continue;
        }
        groups.entry((wg, record.key)).or_default().push(g);
    }
    if !report.errors.is_empty() {
        return report;
    }

    for ((wg, key), members) in groups {
        let size = got.records[members[0]].size;
        let problem = |what: String| {
            format!("{describe} case {case}: workgroup {wg}, subgroup key {key}: {what}")
        };
        if members.iter().any(|&g| got.records[g].size != size) {
            report.errors.push(problem(format!(
                "lanes disagree on the subgroup size: {:?}",
                members.iter().map(|&g| got.records[g]).collect::<Vec<_>>()
            )));
            continue;
        }
        if !job.target.has_subgroups() && size != job.options.subgroup_size {
            report.errors.push(problem(format!(
                "recorded size {size}, but the virtual subgroup size is {}",
                job.options.subgroup_size
            )));
            continue;
        }
        let mut active = SubgroupMask::EMPTY;
        let mut lane_of = BTreeMap::new();
        for &g in &members {
            let lane = got.records[g].lane;
            if lane >= size || active.contains(lane) {
                report.errors.push(problem(format!(
                    "invocation {g} records lane {lane}, out of range or taken twice"
                )));
            }
            active.set(lane.min(127), true);
            lane_of.insert(lane, g);
        }
        // The key is the lowest active lane's local_invocation_index.
        let lowest = lane_of.values().next().copied().unwrap_or(0);
        if lowest % per_wg != key as usize {
            report.errors.push(problem(format!(
                "the lowest lane is local invocation {}, not the key",
                lowest % per_wg
            )));
        }
        let subgroup = match Subgroup::new(size, active) {
            Ok(sg) => sg,
            Err(e) => {
                report.errors.push(problem(format!("not a subgroup: {e}")));
                continue;
            }
        };
        report.sizes.insert(size);

        // The arguments placed by lane id.
        let lane_args: Vec<Arg> = args
            .iter()
            .enumerate()
            .map(|(i, arg)| match arg {
                Arg::Uniform(v) => Arg::Uniform(*v),
                Arg::PerLane(all) => {
                    let mut lanes = vec![filler(kernel.param_type(i)); size as usize];
                    for (&lane, &g) in &lane_of {
                        lanes[lane as usize] = all[g];
                    }
                    Arg::PerLane(lanes)
                }
            })
            .collect();
        let expected = match interp.run(&kernel.name, &subgroup, &lane_args) {
            Ok(out) => out,
            Err(InterpError::Sim(SimError::Undefined(_))) => {
                report.undefined += 1;
                continue;
            }
            Err(e) => {
                report
                    .errors
                    .push(problem(format!("the interpreter failed: {e}")));
                continue;
            }
        };
        report.subgroups += 1;
        for (&lane, &g) in &lane_of {
            report.lanes += 1;
            let actual = got.values[g];
            let want = expected.get(lane).copied().unwrap_or(Value::Unit);
            if !same_value(want, actual) {
                report.mismatches.push(Mismatch {
                    job: describe.clone(),
                    case,
                    workgroup: wg,
                    invocation: g,
                    local_index: g % per_wg,
                    lane,
                    size,
                    active,
                    inputs: args
                        .iter()
                        .map(|a| match a {
                            Arg::Uniform(v) => *v,
                            Arg::PerLane(all) => all[g],
                        })
                        .collect(),
                    expected: want,
                    actual,
                });
            }
        }
    }
    report
}
