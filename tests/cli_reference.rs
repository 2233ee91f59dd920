//! The book's command-line reference is the binary's own text: each `docs/cli/help/NAME.txt`
//! (included by the page `docs/cli/VERB.md`) must equal `mcts VERB --help`, so the reference
//! cannot drift from the arguments. `bash scripts/cli-reference.sh` writes the files again.
//! `mcts train`'s page is the `--features train` build's help (the default build's `train` only
//! says how to get it), so it is compared only in that build (`scripts/test.sh` runs this file
//! there too).

use std::process::Command;

/// Each reference file's name and the verb's words, in the order of `mcts --help`. The script
/// `scripts/cli-reference.sh` reads this list (one entry a line, in this exact shape).
const PAGES: &[(&str, &[&str])] = &[
    ("replay", &["replay"]),
    ("bench", &["bench"]),
    ("search", &["search"]),
    ("arena", &["arena"]),
    ("gtp", &["gtp"]),
    ("match", &["match"]),
    ("solve", &["solve"]),
    ("review", &["review"]),
    ("schema", &["schema"]),
    ("patterns", &["patterns"]),
    ("patterns-train", &["patterns", "train"]),
    ("train", &["train"]),
];

/// The text `mcts WORDS --help` prints (standard output, status 0).
fn help(words: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_mcts")).args(words).arg("--help").output().expect("run mcts");
    assert!(out.status.success(), "mcts {} --help: {}", words.join(" "), String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("help is UTF-8")
}

#[test]
fn cli_reference_is_current() {
    for (name, words) in PAGES {
        if *name == "train" && !cfg!(feature = "train") {
            continue;
        }
        let path = format!("{}/docs/cli/help/{name}.txt", env!("CARGO_MANIFEST_DIR"));
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == help(words),
            "{path} is not the text of `mcts {} --help` (stale or missing): run `bash scripts/cli-reference.sh`",
            words.join(" ")
        );
    }
}

#[test]
fn every_verb_has_a_reference_page() {
    let top = help(&[]);
    let commands = top.split("Commands:").nth(1).expect("mcts --help lists its commands");
    for line in commands.lines().take_while(|l| !l.trim().is_empty()) {
        let verb = line.split_whitespace().next().unwrap_or_default();
        if verb == "help" {
            continue;
        }
        assert!(PAGES.iter().any(|(n, _)| *n == verb), "mcts {verb} has no page in tests/cli_reference.rs PAGES");
        let page = format!("{}/docs/cli/{verb}.md", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&page).unwrap_or_default();
        assert!(text.contains(&format!("{{{{#include help/{verb}.txt}}}}")), "{page} does not include help/{verb}.txt");
    }
}
