//! Values as Unity's YAML writes them: object references (`{fileID: N, guid: G, type: T}`),
//! the float spellings `Infinity`, `-Infinity` and `NaN`, and the one-key document body
//! (`ClassName: {...}`) deserialized into a serde struct.

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::marker::PhantomData;

use serde::Deserialize;
use serde::de::{self, DeserializeOwned, IgnoredAny, MapAccess, Visitor};

use super::document::Document;
use crate::unity::{Int, PPtr};

/// A reference as YAML writes it: `{fileID: N}` in the same file, `{fileID: N, guid: G,
/// type: T}` in another asset (the asset whose `.meta` file holds guid G).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default)]
pub struct YamlRef {
    #[serde(rename = "fileID")]
    pub file_id: Int,
    pub guid: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<Int>,
}

impl YamlRef {
    /// True for `{fileID: 0}`: no object.
    pub fn is_null(&self) -> bool {
        self.file_id.0 == 0
    }

    /// The file id of a reference into this file, `None` for a null or external one.
    pub fn local(&self) -> Option<i64> {
        (!self.is_null() && self.guid.is_none()).then_some(self.file_id.0)
    }
}

/// One asset referenced by guid, numbered like a binary file's externals: a [`PPtr`] with
/// `m_FileID` k names the object `m_PathID` of `externals[k - 1]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExternalAsset {
    pub guid: String,
    /// Unity's `type` of the reference (2 an asset, 3 an imported asset, 0 a built-in one).
    pub kind: i64,
}

/// The guid table of one file, filled as references are converted to [`PPtr`]s.
#[derive(Debug, Default)]
pub(crate) struct Externals {
    pub list: Vec<ExternalAsset>,
    index: HashMap<String, usize>,
}

impl Externals {
    /// The binary-style pointer for a YAML reference: `{0, N}` for this file, `{k, N}` for
    /// the k-th external asset.
    pub fn pptr(&mut self, r: &YamlRef) -> PPtr {
        let file = match &r.guid {
            None => 0,
            Some(guid) => match self.index.get(guid) {
                Some(&i) => i + 1,
                None => {
                    self.list.push(ExternalAsset {
                        guid: guid.clone(),
                        kind: r.kind.map_or(0, |k| k.0),
                    });
                    self.index.insert(guid.clone(), self.list.len() - 1);
                    self.list.len()
                }
            },
        };
        PPtr {
            m_FileID: Int(file as i64),
            m_PathID: r.file_id,
        }
    }
}

/// Unity's non-finite float spellings and the YAML 1.2 forms they are rewritten to. The
/// capitalised `.Inf`/`.NaN` spellings are valid YAML that Unity itself never writes, so a
/// string field that received one can be mapped back exactly ([`restore`]).
const SPELLINGS: [(&str, &str); 4] = [
    ("-Infinity", "-.Inf"),
    ("+Infinity", "+.Inf"),
    ("Infinity", ".Inf"),
    ("NaN", ".NaN"),
];

/// Rewrites `Infinity`, `-Infinity` and `NaN` where they stand as a whole plain scalar in a
/// value position (after `: `, `- `, `[`, `{` or `, `), so float fields read them. Linear in
/// the text; borrows it when there is nothing to rewrite.
pub(crate) fn unity_floats(body: &str) -> Cow<'_, str> {
    if !body.contains("Infinity") && !body.contains("NaN") {
        return Cow::Borrowed(body);
    }
    let bytes = body.as_bytes();
    let mut out = String::with_capacity(body.len() + 64);
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let hit = SPELLINGS
            .iter()
            .find(|(from, _)| bytes[i..].starts_with(from.as_bytes()))
            .filter(|(from, _)| is_value_start(bytes, i) && is_value_end(bytes, i + from.len()));
        match hit {
            Some((from, to)) => {
                out.push_str(&body[copied..i]);
                out.push_str(to);
                i += from.len();
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&body[copied..]);
    Cow::Owned(out)
}

/// True when a plain scalar starting at `i` is a value: preceded by `: `, `- `, `[`, `{` or
/// `,` (spaces allowed in between).
fn is_value_start(bytes: &[u8], i: usize) -> bool {
    let before = bytes[..i].iter().rev().find(|&&b| b != b' ');
    match before {
        Some(b'[' | b'{' | b',') => true,
        Some(b':' | b'-') => i > 0 && bytes[i - 1] == b' ',
        _ => false,
    }
}

/// True when a scalar ending at `end` ends there: end of line or text, or a flow delimiter.
fn is_value_end(bytes: &[u8], end: usize) -> bool {
    let after = bytes[end..].iter().find(|&&b| b != b' ');
    matches!(
        after,
        None | Some(b'\r' | b'\n' | b',' | b'}' | b']' | b'#')
    )
}

/// Maps a string that [`unity_floats`] rewrote back to Unity's spelling.
pub(crate) fn restore(s: &mut String) {
    if let Some((from, _)) = SPELLINGS.iter().find(|(_, to)| s == to) {
        *s = (*from).to_string();
    }
}

/// The body of a document: a map with one key, the class name, whose value is the object.
struct OneKey<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OneKey<T> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(OneKeyVisitor(PhantomData))
    }
}

struct OneKeyVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for OneKeyVisitor<T> {
    type Value = OneKey<T>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map with the class name as its one key")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let Some(_class) = map.next_key::<String>()? else {
            return Err(de::Error::custom("the document is an empty map"));
        };
        let value = map.next_value::<T>()?;
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(OneKey(value))
    }
}

/// Deserializes a document body (already passed through [`unity_floats`]) into `T`. The
/// error names the field (`AnimationClip.m_FloatCurves[3].curve…`) and the line in the file.
/// A panic inside the YAML crate is caught and reported as an error: the input is untrusted.
///
/// The parser streams: it holds a few events at a time, never the whole document, so a large
/// clip costs little more than its decoded keys. Its budget scales with the body (a YAML
/// event takes at least one byte of text), which stops alias bombs and nothing real.
pub(crate) fn from_body<T: DeserializeOwned>(doc: &Document, body: &str) -> Result<T, String> {
    if body.trim().is_empty() {
        return Err("the document is empty".to_string());
    }
    match std::panic::catch_unwind(|| parse::<T>(body, doc.line)) {
        Ok(parsed) => parsed,
        Err(_) => Err("the YAML parser failed on this document".to_string()),
    }
}

/// Parses `body`, a document whose header is at `header_line`; the error names the field
/// that failed.
fn parse<T: DeserializeOwned>(body: &str, header_line: usize) -> Result<T, String> {
    let mut options = serde_saphyr::Options::default();
    options.with_snippet = false;
    // Unity writes an empty string as nothing at all (`path: `).
    options.null_as_string = true;
    // Skipped fields and lenient numbers read non-finite floats (`.Inf`) as floats.
    options.non_finite_float_policy = serde_saphyr::NonFiniteFloatPolicy::PassThrough;
    let budget = options.budget.get_or_insert_with(Default::default);
    let bound = body.len().saturating_add(1024);
    budget.max_events = bound;
    budget.max_nodes = bound;
    budget.max_total_scalar_bytes = bound;
    let mut path = String::new();
    let parsed = serde_saphyr::with_deserializer_from_str_with_options(body, options, |de| {
        serde_path_to_error::deserialize::<_, OneKey<T>>(de).map_err(|e| {
            path = e.path().to_string();
            e.into_inner()
        })
    });
    parsed
        .map(|OneKey(value)| value)
        .map_err(|e| describe(&path, &e, header_line))
}

/// `path: message (line, column)`, the position counted from the start of the file, not the
/// body; the parser's own body-relative positions are dropped from the message.
fn describe(path: &str, e: &serde_saphyr::Error, header_line: usize) -> String {
    let text = e.to_string();
    let text = text.trim().trim_start_matches("error: ");
    let message = match e.location() {
        Some(loc) => {
            let prefix = format!("line {} column {}: ", loc.line(), loc.column());
            let message = text.strip_prefix(&prefix).unwrap_or(text);
            let message = message.split(" at line ").next().unwrap_or(message);
            format!(
                "{message} (line {}, column {})",
                header_line as u64 + loc.line(),
                loc.column()
            )
        }
        None => text.to_string(),
    };
    if path.is_empty() || path == "." {
        message
    } else {
        format!("{path}: {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rewrites_only_whole_value_scalars() {
        let body = "a: Infinity\nb: {x: -Infinity, y: NaN}\nc: Infinity Blade\nInfinity: 1\n- NaN\nd: 'NaN'\ne: [Infinity]\n";
        let out = unity_floats(body);
        assert_eq!(
            out,
            "a: .Inf\nb: {x: -.Inf, y: .NaN}\nc: Infinity Blade\nInfinity: 1\n- .NaN\nd: 'NaN'\ne: [.Inf]\n"
        );
        assert!(matches!(unity_floats("a: 1\n"), Cow::Borrowed(_)));
        let mut s = "-.Inf".to_string();
        restore(&mut s);
        assert_eq!(s, "-Infinity");
    }

    #[test]
    fn references_become_numbered_externals() {
        let mut ext = Externals::default();
        let local = YamlRef {
            file_id: Int(5),
            ..YamlRef::default()
        };
        let far = YamlRef {
            file_id: Int(7),
            guid: Some("ab".into()),
            kind: Some(Int(3)),
        };
        assert_eq!(
            ext.pptr(&local),
            PPtr {
                m_FileID: Int(0),
                m_PathID: Int(5)
            }
        );
        assert_eq!(
            ext.pptr(&far),
            PPtr {
                m_FileID: Int(1),
                m_PathID: Int(7)
            }
        );
        assert_eq!(ext.pptr(&far).m_FileID, Int(1));
        assert_eq!(ext.list.len(), 1);
        assert_eq!(local.local(), Some(5));
        assert_eq!(far.local(), None);
    }

    #[test]
    fn errors_name_the_field_and_file_line() {
        #[derive(Debug, Deserialize)]
        struct S {
            #[allow(dead_code)]
            a: Vec<f32>,
        }
        let doc = Document {
            class_id: 1,
            file_id: 1,
            stripped: false,
            line: 10,
            body: "",
        };
        let e = from_body::<S>(&doc, "Thing:\n  a: [1, x]\n").unwrap_err();
        assert!(e.contains("Thing.a[1]"), "{e}");
        assert!(e.contains("(line 12,"), "{e}");
        assert!(from_body::<S>(&doc, "  \n").is_err());
        assert!(from_body::<S>(&doc, "{}\n").is_err());
    }
}
