//! Splitting a Unity YAML file into its documents.
//!
//! Unity writes one YAML document per object, headed `--- !u!CLASS &FILEID`, with ` stripped`
//! appended for the placeholder objects of nested prefab instances. The YAML crate does not
//! understand the `!u!` tag shorthand on the document marker, and a scene can hold tens of
//! thousands of documents of which only a few classes matter, so the text is split here, line
//! by line, and only the bodies of the wanted classes are handed to the YAML parser.

/// One `--- !u!CLASS &FILEID [stripped]` document.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Document<'a> {
    /// Unity class id (1 GameObject, 4 Transform, 74 AnimationClip, …).
    pub class_id: i32,
    /// The object's file id: what `{fileID: N}` references in the same file name it by.
    pub file_id: i64,
    /// A placeholder for an object of a nested prefab instance: only its source and instance.
    pub stripped: bool,
    /// 1-based line of the header in the file.
    pub line: usize,
    /// The text after the header line, up to the next document.
    pub body: &'a str,
}

/// The documents of a file, and the header lines that could not be read.
#[derive(Debug, Default)]
pub(crate) struct Split<'a> {
    pub documents: Vec<Document<'a>>,
    pub warnings: Vec<String>,
}

/// The header fields of a document marker line.
struct Header {
    class_id: i32,
    file_id: i64,
    stripped: bool,
}

/// Splits `text` into documents. Directives (`%YAML`, `%TAG`) and anything before the first
/// document are dropped; a document whose header is not Unity's is skipped with a warning.
pub(crate) fn split(text: &str) -> Split<'_> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Split::default();
    let mut open: Option<(Header, usize, usize)> = None;
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_end();
        let marker = trimmed == "---" || trimmed.starts_with("--- ") || trimmed == "...";
        if !marker {
            continue;
        }
        close(&mut out, open.take(), &text[..start]);
        if trimmed == "..." {
            continue;
        }
        match parse_header(trimmed) {
            Some(header) => open = Some((header, index + 1, offset)),
            None => out.warnings.push(format!(
                "line {}: document header {trimmed:?} is not a Unity object header; skipped",
                index + 1
            )),
        }
    }
    close(&mut out, open, text);
    out
}

/// Ends the open document at the end of `upto`.
fn close<'a>(out: &mut Split<'a>, open: Option<(Header, usize, usize)>, upto: &'a str) {
    if let Some((header, line, body_start)) = open {
        out.documents.push(Document {
            class_id: header.class_id,
            file_id: header.file_id,
            stripped: header.stripped,
            line,
            body: upto.get(body_start..).unwrap_or(""),
        });
    }
}

/// Reads `--- !u!74 &7400000`, `--- !u!4 &123 stripped` or the long tag form
/// `--- !<tag:unity3d.com,2011:74> &7400000`.
fn parse_header(line: &str) -> Option<Header> {
    let mut words = line.strip_prefix("---")?.split_whitespace();
    let tag = words.next()?;
    let class = tag.strip_prefix("!u!").or_else(|| {
        tag.strip_prefix("!<tag:unity3d.com,2011:")?
            .strip_suffix('>')
    })?;
    let anchor = words.next()?.strip_prefix('&')?;
    let stripped = match words.next() {
        None => false,
        Some("stripped") => true,
        Some(_) => return None,
    };
    if words.next().is_some() {
        return None;
    }
    Some(Header {
        class_id: class.parse().ok()?,
        file_id: anchor.parse().ok()?,
        stripped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_headers_bodies_and_stripped_objects() {
        let text = "\u{feff}%YAML 1.1\n%TAG !u! tag:unity3d.com,2011:\n--- !u!1 &10\nGameObject:\n  m_Name: a\n--- !u!4 &-20 stripped\r\nTransform:\n  x: 1\n";
        let split = split(text);
        assert!(split.warnings.is_empty());
        let docs = split.documents;
        assert_eq!(docs.len(), 2);
        assert_eq!(
            (docs[0].class_id, docs[0].file_id, docs[0].stripped),
            (1, 10, false)
        );
        assert_eq!(docs[0].line, 3);
        assert_eq!(docs[0].body, "GameObject:\n  m_Name: a\n");
        assert_eq!(
            (docs[1].class_id, docs[1].file_id, docs[1].stripped),
            (4, -20, true)
        );
        assert_eq!(docs[1].body, "Transform:\n  x: 1\n");
    }

    #[test]
    fn long_tags_and_bad_headers() {
        let text = "--- !<tag:unity3d.com,2011:74> &7400000\nAnimationClip: {}\n--- !u!x &1\nA: 1\n--- !u!4 &1 extra\nB: 2\n...\n";
        let split = split(text);
        assert_eq!(split.documents.len(), 1);
        assert_eq!(split.documents[0].class_id, 74);
        assert_eq!(split.warnings.len(), 2, "{:?}", split.warnings);
    }
}
