const _: usize = compaction_slot::__DEPTH;
/// The output slot of each kept element.
/**

`#[ballot::kernel]`: run it with [`compaction_slot::run`] over one subgroup or [`compaction_slot::run_dispatch`] over a dispatch. Parameters: `keep: bool` (per-lane).*/
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct compaction_slot;
#[allow(dead_code)]
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
        let cx = ::ballot::__private::__rt::Cx::new(subgroup);
        let keep = ::ballot::__private::__rt::load(&cx, "keep", keep)?;
        let out = Self::__simd(&cx, subgroup.active().bits(), &keep)?;
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
        keep: &[bool],
    ) -> ::core::result::Result<::std::vec::Vec<u32>, ::ballot::__private::SimError> {
        ::ballot::__private::__rt::check_len("keep", keep, dispatch.invocation_count())?;
        let mut out = ::std::vec::Vec::with_capacity(dispatch.invocation_count());
        for sg in dispatch.subgroups() {
            let cx = ::ballot::__private::__rt::Cx::new(&sg.subgroup);
            let count = sg.subgroup.active().count() as usize;
            let range = sg.first_invocation..sg.first_invocation + count;
            let keep = ::ballot::__private::__rt::V::from_slice(&keep[range.clone()]);
            let result = Self::__simd(&cx, sg.subgroup.active().bits(), &keep)?;
            out.extend_from_slice(&result.0[..count]);
        }
        ::core::result::Result::Ok(out)
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
    pub fn __simd(
        __cx: &::ballot::__private::__rt::Cx,
        __entry: u128,
        __p0: &::ballot::__private::__rt::V<bool>,
    ) -> ::core::result::Result<
        ::ballot::__private::__rt::V<u32>,
        ::ballot::__private::SimError,
    > {
        let mut __l0 = *__p0;
        let mut __l1: ::ballot::__private::__rt::V<::ballot::__private::SubgroupMask> = ::core::default::Default::default();
        let mut __ret_val: ::ballot::__private::__rt::V<u32> = ::core::default::Default::default();
        let mut __ret: u128 = 0;
        let mut __active: u128 = __entry;
        '__b1: {
            {
                let __value = ::ballot::__private::__rt::ballot(__cx, __active, &__l0);
                ::ballot::__private::__rt::assign(__cx, &mut __l1, &__value, __active);
            }
            {
                let __value = ::ballot::__private::__rt::exclusive_bit_count(
                    __cx,
                    &__l1,
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
                break '__b1;
            }
        }
        ::core::result::Result::Ok(__ret_val)
    }
}
