//! `docs/architecture.md` names files a newcomer is told to open or edit:
//! every path it gives (`symbolic/src/graph.rs`, `runtime/src/model/{mod.rs,
//! setup.rs}`, `tests/generated_*.rs`, `runtime/src/algorithms/<file>.rs`)
//! must match a file or directory of the repository, so that a move or a
//! rename shows up here instead of in a reader's failed search.

use std::path::{Path, PathBuf};

/// The directories a path of the page starts with.
const TOP: &[&str] = &[
    "runtime/",
    "symbolic/",
    "dynamics-macro/",
    "cli/",
    "src/",
    "tests/",
    "examples/",
    "benches/",
    "docs/",
    "scripts/",
    "models/",
    "fuzz/",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The path-like words of `text`: runs of path characters that start with
/// one of [`TOP`], with `{a, b}` groups kept whole.
fn paths(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut braces = 0;
    for c in text.chars() {
        let path_char = c.is_ascii_alphanumeric() || "_-./*<>{},".contains(c);
        match c {
            '{' => braces += 1,
            '}' => braces -= 1,
            _ => {}
        }
        if path_char || (braces > 0 && c == ' ') {
            if c != ' ' {
                word.push(c);
            }
        } else {
            braces = 0;
            words.push(std::mem::take(&mut word));
        }
    }
    words.push(word);
    words
        .into_iter()
        .map(|w| w.trim_end_matches(['.', ',', ':']).to_string())
        .filter(|w| TOP.iter().any(|t| w.starts_with(t)))
        .collect()
}

/// `a/{b,c}/d` as `a/b/d` and `a/c/d` (one group).
fn expand(path: &str) -> Vec<String> {
    match (path.find('{'), path.find('}')) {
        (Some(open), Some(close)) if open < close => path[open + 1..close]
            .split(',')
            .flat_map(|alt| expand(&format!("{}{alt}{}", &path[..open], &path[close + 1..])))
            .collect(),
        _ => vec![path.to_string()],
    }
}

/// Whether `name` matches `pattern`, whose `*` and `<...>` stand for any text.
fn matches(pattern: &str, name: &str) -> bool {
    let mut pattern = pattern.to_string();
    while let (Some(open), Some(close)) = (pattern.find('<'), pattern.find('>')) {
        pattern.replace_range(open..=close, "*");
    }
    let parts: Vec<&str> = pattern.split('*').collect();
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if parts.len() == 1 {
        return name == first;
    }
    if !name.starts_with(first) || !name[first.len()..].ends_with(last) {
        return false;
    }
    let mut rest = &name[first.len()..name.len() - last.len()];
    for middle in &parts[1..parts.len() - 1] {
        match rest.find(middle) {
            Some(k) => rest = &rest[k + middle.len()..],
            None => return false,
        }
    }
    true
}

/// Whether a file or directory of the repository matches `path` (a pattern
/// in its last component only).
fn exists(path: &str) -> bool {
    let full = root().join(path.trim_end_matches('/'));
    if !path.contains(['*', '<']) {
        return full.exists();
    }
    let (dir, name) = (full.parent().unwrap_or(Path::new(".")), full.file_name());
    let name = name.and_then(|n| n.to_str()).unwrap_or_default();
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| matches(name, &e.file_name().to_string_lossy()))
    })
}

#[test]
fn every_path_of_the_architecture_page_exists() {
    let page = std::fs::read_to_string(root().join("docs/architecture.md")).unwrap();
    let named: Vec<String> = paths(&page).iter().flat_map(|p| expand(p)).collect();
    assert!(named.len() > 50, "too few paths found: {named:?}");
    let missing: Vec<&String> = named.iter().filter(|p| !exists(p)).collect();
    assert!(
        missing.is_empty(),
        "docs/architecture.md names missing files: {missing:?}"
    );
}

#[test]
fn paths_are_read_whole() {
    assert_eq!(
        paths("see `runtime/src/model/{mjcf/mod.rs, load.rs}`, then src/build.rs."),
        ["runtime/src/model/{mjcf/mod.rs,load.rs}", "src/build.rs"]
    );
    assert_eq!(
        expand("examples/go2_z1/{dynamics,controller}"),
        ["examples/go2_z1/dynamics", "examples/go2_z1/controller"]
    );
    assert!(matches("generated_*.rs", "generated_step.rs"));
    assert!(matches("<file>.rs", "rnea.rs"));
    assert!(!matches("*.json", "fext_derivatives"));
}

/// The modules of `dir` (its files and directories, `lib.rs` and `main.rs`
/// left out) and, for each, the sibling modules its code names as
/// `crate::NAME` (test modules and comment lines left out).
fn module_imports(
    dir: &Path,
) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    let mut imports = std::collections::BTreeMap::new();
    let mut files = vec![dir.to_path_buf()];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(
                std::fs::read_dir(&path)
                    .unwrap()
                    .flatten()
                    .map(|e| e.path()),
            );
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path
            .strip_prefix(dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let module = relative
            .split('/')
            .next()
            .unwrap()
            .trim_end_matches(".rs")
            .to_string();
        if module == "lib" || module == "main" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let code = text.split("#[cfg(test)]").next().unwrap();
        let names: &mut std::collections::BTreeSet<String> =
            imports.entry(module.clone()).or_default();
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            // `crate::a::..` and `crate::{a::.., b}`.
            for (k, _) in line.match_indices("crate::") {
                let rest = &line[k + "crate::".len()..];
                let words = match rest.strip_prefix('{') {
                    Some(group) => group.split('}').next().unwrap_or_default(),
                    None => rest,
                };
                for word in words.split(',').map(|w| w.trim()) {
                    let name: String = word
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                        .collect();
                    if !name.is_empty() && name != module {
                        names.insert(name);
                    }
                    if !rest.starts_with('{') {
                        break;
                    }
                }
            }
        }
    }
    let known: std::collections::BTreeSet<String> = imports.keys().cloned().collect();
    for names in imports.values_mut() {
        names.retain(|n| known.contains(n));
    }
    imports
}

/// A cycle of `imports`, if there is one.
fn cycle(
    imports: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
) -> Option<Vec<String>> {
    fn visit(
        m: &str,
        imports: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        state: &mut std::collections::BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(m.to_string(), 1);
        stack.push(m.to_string());
        for n in &imports[m] {
            match state.get(n).copied().unwrap_or(0) {
                1 => {
                    let from = stack.iter().position(|s| s == n).unwrap();
                    return Some([&stack[from..], std::slice::from_ref(n)].concat());
                }
                0 => {
                    if let Some(c) = visit(n, imports, state, stack) {
                        return Some(c);
                    }
                }
                _ => {}
            }
        }
        stack.pop();
        state.insert(m.to_string(), 2);
        None
    }
    let mut state = std::collections::BTreeMap::new();
    for m in imports.keys() {
        if !state.contains_key(m) {
            if let Some(c) = visit(m, imports, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

/// The floors of the generator (and the runtime's top-level modules) import
/// downwards only: no module reaches, through `crate::` paths, a module
/// that reaches it back.
#[test]
fn the_modules_of_the_generator_and_the_runtime_form_a_dag() {
    for dir in ["symbolic/src", "runtime/src"] {
        let imports = module_imports(&root().join(dir));
        assert!(imports.len() > 8, "{dir}: too few modules read");
        if let Some(c) = cycle(&imports) {
            panic!(
                "{dir}: the modules {} import each other in a circle",
                c.join(" → ")
            );
        }
    }
    let circle = [("a", vec!["b"]), ("b", vec!["a"])]
        .into_iter()
        .map(|(m, n)| (m.to_string(), n.into_iter().map(String::from).collect()))
        .collect();
    assert!(cycle(&circle).is_some(), "a circle of two is found");
}
