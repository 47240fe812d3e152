//! What the oracle answers: a [`Certificate`] of what it covered, or a
//! [`Counterexample`].

use core::fmt;

use super::*;

/// What the oracle covered for a kernel it found portable.
#[derive(Clone, Debug, PartialEq)]
pub struct Certificate {
    /// The kernel.
    pub kernel: String,
    /// The subgroup sizes run.
    pub sizes: Vec<SubgroupSize>,
    /// The size every run was compared with, or `None` where the size is
    /// part of the contract and each size was compared with its own run.
    pub reference: Option<SubgroupSize>,
    /// The models whose schedules were run.
    pub models: Vec<Model>,
    /// The inputs inside the kernel's contract that were run.
    pub inputs: u64,
    /// The fewest and most invocations of their workgroups.
    pub invocations: (usize, usize),
    /// The schedules run, over every input, size, subgroup and model.
    pub schedules: u64,
    /// Those of them that split a collective.
    pub split: u64,
    /// Subgroups (for one model) whose every schedule was run.
    pub enumerated: u64,
    /// Subgroups (for one model) with too many schedules, of which some
    /// were drawn.
    pub sampled: u64,
    /// How far `f32` outputs were allowed to differ
    /// ([`super::Portability::tolerance`]); 0: bit for bit.
    pub tolerance: f32,
}

impl fmt::Display for Certificate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |items: Vec<String>| items.join(", ");
        write!(f, "kernel `{}` is portable: ", self.kernel)?;
        write!(
            f,
            "{} inputs of {} to {} invocations; subgroup sizes {}",
            self.inputs,
            self.invocations.0,
            self.invocations.1,
            list(self.sizes.iter().map(|s| s.to_string()).collect())
        )?;
        match self.reference {
            Some(r) => write!(f, ", each compared with size {r}")?,
            None => f.write_str(", each compared with itself (size is part of the contract)")?,
        }
        // The sizes alone (no model asked for): maximal reconvergence, no
        // schedule searched.
        if self.models.is_empty() {
            f.write_str("; maximal reconvergence only, no schedule searched")?;
        } else {
            write!(
                f,
                "; models maximal, {}: {} schedules ({} splitting a collective), every schedule of {} subgroups and a sample of {}",
                list(self.models.iter().map(|m| m.to_string()).collect()),
                self.schedules,
                self.split,
                self.enumerated,
                self.sampled
            )?;
        }
        if self.tolerance > 0.0 {
            write!(f, "; f32 outputs within a tolerance of {}", self.tolerance)?;
        }
        Ok(())
    }
}

/// A shrunk input on which a kernel's answer changes, and the two runs
/// that show it.
pub struct Counterexample<S: Subject> {
    /// The kernel.
    pub kernel: String,
    /// The input, shrunk.
    pub input: Input<S>,
    /// The smallest subgroup size at which the answer changes.
    pub size: SubgroupSize,
    /// The size of the reference run, under maximal reconvergence.
    pub reference: SubgroupSize,
    /// The reference's answer (for the subgroup, where one is named).
    pub expected: Outcome<S>,
    /// The model of the differing run: [`Model::Maximal`] where the size
    /// alone changes the answer.
    pub model: Model,
    /// The subgroup whose schedule changes the answer, counted from 0.
    pub subgroup: Option<usize>,
    /// The schedule's choices (for [`crate::schedule::Script`]).
    pub choices: Vec<u32>,
    /// The differing run's answer.
    pub got: Outcome<S>,
    /// The collectives the schedule split.
    pub trace: Vec<Split>,
}

impl<S: Subject> fmt::Display for Counterexample<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.input.lanes.len();
        writeln!(f, "kernel `{}` is not portable", self.kernel)?;
        writeln!(
            f,
            "  input: {} invocations, uniform {:?}, lanes {:?}",
            n, self.input.uniform, self.input.lanes
        )?;
        let outcome = |o: &Outcome<S>| match o {
            Ok(v) => format!("{v:?}"),
            Err(e) => format!("error: {e}"),
        };
        match self.subgroup {
            None => {
                writeln!(
                    f,
                    "  subgroup size {} (maximal reconvergence): {}",
                    self.reference,
                    outcome(&self.expected)
                )?;
                write!(
                    f,
                    "  subgroup size {} (maximal reconvergence): {}",
                    self.size,
                    outcome(&self.got)
                )
            }
            Some(index) => {
                let s = self.size.as_usize();
                let last = (index * s + s).min(n);
                writeln!(
                    f,
                    "  subgroup {index} at size {} (invocations {}..{last}):",
                    self.size,
                    index * s
                )?;
                writeln!(
                    f,
                    "    maximal reconvergence{}: {}",
                    if self.reference == self.size {
                        String::new()
                    } else {
                        format!(" at size {}", self.reference)
                    },
                    outcome(&self.expected)
                )?;
                write!(
                    f,
                    "    {} schedule (choices {:?}): {}",
                    self.model,
                    self.choices,
                    outcome(&self.got)
                )?;
                for split in &self.trace {
                    write!(f, "\n      {split}")?;
                }
                Ok(())
            }
        }
    }
}

impl<S: Subject> fmt::Debug for PortabilityError<S> {
    /// The report itself, so that `unwrap` in a test prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl<S: Subject> fmt::Debug for Counterexample<S> {
    /// The report itself, so that `unwrap` in a test prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
