//! Writing the linked text: the user's text with its calls renamed,
//! the init in each entry point, and the linked library, each piece
//! recorded with where it came from.

use super::*;

/// The lane id without `@builtin(subgroup_invocation_id)`: every lane of
/// the subgroup is active at the top of the entry point, where the init
/// runs, so an invocation's rank among them (`subgroupExclusiveAdd(1u)`)
/// picks its bit of their ballot; the lanes need not be the low ones.
pub(super) const ENTRY_LANE: &str = "
// The invocation's lane id, where @builtin(subgroup_invocation_id) cannot be
// read (naga refuses it in a workgroup of more than one dimension): its rank
// among the lanes, all active at the top of the entry point, as a bit of
// their ballot.
fn ballot_entry_lane() -> u32 {
    let lanes = subgroupBallot(true);
    var rank = subgroupExclusiveAdd(1u);
    for (var word = 0u; word < 4u; word++) {
        let n = countOneBits(lanes[word]);
        if rank < n {
            var bits = lanes[word];
            for (var k = 0u; k < rank; k++) {
                bits &= bits - 1u;
            }
            return word * 32u + firstTrailingBit(bits);
        }
        rank -= n;
    }
    return 0u;
}
";

impl Shader<'_> {
    /// The linked text at the emulation's sizes `layout`.
    pub(super) fn write(&self, layout: &ShaderOptions) -> Written {
        let target = self.target;
        let language = target.language();
        let emulated = !target.has_subgroups();
        let ops: Vec<Op> = self.linked_ops().into_iter().collect();
        let p = &self.prefix;
        // Each operation's name once, not once a call.
        let names: BTreeMap<Op, String> = ops
            .iter()
            .map(|&op| (op, format!("{p}{}", &linked_name(op)["ballot_".len()..])))
            .collect();
        let mut edits: Vec<Edit<'_>> = Vec::new();
        // A text the same at every call (a name, `true, `) is borrowed,
        // not allocated once a call.
        macro_rules! edit {
            ($range:expr, $text:expr, $blame:expr $(,)?) => {
                edits.push(Edit {
                    range: $range,
                    text: Cow::from($text),
                    blame: $blame,
                })
            };
        }
        for (range, text) in &self.rewrites {
            edit!(range.clone(), text.as_str(), range.clone());
        }
        for lane in self.uses.iter().filter_map(|u| u.lane.as_ref()) {
            if self.lane_as_u32 {
                edit!(lane.start..lane.start, "u32(".to_string(), lane.clone());
                edit!(lane.end..lane.end, ")".to_string(), lane.clone());
            }
        }
        for u in self.uses.iter().filter(|u| self.links(u.op)) {
            let mut name = Cow::from(names[&u.op].as_str());
            if let Some(suffix) = u.typed.as_ref().and_then(types::Typed::suffix) {
                name.to_mut().push_str(&suffix);
            }
            match u.args {
                None => edit!(u.name.clone(), format!("{name}()"), u.name.clone()),
                Some((after_open, more)) => {
                    edit!(u.name.clone(), name, u.name.clone());
                    if emulated && is_collective(u.op) {
                        let on = match (more, u.op) {
                            (true, _) => "true, ",
                            // naga's `subgroupBallot()`: its predicate
                            // `true` too.
                            (false, Op::Ballot) => "true, true",
                            (false, _) => "true",
                        };
                        edit!(after_open..after_open, on, u.name.clone());
                    }
                    // The value's type, written as a constructor (which
                    // changes no value) for the if-conversion to read,
                    // where the value is more than a literal (whose type
                    // it reads itself) or a built-in (whose type it knows):
                    // a name too, as a global's or a block member's is
                    // declared where the pass does not look. After the
                    // `on` argument where both go at one place.
                    let literal = |v: &Range<usize>| {
                        let v = &self.text[v.clone()];
                        let word = v
                            .bytes()
                            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.');
                        word && (v.starts_with(|c: char| c.is_ascii_digit() || c == '.')
                            || v.starts_with("gl_")
                            || v == "true"
                            || v == "false")
                    };
                    if let Some((value, Some(ty))) = u.value.as_ref().filter(|(v, _)| !literal(v)) {
                        edit!(value.start..value.start, format!("{ty}("), value.clone());
                        edit!(value.end..value.end, ")".to_string(), value.clone());
                    }
                }
            }
        }
        // The virtual subgroups are the workgroup's linear index cut into
        // runs of the virtual size (`ballot_init`).
        for b in self.builtins.iter().filter(|_| emulated) {
            edit!(b.name.clone(), b.value.emulated(p), b.name.clone());
        }
        for b in self.barriers.iter().filter(|_| emulated) {
            match b.memory {
                Some(memory) => edit!(b.name.clone(), memory.to_string(), b.name.clone()),
                None => {
                    edit!(
                        b.name.clone(),
                        format!("{p}subgroupBarrier"),
                        b.name.clone(),
                    );
                    edit!(
                        b.after_open..b.after_open,
                        "true".to_string(),
                        b.name.clone(),
                    );
                }
            }
        }
        let needs_init = self.links_any();
        if let Some(init) = target.init().filter(|_| needs_init) {
            let init_name = format!("{p}init");
            let init_call = |args: &[&str]| format!("{};", init.call_as(&init_name, args));
            for entry in &self.entries {
                let mut added = Vec::new();
                // The statements the body starts with.
                let mut body;
                match (language, emulated) {
                    (Language::Glsl, _) => {
                        body = vec![init_call(init.builtins)];
                    }
                    (Language::Wgsl, false) => {
                        let mut arg = |builtin: &str| match self.builtin_access(entry, builtin) {
                            Some(read) => read,
                            None => {
                                let name = format!("{p}{builtin}");
                                added.push(format!("@builtin({builtin}) {name}: u32"));
                                name
                            }
                        };
                        let lane = match self.lane_from_rank {
                            true => self
                                .builtin_access(entry, "subgroup_invocation_id")
                                .unwrap_or_else(|| format!("{p}entry_lane()")),
                            false => arg("subgroup_invocation_id"),
                        };
                        let size = arg("subgroup_size");
                        body = vec![init_call(&[&lane, &size])];
                    }
                    (Language::Wgsl, true) => {
                        let index = match self.builtin_access(entry, "local_invocation_index") {
                            Some(read) => read,
                            None => {
                                let name = format!("{p}local_invocation_index");
                                added.push(format!("@builtin(local_invocation_index) {name}: u32"));
                                name
                            }
                        };
                        body = vec![init_call(&[&index])];
                        // Its own invocation count, where entry points'
                        // differ, before the init reads it.
                        let name = &self.text[entry.name.clone()];
                        if let Some((_, count)) =
                            self.entry_sizes.iter().flatten().find(|(n, _)| n == name)
                        {
                            body.insert(0, format!("{p}workgroup_size = {count}u;"));
                        }
                        // The subgroup built-ins become the emulation's.
                        for q in &entry.params {
                            let Some(value) = BuiltinValue::of_wgsl(&q.builtin) else {
                                continue;
                            };
                            let value = value.emulated(p);
                            // The parameter goes, with the comma after it
                            // (or, last, before it).
                            let rest = &self.text[q.range.end..entry.close];
                            let comma = rest.find(',').filter(|&c| rest[..c].trim().is_empty());
                            let range = match comma {
                                Some(c) => q.range.start..q.range.end + c + 1,
                                None => q.range.clone(),
                            };
                            edit!(whole_line(self.text, range), String::new(), q.range.clone());
                            body.push(format!("let {} = {value};", q.name));
                        }
                    }
                }
                if !added.is_empty() {
                    let removed =
                        |q: &Param| emulated && BuiltinValue::of_wgsl(&q.builtin).is_some();
                    // The added ones need a comma before them only after a
                    // last parameter that stays and has none: a removed
                    // parameter takes the comma after it, so the one
                    // before it keeps its own.
                    let needs_comma = entry
                        .params
                        .last()
                        .is_some_and(|q| !removed(q) && !entry.trailing_comma);
                    // The parameter list, after the `(` that follows the name.
                    let open = self.text[entry.name.end..entry.close]
                        .find('(')
                        .map_or(entry.close, |n| entry.name.end + n + 1);
                    let list = &self.text[open..entry.close];
                    let close_line = list.rfind('\n').map(|n| open + n + 1);
                    match close_line.filter(|&at| self.text[at..entry.close].trim().is_empty()) {
                        // One parameter a line, `)` on a line of its own: one
                        // line each, indented as the first.
                        Some(at) => {
                            if let (true, Some(last)) = (needs_comma, entry.params.last()) {
                                let end = last.range.end;
                                edit!(end..end, ",".to_string(), entry.name.clone());
                            }
                            let first = list.trim_start_matches(['\r', '\n']);
                            let indent = &first[..first.len() - first.trim_start().len()];
                            let indent = if indent.is_empty() { "    " } else { indent };
                            let lines: String =
                                added.iter().map(|a| format!("{indent}{a},\n")).collect();
                            edit!(at..at, lines, entry.name.clone());
                        }
                        None => {
                            let lead = if needs_comma { ", " } else { "" };
                            edit!(
                                entry.close..entry.close,
                                format!("{lead}{}", added.join(", ")),
                                entry.name.clone(),
                            );
                        }
                    }
                }
                edit!(
                    entry.body..entry.body,
                    statements(self.text, entry.body, &body),
                    entry.name.clone(),
                );
            }
        }
        edits.sort_by_key(|e| (e.range.start, e.range.end));

        // The linked functions, under the prefix.
        let wanted = match target {
            // The extension's own functions: only its `#extension` lines.
            Target::Glsl => !self.uses.is_empty(),
            _ => needs_init,
        };
        let library = if !wanted {
            String::new()
        } else {
            // glslang reads `gl_WorkGroupSize` as the layout declared so
            // far: a specialised one's layout lines come again before the
            // library's sizes.
            // (WGSL has no such lines: its override is declared below.)
            let layouts: Option<String> = self.specialised_workgroup.then(|| {
                self.workgroup_layouts
                    .iter()
                    .map(|r| format!("\n{}", &self.text[r.clone()]))
                    .collect()
            });
            let sizing = match (&layouts, &self.entry_sizes) {
                (Some(layouts), _) => Sizing::Specialised(layouts),
                (None, Some(_)) => Sizing::PerEntry,
                (None, None) => Sizing::Fixed,
            };
            let mut text = library(target, &ops, layout, self.links_barrier(), sizing);
            if self.links_barrier() {
                text.push_str(barrier_function(language));
            }
            if self.lane_from_rank && target.has_subgroups() {
                text.push_str(ENTRY_LANE);
            }
            // The generic calls' typed functions: the broadcasts of other
            // types than the library's, and the rest of the family.
            if emulated {
                let typed: BTreeSet<types::Typed> =
                    self.uses.iter().filter_map(|u| u.typed).collect();
                if typed.iter().any(types::Typed::is_f16_arith) {
                    text.push_str(types::F16_ARITH);
                }
                for t in typed.iter().filter(|t| t.suffix().is_some()) {
                    text.push_str(&t.wrapper());
                }
                if language == Language::Glsl {
                    // Each operation its own types' overloads: `ops` holds
                    // every namesake of a name called (`linked_ops`).
                    for &op in ops.iter().filter(|&&op| ballot_ir::ir::op_is_generic(op)) {
                        text.push_str(&types::glsl_overloads(op));
                    }
                    // Values of 8, 16 and 64 bits, through those.
                    let wide: BTreeSet<(Op, String)> = self
                        .uses
                        .iter()
                        .filter_map(|u| Some((u.op, u.value.as_ref()?.1.clone()?)))
                        .filter(|(op, ty)| types::glsl_links_wide(*op, ty))
                        .collect();
                    text.push_str(&types::glsl_wide_overloads(&wide));
                    text.insert_str(0, &types::glsl_wide_extensions(&wide));
                }
            }
            let mut text = rename(&text, language, p);
            // WGSL's overridable size: the invocation count, an override
            // of the shader's own expression, declared after the renaming,
            // which is the library's names' and not the shader's.
            if let Some(count) = self.overridden_invocations() {
                text.push_str(&format!("override {p}workgroup_size: u32 = {count};\n"));
            }
            text
        };
        let functions = defined_functions(&library, language);
        // The caller's defines, after `#version` and before all else.
        let library = format!("{}{library}", self.defines);

        let mut out = Out::default();
        let (directives, library_at) = match language {
            Language::Glsl => (String::new(), self.library_at),
            Language::Wgsl => {
                let mut d = String::new();
                // Tint refuses any subgroup name without the directive,
                // WGSL's own `subgroupBallot` too.
                if target == Target::WgslWeb
                    && !self.has_enable
                    && (!ops.is_empty() || self.uses_subgroups)
                {
                    d.push_str("enable subgroups;\n");
                }
                if target == Target::WgslWeb && !ops.is_empty() && !self.has_diagnostic {
                    d.push_str("diagnostic(off, subgroup_uniformity);\n");
                }
                (d, self.library_at)
            }
        };
        // One allocation each: the text is at most the user's, the
        // library's and every edit's, in a piece before each edit and
        // each edit's own.
        out.text.reserve(
            directives.len()
                + library.len()
                + self.text.len()
                + edits.iter().map(|e| e.text.len()).sum::<usize>(),
        );
        out.pieces.reserve(2 * edits.len() + 4);
        out.generated(&directives, None);
        let mut from = 0;
        let mut library_written = false;
        for e in &edits {
            if !library_written && library_at <= e.range.start {
                out.user(self.text, from..library_at);
                out.generated(&library, None);
                from = library_at;
                library_written = true;
            }
            out.user(self.text, from..e.range.start);
            out.generated(&e.text, Some(e.blame.clone()));
            from = e.range.end;
        }
        if !library_written {
            out.user(self.text, from..library_at);
            out.generated(&library, None);
            from = library_at;
        }
        out.user(self.text, from..self.text.len());
        Written {
            text: out.text,
            pieces: out.pieces,
            functions,
        }
    }
}

pub(super) struct Edit<'a> {
    pub(super) range: Range<usize>,
    pub(super) text: Cow<'a, str>,
    /// What in the user's text an error in `text` is blamed on.
    pub(super) blame: Range<usize>,
}

/// Where a piece of the linked text comes from.
#[derive(Clone, Debug)]
pub(super) enum Origin {
    /// The user's text, from this offset on.
    User(usize),
    /// Written by the linker in place of (or next to) this user range.
    Edit(Range<usize>),
    /// The linked functions and directives.
    Linked,
}

#[derive(Default)]
pub(super) struct Out {
    pub(super) text: String,
    pub(super) pieces: Vec<(Range<usize>, Origin)>,
}

impl Out {
    pub(super) fn user(&mut self, source: &str, range: Range<usize>) {
        if range.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(&source[range.clone()]);
        self.pieces
            .push((start..self.text.len(), Origin::User(range.start)));
    }

    pub(super) fn generated(&mut self, text: &str, blame: Option<Range<usize>>) {
        if text.is_empty() {
            return;
        }
        let start = self.text.len();
        self.text.push_str(text);
        let origin = blame.map_or(Origin::Linked, Origin::Edit);
        self.pieces.push((start..self.text.len(), origin));
    }
}

/// `statements` as they go right after the `{` at `body`: a line each,
/// indented as the body's first line, where the body starts on a new line;
/// else on the brace's line.
pub(super) fn statements(text: &str, body: usize, statements: &[String]) -> String {
    let rest = &text[body..];
    let multiline = rest.trim_start_matches([' ', '\t', '\r']).starts_with('\n');
    if !multiline {
        return statements.iter().map(|s| format!(" {s}")).collect();
    }
    let indent = rest
        .lines()
        .skip(1)
        .find(|l| !l.trim().is_empty())
        .map_or("    ", |l| &l[..l.len() - l.trim_start().len()]);
    let indent = if indent.is_empty() { "    " } else { indent };
    statements
        .iter()
        .map(|s| format!("\n{indent}{s}"))
        .collect()
}

/// The functions (and lane state) behind `ops` on `target`, named
/// `ballot_*`, each public one under `ballot_` + its GLSL name without
/// `gl_` (`ballot_subgroupBallotBitCount`, `ballot_subgroupEqMask`).
/// `sizing`: how the emulation's sizes follow the workgroup's.
pub(super) fn library(
    target: Target,
    ops: &[Op],
    options: &ShaderOptions,
    barrier: bool,
    sizing: Sizing<'_>,
) -> String {
    let language = target.language();
    let emulated = !target.has_subgroups();
    let name = linked_name;
    let mut out =
        String::from("\n// Linked by ballot: the subgroup functions this shader calls.\n");
    match (language, emulated) {
        (Language::Glsl, false) => {
            out.push_str("#extension GL_KHR_shader_subgroup_basic : require\n");
            out.push_str("#extension GL_KHR_shader_subgroup_ballot : require\n");
        }
        (Language::Glsl, true) => {
            match sizing {
                Sizing::Specialised(layouts) => {
                    out.insert_str(0, layouts);
                    out.push_str(&ballot_shader::back::glsl::specialised_emulated_constants(
                        options, 1,
                    ));
                }
                Sizing::Fixed | Sizing::PerEntry => out.push_str(
                    &ballot_shader::back::glsl::emulated_constants(options, false, 1),
                ),
            }
            let helpers = polyfill::helpers_of(language, true, ops);
            let helpers = with_vote(language, helpers, ops, barrier);
            ballot_shader::back::glsl::helpers::write_all(&mut out, &helpers);
            polyfill::glsl_public(&mut out, &untyped(ops), &name, false);
        }
        (Language::Wgsl, _) => {
            let mut helpers = polyfill::helpers_of(language, emulated, ops);
            if emulated {
                helpers = with_vote(language, helpers, ops, barrier);
            }
            use ballot_shader::back::wgsl::{self, WorkgroupCount};
            let count = match sizing {
                Sizing::Fixed => WorkgroupCount::Fixed,
                Sizing::Specialised(_) => WorkgroupCount::Overridden,
                Sizing::PerEntry => WorkgroupCount::PerEntry,
            };
            out.push_str(&match emulated {
                true => wgsl::emulated_lane_state(options, &helpers, 1, count),
                false => wgsl::lane_state(false, options, &helpers, 1),
            });
            for helper in helpers {
                out.push('\n');
                out.push_str(
                    ballot_shader::back::wgsl::helpers::text(helper, emulated).unwrap_or_default(),
                );
            }
            polyfill::wgsl_public(&mut out, target, &untyped(ops), &name, false);
        }
    }
    // A blank line between the linked functions and the shader's own code.
    out.push('\n');
    out
}

/// How the emulation's sizes follow the workgroup's ([`library`]).
pub(super) enum Sizing<'a> {
    /// Constants, of the one size the shader is linked at.
    Fixed,
    /// The pipeline's ([`Shader::specialised_workgroup`]): GLSL's layout
    /// lines, which `glsl-no-subgroup` writes before its sizes;
    /// `wgsl-no-subgroup` declares its sizes as overrides of
    /// `ballot_workgroup_size`, which the caller declares
    /// ([`Shader::overridden_invocations`]).
    Specialised(&'a str),
    /// WGSL entry points of different sizes ([`Shader::entry_sizes`]): the
    /// exchange memory laid out for the largest, the one linked at, and
    /// `ballot_workgroup_size` a private variable each entry point sets.
    PerEntry,
}

/// The operations of `ops` whose public functions the polyfill library
/// writes as the linker needs them: the ballot family and the votes on a
/// `bool`. The generic ones get typed functions ([`types`]), the
/// broadcasts besides the library's `u32` and `vec4<u32>` ones.
pub(super) fn untyped(ops: &[Op]) -> Vec<Op> {
    ops.iter()
        .copied()
        .filter(|&op| op.is_ballot() || !ballot_ir::ir::op_is_generic(op))
        .collect()
}

/// `helpers`, with the workgroup vote and what it needs where `ops` holds
/// an exchange or the shader a linked `barrier`: the if-conversion's loops
/// that hold one leave by it ([`converge`]).
pub(super) fn with_vote(
    language: Language,
    helpers: BTreeSet<Helper>,
    ops: &[Op],
    barrier: bool,
) -> BTreeSet<Helper> {
    if !barrier && !ops.iter().any(|&op| is_collective(op)) {
        return helpers;
    }
    let mut needs = Needs::new(language, true);
    for helper in helpers {
        needs.add(helper);
    }
    needs.add(Helper::WorkgroupAny);
    needs.into_set()
}

/// The linked function of `op`: `ballot_` + its GLSL name without `gl_`
/// (`ballot_subgroupBallotBitCount`, `ballot_subgroupEqMask`).
pub(super) fn linked_name(op: Op) -> String {
    let glsl = op.glsl_name();
    format!("ballot_{}", glsl.strip_prefix("gl_").unwrap_or(glsl)).replace("ballot_S", "ballot_s")
}

/// Whether `op` is a GLSL built-in variable (the masks).
pub(super) fn is_mask(op: Op) -> bool {
    op.glsl_name().starts_with("gl_")
}

/// Whether `op` exchanges values between lanes: emulated, it holds
/// barriers and takes the `on` flag. The ballot family's four, and every
/// other operation of the family.
pub(super) fn is_collective(op: Op) -> bool {
    !op.is_ballot()
        || matches!(
            op,
            Op::Ballot | Op::Elect | Op::Broadcast | Op::BroadcastFirst
        )
}

/// `text` with every identifier that starts with `ballot_` under `prefix`.
pub(super) fn rename(text: &str, language: Language, prefix: &str) -> String {
    if prefix == "ballot_" {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 256);
    let mut from = 0;
    for token in lex(text, language) {
        let word = &text[token.range()];
        if token.kind == Kind::Ident {
            if let Some(rest) = word.strip_prefix("ballot_") {
                out.push_str(&text[from..token.range().start]);
                out.push_str(prefix);
                out.push_str(rest);
                from = token.range().end;
            }
        }
    }
    out.push_str(&text[from..]);
    out
}

/// The names of the functions `text` defines.
pub(super) fn defined_functions(text: &str, language: Language) -> Vec<String> {
    let tokens = lex(text, language);
    let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
    let mut names = Vec::new();
    let mut depth = 0usize;
    for (i, t) in tokens.iter().enumerate() {
        match t.kind {
            Kind::Punct(b'{') => depth += 1,
            Kind::Punct(b'}') => depth = depth.saturating_sub(1),
            Kind::Ident if depth == 0 => {
                let defines = match language {
                    Language::Wgsl => i > 0 && s(i - 1) == "fn",
                    Language::Glsl => s(i + 1) == "(" && i > 0 && tokens[i - 1].kind == Kind::Ident,
                };
                if defines {
                    names.push(s(i).to_string());
                }
            }
            _ => {}
        }
    }
    names
}
