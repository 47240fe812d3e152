//! Tests of the front end: the IR of representative kernels, printed as
//! Rust-like text, and the messages of rejected ones.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use syn::parse_quote;

use super::{invariants, lower, Lowered};
use ballot_ir::ir::{Expr, Handle, Kernel, Literal, Local, MaskFn, Stmt, UnaryOp};
use ballot_ir::mask::SubgroupMask;

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

mod accepted;
mod rejected;
