//! The conformance run of `scripts/conformance-mjcf`: every reference file of
//! `$MJCF_CONFORMANCE_DIR` (made by the script from the dm_control models),
//! the runtime against Pinocchio (`pinocchio_*.json`) and MuJoCo
//! (`mujoco_*.json`), a table of the largest relative error of each quantity.
//! Ignored by default: it needs the script's files.

mod common;
mod mjcf_common;

#[test]
#[ignore = "run by scripts/conformance-mjcf"]
fn conformance() {
    let dir = std::env::var("MJCF_CONFORMANCE_DIR").expect("MJCF_CONFORMANCE_DIR");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut failed = Vec::new();
    for path in files {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let (json, model) = mjcf_common::load(&path);
        let errors = if name.starts_with("mujoco_") {
            mjcf_common::against_mujoco(&json, &model)
        } else {
            mjcf_common::against_pinocchio(&json, &model)
        };
        let states = json["states"].as_array().unwrap().len();
        println!(
            "{name}: nq {}, nv {}, njoints {}, {states} states",
            model.nq,
            model.nv,
            model.njoints()
        );
        for note in &errors.notes {
            println!("    note: {note}");
        }
        for (key, (worst, tol, _)) in &errors.worst {
            let verdict = if worst <= tol { "ok" } else { "FAIL" };
            let tol = if tol.is_finite() {
                format!("{tol:.0e}")
            } else {
                "(reported)".into()
            };
            println!("    {key:<62} {worst:9.2e}  {tol:>10}  {verdict}");
        }
        failed.extend(
            errors
                .failures()
                .into_iter()
                .map(|f| format!("{name}: {f}")),
        );
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// `rbdgen: ...` for the file `$MJCF_LOAD`: its size, or the loader's error.
#[test]
#[ignore = "run by scripts/conformance-mjcf"]
fn load() {
    let path = std::env::var("MJCF_LOAD").expect("MJCF_LOAD");
    match rbdgen_runtime::Model::from_mjcf_file(&path, false) {
        Ok(m) => println!("rbdgen: nq {}, nv {}", m.nq, m.nv),
        Err(e) => println!("rbdgen: refused: {e}"),
    }
}
