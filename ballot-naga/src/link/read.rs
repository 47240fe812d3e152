//! Reading a user's shader: its entry points, built-ins, structs and
//! calls, each call's operation and value type, and what the target
//! must link for it.

mod glsl;
mod wgsl;

use super::*;

/// A call (or, in GLSL, a built-in variable) the linker rewrites.
#[derive(Clone, Debug)]
pub(in crate::link) struct Use {
    pub(in crate::link) op: Op,
    /// The name's token.
    pub(in crate::link) name: Range<usize>,
    /// Where an emulated collective's `on` argument goes (after `(`), and
    /// whether the call has other arguments.
    pub(in crate::link) args: Option<(usize, bool)>,
    /// A WGSL generic call's operation and type, on `wgsl-no-subgroup`
    /// ([`types`]).
    pub(in crate::link) typed: Option<types::Typed>,
    /// A GLSL generic call's value ([`ballot_ir::ir::op_is_generic`]): its
    /// range, and its type where glslang gave it, on `glsl-no-subgroup`
    /// ([`glsl_types`]).
    pub(in crate::link) value: Option<(Range<usize>, Option<String>)>,
    /// Broadcast's, Shuffle's and QuadBroadcast's lane argument:
    /// `wgsl-no-subgroup` converts it to `u32`, so that an `i32` lane
    /// (WGSL's other) reaches the `u32` parameter.
    pub(in crate::link) lane: Option<Range<usize>>,
    /// A GLSL clustered reduction's cluster size: its argument's range,
    /// and the constant glslang folds it to, where its tree gives one
    /// ([`glsl_types`]). `glsl-no-subgroup` checks it
    /// ([`Shader::check_cluster_sizes`]).
    pub(in crate::link) cluster: Option<(Range<usize>, Option<i64>)>,
}

/// A call of a subgroup barrier, `GL_KHR_shader_subgroup_basic`'s (and
/// naga's WGSL `subgroupBarrier`): on the emulated targets,
/// `subgroupBarrier()` becomes an exchange of no value that every
/// invocation of the workgroup makes (a workgroup barrier, which waits for
/// more invocations than the subgroup's, and orders memory as
/// `subgroupBarrier` does), and the memory barriers the language's own,
/// which order at least what the subgroup's do.
#[derive(Clone, Debug)]
pub(in crate::link) struct SubgroupBarrier {
    /// The name's token.
    pub(in crate::link) name: Range<usize>,
    /// After the call's `(`.
    pub(in crate::link) after_open: usize,
    /// What the name becomes on an emulated target; `None` for
    /// `subgroupBarrier`, which becomes the linked exchange.
    pub(in crate::link) memory: Option<&'static str>,
}

/// The subgroup barrier named `name` in `language`: `Some(None)` for
/// `subgroupBarrier`, `Some(Some(replacement))` for a GLSL memory barrier.
pub(in crate::link) fn subgroup_barrier(
    language: Language,
    name: &str,
) -> Option<Option<&'static str>> {
    Some(match (language, name) {
        (_, "subgroupBarrier") => None,
        (Language::Glsl, "subgroupMemoryBarrier") => Some("memoryBarrier"),
        (Language::Glsl, "subgroupMemoryBarrierBuffer") => Some("memoryBarrierBuffer"),
        (Language::Glsl, "subgroupMemoryBarrierShared") => Some("memoryBarrierShared"),
        (Language::Glsl, "subgroupMemoryBarrierImage") => Some("memoryBarrierImage"),
        _ => return None,
    })
}

/// The linked `subgroupBarrier` of an emulated target, in `language`, under
/// `ballot_`: every invocation calls it, its `on` flag unused (the
/// conversion reads it as an exchange whose result is a `bool`).
pub(in crate::link) fn barrier_function(language: Language) -> &'static str {
    match language {
        Language::Glsl => {
            "\n// subgroupBarrier: every invocation of the workgroup waits here.\n\
             bool ballot_subgroupBarrier(bool on) {\n    memoryBarrier();\n    barrier();\n    \
             return on;\n}\n"
        }
        Language::Wgsl => {
            "\n// subgroupBarrier: every invocation of the workgroup waits here.\n\
             fn ballot_subgroupBarrier(on: bool) -> bool {\n    storageBarrier();\n    \
             workgroupBarrier();\n    return on;\n}\n"
        }
    }
}

/// A GLSL built-in variable of the subgroup extensions the emulation
/// replaces, other than the masks: `GL_KHR_shader_subgroup_basic`'s.
#[derive(Clone, Debug)]
pub(in crate::link) struct Builtin {
    pub(in crate::link) name: Range<usize>,
    pub(in crate::link) value: BuiltinValue,
}

/// Which built-in a [`Builtin`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::link) enum BuiltinValue {
    /// `gl_SubgroupInvocationID`.
    Lane,
    /// `gl_SubgroupSize`.
    Size,
    /// `gl_SubgroupID`: the virtual subgroup's index in the workgroup.
    Id,
    /// `gl_NumSubgroups`: the virtual subgroups of the workgroup.
    Count,
}

impl BuiltinValue {
    /// The WGSL built-in of this value, by its name in `@builtin(…)`.
    pub(in crate::link) fn of_wgsl(name: &str) -> Option<Self> {
        Some(match name {
            "subgroup_invocation_id" => BuiltinValue::Lane,
            "subgroup_size" => BuiltinValue::Size,
            "subgroup_id" => BuiltinValue::Id,
            "num_subgroups" => BuiltinValue::Count,
            _ => return None,
        })
    }

    /// The value on an emulated target, an expression of the emulation's
    /// state under the prefix `p`: the virtual subgroups are the
    /// workgroup's linear index cut into runs of the virtual size.
    pub(in crate::link) fn emulated(self, p: &str) -> String {
        match self {
            BuiltinValue::Lane => format!("{p}lane"),
            BuiltinValue::Size => format!("{p}subgroup_size"),
            BuiltinValue::Id => format!("({p}index / {p}subgroup_size)"),
            BuiltinValue::Count => {
                format!("(({p}workgroup_size + {p}subgroup_size - 1u) / {p}subgroup_size)")
            }
        }
    }
}

/// An entry point's parameter.
#[derive(Clone, Debug)]
pub(in crate::link) struct Param {
    /// The built-in it is, or empty (a struct of them).
    pub(in crate::link) builtin: String,
    pub(in crate::link) name: String,
    /// Its type's name (WGSL: the struct of a parameter without a
    /// built-in).
    pub(in crate::link) ty: String,
    /// The parameter's tokens, from its first attribute to its type's end.
    pub(in crate::link) range: Range<usize>,
}

/// An entry point: its name, parameters and the body's opening brace.
#[derive(Clone, Debug)]
pub(in crate::link) struct Entry {
    /// Whether it is a compute entry point (WGSL: else a fragment one;
    /// GLSL's `main` is the file's stage).
    pub(in crate::link) compute: bool,
    pub(in crate::link) name: Range<usize>,
    /// Where the parameter list's `)` starts.
    pub(in crate::link) close: usize,
    pub(in crate::link) params: Vec<Param>,
    /// Whether the list ends with a comma.
    pub(in crate::link) trailing_comma: bool,
    pub(in crate::link) body: usize,
}

/// A built-in member of a WGSL struct: `@builtin(name) member: type`.
#[derive(Clone, Debug)]
pub(in crate::link) struct Member {
    pub(in crate::link) builtin: String,
    pub(in crate::link) name: String,
    /// The member's text, its attributes and the comma after it included.
    pub(in crate::link) range: Range<usize>,
}

/// A WGSL struct with built-in members.
#[derive(Clone, Debug)]
pub(in crate::link) struct Struct {
    /// Its built-in members.
    pub(in crate::link) builtins: Vec<Member>,
    /// How many members it has in all.
    pub(in crate::link) fields: usize,
}

/// The user's shader, read: what it calls, defines and declares.
pub(in crate::link) struct Shader<'a> {
    pub(in crate::link) text: &'a str,
    pub(in crate::link) target: Target,
    pub(in crate::link) uses: Vec<Use>,
    /// The subgroup barriers' calls ([`SubgroupBarrier`]).
    pub(in crate::link) barriers: Vec<SubgroupBarrier>,
    pub(in crate::link) builtins: Vec<Builtin>,
    pub(in crate::link) entries: Vec<Entry>,
    /// The WGSL structs with built-in members, by name.
    pub(in crate::link) structs: BTreeMap<String, Struct>,
    /// Ranges written otherwise, an empty text deleting: `enable
    /// subgroups;` (WGSL read by naga), the subgroup `#extension` lines and
    /// the renaming macros' definitions (emulated GLSL), a WGSL struct's
    /// subgroup built-ins (emulated WGSL; the first kept as a spare
    /// built-in where the struct would be left empty).
    pub(in crate::link) rewrites: Vec<(Range<usize>, String)>,
    /// Whether a `wgsl-web` shader has the directives itself.
    pub(in crate::link) has_enable: bool,
    pub(in crate::link) has_diagnostic: bool,
    /// Where the linked functions go: after the GLSL text's `#version`
    /// line; before the WGSL text's first declaration, after its
    /// directives. Never at the end, where a text cut short (a missing
    /// `}`, `;`) would take them in and naga's error would fall in linked
    /// code.
    pub(in crate::link) library_at: usize,
    /// GLSL: the caller's defines, as `#define` lines each after a line
    /// break ([`LinkOptions::defines`]), written with the library.
    pub(in crate::link) defines: String,
    pub(in crate::link) prefix: String,
    /// Whether the shader has an entry point of any stage.
    pub(in crate::link) has_entry_point: bool,
    /// Each compute entry point's workgroup size, where it is spelled in
    /// integer literals (GLSL: the one `layout(local_size_x = …) in;`).
    pub(in crate::link) literal_sizes: Vec<Option<[u32; 3]>>,
    /// WGSL: each compute entry point's `@workgroup_size` arguments as
    /// written, in the order of [`Self::literal_sizes`] (none where the
    /// attribute is missing).
    pub(in crate::link) workgroup_args: Vec<Vec<String>>,
    /// The stage glslang compiles a GLSL shader as, from its path, and
    /// whether that was assumed ([`judge::glsl_stage`]).
    pub(in crate::link) stage: (&'static str, bool),
    /// What glslang compiles a GLSL shader for ([`LinkOptions::api`]).
    pub(in crate::link) api: GlslApi,
    /// Whether the shader names any subgroup function or built-in (WGSL's
    /// own too): `wgsl-web` then needs `enable subgroups;`.
    pub(in crate::link) uses_subgroups: bool,
    /// Whether the hardware WGSL init reads the lane id from the lanes'
    /// ranks (`entry_lane`) rather than `@builtin(subgroup_invocation_id)`,
    /// which naga refuses in a workgroup of more than one dimension.
    pub(in crate::link) lane_from_rank: bool,
    /// Whether Broadcast's, Shuffle's and QuadBroadcast's lane argument is
    /// converted to `u32` at the call ([`Use::lane`]): on every WGSL target,
    /// as WGSL takes an `i32` lane too, and naga only a `u32`.
    pub(in crate::link) lane_as_u32: bool,
    /// `glsl-no-subgroup`: whether glslang's tree gave no types of the
    /// generic calls' values ([`Self::type_glsl_values`]): most often, it
    /// does not compile the shader, whose own error then says more than
    /// a conversion that needs a type.
    pub(in crate::link) untyped_values: bool,
    /// GLSL: each `layout(local_size_… ) in;` declaration, where its
    /// values are all literals (else none: see [`Self::specialised_workgroup`]).
    pub(in crate::link) workgroup_layouts: Vec<Range<usize>>,
    /// Whether the pipeline specialises the workgroup size (GLSL's
    /// `local_size_x_id`): `glsl-no-subgroup` then writes its exchange
    /// memory's sizes as expressions of `gl_WorkGroupSize`
    /// ([`ballot_shader::back::glsl::specialised_emulated_constants`]),
    /// after a copy of [`Self::workgroup_layouts`], as glslang reads
    /// `gl_WorkGroupSize` as the layout declared so far.
    pub(in crate::link) specialised_workgroup: bool,
    /// WGSL: where the compute entry points' workgroup sizes differ, each
    /// one's invocation count by its name. The exchange memory is then
    /// laid out for the largest, and each entry point sets its own count
    /// (`ballot_workgroup_size`, a private variable) before its init.
    pub(in crate::link) entry_sizes: Option<Vec<(String, u32)>>,
}

pub(in crate::link) type ReadError = (LinkErrorKind, String, Range<usize>);

/// The names a shader of `language` calls the operations by.
pub(in crate::link) fn source_name(language: Language, op: Op) -> &'static str {
    match language {
        Language::Glsl => op.glsl_name(),
        Language::Wgsl => polyfill::function_name(Target::Wgsl, op),
    }
}

/// Whether `name` may be a ballot function's, a look-alike's or a
/// subgroup built-in's: every name [`Shader::read`] looks up starts so.
pub(in crate::link) fn is_subgroup_word(name: &str) -> bool {
    name.starts_with("subgroup")
        || name.starts_with("gl_Subgroup")
        || matches!(
            name,
            "gl_NumSubgroups"
                | "num_subgroups"
                | "quadBroadcast"
                | "quadSwapX"
                | "quadSwapY"
                | "quadSwapDiagonal"
        )
}

/// The operations the linker reads in a shader of `language`, by the
/// names [`source_name`] gives: in GLSL every one, under the extensions'
/// names; in WGSL the ballot family (under the GLSL names of what WGSL
/// lacks) and the rest of the family where WGSL has it (`subgroupAdd`,
/// `quadSwapX`). GLSL's clustered reductions are read too, though the
/// polyfill libraries leave them out ([`polyfill::covers`]): the linker
/// writes their functions itself. Where one name stands for several operations
/// (`subgroupAdd`: `IAdd` and `FAdd`), the first is read, and the value's
/// type picks the operation later ([`types`], [`types::glsl_namesakes`]).
pub(in crate::link) fn source_ops(language: Language) -> impl Iterator<Item = Op> {
    Op::ALL.into_iter().filter(move |&op| {
        language == Language::Glsl
            || crate::polyfill::covers(op) && (op.is_ballot() || op.wgsl_name().is_some())
    })
}

/// The functions the emulated targets link, for messages.
pub(in crate::link) fn emulated_names(language: Language) -> String {
    let names: Vec<&str> = Op::BALLOT
        .iter()
        .filter(|&&op| language == Language::Glsl || !is_mask(op))
        .map(|&op| source_name(language, op))
        .collect();
    let rest = match language {
        Language::Glsl => {
            "the vote, arithmetic, clustered, shuffle, relative shuffle and quad \
             functions of GL_KHR_shader_subgroup_*"
        }
        Language::Wgsl => "WGSL's votes, arithmetic, shuffles and quad functions",
    };
    format!("{}, {rest}, and the subgroup built-ins", names.join(", "))
}

/// The number of arguments `op` takes.
pub(in crate::link) fn arity(op: Op) -> usize {
    ballot_ir::ir::op_signature(op, ballot_ir::ir::Type::U32)
        .0
        .len()
}

/// The byte ranges of the first two arguments (all the linker reads) of
/// the call whose name is token `at`, of an operation that takes `arity`
/// ([`arity`]); an error where it is given another number: the emulated
/// call gains one, and the validator's count would not be the user's.
/// Neither where the call is cut short (the validator says so). No
/// allocation: a large shader makes hundreds of thousands of calls.
pub(in crate::link) fn arguments(
    text: &str,
    tokens: &[Token],
    at: usize,
    arity: usize,
) -> Result<[Option<Range<usize>>; 2], ReadError> {
    let mut ranges = [None, None];
    let mut given = 0;
    let mut argument = |range: Range<usize>| {
        if let Some(slot) = ranges.get_mut(given) {
            *slot = Some(range);
        }
        given += 1;
    };
    let (mut depth, mut i, mut start) = (0usize, at + 2, at + 2);
    while i < tokens.len() {
        match tokens[i].kind {
            Kind::Punct(b'(' | b'[') => depth += 1,
            Kind::Punct(b')') if depth == 0 => break,
            // A `]` that closes nothing: the call is cut short, as where
            // the text ends (the validator says where).
            Kind::Punct(b']') if depth == 0 => return Ok([None, None]),
            Kind::Punct(b')' | b']') => depth -= 1,
            Kind::Punct(b',') if depth == 0 => {
                argument(tokens[start].range().start..tokens[i - 1].range().end);
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if i == tokens.len() {
        return Ok([None, None]);
    }
    // A trailing comma (WGSL allows one) ends no argument.
    if start < i {
        argument(tokens[start].range().start..tokens[i - 1].range().end);
    }
    if given == arity {
        return Ok(ranges);
    }
    let what = |n: usize| match n {
        0 => "no argument".to_string(),
        1 => "1 argument".to_string(),
        n => format!("{n} arguments"),
    };
    let name = &text[tokens[at].range()];
    Err((
        LinkErrorKind::Invalid,
        format!(
            "`{name}` takes {}, and is given {}",
            what(arity),
            what(given)
        ),
        tokens[at].range().start..tokens[i].range().end,
    ))
}

/// Whether `name` looks like a ballot function's.
pub(in crate::link) fn looks_like_ballot(name: &str) -> bool {
    name.starts_with("subgroupBallot") || name.starts_with("subgroupInverseBallot")
}

impl<'a> Shader<'a> {
    pub(in crate::link) fn read(text: &'a str, target: Target) -> Result<Self, ReadError> {
        let language = target.language();
        let tokens = lex(text, language);
        let s = |t: &Token| &text[t.range()];
        let ident = |i: usize| tokens.get(i).filter(|t| t.kind == Kind::Ident).map(s);
        let punct = |i: usize, c: u8| tokens.get(i).is_some_and(|t| t.kind == Kind::Punct(c));

        // What the shader defines itself: functions, and every name that
        // would clash with the linker's prefix.
        // Hashed: looked up at every subgroup word, of which a large
        // shader has hundreds of thousands; by naga's Fx hasher, as these
        // short names come from the shader, not from a network peer, and
        // SipHash cost a tenth of this reader's time.
        let mut defined = naga::FastHashSet::default();
        // Whether any name starts like the linker's (`ballot…`), found in
        // the same scan: nearly no shader's does.
        let mut like_linked = false;
        for i in 0..tokens.len() {
            let Some(name) = ident(i) else { continue };
            like_linked |= name.starts_with("ballot");
            let defines = match language {
                Language::Wgsl => i > 0 && ident(i - 1) == Some("fn"),
                // `type name(`, where the type is no keyword that may
                // precede a call; or a macro's name.
                Language::Glsl => {
                    i > 0
                        && (punct(i + 1, b'(')
                            && ident(i - 1).is_some_and(|t| !matches!(t, "return" | "else"))
                            || tokens[i - 1].kind == Kind::Directive
                                && s(&tokens[i - 1])[1..].trim() == "define")
                }
            };
            if defines {
                defined.insert(name);
            }
        }
        let mut prefix = "ballot_".to_string();
        let mut k = 0;
        while like_linked
            && tokens
                .iter()
                .any(|t| t.kind == Kind::Ident && s(t).starts_with(&prefix))
        {
            k += 1;
            prefix = format!("ballot{k}_");
        }

        // Each name's operation, and how many arguments it takes.
        let mut by_name: naga::FastHashMap<&str, (Op, usize)> = naga::FastHashMap::default();
        for op in source_ops(language) {
            by_name
                .entry(source_name(language, op))
                .or_insert((op, arity(op)));
        }
        let mut uses = Vec::new();
        let mut barriers = Vec::new();
        let mut builtins = Vec::new();
        let mut uses_subgroups = false;
        // The end of the `#define` line the tokens are in, if any.
        let mut define_end = 0;
        for (i, token) in tokens.iter().enumerate() {
            if token.kind == Kind::Directive {
                define_end = logical_line_end(text, token.range().end);
                continue;
            }
            let Some(name) = ident(i) else { continue };
            // Every name read below starts so (`source_names_are_prefixed`):
            // the other words, nearly all of a shader's, cost one test.
            if (!is_subgroup_word(name) || defined.contains(name)) || (i > 0 && punct(i - 1, b'.'))
            {
                continue;
            }
            // Any subgroup function or built-in of WGSL's, ballot's or
            // not (`subgroupAdd`, `@builtin(num_subgroups)`).
            uses_subgroups = true;
            let called = punct(i + 1, b'(');
            if let Some(memory) = subgroup_barrier(language, name).filter(|_| called) {
                // naga's, not WGSL's: Tint, which `wgsl-web` is for, has
                // no such function ("unresolved call target").
                if target == Target::WgslWeb {
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "`{name}` is naga's, not WGSL's: browsers (Tint) refuse it on \
                             `{target}`; where the whole workgroup reaches it, \
                             `workgroupBarrier()` orders memory for the subgroup too, or link \
                             for `wgsl` (wgpu) or `wgsl-no-subgroup`"
                        ),
                        token.range(),
                    ));
                }
                if !punct(i + 2, b')') {
                    return Err((
                        LinkErrorKind::Invalid,
                        format!("`{name}` takes no argument"),
                        token.range(),
                    ));
                }
                barriers.push(SubgroupBarrier {
                    name: token.range(),
                    after_open: tokens[i + 1].range().end,
                    memory,
                });
                continue;
            }
            match by_name.get(name).copied() {
                Some((op, arity)) => {
                    let variable = language == Language::Glsl && is_mask(op);
                    if !called && !variable {
                        continue;
                    }
                    // The if-conversion sees a macro's call, not the
                    // collective in its body, which would run only where
                    // the invocation is active: some would miss its
                    // barrier. `macros` expands every such macro first;
                    // one it could not read stays refused.
                    if token.range().start < define_end
                        && is_collective(op)
                        && !target.has_subgroups()
                    {
                        return Err((
                            LinkErrorKind::Unsupported,
                            format!(
                                "`{name}` in a `#define` the linker cannot read: on `{target}` \
                                 every collective is if-converted where the shader calls it; \
                                 call `{name}` in the function instead"
                            ),
                            token.range(),
                        ));
                    }
                    // naga reads `subgroupBallot()` as `subgroupBallot(true)`;
                    // WGSL's own (Tint's, `wgsl-web`) takes its argument.
                    let no_predicate =
                        op == Op::Ballot && language == Language::Wgsl && punct(i + 2, b')');
                    let [first, second] = match called
                        && !(no_predicate && target != Target::WgslWeb)
                    {
                        true => arguments(text, &tokens, i, arity).map_err(|(kind, m, at)| {
                            let m = match no_predicate {
                                true => format!(
                                    "{m}: WGSL's `subgroupBallot` takes its predicate, which naga \
                                     lets you leave out (as `true`) and Tint does not; write \
                                     `subgroupBallot(true)`"
                                ),
                                false => m,
                            };
                            (kind, m, at)
                        })?,
                        false => [None, None],
                    };
                    let cluster = match op {
                        Op::Clustered(_) => second.clone().map(|r| (r, None)),
                        _ => None,
                    };
                    let lane = second
                        .filter(|_| matches!(op, Op::Broadcast | Op::Shuffle | Op::QuadBroadcast));
                    let value = first
                        .filter(|_| ballot_ir::ir::op_is_generic(op))
                        .map(|v| (v, None));
                    let args = called.then(|| (tokens[i + 1].range().end, !punct(i + 2, b')')));
                    uses.push(Use {
                        op,
                        name: token.range(),
                        args,
                        typed: None,
                        value,
                        lane,
                        cluster,
                    });
                }
                None if looks_like_ballot(name) && called => {
                    let known: Vec<&str> = Op::BALLOT
                        .iter()
                        .map(|&op| source_name(language, op))
                        .filter(|n| looks_like_ballot(n))
                        .collect();
                    return Err((
                        LinkErrorKind::UnknownFunction,
                        format!(
                            "`{name}` is no subgroup ballot function; the ballot functions are {}",
                            known.join(", ")
                        ),
                        token.range(),
                    ));
                }
                // A subgroup function the emulation has no rule for: on
                // an emulated target, an error at the call, not the
                // validator's word that the target lacks subgroups.
                None if called && !target.has_subgroups() => {
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "`{name}` has no emulation on `{target}`: the emulated targets \
                             link {}; link this shader for `{}`, whose devices have \
                             subgroups",
                            emulated_names(language),
                            match language {
                                Language::Wgsl => "wgsl",
                                Language::Glsl => "glsl",
                            }
                        ),
                        token.range(),
                    ));
                }
                // Read on every target, for `require_entry_point`; only the
                // emulated ones replace them.
                None if language == Language::Glsl => {
                    if let Some(value) = match name {
                        "gl_SubgroupInvocationID" => Some(BuiltinValue::Lane),
                        "gl_SubgroupSize" => Some(BuiltinValue::Size),
                        "gl_SubgroupID" => Some(BuiltinValue::Id),
                        "gl_NumSubgroups" => Some(BuiltinValue::Count),
                        _ => None,
                    } {
                        builtins.push(Builtin {
                            name: token.range(),
                            value,
                        });
                    }
                }
                None => {}
            }
        }

        let mut shader = Shader {
            text,
            target,
            uses,
            barriers,
            builtins,
            entries: Vec::new(),
            structs: BTreeMap::new(),
            rewrites: Vec::new(),
            has_enable: false,
            has_diagnostic: false,
            library_at: 0,
            defines: String::new(),
            prefix,
            has_entry_point: false,
            literal_sizes: Vec::new(),
            workgroup_args: Vec::new(),
            stage: ("comp", false),
            api: GlslApi::default(),
            lane_from_rank: false,
            workgroup_layouts: Vec::new(),
            specialised_workgroup: false,
            entry_sizes: None,
            lane_as_u32: language == Language::Wgsl,
            untyped_values: false,
            uses_subgroups,
        };
        match language {
            Language::Wgsl => shader.read_wgsl(&tokens)?,
            Language::Glsl => shader.read_glsl(&tokens),
        }
        Ok(shader)
    }

    /// The one workgroup size every compute entry point spells in integer
    /// literals, if they do: a guess that naga's module must confirm.
    pub(in crate::link) fn literal_workgroup_size(&self) -> Option<[u32; 3]> {
        let first = (*self.literal_sizes.first()?)?;
        self.literal_sizes
            .iter()
            .all(|&s| s == Some(first))
            .then_some(first)
    }

    /// WGSL: the entry points' invocation count as a `u32` expression of
    /// their `@workgroup_size` arguments as written (`u32(n) * u32(1)`),
    /// where every compute entry point spells the same ones: what an
    /// overridable size's exchange memory is computed from.
    pub(in crate::link) fn spelled_invocations(&self) -> Option<String> {
        let first = self.workgroup_args.first()?;
        let same = |a: &Vec<String>| {
            let words = |v: &Vec<String>| -> Vec<String> {
                v.iter().map(|s| s.split_whitespace().collect()).collect()
            };
            words(a) == words(first)
        };
        (!first.is_empty() && first.len() <= 3 && self.workgroup_args.iter().all(same)).then(|| {
            first
                .iter()
                .map(|arg| format!("u32({arg})"))
                .collect::<Vec<_>>()
                .join(" * ")
        })
    }

    /// WGSL, where the pipeline overrides the workgroup size
    /// ([`Self::specialised_workgroup`]): the invocation count the
    /// emulation's overrides are computed from ([`Self::spelled_invocations`]).
    pub(in crate::link) fn overridden_invocations(&self) -> Option<String> {
        (self.specialised_workgroup && self.target.language() == Language::Wgsl)
            .then(|| self.spelled_invocations())
            .flatten()
    }

    /// A shader that calls a ballot function (or reads a subgroup built-in
    /// the emulation replaces) must have an entry point: the linked
    /// functions keep per-invocation state that the entry point sets up
    /// first, and without one nothing would, and they would compute wrong
    /// values once the user adds it. Refused on every target, those that
    /// link nothing too, so that a shader links for all or none.
    pub(in crate::link) fn require_entry_point(&self) -> Result<(), ReadError> {
        let has_entry = match self.target.language() {
            Language::Wgsl => self.has_entry_point,
            Language::Glsl => !self.entries.is_empty(),
        };
        let first = self
            .uses
            .iter()
            .map(|u| u.name.clone())
            .chain(self.builtins.iter().map(|b| b.name.clone()))
            .min_by_key(|r| r.start);
        let (Some(at), false) = (first, has_entry) else {
            return Ok(());
        };
        let entry = match self.target.language() {
            Language::Wgsl => "an entry point (`@compute @workgroup_size(64) fn main(…)`)",
            Language::Glsl => "`void main()`",
        };
        Err((
            LinkErrorKind::Unsupported,
            format!(
                "the shader calls `{}` but has no entry point: the linked ballot functions \
                 are set up at the start of each entry point (`{}init`), so they would give \
                 wrong values in any shader this text is pasted into; link the whole shader, \
                 with {entry}, not a library of functions",
                &self.text[at.clone()],
                self.prefix
            ),
            at,
        ))
    }

    /// The emulated targets exchange through workgroup memory, which only
    /// compute shaders have: a shader that links the emulation has no
    /// entry point of another stage (WGSL), and is no other stage's file
    /// (GLSL, the stage from its extension). The hardware targets take
    /// fragment shaders too.
    pub(in crate::link) fn require_compute(&self) -> Result<(), ReadError> {
        if self.target.has_subgroups() || !self.links_any() {
            return Ok(());
        }
        let why = "the emulated targets exchange lane values through workgroup memory, which \
                   only compute shaders have";
        match self.target.language() {
            Language::Wgsl => match self.entries.iter().find(|e| !e.compute) {
                Some(e) => Err((
                    LinkErrorKind::Unsupported,
                    format!(
                        "`{}` is a fragment entry point, in a shader that links subgroup \
                         emulation: {why}; link the fragment shader for `wgsl` or \
                         `wgsl-web`, or keep it in a file of its own",
                        &self.text[e.name.clone()]
                    ),
                    e.name.clone(),
                )),
                None => Ok(()),
            },
            Language::Glsl if self.stage.0 != "comp" => {
                let first = self
                    .uses
                    .iter()
                    .map(|u| u.name.clone())
                    .chain(self.builtins.iter().map(|b| b.name.clone()))
                    .min_by_key(|r| r.start)
                    .unwrap_or(0..0);
                Err((
                    LinkErrorKind::Unsupported,
                    format!(
                        "the file is a `{}` shader (from its extension): {why}; link it for \
                         `glsl`, or as a `.comp` compute shader",
                        self.stage.0
                    ),
                    first,
                ))
            }
            Language::Glsl => Ok(()),
        }
    }

    /// This WGSL shader linked for `wgsl`, where every collective is
    /// WGSL's own, for naga to read its types; `None` where the linker
    /// cannot read it so.
    fn hardware(&self) -> Option<Written> {
        let mut hardware = Shader::read(self.text, Target::Wgsl).ok()?;
        // naga's rule on the lane id in two dimensions is no concern here,
        // nor its want of a `u32` lane.
        hardware.lane_from_rank = true;
        Some(hardware.write(&sizes(32, [64, 1, 1])))
    }

    /// The type naga gives each local declaration of this WGSL shader
    /// ([`types::declarations`]), keyed by the place in the user's text
    /// that function keys it by. The if-conversion asks for it where a
    /// declaration without a type is declared apart from its initialiser.
    pub(in crate::link) fn declaration_types(&self) -> BTreeMap<usize, String> {
        let Some(written) = self.hardware() else {
            return BTreeMap::new();
        };
        types::declarations(&written.text)
            .into_iter()
            .filter_map(|(at, ty)| Some((written.origin(&(at..at + 1))?.start, ty)))
            .collect()
    }

    /// On `wgsl-no-subgroup`, each generic call's operation and types, as
    /// naga reads them in the shader linked for `wgsl` ([`types`]). Where
    /// that shader does not read or validate, the calls keep the `u32`
    /// functions, and the validator's verdict on the emulated text is the
    /// error.
    pub(in crate::link) fn type_calls(&mut self) -> Result<(), ReadError> {
        let typed = |u: &Use| types::is_typed(u.op);
        if self.target == Target::GlslNoSubgroup && self.uses.iter().any(|u| u.value.is_some()) {
            return self.type_glsl_values();
        }
        if self.target != Target::WgslNoSubgroup || !self.uses.iter().any(typed) {
            return Ok(());
        }
        // Without types, `u32`'s.
        for u in self.uses.iter_mut().filter(|u| types::is_typed(u.op)) {
            u.typed = Some(types::Typed::plain(u.op));
        }
        let Some(written) = self.hardware() else {
            return Ok(());
        };
        let calls = types::calls(&written.text);
        if calls.is_empty() {
            // naga reads no type from the shader: each call would take
            // `u32`'s function whatever its value, and naga's verdict on
            // the emulated text would blame that. Its verdict on the
            // shader itself says why (a `ptr<workgroup>` parameter, which
            // browsers take and naga does not).
            if let Err(rejected) = crate::valid::read_types(&written.text) {
                let diagnostic = &rejected.1;
                let at = diagnostic
                    .labels
                    .iter()
                    .find_map(|(range, _)| written.origin(range))
                    .or_else(|| self.uses.iter().find(|u| typed(u)).map(|u| u.name.clone()))
                    .unwrap_or(0..0);
                return Err((
                    LinkErrorKind::Invalid,
                    format!(
                        "naga reads no types from this shader, which the emulation needs for \
                         its generic subgroup calls: {}",
                        diagnostic.message
                    ),
                    at,
                ));
            }
        }
        for (at, found) in calls {
            let Some(user) = written.origin(&(at..at + 1)) else {
                continue;
            };
            let Some(u) = self.uses.iter_mut().find(|u| u.name.start == user.start) else {
                continue;
            };
            match found {
                // One name, more than one operation: the type picks it.
                Ok(t) if linked_name(t.op) == linked_name(u.op) => {
                    u.op = t.op;
                    u.typed = Some(t);
                }
                Ok(_) => {}
                Err(ty) => {
                    let takes = match u.op {
                        Op::Arith(..) => {
                            "the emulation's arithmetic takes scalars and vectors \
                                          of u32, i32 and f32 (f16 would round once, in f32, \
                                          where a driver rounds each step)"
                        }
                        _ => "the emulation moves scalars and vectors of u32, i32, f32 and f16",
                    };
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!("`{}` of a `{ty}`: {takes}", &self.text[u.name.clone()]),
                        u.name.clone(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// On `glsl-no-subgroup`, each clustered reduction's cluster size, as
    /// GL_KHR_shader_subgroup_clustered requires it: an integral constant
    /// expression, a power of two, at least 1. A size over the subgroup
    /// size, here the virtual one (`LinkOptions::subgroup_size`), links:
    /// the spec leaves the call undefined only where it runs (a `case` the
    /// pipeline's constants never select is fine), and the emulated
    /// helper, as docs/design.md documents, reduces the whole virtual
    /// subgroup there. An integer literal is read here; any other
    /// expression (a `const` name, a macro, `K / 2u`) by glslang, whose
    /// tree gives the constant it folds it to ([`glsl_types`]), and which
    /// refuses a size that is not constant as it compiles the shader
    /// linked for `glsl`. Where neither gives a value, the size is refused:
    /// the helper takes it as an operand, and a size no power of two would
    /// read past its cluster. The error is at the size.
    pub(in crate::link) fn check_cluster_sizes(&self) -> Result<(), ReadError> {
        if self.target != Target::GlslNoSubgroup {
            return Ok(());
        }
        for u in &self.uses {
            let Some((range, folded)) = &u.cluster else {
                continue;
            };
            let written = self.text[range.clone()].trim();
            let name = &self.text[u.name.clone()];
            let size = integer(written).map(i64::from).or(*folded);
            let rule = "a power of two, at least 1";
            let message = match size {
                None => format!(
                    "the cluster size of `{name}`, `{written}`, must be an integral constant \
                     expression, {rule}: ballot reads it as an integer literal, or as the \
                     constant glslang folds it to at this call, and it is neither"
                ),
                Some(n) if n < 1 || n & (n - 1) != 0 => {
                    format!("the cluster size of `{name}` is {n}: it must be {rule}")
                }
                Some(_) => continue,
            };
            return Err((LinkErrorKind::Invalid, message, range.clone()));
        }
        Ok(())
    }

    /// Whether the target lacks `op`, so that its calls are linked.
    pub(in crate::link) fn links(&self, op: Op) -> bool {
        // GLSL's extensions have every operation; WGSL has its own, but
        // naga lacks `subgroupElect`.
        match self.target {
            Target::Glsl => false,
            Target::Wgsl | Target::WgslWeb => op.wgsl_name().is_none() || op == Op::Elect,
            Target::GlslNoSubgroup | Target::WgslNoSubgroup => true,
        }
    }

    /// Whether the linker links anything in: operations, or, emulated,
    /// the lane state behind the subgroup built-ins the shader reads
    /// (which it does even where it calls no ballot function).
    pub(in crate::link) fn links_any(&self) -> bool {
        let reads_builtins = !self.builtins.is_empty()
            || self
                .entries
                .iter()
                .flat_map(|e| &e.params)
                .any(|q| BuiltinValue::of_wgsl(&q.builtin).is_some());
        // An operation links its namesakes too ([`Shader::linked_ops`]),
        // never none.
        self.uses.iter().any(|u| self.links(u.op))
            || !self.target.has_subgroups() && (reads_builtins || self.links_barrier())
    }

    /// Whether an emulated target links `subgroupBarrier`.
    pub(in crate::link) fn links_barrier(&self) -> bool {
        !self.target.has_subgroups() && self.barriers.iter().any(|b| b.memory.is_none())
    }

    /// The operations linked in. In GLSL, whose one name may stand for
    /// several (`subgroupAdd`: `IAdd`, `FAdd`), all of them: the
    /// overloads go together, and glslang picks.
    pub(in crate::link) fn linked_ops(&self) -> BTreeSet<Op> {
        let glsl = self.target.language() == Language::Glsl;
        // The distinct operations first: a shader makes many calls of few.
        let ops: BTreeSet<Op> = self
            .uses
            .iter()
            .map(|u| u.op)
            .filter(|&op| self.links(op))
            .collect();
        ops.into_iter()
            .flat_map(|op| match glsl && !op.is_ballot() {
                true => types::glsl_namesakes(op),
                false => vec![op],
            })
            .collect()
    }
}
