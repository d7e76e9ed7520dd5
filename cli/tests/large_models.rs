//! Large models stay quick and bounded: `rbdgen info` on a 200-link serial
//! chain prints the model without tracing any function (operation counts
//! only with `--ops`), and generating its `rnea`, `crba` and `aba` stops at
//! `crba`, whose operation count is above the default `--max-ops`, with exit
//! status 2 and a message naming the function, its count and the limit.

use std::path::PathBuf;
use std::process::{Command, Output};

use rbdgen_symbolic::DEFAULT_MAX_OPS;

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .output()
        .unwrap()
}

/// A serial chain of `n` revolute joints (axes x, y, z in turn), each link
/// 1 kg with its centre of mass 5 cm along the chain, written to a file of
/// this test's own.
fn chain(n: usize, test: &str) -> PathBuf {
    let mut s = format!("<robot name=\"chain{n}\">\n");
    s += "<link name=\"l0\"/>\n";
    for i in 1..=n {
        let axis = ["1 0 0", "0 1 0", "0 0 1"][i % 3];
        s += &format!(
            "<link name=\"l{i}\"><inertial><origin xyz=\"0 0 0.05\"/><mass value=\"1\"/>\
             <inertia ixx=\"0.01\" iyy=\"0.01\" izz=\"0.005\" ixy=\"0\" ixz=\"0\" iyz=\"0\"/>\
             </inertial></link>\n\
             <joint name=\"j{i}\" type=\"revolute\"><parent link=\"l{}\"/><child link=\"l{i}\"/>\
             <origin xyz=\"0 0 0.1\"/><axis xyz=\"{axis}\"/>\
             <limit lower=\"-3\" upper=\"3\" effort=\"10\" velocity=\"10\"/></joint>\n",
            i - 1
        );
    }
    s += "</robot>\n";
    let path = std::env::temp_dir().join(format!("rbdgen-{test}-{}.urdf", std::process::id()));
    std::fs::write(&path, s).unwrap();
    path
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn info_on_a_200_link_chain_prints_the_model_and_counts_nothing() {
    let urdf = chain(200, "info");
    let out = rbdgen(&["info", urdf.to_str().unwrap()]);
    let _ = std::fs::remove_file(&urdf);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("robot chain200: nq = 200, nv = 200"),
        "{stdout}"
    );
    assert!(stdout.contains("  200 j200 "), "{stdout}");
    assert!(
        stdout.contains("operation counts: not computed (`--ops`"),
        "{stdout}"
    );
    assert!(!stdout.contains(" ops ("), "{stdout}");
}

#[test]
fn info_ops_counts_each_function_and_reports_those_over_the_limit() {
    let urdf = chain(3, "info_ops");
    let path = urdf.to_str().unwrap();
    let out = rbdgen(&["info", path, "--ops"]);
    let counted = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rnea = counted
        .lines()
        .find(|l| l.trim_start().starts_with("rnea "))
        .unwrap_or_else(|| panic!("{counted}"));
    let ops: usize = rnea.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(ops > 10, "{rnea}");
    // Beside the count, its machine-code estimate: BYTES_PER_OP per operation.
    let kib = (ops * rbdgen_symbolic::BYTES_PER_OP).div_ceil(1024);
    assert!(
        rnea.ends_with(&format!(", about {kib} KiB of machine code")),
        "{rnea}"
    );
    // With the limit just below rnea's count, rnea is reported as too large and
    // the counting goes on; at its count, it is counted.
    let below = (ops - 1).to_string();
    let out = rbdgen(&["info", path, "--ops", "--max-ops", &below]);
    let limited = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        limited.lines().any(|l| l.trim_start().starts_with("rnea ")
            && l.ends_with(&format!(
                " at least {ops} ops: more than --max-ops {below}, not generated"
            ))),
        "{limited}"
    );
    assert!(limited.contains("integrate "), "{limited}");
    let at = ops.to_string();
    let out = rbdgen(&["info", path, "--ops", "--max-ops", &at]);
    assert!(text(&out.stdout).contains(rnea), "{}", text(&out.stdout));
    let _ = std::fs::remove_file(&urdf);
}

#[test]
fn generating_a_200_link_chain_stops_at_the_default_limit() {
    let urdf = chain(200, "generate");
    let path = urdf.to_str().unwrap();
    let output = urdf.with_extension("rs");
    let out = rbdgen(&[
        "generate",
        path,
        "--functions",
        "rnea,crba,aba",
        "-o",
        output.to_str().unwrap(),
    ]);
    let _ = std::fs::remove_file(&urdf);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(!output.exists());
    let prefix = format!("rbdgen: {path}: `crba` has ");
    let rest = stderr
        .strip_prefix(&prefix)
        .unwrap_or_else(|| panic!("{stderr}"));
    let (ops, rest) = rest.split_once(' ').unwrap();
    let ops: usize = ops.parse().unwrap();
    assert!(ops > DEFAULT_MAX_OPS, "{stderr}");
    assert!(
        rest.starts_with(&format!(
            "operations, more than the limit of {DEFAULT_MAX_OPS} per function"
        )) && rest.ends_with("raise the limit with --max-ops\n")
            && !rest.contains("max_ops"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
