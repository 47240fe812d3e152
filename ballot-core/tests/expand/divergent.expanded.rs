const _: usize = divergent::__DEPTH;
/**

`#[ballot::kernel]`: run it with [`divergent::run`] over one subgroup or [`divergent::run_dispatch`] over a dispatch. Parameters: `n: u32` (per-lane), `limit: u32` (uniform).*/
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct divergent;
#[allow(dead_code)]
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
        match ::ballot::__private::__rt::width(subgroup.size()) {
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
        let cx = ::ballot::__private::__rt::Cx::<__N>::new(subgroup);
        let n = ::ballot::__private::__rt::load(&cx, "n", n)?;
        let limit = cx.splat(limit);
        let out = Self::__simd(&cx, subgroup.active().bits(), &n, &limit)?;
        ::core::result::Result::Ok(::ballot::__private::__rt::store(subgroup, &out))
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
        ::ballot::__private::__rt::check_len("n", n, dispatch.invocation_count())?;
        if out.len() != dispatch.invocation_count() {
            return ::core::result::Result::Err(::ballot::__private::SimError::OutputLength {
                expected: dispatch.invocation_count(),
                got: out.len(),
            });
        }
        match ::ballot::__private::__rt::width(dispatch.subgroup_size()) {
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
            let cx = ::ballot::__private::__rt::Cx::<__N>::new(&sg.subgroup);
            let count = sg.subgroup.active().count() as usize;
            let range = sg.first_invocation..sg.first_invocation + count;
            let n = ::ballot::__private::__rt::V::from_slice(&n[range.clone()]);
            let limit = cx.splat(limit);
            let result = Self::__simd(&cx, sg.subgroup.active().bits(), &n, &limit)?;
            out[range].copy_from_slice(&result.0[..count]);
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
    /// The depth of the call graph below this kernel. Mutual
    /// recursion makes evaluating it a compile error.
    #[doc(hidden)]
    pub const __DEPTH: usize = {
        let mut depth = 0;
        depth + 1
    };
    /// The kernel's IR, which every shader backend reads.
    pub fn ir() -> &'static ::ballot::__private::ir::Kernel {
        static IR: ::std::sync::OnceLock<::ballot::__private::ir::Kernel> = ::std::sync::OnceLock::new();
        IR.get_or_init(|| ::ballot::__private::lower_validated(Self::SOURCE))
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
        __cx: &::ballot::__private::__rt::Cx<__N>,
        __entry: u128,
        __p0: &::ballot::__private::__rt::V<u32, __N>,
        __p1: &::ballot::__private::__rt::V<u32, __N>,
    ) -> ::core::result::Result<
        ::ballot::__private::__rt::V<u32, __N>,
        ::ballot::__private::SimError,
    > {
        let mut __l0 = *__p0;
        let mut __l1 = *__p1;
        let mut __l2: ::ballot::__private::__rt::V<u32, __N> = ::core::default::Default::default();
        let mut __l3: ::ballot::__private::__rt::V<u32, __N> = ::core::default::Default::default();
        let mut __l4: ::ballot::__private::__rt::V<u32, __N> = ::core::default::Default::default();
        let mut __l5: ::ballot::__private::__rt::V<u32, __N> = ::core::default::Default::default();
        let mut __ret_val: ::ballot::__private::__rt::V<u32, __N> = ::core::default::Default::default();
        let mut __ret: u128 = 0;
        let mut __active: u128 = __entry;
        '__b1: {
            {
                let __value = __cx.splat(0u32);
                ::ballot::__private::__rt::assign(__cx, &mut __l2, &__value, __active);
            }
            {
                let __value = __cx.splat(0u32);
                ::ballot::__private::__rt::assign(__cx, &mut __l3, &__value, __active);
            }
            {
                let __value = __l1;
                ::ballot::__private::__rt::assign(__cx, &mut __l4, &__value, __active);
            }
            {
                let __entry_lanes: u128 = __active;
                let mut __brk: u128 = 0;
                loop {
                    let mut __cont: u128 = 0;
                    let mut __active: u128 = __entry_lanes & !(__brk | __ret);
                    if __active == 0 {
                        break;
                    }
                    __cx.step("divergent", __active)?;
                    '__b2: {
                        {
                            let __taken: u128 = ::ballot::__private::__rt::lanes_where(
                                __cx,
                                &::ballot::__private::__rt::map1(
                                    __cx,
                                    &::ballot::__private::__rt::map2(
                                        __cx,
                                        &__l3,
                                        &__l4,
                                        |a, b| a < b,
                                    ),
                                    |x| !x,
                                ),
                            );
                            let __outer: u128 = __active;
                            let __lanes: u128 = __outer & __taken;
                            if __lanes != 0 {
                                let mut __active: u128 = __lanes;
                                '__b3: {
                                    __brk |= __active;
                                    __active = 0;
                                    __active &= !(__ret | __brk | __cont);
                                    if __active == 0 {
                                        break '__b3;
                                    }
                                }
                            }
                        }
                        __active &= !(__ret | __brk | __cont);
                        if __active == 0 {
                            break '__b2;
                        }
                        {
                            let __value = __l3;
                            ::ballot::__private::__rt::assign(
                                __cx,
                                &mut __l5,
                                &__value,
                                __active,
                            );
                        }
                        {
                            let __taken: u128 = ::ballot::__private::__rt::lanes_where(
                                __cx,
                                &::ballot::__private::__rt::map2(
                                    __cx,
                                    &__l5,
                                    &__l0,
                                    |a, b| a >= b,
                                ),
                            );
                            let __outer: u128 = __active;
                            let __lanes: u128 = __outer & __taken;
                            if __lanes != 0 {
                                let mut __active: u128 = __lanes;
                                '__b4: {
                                    __brk |= __active;
                                    __active = 0;
                                    __active &= !(__ret | __brk | __cont);
                                    if __active == 0 {
                                        break '__b4;
                                    }
                                }
                            }
                        }
                        __active &= !(__ret | __brk | __cont);
                        if __active == 0 {
                            break '__b2;
                        }
                        {
                            let __taken: u128 = ::ballot::__private::__rt::lanes_where(
                                __cx,
                                &::ballot::__private::__rt::elect(__cx, __active),
                            );
                            let __outer: u128 = __active;
                            let __lanes: u128 = __outer & __taken;
                            if __lanes != 0 {
                                let mut __active: u128 = __lanes;
                                '__b5: {
                                    __cont |= __active;
                                    __active = 0;
                                    __active &= !(__ret | __brk | __cont);
                                    if __active == 0 {
                                        break '__b5;
                                    }
                                }
                            }
                        }
                        __active &= !(__ret | __brk | __cont);
                        if __active == 0 {
                            break '__b2;
                        }
                        {
                            let __value = ::ballot::__private::__rt::map2(
                                __cx,
                                &__l2,
                                &::ballot::__private::__rt::bit_count(
                                    __cx,
                                    &::ballot::__private::__rt::ballot(
                                        __cx,
                                        __active,
                                        &__cx.splat(true),
                                    ),
                                ),
                                |a, b| ::ballot::__private::__rt::Arith::add(a, b),
                            );
                            ::ballot::__private::__rt::assign(
                                __cx,
                                &mut __l2,
                                &__value,
                                __active,
                            );
                        }
                    }
                    let mut __active: u128 = __entry_lanes & !(__brk | __ret);
                    if __active == 0 {
                        break;
                    }
                    '__b6: {
                        {
                            let __value = ::ballot::__private::__rt::map2(
                                __cx,
                                &__l3,
                                &__cx.splat(1u32),
                                |a, b| ::ballot::__private::__rt::Arith::add(a, b),
                            );
                            ::ballot::__private::__rt::assign(
                                __cx,
                                &mut __l3,
                                &__value,
                                __active,
                            );
                        }
                    }
                }
                __active = __entry_lanes & !__ret;
            }
            {
                let __taken: u128 = ::ballot::__private::__rt::lanes_where(
                    __cx,
                    &::ballot::__private::__rt::map2(
                        __cx,
                        &__l2,
                        &__cx.splat(0u32),
                        |a, b| a == b,
                    ),
                );
                let __outer: u128 = __active;
                let __lanes: u128 = __outer & __taken;
                if __lanes != 0 {
                    let mut __active: u128 = __lanes;
                    '__b7: {
                        {
                            let __value = ::ballot::__private::__rt::broadcast_first(
                                __cx,
                                __active,
                                &__l0,
                            );
                            ::ballot::__private::__rt::assign(
                                __cx,
                                &mut __ret_val,
                                &__value,
                                __active,
                            );
                        }
                        __ret |= __active;
                        __active = 0;
                        __active &= !__ret;
                        if __active == 0 {
                            break '__b7;
                        }
                    }
                }
            }
            __active &= !__ret;
            if __active == 0 {
                break '__b1;
            }
            {
                let __value = __l2;
                ::ballot::__private::__rt::assign(
                    __cx,
                    &mut __ret_val,
                    &__value,
                    __active,
                );
            }
            __ret |= __active;
            __active = 0;
            __active &= !__ret;
            if __active == 0 {
                break '__b1;
            }
        }
        ::core::result::Result::Ok(__ret_val)
    }
}
