impl ::ballot::__private::SimKernel for compaction_slot {
    const NAME: &'static str = "compaction_slot";
    type Lane = (bool,);
    type Uniform = ();
    type Output = u32;
    fn run_invocations(
        dispatch: &::ballot::__private::Dispatch,
        uniform: &Self::Uniform,
        lanes: &[Self::Lane],
    ) -> ::core::result::Result<::std::vec::Vec<u32>, ::ballot::__private::SimError> {
        let keep: ::std::vec::Vec<bool> = lanes.iter().map(|l| l.0).collect();
        Self::run_dispatch(dispatch, &keep)
    }
}
/// The output slot of each kept element.
/**

`#[ballot::kernel]`: run it with [`compaction_slot::run`] over one subgroup or [`compaction_slot::run_dispatch`] over a dispatch. Parameters: `keep: bool` (per-lane).*/
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct compaction_slot;
#[allow(dead_code, clippy::too_many_arguments)]
impl compaction_slot {
    /// The kernel's name.
    pub const NAME: &'static str = "compaction_slot";
    /// The kernel's source, as the macro accepted it.
    pub const SOURCE: &'static str = "pub fn compaction_slot (keep : bool) -> u32 { let kept = subgroup_ballot (keep) ; subgroup_ballot_exclusive_bit_count (kept) }";
    /// Runs the kernel over the active lanes of one subgroup. Per-lane
    /// inputs hold one entry per lane, indexed by lane id; entries of
    /// inactive lanes are ignored. Inactive lanes get no output.
    ///
    /// # Errors
    /// A report of the first undefined behaviour, naming the operation
    /// and the lane, or an input of the wrong length.
    pub fn run(
        subgroup: &::ballot::__private::Subgroup,
        keep: &[bool],
    ) -> ::core::result::Result<
        ::ballot::__private::PerLane<u32>,
        ::ballot::__private::SimError,
    > {
        match ::ballot::__private::__spmd::width(subgroup.size()) {
            8usize => Self::__run::<8usize>(subgroup, keep),
            16usize => Self::__run::<16usize>(subgroup, keep),
            32usize => Self::__run::<32usize>(subgroup, keep),
            64usize => Self::__run::<64usize>(subgroup, keep),
            _ => Self::__run::<128usize>(subgroup, keep),
        }
    }
    #[doc(hidden)]
    fn __run<const __N: usize>(
        subgroup: &::ballot::__private::Subgroup,
        keep: &[bool],
    ) -> ::core::result::Result<
        ::ballot::__private::PerLane<u32>,
        ::ballot::__private::SimError,
    > {
        let cx = ::ballot::__private::__spmd::Cx::<__N>::new(subgroup);
        let keep = ::ballot::__private::__spmd::load(&cx, "keep", keep)?;
        let out = Self::__simd(&cx, subgroup.active().bits(), &keep)?;
        ::core::result::Result::Ok(::ballot::__private::__spmd::store(subgroup, &out))
    }
    /// Runs the kernel over every subgroup of a dispatch. Per-lane
    /// inputs hold one entry per invocation, workgroup by workgroup and
    /// by `local_invocation_index` within each; the output is in the
    /// same order.
    ///
    /// # Errors
    /// A report of the first undefined behaviour, naming the operation
    /// and the lane, or an input of the wrong length.
    pub fn run_dispatch(
        dispatch: &::ballot::__private::Dispatch,
        keep: &[bool],
    ) -> ::core::result::Result<::std::vec::Vec<u32>, ::ballot::__private::SimError> {
        let mut out = ::std::vec![
            < u32 as ::core::default::Default > ::default(); dispatch.invocation_count()
        ];
        Self::run_dispatch_into(dispatch, &mut out, keep)?;
        ::core::result::Result::Ok(out)
    }
    /// Like `run_dispatch`, writing into `out`, which holds one entry
    /// per invocation: for callers that run the kernel repeatedly and
    /// reuse one buffer. On an error, `out` holds the results of the
    /// subgroups before the failing one.
    ///
    /// # Errors
    /// A report of the first undefined behaviour, naming the operation
    /// and the lane, or an input or output of the wrong length.
    pub fn run_dispatch_into(
        dispatch: &::ballot::__private::Dispatch,
        out: &mut [u32],
        keep: &[bool],
    ) -> ::core::result::Result<(), ::ballot::__private::SimError> {
        ::ballot::__private::__spmd::check_len(
            "keep",
            keep,
            dispatch.invocation_count(),
        )?;
        if out.len() != dispatch.invocation_count() {
            return ::core::result::Result::Err(::ballot::__private::SimError::OutputLength {
                expected: dispatch.invocation_count(),
                got: out.len(),
            });
        }
        match ::ballot::__private::__spmd::width(dispatch.subgroup_size()) {
            8usize => Self::__run_dispatch::<8usize>(dispatch, out, keep),
            16usize => Self::__run_dispatch::<16usize>(dispatch, out, keep),
            32usize => Self::__run_dispatch::<32usize>(dispatch, out, keep),
            64usize => Self::__run_dispatch::<64usize>(dispatch, out, keep),
            _ => Self::__run_dispatch::<128usize>(dispatch, out, keep),
        }
    }
    #[doc(hidden)]
    fn __run_dispatch<const __N: usize>(
        dispatch: &::ballot::__private::Dispatch,
        out: &mut [u32],
        keep: &[bool],
    ) -> ::core::result::Result<(), ::ballot::__private::SimError> {
        for sg in dispatch.subgroups() {
            let cx = ::ballot::__private::__spmd::Cx::<__N>::new(&sg.subgroup);
            let count = sg.subgroup.active().count() as usize;
            let range = sg.first_invocation..sg.first_invocation + count;
            let keep = ::ballot::__private::__spmd::V::from_slice(&keep[range.clone()]);
            let result = Self::__simd(&cx, sg.subgroup.active().bits(), &keep);
            match &result {
                ::core::result::Result::Ok(lanes) => {
                    out[range].copy_from_slice(&lanes.0[..count]);
                }
                ::core::result::Result::Err(_) => return result.map(|_| ()),
            }
        }
        ::core::result::Result::Ok(())
    }
    /// This kernel and every kernel it calls, directly or not, each
    /// once, this one first: what a shader of it must contain.
    pub fn kernels() -> ::std::vec::Vec<&'static ::ballot::__private::ir::Kernel> {
        let mut all = ::std::vec![Self::ir()];
        all
    }
    /// The kernel as shader text for `target`, in `form`, with
    /// every kernel it calls.
    ///
    /// # Errors
    /// Invalid `options`, naming the option.
    pub fn shader(
        target: ::ballot::__private::Target,
        form: ::ballot::__private::Form,
        options: &::ballot::__private::ShaderOptions,
    ) -> ::core::result::Result<
        ::std::string::String,
        ::ballot::__private::ShaderError,
    > {
        ::ballot::__private::emit(
            target,
            form,
            &Self::kernels(),
            options,
            ::ballot::__private::Missing::Error,
        )
    }
    #[doc(hidden)]
    pub const __PATH: &'static str = ::core::concat!(
        ::core::module_path!(), "::", "compaction_slot"
    );
    /// Whether the calls below this kernel reach the kernel whose
    /// `__PATH` is `target`: a depth-first walk, at compile time, that
    /// marks the kernels it has left in `seen`, so that each is
    /// walked once.
    #[doc(hidden)]
    pub const fn __reaches(
        __target: &str,
        __seen: &mut ([&'static str; 256usize], usize),
        __depth: usize,
    ) -> bool {
        if __depth >= 256usize {
            return false;
        }
        let mut __i = 0;
        while __i < __seen.1 {
            if Self::__same_path(__seen.0[__i], Self::__PATH) {
                return false;
            }
            __i += 1;
        }
        if __seen.1 < 256usize {
            __seen.0[__seen.1] = Self::__PATH;
            __seen.1 += 1;
        }
        false
    }
    /// Whether this kernel calls the kernel whose `__PATH` is
    /// `target` itself.
    #[doc(hidden)]
    pub const fn __calls(__target: &str) -> bool {
        false
    }
    /// `a == b`, in a constant.
    #[doc(hidden)]
    pub const fn __same_path(__a: &str, __b: &str) -> bool {
        let (__a, __b) = (__a.as_bytes(), __b.as_bytes());
        if __a.len() != __b.len() {
            return false;
        }
        let mut __i = 0;
        while __i < __a.len() {
            if __a[__i] != __b[__i] {
                return false;
            }
            __i += 1;
        }
        true
    }
    /// The kernel's IR, which every shader backend reads.
    pub fn ir() -> &'static ::ballot::__private::ir::Kernel {
        static IR: ::std::sync::OnceLock<::ballot::__private::ir::Kernel> = ::std::sync::OnceLock::new();
        IR.get_or_init(|| {
            #[allow(unused_imports)]
            use ::ballot::__private::{
                ir as __ir, ArithOp as __ArithOp, Op as __Op, Quad as __Quad,
                Scan as __Scan,
            };
            fn __h<T>(index: usize) -> __ir::Handle<T> {
                __ir::Handle::from_index(index)
            }
            __ir::Kernel {
                name: ::std::string::String::from("compaction_slot"),
                params: ::std::vec![
                    __ir::Param { local : __h(0usize), uniform : false }
                ],
                ret: ::core::option::Option::Some(__ir::Type::U32),
                locals: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Local { name : ::std::string::String::from("keep"), ty :
                        __ir::Type::Bool, mutable : false }, __ir::Local { name :
                        ::std::string::String::from("kept"), ty : __ir::Type::Mask,
                        mutable : false }
                    ],
                ),
                exprs: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Expr::Load(__h(0usize)), __ir::Expr::Op { op :
                        __Op::Ballot, args : ::std::vec![__h(0usize)] },
                        __ir::Expr::Load(__h(1usize)), __ir::Expr::Op { op :
                        __Op::ExclusiveBitCount, args : ::std::vec![__h(2usize)] }
                    ],
                ),
                expr_types: ::std::vec![
                    __ir::Type::Bool, __ir::Type::Mask, __ir::Type::Mask, __ir::Type::U32
                ],
                stmts: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Stmt::Assign { local : __h(1usize), value : __h(1usize) },
                        __ir::Stmt::Return(::core::option::Option::Some(__h(3usize)))
                    ],
                ),
                body: ::std::vec![__h(0usize), __h(1usize)],
            }
        })
    }
    #[doc(hidden)]
    #[allow(
        unused_mut,
        unused_variables,
        unused_assignments,
        unused_labels,
        unreachable_code,
        clippy::all
    )]
    #[inline]
    pub fn __simd<const __N: usize>(
        __cx: &::ballot::__private::__spmd::Cx<__N>,
        __entry: u128,
        __p0: &::ballot::__private::__spmd::V<bool, __N>,
    ) -> ::core::result::Result<
        ::ballot::__private::__spmd::V<u32, __N>,
        ::ballot::__private::SimError,
    > {
        let mut __l0 = *__p0;
        let mut __l1: ::ballot::__private::__spmd::V<
            ::ballot::__private::SubgroupMask,
            __N,
        > = ::core::default::Default::default();
        let mut __ret_val: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __ret: u128 = 0;
        let mut __active: u128 = __entry;
        '__b1: {
            let __t1 = ::ballot::__private::__spmd::ballot(__cx, __active, &__l0);
            {
                let __value = __t1;
                ::ballot::__private::__spmd::assign(__cx, &mut __l1, &__value, __active);
            }
            {
                let __value = ::ballot::__private::__spmd::exclusive_bit_count(
                    __cx,
                    &__l1,
                );
                ::ballot::__private::__spmd::assign(
                    __cx,
                    &mut __ret_val,
                    &__value,
                    __active,
                );
            }
            __ret = (__ret | __active);
            __active = 0u128;
            if __active == 0 {
                break '__b1;
            }
        }
        ::core::result::Result::Ok(__ret_val)
    }
}
