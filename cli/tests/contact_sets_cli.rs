//! `--contact-set NAME=LINK:kind,...` on the command line: a submodule per
//! named set with its contact functions and `NC`, the command line in the
//! header, and a bad set refused with exit status 2 naming it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rbdgen(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rbdgen"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

#[test]
fn generate_emits_one_submodule_per_set() {
    let out = rbdgen(&[
        "generate",
        "models/go2.urdf",
        "--floating-base",
        "--functions",
        "rnea,contact_jacobian",
        "--contact-set",
        "stance=FL_foot:point,FR_foot:point,RL_foot:point,RR_foot:point",
        "--contact-set",
        "flight=",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("pub mod stance {"));
    assert!(text.contains("pub mod flight {"));
    assert!(text.contains("pub const NC: usize = 12;"));
    assert!(text.contains("pub const NC: usize = 0;"));
    assert_eq!(text.matches("pub fn contact_jacobian(").count(), 2);
    assert_eq!(
        text.matches("pub fn rnea(").count(),
        1,
        "rnea once, at the top"
    );
    assert!(text.contains(
        "--contact-set stance=FL_foot:point,FR_foot:point,RL_foot:point,RR_foot:point --contact-set flight="
    ));
}

#[test]
fn bad_sets_are_refused_naming_them() {
    for (set, message) in [
        ("Stance=FL_foot:point", "contact set `Stance`"),
        ("lanes=FL_foot:point", "contact set `lanes`"),
        ("stance", "--contact-set `stance`: expected NAME=LINK:point"),
        ("stance=FL_fot:point", "FL_fot"),
    ] {
        let out = rbdgen(&[
            "generate",
            "models/go2.urdf",
            "--floating-base",
            "--functions",
            "contact_jacobian",
            "--contact-set",
            set,
        ]);
        assert_eq!(out.status.code(), Some(2), "{set}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{set}: {stderr}");
    }
}
