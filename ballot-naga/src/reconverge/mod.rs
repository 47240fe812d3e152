//! Hand-written shaders on the emulated targets: each function that
//! reaches a collective, if-converted, so that every invocation of the
//! workgroup reaches every barrier, carrying whether it really executes.
//!
//! Without subgroups, `subgroupBallot` and its kin exchange through
//! workgroup memory and meet at a workgroup barrier. A shader written for
//! hardware subgroups calls them after an early `return`, in a loop whose
//! trip count differs per invocation, under a branch: there a barrier
//! would be reached by some invocations only, which hangs or reads stale
//! memory. So, as `ballot_shader::lower::masked` does for kernels, every
//! invocation runs every collective and carries its activity, and the
//! result is the one hardware subgroups of the virtual size give under
//! maximal reconvergence (`docs/reconvergence.md`).
//!
//! One pipeline for both languages:
//! - [`tree`]: the text's functions and statements, as a tree over ranges
//!   of it (one reader; the languages differ in a few places);
//! - [`masked`]: the pass, over that tree: which functions reach an
//!   exchange, and each of those as straight-line steps over flags, with
//!   [`effects`] telling what an expression writes;
//! - [`print`]: the text again, with those functions written as their
//!   steps, and a map from the new text back to the old.
//!
//! The linker runs it on its own output, where the collectives are the
//! linked `ballot_*` functions whose first argument is the activity.

pub(crate) mod effects;
pub(crate) mod lex;
pub(crate) mod masked;
pub(crate) mod print;
pub(crate) mod tree;

#[cfg(test)]
mod tests;

use std::collections::BTreeMap;
use std::ops::Range;

use ballot_shader::back::Language;

pub(crate) use masked::{Exchange, Operand, Result_ as ExchangeResult};
pub(crate) use print::Printed;

/// Why a text cannot be converted, at a range of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refused {
    pub message: String,
    pub at: Range<usize>,
    /// Whether the text could not be read at all (a text cut short, or a
    /// construct the reader does not know), rather than refused by the
    /// pass: the language's own compiler then says more.
    pub unread: bool,
}

/// What [`convert`] takes beside the text.
pub(crate) struct Options<'a> {
    /// The exchanges by function name: calls whose first argument is the
    /// activity.
    pub exchanges: &'a BTreeMap<String, Exchange>,
    /// Calls every invocation makes together as written (barriers).
    pub barriers: &'a [&'a str],
    /// The prefix of every name the conversion adds.
    pub prefix: &'a str,
    /// The workgroup vote: `fn(bool) -> bool`, whether any invocation of
    /// the workgroup passes `true`.
    pub vote: &'a str,
    /// Functions left as they are, and whose calls are no calls of the
    /// shader's own (the linked helpers: pure, or exchanges).
    pub skip: &'a [String],
    /// The type of an expression, where the caller can tell it: of a WGSL
    /// declaration without one, asked at its initialiser's range and then
    /// at the whole declaration's (a `let` or `var` whose initialiser has
    /// side effects is declared apart from it, and needs a type); of a
    /// GLSL call of a name overloaded with different return types, asked
    /// at the name, where the call must be kept in a temporary. The pass
    /// asks only there, so a caller may compute the types on the first
    /// question.
    pub init_type: &'a dyn Fn(Range<usize>) -> Option<String>,
    /// Whether the GLSL call named at the first range calls the function
    /// (an overload) named at the second, where the caller can tell: the
    /// pass asks where an argument of a converted call is evaluated only
    /// where the invocation is active, and the overloads of as many
    /// parameters differ in that parameter's type.
    pub calls: &'a dyn Fn(Range<usize>, Range<usize>) -> Option<bool>,
    /// GLSL macros that expand to nothing or to attributes (`#define
    /// UNROLL [[unroll]]`): before a statement, hints, as the attributes
    /// are ([`tree::read_with`]).
    pub hints: &'a [&'a str],
    /// GLSL's function-like macros, each name with its body: a call of
    /// one whose body writes changes state ([`masked`]).
    pub macros: &'a [(&'a str, &'a str)],
}

/// The conversion of `text`: the same text where no function reaches an
/// exchange. `uses_vote` says whether a loop takes the workgroup vote.
pub(crate) fn convert(
    text: &str,
    language: Language,
    options: &Options<'_>,
) -> Result<(Printed, bool), Refused> {
    let mut unit = tree::read_with(text, language, options.hints).map_err(|e| Refused {
        message: e.message,
        at: e.at,
        unread: true,
    })?;
    unit.functions
        .retain(|f| !options.skip.iter().any(|s| *s == text[f.name.clone()]));
    let request = masked::Request {
        text,
        language,
        unit: &unit,
        exchanges: options.exchanges,
        barriers: options.barriers,
        init_type: options.init_type,
        calls: options.calls,
        macros: options.macros,
    };
    let converted = masked::convert(&request).map_err(|r| Refused {
        message: r.message,
        at: r.at,
        unread: r.unread,
    })?;
    let uses_vote = converted.iter().any(|c| c.uses_vote);
    Ok((
        print::print(
            text,
            language,
            &unit,
            &converted,
            options.prefix,
            options.vote,
        ),
        uses_vote,
    ))
}
