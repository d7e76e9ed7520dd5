//! `rbdgen::build`: the build-script route writes `$OUT_DIR/NAME.rs`, the
//! generator's text byte for byte inside `pub mod NAME { }`, asks cargo to
//! rerun on the URDF, refuses bad input with the file's name. The example crate
//! `examples/build-script` is a workspace member: `cargo test --workspace`
//! builds it and runs its test.

use std::path::{Path, PathBuf};

use rbdgen::build::{BuildError, Config, ContactKind, Function, ScalarType};
use rbdgen::symbolic::{generate, Options};

/// The workspace root, where the models are.
fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// An empty scratch directory per test: tests run in parallel.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("build_script")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// What `Config::generate` must write for `options`: `rbdgen generate`'s
/// text (the command line writes exactly `generate()`'s, committed_code.rs)
/// inside `pub mod NAME { }`.
fn expected(name: &str, urdf: &str, options: &Options) -> String {
    let text = std::fs::read_to_string(root().join(urdf)).unwrap();
    let module = generate(&text, options).unwrap();
    format!("pub mod {name} {{\n{module}}}\n")
}

/// The one test of this file that touches the environment: `OUT_DIR` as
/// cargo sets it for a build script.
#[test]
fn writes_into_out_dir_what_the_generator_returns() {
    let out = scratch("out_dir");
    std::env::set_var("OUT_DIR", &out);
    let urdf = root().join("models/go2_z1.urdf");
    let config = Config::new(&urdf)
        .floating_base()
        .functions(&[Function::Rnea, Function::Crba])
        .std();
    let written = config.generate().unwrap();
    std::env::remove_var("OUT_DIR");
    assert_eq!(written, out.join("go2_z1.rs"));
    let options = Options {
        floating_base: true,
        functions: [Function::Rnea, Function::Crba].into_iter().collect(),
        // An absolute path is named by its file name in the header.
        source_name: urdf.to_string_lossy().into_owned(),
        std: true,
        ..Options::default()
    };
    assert_eq!(config.options(), &options);
    let bytes = std::fs::read_to_string(&written).unwrap();
    assert_eq!(bytes, expected("go2_z1", "models/go2_z1.urdf", &options));
    assert!(
        bytes.contains("//! Source: `go2_z1.urdf`"),
        "{}",
        &bytes[..400]
    );
    // Generating again leaves the file alone.
    let modified = std::fs::metadata(&written).unwrap().modified().unwrap();
    Config::new(&urdf)
        .floating_base()
        .functions(&[Function::Rnea, Function::Crba])
        .std()
        .out_dir(&out)
        .generate()
        .unwrap();
    assert_eq!(
        std::fs::metadata(&written).unwrap().modified().unwrap(),
        modified
    );
}

/// Every option reaches the generator as the command line's flag does.
#[test]
fn every_option_reaches_the_generator() {
    let out = scratch("options");
    let urdf = "models/z1.urdf";
    let config = Config::new(root().join(urdf))
        .functions(&[Function::Aba, Function::ContactJacobian])
        .scalar(ScalarType::F32)
        .simplify()
        .armature(&[("joint3", 0.02)])
        .contacts(&[("link06", ContactKind::Point)])
        .parameters(&["link06"])
        .frames(&["link06"])
        .lanes(4)
        .module_name("arm")
        .out_dir(&out);
    let options = config.options().clone();
    assert_eq!(
        (options.scalar, options.simplify, options.lanes),
        (ScalarType::F32, true, Some(4))
    );
    assert_eq!(options.armature, [("joint3".to_string(), 0.02)]);
    assert_eq!(
        options.contacts,
        [("link06".to_string(), ContactKind::Point)]
    );
    assert_eq!(options.parameters, ["link06"]);
    assert_eq!(options.frames, Some(vec!["link06".to_string()]));
    let written = config.generate().unwrap();
    assert_eq!(written, out.join("arm.rs"));
    let text = std::fs::read_to_string(written).unwrap();
    assert_eq!(text, expected("arm", urdf, &options));
    // The header names the contact set, in its options and its command line.
    assert!(
        text.contains("functions = [aba, contact_jacobian], contacts = [link06: point]."),
        "{}",
        text.lines().take(8).collect::<Vec<_>>().join("\n")
    );
    assert!(text.contains("--contacts link06:point"));
}

/// Bad input is an error naming the file, not a panic.
#[test]
fn errors_name_the_file() {
    let out = scratch("errors");
    let message = |r: Result<PathBuf, BuildError>| r.unwrap_err().to_string();
    let missing = message(Config::new("models/no_such.urdf").out_dir(&out).generate());
    assert!(missing.starts_with("models/no_such.urdf: "), "{missing}");
    let bad_frame = message(
        Config::new(root().join("models/z1.urdf"))
            .frames(&["hand"])
            .out_dir(&out)
            .generate(),
    );
    assert!(
        bad_frame.contains("z1.urdf: ") && bad_frame.contains("hand"),
        "{bad_frame}"
    );
    let bad_name = message(Config::new("models/go2-z1.urdf").out_dir(&out).generate());
    assert!(
        bad_name.contains("`go2-z1` is not a Rust identifier"),
        "{bad_name}"
    );
    let lanes = message(
        Config::new(root().join("models/z1.urdf"))
            .lanes(3)
            .out_dir(&out)
            .generate(),
    );
    assert!(
        lanes.contains("z1.urdf: lanes(): 3 lanes with f64"),
        "{lanes}"
    );
    let threads = message(
        Config::new(root().join("models/z1.urdf"))
            .threads()
            .out_dir(&out)
            .generate(),
    );
    assert!(threads.ends_with("; add lanes()"), "{threads}");
    let too_large = message(
        Config::new(root().join("models/z1.urdf"))
            .functions(&[Function::Rnea])
            .max_ops(100)
            .out_dir(&out)
            .generate(),
    );
    assert!(
        too_large.contains("z1.urdf: `rnea` has ")
            && too_large.ends_with("raise the limit with max_ops()"),
        "{too_large}"
    );
    assert!(
        std::fs::read_dir(&out).unwrap().next().is_none(),
        "wrote nothing"
    );
}

#[test]
fn every_option_has_its_config_method() {
    use rbdgen::build::{Expr, Output, UserFunction};
    use rbdgen::runtime::{Data, InputError, Model};
    use rbdgen::symbolic::{OptionKey, OPTIONS};
    fn first(_: &Model, _: &mut Data<Expr>, x: &[Vec<Expr>]) -> Result<Vec<Expr>, InputError> {
        Ok(vec![x[0][0]])
    }
    let default = Config::new("models/z1.urdf");
    for spec in OPTIONS {
        let c = default.clone();
        let (method, c) = match spec.key {
            OptionKey::FloatingBase => ("floating_base", c.floating_base()),
            OptionKey::Mimic => ("mimic", c.mimic()),
            OptionKey::Functions => ("functions", c.functions(&[Function::Rnea])),
            OptionKey::Jacobians => ("jacobians", c.jacobians(&[Function::Rnea])),
            OptionKey::Scalar => ("scalar", c.scalar(ScalarType::F32)),
            OptionKey::Std => ("std", c.std()),
            OptionKey::Simplify => ("simplify", c.simplify()),
            OptionKey::Armature => ("armature", c.armature(&[("joint1", 0.1)])),
            OptionKey::Contacts => ("contacts", c.contacts(&[("link06", ContactKind::Point)])),
            OptionKey::ContactSets => ("contact_set", c.contact_set("flight", &[])),
            OptionKey::Parameters => ("parameters", c.parameters(&["link06"])),
            OptionKey::Frames => ("frames", c.frames(&["link06"])),
            OptionKey::Lanes => ("lanes", c.lanes(4)),
            OptionKey::Threads => ("threads", c.threads()),
            OptionKey::Strict => ("strict", c.strict()),
            OptionKey::OneLimbAtATime => ("one_limb_at_a_time", c.one_limb_at_a_time()),
            OptionKey::MaxOps => ("max_ops", c.max_ops(1000)),
            OptionKey::UnrollLimit => ("unroll_limit", c.unroll_limit(1000)),
            OptionKey::CApi => ("c_api", c.c_api()),
            OptionKey::Casadi => ("casadi", c.casadi()),
            OptionKey::UserFunctions => (
                "user_function",
                c.user_function(UserFunction::new("f", Output::Scalar, first)),
            ),
        };
        assert_eq!(method, spec.method, "{:?}", spec.key);
        // `c_api()` and `casadi()` take the module's name at generation time.
        if spec.key != OptionKey::CApi && spec.key != OptionKey::Casadi {
            assert_ne!(
                format!("{:?}", c.options()),
                format!("{:?}", default.options()),
                "{method}() changes no option"
            );
        }
    }
}
