//! What GLSL says that the linker reads: `main`, the layout qualifiers,
//! the extensions, and the value types of the generic subgroup calls.

use super::*;

impl Shader<'_> {
    pub(in crate::link) fn read_glsl(&mut self, tokens: &[Token]) {
        let text = self.text;
        let s = |i: usize| tokens.get(i).map_or("", |t| &text[t.range()]);
        // `layout(local_size_x = 64, …) in;`: the workgroup size, where it
        // is literals; more than one such line is left to naga.
        let mut sizes = Vec::new();
        let mut layouts = Vec::new();
        for i in 0..tokens.len() {
            if s(i) != "layout" || s(i + 1) != "(" {
                continue;
            }
            let Some(n) = (i + 2..tokens.len()).find(|&k| s(k) == ")") else {
                continue;
            };
            if s(n + 1) != "in" || s(n + 2) != ";" {
                continue;
            }
            let items = &tokens[i + 2..n];
            if !items
                .iter()
                .any(|t| text[t.range()].starts_with("local_size_"))
            {
                continue;
            }
            // `name = literal` or a name alone: a copy of the line means
            // the same wherever it stands.
            let literal = items
                .split(|t| t.kind == Kind::Punct(b','))
                .all(|item| match item {
                    [_] => true,
                    [_, eq, value] => eq.kind == Kind::Punct(b'=') && value.kind == Kind::Number,
                    _ => false,
                });
            layouts.push(literal.then(|| tokens[i].range().start..tokens[n + 2].range().end));
            let mut size = Some([1, 1, 1]);
            for item in items.split(|t| t.kind == Kind::Punct(b',')) {
                let word = |k: usize| item.get(k).map_or("", |t| &text[t.range()]);
                let axis = match word(0) {
                    "local_size_x" => 0,
                    "local_size_y" => 1,
                    "local_size_z" => 2,
                    _ => continue,
                };
                match (word(1), item.get(2).map(|t| t.kind), item.len()) {
                    ("=", Some(Kind::Number), 3) => {
                        if let (Some(s), Some(v)) = (size.as_mut(), integer(word(2))) {
                            s[axis] = v;
                        } else {
                            size = None;
                        }
                    }
                    _ => size = None,
                }
            }
            sizes.push(size);
        }
        if let [size] = sizes[..] {
            self.literal_sizes.push(size);
        }
        self.workgroup_layouts = layouts
            .into_iter()
            .collect::<Option<_>>()
            .unwrap_or_default();
        for (i, token) in tokens.iter().enumerate() {
            if token.kind == Kind::Directive {
                let line = s(i);
                let words: Vec<&str> = line
                    .trim_start_matches('#')
                    .split(|c: char| c.is_whitespace() || c == ':')
                    .filter(|w| !w.is_empty())
                    .collect();
                if words.first() == Some(&"version") {
                    self.library_at = token.range().end;
                }
                // GL_EXT_subgroup_uniform_control_flow too: its attribute
                // asks the device for subgroups' reconvergence, and goes
                // with main's attributes below.
                if words.first() == Some(&"extension")
                    && words.get(1).is_some_and(|e| {
                        e.starts_with("GL_KHR_shader_subgroup")
                            || *e == "GL_EXT_subgroup_uniform_control_flow"
                    })
                    && !self.target.has_subgroups()
                {
                    self.rewrites.push((token.range(), String::new()));
                }
            }
            if s(i) == "void" && s(i + 1) == "main" && s(i + 2) == "(" {
                let mut close = i + 3;
                while close < tokens.len() && s(close) != ")" {
                    close += 1;
                }
                let mut body = close;
                while body < tokens.len() && s(body) != "{" && s(body) != ";" {
                    body += 1;
                }
                if s(body) == "{" {
                    // Attributes between the parameters and the body
                    // (`[[subgroup_uniform_control_flow]]`) speak of
                    // hardware subgroups: the emulation has none.
                    if body > close + 1 && !self.target.has_subgroups() {
                        let attributes =
                            tokens[close + 1].range().start..tokens[body - 1].range().end;
                        self.rewrites.push((attributes, String::new()));
                    }
                    self.entries.push(Entry {
                        // The file's stage, which `require_compute` reads.
                        compute: true,
                        name: tokens[i + 1].range(),
                        close: tokens.get(close).map_or(text.len(), |t| t.range().start),
                        params: Vec::new(),
                        trailing_comma: false,
                        body: tokens[body].range().end,
                    });
                }
            }
        }
    }

    /// What glslang's tree says of each call of the shader's own
    /// functions, keyed by the offset of the call's name in the text: its
    /// result's type (empty where GLSL writes it by no name), and the
    /// line of the overload it calls. So a call of an overloaded function
    /// gets the one it calls, which the if-conversion cannot tell from the
    /// call alone. Where a line's calls of a name in the text are not
    /// those of the tree (a macro's), that line's calls of it get none.
    pub(in crate::link) fn glsl_user_calls(&self) -> BTreeMap<usize, glsl_types::UserCall> {
        let mut types = BTreeMap::new();
        let Some(found) = glsl_types::user_calls(self.text, self.stage.0, self.api, &self.defines)
        else {
            return types;
        };
        let mut line_start = 0;
        let mut lines = self.text.split_inclusive('\n').enumerate();
        for (number, calls) in found {
            // The line's text, from the line before's.
            let Some((start, line)) = lines.by_ref().find_map(|(i, l)| {
                let start = line_start;
                line_start += l.len();
                (i + 1 == number as usize).then_some((start, l))
            }) else {
                break;
            };
            let names: BTreeSet<&str> = calls.iter().map(|c| c.name.as_str()).collect();
            for name in names {
                let at: Vec<usize> = line
                    .match_indices(name)
                    .map(|(i, _)| i)
                    .filter(|&i| {
                        let before = line[..i].chars().next_back();
                        let after = line[i + name.len()..].trim_start();
                        !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                            && after.starts_with('(')
                    })
                    .collect();
                let these: Vec<&glsl_types::UserCall> =
                    calls.iter().filter(|c| c.name == name).collect();
                if at.len() != these.len() {
                    continue;
                }
                for (i, call) in at.into_iter().zip(these) {
                    types.insert(start + i, call.clone());
                }
            }
        }
        types
    }

    /// Each GLSL generic call's value type, from glslang ([`glsl_types`]):
    /// a type the exchange cannot carry is refused at the call; the others
    /// are written around the value on `glsl-no-subgroup`, so that the
    /// if-conversion can declare a temporary of it. Where glslang's types
    /// do not match the calls line by line, none is taken.
    pub(in crate::link) fn type_glsl_values(&mut self) -> Result<(), ReadError> {
        let Some(mut found) = glsl_types::values(self.text, self.stage.0, self.api, &self.defines)
        else {
            self.untyped_values = true;
            return Ok(());
        };
        // glslang places a call on one line: its name's, where the call
        // is on one; where it spans lines, most often that of its last
        // argument's last token. The first reading that gives as many
        // calls on each line as the tree is taken.
        let line_starts: Vec<usize> = std::iter::once(0)
            .chain(self.text.match_indices('\n').map(|(k, _)| k + 1))
            .collect();
        let line_of = |at: usize| {
            u32::try_from(line_starts.partition_point(|&start| start <= at)).unwrap_or(u32::MAX)
        };
        let readings = [false, true].map(|last_token| {
            let mut by_line: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
            for (i, u) in self
                .uses
                .iter()
                .enumerate()
                .filter(|(_, u)| u.value.is_some())
            {
                let at = match (last_token, u.args) {
                    (true, Some((after_open, _))) => {
                        last_argument_token(self.text, after_open).unwrap_or(u.name.start)
                    }
                    _ => u.name.start,
                };
                by_line.entry(line_of(at)).or_default().push(i);
            }
            by_line
        });
        let matches = |by_line: &BTreeMap<u32, Vec<usize>>| {
            by_line.len() == found.len()
                && by_line
                    .iter()
                    .all(|(line, uses)| found.get(line).is_some_and(|t| t.len() == uses.len()))
        };
        let Some(by_line) = readings.into_iter().find(|r| matches(r)) else {
            self.untyped_values = true;
            return Ok(());
        };
        for (line, uses) in by_line {
            for (i, call) in uses
                .into_iter()
                .zip(found.remove(&line).unwrap_or_default())
            {
                let u = &mut self.uses[i];
                if let Some((_, size)) = u.cluster.as_mut() {
                    *size = call.cluster;
                }
                let ty = call.ty;
                // A value glslang's tree gives no type for (a constant):
                // the overloads decide.
                if ty.is_empty() {
                    continue;
                }
                if !glsl_types::carried(&ty) && !types::glsl_links_wide(u.op, &ty) {
                    if u.op.arith().is_some() {
                        return Err((
                            LinkErrorKind::Unsupported,
                            format!(
                                "`{}` of a `{ty}`: the emulation's arithmetic takes `int`, \
                                 `uint` and `float` (and `bool` for And, Or and Xor) and their \
                                 vectors, and `double`, `float16_t`, the 8-, 16- and 64-bit \
                                 integers and their vectors",
                                &self.text[u.name.clone()]
                            ),
                            u.name.clone(),
                        ));
                    }
                    return Err((
                        LinkErrorKind::Unsupported,
                        format!(
                            "`{}` of a `{ty}`: the emulation moves scalars and vectors of \
                             32-bit types and `bool`, and of `double`, `float16_t` and the 8-, \
                             16- and 64-bit integers",
                            &self.text[u.name.clone()]
                        ),
                        u.name.clone(),
                    ));
                }
                if let Some((_, slot)) = u.value.as_mut() {
                    *slot = Some(ty);
                }
            }
        }
        Ok(())
    }
}

/// The offset of the last token of a call's arguments, the call's
/// arguments starting at `after_open` (after its `(`): past comments, up
/// to the `)` that closes it. `None` where none closes it.
fn last_argument_token(text: &str, after_open: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let (mut depth, mut at, mut last) = (1usize, after_open, None);
    while at < bytes.len() {
        match bytes[at] {
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = text[at..].find('\n').map_or(bytes.len(), |k| at + k);
                continue;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at = text[at + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |k| at + 2 + k + 2);
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => {
                depth -= 1;
                if depth == 0 {
                    return last;
                }
            }
            _ => {}
        }
        if !bytes[at].is_ascii_whitespace() {
            last = Some(at);
        }
        at += 1;
    }
    None
}
