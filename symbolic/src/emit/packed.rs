//! Printing a graph with its limbs side by side ([`crate::limbs::Packing`]):
//! each pack is one statement on `wide`'s vectors of [`LANES`], the other
//! operations are scalar statements, in the packing's order.

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::print::{declare_locals, operand, Lowered};
use super::schedule::{fused_operand, fusions, is_sum, lower, uses, Op, Operand};
use super::{Arith, Inputs, ScalarType, Shape};
use crate::graph::{Graph, Node, NodeId};
use crate::limbs::{Item, Lanes, Packing, LANES};
use crate::ops::{Spelling, Wide};

/// The block of `graph`'s `outputs` with the packs of `packing` as vector
/// statements (`type V = wide::f64x4`, or `f32x4`): a pack's operand is the
/// operand pack itself, `V::splat(x)` of one value for all lanes, or
/// `V::new([..])` of a value per lane (constants, or lanes of other packs
/// read with `to_array()`); lanes past a pack's limbs hold padding that is
/// never read. A product whose only use is one sum or difference is fused
/// into it (the schedule's fusion step, [`super::schedule()`]: `mul_add` for
/// scalars, `wide`'s `mul_add`, `mul_sub` and `mul_neg_add` for packs), a
/// sine and a cosine of one pack are one call of the module's `sincos4`, and
/// so are the sines and cosines of up to four joint angles outside packs.
/// The scalar statements are the schedule's lowering ([`Op`]) printed as
/// [`super::print()`] prints them. The result is a local `out` of `shape`,
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
    let fused = Fused::new(graph, outputs, packing);
    let trig = PackedTrig::new(graph, packing);
    // Locals: `sK` for scalars, `pK` for packs, numbered in order.
    let mut scalar_local: HashMap<NodeId, usize> = HashMap::new();
    let mut pack_local: HashMap<usize, usize> = HashMap::new();
    for (k, pack) in packing.packs.iter().enumerate() {
        if is_input_pack(graph, pack) {
            let n = pack_local.len();
            pack_local.insert(k, n);
        }
    }
    for item in &packing.order {
        match *item {
            Item::Scalar(x) if !fused.scalars.contains(&x) => {
                let n = scalar_local.len();
                scalar_local.insert(x, n);
            }
            Item::Pack(k) if !fused.packs.contains(&k) => {
                let n = pack_local.len();
                pack_local.insert(k, n);
            }
            _ => {}
        }
    }
    // Outputs stored where computed.
    let mut places: HashMap<NodeId, Vec<usize>> = HashMap::new();
    for (k, &o) in outputs.iter().enumerate() {
        if !is_leaf(graph, o) {
            places.entry(o).or_default().push(k);
        }
    }
    let printer = Printer {
        graph,
        packing,
        shape,
        inputs,
        lowered: Lowered {
            math,
            scalar,
            arith: Arith::Scalar,
        },
        fused,
        trig,
        scalar_local,
        pack_local,
        places,
    };
    let body = printer.body();
    printer.block(outputs, body, into)
}

/// The products fused into the sums that use them: a scalar product into a
/// scalar sum, a pack of products into a pack of sums, lane for lane.
struct Fused {
    /// The scalar products fused (read through their sum, no local).
    scalars: HashSet<NodeId>,
    /// The packs of products fused.
    packs: HashSet<usize>,
}

impl Fused {
    /// The schedule's fusion step ([`fusions`]) on the same use counts: a
    /// scalar product into a scalar sum, and a pack of products into a pack
    /// of sums when every lane's product is used by that lane's sum only.
    fn new(graph: &Graph, outputs: &[NodeId], packing: &Packing) -> Self {
        let live = graph.reachable(outputs);
        let uses = uses(graph, outputs, &live);
        let scalar = |i: usize| packing.lane(NodeId(i as u32)).is_none();
        let scalars = fusions(graph, &live, &uses, |sum, product| {
            scalar(sum) && scalar(product)
        });
        let mut fused = Fused {
            scalars: (scalars.product_of.keys())
                .map(|&m| NodeId(m as u32))
                .collect(),
            packs: HashSet::new(),
        };
        // A pack's lanes are its sum's operands (aligned with lane 0's), so a
        // product used once is used by that lane's sum.
        let used_once = |x: &NodeId| uses[x.0 as usize] == 1;
        for item in &packing.order {
            let Item::Pack(k) = *item else { continue };
            if !is_sum(&graph.node(packing.packs[k][0])) {
                continue;
            }
            let operands = packing.operands(graph, k);
            let product = fused_operand(&operands, |o| match o {
                Lanes::Pack(q) => {
                    let pack = &packing.packs[*q];
                    let fusable =
                        matches!(graph.node(pack[0]), Node::Mul(..)) && pack.iter().all(used_once);
                    fusable.then_some(*q)
                }
                _ => None,
            });
            fused.packs.extend(product);
        }
        fused
    }
}

/// The sines and cosines: of one pack's operand, one call; of joint angles
/// outside packs, four to a call at the top.
struct PackedTrig {
    /// `(is sine, operand)` → the pack of sines or cosines of that operand.
    packs: HashMap<(bool, Lanes), usize>,
    /// The joint angles outside packs, in the order of their first use.
    angles: Vec<NodeId>,
    /// `(is sine, angle)` → the scalar node, for the angles of `angles`.
    of_angle: HashMap<(bool, NodeId), NodeId>,
}

impl PackedTrig {
    fn new(graph: &Graph, packing: &Packing) -> Self {
        let mut trig = PackedTrig {
            packs: HashMap::new(),
            angles: Vec::new(),
            of_angle: HashMap::new(),
        };
        for item in &packing.order {
            match *item {
                Item::Pack(k) => {
                    let node = graph.node(packing.packs[k][0]);
                    if let Node::Sin(_) | Node::Cos(_) = node {
                        let operand = packing.operands(graph, k).swap_remove(0);
                        trig.packs
                            .insert((matches!(node, Node::Sin(_)), operand), k);
                    }
                }
                Item::Scalar(x) => {
                    if let Node::Sin(a) | Node::Cos(a) = graph.node(x) {
                        if matches!(graph.node(a), Node::Input(_)) {
                            if !trig.angles.contains(&a) {
                                trig.angles.push(a);
                            }
                            let is_sin = matches!(graph.node(x), Node::Sin(_));
                            trig.of_angle.insert((is_sin, a), x);
                        }
                    }
                }
            }
        }
        trig
    }

    /// The sine pack of a cosine pack `k`'s operand, or the reverse.
    fn partner(&self, graph: &Graph, packing: &Packing, k: usize) -> Option<usize> {
        let is_sin = match graph.node(packing.packs[k][0]) {
            Node::Sin(_) => true,
            Node::Cos(_) => false,
            _ => return None,
        };
        let operand = packing.operands(graph, k).swap_remove(0);
        self.packs.get(&(!is_sin, operand)).copied()
    }
}

/// What the packed block is printed from: the graph, its packing, the
/// decisions made on them and the locals.
struct Printer<'a> {
    graph: &'a Graph,
    packing: &'a Packing,
    shape: &'a Shape,
    inputs: &'a Inputs<'a>,
    /// How the scalar statements are written (scalar arithmetic).
    lowered: Lowered<'a>,
    fused: Fused,
    trig: PackedTrig,
    /// Each scalar's local `sK`.
    scalar_local: HashMap<NodeId, usize>,
    /// Each pack's local `pK`.
    pack_local: HashMap<usize, usize>,
    /// The outputs each computed node is stored to.
    places: HashMap<NodeId, Vec<usize>>,
}

impl Printer<'_> {
    fn literal(&self, c: f64) -> TokenStream {
        self.lowered.scalar.literal(c)
    }

    fn s_name(&self, x: NodeId) -> Ident {
        format_ident!("s{}", self.scalar_local[&x])
    }

    fn p_name(&self, k: usize) -> Ident {
        format_ident!("p{}", self.pack_local[&k])
    }

    /// The scalar value of `x`: a literal, an input, a local, or a lane of
    /// its pack (`p3.to_array()[1]`).
    fn value(&self, x: NodeId) -> TokenStream {
        match self.graph.node(x) {
            Node::Const(bits) => self.literal(f64::from_bits(bits)),
            Node::Input(k) => self.inputs.token(k),
            _ => match self.packing.lane(x) {
                Some((k, lane)) => {
                    let (p, lane) = (self.p_name(k), Literal::usize_unsuffixed(lane));
                    quote!(#p.to_array()[#lane])
                }
                None => {
                    let s = self.s_name(x);
                    quote!(#s)
                }
            },
        }
    }

    /// `x` as an operand of a lowered scalar statement: constants and inputs
    /// as such, any other value by its node (printed by [`Printer::value`]).
    fn operand(&self, x: NodeId) -> Operand {
        match self.graph.node(x) {
            Node::Const(bits) => Operand::Const(f64::from_bits(bits)),
            Node::Input(k) => Operand::Input(k),
            // The slot is unused: `print_operand` names a value by its node.
            _ => Operand::Local { slot: 0, node: x },
        }
    }

    /// A lowered statement's operand as an expression.
    fn print_operand(&self, o: Operand) -> TokenStream {
        match o {
            Operand::Local { node, .. } => self.value(node),
            o => {
                let (scalar, arith) = (self.lowered.scalar, self.lowered.arith);
                operand(o, "s", self.inputs, scalar, arith)
            }
        }
    }

    /// The vector of a pack's operand.
    fn lanes(&self, o: &Lanes) -> TokenStream {
        match o {
            Lanes::Pack(k) => {
                let p = self.p_name(*k);
                quote!(#p)
            }
            Lanes::Same(x) => {
                let v = self.value(*x);
                quote!(V::splat(#v))
            }
            Lanes::Gather(xs) => {
                let mut items: Vec<TokenStream> = xs.iter().map(|&x| self.value(x)).collect();
                items.resize(LANES, self.literal(0.0));
                quote!(V::new([#(#items),*]))
            }
        }
    }

    /// Stores `x` into the outputs it is.
    fn store(&self, x: NodeId, body: &mut Vec<TokenStream>) {
        for &k in self.places.get(&x).into_iter().flatten() {
            let (place, v) = (self.shape.place(k), self.value(x));
            body.push(quote!(#place = #v;));
        }
    }

    /// The statements: the packs of inputs gathered, the joint angles'
    /// sines and cosines, then the items in order.
    fn body(&self) -> Vec<TokenStream> {
        let mut body: Vec<TokenStream> = Vec::new();
        for (k, pack) in self.packing.packs.iter().enumerate() {
            if self.pack_local.contains_key(&k) && is_input_pack(self.graph, pack) {
                let p = self.p_name(k);
                let v = self.lanes(&Lanes::Gather(pack.clone()));
                body.push(quote!(#p = #v;));
            }
        }
        let print = |o: Operand| self.print_operand(o);
        let mut trig_done: HashSet<NodeId> = HashSet::new();
        for chunk in self.trig.angles.chunks(LANES) {
            let mut args = [Operand::Const(0.0); LANES];
            let mut used = [false; 2 * LANES];
            let mut defined = Vec::new();
            for (is_sin, offset) in [(true, 0), (false, LANES)] {
                for (k, &a) in chunk.iter().enumerate() {
                    args[k] = self.operand(a);
                    if let Some(&x) = self.trig.of_angle.get(&(is_sin, a)) {
                        used[offset + k] = true;
                        defined.push(self.s_name(x));
                    }
                }
            }
            let op = Op::SinCos4(args, used);
            body.push(self.lowered.assignment(&op, &defined, &print));
            for &a in chunk {
                for is_sin in [true, false] {
                    if let Some(&x) = self.trig.of_angle.get(&(is_sin, a)) {
                        trig_done.insert(x);
                        self.store(x, &mut body);
                    }
                }
            }
        }
        let mut packs_done: HashSet<usize> = HashSet::new();
        for item in &self.packing.order {
            match *item {
                Item::Scalar(x) => {
                    if self.fused.scalars.contains(&x) || trig_done.contains(&x) {
                        continue;
                    }
                    let node = self.graph.node(x);
                    let product = node.children().find(|c| self.fused.scalars.contains(c));
                    let op = lower(self.graph, &node, product, &|y| self.operand(y));
                    body.push(self.lowered.assignment(&op, &[self.s_name(x)], &print));
                    self.store(x, &mut body);
                }
                Item::Pack(k) => {
                    if self.fused.packs.contains(&k) || packs_done.contains(&k) {
                        continue;
                    }
                    body.push(self.pack_statement(k, &mut packs_done));
                    for &m in &self.packing.packs[k] {
                        self.store(m, &mut body);
                    }
                    let partner = self.trig.partner(self.graph, self.packing, k);
                    if let Some(q) = partner.filter(|q| packs_done.contains(q)) {
                        for &m in &self.packing.packs[q] {
                            self.store(m, &mut body);
                        }
                    }
                }
            }
        }
        body
    }

    /// The vector statement of pack `k`: its operator on `wide`'s vectors,
    /// a fused pack of products as `mul_add`, `mul_sub` or `mul_neg_add`, a
    /// sine and a cosine of one operand as one `sincos4` (the partner pack
    /// then marked done in `packs_done`).
    fn pack_statement(&self, k: usize, packs_done: &mut HashSet<usize>) -> TokenStream {
        let node = self.graph.node(self.packing.packs[k][0]);
        let ops = self.packing.operands(self.graph, k);
        let o: Vec<TokenStream> = (ops.iter())
            .map(|op| match op {
                Lanes::Pack(q) if self.fused.packs.contains(q) => TokenStream::new(),
                _ => self.lanes(op),
            })
            .collect();
        let o0 = o.first().cloned().unwrap_or_default();
        let o1 = o.get(1).cloned().unwrap_or_default();
        let fused = |op: &Lanes| -> Option<(TokenStream, TokenStream)> {
            match op {
                Lanes::Pack(q) if self.fused.packs.contains(q) => {
                    let operands = self.packing.operands(self.graph, *q);
                    let m: Vec<TokenStream> = operands.iter().map(|o| self.lanes(o)).collect();
                    Some((m[0].clone(), m[1].clone()))
                }
                _ => None,
            }
        };
        let p = self.p_name(k);
        let (operator, _) = node.operation().expect("packs hold operations");
        match (node, operator.wide()) {
            (Node::Add(..), _) => match (fused(&ops[0]), fused(&ops[1])) {
                (Some((a, b)), _) => return quote!(#p = #a.mul_add(#b, #o1);),
                (None, Some((a, b))) => return quote!(#p = #a.mul_add(#b, #o0);),
                _ => {}
            },
            (Node::Sub(..), _) => match (fused(&ops[0]), fused(&ops[1])) {
                (Some((a, b)), _) => return quote!(#p = #a.mul_sub(#b, #o1);),
                (None, Some((a, b))) => return quote!(#p = #a.mul_neg_add(#b, #o0);),
                _ => {}
            },
            _ => {}
        }
        match (operator.wide(), operator.spelling()) {
            (Some(Wide::Spelled), Spelling::Prefix(f)) => {
                let f: TokenStream = f.parse().expect("an operator");
                quote!(#p = #f #o0;)
            }
            (Some(Wide::Spelled), Spelling::Infix(f)) => {
                let f: TokenStream = f.parse().expect("an operator");
                quote!(#p = #o0 #f #o1;)
            }
            (Some(Wide::Method(m)), _) => {
                let m = format_ident!("{m}");
                quote!(#p = #o0.#m();)
            }
            (Some(Wide::SinCos), _) => {
                let is_sin = matches!(node, Node::Sin(_));
                let other = self.trig.packs.get(&(!is_sin, ops[0].clone())).copied();
                let call = quote!(sincos4(#o0.to_array()));
                match other.filter(|q| self.pack_local.contains_key(q)) {
                    Some(q) => {
                        packs_done.insert(q);
                        let (s, c) = if is_sin {
                            (p.clone(), self.p_name(q))
                        } else {
                            (self.p_name(q), p.clone())
                        };
                        quote!({ let (s, c) = #call; #s = V::new(s); #c = V::new(c); })
                    }
                    None if is_sin => quote!(#p = V::new(#call.0);),
                    None => quote!(#p = V::new(#call.1);),
                }
            }
            _ => unreachable!("{node:?} is not packed"),
        }
    }

    /// The block: the result declared (zeros and the constant and input
    /// outputs, or in `into` those alone), the locals, `body`, the result.
    fn block(&self, outputs: &[NodeId], body: Vec<TokenStream>, into: bool) -> TokenStream {
        let scalar = self.lowered.scalar;
        let ty = scalar.ty();
        let wide_ty = format_ident!("{}x{}", scalar.name(), LANES);
        let scalar_decls = declare_locals("s", self.scalar_local.len(), &ty);
        let pack_decls = declare_locals("p", self.pack_local.len(), &quote!(V));
        let zeros = self.shape.zeros(&self.literal(0.0));
        let sets = (outputs.iter().enumerate()).filter(|(_, &o)| match self.graph.node(o) {
            Node::Const(bits) => bits != 0,
            Node::Input(_) => true,
            _ => false,
        });
        let sets: Vec<TokenStream> = sets
            .map(|(k, &o)| {
                let (place, v) = (self.shape.place(k), self.value(o));
                quote!(#place = #v;)
            })
            .collect();
        // One value: assigned once, where computed (or a constant).
        let declare = match self.shape {
            _ if into => quote!(#(#sets)*),
            Shape::Scalar if self.places.is_empty() => {
                let v = self.value(outputs[0]);
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
}

/// Whether `x` is a constant or an input.
fn is_leaf(graph: &Graph, x: NodeId) -> bool {
    matches!(graph.node(x), Node::Const(_) | Node::Input(_))
}

/// Whether `pack` is a pack of inputs (the limbs' joint inputs).
fn is_input_pack(graph: &Graph, pack: &[NodeId]) -> bool {
    pack.first()
        .is_some_and(|&x| matches!(graph.node(x), Node::Input(_)))
}
