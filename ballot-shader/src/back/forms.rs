//! Both forms of one module, written in one pass of a shader writer.
//!
//! A kernel's helper library and its compute shader share everything but a
//! few parts: the compute shader adds its `#version` line (GLSL), its
//! bindings and its entry point; the helper library adds comments on how to
//! call it. The writers say which part they are writing ([`Forms::only`]),
//! and [`Forms`] sends each part to the forms it belongs to. So the two
//! texts are the same text by construction, but for those parts, and
//! [`Forms::compute_only`] says where the compute shader's own parts are:
//! what the expansion needs to take the library's verdict from the compute
//! shader's (`valid::validate_with_library`) instead of parsing both.

use core::fmt;
use core::ops::Range;

use super::Form;

/// The texts of one module in the forms asked for, written in one pass.
#[derive(Clone, Debug)]
pub struct Forms {
    /// Each form's text, in [`Form::ALL`]'s order; `None` where the form
    /// was not asked for.
    texts: [Option<String>; 2],
    /// The form that what is written now belongs to alone; `None`: both.
    only: Option<Form>,
    /// The byte ranges of the compute shader's text written while `only`
    /// was [`Form::ComputeShader`], in order.
    compute_only: Vec<Range<usize>>,
}

/// The index of `form` in [`Form::ALL`].
const fn index(form: Form) -> usize {
    match form {
        Form::Helpers => 0,
        Form::ComputeShader => 1,
    }
}

impl Forms {
    /// Empty texts for the forms in `wanted`.
    pub fn new(wanted: &[Form]) -> Self {
        Forms {
            texts: Form::ALL.map(|form| wanted.contains(&form).then(String::new)),
            only: None,
            compute_only: Vec::new(),
        }
    }

    /// Sends what is written next to `form` alone, or to both forms
    /// (`None`), until the next call.
    pub fn only(&mut self, form: Option<Form>) {
        self.only = form;
    }

    /// The text of `form`, if it was asked for.
    pub fn text(&self, form: Form) -> Option<&str> {
        self.texts[index(form)].as_deref()
    }

    /// The text of `form`, if it was asked for.
    pub fn into_text(self, form: Form) -> Option<String> {
        let [helpers, compute] = self.texts;
        match form {
            Form::Helpers => helpers,
            Form::ComputeShader => compute,
        }
    }

    /// The byte ranges of the compute shader's text that the helper form
    /// does not have; the rest is, byte for byte, in the helper form, in
    /// the same order, between the helper form's own parts.
    pub fn compute_only(&self) -> &[Range<usize>] {
        &self.compute_only
    }
}

impl fmt::Write for Forms {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if s.is_empty() {
            return Ok(());
        }
        for form in Form::ALL {
            if self.only.is_some_and(|only| only != form) {
                continue;
            }
            let Some(text) = &mut self.texts[index(form)] else {
                continue;
            };
            if form == Form::ComputeShader && self.only == Some(form) {
                let at = text.len()..text.len() + s.len();
                match self.compute_only.last_mut() {
                    Some(last) if last.end == at.start => last.end = at.end,
                    _ => self.compute_only.push(at),
                }
            }
            text.push_str(s);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::fmt::Write as _;

    #[test]
    fn parts_go_to_their_forms_and_the_compute_only_ones_are_recorded() {
        let mut forms = Forms::new(&Form::ALL);
        forms.only(Some(Form::ComputeShader));
        writeln!(forms, "#version 450").unwrap();
        forms.only(Some(Form::Helpers));
        writeln!(forms, "// usage").unwrap();
        forms.only(None);
        writeln!(forms, "shared").unwrap();
        forms.only(Some(Form::ComputeShader));
        writeln!(forms, "main").unwrap();
        writeln!(forms, "more").unwrap();
        assert_eq!(forms.text(Form::Helpers), Some("// usage\nshared\n"));
        let compute = forms.text(Form::ComputeShader).unwrap();
        assert_eq!(compute, "#version 450\nshared\nmain\nmore\n");
        let parts: Vec<&str> = forms
            .compute_only()
            .iter()
            .map(|r| &compute[r.clone()])
            .collect();
        assert_eq!(parts, ["#version 450\n", "main\nmore\n"]);
    }

    #[test]
    fn a_form_not_asked_for_is_not_written() {
        let mut forms = Forms::new(&[Form::Helpers]);
        write!(forms, "shared").unwrap();
        assert_eq!(forms.text(Form::ComputeShader), None);
        assert_eq!(forms.into_text(Form::Helpers).as_deref(), Some("shared"));
    }
}
