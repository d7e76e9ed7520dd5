//! The lowering on small graphs built by hand: [`schedule()`] then
//! [`print()`], and [`crate::limbs::pack`] then [`print_packed()`], against
//! the expected code (compared as tokens).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use rbdgen_runtime::Model;

use super::{print, print_packed, schedule, Arith, Inputs, Op, ScalarType, Shape, Split};
use crate::functions::Dim;
use crate::graph::{Graph, Node, NodeId};
use crate::limbs;

/// `q: [f64; n]`, read as `q[k]`.
fn inputs(n: usize) -> Vec<(&'static str, usize)> {
    vec![("q", n)]
}

/// The block of `outputs` (a vector) scheduled and printed in `arith`, with
/// parts above `whole_len` statements: the block and the parts' items.
fn printed(
    graph: &Graph,
    outputs: &[NodeId],
    arith: Arith,
    whole_len: usize,
) -> (TokenStream, Vec<TokenStream>) {
    let args = inputs(graph.input_count() as usize);
    let inputs = Inputs {
        args: &args,
        row_len: &[],
        splat: 0,
    };
    let s = schedule(graph, outputs, whole_len, whole_len);
    let params = vec![quote!(q: &[f64; 3])];
    let (names, output) = (vec![format_ident!("q")], quote!([f64; 2]));
    let split = Split {
        prefix: "part",
        spill: "Spill",
        params: &params,
        names: &names,
        output: &output,
    };
    let shape = Shape::Vector(outputs.len());
    let e = print(
        &s,
        &shape,
        &inputs,
        &quote!(m),
        ScalarType::F64,
        arith,
        &split,
        false,
    );
    (e.block, e.parts)
}

fn assert_tokens(actual: &TokenStream, expected: TokenStream) {
    assert_eq!(actual.to_string(), expected.to_string());
}

#[test]
fn products_fuse_into_their_one_sum() {
    let mut g = Graph::new();
    let [a, b, c] = [(); 3].map(|_| g.new_input());
    let two = g.constant(2.0);
    // a·b + c; c - a·2 (the product negated); a·c used twice: kept.
    let ab = g.add(Node::Mul(a, b));
    let sum = g.add(Node::Add(ab, c));
    let a2 = g.add(Node::Mul(a, two));
    let diff = g.add(Node::Sub(c, a2));
    let ac = g.add(Node::Mul(a, c));
    let twice = g.add(Node::Add(ac, ac));
    let out = g.add(Node::Sub(twice, sum));
    // b·c - 2: the constant's sign folded into its literal.
    let bc = g.add(Node::Mul(b, c));
    let less = g.add(Node::Sub(bc, two));
    let s = schedule(&g, &[diff, out, less], 100, 100);
    assert!(matches!(s.statements[0].op, Op::MulAdd(..)), "{s:?}");
    let (block, parts) = printed(&g, &[diff, out, less], Arith::Scalar, 100);
    assert!(parts.is_empty());
    assert_tokens(
        &block,
        quote!({
            let mut out = [0.0; 3];
            let [x0, x1, x2, x3, x4, x5]: [f64; 6];
            x0 = mul_add(q[0], q[1], q[2]);
            x1 = mul_add(-q[0], 2.0, q[2]);
            out[0] = x1;
            x2 = q[0] * q[2];
            x3 = x2 + x2;
            x4 = x3 - x0;
            out[1] = x4;
            x5 = mul_add(q[1], q[2], -2.0);
            out[2] = x5;
            out
        }),
    );
}

#[test]
fn a_select_is_an_if_or_a_lane_select() {
    let mut g = Graph::new();
    let [c, a, b] = [(); 3].map(|_| g.new_input());
    let s = g.add(Node::Select(c, a, b));
    let root = g.add(Node::Sqrt(s));
    // The arithmetic, the result's zero, the locals' type, the selection.
    let forms = [
        (Arith::Scalar, quote!(0.0), quote!(f64)),
        (Arith::Lanes, quote!(V::splat(0.0)), quote!(V)),
    ];
    let selects = [
        quote!(if q[0] > 0.0 { q[1] } else { q[2] }),
        quote!(V::select(q[0], q[1], q[2])),
    ];
    for ((arith, zero, ty), select) in forms.into_iter().zip(selects) {
        let (block, _) = printed(&g, &[root], arith, 100);
        assert_tokens(
            &block,
            quote!({
                let mut out = [#zero];
                let [x0, x1]: [#ty; 2];
                x0 = #select;
                x1 = m::sqrt(x0);
                out[0] = x1;
                out
            }),
        );
    }
}

#[test]
fn a_long_block_is_a_chain_of_parts_with_spills() {
    let mut g = Graph::new();
    let [a, b, _] = [(); 3].map(|_| g.new_input());
    let x = g.add(Node::Mul(a, b));
    let y = g.add(Node::Sin(x));
    let z = g.add(Node::Div(y, x));
    let w = g.add(Node::Neg(z));
    let (block, parts) = printed(&g, &[w, x], Arith::Scalar, 2);
    assert_tokens(
        &block,
        quote!({
            let mut out = [0.0; 2];
            let mut t = Spill::default();
            part0::run(q, &mut t, &mut out);
            part1::run(q, &mut t, &mut out);
            out
        }),
    );
    let parts: Vec<String> = parts.iter().map(ToString::to_string).collect();
    let expected = [
        quote! {
            /// The values that outlive the part computing them (a field is reused
            /// after the last part reading it).
            #[derive(Default)]
            struct Spill(f64, f64);
        },
        quote! {
            mod part0 {
                #[allow(unused_imports)]
                use super::*;
                #[inline(never)]
                #[allow(unused_variables)]
                pub(super) fn run(q: &[f64; 3], t: &mut Spill, out: &mut [f64; 2]) {
                    let [x0, x1]: [f64; 2];
                    x0 = q[0] * q[1];
                    out[1] = x0;
                    t.0 = x0;
                    x1 = m::sin(x0);
                    t.1 = x1;
                }
            }
        },
        quote! {
            mod part1 {
                #[allow(unused_imports)]
                use super::*;
                #[inline(never)]
                #[allow(unused_variables)]
                pub(super) fn run(q: &[f64; 3], t: &mut Spill, out: &mut [f64; 2]) {
                    let [x0, x1]: [f64; 2];
                    x0 = t.1 / t.0;
                    x1 = -x0;
                    out[0] = x1;
                }
            }
        },
    ];
    let expected: Vec<String> = expected.iter().map(ToString::to_string).collect();
    assert_eq!(parts, expected);
}

/// Two one-joint legs on a fixed base: their `q` entries are one group of
/// limbs ([`limbs::limb_groups`]).
const TWO_LEGS: &str = r#"<robot name="two">
  <link name="base"/>
  <link name="l0"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <link name="l1"><inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial></link>
  <joint name="j0" type="revolute"><parent link="base"/><child link="l0"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j1" type="revolute"><parent link="base"/><child link="l1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"#;

#[test]
fn limbs_side_by_side_are_lanes_of_one_vector() {
    let model = Model::from_urdf_str(TWO_LEGS, false).expect("the model");
    let mut g = Graph::new();
    let q = [(); 2].map(|_| g.new_input());
    // Per leg: sin q·cos q + k (k = 1, 2), packed; then a scalar of both
    // legs, its product fused too.
    let k = [1.0, 2.0].map(|k| g.constant(k));
    let legs: Vec<NodeId> = (0..2)
        .map(|i| {
            let (s, c) = (g.add(Node::Sin(q[i])), g.add(Node::Cos(q[i])));
            let m = g.add(Node::Mul(s, c));
            g.add(Node::Add(m, k[i]))
        })
        .collect();
    let product = g.add(Node::Mul(legs[0], legs[1]));
    let both = g.add(Node::Add(product, q[0]));
    let outputs = [legs[0], legs[1], both];
    let packing = limbs::pack(&model, &g, &outputs, &[Dim::Nq], usize::MAX).expect("packs");
    let args = inputs(2);
    let inputs = Inputs {
        args: &args,
        row_len: &[],
        splat: 0,
    };
    let shape = Shape::Vector(3);
    let block = print_packed(
        &g,
        &outputs,
        &packing,
        &shape,
        &inputs,
        &quote!(m),
        ScalarType::F64,
        false,
    );
    assert_tokens(
        &block,
        quote!({
            type V = wide::f64x4;
            let mut out = [0.0; 3];
            let [s0]: [f64; 1];
            let [p0, p1, p2, p3]: [V; 4];
            p0 = V::new([q[0], q[1], 0.0, 0.0]);
            {
                let (s, c) = sincos4(p0.to_array());
                p1 = V::new(s);
                p2 = V::new(c);
            }
            p3 = p1.mul_add(p2, V::new([1.0, 2.0, 0.0, 0.0]));
            out[0] = p3.to_array()[0];
            out[1] = p3.to_array()[1];
            s0 = mul_add(p3.to_array()[0], p3.to_array()[1], q[0]);
            out[2] = s0;
            out
        }),
    );
}
