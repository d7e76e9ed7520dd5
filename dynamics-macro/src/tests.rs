//! The macro's module and a committed file are the same code: the
//! expansion ([`super::module`]) is `Module::tokens` wrapped in a module, and
//! formatting its items gives exactly `generate`'s text.

use quote::{format_ident, quote};
use rbdgen_symbolic::{generate, Options, ScalarType};

fn urdf(relative: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn module_formats_to_the_generated_file() {
    for (file, floating_base, scalar) in [
        // Every function of a free-flyer model (Z1 on a free-flyer: each
        // function Go2+Z1 has, at a quarter of its generation time).
        ("models/z1.urdf", true, ScalarType::F64),
        ("tests/urdf/continuous_chain.urdf", false, ScalarType::F32),
    ] {
        let text = urdf(file);
        let options = Options {
            floating_base,
            source_name: file.to_string(),
            scalar,
            ..Options::default()
        };
        let tokens = super::module(
            &quote!(pub),
            &format_ident!("robot"),
            &text,
            &options,
            &["/abs/robot.urdf".to_string()],
            proc_macro2::Span::call_site(),
        )
        .unwrap();
        let module: syn::ItemMod = syn::parse2(tokens).unwrap();
        assert_eq!(module.ident, "robot");
        let (_, mut items) = module.content.unwrap();
        // The module ends in the `libm` and `wide` import and the rebuild trigger.
        let trigger = items.pop().unwrap();
        let import = items.pop().unwrap();
        assert_eq!(
            quote!(#import).to_string(),
            quote!(
                use ::rbdgen::__private::{libm, wide};
            )
            .to_string()
        );
        assert!(quote!(#trigger)
            .to_string()
            .contains("include_bytes ! (\"/abs/robot.urdf\")"));
        let file_of_module = syn::File {
            shebang: None,
            attrs: module.attrs,
            items,
        };
        assert_eq!(
            prettyplease::unparse(&file_of_module),
            generate(&text, &options).unwrap(),
            "{file}"
        );
    }
}

/// A misspelt function gets the nearest name, Pinocchio's name gets
/// ours, and one far from every name gets the list.
#[test]
fn an_unknown_function_gets_did_you_mean() {
    let message = |list: &str| {
        let text = format!(r#"mod robot, "robot.urdf", functions = [{list}]"#);
        match syn::parse_str::<super::Args>(&text) {
            Ok(_) => panic!("{list}: accepted"),
            Err(e) => e.to_string(),
        }
    };
    assert_eq!(
        message("rnea, crab"),
        "unknown function `crab`; did you mean `crba`?"
    );
    assert_eq!(
        message("inverse_dynamics"),
        "unknown function `inverse_dynamics`; did you mean `rnea`?"
    );
    assert_eq!(
        message("computeMinverse"),
        "unknown function `computeMinverse`; did you mean `minverse`?"
    );
    assert!(message("teleport").starts_with("unknown function `teleport`; known: rnea, crba"));
}

/// When a function fails on a model that has physical warnings (two
/// free-flyers in series: a singular mass matrix), the error carries them.
#[test]
fn a_failed_function_names_the_models_warnings() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let go2 = std::fs::read_to_string(root.join("models/go2.urdf")).unwrap();
    let below_world = go2.replacen(
        r#"<link name="base">"#,
        r#"<link name="world"/><joint name="world_to_base" type="floating"><parent link="world"/><child link="base"/></joint><link name="base">"#,
        1,
    );
    let path = std::env::temp_dir().join(format!(
        "rbdgen-macro-{}-go2_below_world.urdf",
        std::process::id()
    ));
    std::fs::write(&path, below_world).unwrap();
    let args: super::Args = syn::parse_str(&format!(
        r#"mod go2, "{}", floating_base, functions = [aba]"#,
        path.display()
    ))
    .unwrap();
    let e = super::expand(&args).map(|_| ()).unwrap_err().to_string();
    std::fs::remove_file(&path).unwrap();
    assert!(
        e.contains("; warning: joints `root_joint` and `world_to_base` move the same bodies"),
        "{e}"
    );
}

/// An MJCF file's `<include>`s are tracked as the file itself is: one
/// `include_bytes!` of each file read, so that editing an included file
/// rebuilds the crate.
#[test]
fn every_included_file_is_tracked() {
    let args: super::Args = syn::parse_str(
        r#"mod acrobot, "../models/mjcf/dm_control/acrobot.xml", functions = [rnea]"#,
    )
    .unwrap();
    let tokens = super::expand(&args).unwrap().to_string();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/mjcf/dm_control");
    let tracked: Vec<&str> = tokens
        .split("include_bytes ! (\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap())
        .collect();
    let expected: Vec<String> = [
        "acrobot.xml",
        "./common/visual.xml",
        "./common/skybox.xml",
        "./common/materials.xml",
    ]
    .iter()
    .map(|f| dir.join(f).to_string_lossy().into_owned())
    .collect();
    assert_eq!(tracked, expected);
    for file in &tracked {
        assert!(std::path::Path::new(file).is_file(), "{file}");
    }
}

/// A model that Pinocchio accepts but no rigid body has: one `#[deprecated]`
/// item per warning, used at once, so that rustc prints the message (naming
/// the link) as a warning; none for a physical model (above). With `strict`
/// the model is refused, and `max_ops` refuses a function above it.
#[test]
fn module_warns_of_impossible_inertias() {
    let text = urdf("tests/bad_urdf/inertia_triangle.urdf");
    let options = Options {
        functions: [rbdgen_symbolic::Function::Rnea].into_iter().collect(),
        ..Options::default()
    };
    let expand = |options: &Options| {
        super::module(
            &quote!(),
            &format_ident!("robot"),
            &text,
            options,
            &["/abs/robot.urdf".to_string()],
            proc_macro2::Span::call_site(),
        )
    };
    let tokens = expand(&options).unwrap().to_string();
    let deprecated = tokens.matches("# [deprecated").count();
    assert_eq!(deprecated, 1, "{tokens}");
    assert!(
        tokens.contains("link `d` has an invalid inertia: principal moments"),
        "{tokens}"
    );
    assert!(
        tokens.contains("const _ : () = RBDGEN_WARNING_0 ;"),
        "{tokens}"
    );
    let strict = Options {
        strict: true,
        ..options.clone()
    };
    let e = expand(&strict).map(|_| ()).unwrap_err().to_string();
    assert!(e.starts_with("link `d` has an invalid inertia"), "{e}");
    // This `rnea` has 7 operations.
    for (max_ops, refused) in [(6, true), (7, false)] {
        let limited = Options {
            max_ops,
            ..options.clone()
        };
        match expand(&limited) {
            Ok(_) => assert!(!refused, "max_ops = {max_ops}"),
            Err(e) => {
                assert!(refused, "max_ops = {max_ops}: {e}");
                assert_eq!(
                    e.to_string().split(" (").next().unwrap(),
                    format!(
                        "`rnea` has 7 operations, more than the limit of {max_ops} per function"
                    ),
                );
            }
        }
    }
}

/// Every option with a macro key parses (the match is exhaustive over
/// `OptionKey`: a new option needs an example here) and sets its field.
#[test]
fn every_macro_key_parses() {
    use rbdgen_symbolic::{OptionKey, OPTIONS};
    for spec in OPTIONS {
        let Some(key) = spec.macro_key else { continue };
        let value = match spec.key {
            OptionKey::FloatingBase
            | OptionKey::Mimic
            | OptionKey::Simplify
            | OptionKey::Threads
            | OptionKey::Strict
            | OptionKey::OneLimbAtATime => "",
            OptionKey::Functions | OptionKey::Jacobians => " = [rnea, crba]",
            OptionKey::Scalar => " = f32",
            OptionKey::Armature => " = [joint1: 0.1]",
            OptionKey::Contacts => " = [link06: point]",
            OptionKey::ContactSets => " = { stance: [link06: 6d], flight: [] }",
            OptionKey::Parameters | OptionKey::Frames => " = [link06]",
            OptionKey::Lanes => " = 4",
            OptionKey::MaxOps | OptionKey::UnrollLimit => " = 1000",
            OptionKey::Std | OptionKey::CApi | OptionKey::Casadi | OptionKey::UserFunctions => {
                panic!("{key}: not a macro key")
            }
        };
        let text = format!(r#"mod robot, "robot.urdf", {key}{value}"#);
        let args: super::Args = syn::parse_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_ne!(args.options, Options::default(), "{text}");
        assert!(args.spans.contains_key(&spec.key), "{text}");
    }
}

/// Every macro key and command-line flag of the table is named in the
/// README or a page of `docs/`.
#[test]
fn every_option_is_documented() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut docs = std::fs::read_to_string(root.join("README.md")).unwrap();
    for entry in std::fs::read_dir(root.join("docs")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "md") {
            docs.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
    for spec in rbdgen_symbolic::OPTIONS {
        for name in [spec.macro_key, spec.flag].into_iter().flatten() {
            assert!(
                docs.contains(name),
                "`{name}` is not in README.md or docs/*.md"
            );
        }
    }
}
