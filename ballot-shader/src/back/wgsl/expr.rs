//! Expressions and literals.
//!
//! Every expression written is either atomic (a name, a literal, a call) or
//! wrapped in parentheses, so that it can stand anywhere, `if` conditions
//! and argument lists included.

use core::fmt::{self, Write as _};

use super::{type_name, Writer};
use crate::back::shading::{exchanges_value, extras, Func, Shading};
use crate::back::Language;
use crate::lower::helpers::Helper;
use ballot_ir::ir::{BinaryOp, Expr, Handle, Literal, MaskFn, Type};
use ballot_ir::op::Op;

impl<W: fmt::Write> Shading for Writer<'_, W> {
    const LANGUAGE: Language = Language::Wgsl;

    fn emulated(&self) -> bool {
        self.plan.emulated()
    }

    fn lane_names(&self) -> [&'static str; 2] {
        ["ballot_lane", "ballot_size"]
    }

    /// A constant, exactly.
    fn write_literal(&mut self, lit: Literal) -> fmt::Result {
        match lit {
            Literal::Bool(b) => write!(self.out, "{b}"),
            Literal::U32(v) => write!(self.out, "{v}u"),
            // 2147483648i is out of range, so the minimum is spelt by bits.
            Literal::I32(i32::MIN) => self.out.write_str("bitcast<i32>(0x80000000u)"),
            Literal::I32(v) if v < 0 => write!(self.out, "(-{}i)", v.unsigned_abs()),
            Literal::I32(v) => write!(self.out, "{v}i"),
            Literal::F32(v) if !v.is_finite() => {
                write!(self.out, "ballot_f32_bits({:#x}u)", v.to_bits())
            }
            Literal::F32(v) if v.is_sign_negative() => {
                write!(self.out, "(-{})", F32Literal(-v))
            }
            Literal::F32(v) => write!(self.out, "{}", F32Literal(v)),
            Literal::Mask(m) => {
                let [x, y, z, w] = m.to_words();
                write!(self.out, "vec4<u32>({x:#x}u, {y:#x}u, {z:#x}u, {w:#x}u)")
            }
        }
    }

    fn write_binary(&mut self, cx: Func<'_>, op: BinaryOp, args: [Handle<Expr>; 2]) -> fmt::Result {
        let [left, right] = args;
        let ty = cx.kernel.type_of(left);
        let divisor = cx.folded(right);
        match op {
            // A constant zero divisor is a shader-creation error in WGSL;
            // the IR defines `x / 0 == x` and `x % 0 == 0`.
            BinaryOp::Div if ty.is_integer() && is_zero(divisor) => self.write_expr(cx, left),
            BinaryOp::Rem if ty.is_integer() && is_zero(divisor) => {
                write!(self.out, "{}()", type_name(ty))
            }
            BinaryOp::Shl | BinaryOp::Shr => {
                self.out.write_str("(")?;
                self.write_expr(cx, left)?;
                write!(self.out, " {} ", op.symbol())?;
                self.write_shift_amount(cx, right)?;
                self.out.write_str(")")
            }
            BinaryOp::Eq | BinaryOp::Ne if ty == Type::Mask => {
                let reduce = if op == BinaryOp::Eq { "all" } else { "any" };
                write!(self.out, "{reduce}(")?;
                self.write_infix(cx, op.symbol(), left, right)?;
                self.out.write_str(")")
            }
            // WGSL's `^` takes integers only.
            BinaryOp::BitXor if ty == Type::Bool => self.write_infix(cx, "!=", left, right),
            _ => self.write_infix(cx, op.symbol(), left, right),
        }
    }

    /// Rust's `as` between scalars.
    fn write_cast(&mut self, cx: Func<'_>, arg: Handle<Expr>, to: Type) -> fmt::Result {
        let from = cx.kernel.type_of(arg);
        let function = match (from, to) {
            _ if from == to => return self.write_expr(cx, arg),
            (Type::U32, Type::I32) => "bitcast<i32>",
            (Type::I32, Type::U32) => "bitcast<u32>",
            _ => match Helper::of_cast(from, to) {
                Some(helper) => Helper::call_name(Some(helper)),
                // bool to a number gives 0 or 1; integers to f32 round.
                None => type_name(to),
            },
        };
        self.write_call(cx, function, &[arg])
    }

    /// WGSL's `select` takes the value if false first.
    fn write_select(&mut self, cx: Func<'_>, args: [Handle<Expr>; 3]) -> fmt::Result {
        let [cond, accept, reject] = args;
        self.write_call(cx, "select", &[reject, accept, cond])
    }

    fn write_mask_fn(&mut self, cx: Func<'_>, fun: MaskFn, args: &[Handle<Expr>]) -> fmt::Result {
        if fun == MaskFn::IsEmpty {
            self.out.write_str("all((")?;
            if let Some(&mask) = args.first() {
                self.write_expr(cx, mask)?;
            }
            return self.out.write_str(" == vec4<u32>(0u)))");
        }
        self.write_call(cx, Helper::call_name(Helper::of_mask_fn(fun)), args)
    }

    fn write_op(&mut self, cx: Func<'_>, op: Op, args: &[Handle<Expr>]) -> fmt::Result {
        if self.plan.emulated() {
            // The shared writer: every exchange takes the activity flag,
            // and moves values as `vec4<u32>` bits.
            return self.write_emulated_op(cx, op, args);
        }
        match (op.wgsl_name(), args) {
            // naga has no `subgroupElect`: the helper stands in.
            (Some(_), _) if op == Op::Elect => self.write_call(cx, "ballot_elect", &[]),
            (Some(name), [value, ..]) if exchanges_value(op) => {
                self.write_native_gather(cx, op, name, *value, args.get(1).copied())
            }
            // `subgroupBallot`, `subgroupAll`, `subgroupAny` take a bool.
            (Some(name), _) => self.write_call(cx, name, args),
            // `AllEqual`, and the scans WGSL lacks: a helper over the value's
            // bits, without the activity flag.
            (None, [value, ..]) if exchanges_value(op) => {
                let name = Helper::call_name(Helper::of_op(op, Language::Wgsl, false));
                let extras = extras(op, cx.kernel.type_of(*value), args);
                self.write_exchange(cx, op, name, false, *value, &extras)
            }
            (None, _) => {
                let helper = Helper::of_op(op, Language::Wgsl, false);
                self.write_call(cx, Helper::call_name(helper), args)
            }
        }
    }
}

impl<W: fmt::Write> Writer<'_, W> {
    /// One of WGSL's own built-ins of a value (`name`): broadcasts,
    /// shuffles, quads and arithmetic, with the lane operand `operand`
    /// where the operation has one. They take numbers and vectors only:
    /// a `bool` travels as a `u32`, compared with `0u` on its way back.
    /// naga and Tint take only a constant lane operand below 128; for a
    /// larger constant (a lane out of range, undefined in the spec) the
    /// lane keeps its own value, as the emulated targets document.
    fn write_native_gather(
        &mut self,
        cx: Func<'_>,
        op: Op,
        name: &str,
        value: Handle<Expr>,
        operand: Option<Handle<Expr>>,
    ) -> fmt::Result {
        let constant = operand.map(|id| cx.folded(id));
        if let Some(Some(Literal::U32(lane))) = constant {
            if lane >= 128 {
                return self.write_expr(cx, value);
            }
        }
        let is_bool = cx.kernel.type_of(value) == Type::Bool;
        write!(self.out, "{}{name}(", if is_bool { "(" } else { "" })?;
        if is_bool {
            self.write_call(cx, "u32", &[value])?;
        } else {
            self.write_expr(cx, value)?;
        }
        match (op, constant) {
            (_, None) => {}
            // naga wants these ids constant: a literal (IR invariant 8).
            (Op::Broadcast | Op::QuadBroadcast, Some(Some(Literal::U32(lane)))) => {
                write!(self.out, ", {lane}u")?
            }
            (Op::Broadcast | Op::QuadBroadcast, Some(_)) => {
                self.out.write_str(", ballot_malformed")?
            }
            (_, Some(_)) => {
                self.out.write_str(", ")?;
                if let Some(operand) = operand {
                    self.write_expr(cx, operand)?;
                }
            }
        }
        self.out.write_str(if is_bool { ") != 0u)" } else { ")" })
    }

    fn write_infix(
        &mut self,
        cx: Func<'_>,
        symbol: &str,
        left: Handle<Expr>,
        right: Handle<Expr>,
    ) -> fmt::Result {
        self.out.write_str("(")?;
        self.write_expr(cx, left)?;
        write!(self.out, " {symbol} ")?;
        self.write_expr(cx, right)?;
        self.out.write_str(")")
    }

    /// The low five bits of a shift amount (IR invariant 5); a constant
    /// amount is masked here, since WGSL rejects a constant one above 31.
    fn write_shift_amount(&mut self, cx: Func<'_>, amount: Handle<Expr>) -> fmt::Result {
        if let Some(Literal::U32(by)) = cx.folded(amount) {
            return write!(self.out, "{}u", by & 31);
        }
        self.out.write_str("(")?;
        self.write_expr(cx, amount)?;
        self.out.write_str(" & 31u)")
    }
}

fn is_zero(value: Option<Literal>) -> bool {
    matches!(value, Some(Literal::U32(0) | Literal::I32(0)))
}

/// A finite, non-negative `f32` as a WGSL literal that denotes exactly it.
struct F32Literal(f32);

impl fmt::Display for F32Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The shortest decimal that parses back to the value; compilers may
        // read it through f64, so it must also survive that double rounding.
        let decimal = format!("{:?}", self.0);
        let exact = decimal
            .parse::<f64>()
            .is_ok_and(|d| (d as f32).to_bits() == self.0.to_bits());
        if exact {
            return write!(f, "{decimal}f");
        }
        // Otherwise a hexadecimal float, which no compiler rounds.
        let bits = self.0.to_bits();
        let exponent = (bits >> 23) as i32;
        let fraction = (bits & 0x7f_ffff) << 1;
        let (lead, exponent) = if exponent == 0 {
            (0, -126)
        } else {
            (1, exponent - 127)
        };
        let mut hex = String::new();
        let _ = write!(hex, "{fraction:06x}");
        write!(f, "0x{lead}.{hex}p{exponent}f")
    }
}
