//! Mapping back: the if-conversion of the written text, and every
//! validator's or pass's span taken back to the user's file and line.

use super::*;

/// A linked text, and where each of its pieces comes from.
pub(super) struct Written {
    pub(super) text: String,
    pub(super) pieces: Vec<(Range<usize>, Origin)>,
    pub(super) functions: Vec<String>,
}

impl Written {
    /// This emulated target's text with the functions that reach an
    /// exchange if-converted ([`converge`]); a refusal is on the user's
    /// file, through this text's pieces.
    pub(super) fn converge(
        &self,
        shader: &Shader<'_>,
        path: &str,
    ) -> Result<reconverge::Printed, LinkError> {
        let language = shader.target.language();
        // WGSL: naga's types of the shader's declarations; GLSL: what
        // glslang's tree says of the calls of its own functions (an
        // overload's type, and which overload). Each read only where the
        // pass asks.
        let types = std::cell::OnceCell::new();
        let glsl_calls = std::cell::OnceCell::new();
        let glsl_calls = || glsl_calls.get_or_init(|| shader.glsl_user_calls());
        let init_type = |init: Range<usize>| {
            let user = self.origin(&init)?;
            match language {
                Language::Wgsl => types
                    .get_or_init(|| shader.declaration_types())
                    .get(&user.start)
                    .cloned(),
                Language::Glsl => glsl_calls()
                    .get(&user.start)
                    .map(|c| c.ty.clone())
                    .filter(|t| !t.is_empty()),
            }
        };
        // Whether the GLSL call named at `call` calls the overload named at
        // `function`, as glslang's tree places both.
        let calls = |call: Range<usize>, function: Range<usize>| {
            let call = self.origin(&call)?;
            let function = self.origin(&function)?;
            let definition = glsl_calls().get(&call.start)?.definition?;
            Some(definition == locate(shader.text, function, String::new()).line)
        };
        converge::converge(
            &self.text,
            language,
            &shader.prefix,
            &self.functions,
            &init_type,
            &calls,
        )
        .map_err(|r| {
            // A text the reader cannot read is most often one naga rejects:
            // its verdict says more. So is one whose types the pass asked
            // naga for and got none of (a `ptr<workgroup>` parameter,
            // which browsers take and naga does not), or, in GLSL, one
            // glslang gave no types of (most often, one it does not
            // compile). One it accepts is refused, never linked
            // unconverted.
            let untyped = types.get().is_some_and(BTreeMap::is_empty)
                || (language == Language::Glsl && shader.untyped_values);
            if r.unread || untyped {
                if let Err(rejected) =
                    judge::judge(shader.target, &self.text, shader.stage, shader.api)
                {
                    return self.error(shader, path, rejected.1);
                }
            }
            let mut message = if r.unread {
                format!(
                    "{}: the emulated targets rewrite the functions that reach a collective, \
                     and cannot read this one",
                    r.message
                )
            } else {
                r.message
            };
            let at = self.origin(&r.at);
            // A linked function's name, as the user wrote the call.
            if let (Some(linked), Some(user)) = (self.text.get(r.at.clone()), at.as_ref()) {
                if linked.starts_with(&shader.prefix) {
                    message = message.replace(
                        &format!("`{linked}`"),
                        &format!("`{}`", &shader.text[user.clone()]),
                    );
                }
            }
            LinkError {
                kind: LinkErrorKind::Unsupported,
                path: path.to_string(),
                target: shader.target,
                message,
                location: at.map(|at| Box::new(locate(shader.text, at, String::new()))),
                notes: Box::default(),
            }
        })
    }

    /// naga's verdict on `converged`, the conversion of this text, as an
    /// error on the user's file: its labels taken back through both.
    pub(super) fn error_through(
        &self,
        converged: &reconverge::Printed,
        shader: &Shader<'_>,
        path: &str,
        mut d: Diagnostic,
    ) -> LinkError {
        let all = d.labels.len();
        d.labels = d
            .labels
            .iter()
            .filter_map(|(r, label)| Some((converged.origin(r)?, label.clone())))
            .collect();
        if d.labels.len() < all && d.labels.is_empty() {
            return LinkError {
                kind: LinkErrorKind::Bug,
                path: path.to_string(),
                target: shader.target,
                message: format!(
                    "{} rejects the if-converted text (a bug in ballot): {}",
                    judge::validator(shader.target.language()),
                    d.message
                ),
                location: None,
                notes: d.notes.into(),
            };
        }
        self.error(shader, path, d)
    }

    /// The user's range behind `range` of the linked text, or `None` where
    /// it starts in linked code.
    pub(super) fn origin(&self, range: &Range<usize>) -> Option<Range<usize>> {
        // naga puts "expected `}`" of a text cut short at its very end,
        // past every piece: that is the last piece's.
        let at_end = |p: &Range<usize>| range.start == p.end && p.end == self.text.len();
        let (piece, origin) = self
            .pieces
            .iter()
            .find(|(p, _)| p.contains(&range.start) || at_end(p))?;
        match origin {
            // An empty range stays so: `locate` shows it as one character.
            Origin::User(at) => {
                let start = at + (range.start - piece.start);
                let end = at + (range.end.min(piece.end) - piece.start);
                Some(start..end.max(start))
            }
            Origin::Edit(blame) => Some(blame.clone()),
            Origin::Linked => None,
        }
    }

    /// A glslang note's line of the linked text (`line 12 of the text it
    /// was given`) as the user's line, where it is one of theirs.
    fn note_line(&self, shader: &Shader<'_>, note: &str) -> String {
        const GIVEN: &str = " of the text it was given)";
        let Some(head) = note.strip_suffix(GIVEN) else {
            return note.to_string();
        };
        let Some((before, number)) = head.rsplit_once("(line ") else {
            return note.to_string();
        };
        let Some(line) = number.parse::<usize>().ok().and_then(|n| n.checked_sub(1)) else {
            return note.to_string();
        };
        let Some(start) = self
            .text
            .split_inclusive('\n')
            .take(line)
            .map(str::len)
            .try_fold(0usize, |a, l| a.checked_add(l))
            .filter(|&s| s < self.text.len())
        else {
            return note.to_string();
        };
        let end = self.text[start..]
            .find('\n')
            .map_or(self.text.len(), |k| start + k);
        // The first byte of the line that is the user's.
        let user = (start..end).find_map(|at| self.origin(&(at..at + 1)));
        match user {
            Some(r) => format!(
                "{before}(line {})",
                locate(shader.text, r, String::new()).line
            ),
            None => format!("{before}(in the code ballot links)"),
        }
    }

    /// naga's verdict on this text as an error on the user's file: at the
    /// innermost label in the user's code, or, where every label is in
    /// linked code, a bug in ballot.
    pub(super) fn error(&self, shader: &Shader<'_>, path: &str, d: Diagnostic) -> LinkError {
        let mapped: Vec<(Range<usize>, String)> = d
            .labels
            .iter()
            .filter_map(|(r, label)| Some((self.origin(r)?, label.clone())))
            .collect();
        let base = LinkError {
            kind: LinkErrorKind::Invalid,
            path: path.to_string(),
            target: shader.target,
            message: d.message.clone(),
            location: None,
            notes: d
                .notes
                .iter()
                .map(|n| self.note_line(shader, n))
                .collect::<Vec<_>>()
                .into(),
        };
        match mapped.last() {
            Some((range, label)) => LinkError {
                location: Some(Box::new(locate(shader.text, range.clone(), label.clone()))),
                ..base
            },
            None if !d.labels.is_empty() => {
                let (range, label) = &d.labels[d.labels.len() - 1];
                let at = locate(&self.text, range.clone(), label.clone());
                LinkError {
                    kind: LinkErrorKind::Bug,
                    message: format!(
                        "{} (at line {} of the linked text: `{}`)",
                        d.message,
                        at.line,
                        at.line_text.trim()
                    ),
                    ..base
                }
            }
            // naga gives an entry point's errors (its built-ins, its
            // workgroup) no span: they are on the entry point's name.
            None => {
                let name = d
                    .message
                    .strip_prefix("Entry point ")
                    .and_then(|m| m.split_once(' '))
                    .map(|(name, _)| name);
                let entry = shader
                    .entries
                    .iter()
                    .find(|e| Some(&shader.text[e.name.clone()]) == name);
                LinkError {
                    location: entry
                        .map(|e| Box::new(locate(shader.text, e.name.clone(), String::new()))),
                    ..base
                }
            }
        }
    }
}

/// How many lines end in `text`: at `\r\n`, `\n` or a lone `\r`, as
/// editors count them (a file from an old Mac has only `\r`).
pub(super) fn line_ends(text: &str) -> usize {
    let bytes = text.as_bytes();
    let crs = bytes
        .iter()
        .enumerate()
        .filter(|&(i, &b)| b == b'\r' && bytes.get(i + 1) != Some(&b'\n'))
        .count();
    bytes.iter().filter(|&&b| b == b'\n').count() + crs
}

/// The location of `range` in `text`, widened to whole characters. Lines
/// end at `\r\n`, `\n` and a lone `\r`.
pub(super) fn locate(text: &str, range: Range<usize>, label: String) -> Location {
    let mut start = range.start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let line_start = text[..start].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = text[start..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| start + i);
    let line_text = text[line_start..line_end].to_string();
    let column = text[line_start..start].chars().count() as u32 + 1;
    let mut end = range.end.clamp(start, line_end);
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let length = text[start..end].chars().count().max(1) as u32;
    Location {
        line: line_ends(&text[..start]) as u32 + 1,
        column,
        length,
        line_text,
        label,
    }
}
