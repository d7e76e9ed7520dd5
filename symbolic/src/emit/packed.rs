//! Printing a graph with its limbs side by side ([`crate::limbs::Packing`]):
//! each pack is one statement on `wide`'s vectors of [`LANES`], the other
//! operations are scalar statements, in the packing's order.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use super::print::declare_locals;
use super::{Inputs, ScalarType, Shape};
use crate::graph::{Graph, Node, NodeId};
use crate::limbs::{Item, Lanes, Packing, LANES};

/// The block of `graph`'s `outputs` with the packs of `packing` as vector
/// statements (`type V = wide::f64x4`, or `f32x4`): a pack's operand is the
/// operand pack itself, `V::splat(x)` of one value for all lanes, or
/// `V::new([..])` of a value per lane (constants, or lanes of other packs
/// read with `to_array()`); lanes past a pack's limbs hold padding that is
/// never read. A product whose only use is one sum or difference is fused
/// into it (`mul_add` for scalars, `wide`'s `mul_add`, `mul_sub` and
/// `mul_neg_add` for packs), a sine and a cosine of one pack are one call of
/// the module's `sincos4`, and so are the sines and cosines of up to four
/// joint angles outside packs. The result is a local `out` of `shape`,
/// zeros, then each output stored where it is computed, as in
/// [`super::print()`]'s one-block form; `into`, the block writes into the
/// caller's `out: &mut` of `shape` (not a scalar), which holds zeros.
#[allow(clippy::too_many_arguments)]
pub fn print_packed(
    graph: &Graph,
    outputs: &[NodeId],
    packing: &Packing,
    shape: &Shape,
    inputs: &Inputs,
    math: &TokenStream,
    scalar: ScalarType,
    into: bool,
) -> TokenStream {
    let ty = scalar.ty();
    let wide_ty = format_ident!("{}x{}", scalar.name(), LANES);
    let lit = |c: f64| scalar.literal(c);
    let leaf = |x: NodeId| matches!(graph.node(x), Node::Const(_) | Node::Input(_));
    // Uses of each node by distinct live users (outputs count as uses).
    let mut uses: HashMap<NodeId, (usize, NodeId)> = HashMap::new();
    for item in &packing.order {
        let members = match item {
            Item::Scalar(x) => vec![*x],
            Item::Pack(k) => packing.packs[*k].clone(),
        };
        for m in members {
            let mut children: Vec<NodeId> = graph.node(m).children().collect();
            children.dedup();
            for c in children {
                let e = uses.entry(c).or_insert((0, m));
                e.0 += 1;
                e.1 = m;
            }
        }
    }
    let output_set: HashSet<NodeId> = outputs.iter().copied().collect();
    let single_use = |x: NodeId| !output_set.contains(&x) && uses.get(&x).map(|u| u.0) == Some(1);
    let user = |x: NodeId| uses.get(&x).map(|u| u.1);
    let is_sum = |x: NodeId| matches!(graph.node(x), Node::Add(..) | Node::Sub(..));
    let is_product = |x: NodeId| matches!(graph.node(x), Node::Mul(..));
    // Fusions: each sum or difference takes at most one product, its first.
    let mut fused_scalars: HashSet<NodeId> = HashSet::new();
    let mut fused_packs: HashSet<usize> = HashSet::new();
    for item in &packing.order {
        match *item {
            // `x + x` keeps its product: a fused operand has no local.
            Item::Scalar(x) if is_sum(x) && !same_operands(&graph.node(x)) => {
                let product = graph.node(x).children().find(|&c| {
                    !leaf(c)
                        && packing.lane(c).is_none()
                        && is_product(c)
                        && single_use(c)
                        && user(c) == Some(x)
                });
                fused_scalars.extend(product);
            }
            Item::Pack(k) if is_sum(packing.packs[k][0]) => {
                let operands = packing.operands(graph, k);
                if operands[0] == operands[1] {
                    continue;
                }
                let product = operands.into_iter().find_map(|o| match o {
                    Lanes::Pack(q) => {
                        let pack = &packing.packs[q];
                        let fusable = is_product(pack[0])
                            && !leaf(pack[0])
                            && pack
                                .iter()
                                .zip(&packing.packs[k])
                                .all(|(&m, &u)| single_use(m) && user(m) == Some(u));
                        fusable.then_some(q)
                    }
                    _ => None,
                });
                fused_packs.extend(product);
            }
            _ => {}
        }
    }
    // Sines and cosines: of one pack's operand, one call; of joint angles
    // outside packs, four to a call at the top.
    let mut pack_trig: HashMap<(bool, Lanes), usize> = HashMap::new();
    let mut scalar_angles: Vec<NodeId> = Vec::new();
    // `(is sine, angle)` → the scalar node, for the angles of `scalar_angles`.
    let mut angle_trig: HashMap<(bool, NodeId), NodeId> = HashMap::new();
    for item in &packing.order {
        match *item {
            Item::Pack(k) => {
                let node = graph.node(packing.packs[k][0]);
                if let Node::Sin(_) | Node::Cos(_) = node {
                    let operand = packing.operands(graph, k).swap_remove(0);
                    pack_trig.insert((matches!(node, Node::Sin(_)), operand), k);
                }
            }
            Item::Scalar(x) => {
                if let Node::Sin(a) | Node::Cos(a) = graph.node(x) {
                    if matches!(graph.node(a), Node::Input(_)) {
                        if !scalar_angles.contains(&a) {
                            scalar_angles.push(a);
                        }
                        angle_trig.insert((matches!(graph.node(x), Node::Sin(_)), a), x);
                    }
                }
            }
        }
    }
    // Locals: `sK` for scalars, `pK` for packs, numbered in order.
    let mut scalar_local: HashMap<NodeId, usize> = HashMap::new();
    let mut pack_local: HashMap<usize, usize> = HashMap::new();
    for (k, pack) in packing.packs.iter().enumerate() {
        if pack
            .first()
            .is_some_and(|&x| matches!(graph.node(x), Node::Input(_)))
        {
            let n = pack_local.len();
            pack_local.insert(k, n);
        }
    }
    for item in &packing.order {
        match *item {
            Item::Scalar(x) if !fused_scalars.contains(&x) => {
                let n = scalar_local.len();
                scalar_local.insert(x, n);
            }
            Item::Pack(k) if !fused_packs.contains(&k) => {
                let n = pack_local.len();
                pack_local.insert(k, n);
            }
            _ => {}
        }
    }
    let s_name = |n: usize| format_ident!("s{}", n);
    let p_name = |k: usize| format_ident!("p{}", pack_local[&k]);
    let value = |x: NodeId| -> TokenStream {
        match graph.node(x) {
            Node::Const(bits) => lit(f64::from_bits(bits)),
            Node::Input(k) => inputs.token(k),
            _ => match packing.lane(x) {
                Some((k, lane)) => {
                    let (p, lane) = (p_name(k), Literal::usize_unsuffixed(lane));
                    quote!(#p.to_array()[#lane])
                }
                None => {
                    let s = s_name(scalar_local[&x]);
                    quote!(#s)
                }
            },
        }
    };
    let zero = lit(0.0);
    let lanes = |o: &Lanes| -> TokenStream {
        match o {
            Lanes::Pack(k) => {
                let p = p_name(*k);
                quote!(#p)
            }
            Lanes::Same(x) => {
                let v = value(*x);
                quote!(V::splat(#v))
            }
            Lanes::Gather(xs) => {
                let mut items: Vec<TokenStream> = xs.iter().map(|&x| value(x)).collect();
                items.resize(LANES, zero.clone());
                quote!(V::new([#(#items),*]))
            }
        }
    };
    // Outputs stored where computed.
    let mut places: HashMap<NodeId, Vec<usize>> = HashMap::new();
    for (k, &o) in outputs.iter().enumerate() {
        if !leaf(o) {
            places.entry(o).or_default().push(k);
        }
    }
    let store = |x: NodeId, body: &mut Vec<TokenStream>| {
        for &k in places.get(&x).into_iter().flatten() {
            let (place, v) = (shape.place(k), value(x));
            body.push(quote!(#place = #v;));
        }
    };
    let mut body: Vec<TokenStream> = Vec::new();
    for (k, pack) in packing.packs.iter().enumerate() {
        if pack_local.contains_key(&k)
            && pack
                .first()
                .is_some_and(|&x| matches!(graph.node(x), Node::Input(_)))
        {
            let p = p_name(k);
            let v = lanes(&Lanes::Gather(pack.clone()));
            body.push(quote!(#p = #v;));
        }
    }
    let mut trig_done: HashSet<NodeId> = HashSet::new();
    for chunk in scalar_angles.chunks(LANES) {
        let mut args: Vec<TokenStream> = chunk
            .iter()
            .map(|&a| inputs_token(graph, inputs, a))
            .collect();
        args.resize(LANES, zero.clone());
        let target = |want_sin: bool, a: NodeId| -> TokenStream {
            match angle_trig.get(&(want_sin, a)) {
                Some(x) => {
                    let s = s_name(scalar_local[x]);
                    quote!(#s)
                }
                None => quote!(_),
            }
        };
        let mut sines: Vec<TokenStream> = chunk.iter().map(|&a| target(true, a)).collect();
        let mut cosines: Vec<TokenStream> = chunk.iter().map(|&a| target(false, a)).collect();
        sines.resize(LANES, quote!(_));
        cosines.resize(LANES, quote!(_));
        body.push(quote!(([#(#sines),*], [#(#cosines),*]) = sincos4([#(#args),*]);));
        for &a in chunk {
            for is_sin in [true, false] {
                if let Some(&x) = angle_trig.get(&(is_sin, a)) {
                    trig_done.insert(x);
                    store(x, &mut body);
                }
            }
        }
    }
    let function = |name: &str| {
        let f = scalar.math_name(name);
        quote!(#math::#f)
    };
    let mut packs_done: HashSet<usize> = HashSet::new();
    for item in &packing.order {
        match *item {
            Item::Scalar(x) => {
                if fused_scalars.contains(&x) || trig_done.contains(&x) {
                    continue;
                }
                let node = graph.node(x);
                let c: Vec<NodeId> = node.children().collect();
                // A fused product has no local: it is read through `fused`.
                let v: Vec<TokenStream> = c
                    .iter()
                    .map(|&y| match fused_scalars.contains(&y) {
                        true => TokenStream::new(),
                        false => value(y),
                    })
                    .collect();
                let v0 = v.first().cloned().unwrap_or_default();
                let v1 = v.get(1).cloned().unwrap_or_default();
                let v2 = v.get(2).cloned().unwrap_or_default();
                // `-x`, a constant's sign folded into its literal.
                let negated = |y: NodeId| match graph.constant_value(y) {
                    Some(c) => lit(-c),
                    None => {
                        let v = value(y);
                        quote!(-#v)
                    }
                };
                let fused = |y: NodeId| -> Option<(NodeId, NodeId)> {
                    fused_scalars.contains(&y).then(|| {
                        let m: Vec<NodeId> = graph.node(y).children().collect();
                        (m[0], m[1])
                    })
                };
                let expr = match node {
                    Node::Add(..) => match (fused(c[0]), fused(c[1])) {
                        (Some((a, b)), _) => {
                            let (a, b) = (value(a), value(b));
                            quote!(mul_add(#a, #b, #v1))
                        }
                        (None, Some((a, b))) => {
                            let (a, b) = (value(a), value(b));
                            quote!(mul_add(#a, #b, #v0))
                        }
                        _ => quote!(#v0 + #v1),
                    },
                    Node::Sub(..) => match (fused(c[0]), fused(c[1])) {
                        (Some((a, b)), _) => {
                            let (a, b, c) = (value(a), value(b), negated(c[1]));
                            quote!(mul_add(#a, #b, #c))
                        }
                        (None, Some((a, b))) => {
                            let (a, b) = (negated(a), value(b));
                            quote!(mul_add(#a, #b, #v0))
                        }
                        _ => quote!(#v0 - #v1),
                    },
                    Node::Neg(_) => quote!(-#v0),
                    Node::Mul(..) => quote!(#v0 * #v1),
                    Node::Div(..) => quote!(#v0 / #v1),
                    Node::Sin(_) => {
                        let f = function("sin");
                        quote!(#f(#v0))
                    }
                    Node::Cos(_) => {
                        let f = function("cos");
                        quote!(#f(#v0))
                    }
                    Node::Sqrt(_) => {
                        let f = function("sqrt");
                        quote!(#f(#v0))
                    }
                    Node::Atan2(..) => {
                        let f = function("atan2");
                        quote!(#f(#v0, #v1))
                    }
                    Node::Select(..) => quote!(if #v0 > 0.0 { #v1 } else { #v2 }),
                    Node::Const(_) | Node::Input(_) => unreachable!("leaves are not items"),
                };
                let s = s_name(scalar_local[&x]);
                body.push(quote!(#s = #expr;));
                store(x, &mut body);
            }
            Item::Pack(k) => {
                if fused_packs.contains(&k) || packs_done.contains(&k) {
                    continue;
                }
                let node = graph.node(packing.packs[k][0]);
                let ops = packing.operands(graph, k);
                let o: Vec<TokenStream> = ops
                    .iter()
                    .map(|op| match op {
                        Lanes::Pack(q) if fused_packs.contains(q) => TokenStream::new(),
                        _ => lanes(op),
                    })
                    .collect();
                let o0 = o.first().cloned().unwrap_or_default();
                let o1 = o.get(1).cloned().unwrap_or_default();
                let fused = |op: &Lanes| -> Option<(TokenStream, TokenStream)> {
                    match op {
                        Lanes::Pack(q) if fused_packs.contains(q) => {
                            let m: Vec<TokenStream> =
                                packing.operands(graph, *q).iter().map(&lanes).collect();
                            Some((m[0].clone(), m[1].clone()))
                        }
                        _ => None,
                    }
                };
                let p = p_name(k);
                let statement = match node {
                    Node::Add(..) => match (fused(&ops[0]), fused(&ops[1])) {
                        (Some((a, b)), _) => quote!(#p = #a.mul_add(#b, #o1);),
                        (None, Some((a, b))) => quote!(#p = #a.mul_add(#b, #o0);),
                        _ => quote!(#p = #o0 + #o1;),
                    },
                    Node::Sub(..) => match (fused(&ops[0]), fused(&ops[1])) {
                        (Some((a, b)), _) => quote!(#p = #a.mul_sub(#b, #o1);),
                        (None, Some((a, b))) => quote!(#p = #a.mul_neg_add(#b, #o0);),
                        _ => quote!(#p = #o0 - #o1;),
                    },
                    Node::Neg(_) => quote!(#p = -#o0;),
                    Node::Mul(..) => quote!(#p = #o0 * #o1;),
                    Node::Div(..) => quote!(#p = #o0 / #o1;),
                    Node::Sqrt(_) => quote!(#p = #o0.sqrt();),
                    Node::Sin(_) | Node::Cos(_) => {
                        let is_sin = matches!(node, Node::Sin(_));
                        let other = pack_trig.get(&(!is_sin, ops[0].clone())).copied();
                        let call = quote!(sincos4(#o0.to_array()));
                        match other.filter(|q| pack_local.contains_key(q)) {
                            Some(q) => {
                                packs_done.insert(q);
                                let (s, c) = if is_sin {
                                    (p.clone(), p_name(q))
                                } else {
                                    (p_name(q), p.clone())
                                };
                                quote!({ let (s, c) = #call; #s = V::new(s); #c = V::new(c); })
                            }
                            None if is_sin => quote!(#p = V::new(#call.0);),
                            None => quote!(#p = V::new(#call.1);),
                        }
                    }
                    n => unreachable!("{n:?} is not packed"),
                };
                body.push(statement);
                for &m in &packing.packs[k] {
                    store(m, &mut body);
                }
                if let Some(q) = pack_trig_partner(graph, packing, &pack_trig, k)
                    .filter(|q| packs_done.contains(q))
                {
                    for &m in &packing.packs[q] {
                        store(m, &mut body);
                    }
                }
            }
        }
    }
    let scalar_decls = declare_locals("s", scalar_local.len(), &ty);
    let pack_decls = declare_locals("p", pack_local.len(), &quote!(V));
    let zeros = shape.zeros(&zero);
    let sets = outputs
        .iter()
        .enumerate()
        .filter(|(_, &o)| match graph.node(o) {
            Node::Const(bits) => bits != 0,
            Node::Input(_) => true,
            _ => false,
        });
    let sets: Vec<TokenStream> = sets
        .map(|(k, &o)| {
            let (place, v) = (shape.place(k), value(o));
            quote!(#place = #v;)
        })
        .collect();
    // One value: assigned once, where computed (or a constant).
    let declare = match shape {
        _ if into => quote!(#(#sets)*),
        Shape::Scalar if places.is_empty() => {
            let v = value(outputs[0]);
            quote!(let out = #v;)
        }
        Shape::Scalar => quote!(let out: #ty;),
        _ => quote!(let mut out = #zeros; #(#sets)*),
    };
    let result = (!into).then(|| quote!(out));
    quote!({
        type V = wide::#wide_ty;
        #declare
        #(#scalar_decls)*
        #(#pack_decls)*
        #(#body)*
        #result
    })
}

/// Whether a binary node reads one value twice (`x + x`).
fn same_operands(node: &Node) -> bool {
    let c: Vec<NodeId> = node.children().collect();
    c.len() == 2 && c[0] == c[1]
}

/// The input `a` (a joint angle) as read from the arguments.
fn inputs_token(graph: &Graph, inputs: &Inputs, a: NodeId) -> TokenStream {
    match graph.node(a) {
        Node::Input(k) => inputs.token(k),
        n => unreachable!("{n:?} is not an input"),
    }
}

/// The sine pack of a cosine pack `k`'s operand, or the reverse.
fn pack_trig_partner(
    graph: &Graph,
    packing: &Packing,
    pack_trig: &HashMap<(bool, Lanes), usize>,
    k: usize,
) -> Option<usize> {
    let node = graph.node(packing.packs[k][0]);
    let is_sin = match node {
        Node::Sin(_) => true,
        Node::Cos(_) => false,
        _ => return None,
    };
    let operand = packing.operands(graph, k).swap_remove(0);
    pack_trig.get(&(!is_sin, operand)).copied()
}
