//! Kernels the front end refuses, each with its error and span.

use super::*;

#[test]
fn every_error_is_reported_at_once() {
    check_err(
        parse_quote! {
            fn k(a: u32) -> u32 {
                let b = a + true;
                let c = |x| x;
                b = 2;
                a
            }
        },
        &[
            "mismatched types: expected `u32`, found `bool`",
            "closures are not supported in a kernel",
            "cannot assign twice to immutable variable `b`",
        ],
    );
}

#[test]
fn signatures() {
    check_err(
        parse_quote! {
            async unsafe extern "C" fn k<'a, T, const N: usize>(&self, (a, b): (u32, u32), #[foo] c: u64, #[uniform(x)] d: u32, d: bool) -> &'a u32 where T: Copy {}
        },
        &[
            "`async` kernels are not supported",
            "`unsafe` kernels are not supported",
            "`extern` kernels are not supported",
            "lifetime parameters are not supported in a kernel",
            "generic parameters are not supported in a kernel",
            "const generic parameters are not supported in a kernel",
            "`where` clauses are not supported in a kernel",
            "references are not supported in a kernel",
            "`self` parameters are not supported in a kernel",
            "tuples are not supported in a kernel",
            "only plain identifiers can be bound in a kernel, found `(a, b)`",
            "unsupported attribute `#[foo]` on a kernel parameter; only `#[uniform]` is allowed",
            "unsupported type `u64` in a kernel; expected `bool`, `u32`, `i32`, `f32` or `SubgroupMask`",
            "`#[uniform]` takes no arguments",
            "identifier `d` is bound more than once in this parameter list",
        ],
    );
    check_err(
        parse_quote! { const fn k(x: [u32; 4], y: Vec<u32>) -> (u32, bool) {} },
        &[
            "`const` kernels are not supported",
            "tuples are not supported in a kernel",
            "arrays are not supported in a kernel",
            "unsupported type `Vec<u32>` in a kernel; expected `bool`, `u32`, `i32`, `f32` or `SubgroupMask`",
        ],
    );
}

#[test]
fn unsupported_expressions() {
    check_err(
        parse_quote! {
            fn k(a: u32) {
                let r = &a;
                let s = S { a };
                let f = a.field;
                let t = (a, a);
                let v = [a; 4];
                let i = v[0];
                match a { _ => {} }
                let q = a?;
                println!("{}", a);
                let u = unsafe { a };
                let g = 0..a;
                let h = "text";
                let c = 'c';
                let z = a.max(1);
                let w = *a;
            }
        },
        &[
            "references are not supported in a kernel",
            "struct literals are not supported in a kernel",
            "field access is not supported in a kernel",
            "tuples are not supported in a kernel",
            "arrays are not supported in a kernel",
            "indexing is not supported in a kernel",
            "`match` is not supported in a kernel; use `if` / `else`",
            "the `?` operator is not supported in a kernel",
            "macros are not supported in a kernel, found `println!`",
            "`unsafe` blocks are not supported in a kernel",
            "ranges are only supported as the iterable of a `for` loop in a kernel",
            "string literals are not supported in a kernel",
            "character literals are not supported in a kernel",
            "method calls are not supported in a kernel, except `contains`, `count` and `is_empty` on a `SubgroupMask`",
            "dereferences are not supported in a kernel",
        ],
    );
}

#[test]
fn erroneous_bindings_do_not_cascade() {
    // `v` failed to lower, so its uses are not checked again.
    check_err(
        parse_quote! {
            fn k(a: u32) -> u32 {
                let v = [a; 4];
                let w = v + 1;
                w * a
            }
        },
        &["arrays are not supported in a kernel"],
    );
}

#[test]
fn statements_and_items() {
    check_err(
        parse_quote! {
            fn k(a: u32) {
                fn helper() {}
                let x;
                let Some(y) = a else { return; };
                let (p, q) = (1, 2);
                #[allow(unused)]
                let z = 1;
                'outer: loop { break 'outer; }
                while let true = true {}
                if let 1 = a {}
            }
        },
        &[
            "items are not supported inside a kernel",
            "`let` without an initializer is not supported in a kernel; give the binding a value",
            "only plain identifiers can be bound in a kernel, found `Some(y)`",
            "`let ... else` statements are not supported in a kernel",
            "only plain identifiers can be bound in a kernel, found `(p, q)`",
            "tuples are not supported in a kernel",
            "attributes on statements are not supported in a kernel",
            "loop labels are not supported in a kernel",
            "`while let` loops are not supported in a kernel",
            "`if let` expressions are not supported in a kernel",
        ],
    );
}

#[test]
fn errors_inside_rejected_constructs_are_reported() {
    check_err(
        parse_quote! {
            fn k(a: u32) {
                let (p, q) = subgroup_elect();
                while let Some(x) = p { let r = x + q + missing; }
                for i in items { let s = &i; }
            }
        },
        &[
            "only plain identifiers can be bound in a kernel, found `(p, q)`",
            "`while let` loops are not supported in a kernel",
            "cannot find value `missing` in this kernel",
            "`for` loops in a kernel iterate over a range `a..b` only",
            "references are not supported in a kernel",
        ],
    );
}

#[test]
fn type_errors() {
    check_err(
        parse_quote! {
            fn k(a: u32, b: i32, f: f32, m: SubgroupMask, p: bool) -> u32 {
                let x: f32 = 1;
                let y = a + b;
                let z = -a;
                let w = p + p;
                let s = b << b;
                let c = f % 2.0 & f;
                let d = p as bool;
                let e = m as u32;
                let g = 300u8;
                let h = 1f64;
                let i: i32 = 2147483648;
                let j = -1u32;
                if a { }
                let n = if p { 1u32 } else { 2i32 };
                let o = if p { 1u32 };
                p
            }
        },
        &[
            "mismatched types: expected `f32`, found integer",
            "mismatched types: expected `u32`, found `i32`",
            "cannot apply unary operator `-` to type `u32`",
            "binary operation `+` cannot be applied to type `bool`",
            "mismatched types: expected `u32`, found `i32`",
            "binary operation `&` cannot be applied to type `f32`",
            "cannot cast to `bool` in a kernel; compare with zero instead: `x != 0`",
            "non-primitive cast: `SubgroupMask` as `u32`",
            "integer suffix `u8` is not supported in a kernel; use `u32` or `i32`",
            "float suffix `f64` is not supported in a kernel; use `f32`",
            "literal out of range for `i32`",
            "cannot apply unary operator `-` to type `u32`",
            "mismatched types: expected `bool`, found `u32`",
            "`if` and `else` have incompatible types: expected `u32`, found `i32`",
            "`if` may be missing an `else` clause",
            "mismatched types: expected `u32`, found `bool`",
        ],
    );
}

#[test]
fn assignment_errors() {
    check_err(
        parse_quote! {
            fn k(a: u32, mut b: u32) {
                a = 1;
                c = 2;
                b = true;
                b += 1i32;
                1 = b;
                for i in 0..4 { i = 2; }
            }
        },
        &[
            "cannot assign twice to immutable variable `a`",
            "cannot find value `c` in this kernel",
            "mismatched types: expected `u32`, found `bool`",
            "mismatched types: expected `u32`, found `i32`",
            "invalid left-hand side of assignment",
            "cannot assign twice to immutable variable `i`",
        ],
    );
}

#[test]
fn return_type_errors() {
    check_err(
        parse_quote! { fn k(a: u32) -> u32 { if a > 1 { return 1; } } },
        &["mismatched types: expected `u32`, found `()`"],
    );
    check_err(
        parse_quote! { fn k(a: u32) -> u32 { let b = a; } },
        &["mismatched types: expected `u32`, found `()`; the kernel's body does not return a value on every path"],
    );
    check_err(
        parse_quote! { fn k(a: u32) -> u32 { if a > 1 { return; } a } },
        &["mismatched types: expected `u32`, found `()`"],
    );
    check_err(
        parse_quote! { fn k(a: u32) { if a > 1 { return a; } a } },
        &[
            "mismatched types: expected `()`, found `u32`",
            "mismatched types: expected `()`, found `u32`",
        ],
    );
    check_err(
        parse_quote! { fn k(a: u32) -> u32 { while a > 1 { return a; }; } },
        &["mismatched types: expected `u32`, found `()`; the kernel's body does not return a value on every path"],
    );
}

#[test]
fn intrinsic_misuse() {
    check_err(
        parse_quote! {
            fn k(a: u32, p: bool) {
                let m = subgroup_ballot(p, p);
                let e = subgroup_elect(1);
                let b = subgroup_broadcast(a, a);
                let c = subgroup_ballot(a);
                let d = subgroup_ballot_bit_count(p);
                let f = subgroup_rotate(a);
                let g = SubgroupMask::from_words(a);
                let h = m.contains();
                let i = a.count();
                let j = subgroup_broadcast(a, 2i32);
                let l = subgroup_size(1);
            }
        },
        &[
            "`subgroup_ballot` takes 1 argument but 2 were supplied",
            "`subgroup_elect` takes 0 arguments but 1 was supplied",
            "the lane id of `subgroup_broadcast` must be a constant",
            "mismatched types: expected `bool`, found `u32`",
            "mismatched types: expected `SubgroupMask`, found `bool`",
            "unsupported subgroup intrinsic `subgroup_rotate`; kernels support spirv-std's ballot, vote, arithmetic (reductions, scans and clustered reductions), shuffle and quad intrinsics",
            "`SubgroupMask::from_words` is not supported in a kernel; use `SubgroupMask::lane` or `SubgroupMask::first`",
            "`contains` takes 1 argument but 0 were supplied",
            "method calls are not supported in a kernel, except `contains`, `count` and `is_empty` on a `SubgroupMask`",
            "mismatched types: expected `u32`, found `i32`",
            "`subgroup_size` takes 0 arguments but 1 was supplied",
        ],
    );
}

/// The rest of the family: spirv-std names an arithmetic operation by the
/// type it takes, and a quad's index and a swap's direction are constants.
#[test]
fn family_misuse() {
    check_err(
        parse_quote! {
            fn k(a: u32, x: f32, n: i32) {
                let b = subgroup_f_add(a);
                let c = subgroup_s_min(a);
                let d = subgroup_and(x);
                let e = subgroup_quad_broadcast(a, 4);
                let f = subgroup_quad_broadcast(a, a);
                let g = subgroup_quad_swap::<3>(a);
                let h = subgroup_quad_swap(a);
                let i = subgroup_shuffle_xor(a, n);
                let j = subgroup_all(a);
                let l = subgroup_i_add::<u32>(a);
            }
        },
        &[
            "`subgroup_f_add` takes `f32`, not `u32`; spirv-std names the operation by its type (`i_add` for integers, `f_add` for `f32`, `s_min`/`u_min`/`f_min`)",
            "`subgroup_s_min` takes `i32`, not `u32`; spirv-std names the operation by its type (`i_add` for integers, `f_add` for `f32`, `s_min`/`u_min`/`f_min`)",
            "`subgroup_and` takes `u32` or `i32`, not `f32`; spirv-std names the operation by its type (`i_add` for integers, `f_add` for `f32`, `s_min`/`u_min`/`f_min`)",
            "the index of `subgroup_quad_broadcast` must be below 4, not 4",
            "the lane id of `subgroup_quad_broadcast` must be a constant",
            "`subgroup_quad_swap` takes its direction as a constant generic argument: `subgroup_quad_swap::<0>` (horizontal), `::<1>` (vertical) or `::<2>` (diagonal)",
            "`subgroup_quad_swap` takes its direction as a constant generic argument: `subgroup_quad_swap::<0>` (horizontal), `::<1>` (vertical) or `::<2>` (diagonal)",
            "mismatched types: expected `u32`, found `i32`",
            "mismatched types: expected `bool`, found `u32`",
            "generic arguments are not supported in a kernel",
        ],
    );
}

/// The clustered reductions: the cluster size is spirv-std's first const
/// generic argument, a literal power of two from 1 to 128; the value's type
/// is named by the operation, as for the other arithmetic.
#[test]
fn clustered_misuse() {
    check_err(
        parse_quote! {
            fn k(a: u32, x: f32, n: i32) {
                let b = subgroup_clustered_i_add(a);
                let c = subgroup_clustered_i_add::<3, _>(a);
                let d = subgroup_clustered_i_add::<0>(a);
                let e = subgroup_clustered_or::<256, _>(a);
                let f = subgroup_clustered_u_max::<N, _>(a);
                let g = subgroup_clustered_f_add::<4, _>(a);
                let h = subgroup_clustered_and::<4, _>(x);
                let i = subgroup_clustered_s_min::<2, u32>(n);
                let j = subgroup_clustered_xor::<2, _>(a, a);
                let l = subgroup_clustered_u_min::<2, i32>(n);
                let o = subgroup_clustered_or::<2, [u32; 2]>(a);
            }
        },
        &[
            "`subgroup_clustered_i_add` takes its cluster size as a constant generic argument, a power of two from 1 to 128: `subgroup_clustered_i_add::<4, _>(value)`",
            "the cluster size of `subgroup_clustered_i_add` must be a power of two from 1 to 128, not 3",
            "the cluster size of `subgroup_clustered_i_add` must be a power of two from 1 to 128, not 0",
            "the cluster size of `subgroup_clustered_or` must be a power of two from 1 to 128, not 256",
            "`subgroup_clustered_u_max` takes its cluster size as a constant generic argument, a power of two from 1 to 128: `subgroup_clustered_u_max::<4, _>(value)`",
            "`subgroup_clustered_f_add` takes `f32`, not `u32`; spirv-std names the operation by its type (`i_add` for integers, `f_add` for `f32`, `s_min`/`u_min`/`f_min`)",
            "`subgroup_clustered_and` takes `u32` or `i32`, not `f32`; spirv-std names the operation by its type (`i_add` for integers, `f_add` for `f32`, `s_min`/`u_min`/`f_min`)",
            "mismatched types: expected `u32`, found `i32`",
            "`subgroup_clustered_xor` takes 1 argument but 2 were supplied",
            "`subgroup_clustered_u_min` takes `u32`, not `i32`; spirv-std names the operation by its type (`i_add` for integers, `f_add` for `f32`, `s_min`/`u_min`/`f_min`)",
            "arrays are not supported in a kernel",
        ],
    );
}

#[test]
fn call_errors() {
    check_err(
        parse_quote! {
            fn walk(a: u32) -> u32 {
                let b = helper(a);
                let c: u32 = walk(a);
                let d: u32 = other(1);
                let e: u32 = generic::<u32>(a);
                (get())(a);
                a
            }
        },
        &[
            "cannot infer the return type of kernel `helper`; annotate the binding: `let x: u32 = helper(..)`",
            "recursion is not supported: `walk` calls itself",
            "cannot infer the type of `1` passed to kernel `other`; add a suffix: `1u32` or `1i32`",
            "generic arguments are not supported in a kernel",
            "only named functions can be called in a kernel",
        ],
    );
}

#[test]
fn control_flow_errors() {
    check_err(
        parse_quote! {
            fn k(a: u32) {
                break;
                continue;
                loop { break 1; }
                for i in 0..=a {}
                for i in 0.0..1.0 {}
                for i in a.. {}
                for x in items {}
                'b: { }
            }
        },
        &[
            "`break` outside of a loop",
            "`continue` outside of a loop",
            "`break` with a value is not supported in a kernel",
            "inclusive ranges `a..=b` are not supported in a kernel",
            "`for` ranges in a kernel must be `u32` or `i32`, found `f32`",
            "`for` ranges in a kernel need both bounds: `a..b`",
            "`for` loops in a kernel iterate over a range `a..b` only",
            "labeled blocks are not supported in a kernel",
        ],
    );
}

#[test]
fn unknown_names() {
    check_err(
        parse_quote! {
            fn k(a: u32) -> u32 {
                let b = { let inner = 1u32; inner };
                inner + b + other::CONST + SubgroupMask::NONE
            }
        },
        &[
            "cannot find value `inner` in this kernel",
            "cannot find value `other::CONST` in this kernel",
            "cannot find value `SubgroupMask::NONE` in this kernel",
        ],
    );
}

/// A call of an operation's name is the operation: a kernel named like
/// one would be passed over where it is called (Rust would call the
/// kernel), so the name is refused; a kernel whose name merely starts
/// like one is not.
#[test]
fn a_kernel_named_like_an_operation() {
    for name in ["subgroup_size", "subgroup_ballot", "subgroup_i_add"] {
        let ident = syn::Ident::new(name, proc_macro2::Span::call_site());
        check_err(
            parse_quote! { fn #ident() -> u32 { 5 } },
            &[&format!(
                "a kernel cannot be named `{name}`: in kernels a call of `{name}` is the \
                 subgroup operation; rename it"
            )],
        );
    }
    lowered(parse_quote! { fn subgroup_kept(keep: bool) -> u32 { u32::from(keep) } });
}
