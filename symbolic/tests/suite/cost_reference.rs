//! The generated header puts, beside `rnea`'s operation count, the `93n`
//! multiplications of the best hand formulations of RNEA, with `n = nv`.

use rbdgen_symbolic::{generate, generate_module, rnea_mul_reference, Function, Options};

/// The Z1 arm's URDF.
const Z1: &str = include_str!("../../../models/z1.urdf");

#[test]
fn header_gives_the_93n_reference_beside_rnea() {
    // Z1 on a fixed base (n = nv = 7) and on a free-flyer (n = nv = 13: the base's 6 dofs count).
    for (floating_base, nv) in [(false, 7), (true, 13)] {
        let options = Options {
            floating_base,
            functions: [Function::Rnea, Function::Crba].into_iter().collect(),
            source_name: "models/z1.urdf".into(),
            ..Options::default()
        };
        let module = generate_module(Z1, &options, |_| {}).unwrap();
        let rnea = module.op_counts[&Function::Rnea];
        let source = module.source().unwrap();
        let lines: Vec<&str> = source.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with("//! - `rnea`: "))
            .expect("rnea's count in the header");
        let reference = format!("//!   {}", rnea_mul_reference(nv, &rnea));
        assert_eq!(lines[at + 1], reference);
        assert!(
            reference.contains(&format!("n = nv = {nv}"))
                && reference.contains(&format!("93n = {}", 93 * nv))
                && reference.contains(&format!("ours {} mul", rnea.mul)),
            "{reference}"
        );
        assert!(
            lines[at + 2].starts_with("//! - `crba`: "),
            "{}",
            lines[at + 2]
        );
    }
}

#[test]
fn no_reference_without_rnea() {
    let options = Options {
        functions: [Function::Crba].into_iter().collect(),
        ..Options::default()
    };
    let source = generate(Z1, &options).unwrap();
    assert!(!source.contains("93n"));
}

#[test]
fn reference_ratio() {
    let counts = rbdgen_symbolic::OpCounts {
        mul: 1884,
        ..Default::default()
    };
    assert_eq!(
        rnea_mul_reference(24, &counts),
        "reference: about 93n multiplications for an n-joint serial chain (best hand \
         formulations of RNEA); n = nv = 24 (a free-flyer counts its 6 dofs): 93n = 2232, \
         ours 1884 mul = 0.84 × 93n"
    );
}
