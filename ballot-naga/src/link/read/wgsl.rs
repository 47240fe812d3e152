//! What WGSL says that the linker reads: entry points and their
//! attributes, built-ins in entry-point structs, and the `enable` lines.

use super::*;

impl Shader<'_> {
    pub(in crate::link) fn read_wgsl(&mut self, tokens: &[Token]) -> Result<(), ReadError> {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        // Directives open the module.
        let mut i = 0;
        while matches!(s(i), "enable" | "requires" | "diagnostic") {
            let start = i;
            while i < tokens.len() && s(i) != ";" {
                i += 1;
            }
            if i == tokens.len() {
                // Cut short: naga says so, on the text as it is.
                break;
            }
            let words: Vec<&str> = (start..i).map(s).collect();
            // `enable subgroups;`, or `subgroups` in a list (`enable f16,
            // subgroups;`): naga's targets lose that name only.
            let item = (start + 1..i).find(|&k| s(k) == "subgroups");
            if let (Some(k), true) = (item, words[0] == "enable") {
                self.has_enable = true;
                if self.target != Target::WgslWeb {
                    let names = words[1..].iter().filter(|w| **w != ",").count();
                    let range = if names == 1 {
                        tokens[start].range().start..tokens[i].range().end
                    } else if s(k + 1) == "," {
                        tokens[k].range().start..tokens[k + 1].range().end
                    } else {
                        // Last in the list: the comma before it goes.
                        tokens[k - 1].range().start..tokens[k].range().end
                    };
                    self.rewrites.push((range, String::new()));
                }
            }
            // Any global filter of the rule: a second one of another
            // severity would be an error. `error` itself fails the helpers.
            if words.len() >= 5
                && words[..2] == ["diagnostic", "("]
                && words[4] == "subgroup_uniformity"
            {
                if words[2] == "error"
                    && self.target == Target::WgslWeb
                    && !self.linked_ops().is_empty()
                {
                    return Err((
                        LinkErrorKind::Unsupported,
                        "the linked functions branch on lane values before subgroup \
                         functions: `subgroup_uniformity` must not be an error (make it \
                         `off` or `warning`)"
                            .to_string(),
                        tokens[start].range().start..tokens[i].range().end,
                    ));
                }
                self.has_diagnostic = true;
            }
            i += 1;
        }
        self.library_at = tokens.get(i).map_or(text.len(), |t| t.range().start);
        let mut in_params = Vec::new();
        self.read_wgsl_structs(tokens);
        for at in 0..tokens.len() {
            // `@` first, by its kind: the one test most tokens take.
            if tokens[at].kind != Kind::Punct(b'@') {
                continue;
            }
            // Vertex entry points read no subgroup built-in: WGSL has
            // subgroups in compute and fragment shaders only.
            let compute = match (s(at), s(at + 1)) {
                ("@", "compute") => true,
                ("@", "fragment") => false,
                _ => continue,
            };
            let mut i = at + 2;
            while i < tokens.len() && s(i) != "fn" {
                i += 1;
            }
            let name = i + 1;
            let open = name + 1;
            if s(open) != "(" {
                continue;
            }
            let mut depth = 0usize;
            let mut close = open;
            let mut params = Vec::new();
            let mut param_start = open + 1;
            while close < tokens.len() {
                match s(close) {
                    "(" | "[" | "<" if close > open => depth += 1,
                    ")" | "]" | ">" if depth > 0 => depth -= 1,
                    ")" => break,
                    "," if depth == 0 => {
                        params.push(param_start..close);
                        param_start = close + 1;
                    }
                    _ => {}
                }
                if close == open {
                    depth = 0;
                }
                close += 1;
            }
            let trailing_comma = param_start == close && close > open + 1;
            if param_start < close {
                params.push(param_start..close);
            }
            let mut body = close;
            while body < tokens.len() && s(body) != "{" {
                body += 1;
            }
            if body >= tokens.len() {
                continue;
            }
            let mut entry = Entry {
                compute,
                name: tokens[name].range(),
                close: tokens[close].range().start,
                params: Vec::new(),
                trailing_comma,
                body: tokens[body].range().end,
            };
            for p in params {
                in_params.push(p.clone());
                // `@builtin(x) name : type`, attributes in any order.
                let (j, builtin) = past_attributes(tokens, self.text, p.start, p.end);
                let ty = if s(j + 1) == ":" { s(j + 2) } else { "" };
                entry.params.push(Param {
                    builtin: builtin.unwrap_or_default(),
                    name: s(j).to_string(),
                    ty: ty.to_string(),
                    range: tokens[p.start].range().start..tokens[p.end - 1].range().end,
                });
            }
            self.entries.push(entry);
        }
        self.read_wgsl_attributes(tokens);
        if !self.target.has_subgroups() {
            self.emulate_struct_builtins(tokens)?;
        }
        // The built-ins the linker reads must be parameters or members of
        // a parameter's struct, where it can name them.
        let in_entry_struct = |at: usize| {
            self.structs.iter().any(|(name, decl)| {
                decl.builtins.iter().any(|m| m.range.contains(&at))
                    && self
                        .entries
                        .iter()
                        .flat_map(|e| &e.params)
                        .any(|q| q.ty == *name)
            })
        };
        let in_idle_struct = |at: usize| {
            self.structs.iter().any(|(name, decl)| {
                decl.builtins.iter().any(|m| m.range.contains(&at))
                    && self.idle_struct(name, tokens)
            })
        };
        if self.links_any() {
            // `@` first, by its kind: the one test most tokens take.
            for j in 0..tokens.len() {
                if tokens[j].kind != Kind::Punct(b'@') {
                    continue;
                }
                let read = match s(j + 3) {
                    "subgroup_invocation_id" | "subgroup_size" => true,
                    "local_invocation_index" | "subgroup_id" | "num_subgroups" => {
                        !self.target.has_subgroups()
                    }
                    _ => false,
                };
                if s(j + 1) == "builtin"
                    && read
                    && !in_params.iter().any(|p| p.contains(&j))
                    && !in_entry_struct(tokens[j].range().start)
                    && !in_idle_struct(tokens[j].range().start)
                {
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "the linker reads `@builtin({})` from the entry point's \
                             parameters: declare it as one, or as a member of a parameter's \
                             struct",
                            s(j + 3)
                        ),
                        tokens[j].range().start..tokens[j + 4].range().end,
                    ));
                }
            }
        }
        Ok(())
    }

    /// Whether the struct `name`, which has built-in members, is no entry
    /// point's input: no entry point takes it, itself or through an
    /// alias. Its built-ins are nobody's to read.
    fn idle_struct(&self, name: &str, tokens: &[Token]) -> bool {
        let s = |i: usize| tokens.get(i).map_or("", |t| &self.text[t.range()]);
        let taken = self
            .entries
            .iter()
            .flat_map(|e| &e.params)
            .any(|q| q.ty == name);
        let aliased =
            (0..tokens.len()).any(|k| s(k) == "alias" && s(k + 2) == "=" && s(k + 3) == name);
        !taken && !aliased
    }

    /// The WGSL structs with built-in members: `struct Name { @builtin(x)
    /// member: type, … }`, attributes in any order.
    pub(in crate::link) fn read_wgsl_structs(&mut self, tokens: &[Token]) {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        for at in 0..tokens.len() {
            if tokens[at].kind != Kind::Ident || s(at) != "struct" || s(at + 2) != "{" {
                continue;
            }
            let mut members = Vec::new();
            let mut fields = 0;
            let mut i = at + 3;
            while i < tokens.len() && s(i) != "}" {
                let start = i;
                fields += 1;
                let builtin;
                (i, builtin) = past_attributes(tokens, text, i, tokens.len());
                let name = s(i).to_string();
                // To the member's end: a comma at depth 0, or the `}`.
                let mut depth = 0usize;
                while i < tokens.len() {
                    match s(i) {
                        "<" | "(" | "[" => depth += 1,
                        ">" | ")" | "]" => depth = depth.saturating_sub(1),
                        "," if depth == 0 => break,
                        "}" if depth == 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
                let end = if s(i) == "," { i } else { i.saturating_sub(1) };
                if let (Some(builtin), Some(last)) = (builtin, tokens.get(end)) {
                    members.push(Member {
                        builtin,
                        name,
                        range: tokens[start].range().start..last.range().end,
                    });
                }
                if s(i) == "," {
                    i += 1;
                }
                if i == start {
                    break;
                }
            }
            if !members.is_empty() {
                let decl = Struct {
                    builtins: members,
                    fields,
                };
                self.structs.insert(s(at + 1).to_string(), decl);
            }
        }
    }

    /// On an emulated target, the subgroup built-ins an entry point's
    /// struct parameter holds are the emulation's: each such member goes
    /// from its struct, and the body's reads of it (`input.lane`) become
    /// the emulated value, as a parameter's do.
    pub(in crate::link) fn emulate_struct_builtins(
        &mut self,
        tokens: &[Token],
    ) -> Result<(), ReadError> {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        let mut removed: BTreeMap<&str, Vec<&Member>> = BTreeMap::new();
        for q in self.entries.iter().flat_map(|e| &e.params) {
            let Some(decl) = self.structs.get(&q.ty) else {
                continue;
            };
            for m in &decl.builtins {
                if BuiltinValue::of_wgsl(&m.builtin).is_none() {
                    continue;
                }
                let list = removed.entry(q.ty.as_str()).or_default();
                if !list.iter().any(|r| r.range == m.range) {
                    list.push(m);
                }
            }
        }
        // The reads, in every function a value of such a struct reaches as
        // a parameter: the entry points', and those they pass it to
        // (gridwise passes its structs of built-ins on by value).
        let mut reads = Vec::new();
        for (param, ty, body) in struct_params(tokens, text) {
            let Some(members) = removed.get(ty) else {
                continue;
            };
            for m in members {
                let Some(value) = BuiltinValue::of_wgsl(&m.builtin) else {
                    continue;
                };
                for k in body.clone() {
                    if s(k) == param && s(k + 1) == "." && s(k + 2) == m.name && s(k - 1) != "." {
                        reads.push(Builtin {
                            name: tokens[k].range().start..tokens[k + 2].range().end,
                            value,
                        });
                    }
                }
            }
        }
        for (name, members) in removed {
            let mut members = members.into_iter();
            if self.structs[name].fields == members.len() {
                // A struct left empty is no WGSL: its first member becomes
                // a built-in that no entry point taking it reads otherwise
                // (the emulation adds `local_invocation_index` where
                // missing, so not that one), which nothing reads.
                let taken: BTreeSet<&str> = self
                    .entries
                    .iter()
                    .filter(|e| e.params.iter().any(|q| q.ty == name))
                    .flat_map(|e| &e.params)
                    .flat_map(|q| {
                        let members = self.structs.get(&q.ty).map(|d| &d.builtins);
                        std::iter::once(q.builtin.as_str())
                            .chain(members.into_iter().flatten().map(|m| m.builtin.as_str()))
                    })
                    .collect();
                let spare = [
                    "num_workgroups",
                    "workgroup_id",
                    "global_invocation_id",
                    "local_invocation_id",
                ]
                .into_iter()
                .find(|b| !taken.contains(b));
                let (Some(spare), Some(first)) = (spare, members.next()) else {
                    let at = self.structs[name].builtins[0].range.clone();
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "struct `{name}` holds only subgroup built-ins, which the emulation \
                             replaces, and its entry points read every other vector built-in: \
                             declare them as the entry point's parameters"
                        ),
                        at,
                    ));
                };
                self.rewrites.push((
                    first.range.clone(),
                    format!("@builtin({spare}) {}unused: vec3<u32>,", self.prefix),
                ));
            }
            for m in members {
                self.rewrites
                    .push((whole_line(text, m.range.clone()), String::new()));
            }
        }
        // An idle struct's subgroup built-ins become plain members: the
        // attribute alone would ask for subgroups (Tint refuses it
        // without `enable subgroups;`), and nothing reads it.
        for (name, decl) in &self.structs {
            if !self.idle_struct(name, tokens) {
                continue;
            }
            for m in &decl.builtins {
                if BuiltinValue::of_wgsl(&m.builtin).is_none() {
                    continue;
                }
                let member = &text[m.range.clone()];
                let Some(at) = member.find("@builtin") else {
                    continue;
                };
                let Some(close) = member[at..].find(')') else {
                    continue;
                };
                let start = m.range.start + at;
                self.rewrites
                    .push((start..start + close + 1, String::new()));
            }
        }
        self.builtins.extend(reads);
        Ok(())
    }

    /// How `entry`'s body reads `builtin`: a parameter's name, or a
    /// parameter's member (`input.lane`) where a struct holds it.
    pub(in crate::link) fn builtin_access(&self, entry: &Entry, builtin: &str) -> Option<String> {
        entry.params.iter().find_map(|q| {
            if q.builtin == builtin {
                return Some(q.name.clone());
            }
            let member = self
                .structs
                .get(&q.ty)?
                .builtins
                .iter()
                .find(|m| m.builtin == builtin)?;
            Some(format!("{}.{}", q.name, member.name))
        })
    }

    /// The WGSL entry points' attributes: whether there is an entry point
    /// of any stage, and each compute entry point's literal workgroup size.
    /// An attribute list is the `@name(…)`s before `fn`; any other token
    /// ends one (a member's, a parameter's, a variable's).
    pub(in crate::link) fn read_wgsl_attributes(&mut self, tokens: &[Token]) {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        let (mut compute, mut size, mut spelled) = (false, None, Vec::new());
        let mut i = 0;
        while i < tokens.len() {
            if tokens[i].kind != Kind::Punct(b'@') {
                if compute && s(i) == "fn" {
                    self.literal_sizes.push(size);
                    self.workgroup_args.push(std::mem::take(&mut spelled));
                }
                (compute, size) = (false, None);
                spelled.clear();
                i += 1;
                continue;
            }
            let name = s(i + 1);
            let mut j = i + 2;
            let mut args = j..j;
            if s(j) == "(" {
                let mut depth = 0usize;
                while j < tokens.len() {
                    match s(j) {
                        "(" => depth += 1,
                        ")" if depth <= 1 => break,
                        ")" => depth -= 1,
                        _ => {}
                    }
                    j += 1;
                }
                args = i + 3..j;
                j += 1;
            }
            match name {
                "compute" => {
                    compute = true;
                    self.has_entry_point = true;
                }
                "vertex" | "fragment" => self.has_entry_point = true,
                "workgroup_size" => {
                    size = literal_size(text, &tokens[args.clone()]);
                    spelled = arguments(text, &tokens[args.clone()]);
                }
                _ => {}
            }
            i = j;
        }
    }
}

/// An attribute's arguments as written, split at its top-level commas, each
/// trimmed to its tokens (a trailing comma adds none).
fn arguments(text: &str, args: &[Token]) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut first: Option<&Token> = None;
    let mut last: Option<&Token> = None;
    let mut flush = |first: &mut Option<&Token>, last: Option<&Token>| {
        if let (Some(a), Some(b)) = (first.take(), last) {
            out.push(text[a.range().start..b.range().end].to_string());
        }
    };
    for t in args {
        match t.kind {
            Kind::Punct(b',') if depth == 0 => {
                flush(&mut first, last);
                continue;
            }
            Kind::Punct(b'(' | b'[') => depth += 1,
            Kind::Punct(b')' | b']') => depth = depth.saturating_sub(1),
            _ => {}
        }
        first.get_or_insert(t);
        last = Some(t);
    }
    flush(&mut first, last);
    out
}

/// Each WGSL function's parameters whose type is a name (a struct's, say)
/// as (parameter, type, the token indices of the function's body): `fn
/// name(a: T, @attr b: U) [-> R] { … }`, attributes in any order.
fn struct_params<'t>(tokens: &[Token], text: &'t str) -> Vec<(&'t str, &'t str, Range<usize>)> {
    let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
    let mut out = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        if s(i) != "fn" || s(i + 2) != "(" {
            i += 1;
            continue;
        }
        // The parameters, to the `)` at depth 0.
        let mut params = Vec::new();
        let (mut j, mut depth, mut start) = (i + 3, 0usize, i + 3);
        while j < tokens.len() {
            match s(j) {
                "(" | "<" | "[" => depth += 1,
                ")" if depth == 0 => break,
                ")" | ">" | "]" => depth = depth.saturating_sub(1),
                "," if depth == 0 => {
                    params.push(start..j);
                    start = j + 1;
                }
                _ => {}
            }
            j += 1;
        }
        if start < j {
            params.push(start..j);
        }
        // The body: from the first `{` after the parameters to its match.
        let open = (j..tokens.len()).find(|&k| s(k) == "{");
        let Some(open) = open else {
            break;
        };
        let mut depth = 0usize;
        let mut close = tokens.len();
        for (k, _) in tokens.iter().enumerate().skip(open) {
            match s(k) {
                "{" => depth += 1,
                "}" => {
                    depth -= 1;
                    if depth == 0 {
                        close = k;
                        break;
                    }
                }
                _ => {}
            }
        }
        for p in params {
            // Past the attributes: `name : Type` with a one-token type.
            let (k, _) = past_attributes(tokens, text, p.start, p.end);
            if s(k + 1) == ":" && k + 3 == p.end {
                out.push((s(k), s(k + 2), open..close));
            }
        }
        i = close;
    }
    out
}

/// The token index past the attributes that start at `at` (`@name` or
/// `@name(…)`, in any order, read up to `end`), and the value of a
/// `@builtin(x)` among them.
fn past_attributes(tokens: &[Token], text: &str, at: usize, end: usize) -> (usize, Option<String>) {
    let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
    let (mut i, mut builtin) = (at, None);
    while s(i) == "@" && i < end {
        if s(i + 1) == "builtin" && s(i + 2) == "(" {
            builtin = Some(s(i + 3).to_string());
        }
        i += 2;
        if s(i) == "(" {
            while i < end && s(i) != ")" {
                i += 1;
            }
            i += 1;
        }
    }
    (i, builtin)
}
