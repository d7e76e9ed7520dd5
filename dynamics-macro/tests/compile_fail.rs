//! `robot_dynamics!` turns bad arguments into compile errors spanned on the
//! argument at fault (the path literal for file errors, whose message starts
//! with the file name), checked against the committed `.stderr` files of
//! `tests/compile_fail/` (`TRYBUILD=overwrite` rewrites them). The cases call
//! the macro through the facade, as a controller crate does; they live in
//! this crate so that trybuild's crate has its few dev-dependencies only,
//! not the facade's (criterion, plotters, clarabel, ...).

#[test]
fn macro_errors() {
    // trybuild compiles the cases in a crate of its own under target/: relative
    // URDF paths must still resolve against the workspace root.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap();
    std::env::set_var("RBDGEN_MANIFEST_DIR", root);
    trybuild::TestCases::new().compile_fail("tests/compile_fail/*.rs");
}
