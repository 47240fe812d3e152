//! The IR interpreter as a [`Subject`]: kernels read from source, run
//! without their generated code (`ballot portability`).

use super::*;

/// A kernel run by the IR interpreter: for tools that have a kernel's IR
/// but not its compiled code, such as `ballot portability FILE.rs`.
#[cfg(feature = "interp")]
pub struct Interpreted<'k> {
    interp: crate::interp::Interpreter<'k>,
    kernel: &'k ballot_ir::ir::Kernel,
    /// The name reports give it, where not the kernel's own.
    name: Option<String>,
}

#[cfg(feature = "interp")]
impl<'k> Interpreted<'k> {
    /// Kernel `name` of `kernels`, which holds every kernel it calls.
    /// `None` if there is no such kernel.
    pub fn new(kernels: &'k [ballot_ir::ir::Kernel], name: &str) -> Option<Self> {
        let interp = crate::interp::Interpreter::new(kernels);
        let kernel = interp.kernel(name)?;
        Some(Self {
            interp,
            kernel,
            name: None,
        })
    }

    /// Names the kernel `name` in reports (its certificate, its
    /// counterexample): its path, say, where kernels of several modules
    /// share a name.
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// The oracle for this kernel, with inputs from each parameter type's
    /// [`Generate`] strategy, for workgroups of 1 to 160 invocations.
    pub fn portability(self) -> Portability<Self> {
        let value = |ty: ballot_ir::ir::Type| -> BoxedStrategy<crate::interp::Value> {
            use crate::interp::Value;
            use ballot_ir::ir::Type;
            match ty {
                Type::Bool => bool::strategy().prop_map(Value::Bool).boxed(),
                Type::U32 => u32::strategy().prop_map(Value::U32).boxed(),
                Type::I32 => i32::strategy().prop_map(Value::I32).boxed(),
                Type::F32 => f32::strategy().prop_map(Value::F32).boxed(),
                Type::Mask => SubgroupMask::strategy().prop_map(Value::Mask).boxed(),
            }
        };
        let (mut lane, mut uniform) = (Vec::new(), Vec::new());
        for (i, param) in self.kernel.params.iter().enumerate() {
            let s = value(self.kernel.param_type(i));
            if param.uniform {
                uniform.push(s);
            } else {
                lane.push(s);
            }
        }
        let inputs = (uniform, proptest::collection::vec(lane, 1..=160))
            .prop_map(|(uniform, lanes)| Input::<Self> { uniform, lanes });
        Portability::new(self, inputs)
    }
}

#[cfg(feature = "interp")]
impl Subject for Interpreted<'_> {
    /// One value per per-lane parameter, in order.
    type Lane = Vec<crate::interp::Value>;
    /// One value per uniform parameter, in order.
    type Uniform = Vec<crate::interp::Value>;
    type Output = crate::interp::Value;
    type Error = crate::interp::InterpError;

    fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.kernel.name)
    }

    fn run(
        &self,
        dispatch: &Dispatch,
        uniform: &Self::Uniform,
        lanes: &[Self::Lane],
    ) -> Result<Vec<Self::Output>, Self::Error> {
        use crate::interp::Arg;
        let (mut u, mut l) = (uniform.iter(), 0);
        let args: Vec<Arg> = self
            .kernel
            .params
            .iter()
            .map(|param| {
                if param.uniform {
                    Arg::Uniform(u.next().copied().unwrap_or(crate::interp::Value::Unit))
                } else {
                    let column = lanes.iter().map(|v| v[l]).collect();
                    l += 1;
                    Arg::PerLane(column)
                }
            })
            .collect();
        self.interp.run_dispatch(&self.kernel.name, dispatch, &args)
    }

    fn same(a: &Self::Output, b: &Self::Output) -> bool {
        a.bit_eq(*b)
    }

    fn close(a: &Self::Output, b: &Self::Output, tolerance: f32) -> bool {
        match (a, b) {
            (crate::interp::Value::F32(x), crate::interp::Value::F32(y)) => {
                crate::sim::f32_close(*x, *y, tolerance)
            }
            _ => a.bit_eq(*b),
        }
    }

    fn unfinished(error: &Self::Error) -> bool {
        matches!(error, crate::interp::InterpError::IterationLimit { .. })
    }

    fn explain(error: &Self::Error) -> String {
        use crate::interp::InterpError;
        match error {
            InterpError::IterationLimit { limit, .. } => past_budget(*limit),
            InterpError::CallDepth { kernel, limit } => format!(
                "calls nest deeper than {limit} at `{kernel}`: the kernels' calls recurse, \
                 and kernels cannot recurse"
            ),
            other => other.to_string(),
        }
    }
}
