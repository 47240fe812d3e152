const _: () = {
    if caller::__same_path(helpers::lowest_active::__PATH, caller::__PATH) {
        ::core::panic!(
            "`caller` calls itself (as `helpers::lowest_active`): kernels cannot recurse"
        );
    }
    if helpers::lowest_active::__calls(caller::__PATH) {
        ::core::panic!(
            "`caller` calls `lowest_active`, which calls `caller`: kernels cannot recurse"
        );
    }
    if helpers::lowest_active::__reaches(caller::__PATH, &mut ([""; 256usize], 0), 0) {
        ::core::panic!(
            "`caller` calls `lowest_active`, which calls `caller` through other kernels: kernels cannot recurse"
        );
    }
};
impl ::ballot::__private::SimKernel for caller {
    const NAME: &'static str = "caller";
    type Lane = (bool, ::ballot::__private::SubgroupMask);
    type Uniform = ();
    type Output = u32;
    fn run_invocations(
        dispatch: &::ballot::__private::Dispatch,
        uniform: &Self::Uniform,
        lanes: &[Self::Lane],
    ) -> ::core::result::Result<::std::vec::Vec<u32>, ::ballot::__private::SimError> {
        let p: ::std::vec::Vec<bool> = lanes.iter().map(|l| l.0).collect();
        let m: ::std::vec::Vec<::ballot::__private::SubgroupMask> = lanes
            .iter()
            .map(|l| l.1)
            .collect();
        Self::run_dispatch(dispatch, &p, &m)
    }
}
/**

`#[ballot::kernel]`: run it with [`caller::run`] over one subgroup or [`caller::run_dispatch`] over a dispatch. Parameters: `p: bool` (per-lane), `m: SubgroupMask` (per-lane).*/
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct caller;
#[allow(dead_code, clippy::too_many_arguments)]
impl caller {
    /// The kernel's name.
    pub const NAME: &'static str = "caller";
    /// The kernel's source, as the macro accepted it.
    pub const SOURCE: &'static str = "fn caller (p : bool , m : SubgroupMask) -> u32 { let lowest : u32 = helpers :: lowest_active (m) ; if p && subgroup_inverse_ballot (m) { lowest } else { subgroup_ballot_find_msb (subgroup_ballot (p)) } }";
    /// Runs the kernel over the active lanes of one subgroup. Per-lane
    /// inputs hold one entry per lane, indexed by lane id; entries of
    /// inactive lanes are ignored. Inactive lanes get no output.
    ///
    /// # Errors
    /// A report of the first undefined behaviour, naming the operation
    /// and the lane, or an input of the wrong length.
    pub fn run(
        subgroup: &::ballot::__private::Subgroup,
        p: &[bool],
        m: &[::ballot::__private::SubgroupMask],
    ) -> ::core::result::Result<
        ::ballot::__private::PerLane<u32>,
        ::ballot::__private::SimError,
    > {
        match ::ballot::__private::__spmd::width(subgroup.size()) {
            8usize => Self::__run::<8usize>(subgroup, p, m),
            16usize => Self::__run::<16usize>(subgroup, p, m),
            32usize => Self::__run::<32usize>(subgroup, p, m),
            64usize => Self::__run::<64usize>(subgroup, p, m),
            _ => Self::__run::<128usize>(subgroup, p, m),
        }
    }
    #[doc(hidden)]
    fn __run<const __N: usize>(
        subgroup: &::ballot::__private::Subgroup,
        p: &[bool],
        m: &[::ballot::__private::SubgroupMask],
    ) -> ::core::result::Result<
        ::ballot::__private::PerLane<u32>,
        ::ballot::__private::SimError,
    > {
        let cx = ::ballot::__private::__spmd::Cx::<__N>::new(subgroup);
        let p = ::ballot::__private::__spmd::load(&cx, "p", p)?;
        let m = ::ballot::__private::__spmd::load(&cx, "m", m)?;
        let out = Self::__simd(&cx, subgroup.active().bits(), &p, &m)?;
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
        p: &[bool],
        m: &[::ballot::__private::SubgroupMask],
    ) -> ::core::result::Result<::std::vec::Vec<u32>, ::ballot::__private::SimError> {
        let mut out = ::std::vec![
            < u32 as ::core::default::Default > ::default(); dispatch.invocation_count()
        ];
        Self::run_dispatch_into(dispatch, &mut out, p, m)?;
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
        p: &[bool],
        m: &[::ballot::__private::SubgroupMask],
    ) -> ::core::result::Result<(), ::ballot::__private::SimError> {
        ::ballot::__private::__spmd::check_len("p", p, dispatch.invocation_count())?;
        ::ballot::__private::__spmd::check_len("m", m, dispatch.invocation_count())?;
        if out.len() != dispatch.invocation_count() {
            return ::core::result::Result::Err(::ballot::__private::SimError::OutputLength {
                expected: dispatch.invocation_count(),
                got: out.len(),
            });
        }
        match ::ballot::__private::__spmd::width(dispatch.subgroup_size()) {
            8usize => Self::__run_dispatch::<8usize>(dispatch, out, p, m),
            16usize => Self::__run_dispatch::<16usize>(dispatch, out, p, m),
            32usize => Self::__run_dispatch::<32usize>(dispatch, out, p, m),
            64usize => Self::__run_dispatch::<64usize>(dispatch, out, p, m),
            _ => Self::__run_dispatch::<128usize>(dispatch, out, p, m),
        }
    }
    #[doc(hidden)]
    fn __run_dispatch<const __N: usize>(
        dispatch: &::ballot::__private::Dispatch,
        out: &mut [u32],
        p: &[bool],
        m: &[::ballot::__private::SubgroupMask],
    ) -> ::core::result::Result<(), ::ballot::__private::SimError> {
        for sg in dispatch.subgroups() {
            let cx = ::ballot::__private::__spmd::Cx::<__N>::new(&sg.subgroup);
            let count = sg.subgroup.active().count() as usize;
            let range = sg.first_invocation..sg.first_invocation + count;
            let p = ::ballot::__private::__spmd::V::from_slice(&p[range.clone()]);
            let m = ::ballot::__private::__spmd::V::from_slice(&m[range.clone()]);
            let result = Self::__simd(&cx, sg.subgroup.active().bits(), &p, &m);
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
        for kernel in helpers::lowest_active::kernels() {
            if !all.iter().any(|k| ::core::ptr::eq(*k, kernel)) {
                all.push(kernel);
            }
        }
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
        ::core::module_path!(), "::", "caller"
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
        if Self::__same_path(helpers::lowest_active::__PATH, __target)
            || helpers::lowest_active::__reaches(__target, __seen, __depth + 1)
        {
            return true;
        }
        false
    }
    /// Whether this kernel calls the kernel whose `__PATH` is
    /// `target` itself.
    #[doc(hidden)]
    pub const fn __calls(__target: &str) -> bool {
        if Self::__same_path(helpers::lowest_active::__PATH, __target) {
            return true;
        }
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
                name: ::std::string::String::from("caller"),
                params: ::std::vec![
                    __ir::Param { local : __h(0usize), uniform : false }, __ir::Param {
                    local : __h(1usize), uniform : false }
                ],
                ret: ::core::option::Option::Some(__ir::Type::U32),
                locals: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Local { name : ::std::string::String::from("p"), ty :
                        __ir::Type::Bool, mutable : false }, __ir::Local { name :
                        ::std::string::String::from("m"), ty : __ir::Type::Mask, mutable
                        : false }, __ir::Local { name :
                        ::std::string::String::from("lowest"), ty : __ir::Type::U32,
                        mutable : false }, __ir::Local { name :
                        ::std::string::String::from("_and0"), ty : __ir::Type::Bool,
                        mutable : true }, __ir::Local { name :
                        ::std::string::String::from("_if1"), ty : __ir::Type::U32,
                        mutable : false }
                    ],
                ),
                exprs: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Expr::Load(__h(1usize)), __ir::Expr::Call { callee :
                        ::std::string::String::from("helpers::lowest_active"), args :
                        ::std::vec![__h(0usize)] }, __ir::Expr::Load(__h(0usize)),
                        __ir::Expr::Load(__h(1usize)), __ir::Expr::Op { op :
                        __Op::InverseBallot, args : ::std::vec![__h(3usize)] },
                        __ir::Expr::Load(__h(3usize)), __ir::Expr::Load(__h(3usize)),
                        __ir::Expr::Load(__h(2usize)), __ir::Expr::Load(__h(0usize)),
                        __ir::Expr::Op { op : __Op::Ballot, args :
                        ::std::vec![__h(8usize)] }, __ir::Expr::Op { op : __Op::FindMsb,
                        args : ::std::vec![__h(9usize)] }, __ir::Expr::Load(__h(4usize))
                    ],
                ),
                expr_types: ::std::vec![
                    __ir::Type::Mask, __ir::Type::U32, __ir::Type::Bool,
                    __ir::Type::Mask, __ir::Type::Bool, __ir::Type::Bool,
                    __ir::Type::Bool, __ir::Type::U32, __ir::Type::Bool,
                    __ir::Type::Mask, __ir::Type::U32, __ir::Type::U32
                ],
                stmts: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Stmt::Assign { local : __h(2usize), value : __h(1usize) },
                        __ir::Stmt::Assign { local : __h(3usize), value : __h(2usize) },
                        __ir::Stmt::Assign { local : __h(3usize), value : __h(4usize) },
                        __ir::Stmt::If { cond : __h(5usize), accept :
                        ::std::vec![__h(2usize)], reject : ::std::vec![] },
                        __ir::Stmt::Assign { local : __h(4usize), value : __h(7usize) },
                        __ir::Stmt::Assign { local : __h(4usize), value : __h(10usize) },
                        __ir::Stmt::If { cond : __h(6usize), accept :
                        ::std::vec![__h(4usize)], reject : ::std::vec![__h(5usize)] },
                        __ir::Stmt::Return(::core::option::Option::Some(__h(11usize)))
                    ],
                ),
                body: ::std::vec![
                    __h(0usize), __h(1usize), __h(3usize), __h(6usize), __h(7usize)
                ],
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
        __p1: &::ballot::__private::__spmd::V<::ballot::__private::SubgroupMask, __N>,
    ) -> ::core::result::Result<
        ::ballot::__private::__spmd::V<u32, __N>,
        ::ballot::__private::SimError,
    > {
        let mut __l0 = *__p0;
        let mut __l1 = *__p1;
        let mut __l2: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __l3: ::ballot::__private::__spmd::V<bool, __N> = ::core::default::Default::default();
        let mut __l4: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __ret_val: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __ret: u128 = 0;
        let mut __active: u128 = __entry;
        '__b1: {
            let __t1 = helpers::lowest_active::__simd(__cx, __active, &__l1)?;
            {
                let __value = __t1;
                ::ballot::__private::__spmd::assign(__cx, &mut __l2, &__value, __active);
            }
            {
                let __value = __l0;
                ::ballot::__private::__spmd::assign(__cx, &mut __l3, &__value, __active);
            }
            let __outer2: u128 = __active;
            let __taken2: u128 = ::ballot::__private::__spmd::lanes_where(__cx, &__l3);
            let __uniform2: bool = __cx.sched.enter(__active);
            __active = (__outer2 & __taken2);
            if __active != 0 {
                '__b2: {
                    let __t3 = ::ballot::__private::__spmd::inverse_ballot(
                        __cx,
                        __active,
                        &__l1,
                    )?;
                    {
                        let __value = __t3;
                        ::ballot::__private::__spmd::assign(
                            __cx,
                            &mut __l3,
                            &__value,
                            __active,
                        );
                    }
                }
            }
            __active = __outer2;
            __cx.sched.join_if(__uniform2, __outer2, __taken2, __active);
            let __outer4: u128 = __active;
            let __taken4: u128 = ::ballot::__private::__spmd::lanes_where(__cx, &__l3);
            let __uniform4: bool = __cx.sched.enter(__active);
            __active = (__outer4 & __taken4);
            if __active != 0 {
                '__b3: {
                    {
                        let __value = __l2;
                        ::ballot::__private::__spmd::assign(
                            __cx,
                            &mut __l4,
                            &__value,
                            __active,
                        );
                    }
                }
            }
            __active = (__outer4 & !__taken4);
            if __active != 0 {
                '__b4: {
                    let __t5 = ::ballot::__private::__spmd::ballot(
                        __cx,
                        __active,
                        &__l0,
                    );
                    {
                        let __value = ::ballot::__private::__spmd::find(
                            __cx,
                            __active,
                            &__t5,
                            ::ballot::__private::__spmd::Op::FindMsb,
                        )?;
                        ::ballot::__private::__spmd::assign(
                            __cx,
                            &mut __l4,
                            &__value,
                            __active,
                        );
                    }
                }
            }
            __active = __outer4;
            __cx.sched.join_if(__uniform4, __outer4, __taken4, __active);
            {
                let __value = __l4;
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
