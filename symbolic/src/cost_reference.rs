//! Published operation counts to compare the generated code with: the
//! multiplications of the best hand formulations of RNEA, printed beside the
//! generated `rnea`'s count by `rbdgen info` and the generated file's header.

use crate::graph::OpCounts;

/// Multiplications per joint of the best hand formulations of the recursive
/// Newton-Euler algorithm for an n-joint serial chain of revolute joints:
/// about `93 n` (the order of the costs that Featherstone 2008, ch. 10,
/// tabulates for efficient RNEA implementations in link coordinates).
pub const RNEA_MULS_PER_JOINT: usize = 93;

/// One line comparing the multiplications of the generated `rnea` with the
/// hand-formulation reference `93 n`, taking `n = nv` (a free-flyer counts
/// its 6 dofs).
///
/// `nv`: the model's velocity dimension; `rnea`: the operation counts of the
/// generated `rnea`. Returns, for Go2+Z1 (nv = 24, 1884 mul):
/// `reference: about 93n multiplications for an n-joint serial chain (best
/// hand formulations of RNEA); n = nv = 24 (a free-flyer counts its 6 dofs):
/// 93n = 2232, ours 1884 mul = 0.84 × 93n` (on one line).
pub fn rnea_mul_reference(nv: usize, rnea: &OpCounts) -> String {
    let reference = RNEA_MULS_PER_JOINT * nv;
    let ratio = if reference == 0 {
        String::from("n = 0")
    } else {
        format!("{:.2} × 93n", rnea.mul as f64 / reference as f64)
    };
    format!(
        "reference: about 93n multiplications for an n-joint serial chain (best hand \
         formulations of RNEA); n = nv = {nv} (a free-flyer counts its 6 dofs): \
         93n = {reference}, ours {} mul = {ratio}",
        rnea.mul
    )
}
