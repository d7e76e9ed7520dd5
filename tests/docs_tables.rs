//! The docs' two reference tables against the code, so that they cannot
//! drift: the README's function table lists exactly `Function::ALL`, in its
//! order, and the guide's options table has one row per field of `Options`;
//! and docs/python.md's install line against the Python examples' imports.
//!
//! What this reads from the code: `rbdgen::symbolic::Function::ALL` and
//! `Function::name`, and the fields of `rbdgen::symbolic::Options` (by an
//! exhaustive destructuring in `option_fields`, which stops compiling when a
//! field is added or removed), and `OPTIONS`, the table each front end's
//! spelling of an option comes from.

use rbdgen::symbolic::{Function, Options, OPTIONS};

fn read(path: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The first cell of every row of the first table after the line `heading`
/// (the header row and the separator left out).
fn first_column(text: &str, heading: &str) -> Vec<String> {
    let mut lines = text
        .lines()
        .skip_while(|l| l.trim_end() != heading)
        .skip(1)
        .skip_while(|l| !l.starts_with('|'));
    let header = lines
        .next()
        .unwrap_or_else(|| panic!("no table after `{heading}`"));
    assert!(header.starts_with('|'), "no table after `{heading}`");
    lines
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .map(|row| row.split('|').nth(1).unwrap_or("").trim().to_string())
        .collect()
}

/// The name in a cell `` `name(args)` `` or `` `name` ``.
fn name(cell: &str) -> &str {
    let cell = cell.trim_matches('`');
    cell.split('(').next().unwrap_or(cell).trim()
}

/// Every field of `Options`. One list: the destructuring has no `..`, so
/// a field added to `Options` or removed from it is a compile error here
/// until the list follows (and then the table test below).
fn option_fields() -> Vec<&'static str> {
    macro_rules! fields {
        ($($field:ident),* $(,)?) => {{
            let Options { $($field: _),* } = Options::default();
            vec![$(stringify!($field)),*]
        }};
    }
    // Braces: rustfmt leaves the list as written.
    fields! {
        floating_base, mimic, functions, source_name, scalar, simplify, std, armature,
        contacts, parameters, frames, lanes, threads, strict, max_ops, unroll_limit,
        one_limb_at_a_time, jacobians,
        user_functions, c_api, casadi, contact_sets
    }
}

#[test]
fn readme_function_table_is_function_all() {
    let readme = read("README.md");
    let rows = first_column(&readme, "## Functions");
    let listed: Vec<&str> = rows.iter().map(|c| name(c)).collect();
    let all: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
    assert_eq!(
        listed, all,
        "README.md, \"## Functions\": one row per function of `Function::ALL`, in its order"
    );
}

#[test]
fn guide_options_table_names_every_option() {
    let guide = read("docs/guide.md");
    let rows = first_column(&guide, "## Options");
    let mut listed: Vec<&str> = rows.iter().map(|c| name(c)).collect();
    let mut fields = option_fields();
    listed.sort_unstable();
    fields.sort_unstable();
    assert_eq!(
        listed, fields,
        "docs/guide.md, \"## Options\": one row per field of `Options`"
    );
}

#[test]
fn guide_options_table_spells_each_option_as_options_does() {
    let guide = read("docs/guide.md");
    let rows: Vec<&str> = guide
        .lines()
        .skip_while(|l| l.trim_end() != "## Options")
        .filter(|l| l.starts_with("| `"))
        .collect();
    for spec in OPTIONS {
        let row = rows
            .iter()
            .find(|row| row.split('|').nth(1).map(|c| name(c.trim())) == Some(spec.name))
            .unwrap_or_else(|| panic!("docs/guide.md, \"## Options\": no row for `{}`", spec.name));
        // `\|` is a bar inside a cell.
        let row = row.replace("\\|", "/");
        let cells: Vec<&str> = row.split('|').collect();
        if let Some(key) = spec.macro_key {
            assert!(
                cells[2].contains(&format!("`{key}")),
                "{}: macro key `{key}` in {row}",
                spec.name
            );
        }
        if let Some(flag) = spec.flag {
            assert!(
                cells[3].contains(&format!("`{flag}")),
                "{}: flag `{flag}` in {row}",
                spec.name
            );
        }
        assert!(
            cells[4].contains(&format!(".{}(", spec.method)),
            "{}: method `{}` in {row}",
            spec.name,
            spec.method
        );
    }
}

/// docs/python.md's install line holds every package that the Python
/// examples import beside the standard library and the generated module.
#[test]
fn python_install_line_covers_the_examples_imports() {
    let doc = read("docs/python.md");
    let install = doc
        .lines()
        .find(|l| l.starts_with("python -m pip install"))
        .expect("docs/python.md: an install line");
    let packages: Vec<&str> = install
        .split('#')
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .skip(4)
        .collect();
    let generated = doc
        .split("--python ")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .find(|name| *name != "NAME")
        .expect("docs/python.md: a `--python NAME` in its build commands");
    const STANDARD: &[&str] = &["argparse", "math", "os", "pathlib", "sys", "time"];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/python");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "py") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let Some(rest) = line
                .strip_prefix("import ")
                .or_else(|| line.strip_prefix("from "))
            else {
                continue;
            };
            let module = rest.split(['.', ' ']).next().unwrap_or_default();
            // The generated module is what the doc builds (`--python NAME`).
            if STANDARD.contains(&module) || module == generated {
                continue;
            }
            assert!(
                packages.contains(&module),
                "{}: imports `{module}`, which `{install}` does not install",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "{checked} third-party imports checked");
}

/// The build and run commands of docs/cpp.md and docs/python.md write their
/// outputs under a `target/` directory, which .gitignore covers, so that
/// following them leaves the work tree clean: every path after `-o`,
/// `--crate`, `--out` or `pip install` in their `sh` blocks (but the
/// committed C crate, which `--check` keeps current, and directories made
/// with `mkdir`).
#[test]
fn doc_commands_write_under_target() {
    let ignored = read(".gitignore");
    assert!(ignored.lines().any(|l| l == "target/"), "{ignored}");
    let mut checked = 0;
    for doc in ["docs/cpp.md", "docs/python.md"] {
        let text = read(doc);
        let mut in_sh = false;
        let mut command = String::new();
        for line in text.lines() {
            if line.starts_with("```") {
                in_sh = line == "```sh";
                continue;
            }
            if !in_sh {
                continue;
            }
            let line = line.split(" #").next().unwrap_or_default();
            if let Some(head) = line.strip_suffix('\\') {
                command.push_str(head);
                continue;
            }
            command.push_str(line);
            let words: Vec<&str> = command.split_whitespace().collect();
            for pair in words.windows(2) {
                let path = match pair {
                    ["-o" | "--crate" | "--out", path] => *path,
                    ["install", path] if path.starts_with("./") => *path,
                    _ => continue,
                };
                let path = path.trim_start_matches("./");
                assert!(
                    path.starts_with("target/")
                        || path.contains("/target/")
                        || path == "examples/cpp/go2_z1_c",
                    "{doc}: `{command}` writes `{path}`, outside target/"
                );
                checked += 1;
            }
            command.clear();
        }
    }
    assert!(checked >= 4, "{checked} outputs checked");
}

/// Every target that Cargo.toml keeps out of the README's test command
/// (`test = false`) is run by `scripts/test-long`, and nothing else is named
/// there: the two tiers cover every test target.
#[test]
fn long_tier_runs_every_target_outside_the_test_command() {
    let manifest = read("Cargo.toml");
    let script = read("scripts/test-long");
    let mut outside = Vec::new();
    for block in manifest.split("\n[[").skip(1) {
        let kind = block.split(']').next().unwrap_or("");
        let field = |key: &str| {
            block.lines().find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
            })
        };
        if matches!(kind, "test" | "bench") && field("test").as_deref() == Some("false") {
            let name = field("name").expect("a [[test]] or [[bench]] without a name");
            // benches/stance.rs and lanes.rs are scripts/bench's, not tests.
            if kind == "bench" && name != "dynamics" {
                continue;
            }
            outside.push((kind.to_string(), name));
        }
    }
    assert!(
        !outside.is_empty(),
        "no `test = false` target in Cargo.toml"
    );
    let named: Vec<(String, String)> = script
        .split_whitespace()
        .collect::<Vec<_>>()
        .windows(2)
        .filter(|w| w[0] == "--test" || w[0] == "--bench")
        .map(|w| (w[0].trim_start_matches("--").to_string(), w[1].to_string()))
        .collect();
    let mut a = outside.clone();
    let mut b = named.clone();
    a.sort();
    b.sort();
    assert_eq!(
        a, b,
        "Cargo.toml's `test = false` targets against scripts/test-long's"
    );
}
