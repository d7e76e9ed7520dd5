//! The macro's module and a committed file are the same code: the expansion of
//! `robot_dynamics!` ([`macro_module`]) is `generate_tokens` wrapped in a
//! module, and formatting its items gives exactly [`generate`]'s text. Also
//! what `f32` output looks like.

use proc_macro2::Span;
use quote::{format_ident, quote};
use rbdgen_symbolic::{generate, macro_module, Function, Options, ScalarType};

fn urdf(relative: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn macro_module_formats_to_the_generated_file() {
    for (file, floating_base, scalar) in [
        ("models/go2_z1.urdf", true, ScalarType::F64),
        ("tests/urdf/continuous_chain.urdf", false, ScalarType::F32),
    ] {
        let text = urdf(file);
        let options = Options {
            floating_base,
            source_name: file.to_string(),
            scalar,
            ..Options::default()
        };
        let tokens = macro_module(
            &quote!(pub),
            &format_ident!("robot"),
            &text,
            &options,
            "/abs/robot.urdf",
            Span::call_site(),
        )
        .unwrap();
        let module: syn::ItemMod = syn::parse2(tokens).unwrap();
        assert_eq!(module.ident, "robot");
        let (_, mut items) = module.content.unwrap();
        // The module ends in the `libm` import and the rebuild trigger.
        let trigger = items.pop().unwrap();
        let import = items.pop().unwrap();
        assert_eq!(
            quote!(#import).to_string(),
            quote!(
                use ::rbdgen::__private::libm;
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

/// A model that Pinocchio accepts but no rigid body has: one `#[deprecated]`
/// item per warning, used at once, so that rustc prints the message (naming
/// the link) as a warning; none for a physical model (above). With `strict`
/// the model is refused, and `max_ops` refuses a function above it.
#[test]
fn macro_module_warns_of_impossible_inertias() {
    let text = urdf("tests/bad_urdf/inertia_triangle.urdf");
    let options = Options {
        functions: [Function::Rnea].into_iter().collect(),
        ..Options::default()
    };
    let expand = |options: &Options| {
        macro_module(
            &quote!(),
            &format_ident!("robot"),
            &text,
            options,
            "/abs/robot.urdf",
            Span::call_site(),
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

#[test]
fn f32_output_is_single_precision_throughout() {
    let text = urdf("models/z1.urdf");
    let options = Options {
        scalar: ScalarType::F32,
        functions: [Function::Rnea, Function::Aba, Function::FramePlacement]
            .into_iter()
            .collect(),
        ..Options::default()
    };
    let code = generate(&text, &options).unwrap();
    assert!(!code.contains("f64"), "{code}");
    assert!(code.contains("pub fn rnea(q: &[f32; NQ], v: &[f32; NV], a: &[f32; NV]) -> [f32; NV]"));
    assert!(code.contains("pub const GRAVITY: [f32; 3] = [0.0, 0.0, -9.81];"));
    assert!(code.contains("libm::sincosf("));
    for f64_math in ["libm::sin(", "libm::cos(", "libm::sincos(", "libm::sqrt("] {
        assert!(!code.contains(f64_math), "{f64_math}");
    }
    // Every literal reads back as the f32 it stands for: no more digits than f32 has.
    let body = code.lines().filter(|l| !l.trim_start().starts_with("//"));
    let mut literals = 0;
    for token in body
        .flat_map(|l| l.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-')))
    {
        if token.contains('.') {
            literals += 1;
            if let Ok(x) = token.trim_start_matches('-').parse::<f32>() {
                assert_eq!(
                    format!("{x:?}"),
                    token.trim_start_matches('-'),
                    "literal {token}"
                );
            }
        }
    }
    assert!(literals > 50, "{literals} literals");
    let f64_code = generate(&text, &Options::default()).unwrap();
    assert!(f64_code.contains("libm::sincos("));
    assert!(f64_code.contains("-> [f64; NV]"));
}
