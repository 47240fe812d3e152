//! What GLSL and WGSL print alike. Both write a kernel's structured
//! control flow as it is on the native targets, and the if-converted form
//! ([`crate::lower::masked`]) on the emulated ones, whose flags are a
//! `bool` per invocation in both. Each language's writer supplies its
//! spelling of expressions through `Shading` and of loops and discarded
//! values through `Structured`; the walks over expressions, statements
//! and steps are written once.

use core::fmt;

use super::namer::Function;
use super::{Language, Level};
use crate::lower::fold::Folded;
use crate::lower::helpers::Helper;
use crate::lower::masked::{Cond, Dest, Flag, Masked, Shared, Step};
use crate::lower::share::Read;
use ballot_ir::ir::{
    BinaryOp, Block, Expr, Handle, Kernel, Literal, Local, MaskFn, Stmt, Type, UnaryOp,
};
use ballot_ir::op::{ArithOp, Op};

/// The function being written: its kernel, its names, and what the
/// lowering made of it.
#[derive(Clone, Copy)]
pub(crate) struct Func<'a> {
    pub kernel: &'a Kernel,
    pub function: &'a Function<'a>,
    /// The module's functions, which calls index.
    pub functions: &'a [Function<'a>],
    /// The kernel, if-converted (emulated targets only).
    pub masked: Option<&'a Masked>,
    /// Its constant sub-expressions, folded: WGSL rejects some constant
    /// expressions that Rust defines, GLSL's compilers fold on their own.
    pub folded: Option<&'a Folded>,
}

impl<'a> Func<'a> {
    /// The name of a local; a recognisable one for a handle out of range,
    /// which only a malformed kernel has.
    pub fn local(&self, local: Handle<Local>) -> &'a str {
        let function: &'a Function<'a> = self.function;
        function
            .locals
            .get(local.index())
            .map_or("ballot_malformed", String::as_str)
    }

    /// The function the call `call` calls.
    pub fn callee(&self, call: Handle<Expr>) -> Option<&'a Function<'a>> {
        let functions: &'a [Function<'a>] = self.functions;
        self.function
            .calls
            .get(&call)
            .and_then(|&index| functions.get(index))
    }

    /// The temporary `expr` is bound to in the if-converted form, if any.
    pub fn temp(&self, expr: Handle<Expr>) -> Option<usize> {
        self.masked.and_then(|masked| masked.temp(expr))
    }

    /// The value `expr` folds to, if it is constant.
    pub fn folded(&self, expr: Handle<Expr>) -> Option<Literal> {
        self.folded.and_then(|folded| folded.value(expr))
    }
}

/// A shading language's writer of expressions: each method spells one kind
/// of expression the way only that language does. What GLSL and WGSL
/// write alike (temporaries, folded values, loads, unary operators, calls)
/// is written here, through it.
pub(crate) trait Shading: fmt::Write {
    /// The language written.
    const LANGUAGE: Language;

    /// Whether the module emulates the subgroup (the `*-no-subgroup`
    /// targets): exchanges and calls then take the activity flag.
    fn emulated(&self) -> bool;
    /// The names of the lane id and the subgroup size.
    fn lane_names(&self) -> [&'static str; 2];
    /// Writes a constant.
    fn write_literal(&mut self, lit: Literal) -> fmt::Result;
    /// Writes a binary operation, with the IR's semantics (invariant 5).
    fn write_binary(&mut self, f: Func<'_>, op: BinaryOp, args: [Handle<Expr>; 2]) -> fmt::Result;
    /// Writes Rust's `as` from the type of `arg` to `to`.
    fn write_cast(&mut self, f: Func<'_>, arg: Handle<Expr>, to: Type) -> fmt::Result;
    /// Writes `if cond { accept } else { reject }` of values (`args`, in
    /// that order).
    fn write_select(&mut self, f: Func<'_>, args: [Handle<Expr>; 3]) -> fmt::Result;
    /// Writes a function of masks.
    fn write_mask_fn(&mut self, f: Func<'_>, fun: MaskFn, args: &[Handle<Expr>]) -> fmt::Result;
    /// Writes a subgroup operation.
    fn write_op(&mut self, f: Func<'_>, op: Op, args: &[Handle<Expr>]) -> fmt::Result;

    /// Writes `expr`: the temporary of a bound exchange or call, the value
    /// it folds to, or the expression itself.
    fn write_expr(&mut self, f: Func<'_>, expr: Handle<Expr>) -> fmt::Result {
        if let Some(temp) = f.temp(expr) {
            return self.write_str(&temp_name(temp));
        }
        match f.folded(expr) {
            Some(value) => self.write_literal(value),
            None => self.write_value(f, expr),
        }
    }

    /// Writes `expr` itself, its operands through [`Shading::write_expr`].
    fn write_value(&mut self, f: Func<'_>, expr: Handle<Expr>) -> fmt::Result {
        if expr.index() >= f.kernel.exprs.len() {
            return self.write_str("ballot_malformed");
        }
        match &f.kernel.exprs[expr] {
            Expr::Literal(lit) => self.write_literal(*lit),
            Expr::Load(local) => self.write_str(f.local(*local)),
            Expr::Unary { op, arg } => {
                write!(self, "({}", unary_symbol(*op, f.kernel.type_of(*arg)))?;
                self.write_expr(f, *arg)?;
                self.write_str(")")
            }
            Expr::Binary { op, left, right } => self.write_binary(f, *op, [*left, *right]),
            Expr::Cast { arg, to } => self.write_cast(f, *arg, *to),
            Expr::Select {
                cond,
                accept,
                reject,
            } => self.write_select(f, [*cond, *accept, *reject]),
            Expr::LaneId => self.write_str(self.lane_names()[0]),
            Expr::SubgroupSize => self.write_str(self.lane_names()[1]),
            Expr::Mask { fun, args } => self.write_mask_fn(f, *fun, args),
            Expr::Op { op, args } => self.write_op(f, *op, args),
            Expr::Call { args, .. } => self.write_kernel_call(f, expr, args),
        }
    }

    /// `name(args)`.
    fn write_call(&mut self, f: Func<'_>, name: &str, args: &[Handle<Expr>]) -> fmt::Result {
        write!(self, "{name}(")?;
        self.write_args(f, args)?;
        self.write_str(")")
    }

    /// Comma-separated expressions.
    fn write_args(&mut self, f: Func<'_>, args: &[Handle<Expr>]) -> fmt::Result {
        for (i, &arg) in args.iter().enumerate() {
            if i > 0 {
                self.write_str(", ")?;
            }
            self.write_expr(f, arg)?;
        }
        Ok(())
    }

    /// A kernel call; on emulated targets, of the if-converted function,
    /// which runs with the caller's active invocations.
    fn write_kernel_call(
        &mut self,
        f: Func<'_>,
        call: Handle<Expr>,
        args: &[Handle<Expr>],
    ) -> fmt::Result {
        let Some(callee) = f.callee(call) else {
            // The planner resolves every call; an unresolved one keeps a
            // recognisable name rather than panicking.
            return self.write_str("ballot_malformed");
        };
        if !self.emulated() {
            return self.write_call(f, &callee.name, args);
        }
        write!(self, "{}({}", callee.masked, flag_name(Flag::Active))?;
        if !args.is_empty() {
            self.write_str(", ")?;
            self.write_args(f, args)?;
        }
        self.write_str(")")
    }

    /// An emulated subgroup operation: the exchanges take the activity
    /// flag first ([`Shading::write_exchange`]); the lane-local operations
    /// (masks, bit counts, searches) are plain calls of their helpers.
    fn write_emulated_op(&mut self, f: Func<'_>, op: Op, args: &[Handle<Expr>]) -> fmt::Result {
        let name = Helper::call_name(Helper::of_op(op, Self::LANGUAGE, true));
        let active = flag_name(Flag::Active);
        match (op, args) {
            (Op::Elect, _) => write!(self, "{name}({active})"),
            (Op::Ballot | Op::All | Op::Any, [p]) => {
                write!(self, "{name}({active}, ")?;
                self.write_expr(f, *p)?;
                self.write_str(")")
            }
            (_, [value, ..]) if exchanges_value(op) => {
                let extras = extras(op, f.kernel.type_of(*value), args);
                self.write_exchange(f, op, name, true, *value, &extras)
            }
            _ => self.write_call(f, name, args),
        }
    }

    /// A call of the exchange `name` behind `op`, with the activity flag
    /// first where `active`: `decode(name(active, encode(value),
    /// extras))`. The value travels as the four words exchanges move
    /// ([`exchange_codec`]), and comes back decoded into its type, but
    /// for `AllEqual`, whose result is a `bool`.
    fn write_exchange(
        &mut self,
        f: Func<'_>,
        op: Op,
        name: &str,
        active: bool,
        value: Handle<Expr>,
        extras: &[Extra],
    ) -> fmt::Result {
        let ty = f.kernel.type_of(value);
        let [[encode, encoded], [decode, decoded]] = exchange_codec(Self::LANGUAGE, ty);
        let [decode, decoded] = match op {
            Op::AllEqual => ["", ""],
            _ => [decode, decoded],
        };
        write!(self, "{decode}{name}(")?;
        if active {
            write!(self, "{}, ", flag_name(Flag::Active))?;
        }
        self.write_str(encode)?;
        self.write_expr(f, value)?;
        self.write_str(encoded)?;
        for extra in extras {
            self.write_str(", ")?;
            match extra {
                Extra::Expr(e) => self.write_expr(f, *e)?,
                Extra::Text(t) => self.write_str(t)?,
            }
        }
        write!(self, "){decoded}")
    }
}

/// Whether an emulated `op` exchanges a value of its operand's type (as
/// four words): broadcasts, shuffles, quads, `AllEqual` and arithmetic,
/// the operations generic in their value.
pub(crate) const fn exchanges_value(op: Op) -> bool {
    ballot_ir::ir::op_is_generic(op)
}

/// The words of the four an emulated exchange moves that a value of `ty`
/// uses: every one for a mask, the first for a scalar. The helpers move
/// only those ([`Helper::Values`]).
pub const fn exchange_words(ty: Type) -> u32 {
    match ty {
        Type::Mask => 4,
        _ => 1,
    }
}

/// An argument of an exchange's helper after the value.
pub(crate) enum Extra {
    /// One of the operation's operands.
    Expr(Handle<Expr>),
    /// A constant the operation fixes.
    Text(String),
}

/// The arguments after the value of the helper behind a value exchange
/// `op` with operands `args`: the lane operand (an id, mask, delta or
/// quad index) where it has one; a quad swap's xor; whether `AllEqual`
/// of a value of type `ty` compares as `f32` (ordered equality, so that
/// `-0.0` equals `0.0` and a NaN nothing) rather than bit for bit; the
/// arithmetic's operation, as [`arith_code`] numbers it (its kind is the
/// helper's: [`Helper::of_op`]). Last, the words of the value that the
/// helper moves ([`exchange_words`]): the emulated exchanges' and the
/// native WGSL helpers' shuffles move only those.
pub(crate) fn extras(op: Op, ty: Type, args: &[Handle<Expr>]) -> Vec<Extra> {
    let mut extras = match op {
        Op::AllEqual => vec![Extra::Text((ty == Type::F32).to_string())],
        Op::QuadSwap(quad) => vec![Extra::Text(format!("{}u", quad.xor()))],
        Op::Arith(arith, _) => vec![Extra::Text(format!("{}u", arith_code(arith)))],
        // The cluster size, a literal (IR invariant 8), after the operation.
        Op::Clustered(arith) => {
            let code = Extra::Text(format!("{}u", arith_code(arith)));
            vec![code, Extra::Expr(args[1])]
        }
        _ => args.iter().skip(1).map(|&e| Extra::Expr(e)).collect(),
    };
    extras.push(Extra::Text(format!("{}u", exchange_words(ty))));
    extras
}

/// The number of an arithmetic operation in the helpers' texts
/// (`ballot_combine`, `ballot_identity`): its index in [`ArithOp::ALL`].
pub const fn arith_code(arith: ArithOp) -> u32 {
    arith as u32
}

/// How one shading language writes the structured control flow that
/// differs between GLSL and WGSL.
pub(crate) trait Structured: Shading {
    /// Writes a statement that evaluates `value` for its effects.
    fn write_eval(&mut self, f: Func<'_>, value: Handle<Expr>, level: Level) -> fmt::Result;
    /// Writes a loop whose continuing block (`next`) runs after every
    /// iteration of `body`, and where `continue` leads.
    fn write_loop(&mut self, f: Func<'_>, body: &Block, next: &Block, level: Level) -> fmt::Result;
}

/// The symbol of a unary operator on a value of type `ty`: GLSL and WGSL
/// spell them alike.
pub(crate) fn unary_symbol(op: UnaryOp, ty: Type) -> &'static str {
    match (op, ty) {
        (UnaryOp::Neg, _) => "-",
        (UnaryOp::Not, Type::Bool) => "!",
        (UnaryOp::Not, _) => "~",
    }
}

/// How `language` spells a type.
pub const fn type_name(language: Language, ty: Type) -> &'static str {
    spelling(language, ty)[0]
}

/// The zero of a type, as `language` writes it.
pub(crate) const fn zero(language: Language, ty: Type) -> &'static str {
    spelling(language, ty)[1]
}

/// A type's name and its zero in `language`.
const fn spelling(language: Language, ty: Type) -> [&'static str; 2] {
    let glsl = matches!(language, Language::Glsl);
    match ty {
        Type::Bool => ["bool", "false"],
        Type::U32 if glsl => ["uint", "0u"],
        Type::U32 => ["u32", "0u"],
        Type::I32 if glsl => ["int", "0"],
        Type::I32 => ["i32", "0i"],
        Type::F32 if glsl => ["float", "0.0"],
        Type::F32 => ["f32", "0.0f"],
        Type::Mask if glsl => ["uvec4", "uvec4(0u)"],
        Type::Mask => ["vec4<u32>", "vec4<u32>()"],
    }
}

/// What surrounds a value of `ty` to give the four words an emulated
/// exchange moves, and what surrounds an exchange's four words to give a
/// value of `ty` back, in `language`.
pub const fn exchange_codec(language: Language, ty: Type) -> [[&'static str; 2]; 2] {
    match (language, ty) {
        (_, Type::Mask) => [["", ""], ["", ""]],
        (Language::Glsl, Type::Bool) => [["uvec4(uint(", "), 0u, 0u, 0u)"], ["(", ".x != 0u)"]],
        (Language::Glsl, Type::U32) => [["uvec4(", ", 0u, 0u, 0u)"], ["", ".x"]],
        (Language::Glsl, Type::I32) => [["uvec4(uint(", "), 0u, 0u, 0u)"], ["int(", ".x)"]],
        (Language::Glsl, Type::F32) => [
            ["uvec4(floatBitsToUint(", "), 0u, 0u, 0u)"],
            ["uintBitsToFloat(", ".x)"],
        ],
        (Language::Wgsl, Type::Bool) => [["vec4<u32>(u32(", "), 0u, 0u, 0u)"], ["(", ".x != 0u)"]],
        (Language::Wgsl, Type::U32) => [["vec4<u32>((", "), 0u, 0u, 0u)"], ["", ".x"]],
        (Language::Wgsl, Type::I32) => [
            ["vec4<u32>(bitcast<u32>(", "), 0u, 0u, 0u)"],
            ["bitcast<i32>(", ".x)"],
        ],
        (Language::Wgsl, Type::F32) => [
            ["vec4<u32>(bitcast<u32>(", "), 0u, 0u, 0u)"],
            ["bitcast<f32>(", ".x)"],
        ],
    }
}

/// The start of a declaration of a `ty` variable: the type in GLSL (whose
/// `const` wants a constant initialiser, so every flag is a plain
/// variable), `var ` (`mutable`) or `let ` in WGSL.
fn declare(language: Language, ty: Type, mutable: bool) -> String {
    match language {
        Language::Glsl => format!("{} ", type_name(language, ty)),
        Language::Wgsl if mutable => "var ".to_string(),
        Language::Wgsl => "let ".to_string(),
    }
}

/// What surrounds an `if`'s condition: `if (`…`) {` in GLSL, `if `…` {` in
/// WGSL.
const fn if_parts(language: Language) -> [&'static str; 2] {
    match language {
        Language::Glsl => ["if (", ") {"],
        Language::Wgsl => ["if ", " {"],
    }
}

/// The head of an endless loop.
const fn endless_loop(language: Language) -> &'static str {
    match language {
        Language::Glsl => "while (true) {",
        Language::Wgsl => "loop {",
    }
}

/// Writes `block`'s statements, one per line (blocks over several), at
/// `level`.
pub(crate) fn write_native_block<T: Structured>(
    w: &mut T,
    f: Func<'_>,
    block: &Block,
    level: Level,
) -> fmt::Result {
    for &stmt in block {
        match &f.kernel.stmts[stmt] {
            Stmt::Assign { local, value } => {
                write!(w, "{level}{} = ", f.local(*local))?;
                w.write_expr(f, *value)?;
                w.write_str(";\n")?;
            }
            Stmt::Eval(value) => w.write_eval(f, *value, level)?,
            Stmt::If {
                cond,
                accept,
                reject,
            } => {
                let [open, close] = if_parts(T::LANGUAGE);
                write!(w, "{level}{open}")?;
                w.write_expr(f, *cond)?;
                writeln!(w, "{close}")?;
                write_native_block(w, f, accept, level.next())?;
                if !reject.is_empty() {
                    writeln!(w, "{level}}} else {{")?;
                    write_native_block(w, f, reject, level.next())?;
                }
                writeln!(w, "{level}}}")?;
            }
            Stmt::Loop { body, continuing } => w.write_loop(f, body, continuing, level)?,
            Stmt::Break => writeln!(w, "{level}break;")?,
            Stmt::Continue => writeln!(w, "{level}continue;")?,
            Stmt::Return(None) => writeln!(w, "{level}return;")?,
            Stmt::Return(Some(value)) => {
                write!(w, "{level}return ")?;
                w.write_expr(f, *value)?;
                w.write_str(";\n")?;
            }
        }
    }
    Ok(())
}

/// Writes the body of an if-converted function after its locals: the
/// flags every function starts with, the result, the steps, the return.
pub(crate) fn write_masked_body<T: Shading>(w: &mut T, f: Func<'_>, level: Level) -> fmt::Result {
    for (flag, init) in [
        (Flag::Active, flag_name(Flag::ActiveIn)),
        (Flag::Ret, "false".to_string()),
    ] {
        w.write_str(&level.to_string())?;
        w.write_str(&declare(T::LANGUAGE, Type::Bool, true))?;
        writeln!(w, "{} = {init};", flag_name(flag))?;
    }
    if let Some(ty) = f.kernel.ret {
        w.write_str(&level.to_string())?;
        w.write_str(&declare(T::LANGUAGE, ty, true))?;
        writeln!(w, "{RESULT} = {};", zero(T::LANGUAGE, ty))?;
    }
    if let Some(masked) = f.masked {
        write_steps(w, f, &masked.steps, level)?;
    }
    if f.kernel.ret.is_some() {
        writeln!(w, "{level}return {RESULT};")?;
    }
    Ok(())
}

/// The variable of a flag.
pub(crate) fn flag_name(flag: Flag) -> String {
    match flag {
        Flag::Active => "ballot_active".to_string(),
        Flag::ActiveIn => "ballot_active_in".to_string(),
        Flag::Ret => "ballot_ret".to_string(),
        Flag::Outer(id) => format!("ballot_outer{id}"),
        Flag::Taken(id) => format!("ballot_taken{id}"),
        Flag::Entry(id) => format!("ballot_entry{id}"),
        Flag::Brk(id) => format!("ballot_brk{id}"),
        Flag::Cont(id) => format!("ballot_cont{id}"),
    }
}

/// The variable of a bound value.
pub(crate) fn temp_name(temp: usize) -> String {
    format!("ballot_t{temp}")
}

/// The variable holding the kernel's result.
pub(crate) const RESULT: &str = "ballot_ret_val";

/// What `ballot_init` does, in the polyfill libraries, with an invocation
/// past the declared workgroup ([`crate::lower::helpers::Helper::Guard`]):
/// GLSL and WGSL spell it alike. It moves the invocation to the spare
/// exchange slot, past every virtual subgroup's, in a virtual subgroup of
/// no lanes (whose reads stay in bounds and come back empty), and flags it
/// for the public functions' failure values.
pub(crate) const GUARD_INIT: &str = "\
if (local_invocation_index >= ballot_workgroup_size) {
        ballot_overflow = true;
        ballot_index = ballot_padded_size;
        ballot_base = 0u;
        ballot_count = 0u;
    }";

/// Writes `steps`, one per line (blocks over several), at `level`.
fn write_steps<T: Shading>(w: &mut T, f: Func<'_>, steps: &[Step], level: Level) -> fmt::Result {
    steps
        .iter()
        .try_for_each(|step| write_step(w, f, step, level))
}

fn write_step<T: Shading>(w: &mut T, f: Func<'_>, step: &Step, level: Level) -> fmt::Result {
    let indent = level.to_string();
    match step {
        Step::Let(flag, cond) | Step::Var(flag, cond) | Step::Set(flag, cond) => {
            w.write_str(&indent)?;
            if !matches!(step, Step::Set(..)) {
                let mutable = matches!(step, Step::Var(..));
                w.write_str(&declare(T::LANGUAGE, Type::Bool, mutable))?;
            }
            w.write_str(&flag_name(*flag))?;
            w.write_str(" = ")?;
            write_cond(w, f, cond)?;
            w.write_str(";\n")
        }
        Step::Bind { temp, expr } => {
            w.write_str(&indent)?;
            if let Some(temp) = temp {
                w.write_str(&declare(T::LANGUAGE, f.kernel.type_of(*expr), false))?;
                w.write_str(&temp_name(*temp))?;
                w.write_str(" = ")?;
            }
            w.write_value(f, *expr)?;
            w.write_str(";\n")
        }
        Step::Exchange(shared) => write_exchange(w, f, shared, &indent),
        Step::Store { dest, value } => {
            let dest = match dest {
                Dest::Local(l) => f.local(*l).to_string(),
                Dest::Result => RESULT.to_string(),
            };
            let [open, close] = if_parts(T::LANGUAGE);
            let active = flag_name(Flag::Active);
            write!(w, "{indent}{open}{active}{close} {dest} = ")?;
            w.write_expr(f, *value)?;
            w.write_str("; }\n")
        }
        // Lane-local values have no effect here, and undefined cases a
        // documented result; every step runs, so that every invocation
        // reaches every barrier.
        // Exchanges through workgroup memory see exactly the `Active`
        // flags: maximal reconvergence, whatever the device's model.
        Step::Eval(_) | Step::SkipRest | Step::Tangle(_) => Ok(()),
        Step::Branch(steps) | Step::Loop { steps, .. } => {
            let open = if matches!(step, Step::Branch(_)) {
                "{"
            } else {
                endless_loop(T::LANGUAGE)
            };
            writeln!(w, "{indent}{open}")?;
            write_steps(w, f, steps, level.next())?;
            writeln!(w, "{indent}}}")
        }
        Step::Exit { vote, .. } => {
            let test = if *vote {
                let any = Helper::call_name(Some(Helper::WorkgroupAny));
                format!("{any}({})", flag_name(Flag::Active))
            } else {
                flag_name(Flag::Active)
            };
            writeln!(w, "{indent}if (!{test}) {{ break; }}")
        }
    }
}

/// Writes ballots that share one exchange ([`crate::lower::share`]): each
/// slot's flag published, one barrier (`ballot_sync`, which gives where
/// the exchange's slot 0 is), and each ballot gathered from its slot.
fn write_exchange<T: Shading>(
    w: &mut T,
    f: Func<'_>,
    shared: &[Shared],
    indent: &str,
) -> fmt::Result {
    let Some(first) = shared.first() else {
        return Ok(());
    };
    let active = flag_name(Flag::Active);
    let mut published = std::collections::BTreeSet::new();
    for s in shared {
        let flag = crate::lower::share::flag_of(f.kernel, s.expr);
        if let (true, Some(flag)) = (published.insert(s.slot), flag) {
            let not = if flag.negated() { "!" } else { "" };
            write!(w, "{indent}ballot_publish(({active} && {not}")?;
            w.write_expr(f, flag.predicate)?;
            writeln!(w, "), {}u);", s.slot)?;
        }
    }
    let at = format!("ballot_x{}", first.temp);
    let u32_decl = declare(T::LANGUAGE, Type::U32, false);
    writeln!(w, "{indent}{u32_decl}{at} = ballot_sync();")?;
    for s in shared {
        let decl = declare(T::LANGUAGE, f.kernel.type_of(s.expr), false);
        let slot = match s.slot {
            0 => at.clone(),
            k => format!("({at} + {k}u * ballot_slot_stride)"),
        };
        let read = crate::lower::share::flag_of(f.kernel, s.expr).map(|flag| flag.read);
        let [open, close] = vote_read(T::LANGUAGE, read);
        writeln!(
            w,
            "{indent}{decl}{} = {open}ballot_gather({slot}){close};",
            temp_name(s.temp)
        )?;
    }
    Ok(())
}

/// What goes around the ballot of an exchange's slot to give the value
/// of `read`: nothing for a ballot, whether any flag is set for `Any`, or
/// none for `All`.
const fn vote_read(language: Language, read: Option<Read>) -> [&'static str; 2] {
    match (language, read) {
        (_, None | Some(Read::Ballot)) => ["", ""],
        (Language::Glsl, Some(Read::Any)) => ["(", " != uvec4(0u))"],
        (Language::Glsl, Some(Read::All)) => ["(", " == uvec4(0u))"],
        (Language::Wgsl, Some(Read::Any)) => ["any((", " != vec4<u32>(0u)))"],
        (Language::Wgsl, Some(Read::All)) => ["all((", " == vec4<u32>(0u)))"],
    }
}

/// Writes a set of invocations as a `bool`, fully parenthesised: GLSL and
/// WGSL spell `&&`, `||` and `!` alike.
fn write_cond<T: Shading>(w: &mut T, f: Func<'_>, cond: &Cond) -> fmt::Result {
    match cond {
        Cond::None => w.write_str("false"),
        Cond::Flag(flag) => w.write_str(&flag_name(*flag)),
        Cond::Not(flag) => write!(w, "!{}", flag_name(*flag)),
        Cond::Expr(e) => w.write_expr(f, *e),
        Cond::And(a, b) | Cond::Or(a, b) => {
            let op = if matches!(cond, Cond::And(..)) {
                " && "
            } else {
                " || "
            };
            w.write_str("(")?;
            write_cond(w, f, a)?;
            w.write_str(op)?;
            write_cond(w, f, b)?;
            w.write_str(")")
        }
    }
}
