//! Every `clipscope ...` line in the README's and the guide's code blocks names a real
//! subcommand and real options: the documentation cannot drift from the command line.
//!
//! - Every such line (in ```` ```sh ````, ```` ```text ```` or plain blocks): its subcommand's
//!   `--help` succeeds, and every `--option` (and `-o`) it names is in that help.
//! - Example lines (```` ```sh ```` blocks, no `...` placeholders) are also parsed for real:
//!   the line's arguments with `--help` appended must parse, so option values are checked by
//!   the same parsers as a real run (numbers, lists, value choices) before clap shows the help.
//!
//! Blocks whose info string says `pending` (a feature described before it lands on this
//! branch) are skipped, each with a printed line.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `clipscope` line of a code block, and where it is.
struct DocLine {
    file: PathBuf,
    line: usize,
    words: Vec<String>,
    /// From an ```` ```sh ```` block: an example meant to be run as written.
    example: bool,
}

impl DocLine {
    fn at(&self) -> String {
        format!("{}:{}", self.file.display(), self.line)
    }

    /// The subcommand, or "" for `clipscope` alone or with top-level options.
    fn subcommand(&self) -> &str {
        self.words
            .get(1)
            .filter(|w| !w.starts_with('-'))
            .map_or("", String::as_str)
    }
}

/// README.md and every Markdown file of the guide.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("README.md")];
    let mut dirs = vec![root.join("docs/src")];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Splits a shell line into words: double and single quotes group, `#` outside quotes starts
/// a comment.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut in_word = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '#') if !in_word => break,
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

/// The `clipscope` lines of one Markdown text's code blocks (shell, text or unmarked).
fn command_lines(file: &Path, text: &str) -> Vec<DocLine> {
    let mut found = Vec::new();
    let mut block: Option<String> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(info.trim().to_string()),
            };
            continue;
        }
        let Some(info) = &block else { continue };
        let language = info.split([',', ' ']).next().unwrap_or("");
        if !matches!(language, "" | "sh" | "text" | "console" | "bash") {
            continue;
        }
        let words = shell_words(trimmed.trim_start_matches("$ "));
        if words.first().map(String::as_str) != Some("clipscope") {
            continue;
        }
        if info.contains("pending") {
            println!("{}:{}: skipped (a pending feature)", file.display(), n + 1);
            continue;
        }
        found.push(DocLine {
            file: file.to_path_buf(),
            line: n + 1,
            example: language == "sh" && !trimmed.contains("..."),
            words,
        });
    }
    found
}

fn clipscope(args: &[&str]) -> (bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_clipscope"))
        .args(args)
        .output()
        .expect("clipscope runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.success(), text)
}

/// The options a line names: `--name` words (also inside `[--name X]` and `--name=X`) and
/// `-o`.
fn options(words: &[String]) -> Vec<String> {
    words
        .iter()
        .map(|w| w.trim_start_matches(['[', '(']))
        .filter(|w| w.starts_with('-') && w.len() > 1)
        .map(|w| {
            let end = w[1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .map_or(w.len(), |i| i + 1);
            w[..end].to_string()
        })
        .filter(|w| w != "-" && w != "--")
        .collect()
}

#[test]
fn every_documented_command_names_real_subcommands_and_options() {
    let lines: Vec<DocLine> = documents()
        .iter()
        .flat_map(|f| command_lines(f, &std::fs::read_to_string(f).expect("readable")))
        .collect();
    assert!(
        lines.len() >= 20,
        "only {} clipscope lines found in the README and the guide",
        lines.len()
    );
    let mut helps: BTreeMap<String, (bool, String)> = BTreeMap::new();
    let mut problems = Vec::new();
    for line in &lines {
        let sub = line.subcommand().to_string();
        let (ok, help) = helps.entry(sub.clone()).or_insert_with(|| {
            let args: Vec<&str> = [sub.as_str(), "--help"]
                .into_iter()
                .filter(|a| !a.is_empty())
                .collect();
            clipscope(&args)
        });
        if !*ok {
            problems.push(format!("{}: `clipscope {sub}` is no subcommand", line.at()));
            continue;
        }
        for option in options(&line.words) {
            let named = help
                .split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == '=')
                .any(|w| w == option);
            if !named {
                problems.push(format!(
                    "{}: `clipscope {sub}` has no option {option}",
                    line.at()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_example_parses_as_written() {
    let mut checked = 0;
    let mut problems = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).expect("readable");
        for line in command_lines(&file, &text).iter().filter(|l| l.example) {
            let mut args: Vec<&str> = line.words[1..].iter().map(String::as_str).collect();
            args.push("--help");
            let (ok, output) = clipscope(&args);
            if !ok {
                problems.push(format!("{}: {}\n{output}", line.at(), line.words.join(" ")));
            }
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} examples found");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn words_and_options_are_read_as_a_shell_and_clap_would() {
    let words = shell_words(r#"clipscope animate a.bundle --script "0:Speed=1;2:Jump!" # note"#);
    assert_eq!(
        words,
        [
            "clipscope",
            "animate",
            "a.bundle",
            "--script",
            "0:Speed=1;2:Jump!"
        ]
    );
    let words = shell_words("clipscope export PATH... [--mode linear|exact] -o OUT.glb [--fps=N]");
    assert_eq!(options(&words), ["--mode", "-o", "--fps"]);
}
