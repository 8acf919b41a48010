//! The line writer both emitters use: `name: value` lines at an indent, floats in Unity's
//! spelling, strings as YAML scalars, references.

use std::fmt::Write;

use super::emit::TextRef;
use super::float::push_f32;
use super::scalar::push_str_scalar;

/// Appends `  name: value\n` style lines with a fixed indent.
pub(super) struct Out {
    pub(super) text: String,
}

impl Out {
    pub(super) fn line(&mut self, indent: usize, s: &str) {
        for _ in 0..indent {
            self.text.push(' ');
        }
        self.text.push_str(s);
        self.text.push('\n');
    }

    pub(super) fn float(&mut self, indent: usize, name: &str, x: f32) {
        self.open(indent, name);
        push_f32(&mut self.text, x);
        self.text.push('\n');
    }

    pub(super) fn int(&mut self, indent: usize, name: &str, x: i64) {
        self.open(indent, name);
        // Small counts and modes are most of a clip's integers: no formatter for them.
        match u8::try_from(x) {
            Ok(d) if d < 10 => self.text.push(char::from(b'0' + d)),
            _ => {
                let _ = write!(self.text, "{x}");
            }
        }
        self.text.push('\n');
    }

    pub(super) fn string(&mut self, indent: usize, name: &str, s: &str) {
        self.open(indent, name);
        push_str_scalar(&mut self.text, s);
        self.text.push('\n');
    }

    pub(super) fn reference(&mut self, indent: usize, name: &str, r: &TextRef) {
        self.open(indent, name);
        r.push(&mut self.text);
        self.text.push('\n');
    }

    /// `indent` spaces, `name: `.
    pub(super) fn open(&mut self, indent: usize, name: &str) {
        for _ in 0..indent {
            self.text.push(' ');
        }
        self.text.push_str(name);
        self.text.push_str(": ");
    }

    /// `name: {x: a, y: b, ...}` over the components.
    pub(super) fn vector(&mut self, indent: usize, name: &str, values: &[f32]) {
        self.open(indent, name);
        self.text.push('{');
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                self.text.push_str(", ");
            }
            self.text.push(['x', 'y', 'z', 'w'][i.min(3)]);
            self.text.push_str(": ");
            push_f32(&mut self.text, *v);
        }
        self.text.push_str("}\n");
    }
}
