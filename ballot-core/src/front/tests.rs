//! Tests of the front end: the IR of representative kernels, printed as
//! Rust-like text, and the messages of rejected ones.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use syn::parse_quote;

use super::{invariants, lower, Lowered};
use crate::ir::{Expr, Handle, Kernel, Literal, Local, MaskFn, Stmt, UnaryOp};
use crate::mask::SubgroupMask;

/// Lowers `item`, which must be accepted, and checks the IR invariants.
#[track_caller]
fn lowered(item: syn::ItemFn) -> Lowered {
    let lowered = match lower(&item) {
        Ok(lowered) => lowered,
        Err(errors) => panic!("unexpected errors: {:#?}", messages(errors)),
    };
    if let Err(broken) = invariants::check(&lowered) {
        panic!("IR invariant broken: {broken}\n{}", render(&lowered.kernel));
    }
    lowered
}

/// Asserts the printed IR of `item`.
#[track_caller]
fn check_ir(item: syn::ItemFn, expected: &str) {
    let text = render(&lowered(item).kernel);
    let expected: Vec<&str> = expected.trim().lines().map(str::trim_end).collect();
    let expected = dedent(&expected);
    assert_eq!(text.trim_end(), expected.trim_end(), "\nfound:\n{text}");
}

/// Asserts that `item` is rejected with exactly these messages, in order.
#[track_caller]
fn check_err(item: syn::ItemFn, expected: &[&str]) {
    let errors = match lower(&item) {
        Ok(lowered) => panic!("expected errors, lowered to:\n{}", render(&lowered.kernel)),
        Err(errors) => messages(errors),
    };
    assert_eq!(errors, expected);
}

fn messages(errors: syn::Error) -> Vec<String> {
    errors.into_iter().map(|e| e.to_string()).collect()
}

fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut text = String::new();
    for (i, line) in lines.iter().enumerate() {
        let line = if i == 0 {
            line.trim_start()
        } else {
            line.get(indent..).unwrap_or("")
        };
        let _ = writeln!(text, "{line}");
    }
    text
}

/// Prints a kernel as Rust-like text: the first store of a local is its
/// `let`.
fn render(kernel: &Kernel) -> String {
    let mut printer = Printer {
        k: kernel,
        text: String::new(),
        declared: kernel.params.iter().map(|p| p.local).collect(),
    };
    printer.header();
    printer.block(&kernel.body, 0);
    printer.text
}

struct Printer<'k> {
    k: &'k Kernel,
    text: String,
    declared: BTreeSet<Handle<Local>>,
}

impl Printer<'_> {
    fn header(&mut self) {
        let params: Vec<String> = self
            .k
            .params
            .iter()
            .map(|p| {
                let local = &self.k.locals[p.local];
                let uniform = if p.uniform { "#[uniform] " } else { "" };
                let mutable = if local.mutable { "mut " } else { "" };
                format!("{uniform}{mutable}{}: {}", local.name, local.ty)
            })
            .collect();
        let ret = self.k.ret.map(|t| format!(" -> {t}")).unwrap_or_default();
        let _ = writeln!(self.text, "fn {}({}){ret}", self.k.name, params.join(", "));
    }

    fn line(&mut self, depth: usize, line: &str) {
        let _ = writeln!(self.text, "{:width$}{line}", "", width = depth * 4);
    }

    fn block(&mut self, block: &[Handle<Stmt>], depth: usize) {
        for &stmt in block {
            self.stmt(stmt, depth);
        }
    }

    fn stmt(&mut self, stmt: Handle<Stmt>, depth: usize) {
        match &self.k.stmts[stmt] {
            Stmt::Assign { local, value } => {
                let value = self.expr(*value);
                let l = &self.k.locals[*local];
                let line = if self.declared.insert(*local) {
                    let mutable = if l.mutable { "mut " } else { "" };
                    format!("let {mutable}{}: {} = {value};", l.name, l.ty)
                } else {
                    format!("{} = {value};", l.name)
                };
                self.line(depth, &line);
            }
            Stmt::Eval(value) => {
                let line = format!("{};", self.expr(*value));
                self.line(depth, &line);
            }
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                let line = format!("if {} {{", self.expr(*cond));
                self.line(depth, &line);
                self.block(accept, depth + 1);
                if !reject.is_empty() {
                    self.line(depth, "} else {");
                    self.block(reject, depth + 1);
                }
                self.line(depth, "}");
            }
            Stmt::Loop { body, continuing } => {
                self.line(depth, "loop {");
                self.block(body, depth + 1);
                if !continuing.is_empty() {
                    self.line(depth, "} continuing {");
                    self.block(continuing, depth + 1);
                }
                self.line(depth, "}");
            }
            Stmt::Break => self.line(depth, "break;"),
            Stmt::Continue => self.line(depth, "continue;"),
            Stmt::Return(None) => self.line(depth, "return;"),
            Stmt::Return(Some(value)) => {
                let line = format!("return {};", self.expr(*value));
                self.line(depth, &line);
            }
        }
    }

    fn expr(&self, expr: Handle<Expr>) -> String {
        let list = |args: &[Handle<Expr>]| {
            args.iter()
                .map(|&a| self.expr(a))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match &self.k.exprs[expr] {
            Expr::Literal(literal) => render_literal(*literal),
            Expr::Load(local) => self.k.locals[*local].name.clone(),
            Expr::Unary { op, arg } => {
                let op = if *op == UnaryOp::Neg { "-" } else { "!" };
                format!("{op}{}", self.expr(*arg))
            }
            Expr::Binary { op, left, right } => {
                format!(
                    "({} {} {})",
                    self.expr(*left),
                    op.symbol(),
                    self.expr(*right)
                )
            }
            Expr::Cast { arg, to } => format!("({} as {to})", self.expr(*arg)),
            Expr::Select {
                cond,
                accept,
                reject,
            } => format!("select({})", list(&[*cond, *accept, *reject])),
            Expr::LaneId => "subgroup_local_invocation_id()".into(),
            Expr::SubgroupSize => "subgroup_size()".into(),
            Expr::Mask { fun, args } => match fun {
                MaskFn::Lane => format!("SubgroupMask::lane({})", list(args)),
                MaskFn::First => format!("SubgroupMask::first({})", list(args)),
                MaskFn::Contains => {
                    format!("{}.contains({})", self.expr(args[0]), list(&args[1..]))
                }
                MaskFn::Count => format!("{}.count()", self.expr(args[0])),
                MaskFn::IsEmpty => format!("{}.is_empty()", self.expr(args[0])),
            },
            Expr::Op { op, args } => format!("{}({})", op.spirv_std_name(), list(args)),
            Expr::Call { callee, args } => format!("{callee}({})", list(args)),
        }
    }
}

fn render_literal(literal: Literal) -> String {
    match literal {
        Literal::Bool(b) => b.to_string(),
        Literal::U32(v) => format!("{v}u32"),
        Literal::I32(v) => format!("{v}i32"),
        Literal::F32(v) => format!("{v:?}f32"),
        Literal::Mask(SubgroupMask::EMPTY) => "SubgroupMask::EMPTY".into(),
        Literal::Mask(SubgroupMask::ALL) => "SubgroupMask::ALL".into(),
        Literal::Mask(m) => format!("SubgroupMask({:#x})", m.bits()),
    }
}

// ---------------------------------------------------------------- accepted

#[test]
fn literals_take_their_type_from_the_context() {
    check_ir(
        parse_quote! {
            pub fn k(a: u32, #[uniform] b: i32, mut c: f32) -> u32 {
                let x = a + 1;
                let y = 2 * b;
                let z: u32 = 7;
                let w = 1 == a;
                c = c * 2.5;
                let d = 3;
                x << 2
            }
        },
        "
        fn k(a: u32, #[uniform] b: i32, mut c: f32) -> u32
        let x: u32 = (a + 1u32);
        let y: i32 = (2i32 * b);
        let z: u32 = 7u32;
        let w: bool = (1u32 == a);
        c = (c * 2.5f32);
        let d: i32 = 3i32;
        return (x << 2u32);
        ",
    );
}

#[test]
fn negative_literals_fold_and_constants_resolve() {
    check_ir(
        parse_quote! {
            fn k(x: f32) -> i32 {
                let a = -2147483648i32;
                let b = -x;
                let c = u32::MAX;
                let d = i32::MIN;
                let f = f32::NEG_INFINITY + f32::MAX;
                let e = 1f32;
                let m = SubgroupMask::ALL ^ ballot::SubgroupMask::EMPTY;
                -(a + 1)
            }
        },
        "
        fn k(x: f32) -> i32
        let a: i32 = -2147483648i32;
        let b: f32 = -x;
        let c: u32 = 4294967295u32;
        let d: i32 = -2147483648i32;
        let f: f32 = (-inff32 + 3.4028235e38f32);
        let e: f32 = 1.0f32;
        let m: SubgroupMask = (SubgroupMask::ALL ^ SubgroupMask::EMPTY);
        return -(a + 1i32);
        ",
    );
}

#[test]
fn casts_operators_and_shadowing() {
    check_ir(
        parse_quote! {
            fn k(a: u32, b: bool) -> f32 {
                let a = a as i32;
                let n = !b && a >= 0 || b;
                let s = (a >> 3) as f32;
                let t = { let a = 2.0; a * s };
                t + (n as u32) as f32
            }
        },
        "
        fn k(a: u32, b: bool) -> f32
        let a: i32 = (a as i32);
        let n: bool = ((!b && (a >= 0i32)) || b);
        let s: f32 = ((a >> 3u32) as f32);
        let a: f32 = 2.0f32;
        let t: f32 = (a * s);
        return (t + ((n as u32) as f32));
        ",
    );
}

#[test]
fn compound_assignment_loads_after_the_right_operand() {
    check_ir(
        parse_quote! {
            fn k(mut x: u32, mut y: i32) {
                x += 1;
                x <<= 2;
                y %= -3;
                x ^= subgroup_ballot(true).count();
            }
        },
        "
        fn k(mut x: u32, mut y: i32)
        x = (x + 1u32);
        x = (x << 2u32);
        y = (y % -3i32);
        x = (x ^ subgroup_ballot(true).count());
        ",
    );
}

#[test]
fn pure_if_expressions_become_selects() {
    check_ir(
        parse_quote! {
            fn k(a: u32, b: u32) -> u32 {
                let c = if a < b { a } else if a == b { 0 } else { b - a };
                if c > 2 { c } else { subgroup_local_invocation_id() }
            }
        },
        "
        fn k(a: u32, b: u32) -> u32
        let c: u32 = select((a < b), a, select((a == b), 0u32, (b - a)));
        return select((c > 2u32), c, subgroup_local_invocation_id());
        ",
    );
}

#[test]
fn collective_if_expressions_are_hoisted() {
    check_ir(
        parse_quote! {
            fn k(p: bool) -> u32 {
                let n = if p {
                    subgroup_ballot_bit_count(subgroup_ballot(true))
                } else {
                    let m = subgroup_ballot(false);
                    m.count()
                };
                n
            }
        },
        "
        fn k(p: bool) -> u32
        if p {
            let _if0: u32 = subgroup_ballot_bit_count(subgroup_ballot(true));
        } else {
            let m: SubgroupMask = subgroup_ballot(false);
            _if0 = m.count();
        }
        let n: u32 = _if0;
        return n;
        ",
    );
}

#[test]
fn an_arm_that_returns_stores_nothing() {
    check_ir(
        parse_quote! {
            fn k(p: bool) -> u32 {
                let n = if p { 1 } else { return 7; };
                n + 1
            }
        },
        "
        fn k(p: bool) -> u32
        if p {
            let _if0: u32 = 1u32;
        } else {
            return 7u32;
        }
        let n: u32 = _if0;
        return (n + 1u32);
        ",
    );
}

#[test]
fn lazy_operands_with_collectives_are_hoisted() {
    check_ir(
        parse_quote! {
            fn k(p: bool, q: bool) -> bool {
                let a = p && q;
                let b = p && subgroup_elect();
                q || subgroup_inverse_ballot(subgroup_ballot(p))
            }
        },
        "
        fn k(p: bool, q: bool) -> bool
        let a: bool = (p && q);
        let mut _and0: bool = p;
        if _and0 {
            _and0 = subgroup_elect();
        }
        let b: bool = _and0;
        let mut _or1: bool = q;
        if _or1 {
        } else {
            _or1 = subgroup_inverse_ballot(subgroup_ballot(p));
        }
        return _or1;
        ",
    );
}

#[test]
fn operands_before_a_hoisted_one_are_spilled() {
    check_ir(
        parse_quote! {
            fn k(mut x: u32, c: u32) -> u32 {
                let y = x + { x = 5; x };
                let z = c + subgroup_broadcast_first(x) * if c > 0 { subgroup_ballot(true).count() } else { 0 };
                y + z
            }
        },
        "
        fn k(mut x: u32, c: u32) -> u32
        let _tmp0: u32 = x;
        x = 5u32;
        let y: u32 = (_tmp0 + x);
        let _tmp2: u32 = subgroup_broadcast_first(x);
        if (c > 0u32) {
            let _if1: u32 = subgroup_ballot(true).count();
        } else {
            _if1 = 0u32;
        }
        let z: u32 = (c + (_tmp2 * _if1));
        return (y + z);
        ",
    );
}

#[test]
fn while_loops_check_first() {
    check_ir(
        parse_quote! {
            fn k(mut n: u32) -> u32 {
                while n > 1 {
                    if n % 2 == 0 { n /= 2; continue; }
                    n = 3 * n + 1;
                }
                while subgroup_elect() {
                    break;
                }
                n
            }
        },
        "
        fn k(mut n: u32) -> u32
        loop {
            if !(n > 1u32) {
                break;
            }
            if ((n % 2u32) == 0u32) {
                n = (n / 2u32);
                continue;
            }
            n = ((3u32 * n) + 1u32);
        }
        loop {
            let _while0: bool = subgroup_elect();
            if !_while0 {
                break;
            }
            break;
        }
        return n;
        ",
    );
}

#[test]
fn for_loops_count_over_a_range() {
    check_ir(
        parse_quote! {
            fn k(n: u32) -> u32 {
                let mut sum = 0;
                for i in 0..n {
                    if i == 3 { continue; }
                    sum += i;
                }
                for _ in -2..2 {}
                sum
            }
        },
        "
        fn k(n: u32) -> u32
        let mut sum: u32 = 0u32;
        let mut _for0: u32 = 0u32;
        let _end1: u32 = n;
        loop {
            if !(_for0 < _end1) {
                break;
            }
            let i: u32 = _for0;
            if (i == 3u32) {
                continue;
            }
            sum = (sum + i);
        } continuing {
            _for0 = (_for0 + 1u32);
        }
        let mut _for2: i32 = -2i32;
        let _end3: i32 = 2i32;
        loop {
            if !(_for2 < _end3) {
                break;
            }
        } continuing {
            _for2 = (_for2 + 1i32);
        }
        return sum;
        ",
    );
}

#[test]
fn loops_that_only_return_diverge() {
    check_ir(
        parse_quote! {
            fn k(a: u32) -> u32 {
                let mut i = 0u32;
                loop {
                    if subgroup_ballot(i == a).is_empty() { return i; }
                    i += 1;
                }
            }
        },
        "
        fn k(a: u32) -> u32
        let mut i: u32 = 0u32;
        loop {
            if subgroup_ballot((i == a)).is_empty() {
                return i;
            }
            i = (i + 1u32);
        }
        ",
    );
}

#[test]
fn intrinsics_by_any_path_and_the_mask_api() {
    check_ir(
        parse_quote! {
            fn k(x: f32, m: SubgroupMask) -> bool {
                let a = ballot::prelude::subgroup_ballot(x > 0.0);
                let b = spirv_std::arch::subgroup_ballot_find_lsb(a | subgroup_lt_mask());
                let c = subgroup_broadcast(x, 3);
                let d = subgroup_broadcast_first(m);
                let e = SubgroupMask::lane(b) | SubgroupMask::first(subgroup_size());
                e.contains(subgroup_local_invocation_id()) && !d.is_empty()
            }
        },
        "
        fn k(x: f32, m: SubgroupMask) -> bool
        let a: SubgroupMask = subgroup_ballot((x > 0.0f32));
        let b: u32 = subgroup_ballot_find_lsb((a | subgroup_lt_mask()));
        let c: f32 = subgroup_broadcast(x, 3u32);
        let d: SubgroupMask = subgroup_broadcast_first(m);
        let e: SubgroupMask = (SubgroupMask::lane(b) | SubgroupMask::first(subgroup_size()));
        return (e.contains(subgroup_local_invocation_id()) && !d.is_empty());
        ",
    );
}

#[test]
fn kernel_calls_take_their_type_from_the_context() {
    check_ir(
        parse_quote! {
            fn k(x: u32) -> u32 {
                let a: i32 = helpers::slot(x, 2u32);
                let b = offset(a) + 1u32;
                if subgroup_ballot(flag(b)).count() > 0 { return self::next(b); }
                ::other::last()
            }
        },
        "
        fn k(x: u32) -> u32
        let a: i32 = helpers::slot(x, 2u32);
        let b: u32 = (offset(a) + 1u32);
        if (subgroup_ballot(flag(b)).count() > 0u32) {
            return self::next(b);
        }
        return ::other::last();
        ",
    );
}

#[test]
fn unit_kernels_evaluate_statements_for_effects() {
    check_ir(
        parse_quote! {
            fn k(p: bool) {
                if p { return; }
                subgroup_ballot(p);
                let _ = subgroup_elect();
                if subgroup_elect() { subgroup_ballot(true) } else { SubgroupMask::EMPTY };
            }
        },
        "
        fn k(p: bool)
        if p {
            return;
        }
        subgroup_ballot(p);
        subgroup_elect();
        if subgroup_elect() {
            subgroup_ballot(true);
        } else {
            SubgroupMask::EMPTY;
        }
        ",
    );
}

#[test]
fn bindings_take_their_type_from_later_uses() {
    check_ir(
        parse_quote! {
            fn k(m: SubgroupMask, x: u32) -> u32 {
                let mut hits = 0;
                for i in 0..4 {
                    if m.contains(i) { hits += 1; }
                }
                let y = helper(x);
                let z = y * hits;
                let w = if x > 2 { 1 } else { x };
                hits + z + w
            }
        },
        "
        fn k(m: SubgroupMask, x: u32) -> u32
        let mut hits: u32 = 0u32;
        let mut _for0: u32 = 0u32;
        let _end1: u32 = 4u32;
        loop {
            if !(_for0 < _end1) {
                break;
            }
            let i: u32 = _for0;
            if m.contains(i) {
                hits = (hits + 1u32);
            }
        } continuing {
            _for0 = (_for0 + 1u32);
        }
        let y: u32 = helper(x);
        let z: u32 = (y * hits);
        let w: u32 = select((x > 2u32), 1u32, x);
        return ((hits + z) + w);
        ",
    );
}

#[test]
fn spans_are_recorded_for_every_node() {
    let lowered = lowered(parse_quote! {
        fn k(a: u32) -> u32 { for i in 0..a { if i > 2 { break; } } a }
    });
    assert_eq!(lowered.spans.exprs.len(), lowered.kernel.exprs.len());
    assert_eq!(lowered.spans.stmts.len(), lowered.kernel.stmts.len());
    assert_eq!(lowered.spans.locals.len(), lowered.kernel.locals.len());
}

#[test]
fn lowering_is_deterministic() {
    let item: syn::ItemFn = parse_quote! {
        fn k(a: u32) -> u32 { let b = if a > 1 { subgroup_ballot(true).count() } else { a }; b }
    };
    let first = lower(&item).map(|l| l.kernel);
    let second = lower(&item).map(|l| l.kernel);
    assert_eq!(first.ok(), second.ok());
}

// ---------------------------------------------------------------- rejected

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
                let f = subgroup_all(p);
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
            "unsupported subgroup intrinsic `subgroup_all`; kernels support the ballot intrinsics only",
            "`SubgroupMask::from_words` is not supported in a kernel; use `SubgroupMask::lane` or `SubgroupMask::first`",
            "`contains` takes 1 argument but 0 were supplied",
            "method calls are not supported in a kernel, except `contains`, `count` and `is_empty` on a `SubgroupMask`",
            "mismatched types: expected `u32`, found `i32`",
            "`subgroup_size` takes 0 arguments but 1 was supplied",
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
