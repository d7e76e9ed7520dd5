//! What `f32` output looks like. (That the macro's module formats to the
//! generated file is tested in the macro crate.)

use rbdgen_symbolic::{generate, Function, Options, ScalarType};

fn urdf(relative: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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
