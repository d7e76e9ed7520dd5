//! The macro's module and a committed file are the same code: the expansion of
//! `robot_dynamics!` ([`macro_module`]) is `generate_tokens` wrapped in a
//! module, and formatting its items gives exactly [`generate`]'s text. Also
//! what `f32` output looks like.

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
