//! Strings written as YAML scalars: plain where Unity writes them plain (names, paths,
//! property names), quoted where a plain scalar would read as something else.

/// Appends `s` as a YAML scalar. The empty string is written as nothing (Unity's
/// `path: ` for the root).
pub fn push_str_scalar(out: &mut String, s: &str) {
    if is_plain_safe(s) {
        out.push_str(s);
    } else if s.chars().all(|c| !c.is_control()) {
        out.push('\'');
        out.push_str(&s.replace('\'', "''"));
        out.push('\'');
    } else {
        push_double_quoted(out, s);
    }
}

/// True when `s` reads back as the same string without quotes.
fn is_plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return true;
    };
    if s.starts_with(' ') || s.ends_with(' ') {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`~".contains(first) {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.ends_with(':') {
        return false;
    }
    if s.chars()
        .any(|c| c.is_control() || matches!(c, '{' | '}' | '[' | ']' | ','))
    {
        return false;
    }
    !reads_as_other(s)
}

/// True for words a YAML reader takes as numbers, booleans or null.
fn reads_as_other(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
    ) || s.parse::<f64>().is_ok()
        || lower.trim_start_matches(['+', '-']).starts_with(".inf")
        || lower == ".nan"
        || lower.starts_with("0x")
        || lower.starts_with("0o")
}

fn push_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> String {
        let mut out = String::new();
        push_str_scalar(&mut out, s);
        out
    }

    #[test]
    fn names_unity_writes_plain_stay_plain() {
        for s in [
            "Armature/Hips",
            "Left Thumb 1 Stretched",
            "RootT.x",
            "material._Color.r",
            "",
        ] {
            assert_eq!(text(s), s);
        }
    }

    #[test]
    fn ambiguous_names_are_quoted() {
        assert_eq!(text("1"), "'1'");
        assert_eq!(text("true"), "'true'");
        assert_eq!(text("a: b"), "'a: b'");
        assert_eq!(text("it's {x}"), "'it''s {x}'");
        assert_eq!(text("-x"), "'-x'");
        assert_eq!(text("a\nb"), "\"a\\nb\"");
    }
}
