//! A deterministic generator of random, well-typed kernels in the kernel
//! language, and of the adapters that run them through their generated API
//! with [`Value`](ballot_core::interp::Value) arguments.
//!
//! Every kernel it writes terminates: each loop counts a counter, which the
//! body cannot assign, up to a bound fixed before the loop and below 6; `for`
//! loops range over two such values. Ballot operations appear in both a safe
//! form (FindLSB of a mask holding lane 0, BitExtract at an index below the
//! size, InverseBallot of a uniform mask) and, less often, a form that can be
//! undefined, so that both executions are also compared on their reports.

use std::fmt::Write as _;

/// The seed the committed kernels were generated from.
pub const SEED: u64 = 0x0ba1_107c_0de5_eed5;
/// How many helper kernels (called by the others) to write.
pub const HELPERS: usize = 6;
/// How many kernels to write besides the helpers.
pub const KERNELS: usize = 40;

/// xorshift64*: small, deterministic and good enough to pick syntax.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed` (any value; 0 is remapped).
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n)) >> 32) as u32
    }

    /// True with probability `percent` / 100.
    pub fn chance(&mut self, percent: u32) -> bool {
        self.below(100) < percent
    }

    /// One of `items` (non-empty).
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len() as u32) as usize]
    }
}

/// A kernel-language type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `bool`.
    Bool,
    /// `u32`.
    U32,
    /// `i32`.
    I32,
    /// `f32`.
    F32,
    /// `SubgroupMask`.
    Mask,
}

impl Ty {
    const ALL: [Ty; 5] = [Ty::Bool, Ty::U32, Ty::I32, Ty::F32, Ty::Mask];

    fn rust(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::F32 => "f32",
            Ty::Mask => "SubgroupMask",
        }
    }

    /// The suffix of the adapter helpers in `random_kernels.rs`.
    fn helper(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::U32 => "u32",
            Ty::I32 => "i32",
            Ty::F32 => "f32",
            Ty::Mask => "mask",
        }
    }

    /// The `ballot::ir::Type` variant.
    fn ir(self) -> &'static str {
        match self {
            Ty::Bool => "Bool",
            Ty::U32 => "U32",
            Ty::I32 => "I32",
            Ty::F32 => "F32",
            Ty::Mask => "Mask",
        }
    }
}

/// A parameter of a generated kernel.
#[derive(Clone, Debug)]
pub struct ParamSig {
    /// Its name.
    pub name: String,
    /// Its type.
    pub ty: Ty,
    /// Whether it is `#[uniform]`.
    pub uniform: bool,
}

/// The signature of a generated kernel.
#[derive(Clone, Debug)]
pub struct Sig {
    /// Its name.
    pub name: String,
    /// Its parameters.
    pub params: Vec<ParamSig>,
    /// Its return type; `None` for `()`.
    pub ret: Option<Ty>,
}

/// A local in scope.
#[derive(Clone, Debug)]
struct Var {
    name: String,
    ty: Ty,
    /// Declared `mut` and not a loop counter: statements may assign it.
    assignable: bool,
    /// The same in every active lane wherever it is in scope (a uniform
    /// parameter), so InverseBallot of it is defined.
    uniform: bool,
}

/// Writes one kernel's body.
struct KernelGen<'a> {
    rng: &'a mut Rng,
    /// Kernels this one may call.
    callees: &'a [Sig],
    ret: Option<Ty>,
    scopes: Vec<Vec<Var>>,
    next_var: u32,
    loop_depth: u32,
    /// Statements left to write.
    budget: u32,
    out: String,
    indent: usize,
}

impl<'a> KernelGen<'a> {
    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.next_var += 1;
        format!("{prefix}{}", self.next_var)
    }

    /// The locals in scope that a shadowing `let` has not hidden.
    fn visible(&self) -> Vec<&Var> {
        let mut seen: Vec<&str> = Vec::new();
        let mut out = Vec::new();
        for var in self.scopes.iter().rev().flat_map(|s| s.iter().rev()) {
            if !seen.contains(&var.name.as_str()) {
                seen.push(&var.name);
                out.push(var);
            }
        }
        out
    }

    fn vars(&self, ty: Ty) -> Vec<&Var> {
        self.visible().into_iter().filter(|v| v.ty == ty).collect()
    }

    fn declare(&mut self, var: Var) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.push(var);
        }
    }

    // ---- expressions ----

    fn literal(&mut self, ty: Ty) -> String {
        match ty {
            Ty::Bool => self.rng.pick(&["true", "false"]).to_owned(),
            Ty::U32 => {
                let x = match self.rng.below(6) {
                    0..=2 => self.rng.below(10),
                    3 => self.rng.pick(&[16, 31, 32, 33, 64, 100, 127, 128]),
                    4 => self.rng.pick(&[u32::MAX, 0x8000_0000, 0xffff, 0x1234_5678]),
                    _ => self.rng.next_u64() as u32,
                };
                if x > 0xffff && self.rng.chance(30) {
                    format!("0x{x:08x}u32")
                } else {
                    format!("{x}u32")
                }
            }
            Ty::I32 => {
                let x: i64 = match self.rng.below(5) {
                    0..=2 => i64::from(self.rng.below(21)) - 10,
                    3 => self
                        .rng
                        .pick(&[i64::from(i32::MAX), -2147483647, 65536, -100]),
                    _ => i64::from(self.rng.next_u64() as i32 / 2),
                };
                if x < 0 {
                    format!("(-{}i32)", -x)
                } else {
                    format!("{x}i32")
                }
            }
            Ty::F32 => {
                let x = self.rng.pick(&[
                    "0.0",
                    "1.0",
                    "0.5",
                    "2.0",
                    "3.75",
                    "100.0",
                    "0.001",
                    "-1.0",
                    "-2.5",
                    "-0.0",
                    "1000000.0",
                    "7.25",
                ]);
                if x.starts_with('-') {
                    format!("({x}f32)")
                } else {
                    format!("{x}f32")
                }
            }
            Ty::Mask => match self.rng.below(4) {
                0 => "SubgroupMask::EMPTY".to_owned(),
                1 => "SubgroupMask::ALL".to_owned(),
                2 => format!(
                    "SubgroupMask::lane({}u32)",
                    self.rng.pick(&[0, 1, 3, 31, 32, 64, 127])
                ),
                _ => format!(
                    "SubgroupMask::first({}u32)",
                    self.rng.pick(&[1, 2, 5, 16, 33, 100])
                ),
            },
        }
    }

    fn leaf(&mut self, ty: Ty) -> String {
        let vars: Vec<String> = self.vars(ty).iter().map(|v| v.name.clone()).collect();
        if !vars.is_empty() && self.rng.chance(60) {
            return self
                .rng
                .pick(&vars.iter().map(String::as_str).collect::<Vec<_>>())
                .to_owned();
        }
        match ty {
            Ty::U32 if self.rng.chance(30) => self
                .rng
                .pick(&["subgroup_local_invocation_id()", "subgroup_size()"])
                .to_owned(),
            Ty::Bool if self.rng.chance(15) => "subgroup_elect()".to_owned(),
            _ => self.literal(ty),
        }
    }

    fn expr(&mut self, ty: Ty, depth: u32) -> String {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        // Shared productions first: collectives that take any type, and
        // `if` as a value.
        match self.rng.below(20) {
            0 => return format!("subgroup_broadcast_first({})", self.expr(ty, d)),
            1 if self.rng.chance(25) => {
                let id = self.rng.pick(&[0, 0, 0, 1, 2, 3, 7, 31, 64]);
                return format!("subgroup_broadcast({}, {id})", self.expr(ty, d));
            }
            2 => {
                let cond = self.expr(Ty::Bool, d);
                let a = self.expr(ty, d);
                let b = self.expr(ty, d);
                return format!("(if {cond} {{ {a} }} else {{ {b} }})");
            }
            _ => {}
        }
        match ty {
            Ty::Bool => self.bool_expr(d),
            Ty::U32 => self.u32_expr(d),
            Ty::I32 => self.i32_expr(d),
            Ty::F32 => self.f32_expr(d),
            Ty::Mask => self.mask_expr(d),
        }
    }

    /// A mask with a bit below every subgroup size.
    fn nonempty_mask(&mut self, d: u32) -> String {
        match self.rng.below(3) {
            0 => "subgroup_ballot(true)".to_owned(),
            1 => format!("({} | SubgroupMask::lane(0u32))", self.expr(Ty::Mask, d)),
            _ => format!("({} | subgroup_eq_mask())", self.expr(Ty::Mask, d)),
        }
    }

    /// A mask that is the same in every active lane.
    fn uniform_mask(&mut self, d: u32) -> String {
        let uniform: Vec<String> = self
            .vars(Ty::Mask)
            .iter()
            .filter(|v| v.uniform)
            .map(|v| v.name.clone())
            .collect();
        match self.rng.below(4) {
            0 if !uniform.is_empty() => self
                .rng
                .pick(&uniform.iter().map(String::as_str).collect::<Vec<_>>())
                .to_owned(),
            0 | 1 => format!("subgroup_ballot({})", self.expr(Ty::Bool, d)),
            2 => format!("subgroup_broadcast_first({})", self.expr(Ty::Mask, d)),
            _ => self.literal(Ty::Mask),
        }
    }

    fn bool_expr(&mut self, d: u32) -> String {
        match self.rng.below(16) {
            0 | 1 => {
                let ty = self.rng.pick(&[Ty::U32, Ty::U32, Ty::I32, Ty::F32]);
                let op = self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                format!("({} {op} {})", self.expr(ty, d), self.expr(ty, d))
            }
            2 => format!("({} == {})", self.expr(Ty::Mask, d), self.expr(Ty::Mask, d)),
            3 => format!("(!{})", self.expr(Ty::Bool, d)),
            4 | 5 => {
                let op = self.rng.pick(&["&&", "||", "^", "&", "|", "==", "!="]);
                format!(
                    "({} {op} {})",
                    self.expr(Ty::Bool, d),
                    self.expr(Ty::Bool, d)
                )
            }
            6 => "subgroup_elect()".to_owned(),
            7 => {
                let m = match self.rng.below(10) {
                    0..=6 => self.uniform_mask(d),
                    7 | 8 => self.expr(Ty::Mask, d),
                    // Uniform only where one lane is active.
                    _ => format!("({} | subgroup_le_mask())", self.expr(Ty::Mask, d)),
                };
                format!("subgroup_inverse_ballot({m})")
            }
            8 => {
                let index = match self.rng.below(8) {
                    0..=2 => "subgroup_local_invocation_id()".to_owned(),
                    3..=5 => format!("({} % subgroup_size())", self.expr(Ty::U32, d)),
                    _ => self.expr(Ty::U32, d),
                };
                format!(
                    "subgroup_ballot_bit_extract({}, {index})",
                    self.expr(Ty::Mask, d)
                )
            }
            9 => format!("{}.contains({})", self.receiver(d), self.expr(Ty::U32, d)),
            10 => format!("{}.is_empty()", self.receiver(d)),
            11 => {
                let lane = self.rng.pick(&["0u32", "1u32", "(subgroup_size() - 1u32)"]);
                format!("(subgroup_local_invocation_id() == {lane})")
            }
            _ => self.leaf(Ty::Bool),
        }
    }

    /// A mask expression in method-receiver position.
    fn receiver(&mut self, d: u32) -> String {
        let vars: Vec<String> = self.vars(Ty::Mask).iter().map(|v| v.name.clone()).collect();
        if !vars.is_empty() && self.rng.chance(50) {
            return self
                .rng
                .pick(&vars.iter().map(String::as_str).collect::<Vec<_>>())
                .to_owned();
        }
        format!("({})", self.expr(Ty::Mask, d))
    }

    fn u32_expr(&mut self, d: u32) -> String {
        match self.rng.below(18) {
            0..=3 => {
                let op = self
                    .rng
                    .pick(&["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"]);
                format!("({} {op} {})", self.expr(Ty::U32, d), self.expr(Ty::U32, d))
            }
            4 => format!("(!{})", self.expr(Ty::U32, d)),
            5 => format!("({} as u32)", self.expr(Ty::I32, d)),
            6 => format!("({} as u32)", self.expr(Ty::F32, d)),
            7 => format!("({} as u32)", self.expr(Ty::Bool, d)),
            8 => {
                let op = self.rng.pick(&[
                    "subgroup_ballot_bit_count",
                    "subgroup_ballot_inclusive_bit_count",
                    "subgroup_ballot_exclusive_bit_count",
                ]);
                format!("{op}({})", self.expr(Ty::Mask, d))
            }
            9 | 10 => {
                let op = self
                    .rng
                    .pick(&["subgroup_ballot_find_lsb", "subgroup_ballot_find_msb"]);
                let m = if self.rng.chance(80) {
                    self.nonempty_mask(d)
                } else {
                    self.expr(Ty::Mask, d)
                };
                format!("{op}({m})")
            }
            11 => format!("{}.count()", self.receiver(d)),
            12 => "subgroup_local_invocation_id()".to_owned(),
            _ => self.leaf(Ty::U32),
        }
    }

    fn i32_expr(&mut self, d: u32) -> String {
        match self.rng.below(14) {
            0..=3 => {
                let op = self.rng.pick(&["+", "-", "*", "/", "%", "&", "|", "^"]);
                format!("({} {op} {})", self.expr(Ty::I32, d), self.expr(Ty::I32, d))
            }
            4 => {
                let op = self.rng.pick(&["<<", ">>"]);
                format!("({} {op} {})", self.expr(Ty::I32, d), self.expr(Ty::U32, d))
            }
            5 => format!("(-{})", self.expr(Ty::I32, d)),
            6 => format!("(!{})", self.expr(Ty::I32, d)),
            7 => format!("({} as i32)", self.expr(Ty::U32, d)),
            8 => format!("({} as i32)", self.expr(Ty::F32, d)),
            9 => format!("({} as i32)", self.expr(Ty::Bool, d)),
            _ => self.leaf(Ty::I32),
        }
    }

    fn f32_expr(&mut self, d: u32) -> String {
        match self.rng.below(10) {
            0..=2 => {
                let op = self.rng.pick(&["+", "-", "*", "+", "-", "*", "/", "%"]);
                format!("({} {op} {})", self.expr(Ty::F32, d), self.expr(Ty::F32, d))
            }
            3 => format!("(-{})", self.expr(Ty::F32, d)),
            4 => format!("({} as f32)", self.expr(Ty::U32, d)),
            5 => format!("({} as f32)", self.expr(Ty::I32, d)),
            _ => self.leaf(Ty::F32),
        }
    }

    fn mask_expr(&mut self, d: u32) -> String {
        match self.rng.below(14) {
            0..=2 => format!("subgroup_ballot({})", self.expr(Ty::Bool, d)),
            3 => self
                .rng
                .pick(&[
                    "subgroup_eq_mask()",
                    "subgroup_ge_mask()",
                    "subgroup_gt_mask()",
                    "subgroup_le_mask()",
                    "subgroup_lt_mask()",
                ])
                .to_owned(),
            4 => format!("SubgroupMask::lane({})", self.expr(Ty::U32, d)),
            5 => format!("SubgroupMask::first({})", self.expr(Ty::U32, d)),
            6..=8 => {
                let op = self.rng.pick(&["&", "|", "^"]);
                format!(
                    "({} {op} {})",
                    self.expr(Ty::Mask, d),
                    self.expr(Ty::Mask, d)
                )
            }
            9 => format!("(!{})", self.expr(Ty::Mask, d)),
            _ => self.leaf(Ty::Mask),
        }
    }

    // ---- statements ----

    fn block(&mut self, max: u32) {
        self.scopes.push(Vec::new());
        self.indent += 1;
        let n = 1 + self.rng.below(max);
        for _ in 0..n {
            if self.budget == 0 {
                break;
            }
            self.stmt();
        }
        self.indent -= 1;
        self.scopes.pop();
    }

    fn stmt(&mut self) {
        self.budget = self.budget.saturating_sub(1);
        let in_loop = self.loop_depth > 0;
        match self.rng.below(100) {
            0..=19 => self.let_stmt(),
            20..=49 => self.assign_stmt(),
            50..=62 => self.if_stmt(),
            63..=74 if self.loop_depth < 2 => self.loop_stmt(),
            75..=78 => self.call_stmt(),
            79 => self.eval_stmt(),
            80..=84 => self.return_stmt(),
            85..=94 if in_loop => {
                let cond = self.cond(2);
                let what = self.rng.pick(&["break", "continue"]);
                self.line(&format!("if {cond} {{"));
                self.line(&format!("    {what};"));
                self.line("}");
            }
            _ => self.let_stmt(),
        }
    }

    fn let_stmt(&mut self) {
        let ty = self.pick_ty();
        let mutable = self.rng.chance(50);
        let m = if mutable { "mut " } else { "" };
        // Shadow an existing name now and then; the front end gives the two
        // bindings two locals.
        let existing = self.vars(ty).first().map(|v| v.name.clone());
        let name = match existing {
            Some(name) if self.rng.chance(10) => name,
            _ => self.fresh("v"),
        };
        let decl = format!("let {m}{name}: {}", ty.rust());
        match self.rng.below(10) {
            // `if` as a value, with statements in an arm, or an arm that
            // leaves the kernel.
            0 => self.if_value(&decl, ty),
            1 => {
                let cond = self.cond(2);
                let leave = match self.ret {
                    Some(ret) => format!("return {};", self.result(ret, 1)),
                    None => "return;".to_owned(),
                };
                let value = self.expr(ty, 2);
                self.line(&format!("{decl} = if {cond} {{"));
                self.line(&format!("    {leave}"));
                self.line("} else {");
                self.line(&format!("    {value}"));
                self.line("};");
            }
            _ => {
                let value = self.expr(ty, 3);
                self.line(&format!("{decl} = {value};"));
            }
        }
        self.declare(Var {
            name,
            ty,
            assignable: mutable,
            uniform: false,
        });
    }

    /// `decl = if c { let t = ..; t op .. } else { .. };`
    fn if_value(&mut self, decl: &str, ty: Ty) {
        let cond = self.cond(2);
        let inner = self.pick_ty();
        let t = self.fresh("t");
        let t_value = self.expr(inner, 2);
        self.line(&format!("{decl} = if {cond} {{"));
        self.line(&format!("    let {t}: {} = {t_value};", inner.rust()));
        self.scopes.push(vec![Var {
            name: t,
            ty: inner,
            assignable: false,
            uniform: false,
        }]);
        let accept = self.result(ty, 2);
        self.scopes.pop();
        self.line(&format!("    {accept}"));
        self.line("} else {");
        let reject = self.expr(ty, 2);
        self.line(&format!("    {reject}"));
        self.line("};");
    }

    /// A collective evaluated only for its undefined-behaviour report,
    /// which it makes in about a quarter of the kernels that reach it.
    fn eval_stmt(&mut self) {
        let d = 1;
        let risky = self.rng.chance(25);
        let call = match self.rng.below(5) {
            0 | 1 => {
                let op = self
                    .rng
                    .pick(&["subgroup_ballot_find_lsb", "subgroup_ballot_find_msb"]);
                let m = if risky {
                    self.expr(Ty::Mask, d)
                } else {
                    self.nonempty_mask(d)
                };
                format!("{op}({m})")
            }
            2 => {
                let m = self.expr(Ty::Mask, d);
                let u = self.expr(Ty::U32, d);
                let index = if risky {
                    u
                } else {
                    format!("({u} % subgroup_size())")
                };
                format!("subgroup_ballot_bit_extract({m}, {index})")
            }
            3 => {
                let m = if risky {
                    self.expr(Ty::Mask, d)
                } else {
                    self.uniform_mask(d)
                };
                format!("subgroup_inverse_ballot({m})")
            }
            _ => {
                let ty = self.pick_ty();
                let value = self.expr(ty, d);
                if risky {
                    format!("subgroup_broadcast({value}, {})", self.rng.pick(&[0, 1, 2]))
                } else {
                    format!("subgroup_broadcast_first({value})")
                }
            }
        };
        self.line(&format!("{call};"));
    }

    fn pick_ty(&mut self) -> Ty {
        // f32 sparingly.
        self.rng.pick(&[
            Ty::Bool,
            Ty::U32,
            Ty::U32,
            Ty::U32,
            Ty::I32,
            Ty::I32,
            Ty::Mask,
            Ty::Mask,
            Ty::F32,
        ])
    }

    fn assign_stmt(&mut self) {
        let targets: Vec<(String, Ty)> = self
            .visible()
            .into_iter()
            .filter(|v| v.assignable)
            .map(|v| (v.name.clone(), v.ty))
            .collect();
        if targets.is_empty() {
            return self.let_stmt();
        }
        let accumulators: Vec<(String, Ty)> = targets
            .iter()
            .filter(|(n, _)| n.starts_with("acc"))
            .cloned()
            .collect();
        let pool = if !accumulators.is_empty() && self.rng.chance(50) {
            &accumulators
        } else {
            &targets
        };
        let (name, ty) = pool[self.rng.below(pool.len() as u32) as usize].clone();
        let compound: &[&str] = match ty {
            Ty::U32 => &["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>="],
            Ty::I32 => &["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="],
            Ty::F32 => &["+=", "-=", "*="],
            Ty::Bool | Ty::Mask => &["&=", "|=", "^="],
        };
        if self.rng.chance(40) {
            let op = self.rng.pick(compound);
            let rhs_ty = if matches!(op, "<<=" | ">>=") {
                Ty::U32
            } else {
                ty
            };
            let value = self.expr(rhs_ty, 2);
            self.line(&format!("{name} {op} {value};"));
        } else {
            let value = self.expr(ty, 3);
            self.line(&format!("{name} = {value};"));
        }
    }

    fn if_stmt(&mut self) {
        let cond = self.cond(3);
        self.line(&format!("if {cond} {{"));
        self.block(3);
        match self.rng.below(3) {
            0 => self.line("}"),
            1 => {
                self.line("} else {");
                self.block(3);
                self.line("}");
            }
            _ => {
                let cond = self.cond(2);
                self.line(&format!("}} else if {cond} {{"));
                self.block(2);
                self.line("} else {");
                self.block(2);
                self.line("}");
            }
        }
    }

    /// A loop whose trip count is fixed on entry: at most 5 per lane.
    fn loop_stmt(&mut self) {
        let form = self.rng.below(3);
        self.loop_stmt_of(form);
    }

    /// A `while` (0), `loop` (1) or `for` (2) loop.
    fn loop_stmt_of(&mut self, form: u32) {
        let bound = self.fresh("n");
        let bound_value = self.expr(Ty::U32, 2);
        self.line(&format!("let {bound}: u32 = {bound_value} % 6u32;"));
        self.declare(Var {
            name: bound.clone(),
            ty: Ty::U32,
            assignable: false,
            uniform: false,
        });
        self.loop_depth += 1;
        match form {
            0 => {
                let counter = self.counter();
                // A collective in the condition runs in the lanes still looping.
                let extra = if self.rng.chance(30) {
                    format!(" && {}", self.expr(Ty::Bool, 2))
                } else {
                    String::new()
                };
                self.line(&format!("while {counter} < {bound}{extra} {{"));
                self.line(&format!("    {counter} += 1u32;"));
                self.loop_body(&counter);
            }
            1 => {
                let counter = self.counter();
                self.line("loop {");
                self.line(&format!("    if {counter} >= {bound} {{"));
                self.line("        break;");
                self.line("    }");
                self.line(&format!("    {counter} += 1u32;"));
                self.loop_body(&counter);
            }
            _ => {
                let i = self.fresh("i");
                let start =
                    self.rng
                        .pick(&["0u32", "1u32", "(subgroup_local_invocation_id() % 3u32)"]);
                // The end is evaluated once, on entry.
                let end = if self.rng.chance(30) {
                    format!("({} % 6u32)", self.expr(Ty::U32, 2))
                } else {
                    bound
                };
                self.line(&format!("for {i} in {start}..{end} {{"));
                self.loop_body(&i);
            }
        }
        self.line("}");
        self.loop_depth -= 1;
    }

    /// A loop counter starting at 0, which only the loop increments.
    fn counter(&mut self) -> String {
        let counter = self.fresh("c");
        self.line(&format!("let mut {counter}: u32 = 0u32;"));
        counter
    }

    /// The loop body, with the counter or index readable but not assignable.
    fn loop_body(&mut self, counter: &str) {
        self.scopes.push(vec![Var {
            name: counter.to_owned(),
            ty: Ty::U32,
            assignable: false,
            uniform: false,
        }]);
        self.block(4);
        self.scopes.pop();
    }

    fn call_stmt(&mut self) {
        let with_ret: Vec<Sig> = self
            .callees
            .iter()
            .filter(|s| s.ret.is_some())
            .cloned()
            .collect();
        if with_ret.is_empty() {
            return self.let_stmt();
        }
        let sig = &with_ret[self.rng.below(with_ret.len() as u32) as usize];
        let args: Vec<String> = sig.params.iter().map(|p| self.expr(p.ty, 2)).collect();
        let name = self.fresh("v");
        let ty = sig.ret.unwrap_or(Ty::U32);
        let path = if self.rng.chance(25) { "self::" } else { "" };
        self.line(&format!(
            "let {name}: {} = {path}{}({});",
            ty.rust(),
            sig.name,
            args.join(", ")
        ));
        self.declare(Var {
            name,
            ty,
            assignable: false,
            uniform: false,
        });
    }

    fn return_stmt(&mut self) {
        let cond = self.cond(2);
        self.line(&format!("if {cond} {{"));
        match self.ret {
            Some(ty) => {
                let value = self.result(ty, 2);
                self.line(&format!("    return {value};"));
            }
            None => self.line("    return;"),
        }
        self.line("}");
    }

    /// A value of the return type that reads what the kernel computed so
    /// far: a visible local of that type combined with a fresh expression.
    fn result(&mut self, ty: Ty, depth: u32) -> String {
        let value = self.expr(ty, depth);
        let Some(acc) = self.vars(ty).first().map(|v| v.name.clone()) else {
            return value;
        };
        let op = match ty {
            Ty::F32 => "+",
            Ty::U32 | Ty::I32 => self.rng.pick(&["^", "+", "-"]),
            Ty::Bool | Ty::Mask => "^",
        };
        format!("({acc} {op} {value})")
    }

    /// A condition that usually differs between lanes.
    fn cond(&mut self, d: u32) -> String {
        match self.rng.below(10) {
            0..=2 => {
                let op = self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                let rhs = self.expr(Ty::U32, d);
                format!("(subgroup_local_invocation_id() {op} {rhs})")
            }
            3 | 4 => {
                let ty = self.rng.pick(&[Ty::U32, Ty::I32, Ty::U32]);
                let op = self.rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
                let lhs = self.leaf(ty);
                format!("({lhs} {op} {})", self.expr(ty, d))
            }
            5 => format!(
                "{}.contains(subgroup_local_invocation_id())",
                self.receiver(d)
            ),
            _ => self.expr(Ty::Bool, d + 1),
        }
    }

    /// A `let` of `op`'s result. If `risky`, in a form that is undefined
    /// for some inputs where the operation can be; otherwise in a form that
    /// is always defined.
    fn featured_op(&mut self, op: &str, risky: bool) {
        let lane = "subgroup_local_invocation_id()";
        let (ty, call) = match op {
            "subgroup_ballot" => (Ty::Mask, format!("{op}({})", self.cond(2))),
            "subgroup_inverse_ballot" if risky => {
                (Ty::Bool, format!("{op}(SubgroupMask::lane({lane} / 8u32))"))
            }
            "subgroup_inverse_ballot" => (Ty::Bool, format!("{op}({})", self.uniform_mask(2))),
            "subgroup_ballot_bit_extract" => {
                let index = if risky {
                    "(2u32 * {lane})"
                } else {
                    "({lane} * 5u32 % subgroup_size())"
                };
                let index = index.replace("{lane}", lane);
                let m = self.expr(Ty::Mask, 1);
                (Ty::Bool, format!("{op}({m}, {index})"))
            }
            "subgroup_ballot_find_lsb" | "subgroup_ballot_find_msb" if risky => {
                (Ty::U32, format!("{op}(subgroup_ballot({lane} > 1u32))"))
            }
            "subgroup_ballot_find_lsb" | "subgroup_ballot_find_msb" => {
                (Ty::U32, format!("{op}({})", self.nonempty_mask(2)))
            }
            "subgroup_ballot_bit_count"
            | "subgroup_ballot_inclusive_bit_count"
            | "subgroup_ballot_exclusive_bit_count" => {
                (Ty::U32, format!("{op}({})", self.expr(Ty::Mask, 2)))
            }
            "subgroup_elect" => (Ty::Bool, format!("{op}()")),
            "subgroup_broadcast" if risky => {
                let ty = self.pick_ty();
                (ty, format!("{op}({}, 1)", self.expr(ty, 2)))
            }
            "subgroup_broadcast" | "subgroup_broadcast_first" => {
                let op = "subgroup_broadcast_first";
                let ty = self.pick_ty();
                (ty, format!("{op}({})", self.expr(ty, 2)))
            }
            // The Eq/Ge/Gt/Le/Lt masks.
            _ => (Ty::Mask, format!("{op}()")),
        };
        let name = self.fresh("f");
        self.line(&format!("let {name}: {} = {call};", ty.rust()));
        self.declare(Var {
            name,
            ty,
            assignable: false,
            uniform: false,
        });
    }

    /// One statement of the construct `feature` selects.
    fn featured_construct(&mut self, feature: usize) {
        match feature % 8 {
            0..=2 => {
                let form = feature % 8;
                self.loop_stmt_of(form as u32);
            }
            3 => {
                let name = self.fresh("s");
                let value = self.expr(Ty::U32, 2);
                let op = self.rng.pick(&["<<=", ">>="]);
                let by = self.expr(Ty::U32, 2);
                self.line(&format!("let mut {name}: u32 = {value};"));
                self.line(&format!("{name} {op} {by};"));
                self.declare(Var {
                    name,
                    ty: Ty::U32,
                    assignable: true,
                    uniform: false,
                });
            }
            4 => self.call_stmt(),
            5 => self.eval_stmt(),
            6 => self.return_stmt(),
            _ => self.if_stmt(),
        }
    }
}

/// Every ballot intrinsic, in the order kernels feature them.
const OPS: [&str; 16] = [
    "subgroup_ballot",
    "subgroup_inverse_ballot",
    "subgroup_ballot_bit_extract",
    "subgroup_ballot_bit_count",
    "subgroup_ballot_inclusive_bit_count",
    "subgroup_ballot_exclusive_bit_count",
    "subgroup_ballot_find_lsb",
    "subgroup_ballot_find_msb",
    "subgroup_eq_mask",
    "subgroup_ge_mask",
    "subgroup_gt_mask",
    "subgroup_le_mask",
    "subgroup_lt_mask",
    "subgroup_elect",
    "subgroup_broadcast",
    "subgroup_broadcast_first",
];

/// Writes kernel `sig` with a random body, calling any of `callees`.
/// `feature` picks an operation and a construct the kernel is sure to
/// contain, so that every one is covered whatever the seed; `risky` writes
/// the operation in a form that can be undefined.
fn kernel(
    rng: &mut Rng,
    sig: &Sig,
    callees: &[Sig],
    budget: u32,
    feature: usize,
    risky: bool,
) -> String {
    let params: Vec<Var> = sig
        .params
        .iter()
        .map(|p| Var {
            name: p.name.clone(),
            ty: p.ty,
            assignable: false,
            uniform: p.uniform,
        })
        .collect();
    let mut g = KernelGen {
        rng,
        callees,
        ret: sig.ret,
        scopes: vec![params],
        next_var: 0,
        loop_depth: 0,
        budget,
        out: String::new(),
        indent: 1,
    };
    // Locals the body assigns from inside its branches and loops, and the
    // result reads: they carry divergent values to the output.
    let mut accumulators = vec![g.pick_ty()];
    accumulators.extend(sig.ret);
    for ty in accumulators {
        let name = g.fresh("acc");
        let value = g.expr(ty, 2);
        g.line(&format!("let mut {name}: {} = {value};", ty.rust()));
        g.declare(Var {
            name,
            ty,
            assignable: true,
            uniform: false,
        });
    }
    g.featured_op(OPS[feature % OPS.len()], risky);
    g.featured_construct(feature);
    while g.budget > 0 {
        g.stmt();
    }
    match sig.ret {
        Some(ty) => {
            let value = g.result(ty, 3);
            if g.rng.chance(30) {
                g.line(&format!("return {value};"));
            } else {
                g.line(&value);
            }
        }
        None if g.rng.chance(50) => g.line("return;"),
        None => {}
    }
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| {
            let uniform = if p.uniform { "#[uniform] " } else { "" };
            format!("{uniform}{}: {}", p.name, p.ty.rust())
        })
        .collect();
    let ret = sig
        .ret
        .map_or(String::new(), |t| format!(" -> {}", t.rust()));
    format!(
        "#[ballot::kernel]\npub fn {}({}){ret} {{\n{}}}\n",
        sig.name,
        params.join(", "),
        g.out
    )
}

fn signature(rng: &mut Rng, name: String, helper: bool, index: usize) -> Sig {
    let n = if helper {
        1 + rng.below(2)
    } else {
        rng.below(5)
    };
    let params = (0..n)
        .map(|i| {
            // Cycle through the types so that each appears in every few
            // kernels, and pick the rest at random.
            let ty = if i == 0 {
                Ty::ALL[index % Ty::ALL.len()]
            } else {
                rng.pick(&Ty::ALL)
            };
            ParamSig {
                name: format!("p{i}"),
                ty,
                // A helper's uniform parameter receives its caller's
                // per-lane values, uniform or not.
                uniform: rng.chance(if helper { 15 } else { 30 }),
            }
        })
        .collect();
    let ret = if !helper && index % 10 == 5 {
        None
    } else {
        Some(rng.pick(&[
            Ty::Bool,
            Ty::U32,
            Ty::U32,
            Ty::I32,
            Ty::F32,
            Ty::Mask,
            Ty::Mask,
        ]))
    };
    Sig { name, params, ret }
}

/// Every generated kernel: the helpers first, then the others.
pub fn kernels(seed: u64) -> Vec<(Sig, String)> {
    let mut rng = Rng::new(seed);
    let mut out: Vec<(Sig, String)> = Vec::new();
    for i in 0..HELPERS + KERNELS {
        let helper = i < HELPERS;
        let name = if helper {
            format!("h{i}")
        } else {
            format!("k{:02}", i - HELPERS)
        };
        let sig = signature(&mut rng, name, helper, i);
        let callees: Vec<Sig> = if helper {
            Vec::new()
        } else {
            out.iter().take(HELPERS).map(|(s, _)| s.clone()).collect()
        };
        let budget = if helper { 4 } else { 6 + rng.below(10) };
        // Helpers feature the operations that are always defined, and the
        // first sixteen other kernels the risky form of every operation, so
        // that every report is compared without making most runs undefined.
        let feature = i + 8;
        let risky = !helper && feature < HELPERS + 8 + OPS.len();
        let text = kernel(&mut rng, &sig, &callees, budget, feature, risky);
        out.push((sig, text));
    }
    out
}

/// The adapters that run `sig` through its generated API.
fn adapters(sig: &Sig) -> String {
    let mut out = String::new();
    let args: String = sig
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if p.uniform {
                format!(", uniform_{}(&args[{i}])", p.ty.helper())
            } else {
                format!(", &lanes_{}(&args[{i}])", p.ty.helper())
            }
        })
        .collect();
    let name = &sig.name;
    let a = if sig.params.is_empty() {
        "_args"
    } else {
        "args"
    };
    let params: Vec<String> = sig
        .params
        .iter()
        .map(|p| format!("(Type::{}, {})", p.ty.ir(), p.uniform))
        .collect();
    let _ = writeln!(
        out,
        "Entry {{\n    name: \"{name}\",\n    params: &[{}],\n    \
         run: |sg, {a}| {name}::run(sg{args}).map(per_lane),\n    \
         run_dispatch: |d, {a}| {name}::run_dispatch(d{args}).map(values),\n    \
         ir: {name}::ir,\n}},",
        params.join(", ")
    );
    out
}

/// The whole of `tests/random/kernels.rs`.
pub fn generate(seed: u64) -> String {
    let kernels = kernels(seed);
    let mut out = String::new();
    out.push_str(
        "// @generated by tests/random/gen.rs; regenerate with\n\
         // `cargo test --test random_kernels -- --ignored regenerate`. Do not edit.\n\n",
    );
    for (_, text) in &kernels {
        out.push_str(text);
        out.push('\n');
    }
    out.push_str("/// Every kernel above, with adapters to its generated API.\n");
    out.push_str("pub const ENTRIES: &[Entry] = &[\n");
    for (sig, _) in &kernels {
        for line in adapters(sig).lines() {
            out.push_str("    ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push_str("];\n");
    out
}
