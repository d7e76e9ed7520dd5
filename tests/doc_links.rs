//! The links of the README and of docs/*.md: every relative link names a
//! file of the repository that is not empty, and every `#anchor` (within the
//! page or on a linked Markdown page) is the slug of one of that page's
//! headings, as GitHub makes it (lower case; letters, digits, `-` and `_`
//! kept, spaces made `-`, everything else dropped). A page emptied or a
//! heading renamed without its links fails here.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// GitHub's anchor for a heading's text.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The lines of a Markdown page outside fenced code blocks.
fn prose(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The anchors of a Markdown page's headings.
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .filter(|line| line.starts_with('#'))
        .map(|line| slug(line.trim_start_matches('#')))
        .collect()
}

/// The targets of a page's inline links `[text](target)` outside code blocks
/// and code spans: relative ones only (no scheme).
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        // Code spans removed, so that `a[i](x)` in code is not a link.
        let prose: String = line
            .split('`')
            .enumerate()
            .filter(|(k, _)| k % 2 == 0)
            .map(|(_, s)| s)
            .collect::<Vec<_>>()
            .join(" ");
        let mut rest = prose.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            let target = after[..end].split_whitespace().next().unwrap_or("");
            if !target.contains("://") && !target.starts_with("mailto:") && !target.is_empty() {
                out.push(target.to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

#[test]
fn readme_and_docs_links_resolve() {
    let mut pages: Vec<PathBuf> = vec![root().join("README.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut checked = 0;
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        assert!(!text.trim().is_empty(), "{} is empty", page.display());
        for target in links(&text) {
            let (file, anchor) = match target.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (target.as_str(), None),
            };
            let linked = if file.is_empty() {
                page.clone()
            } else {
                page.parent().unwrap().join(file)
            };
            assert!(
                linked.exists(),
                "{}: link to {target}: no such file",
                page.display()
            );
            if linked.is_file() && linked.extension().is_some_and(|e| e == "md") {
                let linked_text = std::fs::read_to_string(&linked).unwrap();
                assert!(
                    !linked_text.trim().is_empty(),
                    "{}: link to {target}: the page is empty",
                    page.display()
                );
                if let Some(anchor) = anchor {
                    assert!(
                        anchors(&linked_text).contains(anchor),
                        "{}: link to {target}: no heading has that anchor",
                        page.display()
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(
        checked > 50,
        "only {checked} links found: the parser is off"
    );
}

#[test]
fn slugs_are_githubs() {
    assert_eq!(
        slug(" Single precision (`--scalar f32`)"),
        "single-precision---scalar-f32"
    );
    assert_eq!(slug(" `rbdgen verify` on Go2+Z1"), "rbdgen-verify-on-go2z1");
    assert_eq!(
        slug(" The joint angles' trigonometry"),
        "the-joint-angles-trigonometry"
    );
}
