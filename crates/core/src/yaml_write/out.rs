//! The line writer both emitters use: `name: value` lines at an indent, floats in Unity's
//! spelling, strings as YAML scalars, references.

use std::fmt::Write;

use super::emit::TextRef;
use super::float::Spellings;
use super::scalar::push_str_scalar;

thread_local! {
    /// The buffer of the last text this thread wrote, handed back with [`recycle`].
    static SPARE: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

/// An empty buffer for a text of about `capacity` bytes: the one this thread was last
/// handed back ([`recycle`]), or a new one.
pub(super) fn text_buffer(capacity: usize) -> String {
    let mut text = SPARE.take();
    text.clear();
    text.reserve(capacity);
    text
}

/// Hands a written text's buffer back, for the next text written on this thread: a whole
/// game's texts (tens of GB) then reuse one buffer a thread, whose pages are already the
/// process's, instead of each asking the system for fresh pages (the largest cost of
/// writing them where large buffers get pages of their own). It holds the largest text
/// written since.
pub fn recycle(text: String) {
    SPARE.set(text);
}

/// Appends `  name: value\n` style lines with a fixed indent.
pub(super) struct Out {
    pub(super) text: String,
    /// Floats spelled before in this text.
    pub(super) spellings: Spellings,
}

impl Out {
    pub(super) fn line(&mut self, indent: usize, s: &str) {
        self.indent(indent);
        self.text.push_str(s);
        self.text.push('\n');
    }

    pub(super) fn float(&mut self, indent: usize, name: &str, x: f32) {
        self.open(indent, name);
        self.spellings.push(&mut self.text, x);
        self.text.push('\n');
    }

    pub(super) fn int(&mut self, indent: usize, name: &str, x: i64) {
        self.open(indent, name);
        self.push_int(x);
        self.text.push('\n');
    }

    /// `prefix` (a field's indent, name and `: `, spelled whole), `x`, a line break: a
    /// key's fields, the bulk of a clip's text, in three appends each.
    pub(super) fn float_at(&mut self, prefix: &str, x: f32) {
        self.text.push_str(prefix);
        self.spellings.push(&mut self.text, x);
        self.text.push('\n');
    }

    /// [`Out::float_at`] for an integer.
    pub(super) fn int_at(&mut self, prefix: &str, x: i64) {
        self.text.push_str(prefix);
        self.push_int(x);
        self.text.push('\n');
    }

    /// [`Out::vector`] after a whole `prefix` (indent, name, `: `).
    pub(super) fn vector_at(&mut self, prefix: &str, values: &[f32]) {
        self.text.push_str(prefix);
        self.components(values);
    }

    /// Appends `x`: small counts and modes, most of a clip's integers, without a formatter.
    fn push_int(&mut self, x: i64) {
        match u16::try_from(x) {
            Ok(d) if d < 10 => self.text.push(char::from(b'0' + d as u8)),
            Ok(d) if d < 1000 => {
                let digits = [(d / 100) as u8, (d / 10 % 10) as u8, (d % 10) as u8];
                let skip = if d < 100 { 1 } else { 0 };
                for &digit in &digits[skip..] {
                    self.text.push(char::from(b'0' + digit));
                }
            }
            _ => {
                let _ = write!(self.text, "{x}");
            }
        }
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
        self.indent(indent);
        self.text.push_str(name);
        self.text.push_str(": ");
    }

    /// `indent` spaces, appended at once.
    fn indent(&mut self, indent: usize) {
        const SPACES: &str = "                ";
        let mut left = indent;
        while left > 0 {
            let n = left.min(SPACES.len());
            self.text.push_str(&SPACES[..n]);
            left -= n;
        }
    }

    /// `name: {x: a, y: b, ...}` over the components.
    pub(super) fn vector(&mut self, indent: usize, name: &str, values: &[f32]) {
        self.open(indent, name);
        self.components(values);
    }

    /// `{x: a, y: b, ...}` and a line break.
    fn components(&mut self, values: &[f32]) {
        const NAMES: [&str; 4] = ["{x: ", ", y: ", ", z: ", ", w: "];
        if values.is_empty() {
            self.text.push('{');
        }
        for (i, v) in values.iter().enumerate() {
            self.text.push_str(NAMES[i.min(3)]);
            self.spellings.push(&mut self.text, *v);
        }
        self.text.push_str("}\n");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn out() -> Out {
        Out {
            text: String::new(),
            spellings: Spellings::default(),
        }
    }

    /// A text's buffer handed back is the next one's on the same thread, emptied, with its
    /// room; another thread's is its own.
    #[test]
    fn a_buffer_handed_back_is_reused_empty() {
        let mut first = text_buffer(10);
        first.push_str(&"x".repeat(1 << 20));
        let (ptr, room) = (first.as_ptr(), first.capacity());
        recycle(first);
        let other = std::thread::spawn(|| text_buffer(10).capacity())
            .join()
            .unwrap();
        assert!(other < room, "{other}");
        let next = text_buffer(100);
        assert!(next.is_empty());
        assert_eq!((next.as_ptr(), next.capacity()), (ptr, room));
        // Taken, it is no longer the spare: the next buffer is new.
        assert!(text_buffer(10).capacity() < room);
    }

    /// Integers spelled without the formatter are spelled as it spells them, at every width
    /// around the fast paths' edges.
    #[test]
    fn integers_are_spelled_as_the_formatter_spells_them() {
        for x in (-1000..=1200).chain([i64::MIN, -65536, 65535, 65536, i64::MAX]) {
            let mut o = out();
            o.int_at("k: ", x);
            assert_eq!(o.text, format!("k: {x}\n"));
        }
    }

    /// Indents of any depth, and fields spelled whole, read as `open` spells them.
    #[test]
    fn lines_and_fields_keep_their_indent() {
        let mut o = out();
        o.line(20, "a");
        o.float(8, "time", 0.5);
        o.float_at("        time: ", 0.5);
        o.vector(8, "value", &[1.0, 2.0, 3.0, 4.0]);
        o.vector_at("        value: ", &[]);
        let spaces = " ".repeat(20);
        assert_eq!(
            o.text,
            format!(
                "{spaces}a\n        time: 0.5\n        time: 0.5\n        value: {{x: 1, y: 2, z: 3, w: 4}}\n        value: {{}}\n"
            )
        );
    }
}
