//! `robot_dynamics!` turns bad arguments into compile errors spanned on the
//! argument at fault (the path literal for file errors, whose message starts
//! with the file name), checked against the committed `.stderr` files of
//! `tests/compile_fail/` (`TRYBUILD=overwrite` rewrites them).

#[test]
fn macro_errors() {
    // trybuild compiles the cases in a crate of its own under target/: relative
    // URDF paths must still resolve against this package.
    std::env::set_var("RBDGEN_MANIFEST_DIR", env!("CARGO_MANIFEST_DIR"));
    trybuild::TestCases::new().compile_fail("tests/compile_fail/*.rs");
}
