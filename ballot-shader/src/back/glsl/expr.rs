//! Expressions, fully parenthesised, with IR invariant 5's semantics spelled
//! out where GLSL's differ: masked shift amounts, division through helpers,
//! saturating float-to-integer casts, exact literals.

use core::fmt::{self, Write};

use super::{type_name, Func, Writer};
use crate::back::shading::Shading;
use crate::back::Language;
use crate::lower;
use crate::lower::helpers::glsl_folds;
use crate::lower::helpers::Helper;
use ballot_ir::ir::{BinaryOp, Expr, Handle, Literal, MaskFn, Type};
use ballot_ir::op::Op;

impl<W: Write> Shading for Writer<'_, W> {
    const LANGUAGE: Language = Language::Glsl;

    fn emulated(&self) -> bool {
        !self.target.has_subgroups()
    }

    fn lane_names(&self) -> [&'static str; 2] {
        if self.emulated() {
            ["ballot_lane", "ballot_subgroup_size"]
        } else {
            ["gl_SubgroupInvocationID", "gl_SubgroupSize"]
        }
    }

    fn write_literal(&mut self, lit: Literal) -> fmt::Result {
        match lit {
            Literal::Bool(b) => write!(self.out, "{b}"),
            Literal::U32(v) => write!(self.out, "{v}u"),
            // 2147483648 is no int literal; the bits are.
            Literal::I32(i32::MIN) => write!(self.out, "int(0x80000000u)"),
            Literal::I32(v) if v < 0 => write!(self.out, "({v})"),
            Literal::I32(v) => write!(self.out, "{v}"),
            Literal::F32(v) => self.write_float(v),
            Literal::Mask(m) if m.is_empty() => write!(self.out, "uvec4(0u)"),
            Literal::Mask(m) => {
                let [x, y, z, w] = m.to_words();
                write!(
                    self.out,
                    "uvec4({x:#010X}u, {y:#010X}u, {z:#010X}u, {w:#010X}u)"
                )
            }
        }
    }

    fn write_binary(&mut self, f: Func<'_>, op: BinaryOp, args: [Handle<Expr>; 2]) -> fmt::Result {
        let [left, right] = args;
        let ty = f.kernel.type_of(left);
        if let Some(helper) = Helper::of_binary(Language::Glsl, f.kernel, op, left, right) {
            return self.write_call(f, Helper::call_name(Some(helper)), &[left, right]);
        }
        // `&&` and `||` skip their right operand, which must still run
        // when it holds a collective; bool `^` is `!=`.
        let eager = lower::expr_exchanges(f.kernel, right);
        let symbol = match (op, ty) {
            // Bool `&` / `|` that evaluates both operands: on `uint`s.
            (BinaryOp::BitAnd | BinaryOp::BitOr, Type::Bool) if eager => {
                let symbol = if op == BinaryOp::BitAnd { "&" } else { "|" };
                self.write_wrapped(f, "((uint(", left, ")")?;
                self.write_wrapped(f, &format!(" {symbol} uint("), right, ")) != 0u)")?;
                return Ok(());
            }
            (BinaryOp::BitAnd, Type::Bool) => "&&",
            (BinaryOp::BitOr, Type::Bool) => "||",
            (BinaryOp::BitXor, Type::Bool) => "!=",
            (op, _) => op.symbol(),
        };
        if folds_to_float(f, op, left, right) {
            // naga folds float arithmetic of constants and rejects an
            // infinite or NaN result, which Rust allows; a bit cast is
            // never folded, so the operation stays for run time.
            self.write_wrapped(f, "(uintBitsToFloat(floatBitsToUint(", left, ")) ")?;
        } else {
            self.write_wrapped(f, "(", left, " ")?;
        }
        write!(self.out, "{symbol} ")?;
        if matches!(op, BinaryOp::Shl | BinaryOp::Shr) {
            // GLSL leaves shifts by 32 or more undefined; Rust's wrapping
            // shifts use the low five bits.
            write!(self.out, "(")?;
            self.write_expr(f, right)?;
            return write!(self.out, " & 31u))");
        }
        self.write_expr(f, right)?;
        write!(self.out, ")")
    }

    /// Rust's `as`: bit reinterpretation between integers, saturation from
    /// floats, 0 or 1 from `bool`.
    fn write_cast(&mut self, f: Func<'_>, arg: Handle<Expr>, to: Type) -> fmt::Result {
        let from = f.kernel.type_of(arg);
        if from == to {
            return self.write_expr(f, arg);
        }
        let function = match Helper::of_cast(from, to) {
            Some(helper) => Helper::call_name(Some(helper)),
            // The IR casts only to scalars other than bool; anything else
            // is written as a constructor, which GLSL checks.
            None => type_name(to),
        };
        self.write_call(f, function, &[arg])
    }

    fn write_select(&mut self, f: Func<'_>, args: [Handle<Expr>; 3]) -> fmt::Result {
        let [cond, accept, reject] = args;
        self.write_wrapped(f, "(", cond, " ? ")?;
        self.write_wrapped(f, "", accept, " : ")?;
        self.write_wrapped(f, "", reject, ")")
    }

    fn write_mask_fn(&mut self, f: Func<'_>, fun: MaskFn, args: &[Handle<Expr>]) -> fmt::Result {
        if fun == MaskFn::IsEmpty {
            write!(self.out, "(")?;
            self.write_args(f, args)?;
            return write!(self.out, " == uvec4(0u))");
        }
        self.write_call(f, Helper::call_name(Helper::of_mask_fn(fun)), args)
    }

    fn write_op(&mut self, f: Func<'_>, op: Op, args: &[Handle<Expr>]) -> fmt::Result {
        if self.emulated() {
            // The shared writer: every exchange takes the activity flag,
            // and moves values as `uvec4` bits.
            self.write_emulated_op(f, op, args)
        } else {
            self.write_native_op(f, op, args)
        }
    }
}

impl<W: Write> Writer<'_, W> {
    /// `open expr close`.
    fn write_wrapped(
        &mut self,
        f: Func<'_>,
        open: &str,
        expr: Handle<Expr>,
        close: &str,
    ) -> fmt::Result {
        write!(self.out, "{open}")?;
        self.write_expr(f, expr)?;
        write!(self.out, "{close}")
    }

    /// A float exactly: in decimal where that reads back to the same bits,
    /// also through a double as glslang parses it; otherwise (NaN,
    /// infinities, some subnormals) through its bits.
    fn write_float(&mut self, v: f32) -> fmt::Result {
        let mut text = format!("{v:?}");
        if !text.contains('.') {
            // `1e20` → `1.0e20`, which every GLSL front end reads.
            match text.find('e') {
                Some(e) => text.insert_str(e, ".0"),
                None => text.push_str(".0"),
            }
        }
        let exact = v.is_finite()
            && text
                .parse::<f64>()
                .is_ok_and(|d| (d as f32).to_bits() == v.to_bits())
            && text
                .parse::<f32>()
                .is_ok_and(|s| s.to_bits() == v.to_bits());
        match (exact, text.strip_prefix('-')) {
            (false, _) => write!(self.out, "uintBitsToFloat({:#010X}u)", v.to_bits()),
            (true, Some(_)) => write!(self.out, "({text})"),
            (true, None) => write!(self.out, "{text}"),
        }
    }

    /// The extension's function or built-in, called directly.
    fn write_native_op(&mut self, f: Func<'_>, op: Op, args: &[Handle<Expr>]) -> fmt::Result {
        let name = op.glsl_name();
        if name.starts_with("gl_") {
            return write!(self.out, "{name}");
        }
        self.write_call(f, name, args)
    }
}

/// Whether naga's glsl-in would fold a float operation into a literal,
/// which it rejects when not finite.
fn folds_to_float(f: Func<'_>, op: BinaryOp, left: Handle<Expr>, right: Handle<Expr>) -> bool {
    f.kernel.type_of(left) == Type::F32
        && matches!(
            op,
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div
        )
        && glsl_folds(f.kernel, left)
        && glsl_folds(f.kernel, right)
}
