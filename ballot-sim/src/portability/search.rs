//! The search: every size, every model, every schedule or a sample of
//! them, against the reference run; a difference shrunk to its smallest
//! input, size and script of choices.

use super::*;

/// The validated settings.
pub(super) struct Settings {
    pub(super) step_budget: u64,
    pub(super) sizes: Vec<SubgroupSize>,
    pub(super) models: Vec<Model>,
    pub(super) reference: SubgroupSize,
    pub(super) size_is_contract: bool,
    pub(super) exhaustive: u32,
    pub(super) samples: u32,
    pub(super) seed: u64,
    pub(super) tolerance: f32,
}

#[derive(Default)]
pub(super) struct Tally {
    pub(super) inputs: u64,
    pub(super) invocations: (usize, usize),
    pub(super) schedules: u64,
    pub(super) split: u64,
    pub(super) enumerated: u64,
    pub(super) sampled: u64,
    /// Per size of [`Settings::sizes`], how many inputs ran there (the
    /// others' own runs failed there, with the size in the contract, or
    /// ran past the step budget), and what the first such run reported.
    pub(super) at_size: Vec<(u64, Option<String>)>,
}

pub(super) enum Verdict<S: Subject> {
    Same,
    /// Outside the kernel's contract, and why ([`Subject::explain`]).
    Outside(String),
    Differs(Box<Counterexample<S>>),
}

/// A run's results, or what it reported instead.
pub type Outcome<S> = Result<Vec<<S as Subject>::Output>, <S as Subject>::Error>;

/// Whether two outcomes agree: each output within `tolerance`
/// ([`Subject::close`]; bit for bit at 0), or the same report.
fn same<S: Subject>(a: &Outcome<S>, b: &Outcome<S>, tolerance: f32) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| S::close(x, y, tolerance))
        }
        (Err(a), Err(b)) => a == b,
        _ => false,
    }
}

/// Runs `lanes` as one workgroup of `size`, under `schedule`, with the
/// thread's plan making the choices when one is installed.
fn run<S: Subject>(
    subject: &S,
    uniform: &S::Uniform,
    lanes: &[S::Lane],
    (size, budget): (SubgroupSize, u64),
    schedule: Schedule,
) -> Outcome<S> {
    let dispatch = Dispatch::new([lanes.len() as u32, 1, 1], size.get(), [1, 1, 1])
        .expect("a workgroup of at least one invocation and a valid size")
        .with_step_budget(budget)
        .with_schedule(schedule);
    subject.run(&dispatch, uniform, lanes)
}

fn planned<S: Subject>(
    subject: &S,
    uniform: &S::Uniform,
    lanes: &[S::Lane],
    size: (SubgroupSize, u64),
    model: Model,
    script: Vec<u32>,
) -> (Outcome<S>, Script) {
    let schedule = Schedule::Split { model, seed: 0 };
    Script::new(script).run(|| run(subject, uniform, lanes, size, schedule))
}

impl Settings {
    /// Checks one input.
    pub(super) fn input<S: Subject>(
        &self,
        subject: &S,
        input: &Input<S>,
        tally: &mut Tally,
    ) -> Verdict<S> {
        let n = input.lanes.len();
        let reference = run(
            subject,
            &input.uniform,
            &input.lanes,
            (self.reference, self.step_budget),
            Schedule::Maximal,
        );
        if !self.size_is_contract {
            if let Err(e) = &reference {
                return Verdict::Outside(S::explain(e));
            }
        }
        // Where the size is in the contract, a size whose own run fails is
        // outside it, and an input with no size left is outside it too.
        let mut outside = None;
        let mut compared = 0usize;
        let mut ran = vec![false; self.sizes.len()];
        tally.at_size.resize(self.sizes.len(), (0, None));
        for (k, &size) in self.sizes.iter().enumerate() {
            let at_size = run(
                subject,
                &input.uniform,
                &input.lanes,
                (size, self.step_budget),
                Schedule::Maximal,
            );
            // A run stopped by the step budget says nothing of the
            // kernel's answer at this size: compared with nothing, it is
            // a size this input did not run at ([`Tally::at_size`]).
            if let (Err(e), false) = (&at_size, self.size_is_contract) {
                if S::unfinished(e) {
                    tally.at_size[k].1.get_or_insert_with(|| S::explain(e));
                    continue;
                }
            }
            let expected = if self.size_is_contract {
                if let Err(e) = &at_size {
                    let why = outside.get_or_insert_with(|| S::explain(e));
                    tally.at_size[k].1.get_or_insert_with(|| why.clone());
                    continue;
                }
                &at_size
            } else {
                &reference
            };
            compared += 1;
            ran[k] = true;
            // A difference at this size: what every counterexample of it
            // says, the run's own fields aside.
            let differs = |expected: Outcome<S>, model, subgroup, choices, got, trace| {
                Verdict::Differs(Box::new(Counterexample {
                    kernel: subject.name().to_owned(),
                    input: input.clone(),
                    size,
                    reference: if self.size_is_contract {
                        size
                    } else {
                        self.reference
                    },
                    expected,
                    model,
                    subgroup,
                    choices,
                    got,
                    trace,
                }))
            };
            if !same::<S>(&at_size, expected, self.tolerance) {
                let expected = expected.clone();
                return differs(
                    expected,
                    Model::Maximal,
                    None,
                    Vec::new(),
                    at_size,
                    Vec::new(),
                );
            }
            // Subgroups run independently: each one's schedules are
            // searched with the others' inputs left out.
            let s = size.as_usize();
            for (index, chunk) in input.lanes.chunks(s).enumerate() {
                let first = index * s;
                let want: Outcome<S> = expected
                    .as_ref()
                    .map(|v| v[first..first + chunk.len()].to_vec())
                    .map_err(Clone::clone);
                for &model in &self.models {
                    if let Some(found) =
                        self.schedules(subject, &input.uniform, chunk, size, model, &want, tally)
                    {
                        let (choices, got, trace) = found;
                        return differs(want, model, Some(index), choices, got, trace);
                    }
                }
            }
        }
        if compared == 0 {
            return Verdict::Outside(outside.unwrap_or_else(|| "no size was run".into()));
        }
        tally.inputs += 1;
        for (count, ran) in tally.at_size.iter_mut().zip(ran) {
            count.0 += u64::from(ran);
        }
        tally.invocations = if tally.inputs == 1 {
            (n, n)
        } else {
            (tally.invocations.0.min(n), tally.invocations.1.max(n))
        };
        Verdict::Same
    }

    /// Runs one subgroup's schedules under `model`: every one while there
    /// are at most `exhaustive`, else `samples` drawn. Returns the first
    /// that differs from `want`, simplified.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn schedules<S: Subject>(
        &self,
        subject: &S,
        uniform: &S::Uniform,
        lanes: &[S::Lane],
        size: SubgroupSize,
        model: Model,
        want: &Outcome<S>,
        tally: &mut Tally,
    ) -> Option<(Vec<u32>, Outcome<S>, Vec<Split>)> {
        let differs = |script: &[u32]| {
            let (got, plan) = planned(
                subject,
                uniform,
                lanes,
                (size, self.step_budget),
                model,
                script.to_vec(),
            );
            (!same::<S>(&got, want, self.tolerance)).then_some((got, plan))
        };
        let found = |script: Vec<u32>| {
            let (got, plan) = simplify(script, differs);
            // The choices the simplified run made, which is its schedule.
            let made = plan.made.iter().map(|&(c, _)| c).collect();
            (made, got, plan.trace)
        };
        // Depth-first over the choices, while within the limit.
        let mut next = Some(Vec::new());
        let mut runs = 0u32;
        while runs < self.exhaustive {
            let Some(current) = next.take() else { break };
            let (got, plan) = planned(
                subject,
                uniform,
                lanes,
                (size, self.step_budget),
                model,
                current.clone(),
            );
            runs += 1;
            tally.schedules += 1;
            tally.split += u64::from(!plan.trace.is_empty());
            if !same::<S>(&got, want, self.tolerance) {
                return Some(found(current));
            }
            next = Script::next_script(&plan.made);
        }
        if next.is_none() {
            tally.enumerated += 1;
            return None;
        }
        // Too many to enumerate: draw.
        tally.sampled += 1;
        let mut draws = TestRng::from_seed(RngAlgorithm::ChaCha, &{
            let mut s = [0u8; 32];
            s[..8].copy_from_slice(&self.seed.to_le_bytes());
            s[8..12].copy_from_slice(&size.get().to_le_bytes());
            s[12..20].copy_from_slice(&(lanes.len() as u64).to_le_bytes());
            s[20] = model as u8;
            s
        });
        for _ in 0..self.samples {
            let script: Vec<u32> = (0..4 * size.get()).map(|_| draws.next_u32()).collect();
            let (got, plan) = planned(
                subject,
                uniform,
                lanes,
                (size, self.step_budget),
                model,
                script.clone(),
            );
            tally.schedules += 1;
            tally.split += u64::from(!plan.trace.is_empty());
            if !same::<S>(&got, want, self.tolerance) {
                return Some(found(script));
            }
        }
        None
    }
}

/// Sets each choice of a failing `script` to 0, from the last, wherever
/// the run still fails, and returns the last failing run: the
/// counterexample then splits as few collectives, into as few groups, as
/// it can.
fn simplify<R>(mut script: Vec<u32>, differs: impl Fn(&[u32]) -> Option<R>) -> R {
    let mut last = differs(&script).expect("a failing script fails again");
    for i in (0..script.len()).rev() {
        if script[i] == 0 {
            continue;
        }
        let mut simpler = script.clone();
        simpler[i] = 0;
        if let Some(r) = differs(&simpler) {
            script = simpler;
            last = r;
        }
    }
    last
}
