impl ::ballot::__private::SimKernel for divergent {
    const NAME: &'static str = "divergent";
    type Lane = (u32,);
    type Uniform = (u32,);
    type Output = u32;
    fn run_invocations(
        dispatch: &::ballot::__private::Dispatch,
        uniform: &Self::Uniform,
        lanes: &[Self::Lane],
    ) -> ::core::result::Result<::std::vec::Vec<u32>, ::ballot::__private::SimError> {
        let n: ::std::vec::Vec<u32> = lanes.iter().map(|l| l.0).collect();
        Self::run_dispatch(dispatch, &n, uniform.0)
    }
}
/**

`#[ballot::kernel]`: run it with [`divergent::run`] over one subgroup or [`divergent::run_dispatch`] over a dispatch. Parameters: `n: u32` (per-lane), `limit: u32` (uniform).*/
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct divergent;
#[allow(dead_code, clippy::too_many_arguments)]
impl divergent {
    /// The kernel's name.
    pub const NAME: &'static str = "divergent";
    /// The kernel's source, as the macro accepted it.
    pub const SOURCE: &'static str = "fn divergent (n : u32 , # [uniform] limit : u32) -> u32 { let mut seen = 0u32 ; for i in 0 .. limit { if i >= n { break ; } if subgroup_elect () { continue ; } seen += subgroup_ballot_bit_count (subgroup_ballot (true)) ; } if seen == 0 { return subgroup_broadcast_first (n) ; } seen }";
    /// Runs the kernel over the active lanes of one subgroup. Per-lane
    /// inputs hold one entry per lane, indexed by lane id; entries of
    /// inactive lanes are ignored. Inactive lanes get no output.
    ///
    /// # Errors
    /// A report of the first undefined behaviour, naming the operation
    /// and the lane, or an input of the wrong length.
    pub fn run(
        subgroup: &::ballot::__private::Subgroup,
        n: &[u32],
        limit: u32,
    ) -> ::core::result::Result<
        ::ballot::__private::PerLane<u32>,
        ::ballot::__private::SimError,
    > {
        match ::ballot::__private::__spmd::width(subgroup.size()) {
            8usize => Self::__run::<8usize>(subgroup, n, limit),
            16usize => Self::__run::<16usize>(subgroup, n, limit),
            32usize => Self::__run::<32usize>(subgroup, n, limit),
            64usize => Self::__run::<64usize>(subgroup, n, limit),
            _ => Self::__run::<128usize>(subgroup, n, limit),
        }
    }
    #[doc(hidden)]
    fn __run<const __N: usize>(
        subgroup: &::ballot::__private::Subgroup,
        n: &[u32],
        limit: u32,
    ) -> ::core::result::Result<
        ::ballot::__private::PerLane<u32>,
        ::ballot::__private::SimError,
    > {
        let cx = ::ballot::__private::__spmd::Cx::<__N>::new(subgroup);
        let n = ::ballot::__private::__spmd::load(&cx, "n", n)?;
        let limit = cx.splat(limit);
        let out = Self::__simd(&cx, subgroup.active().bits(), &n, &limit)?;
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
        n: &[u32],
        limit: u32,
    ) -> ::core::result::Result<::std::vec::Vec<u32>, ::ballot::__private::SimError> {
        let mut out = ::std::vec![
            < u32 as ::core::default::Default > ::default(); dispatch.invocation_count()
        ];
        Self::run_dispatch_into(dispatch, &mut out, n, limit)?;
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
        n: &[u32],
        limit: u32,
    ) -> ::core::result::Result<(), ::ballot::__private::SimError> {
        ::ballot::__private::__spmd::check_len("n", n, dispatch.invocation_count())?;
        if out.len() != dispatch.invocation_count() {
            return ::core::result::Result::Err(::ballot::__private::SimError::OutputLength {
                expected: dispatch.invocation_count(),
                got: out.len(),
            });
        }
        match ::ballot::__private::__spmd::width(dispatch.subgroup_size()) {
            8usize => Self::__run_dispatch::<8usize>(dispatch, out, n, limit),
            16usize => Self::__run_dispatch::<16usize>(dispatch, out, n, limit),
            32usize => Self::__run_dispatch::<32usize>(dispatch, out, n, limit),
            64usize => Self::__run_dispatch::<64usize>(dispatch, out, n, limit),
            _ => Self::__run_dispatch::<128usize>(dispatch, out, n, limit),
        }
    }
    #[doc(hidden)]
    fn __run_dispatch<const __N: usize>(
        dispatch: &::ballot::__private::Dispatch,
        out: &mut [u32],
        n: &[u32],
        limit: u32,
    ) -> ::core::result::Result<(), ::ballot::__private::SimError> {
        for sg in dispatch.subgroups() {
            let cx = ::ballot::__private::__spmd::Cx::<__N>::new(&sg.subgroup);
            let count = sg.subgroup.active().count() as usize;
            let range = sg.first_invocation..sg.first_invocation + count;
            let n = ::ballot::__private::__spmd::V::from_slice(&n[range.clone()]);
            let limit = cx.splat(limit);
            let result = Self::__simd(&cx, sg.subgroup.active().bits(), &n, &limit);
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
        ::core::module_path!(), "::", "divergent"
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
                name: ::std::string::String::from("divergent"),
                params: ::std::vec![
                    __ir::Param { local : __h(0usize), uniform : false }, __ir::Param {
                    local : __h(1usize), uniform : true }
                ],
                ret: ::core::option::Option::Some(__ir::Type::U32),
                locals: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Local { name : ::std::string::String::from("n"), ty :
                        __ir::Type::U32, mutable : false }, __ir::Local { name :
                        ::std::string::String::from("limit"), ty : __ir::Type::U32,
                        mutable : false }, __ir::Local { name :
                        ::std::string::String::from("seen"), ty : __ir::Type::U32,
                        mutable : true }, __ir::Local { name :
                        ::std::string::String::from("_for0"), ty : __ir::Type::U32,
                        mutable : true }, __ir::Local { name :
                        ::std::string::String::from("_end1"), ty : __ir::Type::U32,
                        mutable : false }, __ir::Local { name :
                        ::std::string::String::from("i"), ty : __ir::Type::U32, mutable :
                        false }
                    ],
                ),
                exprs: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Expr::Literal(__ir::Literal::U32(0u32)),
                        __ir::Expr::Literal(__ir::Literal::U32(0u32)),
                        __ir::Expr::Load(__h(1usize)), __ir::Expr::Load(__h(3usize)),
                        __ir::Expr::Load(__h(4usize)), __ir::Expr::Binary { op :
                        __ir::BinaryOp::Lt, left : __h(3usize), right : __h(4usize) },
                        __ir::Expr::Unary { op : __ir::UnaryOp::Not, arg : __h(5usize) },
                        __ir::Expr::Load(__h(3usize)), __ir::Expr::Load(__h(5usize)),
                        __ir::Expr::Load(__h(0usize)), __ir::Expr::Binary { op :
                        __ir::BinaryOp::Ge, left : __h(8usize), right : __h(9usize) },
                        __ir::Expr::Op { op : __Op::Elect, args : ::std::vec![] },
                        __ir::Expr::Literal(__ir::Literal::Bool(true)), __ir::Expr::Op {
                        op : __Op::Ballot, args : ::std::vec![__h(12usize)] },
                        __ir::Expr::Op { op : __Op::BitCount, args :
                        ::std::vec![__h(13usize)] }, __ir::Expr::Load(__h(2usize)),
                        __ir::Expr::Binary { op : __ir::BinaryOp::Add, left :
                        __h(15usize), right : __h(14usize) },
                        __ir::Expr::Load(__h(3usize)),
                        __ir::Expr::Literal(__ir::Literal::U32(1u32)), __ir::Expr::Binary
                        { op : __ir::BinaryOp::Add, left : __h(17usize), right :
                        __h(18usize) }, __ir::Expr::Load(__h(2usize)),
                        __ir::Expr::Literal(__ir::Literal::U32(0u32)), __ir::Expr::Binary
                        { op : __ir::BinaryOp::Eq, left : __h(20usize), right :
                        __h(21usize) }, __ir::Expr::Load(__h(0usize)), __ir::Expr::Op {
                        op : __Op::BroadcastFirst, args : ::std::vec![__h(23usize)] },
                        __ir::Expr::Load(__h(2usize))
                    ],
                ),
                expr_types: ::std::vec![
                    __ir::Type::U32, __ir::Type::U32, __ir::Type::U32, __ir::Type::U32,
                    __ir::Type::U32, __ir::Type::Bool, __ir::Type::Bool, __ir::Type::U32,
                    __ir::Type::U32, __ir::Type::U32, __ir::Type::Bool, __ir::Type::Bool,
                    __ir::Type::Bool, __ir::Type::Mask, __ir::Type::U32, __ir::Type::U32,
                    __ir::Type::U32, __ir::Type::U32, __ir::Type::U32, __ir::Type::U32,
                    __ir::Type::U32, __ir::Type::U32, __ir::Type::Bool, __ir::Type::U32,
                    __ir::Type::U32, __ir::Type::U32
                ],
                stmts: __ir::Arena::from_vec(
                    ::std::vec![
                        __ir::Stmt::Assign { local : __h(2usize), value : __h(0usize) },
                        __ir::Stmt::Assign { local : __h(3usize), value : __h(1usize) },
                        __ir::Stmt::Assign { local : __h(4usize), value : __h(2usize) },
                        __ir::Stmt::Break, __ir::Stmt::If { cond : __h(6usize), accept :
                        ::std::vec![__h(3usize)], reject : ::std::vec![] },
                        __ir::Stmt::Assign { local : __h(5usize), value : __h(7usize) },
                        __ir::Stmt::Break, __ir::Stmt::If { cond : __h(10usize), accept :
                        ::std::vec![__h(6usize)], reject : ::std::vec![] },
                        __ir::Stmt::Continue, __ir::Stmt::If { cond : __h(11usize),
                        accept : ::std::vec![__h(8usize)], reject : ::std::vec![] },
                        __ir::Stmt::Assign { local : __h(2usize), value : __h(16usize) },
                        __ir::Stmt::Assign { local : __h(3usize), value : __h(19usize) },
                        __ir::Stmt::Loop { body : ::std::vec![__h(4usize), __h(5usize),
                        __h(7usize), __h(9usize), __h(10usize)], continuing :
                        ::std::vec![__h(11usize)] },
                        __ir::Stmt::Return(::core::option::Option::Some(__h(24usize))),
                        __ir::Stmt::If { cond : __h(22usize), accept :
                        ::std::vec![__h(13usize)], reject : ::std::vec![] },
                        __ir::Stmt::Return(::core::option::Option::Some(__h(25usize)))
                    ],
                ),
                body: ::std::vec![
                    __h(0usize), __h(1usize), __h(2usize), __h(12usize), __h(14usize),
                    __h(15usize)
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
        __p0: &::ballot::__private::__spmd::V<u32, __N>,
        __p1: &::ballot::__private::__spmd::V<u32, __N>,
    ) -> ::core::result::Result<
        ::ballot::__private::__spmd::V<u32, __N>,
        ::ballot::__private::SimError,
    > {
        let mut __l0 = *__p0;
        let mut __l1 = *__p1;
        let mut __l2: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __l3: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __l4: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __l5: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __ret_val: ::ballot::__private::__spmd::V<u32, __N> = ::core::default::Default::default();
        let mut __ret: u128 = 0;
        let mut __active: u128 = __entry;
        '__b1: {
            {
                let __value = __cx.splat(0u32);
                ::ballot::__private::__spmd::assign(__cx, &mut __l2, &__value, __active);
            }
            {
                let __value = __cx.splat(0u32);
                ::ballot::__private::__spmd::assign(__cx, &mut __l3, &__value, __active);
            }
            {
                let __value = __l1;
                ::ballot::__private::__spmd::assign(__cx, &mut __l4, &__value, __active);
            }
            let __entry1: u128 = __active;
            let mut __brk1: u128 = 0u128;
            let mut __cont1: u128 = 0u128;
            let __uniform1: bool = __cx.sched.enter(__active);
            '__loop1: loop {
                __cont1 = 0u128;
                __active = ((__entry1 & !__brk1) & !__ret);
                if __active == 0 {
                    break '__loop1;
                }
                __cx.step("divergent", __active)?;
                __cx.sched.iterate(__entry1, __active);
                if __active != 0 {
                    '__b2: {
                        let __outer2: u128 = __active;
                        let __taken2: u128 = ::ballot::__private::__spmd::lanes_where(
                            __cx,
                            &::ballot::__private::__spmd::map1(
                                __cx,
                                &::ballot::__private::__spmd::map2(
                                    __cx,
                                    &__l3,
                                    &__l4,
                                    |a, b| a < b,
                                ),
                                |x| !x,
                            ),
                        );
                        let __uniform2: bool = __cx.sched.enter(__active);
                        __active = (__outer2 & __taken2);
                        if __active != 0 {
                            '__b3: {
                                __brk1 = (__brk1 | __active);
                                __active = 0u128;
                                if __active == 0 {
                                    break '__b3;
                                }
                            }
                        }
                        __active = (((__outer2 & !__ret) & !__brk1) & !__cont1);
                        __cx.sched.join_if(__uniform2, __outer2, __taken2, __active);
                        if __active == 0 {
                            break '__b2;
                        }
                        {
                            let __value = __l3;
                            ::ballot::__private::__spmd::assign(
                                __cx,
                                &mut __l5,
                                &__value,
                                __active,
                            );
                        }
                        let __outer3: u128 = __active;
                        let __taken3: u128 = ::ballot::__private::__spmd::lanes_where(
                            __cx,
                            &::ballot::__private::__spmd::map2(
                                __cx,
                                &__l5,
                                &__l0,
                                |a, b| a >= b,
                            ),
                        );
                        let __uniform3: bool = __cx.sched.enter(__active);
                        __active = (__outer3 & __taken3);
                        if __active != 0 {
                            '__b4: {
                                __brk1 = (__brk1 | __active);
                                __active = 0u128;
                                if __active == 0 {
                                    break '__b4;
                                }
                            }
                        }
                        __active = (((__outer3 & !__ret) & !__brk1) & !__cont1);
                        __cx.sched.join_if(__uniform3, __outer3, __taken3, __active);
                        if __active == 0 {
                            break '__b2;
                        }
                        let __t4 = ::ballot::__private::__spmd::elect(__cx, __active);
                        let __outer5: u128 = __active;
                        let __taken5: u128 = ::ballot::__private::__spmd::lanes_where(
                            __cx,
                            &__t4,
                        );
                        let __uniform5: bool = __cx.sched.enter(__active);
                        __active = (__outer5 & __taken5);
                        if __active != 0 {
                            '__b5: {
                                __cont1 = (__cont1 | __active);
                                __active = 0u128;
                                if __active == 0 {
                                    break '__b5;
                                }
                            }
                        }
                        __active = (((__outer5 & !__ret) & !__brk1) & !__cont1);
                        __cx.sched.join_if(__uniform5, __outer5, __taken5, __active);
                        if __active == 0 {
                            break '__b2;
                        }
                        let __t6 = ::ballot::__private::__spmd::ballot(
                            __cx,
                            __active,
                            &__cx.splat(true),
                        );
                        {
                            let __value = ::ballot::__private::__spmd::map2(
                                __cx,
                                &__l2,
                                &::ballot::__private::__spmd::bit_count(__cx, &__t6),
                                |a, b| ::ballot::__private::__spmd::Arith::add(a, b),
                            );
                            ::ballot::__private::__spmd::assign(
                                __cx,
                                &mut __l2,
                                &__value,
                                __active,
                            );
                        }
                    }
                }
                __active = ((__entry1 & !__brk1) & !__ret);
                if __active != 0 {
                    '__b6: {
                        {
                            let __value = ::ballot::__private::__spmd::map2(
                                __cx,
                                &__l3,
                                &__cx.splat(1u32),
                                |a, b| ::ballot::__private::__spmd::Arith::add(a, b),
                            );
                            ::ballot::__private::__spmd::assign(
                                __cx,
                                &mut __l3,
                                &__value,
                                __active,
                            );
                        }
                    }
                }
            }
            __active = (__entry1 & !__ret);
            __cx.sched.join_loop(__uniform1, __entry1, __active);
            let __outer7: u128 = __active;
            let __taken7: u128 = ::ballot::__private::__spmd::lanes_where(
                __cx,
                &::ballot::__private::__spmd::map2(
                    __cx,
                    &__l2,
                    &__cx.splat(0u32),
                    |a, b| a == b,
                ),
            );
            let __uniform7: bool = __cx.sched.enter(__active);
            __active = (__outer7 & __taken7);
            if __active != 0 {
                '__b7: {
                    let __t8 = ::ballot::__private::__spmd::broadcast_first(
                        __cx,
                        __active,
                        &__l0,
                    );
                    {
                        let __value = __t8;
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
                        break '__b7;
                    }
                }
            }
            __active = (__outer7 & !__ret);
            __cx.sched.join_if(__uniform7, __outer7, __taken7, __active);
            if __active == 0 {
                break '__b1;
            }
            {
                let __value = __l2;
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
