//! The pass: each function of a hand-written shader that reaches an
//! exchange, if-converted, so that every invocation of the workgroup
//! reaches every barrier, carrying whether it is really executing.
//!
//! It is the hand-written counterpart of [`ballot_shader::lower::masked`], over the
//! form of [`super::tree`] rather than the kernel IR, and with the same
//! flags: `Active`, the invocations executing the current step; `Outer`
//! and `Taken` of each `if`; `Entry`, `Brk` and `Cont` of each loop; `Ret`.
//!
//! # The form
//! - A statement that holds no exchange, no call of a converted function
//!   and no jump out of itself runs as written, where `Active` is set
//!   ([`Step::Guarded`]); before anything can have left the function (the
//!   top of an entry point), unguarded ([`Step::Plain`]), as the shader's
//!   own barriers must be.
//! - Exchanges (the linked `ballot_*` functions that meet at a barrier)
//!   and calls of converted functions run in every invocation, with
//!   `Active` as their first argument; where the statement holding one is
//!   guarded, the call is computed first, into a temporary
//!   ([`Step::Bind`]). In GLSL, an operand of one that indexes, divides
//!   or calls is evaluated only where the invocation is active,
//!   `(active ? operand : zero)` ([`Sub::Evaluate`], [`Operand`]): the
//!   language would evaluate it only there.
//! - A declaration stays where it is, so that its scope is the same; where
//!   its initialiser is not safe to evaluate in every invocation, the
//!   initialisation is guarded apart ([`Step::Declare`], [`Step::Assign`]).
//! - `if`, loops and `switch` become flags, as in the kernel pass; a loop
//!   that holds an exchange leaves when no invocation of the workgroup is
//!   active, by a vote; one that does not, when the invocation is done.
//!
//! - An exchange in the right operand of `&&` or `||`, or in an arm of
//!   `?:`, which the language evaluates only where the left operand (the
//!   condition) lets it: the left operand is computed first, where
//!   `Active` is set, into a flag that takes its place in the statement;
//!   the exchange runs in every invocation before the statement, with the
//!   activity of those the short circuit lets through
//!   ([`Circuit`]).
//! - A preprocessor line among a converted function's statements: as
//!   written, on a line of its own, in its place among the steps.
//! - GLSL overloads: a call of a name is taken as a call of every
//!   function of that name (which one it calls depends on its arguments'
//!   types), so that all of them are converted, or none.
//!
//! # Refused, at the user's token
//! An exchange under more than one short circuit, or under one whose left
//! operand the pass cannot delimit (the language would skip it where
//! other invocations make it), a GLSL `case` that declares a variable and
//! falls through into statements (one that declares none runs on with the
//! next case's invocations, as SPV_KHR_maximal_reconvergence allows at a
//! case's label), a `discard` in a converted function, a WGSL declaration
//! without a type whose initialiser has side effects in code that not
//! every invocation runs, unless it is a call of the shader's own
//! function (which takes its declared return type) or the caller tells
//! its type ([`Request::init_type`]; the linker asks naga), a GLSL broadcast
//! whose value's type the pass cannot tell, and a call that must be kept
//! in a temporary of a GLSL name overloaded with different return types,
//! unless the caller tells the type of the overload it calls (the linker
//! asks glslang).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::effects;
use super::tree::{
    Call, Decl, DeclKind, Expr, Function, Stage, Stmt, StmtKind, Unit, GLSL_QUALIFIERS,
};
use ballot_shader::back::Language;

/// An exchange's result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Result_ {
    /// A ballot: `vec4<u32>` / `uvec4`.
    Mask,
    /// `bool`.
    Bool,
    /// The type of its value (the argument after the activity).
    Value,
}

/// An exchange's operand after the activity, by what the pass passes in
/// its place where the invocation is not active: every invocation makes
/// the call, and an operand that could read out of bounds or call a
/// function of the shader's (which may not end for values its branch
/// excludes) is evaluated only where the invocation is active (GLSL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// A predicate: `false`.
    Bool,
    /// The value: its type's zero, where the pass can tell its type.
    Value,
    /// A lane, a lane mask or a delta: `0u`.
    Lane,
    /// A constant (a cluster size, a quad index): as written.
    Constant,
}

/// An exchange: its result type and its operands after the activity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Exchange {
    pub result: Result_,
    pub operands: &'static [Operand],
}

/// An activity flag: a `bool` per invocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flag {
    Active,
    ActiveIn,
    Ret,
    Outer(u32),
    Taken(u32),
    Entry(u32),
    Brk(u32),
    Cont(u32),
}

/// A set of invocations, built from flags.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Cond {
    False,
    Flag(Flag),
    Not(Flag),
    And(Box<Cond>, Box<Cond>),
    Or(Box<Cond>, Box<Cond>),
}

impl Cond {
    fn and(self, other: Cond) -> Cond {
        Cond::And(Box::new(self), Box::new(other))
    }
    fn or(self, other: Cond) -> Cond {
        Cond::Or(Box::new(self), Box::new(other))
    }
}

/// What a [`Piece`] writes in place of part of the text.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Sub {
    /// A bound temporary.
    Temp(u32),
    /// The activity: an exchange's first argument.
    Active,
    /// An activity as a new first argument (of a converted function's
    /// call): `Active`, or the flag of a short circuit's right operand;
    /// `more` when other arguments follow.
    ActiveArg { flag: Flag, more: bool },
    /// A flag in place of the range: the value of a short circuit's left
    /// operand, computed before the statement, or the activity of an
    /// exchange under a short circuit.
    Flag(Flag),
    /// Before an operand evaluated only where `flag` is set (GLSL's
    /// `flag ? operand : zero`): the condition, and the operand's opening,
    /// `(` or a conversion to the parameter's type (`uint(`). Empty.
    Evaluate { flag: Flag, open: &'static str },
    /// After such an operand: its value elsewhere. Empty.
    Otherwise(String),
}

/// A range of the text, with parts replaced.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Piece {
    pub range: Range<usize>,
    /// Sorted, disjoint, inside `range`.
    pub subs: Vec<(Range<usize>, Sub)>,
}

/// Where an assignment goes.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Place {
    /// A variable of the user's, by its name's range.
    User(Range<usize>),
    /// The function's return value.
    RetVal,
}

/// One step of a converted function.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Step {
    /// A statement, as written, in every invocation.
    Plain(Piece),
    /// A statement, where `Active` is set.
    Guarded(Piece),
    /// An expression statement (a loop's update), where `Active` is set.
    GuardedExpr(Piece),
    /// An exchange or converted call, in every invocation, into a
    /// temporary; `ty` is its GLSL type (WGSL's `let` needs none).
    Bind {
        temp: u32,
        ty: Option<String>,
        value: Piece,
    },
    /// A variable, declared without its initialiser; `ty` is its type's
    /// text.
    Declare {
        name: Range<usize>,
        ty: String,
        suffix: Option<Range<usize>>,
    },
    /// `place = value`, where `Active` is set.
    Assign { place: Place, value: Piece },
    /// A new flag, `false`, then the `bool` expression where `Active` is
    /// set.
    Test { flag: Flag, value: Piece },
    /// New flags, `false`, then, where `Active` is set, the selector
    /// evaluated once, as a `switch` of the language, setting the flag of
    /// the arm it selects: each arm's case values, and whether it is the
    /// `default`'s.
    Dispatch {
        selector: Piece,
        arms: Vec<(Flag, Vec<Piece>, bool)>,
    },
    /// A new immutable flag.
    Let { flag: Flag, cond: Cond },
    /// A new mutable flag.
    Var { flag: Flag, cond: Cond },
    /// A flag set.
    Set { flag: Flag, cond: Cond },
    /// `{ … }`.
    Scope(Vec<Step>),
    /// A loop, left only by [`Step::Exit`].
    Loop(Vec<Step>),
    /// Leaves the loop when no invocation is active: of the workgroup
    /// (`vote`), or this one.
    Exit { vote: bool },
}

/// A converted function.
#[derive(Clone, Debug)]
pub(crate) struct Converted {
    /// Its index in the [`Unit`].
    pub function: usize,
    /// Whether every invocation of the workgroup enters it together (an
    /// entry point, or a function called only from such a function's
    /// top): `Active` starts set, rather than taken from the caller.
    pub entry: bool,
    pub steps: Vec<Step>,
    /// Whether the body ends with its only `return`, written as is
    /// ([`Step::Plain`]): no return value to keep apart.
    pub tail_return: bool,
    /// Its temporaries' count, and flags'.
    pub uses_vote: bool,
}

/// A refusal, at a range of the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refusal {
    pub message: String,
    pub at: Range<usize>,
    /// Whether the function could not be read at all
    /// ([`super::tree::Unread`]), rather than refused by the pass.
    pub unread: bool,
}

/// What the pass takes.
pub(crate) struct Request<'a> {
    pub text: &'a str,
    pub language: Language,
    pub unit: &'a Unit,
    /// The exchanges, by function name, with their result type: calls
    /// whose first argument is the activity.
    pub exchanges: &'a BTreeMap<String, Exchange>,
    /// The shader's own barriers and other calls that every invocation of
    /// the workgroup must make together: never guarded.
    pub barriers: &'a [&'a str],
    /// The type of a WGSL initialiser, or of a GLSL call of an overloaded
    /// name, at a range of `text`, where the caller knows it
    /// ([`super::Options::init_type`]).
    pub init_type: &'a dyn Fn(Range<usize>) -> Option<String>,
    /// Which overload a GLSL call calls, where the caller can tell
    /// ([`super::Options::calls`]).
    pub calls: &'a dyn Fn(Range<usize>, Range<usize>) -> Option<bool>,
    /// GLSL's function-like macros, with their bodies
    /// ([`super::Options::macros`]).
    pub macros: &'a [(&'a str, &'a str)],
}

/// Built-in functions with side effects: an initialiser that calls one is
/// evaluated only where `Active` is set.
const SIDE_EFFECTS: &[&str] = &[
    "atomicAdd",
    "atomicSub",
    "atomicMax",
    "atomicMin",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "atomicExchange",
    "atomicCompareExchange",
    "atomicCompareExchangeWeak",
    "atomicCompSwap",
    "atomicStore",
    "imageStore",
    "imageAtomicAdd",
    "imageAtomicExchange",
    "imageAtomicCompSwap",
    "imageAtomicMin",
    "imageAtomicMax",
    "imageAtomicAnd",
    "imageAtomicOr",
    "imageAtomicXor",
    "textureStore",
    "atomicCounterIncrement",
    "atomicCounterDecrement",
    "atomicCounterAdd",
    "atomicCounterSubtract",
    "atomicCounterMin",
    "atomicCounterMax",
    "atomicCounterAnd",
    "atomicCounterOr",
    "atomicCounterXor",
    "atomicCounterExchange",
    "atomicCounterCompSwap",
];

/// GLSL's built-in functions that write an `out` argument (WGSL's `modf`
/// and `frexp` return a struct): side effects there too.
const GLSL_OUT_WRITERS: &[&str] = &[
    "uaddCarry",
    "usubBorrow",
    "umulExtended",
    "imulExtended",
    "modf",
    "frexp",
];

/// What a name of the [`Unit`] is when called: each distinct name
/// classified once, so that the pass reads a call's kind by its
/// [`Call::callee`] rather than comparing its text with every kind's names.
#[derive(Clone, Copy, Debug, Default)]
struct Callee {
    /// An exchange's result type, where the name is an exchange's.
    exchange: Option<Result_>,
    /// An exchange's operands after the activity.
    operands: &'static [Operand],
    /// The last defined of the shader's functions of that name. A GLSL
    /// name may have several (overloads), which the pass converts, or
    /// not, together, so that `converted` and `together` read from this
    /// one hold for all of them.
    function: Option<usize>,
    /// The first defined, whose return type a converted call takes.
    first_function: Option<usize>,
    /// GLSL overloads of the name return different types: a converted
    /// call's type cannot be told without its arguments' types.
    mixed_returns: bool,
    /// One of [`Request::barriers`].
    barrier: bool,
    /// One of [`SIDE_EFFECTS`].
    side_effects: bool,
    /// Its function (one of its overloads) may change what its caller
    /// sees ([`effectful`]).
    effects: bool,
    /// Its function reaches an exchange: it is converted.
    converted: bool,
    /// Its function is converted and entered together
    /// ([`entered_together`]).
    together: bool,
}

/// Of GLSL's function-like macros, those whose bodies write (an
/// assignment, an increment, a built-in with side effects): a call of one
/// changes state as a function's would, and the reader, which sees the
/// call and not the body, could not tell.
fn writing_macros<'m>(macros: &[(&'m str, &str)]) -> BTreeSet<&'m str> {
    macros
        .iter()
        .filter(|(_, body)| {
            let calls_effect = body
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .any(|n| SIDE_EFFECTS.contains(&n) || GLSL_OUT_WRITERS.contains(&n));
            calls_effect || !effects::writes(body, 0..body.len(), Language::Glsl).is_empty()
        })
        .map(|(name, _)| *name)
        .collect()
}

/// Every name of `request.unit`, classified, but for which functions are
/// converted and entered together, which the pass finds after.
fn callees(request: &Request<'_>) -> Vec<Callee> {
    let unit = request.unit;
    let glsl = request.language == Language::Glsl;
    let writing_macros = writing_macros(request.macros);
    let mut callees: Vec<Callee> = unit
        .names
        .iter()
        .map(|r| {
            let name = &request.text[r.clone()];
            Callee {
                exchange: request.exchanges.get(name).map(|e| e.result),
                operands: request.exchanges.get(name).map_or(&[], |e| e.operands),
                barrier: request.barriers.contains(&name),
                side_effects: SIDE_EFFECTS.contains(&name)
                    || (glsl && GLSL_OUT_WRITERS.contains(&name))
                    || writing_macros.contains(name),
                ..Callee::default()
            }
        })
        .collect();
    let ret = |i: usize| {
        unit.functions[i]
            .ret
            .as_ref()
            .map(|r| request.text[r.clone()].trim())
    };
    for (i, f) in unit.functions.iter().enumerate() {
        let callee = &mut callees[f.id as usize];
        callee.function = Some(i);
        let first = *callee.first_function.get_or_insert(i);
        callee.mixed_returns |= ret(first) != ret(i);
    }
    callees
}

/// Converts every function of `request.unit` that reaches an exchange.
pub(crate) fn convert(request: &Request<'_>) -> Result<Vec<Converted>, Refusal> {
    let text = request.text;
    let unit = request.unit;
    let mut names = callees(request);
    // GLSL's overloads share a name, and which one a call calls depends
    // on its arguments' types, which the pass does not know: a call of a
    // name is taken as a call of each function of that name, and they are
    // converted, or not, together.
    let mut overloads: Vec<Vec<usize>> = vec![Vec::new(); unit.names.len()];
    for (i, f) in unit.functions.iter().enumerate() {
        overloads[f.id as usize].push(i);
    }
    // Which functions reach an exchange: to a fixed point over the calls.
    let mut reaches = vec![false; unit.functions.len()];
    let calls: Vec<BTreeSet<usize>> = unit
        .functions
        .iter()
        .map(|f| {
            let mut callees = BTreeSet::new();
            let mut exchange = false;
            let mut call = |name: super::tree::Name| {
                let callee = &names[name as usize];
                if callee.exchange.is_some() {
                    exchange = true;
                } else {
                    callees.extend(&overloads[name as usize]);
                }
            };
            match &f.unread {
                Some(u) => u.calls.iter().for_each(|&n| call(n)),
                None => each_call(unit, &f.body.stmts, &mut |c: &Call| call(c.callee)),
            }
            if exchange {
                callees.insert(usize::MAX);
            }
            callees
        })
        .collect();
    loop {
        let mut changed = false;
        for (i, callees) in calls.iter().enumerate() {
            if !reaches[i]
                && callees
                    .iter()
                    .any(|&c| c == usize::MAX || reaches.get(c) == Some(&true))
            {
                reaches[i] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Every caller of one overload that reaches is a caller of all of
    // them, so this changes no other function's answer.
    for group in &overloads {
        if group.iter().any(|&i| reaches[i]) {
            group.iter().for_each(|&i| reaches[i] = true);
        }
    }
    let effects = effectful(request, &names, &overloads);
    for callee in &mut names {
        callee.effects = callee.function.is_some_and(|i| {
            overloads[unit.functions[i].id as usize]
                .iter()
                .any(|&o| effects.any[o])
        });
    }
    let together = entered_together(request, &overloads, &reaches);
    for callee in &mut names {
        if let Some(i) = callee.function {
            callee.converted = reaches[i];
            callee.together = together[i];
        }
    }
    let mut out = Vec::new();
    for (i, f) in unit.functions.iter().enumerate() {
        if !reaches[i] {
            continue;
        }
        if let Some(u) = &f.unread {
            return Err(Refusal {
                message: u.error.message.clone(),
                at: u.error.at.clone(),
                unread: true,
            });
        }
        if let Some(stage @ (Stage::Fragment | Stage::Vertex)) = f.stage {
            let stage = if stage == Stage::Fragment {
                "fragment"
            } else {
                "vertex"
            };
            return Err(Refusal {
                message: format!(
                    "`{}` is a {stage} entry point: without subgroups, collectives exchange \
                     through workgroup memory, which only compute shaders have",
                    &text[f.name.clone()]
                ),
                at: f.name.clone(),
                unread: false,
            });
        }
        // A body that ends with a `return` of no collective keeps it as
        // written where nothing returned before.
        let tail = f.body.stmts.last().filter(|s| {
            matches!(&s.kind, StmtKind::Return(v)
            if v.as_ref().is_none_or(|e| !unit.calls(e).iter().any(|c| {
                let callee = &names[c.callee as usize];
                callee.converted || callee.exchange.is_some()
            })))
        });
        let mut pass = Pass {
            request,
            names: &names,
            named: &effects.named[i],
            next: 0,
            breakables: Vec::new(),
            all_active: together[i],
            tail: tail.map(|s| s.range.clone()),
            tail_return: false,
            activity: BTreeMap::new(),
            lefts: BTreeMap::new(),
            scopes: vec![f
                .params
                .iter()
                .map(|p| {
                    (
                        text[p.name.clone()].to_string(),
                        text[p.ty.clone()].to_string(),
                    )
                })
                .collect()],
            uses_vote: false,
        };
        // A function entered together whose every statement the pass
        // would write as it is: known without building its steps, which
        // at hundreds of thousands of calls cost more than the check.
        // This crate's tests build them all the same, and hold the
        // shortcut to the pass's own verdict.
        if together[i] && stays_as_written(unit, &names, &f.body.stmts, tail.map(|s| &s.range)) {
            if cfg!(test) {
                let steps = pass.block(&f.body.stmts);
                assert!(
                    steps.as_ref().is_ok_and(|s| s.iter().all(unchanged)),
                    "`stays_as_written` kept `{}`, which the pass writes otherwise",
                    &text[f.name.clone()]
                );
            }
            continue;
        }
        let steps = pass.block(&f.body.stmts)?;
        // A function whose every step is its own text, with the linked
        // activity (`true` as written) where it is set, stays as it is.
        if together[i] && steps.iter().all(unchanged) {
            continue;
        }
        out.push(Converted {
            function: i,
            entry: together[i],
            steps,
            tail_return: pass.tail_return,
            uses_vote: pass.uses_vote,
        });
    }
    Ok(out)
}

/// Whether [`Pass::block`], at the top of a function entered together
/// (every invocation active, `tail` its last statement where that is a
/// `return` of no collective), would make only steps that are
/// [`unchanged`], and refuse nothing: a sufficient test, cheaper than the
/// steps. It holds where each statement is
/// - one that holds no collective and cannot jump out of itself (a
///   [`Step::Plain`] without substitutions);
/// - a declaration or expression whose collectives are unconditional
///   exchanges (their activity stays `true` as written) or calls of
///   functions entered together (which take none), an expression's
///   nested in no other collective but the statement's whole call (the
///   pass would bind those into temporaries);
/// - a block of such statements, `tail`, or `;`.
///
/// Anything else (a `return` before the end, a `break` outside a loop, a
/// short circuit around a collective, a converted function called with
/// its activity, control flow around a collective) goes through the pass,
/// which writes or refuses it.
fn stays_as_written(
    unit: &Unit,
    names: &[Callee],
    stmts: &[Stmt],
    tail: Option<&Range<usize>>,
) -> bool {
    let collective = |c: &Call| {
        let callee = &names[c.callee as usize];
        callee.exchange.is_some() || callee.converted
    };
    // A collective's substitution is `Sub::Active` (an exchange) or none
    // (entered together), and no short circuit may skip it.
    let as_written = |c: &Call| {
        let callee = &names[c.callee as usize];
        !c.conditional && (callee.exchange.is_some() || callee.together)
    };
    stmts.iter().all(|s| match &s.kind {
        StmtKind::Decl(d) => d
            .declarators
            .iter()
            .filter_map(|x| x.init.as_ref())
            .all(|e| {
                unit.calls(e)
                    .iter()
                    .all(|c| !collective(c) || as_written(c))
            }),
        StmtKind::Simple(e) => {
            let calls = unit.calls(e);
            // `f(x);` as a whole: the pass binds the collectives inside
            // its arguments, so there may be none.
            let whole = calls
                .first()
                .filter(|c| c.range == e.range && collective(c));
            calls
                .iter()
                .enumerate()
                .all(|(k, c)| !collective(c) || (as_written(c) && (whole.is_none() || k == 0)))
        }
        StmtKind::Block(b) => stays_as_written(unit, names, &b.stmts, None),
        StmtKind::Return(_) if tail == Some(&s.range) => true,
        StmtKind::Empty => true,
        _ => {
            let jumps = Pass::jumps(s, false, false);
            let mut any = false;
            each_expr(s, &mut |e: &Expr| {
                any |= unit.calls(e).iter().any(collective)
            });
            !(any || jumps.ret || jumps.out)
        }
    })
}

/// Whether `step` is the text as written, up to the activity of the
/// exchanges in it, in a function where every invocation is active.
fn unchanged(step: &Step) -> bool {
    match step {
        Step::Plain(p) => p.subs.iter().all(|(_, s)| *s == Sub::Active),
        Step::Scope(steps) => steps.iter().all(unchanged),
        _ => false,
    }
}

/// Which functions every invocation of the workgroup enters together, all
/// active: the entry points, and, to a fixed point, the functions that
/// reach an exchange and are called only where their caller is entered
/// together and every invocation is still active (a statement of its top,
/// or of a block there, before anything can have returned; never under a
/// branch or in a loop). Such a function takes no activity, and its own
/// top runs as written. The reading is the pass's own (`Pass::all_active`)
/// or stricter, so that no call the pass guards goes to one of them.
fn entered_together(
    request: &Request<'_>,
    overloads: &[Vec<usize>],
    reaches: &[bool],
) -> Vec<bool> {
    fn sites(
        stmts: &[Stmt],
        top: &mut bool,
        unit: &Unit,
        overloads: &[Vec<usize>],
        out: &mut Vec<(usize, bool)>,
    ) {
        for s in stmts {
            match &s.kind {
                StmtKind::Block(b) => sites(&b.stmts, top, unit, overloads, out),
                kind => {
                    let here = *top
                        && matches!(
                            kind,
                            StmtKind::Simple(_) | StmtKind::Decl(_) | StmtKind::Return(_)
                        );
                    each_expr(s, &mut |e: &Expr| {
                        for c in unit.calls(e) {
                            // A call `&&`, `||` or `?:` may skip is made
                            // by some invocations only.
                            for &i in &overloads[c.callee as usize] {
                                out.push((i, here && !c.conditional));
                            }
                        }
                    });
                }
            }
            if Pass::jumps(s, false, false).ret {
                *top = false;
            }
        }
    }
    let unit = request.unit;
    // Each function's call sites: (caller, whether all are active there).
    let mut called: Vec<Vec<(usize, bool)>> = vec![Vec::new(); unit.functions.len()];
    for (g, f) in unit.functions.iter().enumerate() {
        let mut out = Vec::new();
        sites(&f.body.stmts, &mut true, unit, overloads, &mut out);
        for (i, top) in out {
            called[i].push((g, top));
        }
    }
    let mut together: Vec<bool> = unit
        .functions
        .iter()
        .enumerate()
        .map(|(i, f)| reaches[i] && (f.stage.is_some() || !called[i].is_empty()))
        .collect();
    loop {
        let mut changed = false;
        for (i, f) in unit.functions.iter().enumerate() {
            if together[i]
                && f.stage.is_none()
                && called[i].iter().any(|&(g, top)| !top || !together[g])
            {
                together[i] = false;
                changed = true;
            }
        }
        if !changed {
            return together;
        }
    }
}

/// Every call in `stmts`, nested ones included.
fn each_call(unit: &Unit, stmts: &[Stmt], f: &mut dyn FnMut(&Call)) {
    for s in stmts {
        each_expr(s, &mut |e: &Expr| unit.calls(e).iter().for_each(&mut *f));
    }
}

/// Whether a parameter's type text passes it by reference: GLSL's `out`
/// and `inout`, WGSL's pointers.
fn by_reference(ty: &str) -> bool {
    ty.contains("ptr")
        || ty
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .any(|w| w == "out" || w == "inout")
}

/// The name an argument passed by reference starts with (`t` of `&t`,
/// `data` of `data[i]`).
fn arg_root(arg: &str) -> Option<&str> {
    identifiers(arg).first().map(|&(_, n)| n)
}

/// What the pass knows of each of the shader's functions' effects.
struct Effects {
    /// Whether the function may change what its caller sees: it writes a
    /// name it does not declare (a global, a buffer) or one of its
    /// parameters passed by reference ([`by_reference`]), calls a builtin
    /// of [`SIDE_EFFECTS`], or calls a function that may and passes it
    /// something other than its own locals to write.
    any: Vec<bool>,
    /// Each function's own names: its parameters and the names it
    /// declares (any scope; a shadowed global is taken as the local).
    named: Vec<BTreeSet<String>>,
}

/// [`Effects`] of every function of the unit, to a fixed point over the
/// calls.
fn effectful(request: &Request<'_>, names: &[Callee], overloads: &[Vec<usize>]) -> Effects {
    let (unit, text) = (request.unit, request.text);
    let n = unit.functions.len();
    // What each writes: its locals' names are nothing to the caller; a
    // parameter by reference is the caller's; anything else is global.
    let mut locals: Vec<BTreeSet<String>> = Vec::with_capacity(n);
    let mut by_ref: Vec<BTreeSet<String>> = Vec::with_capacity(n);
    let mut global = vec![false; n];
    let mut param = vec![false; n];
    // Each call of another function: the callee's overloads, and the
    // roots of the arguments it is passed.
    type Called = Vec<(usize, Vec<Option<String>>)>;
    let mut calls: Vec<Called> = Vec::with_capacity(n);
    // The names the text declares outside its functions (globals, buffer
    // members, `shared` variables): a body's declaration of one of them,
    // in some scope, is not taken as the function's own, as the reader
    // does not follow scopes.
    let globals: BTreeSet<&str> = effects::global_names(text, request.language)
        .into_iter()
        .map(|r| &text[r])
        .collect();
    // Which argument positions of each function are by reference.
    let mut ref_positions: Vec<Vec<bool>> = Vec::with_capacity(n);
    for (i, f) in unit.functions.iter().enumerate() {
        ref_positions.push(
            f.params
                .iter()
                .map(|p| by_reference(&text[p.ty.clone()]))
                .collect(),
        );
        let mut passed = ref_positions[i].iter();
        let (refs, vals): (Vec<_>, Vec<_>) =
            f.params.iter().partition(|_| passed.next() == Some(&true));
        let mut own: BTreeSet<String> = vals
            .iter()
            .map(|p| text[p.name.clone()].to_string())
            .collect();
        // WGSL's `_ = f(x);` writes nothing.
        own.insert("_".to_string());
        let refs: BTreeSet<String> = refs
            .iter()
            .map(|p| text[p.name.clone()].to_string())
            .collect();
        for s in &f.body.stmts {
            each_stmt(s, &mut |s: &Stmt| {
                if let StmtKind::Decl(d) = &s.kind {
                    // A WGSL `let p = &data[0];` is a pointer to what it
                    // names, no local of its own.
                    let pointer = |x: &&super::tree::Declarator| {
                        x.init
                            .as_ref()
                            .is_some_and(|e| text[e.range.clone()].trim_start().starts_with('&'))
                    };
                    own.extend(
                        d.declarators
                            .iter()
                            .filter(|x| !pointer(x) && !globals.contains(&text[x.name.clone()]))
                            .map(|x| text[x.name.clone()].to_string()),
                    );
                }
            });
        }
        let mut writes = Vec::new();
        let mut called: Called = Vec::new();
        let mut side_effects = false;
        // GLSL's builtins that write an `out` argument write what their
        // arguments name (all of them, to be safe): a write to a local is
        // nothing to the caller.
        let mut out_roots: Vec<String> = Vec::new();
        let mut call = |name: super::tree::Name, args: Vec<Option<String>>| {
            let named = &text[unit.names[name as usize].clone()];
            if request.language == Language::Glsl && GLSL_OUT_WRITERS.contains(&named) {
                out_roots.extend(args.iter().flatten().cloned());
                side_effects |= args.is_empty() || args.iter().any(Option::is_none);
            } else {
                side_effects |= names[name as usize].side_effects;
            }
            for &g in &overloads[name as usize] {
                called.push((g, args.clone()));
            }
        };
        match &f.unread {
            Some(unread) => {
                // A body the reader could not read (a macro as a
                // statement): its text as written, its declarations as
                // they seem, its calls' arguments unknown. A macro's own
                // body is not seen.
                let body = f.body.range.clone();
                own.extend(
                    effects::declared_names(text, body.clone(), request.language)
                        .into_iter()
                        .map(|r| &text[r])
                        .filter(|n| !globals.contains(n))
                        .map(str::to_string),
                );
                writes.extend(effects::writes(text, body, request.language));
                unread.calls.iter().for_each(|&name| call(name, Vec::new()));
            }
            None => {
                for s in &f.body.stmts {
                    each_expr(s, &mut |e: &Expr| {
                        for c in unit.calls(e) {
                            let roots = unit
                                .args(c)
                                .iter()
                                .map(|a| arg_root(&text[a.clone()]).map(str::to_string))
                                .collect();
                            call(c.callee, roots);
                        }
                        writes.extend(effects::writes(text, e.range.clone(), request.language));
                    });
                }
            }
        }
        global[i] = side_effects;
        let roots = writes
            .iter()
            .map(|w| w.root.as_ref().map(|r| &text[r.clone()]))
            .chain(out_roots.iter().map(|r| Some(r.as_str())));
        for root in roots {
            match root {
                Some(root) if own.contains(root) => {}
                Some(root) if refs.contains(root) => param[i] = true,
                _ => global[i] = true,
            }
        }
        locals.push(own);
        by_ref.push(refs);
        calls.push(called);
    }
    loop {
        let mut changed = false;
        for i in 0..n {
            for (g, roots) in &calls[i] {
                if global[*g] && !global[i] {
                    global[i] = true;
                    changed = true;
                }
                if !param[*g] {
                    continue;
                }
                // What the callee writes through its parameters: the
                // caller's own locals, its parameters, or else globals
                // (an argument the reader could not see among them).
                let unseen = roots.len() < ref_positions[*g].len();
                let passed = ref_positions[*g]
                    .iter()
                    .zip(roots.iter().map(Some).chain(std::iter::repeat(None)))
                    .filter(|(by_ref, _)| **by_ref)
                    .map(|(_, root)| root.and_then(|r| r.as_deref()));
                for root in passed {
                    let (flag, value) = match root {
                        Some(r) if locals[i].contains(r) => continue,
                        Some(r) if by_ref[i].contains(r) && !unseen => (&mut param, i),
                        _ => (&mut global, i),
                    };
                    if !flag[value] {
                        flag[value] = true;
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            let any = (0..n).map(|i| global[i] || param[i]).collect();
            let named = locals
                .into_iter()
                .zip(by_ref)
                .map(|(own, refs)| own.into_iter().chain(refs).collect())
                .collect();
            return Effects { any, named };
        }
    }
}

/// The names in `text` that are not members (after `.`), with their
/// offsets: what an expression reads by name.
fn identifiers(text: &str) -> Vec<(usize, &str)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let b = bytes[at];
        if b.is_ascii_alphabetic() || b == b'_' {
            let start = at;
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'_') {
                at += 1;
            }
            let member = text[..start].trim_end().ends_with('.');
            if !member {
                out.push((start, &text[start..at]));
            }
        } else if b.is_ascii_digit() {
            // A number's suffix (`1u`, `2.0lf`) is no name.
            while at < bytes.len() && (bytes[at].is_ascii_alphanumeric() || bytes[at] == b'.') {
                at += 1;
            }
        } else {
            at += 1;
        }
    }
    out
}

/// Whether a condition's `text` declares a variable, as GLSL's `while`
/// and `for` conditions may: a type's name, a name, and `=`.
fn declares(text: &str) -> bool {
    let names = identifiers(text);
    let skip = usize::from(names.first().is_some_and(|(_, n)| *n == "const"));
    let (Some(&(a, ty)), Some(&(b, name))) = (names.get(skip), names.get(skip + 1)) else {
        return false;
    };
    let after = text[b + name.len()..].trim_start();
    text[..names[0].0].trim().is_empty()
        && text[a + ty.len()..b].trim().is_empty()
        && after.starts_with('=')
        && !after.starts_with("==")
}

/// Whether `text[range]` holds a `,` outside brackets.
fn top_level_comma(text: &str, range: Range<usize>) -> bool {
    let mut depth = 0i32;
    text[range].bytes().any(|b| {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            _ => {}
        }
        b == b',' && depth <= 0
    })
}

/// Every expression of `s` and of the statements in it.
fn each_expr(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    each_stmt(s, &mut |s: &Stmt| own_exprs(s, f));
}

/// `s` and every statement in it, outermost first.
fn each_stmt(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    f(s);
    let mut each = |stmts: &[Stmt]| stmts.iter().for_each(|s| each_stmt(s, f));
    match &s.kind {
        StmtKind::Block(b) => each(&b.stmts),
        StmtKind::If { then, els, .. } => {
            each(std::slice::from_ref(then));
            each(els.as_deref().map(std::slice::from_ref).unwrap_or_default());
        }
        StmtKind::For { init, body, .. } => {
            each(
                init.as_deref()
                    .map(std::slice::from_ref)
                    .unwrap_or_default(),
            );
            each(std::slice::from_ref(body));
        }
        StmtKind::While { body, .. } | StmtKind::DoWhile { body, .. } => {
            each(std::slice::from_ref(body))
        }
        StmtKind::Loop { body, continuing } => {
            each(&body.stmts);
            each(continuing.as_ref().map_or(&[][..], |b| &b.stmts));
        }
        StmtKind::Switch { cases, .. } => cases.iter().for_each(|c| each(&c.body)),
        StmtKind::Simple(_)
        | StmtKind::BreakIf(_)
        | StmtKind::Return(_)
        | StmtKind::Decl(_)
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Discard
        | StmtKind::Directive
        | StmtKind::Empty => {}
    }
}

/// The expressions of `s` itself, not of the statements in it.
fn own_exprs(s: &Stmt, f: &mut dyn FnMut(&Expr)) {
    match &s.kind {
        StmtKind::Simple(e) | StmtKind::BreakIf(e) => f(e),
        StmtKind::Return(e) => e.iter().for_each(f),
        StmtKind::Decl(d) => d
            .declarators
            .iter()
            .filter_map(|d| d.init.as_ref())
            .for_each(f),
        StmtKind::If { cond, .. }
        | StmtKind::While { cond, .. }
        | StmtKind::DoWhile { cond, .. } => f(cond),
        StmtKind::For { cond, update, .. } => {
            cond.iter().for_each(&mut *f);
            update.iter().for_each(f);
        }
        StmtKind::Switch { selector, cases } => {
            f(selector);
            cases.iter().flat_map(|c| &c.values).for_each(f);
        }
        StmtKind::Block(_)
        | StmtKind::Loop { .. }
        | StmtKind::Break
        | StmtKind::Continue
        | StmtKind::Discard
        | StmtKind::Directive
        | StmtKind::Empty => {}
    }
}

/// A short circuit (`&&`, `||`, `?:`) with a collective in its right
/// operand or an arm.
struct Circuit {
    /// Where its operator starts: its key.
    op: usize,
    /// Its left operand (the condition).
    left: Range<usize>,
    /// Whether the right operand runs where the left one is true (`&&`,
    /// the first arm of `?:`) or false.
    when: bool,
}

/// WGSL's names that a template list (`<…>`) follows in an expression.
const TEMPLATED: &[&str] = &[
    "vec2", "vec3", "vec4", "mat2x2", "mat2x3", "mat2x4", "mat3x2", "mat3x3", "mat3x4", "mat4x2",
    "mat4x3", "mat4x4", "array", "bitcast", "ptr", "atomic",
];

/// A loop or `switch` that `break` leaves.
struct Breakable {
    brk: Flag,
    /// A loop's `Cont`; `None` for a `switch`.
    cont: Option<Flag>,
}

struct Pass<'r, 'a> {
    request: &'r Request<'a>,
    /// The function's own names ([`Effects::named`]).
    named: &'r BTreeSet<String>,
    /// Every name, classified: among them the converted functions, and
    /// those entered together ([`entered_together`]), called without the
    /// caller's activity.
    names: &'r [Callee],
    next: u32,
    breakables: Vec<Breakable>,
    /// Whether every invocation is still active: the top of an entry
    /// point, before any `return`.
    all_active: bool,
    /// The function's last statement, where it is a `return` of no
    /// collective: written as is where every invocation is active.
    tail: Option<Range<usize>>,
    /// Whether it was.
    tail_return: bool,
    /// The activity of each exchange under a short circuit, by the
    /// call's start.
    activity: BTreeMap<usize, Flag>,
    /// Each short circuit's left operand, by its start, computed before
    /// its statement into the flag that takes its place there.
    lefts: BTreeMap<usize, (Range<usize>, Flag)>,
    /// GLSL: the variables in scope and their types, innermost last.
    scopes: Vec<Vec<(String, String)>>,
    uses_vote: bool,
}

/// How a statement may leave its sequence.
#[derive(Default, Clone, Copy)]
struct Jumps {
    ret: bool,
    /// A `break` or `continue` to a loop or switch outside the statement.
    out: bool,
}

impl<'r, 'a> Pass<'r, 'a> {
    fn text(&self, r: &Range<usize>) -> &'a str {
        &self.request.text[r.clone()]
    }

    fn id(&mut self) -> u32 {
        self.next += 1;
        self.next - 1
    }

    fn refuse<T>(&self, at: &Range<usize>, message: impl Into<String>) -> Result<T, Refusal> {
        Err(Refusal {
            message: message.into(),
            at: at.clone(),
            unread: false,
        })
    }

    /// What `c` calls.
    fn callee(&self, c: &Call) -> &'r Callee {
        &self.names[c.callee as usize]
    }

    /// `e`'s calls.
    fn calls(&self, e: &Expr) -> &'a [Call] {
        self.request.unit.calls(e)
    }

    /// `c`'s arguments.
    fn args(&self, c: &Call) -> &'a [Range<usize>] {
        self.request.unit.args(c)
    }

    /// Whether a call is an exchange or a converted function's.
    fn collective(&self, c: &Call) -> bool {
        let callee = self.callee(c);
        callee.exchange.is_some() || callee.converted
    }

    fn holds_collective(&self, s: &Stmt) -> bool {
        let mut any = false;
        each_expr(s, &mut |e: &Expr| {
            any |= self.calls(e).iter().any(|c| self.collective(c));
        });
        any
    }

    /// How `s` can jump out of itself.
    fn jumps(s: &Stmt, in_loop: bool, in_breakable: bool) -> Jumps {
        let mut j = Jumps::default();
        Self::jumps_into(s, in_loop, in_breakable, &mut j);
        j
    }

    /// `inner_loop`/`inner_breakable`: whether a loop or switch inside `s`
    /// encloses the current statement.
    fn jumps_into(s: &Stmt, inner_loop: bool, inner_breakable: bool, j: &mut Jumps) {
        let mut each = |s: &Stmt, l: bool, b: bool| Self::jumps_into(s, l, b, j);
        match &s.kind {
            StmtKind::Return(_) => j.ret = true,
            StmtKind::Break if !inner_breakable => j.out = true,
            StmtKind::Continue if !inner_loop => j.out = true,
            StmtKind::Block(b) => b
                .stmts
                .iter()
                .for_each(|s| each(s, inner_loop, inner_breakable)),
            StmtKind::If { then, els, .. } => {
                each(then, inner_loop, inner_breakable);
                if let Some(e) = els {
                    each(e, inner_loop, inner_breakable);
                }
            }
            StmtKind::For { body, .. }
            | StmtKind::While { body, .. }
            | StmtKind::DoWhile { body, .. } => each(body, true, true),
            StmtKind::Loop { body, continuing } => {
                body.stmts.iter().for_each(|s| each(s, true, true));
                if let Some(c) = continuing {
                    c.stmts.iter().for_each(|s| each(s, true, true));
                }
            }
            StmtKind::Switch { cases, .. } => {
                for c in cases {
                    c.body.iter().for_each(|s| each(s, inner_loop, true));
                }
            }
            _ => {}
        }
    }

    /// The flags that rejoin after a statement that some invocations may
    /// have jumped out of: `base`, less the returned and those that left
    /// the innermost loop or switch.
    fn rejoin(&self, base: Cond) -> Cond {
        let mut c = base.and(Cond::Not(Flag::Ret));
        if let Some(b) = self.breakables.last() {
            c = c.and(Cond::Not(b.brk));
        }
        if let Some(cont) = self.breakables.iter().rev().find_map(|b| b.cont) {
            c = c.and(Cond::Not(cont));
        }
        c
    }

    fn block(&mut self, stmts: &[Stmt]) -> Result<Vec<Step>, Refusal> {
        self.scopes.push(Vec::new());
        let mut steps = Vec::new();
        for s in stmts {
            self.stmt(s, &mut steps)?;
        }
        self.scopes.pop();
        Ok(steps)
    }

    /// `s`'s steps, in a scope of their own where `s` is a block.
    fn scoped(&mut self, s: &Stmt) -> Result<Vec<Step>, Refusal> {
        match &s.kind {
            StmtKind::Block(b) => self.block(&b.stmts),
            _ => {
                self.scopes.push(Vec::new());
                let mut steps = Vec::new();
                self.stmt(s, &mut steps)?;
                self.scopes.pop();
                Ok(steps)
            }
        }
    }

    /// The piece of `range`, with the collective calls in it written as
    /// `bound` says (their temporaries), and the activity given to the
    /// others.
    fn piece(&self, range: Range<usize>, calls: &[Call], bound: &BTreeMap<usize, u32>) -> Piece {
        let mut subs: Vec<(Range<usize>, Sub)> = Vec::new();
        for c in calls {
            if c.range.start < range.start || c.range.end > range.end || !self.collective(c) {
                continue;
            }
            // Inside a call already replaced by its temporary: nothing.
            if subs.iter().any(|(r, s)| {
                matches!(s, Sub::Temp(_)) && r.start <= c.range.start && c.range.end <= r.end
            }) {
                continue;
            }
            // A bound call is its temporary (a bind's own piece is made
            // before its call is bound).
            if let Some(&t) = bound.get(&c.range.start) {
                // What is inside it goes with it; not an enclosing call's
                // activity argument, empty, at its start (`f(f(x))`).
                // Nor an enclosing call's operand guard, empty, at either
                // end (`subgroupAny(subgroupAll(p))`).
                subs.retain(|(r, _)| {
                    let inside = c.range.start <= r.start && r.end <= c.range.end;
                    !inside
                        || (r.is_empty() && (r.start == c.range.start || r.start == c.range.end))
                });
                subs.push((c.range.clone(), Sub::Temp(t)));
                continue;
            }
            let callee = self.callee(c);
            let flag = self.activity.get(&c.range.start).copied();
            // The operands to evaluate only where the invocation is
            // active, with their opening and their value elsewhere.
            let mut guarded: Vec<(&Range<usize>, Option<Elsewhere>)> = Vec::new();
            if callee.exchange.is_some() {
                if let Some(first) = self.args(c).first() {
                    subs.push((first.clone(), flag.map_or(Sub::Active, Sub::Flag)));
                }
                for (arg, &operand) in self.args(c).iter().skip(1).zip(callee.operands) {
                    guarded.push((arg, self.inactive_operand(operand, arg)));
                }
            } else if callee.together {
                // Entered by every invocation, all active: no activity.
            } else {
                subs.push((
                    c.open..c.open,
                    Sub::ActiveArg {
                        flag: flag.unwrap_or(Flag::Active),
                        more: !c.args.is_empty(),
                    },
                ));
                for (k, arg) in self.args(c).iter().enumerate() {
                    guarded.push((arg, self.inactive_argument(c, k, arg)));
                }
            }
            // Every invocation is active where the function's top runs as
            // written, but for a short circuit's.
            if self.all_active && flag.is_none() {
                guarded.clear();
            }
            for (arg, inactive) in guarded {
                // An exchange or converted call, bound: its temporary.
                let whole_call =
                    |d: &Call| d.range == trimmed(self.request.text, arg) && self.collective(d);
                if calls.iter().any(whole_call) {
                    continue;
                }
                if let Some((open, zero)) = inactive {
                    let flag = flag.unwrap_or(Flag::Active);
                    subs.push((arg.start..arg.start, Sub::Evaluate { flag, open }));
                    subs.push((arg.end..arg.end, Sub::Otherwise(zero)));
                }
            }
        }
        // A short circuit's left operand inside the piece: its flag; one
        // inside another's (`(b || f(b)) || g(b)`) is part of that flag's
        // value, computed before, and is not written again.
        for (r, flag) in self.lefts.range(range.clone()).map(|(_, l)| l) {
            let within_another = subs.iter().any(|(s, sub)| {
                matches!(sub, Sub::Flag(_)) && s.start <= r.start && r.end <= s.end && s != r
            });
            if r.end <= range.end && *r != range && !within_another {
                // An empty substitution at either end is an enclosing
                // operand's guard.
                subs.retain(|(s, _)| {
                    !(r.start <= s.start && s.end <= r.end)
                        || (s.is_empty() && (s.start == r.start || s.start == r.end))
                });
                subs.push((r.clone(), Sub::Flag(*flag)));
            }
        }
        subs.sort_by_key(|(r, _)| (r.start, r.end));
        Piece { range, subs }
    }

    /// Binds every collective call of `e`, innermost first, and returns
    /// the temporaries by call start. Refuses one the language may skip.
    fn bind_all(
        &mut self,
        e: &Expr,
        steps: &mut Vec<Step>,
    ) -> Result<BTreeMap<usize, u32>, Refusal> {
        // No call's range is empty.
        self.bind_all_but(e, 0..0, steps)
    }

    /// [`Pass::bind_all`], but for the call at `skip`.
    fn bind_all_but(
        &mut self,
        e: &Expr,
        skip: Range<usize>,
        steps: &mut Vec<Step>,
    ) -> Result<BTreeMap<usize, u32>, Refusal> {
        let mut bound = BTreeMap::new();
        for c in self.calls(e) {
            self.refuse_shared_by_reference(c)?;
        }
        // The outer call kept in place (`skip`) is made by every
        // invocation too: its arguments are checked with the rest.
        let moved: Vec<&Call> = self
            .calls(e)
            .iter()
            .filter(|c| self.collective(c))
            .collect();
        self.refuse_moved_effects(e, &moved)?;
        let mut order: Vec<&Call> = moved.into_iter().filter(|c| c.range != skip).collect();
        // The short circuit of each conditional one, by its operator, and
        // which of its operands (arms) holds the call.
        let mut circuits: BTreeMap<usize, Circuit> = BTreeMap::new();
        let mut circuit_of: BTreeMap<usize, (usize, bool)> = BTreeMap::new();
        for c in &order {
            if !c.conditional {
                continue;
            }
            let Some(circuit) = self.circuit(e, c) else {
                return self.refuse(
                    &c.name,
                    format!(
                        "`{}` is evaluated only where `&&`, `||` or `?:` lets it, under more than \
                         one of them or where the condition cannot be told apart, and without \
                         subgroups every invocation of the workgroup must reach it: compute it \
                         into a variable first",
                        self.text(&c.name)
                    ),
                );
            };
            circuit_of.insert(c.range.start, (circuit.op, circuit.when));
            circuits.entry(circuit.op).or_insert(circuit);
        }
        // Inner calls close first.
        order.sort_by_key(|c| c.range.end);
        // Each short circuit's left operand, once computed, and the
        // activity of each of its operands.
        let mut lefts: BTreeMap<usize, Flag> = BTreeMap::new();
        let mut activities: BTreeMap<(usize, bool), Flag> = BTreeMap::new();
        for c in order {
            if let Some(&(op, when)) = circuit_of.get(&c.range.start) {
                let left = match lefts.get(&op) {
                    Some(&flag) => flag,
                    None => {
                        // Its left operand, where `Active` is set.
                        let circuit = &circuits[&op];
                        let flag = Flag::Taken(self.id());
                        let value = self.piece(circuit.left.clone(), self.calls(e), &bound);
                        steps.push(Step::Test { flag, value });
                        self.lefts
                            .insert(circuit.left.start, (circuit.left.clone(), flag));
                        lefts.insert(op, flag);
                        flag
                    }
                };
                let activity = match activities.get(&(op, when)) {
                    Some(&flag) => flag,
                    None => {
                        // The invocations it lets through to this operand.
                        let flag = Flag::Outer(self.id());
                        let through = if when {
                            Cond::Flag(left)
                        } else {
                            Cond::Not(left)
                        };
                        steps.push(Step::Let {
                            flag,
                            cond: Cond::Flag(Flag::Active).and(through),
                        });
                        activities.insert((op, when), flag);
                        flag
                    }
                };
                self.activity.insert(c.range.start, activity);
            }
            let ty = self.glsl_type_of(c)?;
            let temp = self.id();
            let value = self.piece(c.range.clone(), self.calls(e), &bound);
            steps.push(Step::Bind { temp, ty, value });
            bound.insert(c.range.start, temp);
        }
        Ok(bound)
    }

    /// Whether `e` holds a collective that `&&`, `||` or `?:` may skip.
    fn under_circuit(&self, e: &Expr) -> bool {
        self.calls(e)
            .iter()
            .any(|c| c.conditional && self.collective(c))
    }

    /// The short circuit that makes `c`, a call in `e`, conditional: at
    /// one level of `e`'s brackets, the nearest `||` before `c`, or `&&`
    /// with no `||` before it, whose left operand is all that precedes it
    /// there, or the one `?:` with `c` in an arm; and no other at any level
    /// around `c`. `None` where there is no such one.
    fn circuit(&self, e: &Expr, c: &Call) -> Option<Circuit> {
        let text = self.request.text;
        let base = e.range.start;
        let tokens: Vec<(Range<usize>, &str)> =
            super::lex::lex(&text[e.range.clone()], self.request.language)
                .into_iter()
                .map(|t| {
                    let r = t.range();
                    let r = r.start + base..r.end + base;
                    let s = &text[r.clone()];
                    (r, s)
                })
                .collect();
        // Each token's bracket depth, and the brackets around `c`.
        let mut depth = vec![0usize; tokens.len()];
        let mut open: Vec<usize> = Vec::new();
        let mut around: Option<Vec<usize>> = None;
        let mut template = 0usize;
        for (i, (r, t)) in tokens.iter().enumerate() {
            if r.start == c.range.start {
                around = Some(open.clone());
            }
            let templated = self.request.language == Language::Wgsl
                && *t == "<"
                && i > 0
                && TEMPLATED.contains(&tokens[i - 1].1);
            match *t {
                "(" | "[" | "{" => {
                    depth[i] = open.len();
                    open.push(i);
                }
                ")" | "]" | "}" => {
                    open.pop();
                    depth[i] = open.len();
                }
                _ if templated => {
                    template += 1;
                    depth[i] = usize::MAX;
                }
                ">" | ">>" if template > 0 => {
                    template = template.saturating_sub(t.len());
                    depth[i] = usize::MAX;
                }
                _ => depth[i] = if template > 0 { usize::MAX } else { open.len() },
            }
        }
        let around = around?;
        let inside_c = |r: &Range<usize>| c.range.start <= r.start && r.end <= c.range.end;
        let mut found: Option<Circuit> = None;
        // From the innermost level out: the level's tokens, the hole the
        // call (or the bracket holding it) makes, its segment between
        // separators, and the logical operators there.
        let mut hole = c.range.start;
        for level in (0..=around.len()).rev() {
            let (from, to) = if level == 0 {
                (0, tokens.len())
            } else {
                let o = around[level - 1];
                let close = (o + 1..tokens.len())
                    .find(|&j| depth[j] == depth[o] && matches!(tokens[j].1, ")" | "]" | "}"))
                    .unwrap_or(tokens.len());
                (o + 1, close)
            };
            let at_level: Vec<usize> = (from..to)
                .filter(|&j| depth[j] == level && !inside_c(&tokens[j].0))
                .collect();
            let separator =
                |t: &str| t == "," || (t.ends_with('=') && !matches!(t, "==" | "!=" | "<=" | ">="));
            let start = at_level
                .iter()
                .rev()
                .find(|&&j| tokens[j].0.start < hole && separator(tokens[j].1))
                .map_or(from, |&j| j + 1);
            let end = at_level
                .iter()
                .find(|&&j| tokens[j].0.start > hole && separator(tokens[j].1))
                .map_or(to, |&j| j);
            let ops: Vec<usize> = at_level
                .iter()
                .copied()
                .filter(|&j| {
                    j >= start && j < end && matches!(tokens[j].1, "&&" | "||" | "?" | ":")
                })
                .collect();
            // Operators after the hole do not decide whether it runs
            // (evaluation goes left to right); the nearest one before it
            // does, with its left operand.
            let before: Vec<usize> = ops
                .iter()
                .copied()
                .filter(|&j| tokens[j].0.start < hole)
                .collect();
            let kinds: Vec<&str> = ops.iter().map(|&j| tokens[j].1).collect();
            let circuit = if kinds.contains(&"?") {
                // One `?:` alone: the hole is in one of its arms.
                match (&kinds[..], before.len()) {
                    // In the condition: it runs wherever the `?:` does.
                    (["?", ":"], 0) => None,
                    (["?", ":"], _) => Some((ops[0], hole < tokens[ops[1]].0.start)),
                    _ => return None,
                }
            } else {
                match before.last().map(|&j| tokens[j].1) {
                    None => None,
                    // `||` binds loosest: all before it is its left operand.
                    Some("||") => Some((*before.last()?, false)),
                    // `&&` with no `||` before it: the same.
                    Some("&&") if !before.iter().any(|&j| tokens[j].1 == "||") => {
                        Some((*before.last()?, true))
                    }
                    Some(_) => return None,
                }
            };
            if let Some((op, when)) = circuit {
                if found.is_some() || start >= op {
                    return None;
                }
                found = Some(Circuit {
                    op: tokens[op].0.start,
                    left: tokens[start].0.start..tokens[op - 1].0.end,
                    when,
                });
            }
            if level > 0 {
                hole = tokens[around[level - 1]].0.start;
            }
        }
        found
    }

    fn check_unconditional(&self, c: &Call) -> Result<(), Refusal> {
        if c.conditional && self.collective(c) {
            return self.refuse(
                &c.name,
                format!(
                    "`{}` is evaluated only where `&&`, `||` or `?:` lets it, and without \
                     subgroups every invocation of the workgroup must reach it: compute it into \
                     a variable first",
                    self.text(&c.name)
                ),
            );
        }
        Ok(())
    }

    /// The GLSL type of a collective call's result.
    fn glsl_type_of(&self, c: &Call) -> Result<Option<String>, Refusal> {
        if self.request.language != Language::Glsl {
            return Ok(None);
        }
        if let Some(kind) = self.callee(c).exchange {
            return match kind {
                Result_::Mask => Ok(Some("uvec4".into())),
                Result_::Bool => Ok(Some("bool".into())),
                Result_::Value => {
                    let value = self
                        .args(c)
                        .get(1)
                        .map(|a| self.text(a).trim())
                        .unwrap_or("");
                    match self.glsl_value_type(value) {
                        Some(t) => Ok(Some(t)),
                        None => self.refuse(
                            &c.name,
                            format!(
                                "cannot tell the type of `{value}` here: without subgroups, a \
                                 broadcast inside a statement that not every invocation runs \
                                 needs its value in a variable of a declared type"
                            ),
                        ),
                    }
                }
            };
        }
        // A converted function: its declared return type. Of overloads
        // with different ones, the overloads the call's argument count
        // leaves must agree on it: which of those a call calls depends on
        // its arguments' types, which the pass does not know.
        let ret = |f: &Function| f.ret.as_ref().map(|r| self.text(r).trim());
        if self.callee(c).mixed_returns {
            // The caller may know the overload the call calls (the linker
            // asks glslang).
            if let Some(ty) = (self.request.init_type)(c.name.clone()) {
                return Ok(Some(ty));
            }
            let mut fitting = self
                .request
                .unit
                .functions
                .iter()
                .filter(|f| f.id == c.callee && f.params.len() == self.args(c).len());
            if let Some(first) = fitting.next() {
                let first_ret = ret(first);
                if fitting.all(|f| ret(f) == first_ret) {
                    return Ok(Some(first_ret.unwrap_or("void").to_string()));
                }
            }
            return self.refuse(
                &c.name,
                format!(
                    "`{}` is overloaded with different return types, and which overload a call \
                     calls depends on its arguments' types (not their number alone, here): \
                     without subgroups, a call inside a \
                     statement that not every invocation runs needs its value in a variable of \
                     a declared type; compute the call into one first",
                    self.text(&c.name)
                ),
            );
        }
        let f = self
            .callee(c)
            .first_function
            .map(|i| &self.request.unit.functions[i]);
        match f.and_then(|f| f.ret.clone()) {
            Some(ret) => Ok(Some(self.text(&ret).to_string())),
            None => Ok(Some("void".into())),
        }
    }

    /// What an exchange's operand becomes where the invocation is not
    /// active, as the opening before it and the value in its place; `None`
    /// where it is evaluated as written ([`Pass::unsafe_elsewhere`]). A
    /// value of a type the pass cannot tell is evaluated as written.
    fn inactive_operand(&self, operand: Operand, arg: &Range<usize>) -> Option<Elsewhere> {
        let text = self.unsafe_elsewhere(arg)?;
        match operand {
            Operand::Bool => Some(("(", "false".into())),
            Operand::Lane => Some(("uint(", "0u".into())),
            Operand::Value => Some(("(", zero(&self.glsl_value_type(text)?))),
            Operand::Constant => None,
        }
    }

    /// What argument `k` (at `arg`) of a converted call becomes where the
    /// invocation is not active, as [`Pass::inactive_operand`]: an `in`
    /// parameter of a scalar or vector type, the same in every overload
    /// the call's argument count leaves, takes that type's zero. Another
    /// (`out`, a struct, an array) is evaluated as written.
    fn inactive_argument(&self, c: &Call, k: usize, arg: &Range<usize>) -> Option<Elsewhere> {
        self.unsafe_elsewhere(arg)?;
        let count = self.args(c).len();
        let fitting: Vec<&Function> = self
            .request
            .unit
            .functions
            .iter()
            .filter(|f| f.id == c.callee && f.params.len() == count)
            .collect();
        // Of overloads of as many parameters, the one the call calls,
        // where the caller can tell.
        let called: Vec<&Function> = fitting
            .iter()
            .copied()
            .filter(|f| (self.request.calls)(c.name.clone(), f.name.clone()) == Some(true))
            .collect();
        let candidates = match called.len() {
            1 => called,
            _ => fitting,
        };
        let mut types = candidates.into_iter().map(|f| {
            let p = &f.params[k];
            let words: Vec<&str> = self.text(&p.ty).split_whitespace().collect();
            // An array (`uint a[4]`, `uint[4] a`) has no zero to write.
            let after_name = &self.request.text[p.name.end..];
            let array = self.text(&p.ty).contains('[')
                || self.text(&p.name).contains('[')
                || after_name.trim_start().starts_with('[');
            let by_value = !words.iter().any(|w| matches!(*w, "out" | "inout")) && !array;
            let ty: Vec<&str> = words
                .into_iter()
                .filter(|w| *w != "in" && !GLSL_QUALIFIERS.contains(w))
                .collect();
            match (by_value, ty.as_slice()) {
                (true, [ty]) if constructed_type(&format!("{ty}(0)")).is_some() || matrix(ty) => {
                    Some(ty.to_string())
                }
                _ => None,
            }
        });
        let first = types.next()??;
        types
            .all(|t| t.as_deref() == Some(first.as_str()))
            .then(|| ("(", zero(&first)))
    }

    /// `arg`'s text, where evaluating it in an invocation that is not
    /// active may go wrong; `None` where it may not, or in WGSL. The
    /// language evaluates an operand only where the invocation reaches the
    /// call, so elsewhere it must not read out of bounds or call anything
    /// that may not end: an operand that indexes, divides or calls is
    /// evaluated only where the invocation is active. GLSL only: WGSL's
    /// reads are bounded, and it has no conditional expression that skips
    /// an operand.
    fn unsafe_elsewhere(&self, arg: &Range<usize>) -> Option<&'a str> {
        if self.request.language != Language::Glsl {
            return None;
        }
        let text = self.text(arg).trim();
        // The constructor the linker writes around a value changes
        // nothing: what is inside it.
        let inner = constructed_type(text)
            .and_then(|_| text.split_once('('))
            .and_then(|(_, rest)| rest.strip_suffix(')'))
            .unwrap_or(text);
        inner.contains(['[', '(', '/', '%']).then_some(text)
    }

    /// The type of a GLSL value: a variable in scope, or a literal.
    fn glsl_value_type(&self, value: &str) -> Option<String> {
        let strip = |t: &str| {
            t.split_whitespace()
                .filter(|w| !matches!(*w, "in" | "out" | "inout") && !GLSL_QUALIFIERS.contains(w))
                .collect::<Vec<_>>()
                .join(" ")
        };
        if let Some((_, ty)) = self
            .scopes
            .iter()
            .rev()
            .flat_map(|s| s.iter().rev())
            .find(|(n, _)| n == value)
        {
            return Some(strip(ty));
        }
        // A constructor, `T(…)` (the linker writes one around a broadcast's
        // value whose type glslang gave): its type.
        if let Some(ty) = constructed_type(value) {
            return Some(ty.to_string());
        }
        let builtin = match value {
            "gl_LocalInvocationIndex"
            | "gl_SubgroupInvocationID"
            | "gl_SubgroupSize"
            | "gl_SubgroupID"
            | "gl_NumSubgroups" => Some("uint"),
            "gl_GlobalInvocationID"
            | "gl_LocalInvocationID"
            | "gl_WorkGroupID"
            | "gl_NumWorkGroups"
            | "gl_WorkGroupSize" => Some("uvec3"),
            _ => None,
        };
        if let Some(t) = builtin {
            return Some(t.into());
        }
        // A literal first: `2.0` is no swizzle of `2`.
        let first = value.chars().next()?;
        if value == "true" || value == "false" {
            return Some("bool".into());
        }
        if first.is_ascii_digit() {
            if value.ends_with(['u', 'U']) {
                return Some("uint".into());
            }
            // GL_EXT_shader_explicit_arithmetic_types' and GLSL 4's
            // suffixes.
            let lower = value.to_ascii_lowercase();
            if lower.ends_with("lf") {
                return Some("double".into());
            }
            if lower.ends_with("hf") {
                return Some("float16_t".into());
            }
            if value.contains(['.', 'e']) && !value.starts_with("0x") {
                return Some("float".into());
            }
            return Some("int".into());
        }
        if let Some((base, swizzle)) = value.rsplit_once('.') {
            let base = self.glsl_value_type(base)?;
            let scalar = match base.as_str() {
                "uvec2" | "uvec3" | "uvec4" => "uint",
                "ivec2" | "ivec3" | "ivec4" => "int",
                "vec2" | "vec3" | "vec4" => "float",
                "bvec2" | "bvec3" | "bvec4" => "bool",
                _ => return None,
            };
            let n = swizzle.len();
            let swizzle_ok =
                (1..=4).contains(&n) && swizzle.chars().all(|c| "xyzwrgbastpq".contains(c));
            if !swizzle_ok {
                return None;
            }
            return Some(match (scalar, n) {
                (s, 1) => s.into(),
                ("uint", n) => format!("uvec{n}"),
                ("int", n) => format!("ivec{n}"),
                ("float", n) => format!("vec{n}"),
                (_, n) => format!("bvec{n}"),
            });
        }
        None
    }

    /// Whether evaluating `e` where `Active` is not set could be seen:
    /// it calls one of the shader's own functions (not converted ones,
    /// which guard themselves) or a built-in with side effects.
    /// `c`'s name as the shader's author wrote it: an exchange's linked
    /// name (`ballot_subgroupAdd_u32`) as the subgroup function it links.
    fn shown(&self, c: &Call) -> &'a str {
        let name = self.text(&c.name);
        match name.find("subgroup") {
            Some(at) if self.callee(c).exchange.is_some() => {
                let op = &name[at..];
                op.split('_').next().unwrap_or(op)
            }
            _ => name,
        }
    }

    /// Whether `c` is a call that may change what the rest of the shader
    /// sees: a builtin of [`SIDE_EFFECTS`] or a function of the shader's
    /// that may ([`effectful`]); a collective's own effects are guarded by
    /// its activity.
    fn changes_state(&self, c: &Call) -> bool {
        let callee = self.callee(c);
        !self.collective(c) && (callee.side_effects || callee.effects)
    }

    /// Where evaluating `range`, a part of `e`, may change what the rest
    /// of the shader sees: its first write ([`effects::writes`]) or call
    /// of a builtin of [`SIDE_EFFECTS`] or of a function that may
    /// ([`effectful`]); a collective's own effects are guarded by its
    /// activity.
    fn effect_in(&self, e: &Expr, range: &Range<usize>) -> Option<Range<usize>> {
        let call = self
            .calls(e)
            .iter()
            .filter(|c| range.start <= c.range.start && c.range.end <= range.end)
            .find(|c| self.changes_state(c))
            .map(|c| c.name.clone());
        let write = effects::writes(self.request.text, range.clone(), self.request.language)
            .into_iter()
            .next()
            .map(|w| w.op);
        [call, write].into_iter().flatten().min_by_key(|r| r.start)
    }

    /// Refuses an evaluation the pass would move, of `e` whose
    /// collectives are `collectives`, where what moves changes state: a
    /// collective's arguments, which every invocation of the workgroup
    /// evaluates, active or not; or a part of `e` before a collective,
    /// which the collective, computed before the statement, would now
    /// precede. The assignment a collective's value goes to is not
    /// moved: it happens after the value, as written.
    fn refuse_moved_effects(&self, e: &Expr, collectives: &[&Call]) -> Result<(), Refusal> {
        let text = self.request.text;
        for c in collectives {
            for arg in self.args(c) {
                if let Some(at) = self.effect_in(e, arg) {
                    return self.refuse(
                        &at,
                        format!(
                            "`{}` changes state in an argument of `{}`: without subgroups every \
                             invocation of the workgroup evaluates the arguments, active or \
                             not, so compute the value into a variable first",
                            self.text(&at),
                            self.shown(c)
                        ),
                    );
                }
            }
        }
        let (Some(first), Some(last)) = (
            collectives.iter().min_by_key(|c| c.range.start),
            collectives.iter().max_by_key(|c| c.range.start),
        ) else {
            return Ok(());
        };
        // Every collective is computed before the statement: what lies left
        // of one, outside every collective (whose arguments are above),
        // now follows it. But the assignment its value goes to (at the top
        // of the expression, with no `,` after it) happens after, as
        // written.
        let outside = |r: &Range<usize>| {
            !collectives
                .iter()
                .any(|c| c.range.start <= r.start && r.end <= c.range.end)
        };
        let writes = effects::writes(text, e.range.start..last.range.start, self.request.language);
        let governing = writes.iter().rposition(|w| {
            w.assignment
                && w.depth == 0
                && w.op.end <= first.range.start
                && !top_level_comma(text, w.op.end..first.range.start)
        });
        // A write matters where a collective after it reads what it
        // writes: an exchange reads its arguments, where a function of
        // the shader's may read anything; a converted function too.
        let matters = |w: &effects::Write| {
            collectives
                .iter()
                .filter(|c| c.range.start >= w.op.end)
                .any(|c| {
                    let root = w.root.as_ref().map(|r| self.text(r));
                    let reads = self.args(c).iter().any(|arg| {
                        identifiers(self.text(arg))
                            .iter()
                            .any(|(_, n)| root.is_none_or(|r| r == *n))
                    });
                    let calls_own = self.calls(e).iter().any(|o| {
                        c.range.start < o.range.start
                            && o.range.end <= c.range.end
                            && self.callee(o).function.is_some()
                    });
                    self.callee(c).converted || root.is_none() || reads || calls_own
                })
        };
        let write = writes
            .iter()
            .enumerate()
            .find(|(k, w)| Some(*k) != governing && outside(&w.op) && matters(w))
            .map(|(_, w)| w.op.clone());
        let call = self
            .calls(e)
            .iter()
            .filter(|c| c.range.end <= last.range.start && outside(&c.range))
            .find(|c| self.changes_state(c))
            .map(|c| c.name.clone());
        let Some(at) = [call, write].into_iter().flatten().min_by_key(|r| r.start) else {
            return Ok(());
        };
        let after = collectives
            .iter()
            .filter(|c| c.range.start >= at.end)
            .min_by_key(|c| c.range.start)
            .unwrap_or(first);
        self.refuse(
            &at,
            format!(
                "`{}` changes state before `{}` in this statement: without subgroups the \
                 collective is computed before its statement, so compute the `{}` call into a \
                 variable first",
                self.text(&at),
                self.shown(after),
                self.shown(after)
            ),
        )
    }

    /// Every invocation makes a converted call, and copies its parameters
    /// passed by reference back, active or not: one that is not would
    /// write back the value it passed. That is nothing to its own names,
    /// but a global, a buffer or workgroup memory (`shared`) it would
    /// write where the shader does not, racing with the active ones.
    /// WGSL's pointers write where they point, when written: only GLSL
    /// copies back; and where every invocation is active, all of them
    /// make the call as written.
    fn refuse_shared_by_reference(&self, c: &Call) -> Result<(), Refusal> {
        if self.request.language != Language::Glsl || self.all_active {
            return Ok(());
        }
        let Some(f) = self.callee(c).function.filter(|_| self.callee(c).converted) else {
            return Ok(());
        };
        let params = &self.request.unit.functions[f].params;
        for (p, arg) in params.iter().zip(self.args(c)) {
            if !by_reference(self.text(&p.ty)) {
                continue;
            }
            let root = arg_root(self.text(arg));
            if root.is_some_and(|r| self.named.contains(r)) {
                continue;
            }
            return self.refuse(
                arg,
                format!(
                    "`{}` is passed to `{}`'s parameter `{}` by reference: without subgroups \
                     every invocation makes the call and writes the parameter back, active or \
                     not, so pass a variable of this function's own and assign it after",
                    self.text(arg).trim(),
                    self.text(&c.name),
                    self.text(&p.name)
                ),
            );
        }
        Ok(())
    }

    fn has_side_effects(&self, e: &Expr) -> bool {
        // A collective's arguments are evaluated in every invocation in
        // any case, as its exchange needs a value from each.
        let calls = self.calls(e);
        let inside_collective = |c: &Call| {
            calls.iter().any(|o| {
                self.collective(o) && o.range.start < c.range.start && c.range.end <= o.range.end
            })
        };
        calls.iter().any(|c| {
            let callee = self.callee(c);
            !self.collective(c)
                && !inside_collective(c)
                && (callee.side_effects || callee.function.is_some())
        })
    }

    fn guarded_or_plain(&self, piece: Piece) -> Step {
        if self.all_active {
            Step::Plain(piece)
        } else {
            Step::Guarded(piece)
        }
    }

    fn stmt(&mut self, s: &Stmt, steps: &mut Vec<Step>) -> Result<(), Refusal> {
        let jumps = Self::jumps(s, false, false);
        let collective = self.holds_collective(s);
        let convert = collective || jumps.ret || jumps.out;
        let result = match &s.kind {
            StmtKind::Decl(_) => self.decl(s, steps),
            StmtKind::Directive => {
                // A preprocessor line acts on the text, not when the
                // statement runs: as written, on a line of its own (GLSL's
                // `#` must start its line), where the reader found it.
                steps.push(Step::Plain(self.piece(
                    s.range.clone(),
                    &[],
                    &BTreeMap::new(),
                )));
                Ok(())
            }
            _ if !convert => {
                let barrier = matches!(&s.kind, StmtKind::Simple(e)
                    if self.calls(e).first().is_some_and(|c| c.range.start == e.range.start
                        && self.callee(c).barrier));
                let piece = self.piece(s.range.clone(), &[], &BTreeMap::new());
                if barrier {
                    steps.push(Step::Plain(piece));
                } else {
                    steps.push(self.guarded_or_plain(piece));
                }
                Ok(())
            }
            StmtKind::Simple(e) => {
                let whole_call = self
                    .calls(e)
                    .first()
                    .filter(|c| c.range == e.range && self.collective(c));
                if let Some(c) = whole_call {
                    // `f(x);` of a converted function, or an exchange whose
                    // value is dropped: in every invocation, as written.
                    self.check_unconditional(c)?;
                    let bound = self.bind_inner(e, c, steps)?;
                    steps.push(Step::Plain(self.piece(
                        s.range.clone(),
                        self.calls(e),
                        &bound,
                    )));
                } else if self.all_active {
                    // Every invocation runs it as written; a collective a
                    // short circuit may skip, bound first.
                    let bound = if self.under_circuit(e) {
                        self.bind_all(e, steps)?
                    } else {
                        BTreeMap::new()
                    };
                    steps.push(Step::Plain(self.piece(
                        s.range.clone(),
                        self.calls(e),
                        &bound,
                    )));
                } else {
                    let bound = self.bind_all(e, steps)?;
                    let piece = self.piece(s.range.clone(), self.calls(e), &bound);
                    steps.push(Step::Guarded(piece));
                }
                Ok(())
            }
            StmtKind::Block(b) => {
                let inner = self.block(&b.stmts)?;
                steps.push(Step::Scope(inner));
                Ok(())
            }
            StmtKind::If { cond, then, els } => self.if_(cond, then, els.as_deref(), steps),
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => self.loop_(
                Loop {
                    init: init.as_deref(),
                    cond: cond.as_ref(),
                    update: update.as_ref(),
                    body: Some(body),
                    ..Loop::default()
                },
                collective,
                steps,
            ),
            StmtKind::While { cond, body } => self.loop_(
                Loop {
                    cond: Some(cond),
                    body: Some(body),
                    ..Loop::default()
                },
                collective,
                steps,
            ),
            StmtKind::DoWhile { body, cond } => self.loop_(
                Loop {
                    body: Some(body),
                    until: Some(cond),
                    ..Loop::default()
                },
                collective,
                steps,
            ),
            StmtKind::Loop { body, continuing } => self.loop_(
                Loop {
                    stmts: Some(&body.stmts),
                    continuing: continuing.as_ref().map(|c| &c.stmts[..]),
                    ..Loop::default()
                },
                collective,
                steps,
            ),
            StmtKind::Switch { selector, cases } => self.switch(selector, cases, steps),
            StmtKind::Break => {
                let Some(b) = self.breakables.last() else {
                    return self.refuse(&s.range, "`break` outside a loop or `switch`");
                };
                let brk = b.brk;
                steps.push(Step::Set {
                    flag: brk,
                    cond: Cond::Flag(brk).or(Cond::Flag(Flag::Active)),
                });
                steps.push(Step::Set {
                    flag: Flag::Active,
                    cond: Cond::False,
                });
                Ok(())
            }
            StmtKind::Continue => {
                let Some(cont) = self.breakables.iter().rev().find_map(|b| b.cont) else {
                    return self.refuse(&s.range, "`continue` outside a loop");
                };
                steps.push(Step::Set {
                    flag: cont,
                    cond: Cond::Flag(cont).or(Cond::Flag(Flag::Active)),
                });
                steps.push(Step::Set {
                    flag: Flag::Active,
                    cond: Cond::False,
                });
                Ok(())
            }
            StmtKind::Return(_) if self.all_active && self.tail.as_ref() == Some(&s.range) => {
                steps.push(Step::Plain(self.piece(
                    s.range.clone(),
                    &[],
                    &BTreeMap::new(),
                )));
                self.tail_return = true;
                Ok(())
            }
            StmtKind::Return(value) => {
                if let Some(e) = value {
                    let bound = self.bind_all(e, steps)?;
                    let value = self.piece(e.range.clone(), self.calls(e), &bound);
                    steps.push(Step::Assign {
                        place: Place::RetVal,
                        value,
                    });
                }
                steps.push(Step::Set {
                    flag: Flag::Ret,
                    cond: Cond::Flag(Flag::Ret).or(Cond::Flag(Flag::Active)),
                });
                steps.push(Step::Set {
                    flag: Flag::Active,
                    cond: Cond::False,
                });
                Ok(())
            }
            StmtKind::BreakIf(_) => {
                self.refuse(&s.range, "`break if` outside a `continuing` block")
            }
            StmtKind::Discard => self.refuse(
                &s.range,
                "`discard` in a function that reaches a collective: without subgroups only \
                 compute shaders can exchange, and they cannot discard",
            ),
            StmtKind::Empty => Ok(()),
        };
        if jumps.ret {
            self.all_active = false;
        }
        result
    }

    /// Binds the collective calls inside `outer`'s arguments, for a
    /// statement that is `outer` alone.
    fn bind_inner(
        &mut self,
        e: &Expr,
        outer: &Call,
        steps: &mut Vec<Step>,
    ) -> Result<BTreeMap<usize, u32>, Refusal> {
        let bound = self.bind_all_but(e, outer.range.clone(), steps)?;
        // Keep the outer call unbound, but its inner calls bound.
        Ok(bound)
    }

    fn decl(&mut self, s: &Stmt, steps: &mut Vec<Step>) -> Result<(), Refusal> {
        let StmtKind::Decl(d) = &s.kind else {
            unreachable!("decl() takes declarations")
        };
        let wgsl = self.request.language == Language::Wgsl;
        let inits: Vec<&Expr> = d
            .declarators
            .iter()
            .filter_map(|x| x.init.as_ref())
            .collect();
        let side_effects = inits.iter().any(|e| self.has_side_effects(e));
        // Evaluated in every invocation: at the top of an entry point, a
        // constant, or (WGSL, whose evaluation is defined everywhere) an
        // initialiser without side effects. GLSL's out-of-bounds reads are
        // not defined, so its other initialisers are guarded apart.
        let plain = self.all_active
            || d.kind == DeclKind::Const
            || inits.is_empty()
            || (wgsl && !side_effects);
        if let Some(ty) = &d.ty {
            if !wgsl {
                for x in &d.declarators {
                    let mut t = self.text(ty).to_string();
                    if let Some(sfx) = &x.suffix {
                        t.push_str(self.text(sfx));
                    }
                    let name = self.text(&x.name).to_string();
                    if let Some(scope) = self.scopes.last_mut() {
                        scope.push((name, t));
                    }
                }
            }
        }
        if plain {
            // A collective a short circuit may skip, bound first.
            let mut bound = BTreeMap::new();
            for e in &inits {
                if self.under_circuit(e) {
                    bound.extend(self.bind_all(e, steps)?);
                }
            }
            // One declarator's calls are a slice already.
            let piece = match inits[..] {
                [e] => self.piece(s.range.clone(), self.calls(e), &bound),
                _ => {
                    let calls: Vec<Call> = inits
                        .iter()
                        .flat_map(|e| self.calls(e).iter().cloned())
                        .collect();
                    self.piece(s.range.clone(), &calls, &bound)
                }
            };
            steps.push(Step::Plain(piece));
            return Ok(());
        }
        let Some(ty) =
            d.ty.as_ref()
                .map(|t| self.text(t).trim().to_string())
                .or_else(|| self.init_type(&s.range, d))
        else {
            let x = &d.declarators[0];
            return self.refuse(
                &x.name,
                format!(
                    "give `{}` its type: its initialiser has side effects, and without subgroups \
                     it is evaluated apart from its declaration, where not every invocation runs \
                     it",
                    self.text(&x.name)
                ),
            );
        };
        // Each name is declared apart from its initialiser, which then
        // reads it: an initialiser that reads the name it shadows (`uint
        // x = subgroupAdd(x);`, whose `x` is the outer one) would read the
        // new one.
        for x in &d.declarators {
            let Some(e) = &x.init else {
                continue;
            };
            let own = self.text(&x.name);
            let names = identifiers(self.text(&e.range));
            if let Some(&(at, name)) = names.iter().find(|(_, n)| *n == own) {
                let at = e.range.start + at..e.range.start + at + name.len();
                return self.refuse(
                    &at,
                    format!(
                        "this initialiser reads the `{name}` its declaration shadows: without \
                         subgroups the declaration is split from its initialiser, which would \
                         then read the new `{name}`, so give the new one another name"
                    ),
                );
            }
        }
        for x in &d.declarators {
            steps.push(Step::Declare {
                name: x.name.clone(),
                ty: ty.clone(),
                suffix: x.suffix.clone(),
            });
            if let Some(e) = &x.init {
                let bound = self.bind_all(e, steps)?;
                let value = self.piece(e.range.clone(), self.calls(e), &bound);
                steps.push(Step::Assign {
                    place: Place::User(x.name.clone()),
                    value,
                });
            }
        }
        Ok(())
    }

    /// The type of a WGSL declaration without one: where its initialiser
    /// is a call of one of the shader's own functions, and nothing else,
    /// that function's declared return type (WGSL has no overloads); else
    /// what the caller tells ([`Request::init_type`]), asked at the
    /// initialiser and then at the declaration `at`. `None` where neither
    /// tells.
    fn init_type(&self, at: &Range<usize>, d: &Decl) -> Option<String> {
        let [x] = &d.declarators[..] else {
            return None;
        };
        let e = x.init.as_ref()?;
        let called = self
            .calls(e)
            .iter()
            .find(|c| c.range == e.range)
            .and_then(|call| self.callee(call).function)
            .and_then(|f| self.request.unit.functions[f].ret.clone());
        match called {
            Some(ret) => Some(self.text(&ret).trim().to_string()),
            None => (self.request.init_type)(e.range.clone())
                .or_else(|| (self.request.init_type)(at.clone())),
        }
    }

    fn if_(
        &mut self,
        cond: &Expr,
        then: &Stmt,
        els: Option<&Stmt>,
        steps: &mut Vec<Step>,
    ) -> Result<(), Refusal> {
        let bound = self.bind_all(cond, steps)?;
        let id = self.id();
        let value = self.piece(cond.range.clone(), self.calls(cond), &bound);
        steps.push(Step::Let {
            flag: Flag::Outer(id),
            cond: Cond::Flag(Flag::Active),
        });
        steps.push(Step::Test {
            flag: Flag::Taken(id),
            value,
        });
        steps.push(Step::Set {
            flag: Flag::Active,
            cond: Cond::Flag(Flag::Outer(id)).and(Cond::Flag(Flag::Taken(id))),
        });
        let all = std::mem::replace(&mut self.all_active, false);
        let inner = self.scoped(then)?;
        steps.push(Step::Scope(inner));
        if let Some(e) = els {
            steps.push(Step::Set {
                flag: Flag::Active,
                cond: Cond::Flag(Flag::Outer(id)).and(Cond::Not(Flag::Taken(id))),
            });
            let inner = self.scoped(e)?;
            steps.push(Step::Scope(inner));
        }
        self.all_active = all;
        steps.push(Step::Set {
            flag: Flag::Active,
            cond: self.rejoin(Cond::Flag(Flag::Outer(id))),
        });
        Ok(())
    }

    fn loop_(&mut self, l: Loop<'_>, vote: bool, steps: &mut Vec<Step>) -> Result<(), Refusal> {
        let id = self.id();
        let (entry, brk, cont) = (Flag::Entry(id), Flag::Brk(id), Flag::Cont(id));
        let mut outer = Vec::new();
        self.scopes.push(Vec::new());
        if let Some(init) = l.init {
            self.stmt(init, &mut outer)?;
        }
        let all = std::mem::replace(&mut self.all_active, false);
        outer.push(Step::Let {
            flag: entry,
            cond: Cond::Flag(Flag::Active),
        });
        outer.push(Step::Var {
            flag: brk,
            cond: Cond::False,
        });
        outer.push(Step::Var {
            flag: cont,
            cond: Cond::False,
        });
        let running = || {
            Cond::Flag(entry)
                .and(Cond::Not(brk))
                .and(Cond::Not(Flag::Ret))
        };
        let mut body = vec![
            Step::Set {
                flag: cont,
                cond: Cond::False,
            },
            Step::Set {
                flag: Flag::Active,
                cond: running(),
            },
            Step::Exit { vote },
        ];
        self.uses_vote |= vote;
        if let Some(cond) = l.cond {
            if declares(self.text(&cond.range)) {
                // GLSL's `while (bool more = …)`: a test that declares.
                return self.refuse(
                    &cond.range,
                    "this loop's condition declares a variable: without subgroups the \
                     condition is tested apart from the loop's statement, so declare it \
                     before the loop and assign it in the condition",
                );
            }
            self.leave_unless(cond, brk, false, &mut body)?;
        }
        self.breakables.push(Breakable {
            brk,
            cont: Some(cont),
        });
        let mut inner = match (l.body, l.stmts) {
            (Some(b), _) => self.scoped(b)?,
            (None, Some(stmts)) => self.block(stmts)?,
            (None, None) => Vec::new(),
        };
        // The continued invocations rejoin for the update, or for WGSL's
        // `continuing`, which sees the body's declarations: it goes in the
        // body's scope.
        let rejoin = Step::Set {
            flag: Flag::Active,
            cond: running(),
        };
        if let Some(stmts) = l.continuing {
            inner.push(rejoin);
            self.scopes.push(Vec::new());
            for s in stmts {
                match &s.kind {
                    StmtKind::BreakIf(e) => self.leave_unless(e, brk, true, &mut inner)?,
                    _ => self.stmt(s, &mut inner)?,
                }
            }
            self.scopes.pop();
            body.push(Step::Scope(inner));
        } else {
            body.push(Step::Scope(inner));
            body.push(rejoin);
        }
        if let Some(update) = l.update {
            let bound = self.bind_all(update, &mut body)?;
            let piece = self.piece(update.range.clone(), self.calls(update), &bound);
            body.push(Step::GuardedExpr(piece));
        }
        if let Some(until) = l.until {
            self.leave_unless(until, brk, false, &mut body)?;
        }
        self.breakables.pop();
        outer.push(Step::Loop(body));
        self.all_active = all;
        outer.push(Step::Set {
            flag: Flag::Active,
            cond: self.rejoin_after_loop(entry),
        });
        self.scopes.pop();
        steps.push(Step::Scope(outer));
        Ok(())
    }

    /// After a loop: its entry invocations, less the returned, and less
    /// those that left an enclosing loop (none can have, within it).
    fn rejoin_after_loop(&self, entry: Flag) -> Cond {
        Cond::Flag(entry).and(Cond::Not(Flag::Ret))
    }

    /// The active invocations where `e` is false (`when`: true) leave the
    /// loop: `brk` takes them.
    fn leave_unless(
        &mut self,
        e: &Expr,
        brk: Flag,
        when: bool,
        steps: &mut Vec<Step>,
    ) -> Result<(), Refusal> {
        let bound = self.bind_all(e, steps)?;
        let t = self.id();
        let value = self.piece(e.range.clone(), self.calls(e), &bound);
        steps.push(Step::Test {
            flag: Flag::Taken(t),
            value,
        });
        let leaving = if when {
            Cond::Flag(Flag::Taken(t))
        } else {
            Cond::Not(Flag::Taken(t))
        };
        steps.push(Step::Set {
            flag: brk,
            cond: Cond::Flag(brk).or(Cond::Flag(Flag::Active).and(leaving)),
        });
        steps.push(Step::Set {
            flag: Flag::Active,
            cond: Cond::Flag(Flag::Active).and(Cond::Not(brk)),
        });
        Ok(())
    }

    fn switch(
        &mut self,
        selector: &Expr,
        cases: &[super::tree::Case],
        steps: &mut Vec<Step>,
    ) -> Result<(), Refusal> {
        let bound = self.bind_all(selector, steps)?;
        let sel = self.piece(selector.range.clone(), self.calls(selector), &bound);
        let id = self.id();
        let (outer, brk) = (Flag::Outer(id), Flag::Brk(id));
        steps.push(Step::Let {
            flag: outer,
            cond: Cond::Flag(Flag::Active),
        });
        steps.push(Step::Var {
            flag: brk,
            cond: Cond::False,
        });
        // GLSL: labels with no statements share the next case's body; a
        // body that does not end in a jump falls into the next one, whose
        // body then runs for the invocations still running at its end too
        // (the fourth field). Its declarations would be the next body's
        // too, which a branch of its own would hide: such a case is
        // refused.
        let mut groups: Vec<(Vec<&Expr>, bool, &[Stmt], bool)> = Vec::new();
        let mut falls = false;
        let mut pending: Vec<&Expr> = Vec::new();
        let mut pending_default = false;
        for (k, c) in cases.iter().enumerate() {
            pending.extend(c.values.iter());
            pending_default |= c.default;
            if c.body.is_empty() && k + 1 < cases.len() {
                continue;
            }
            let ends = c.body.last().is_some_and(|l| {
                matches!(
                    l.kind,
                    StmtKind::Break | StmtKind::Return(_) | StmtKind::Continue | StmtKind::Discard
                )
            });
            let falls_on = self.request.language == Language::Glsl && !ends && k + 1 < cases.len();
            if falls_on && c.body.iter().any(|s| matches!(s.kind, StmtKind::Decl(_))) {
                return self.refuse(
                    &c.at,
                    "this case declares a variable and falls through into the next: without \
                     subgroups a `switch` that reaches a collective becomes one branch per \
                     case, which would hide it from the next, so declare it before the `switch`",
                );
            }
            groups.push((
                std::mem::take(&mut pending),
                pending_default,
                &c.body,
                falls,
            ));
            falls = falls_on;
            pending_default = false;
        }
        let all = std::mem::replace(&mut self.all_active, false);
        self.breakables.push(Breakable { brk, cont: None });
        // Every case's share first, while the switch's invocations are all
        // active and before any body runs: a case's body narrows the
        // activity, and may change what the selector reads, yet each
        // invocation takes the one case its selector named on entry. One
        // `switch` of the language sets them, so that the selector is
        // evaluated once, by the active invocations alone, as written: a
        // call in it (an `atomicAdd`) has its effect once.
        let mut taken = Vec::with_capacity(groups.len());
        let mut arms = Vec::with_capacity(groups.len());
        for (values, default, _, _) in &groups {
            let t = self.id();
            taken.push(t);
            let pieces = values
                .iter()
                .map(|e| self.piece(e.range.clone(), &[], &BTreeMap::new()))
                .collect();
            arms.push((Flag::Taken(t), pieces, *default));
        }
        steps.push(Step::Dispatch {
            selector: sel,
            arms,
        });
        for ((_, _, body, fallen_into), t) in groups.into_iter().zip(taken) {
            let own = Cond::Flag(outer).and(Cond::Flag(Flag::Taken(t)));
            steps.push(Step::Set {
                flag: Flag::Active,
                // Those the case before falls through with, which have
                // not left it, and the case's own.
                cond: if fallen_into {
                    Cond::Flag(Flag::Active).or(own)
                } else {
                    own
                },
            });
            let mut inner = Vec::new();
            self.scopes.push(Vec::new());
            for s in body {
                self.stmt(s, &mut inner)?;
            }
            self.scopes.pop();
            steps.push(Step::Scope(inner));
        }
        self.breakables.pop();
        self.all_active = all;
        steps.push(Step::Set {
            flag: Flag::Active,
            cond: self.rejoin(Cond::Flag(outer)),
        });
        Ok(())
    }
}

/// The parts of a loop, whatever its syntax.
#[derive(Default)]
struct Loop<'s> {
    init: Option<&'s Stmt>,
    /// Tested before each iteration (`for`, `while`).
    cond: Option<&'s Expr>,
    /// Run after each iteration (`for`).
    update: Option<&'s Expr>,
    body: Option<&'s Stmt>,
    /// WGSL `loop`'s body.
    stmts: Option<&'s [Stmt]>,
    /// WGSL's `continuing` block.
    continuing: Option<&'s [Stmt]>,
    /// Tested after each iteration (`do … while`).
    until: Option<&'s Expr>,
}

/// The type `value` constructs, where it is one call `T(…)` of a GLSL
/// scalar or vector type.
/// What an operand becomes where the invocation is not active: the
/// opening before it (`(`, or a conversion) and the value in its place.
type Elsewhere = (&'static str, String);

/// The zero of a GLSL scalar or vector type, as a constant expression.
fn zero(ty: &str) -> String {
    match ty {
        "bool" => "false".into(),
        _ => format!("{ty}(0)"),
    }
}

/// Whether a GLSL type is a matrix (`mat4`, `mat2x3`, `dmat3`), whose
/// constructor from a scalar zero is the zero matrix.
fn matrix(ty: &str) -> bool {
    let Some(dims) = ty.strip_prefix("mat").or_else(|| ty.strip_prefix("dmat")) else {
        return false;
    };
    let dim = |d: &str| matches!(d, "2" | "3" | "4");
    match dims.split_once('x') {
        Some((c, r)) => dim(c) && dim(r),
        None => dim(dims),
    }
}

/// `range` of `text` without the white space at either end.
fn trimmed(text: &str, range: &Range<usize>) -> Range<usize> {
    let t = &text[range.clone()];
    let start = range.start + (t.len() - t.trim_start().len());
    start..start + t.trim().len()
}

fn constructed_type(value: &str) -> Option<&str> {
    let open = value.find('(')?;
    let ty = value[..open].trim_end();
    let scalar = matches!(
        ty,
        "uint"
            | "int"
            | "float"
            | "bool"
            | "double"
            | "float16_t"
            | "int64_t"
            | "uint64_t"
            | "int8_t"
            | "uint8_t"
            | "int16_t"
            | "uint16_t"
    );
    let vector = [
        "vec", "uvec", "ivec", "bvec", "dvec", "f16vec", "i64vec", "u64vec", "i8vec", "u8vec",
        "i16vec", "u16vec",
    ]
    .iter()
    .any(|p| {
        ty.strip_prefix(p)
            .is_some_and(|n| matches!(n, "2" | "3" | "4"))
    });
    if !(scalar || vector) || !value.ends_with(')') {
        return None;
    }
    // The parenthesis after the name closes at the end.
    let mut depth = 0usize;
    for (i, c) in value[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (open + i == value.len() - 1).then_some(ty);
                }
            }
            _ => {}
        }
    }
    None
}
