//! Emission: a traced graph becomes a Rust block of `let` bindings in
//! topological order (ties broken by node id), ending in the output array.

use std::collections::{BTreeSet, HashMap};

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::graph::{Graph, Node, NodeId};

/// The shape of a function's output, filled row-major from the flat outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `S` (the scalar type).
    Scalar,
    /// `[S; n]`.
    Vector(usize),
    /// `[[S; cols]; rows]`.
    Matrix(usize, usize),
    /// A tuple of shapes, filled one after the other.
    Tuple(Vec<Shape>),
}

impl Shape {
    /// The number of values.
    pub fn len(&self) -> usize {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => *n,
            Shape::Matrix(r, c) => r * c,
            Shape::Tuple(parts) => parts.iter().map(Shape::len).sum(),
        }
    }

    /// Whether the shape holds no value.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The expression of this shape built from `values`, in order.
    fn build(&self, values: &[TokenStream]) -> TokenStream {
        assert_eq!(self.len(), values.len());
        match self {
            Shape::Scalar => values[0].clone(),
            Shape::Vector(_) => quote!([#(#values),*]),
            Shape::Matrix(_, c) => {
                let rows = values.chunks(*c).map(|row| quote!([#(#row),*]));
                quote!([#(#rows),*])
            }
            Shape::Tuple(parts) => {
                let mut rest = values;
                let items = parts.iter().map(|p| {
                    let (now, later) = rest.split_at(p.len());
                    rest = later;
                    p.build(now)
                });
                let items: Vec<TokenStream> = items.collect();
                quote!((#(#items),*))
            }
        }
    }
}

/// Where input number `k` comes from: the argument `args[a].0` at index `i`,
/// numbered consecutively across arguments in order.
pub struct Inputs<'a> {
    /// Argument names and lengths (of scalars), in trace order.
    pub args: &'a [(&'a str, usize)],
    /// For each argument, the length of its rows when it is an array of rows
    /// (index `i` read as `name[i / len][i % len]`), `None` for a flat array
    /// (`name[i]`), `Some(0)` for a scalar argument (`name`). Shorter than
    /// `args` when the last arguments are flat.
    pub row_len: &'a [Option<usize>],
}

impl Inputs<'_> {
    fn token(&self, k: u32) -> TokenStream {
        let mut k = k as usize;
        for (a, (name, len)) in self.args.iter().enumerate() {
            if k < *len {
                let name = Ident::new(name, Span::call_site());
                return match self.row_len.get(a).copied().flatten() {
                    Some(0) => quote!(#name),
                    Some(n) => {
                        let (r, c) = (
                            Literal::usize_unsuffixed(k / n),
                            Literal::usize_unsuffixed(k % n),
                        );
                        quote!(#name[#r][#c])
                    }
                    None => {
                        let i = Literal::usize_unsuffixed(k);
                        quote!(#name[#i])
                    }
                };
            }
            k -= len;
        }
        unreachable!("input number beyond the arguments")
    }
}

/// A float literal that reads back to the same bits (Rust's shortest
/// round-trip form).
pub fn float_literal(x: f64) -> TokenStream {
    signed_literal(format!("{:?}", x.abs()), x.is_sign_negative())
}

fn signed_literal(text: String, negative: bool) -> TokenStream {
    let lit: Literal = text.parse().expect("a finite float is a literal");
    if negative {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// The floating-point type of the generated code: every argument, local,
/// literal and result is of this type, and the math functions are `libm`'s for
/// it (`sin`, `cos`, `sincos`, `sqrt`, `atan2` for `f64`; `sinf`, `cosf`,
/// `sincosf`, `sqrtf`, `atan2f` for `f32`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ScalarType {
    /// `f64` (the default): the same numbers as the runtime, to rounding.
    #[default]
    F64,
    /// `f32`, for microcontrollers with a single-precision FPU. The model's
    /// constants are rounded to `f32`; see the README for the accuracy.
    F32,
}

impl ScalarType {
    /// Both types, `f64` first.
    pub const ALL: [ScalarType; 2] = [ScalarType::F64, ScalarType::F32];

    /// The Rust type name, `"f64"` or `"f32"`.
    pub fn name(self) -> &'static str {
        match self {
            ScalarType::F64 => "f64",
            ScalarType::F32 => "f32",
        }
    }

    /// The type called `name` (`"f64"` or `"f32"`).
    pub fn from_name(name: &str) -> Option<ScalarType> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The type as tokens.
    pub fn ty(self) -> TokenStream {
        let ty = Ident::new(self.name(), Span::call_site());
        quote!(#ty)
    }

    /// Whether the constant `x` is representable (finite after rounding to this type).
    pub fn represents(self, x: f64) -> bool {
        match self {
            ScalarType::F64 => x.is_finite(),
            ScalarType::F32 => (x as f32).is_finite(),
        }
    }

    /// The `libm` function for the `f64` function `name` (`sin` → `sinf` for
    /// `f32`), as emission calls it.
    pub fn math_name(self, name: &str) -> Ident {
        self.math_function(name)
    }

    /// The literal of `x` rounded to this type, in the shortest form that reads
    /// back to the same bits. `x` must be [representable](Self::represents).
    pub fn literal(self, x: f64) -> TokenStream {
        match self {
            ScalarType::F64 => float_literal(x),
            ScalarType::F32 => {
                let y = x as f32;
                signed_literal(format!("{:?}", y.abs()), y.is_sign_negative())
            }
        }
    }

    /// The `libm` function for the `f64` function `name` (`sin` → `sinf` for `f32`).
    fn math_function(self, name: &str) -> Ident {
        match self {
            ScalarType::F64 => Ident::new(name, Span::call_site()),
            ScalarType::F32 => format_ident!("{name}f"),
        }
    }
}

/// The arithmetic of emitted statements: scalars of the [`ScalarType`], or
/// lanes of them (the generated module's `lanes::V`, one state per lane),
/// whose literals are `V::splat(..)` and whose `select` is lane-wise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Arith {
    /// One state: `f64` (or `f32`) values.
    #[default]
    Scalar,
    /// `L` states per value, the type `V` of the `lanes` module.
    Lanes,
}

impl Arith {
    /// The type of a value.
    fn ty(self, scalar: ScalarType) -> TokenStream {
        match self {
            Arith::Scalar => scalar.ty(),
            Arith::Lanes => quote!(V),
        }
    }

    /// A constant.
    fn literal(self, scalar: ScalarType, x: f64) -> TokenStream {
        let lit = scalar.literal(x);
        match self {
            Arith::Scalar => lit,
            Arith::Lanes => quote!(V::splat(#lit)),
        }
    }
}

/// Blocks longer than this many statements are emitted as a chain of parts
/// (see [`emit_block`]): rustc's time on one straight-line function grows
/// faster than its length.
pub const PART_LEN: usize = 4000;

/// What [`emit_block`] makes: the function body, and the parts it calls
/// (module-level items, empty unless the block was split).
pub struct Emitted {
    /// The block, ending in the output expression.
    pub block: TokenStream,
    /// `#[inline(never)] fn {prefix}{k}(params.., t: &mut [S; C])`, in order.
    pub parts: Vec<TokenStream>,
}

/// How a long block is split: the parts' name prefix, and the enclosing
/// function's parameters (declared by each part) and their names (passed on).
pub struct Split<'a> {
    /// Names the parts `{prefix}0`, `{prefix}1`, ...; unique in the module.
    pub prefix: &'a str,
    /// The parameter declarations, as `q: &[f64; NQ]`.
    pub params: &'a [TokenStream],
    /// The parameter names, in the same order.
    pub names: &'a [Ident],
}

/// The block computing `outputs` of `graph` in `scalar` arithmetic, ending in
/// the output array. `math` is the path of the module providing `libm`'s
/// functions (`sin`, `cos`, `sincos`, `sqrt`, `atan2` and their `f32` forms
/// `sinf`, ...). Every constant of the graph must be representable in `scalar`.
///
/// Values live in a few reused `f64` locals (`x0`, `x1`, ...), assigned in
/// topological order with ties broken by node id: a slot is freed after its
/// value's last use. One `let` per value would nest one lexical scope per
/// operation, which debug builds of large functions cannot digest.
///
/// Above [`PART_LEN`] statements the block becomes a chain of parts of about
/// equal length, each a function of its own; values used after the part that
/// computes them (and the outputs) pass through one array `t` on the stack,
/// whose entries are reused once their value is dead.
#[allow(clippy::too_many_arguments)] // the graph, its outputs, and how to print them
pub fn emit_block(
    graph: &Graph,
    outputs: &[NodeId],
    shape: &Shape,
    inputs: &Inputs,
    math: &TokenStream,
    scalar: ScalarType,
    arith: Arith,
    split: &Split,
) -> Emitted {
    let function = |name: &str| {
        let f = scalar.math_function(name);
        quote!(#math::#f)
    };
    let (sin, cos, sincos) = (function("sin"), function("cos"), function("sincos"));
    let (sqrt, atan2) = (function("sqrt"), function("atan2"));
    let live = graph.reachable(outputs);
    let nodes = graph.nodes();
    let mut last_use = graph.last_use(outputs, &live);
    let fused = fusions(graph, outputs, &live, &mut last_use);
    // Sin and cos of one argument share one `sincos` call.
    let mut sin_of = HashMap::new();
    let mut cos_of = HashMap::new();
    for (i, node) in nodes.iter().enumerate() {
        if live[i] {
            match node {
                Node::Sin(a) => _ = sin_of.insert(*a, i),
                Node::Cos(a) => _ = cos_of.insert(*a, i),
                _ => {}
            }
        }
    }
    let pair = |node: &Node| match node {
        Node::Sin(a) | Node::Cos(a) => sin_of.get(a).copied().zip(cos_of.get(a).copied()),
        _ => None,
    };
    // The statements, in order: each defines one node (two for a sincos pair).
    let mut defined = vec![false; nodes.len()];
    let mut statements = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let leaf = matches!(node, Node::Const(_) | Node::Input(_));
        if !live[i] || leaf || defined[i] || fused.product_of.contains_key(&i) {
            continue;
        }
        if let Some((s, c)) = pair(node) {
            defined[s] = true;
            defined[c] = true;
        }
        defined[i] = true;
        statements.push(i);
    }
    let parts = statements.len().div_ceil(PART_LEN).max(1);
    let per_part = statements.len().div_ceil(parts).max(1);
    // The part of each defined node, and the last part using it.
    let mut part = vec![0usize; nodes.len()];
    for (k, &i) in statements.iter().enumerate() {
        part[i] = k / per_part;
        if let Some((s, c)) = pair(&nodes[i]) {
            part[s] = part[i];
            part[c] = part[i];
        }
        if let Some(&m) = fused.sum_of.get(&i) {
            part[m] = part[i];
        }
    }
    let mut used_until = vec![0usize; nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        if live[i] {
            for c in node.children() {
                let c = c.0 as usize;
                used_until[c] = used_until[c].max(part[i]);
            }
        }
    }
    for o in outputs {
        used_until[o.0 as usize] = usize::MAX;
    }
    // Entries of `t` for the values that outlive their part.
    let mut carried: HashMap<usize, usize> = HashMap::new();
    let mut t_len = 0;
    if parts > 1 {
        let mut held: Vec<(usize, usize)> = Vec::new(); // (used until, entry)
        let mut free_t: BTreeSet<usize> = BTreeSet::new();
        for &i in &statements {
            held.retain(|&(until, entry)| {
                let keep = until >= part[i];
                if !keep {
                    free_t.insert(entry);
                }
                keep
            });
            let defs = match pair(&nodes[i]) {
                Some((s, c)) => vec![s, c],
                None => vec![i],
            };
            for d in defs {
                if used_until[d] > part[d] {
                    let entry = free_t.pop_first().unwrap_or_else(|| {
                        t_len += 1;
                        t_len - 1
                    });
                    carried.insert(d, entry);
                    held.push((used_until[d], entry));
                }
            }
        }
    }
    let name = |s: usize| format_ident!("x{}", s);
    let t_entry = |d: usize| Literal::usize_unsuffixed(carried[&d]);
    let ty = arith.ty(scalar);
    // One part at a time: its statements, its locals.
    let mut slot: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut bodies: Vec<TokenStream> = Vec::new();
    let mut current = 0;
    let mut free: BTreeSet<usize> = BTreeSet::new();
    // How many values each slot holds over the part: a slot assigned once is
    // declared without `mut`.
    let mut assignments: Vec<usize> = Vec::new();
    let mut body = Vec::new();
    let finish = |assignments: &mut Vec<usize>, body: &mut Vec<TokenStream>| {
        let decls = assignments.iter().enumerate().map(|(s, &count)| {
            let n = name(s);
            if count > 1 {
                quote!(let mut #n: #ty;)
            } else {
                quote!(let #n: #ty;)
            }
        });
        let out = quote!(#(#decls)* #(#body)*);
        assignments.clear();
        body.clear();
        out
    };
    for &i in &statements {
        if part[i] != current {
            bodies.push(finish(&mut assignments, &mut body));
            free.clear();
            current = part[i];
        }
        let operand = |id: NodeId| -> TokenStream {
            let d = id.0 as usize;
            match graph.node(id) {
                Node::Const(bits) => arith.literal(scalar, f64::from_bits(bits)),
                Node::Input(k) => inputs.token(k),
                _ if part[d] != current => {
                    let e = t_entry(d);
                    quote!(t[#e])
                }
                _ => {
                    let s = name(slot[d].expect("operand scheduled before use"));
                    quote!(#s)
                }
            }
        };
        let mut allocate = |free: &mut BTreeSet<usize>| {
            let s = free.pop_first().unwrap_or(assignments.len());
            if s == assignments.len() {
                assignments.push(0);
            }
            assignments[s] += 1;
            s
        };
        // Frees the local slots of `node`'s operands last used at `at`.
        let release = |node: &Node, at: usize, free: &mut BTreeSet<usize>| {
            for c in node.children() {
                let c = c.0 as usize;
                if last_use[c] == at && part[c] == current {
                    if let Some(s) = slot[c] {
                        free.insert(s);
                    }
                }
            }
        };
        let node = &nodes[i];
        let x = operand;
        let expr = if let Some(&m) = fused.sum_of.get(&i) {
            let Node::Mul(p, q) = nodes[m] else {
                unreachable!("only products are fused")
            };
            // `-x`, folded into a constant's literal.
            let negated = |id: NodeId| match graph.node(id) {
                Node::Const(bits) => arith.literal(scalar, -f64::from_bits(bits)),
                _ => {
                    let v = x(id);
                    quote!(-#v)
                }
            };
            let expr = match *node {
                Node::Add(a, b) => {
                    let (p, q, c) = (x(p), x(q), x(if a.0 as usize == m { b } else { a }));
                    quote!(mul_add(#p, #q, #c))
                }
                Node::Sub(a, b) if a.0 as usize == m => {
                    let (p, q, c) = (x(p), x(q), negated(b));
                    quote!(mul_add(#p, #q, #c))
                }
                Node::Sub(a, _) => {
                    let (p, q, c) = (negated(p), x(q), x(a));
                    quote!(mul_add(#p, #q, #c))
                }
                _ => unreachable!("only sums take a fused product"),
            };
            release(&nodes[m], i, &mut free);
            expr
        } else {
            match *node {
                Node::Const(_) | Node::Input(_) => unreachable!("leaves are not statements"),
                Node::Neg(a) => {
                    let a = x(a);
                    quote!(-#a)
                }
                Node::Add(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a + #b)
                }
                Node::Sub(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a - #b)
                }
                Node::Mul(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a * #b)
                }
                Node::Div(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a / #b)
                }
                Node::Sqrt(a) => {
                    let a = x(a);
                    quote!(#sqrt(#a))
                }
                Node::Atan2(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#atan2(#a, #b))
                }
                Node::Select(c, a, b) => {
                    let (c, a, b) = (x(c), x(a), x(b));
                    match arith {
                        Arith::Scalar => quote!(if #c > 0.0 { #a } else { #b }),
                        Arith::Lanes => quote!(V::select(#c, #a, #b)),
                    }
                }
                Node::Sin(a) | Node::Cos(a) => match pair(node) {
                    Some((s, c)) => {
                        let arg = x(a);
                        release(&nodes[s], s, &mut free);
                        release(&nodes[c], c, &mut free);
                        let (ss, cs) = (allocate(&mut free), allocate(&mut free));
                        slot[s] = Some(ss);
                        slot[c] = Some(cs);
                        let (sn, cn) = (name(ss), name(cs));
                        body.push(quote!((#sn, #cn) = #sincos(#arg);));
                        for d in [s, c] {
                            if carried.contains_key(&d) {
                                let (e, v) = (t_entry(d), name(slot[d].unwrap()));
                                body.push(quote!(t[#e] = #v;));
                            }
                        }
                        continue;
                    }
                    None if matches!(node, Node::Sin(_)) => {
                        let a = x(a);
                        quote!(#sin(#a))
                    }
                    None => {
                        let a = x(a);
                        quote!(#cos(#a))
                    }
                },
            }
        };
        release(node, i, &mut free);
        let s = allocate(&mut free);
        slot[i] = Some(s);
        let n = name(s);
        body.push(quote!(#n = #expr;));
        if carried.contains_key(&i) {
            let e = t_entry(i);
            body.push(quote!(t[#e] = #n;));
        }
    }
    let last = finish(&mut assignments, &mut body);
    let value = |id: NodeId| -> TokenStream {
        match graph.node(id) {
            Node::Const(bits) => arith.literal(scalar, f64::from_bits(bits)),
            Node::Input(k) => inputs.token(k),
            _ if parts > 1 => {
                let e = t_entry(id.0 as usize);
                quote!(t[#e])
            }
            _ => {
                let s = name(slot[id.0 as usize].expect("output scheduled"));
                quote!(#s)
            }
        }
    };
    let values: Vec<TokenStream> = outputs.iter().map(|&o| value(o)).collect();
    let result = shape.build(&values);
    if parts == 1 {
        return Emitted {
            block: quote!({ #last #result }),
            parts: Vec::new(),
        };
    }
    bodies.push(last);
    let (params, names) = (split.params, split.names);
    let t_len = Literal::usize_unsuffixed(t_len);
    let fns: Vec<Ident> = (0..bodies.len())
        .map(|k| format_ident!("{}{}", split.prefix, k))
        .collect();
    let items = fns
        .iter()
        .zip(&bodies)
        .map(|(f, body)| {
            quote! {
                #[inline(never)]
                #[allow(unused_variables)]
                fn #f(#(#params,)* t: &mut [#ty; #t_len]) { #body }
            }
        })
        .collect();
    let calls = fns.iter().map(|f| quote!(#f(#(#names,)* &mut t);));
    let zero = arith.literal(scalar, 0.0);
    Emitted {
        block: quote!({
            let mut t = [#zero; #t_len];
            #(#calls)*
            #result
        }),
        parts: items,
    }
}

/// Products fused into the sum that uses them: `x = a * b; y = x + c` becomes
/// `y = mul_add(a, b, c)` (the generated module's helper: one rounding where the
/// target has FMA instructions). A product qualifies when its only use is as an
/// operand of one sum or difference and it is not an output; each sum takes at
/// most one. `last_use` of the product's operands moves to the sum.
struct Fusions {
    /// Sum node → the product fused into it.
    sum_of: HashMap<usize, usize>,
    /// Product node → the sum it is fused into.
    product_of: HashMap<usize, usize>,
}

fn fusions(graph: &Graph, outputs: &[NodeId], live: &[bool], last_use: &mut [usize]) -> Fusions {
    let nodes = graph.nodes();
    let mut uses = vec![0usize; nodes.len()];
    for (node, _) in nodes.iter().zip(live).filter(|(_, &l)| l) {
        for c in node.children() {
            uses[c.0 as usize] += 1;
        }
    }
    for o in outputs {
        uses[o.0 as usize] = usize::MAX;
    }
    let mut f = Fusions {
        sum_of: HashMap::new(),
        product_of: HashMap::new(),
    };
    for (i, node) in nodes.iter().enumerate() {
        let (Node::Add(a, b) | Node::Sub(a, b)) = *node else {
            continue;
        };
        if !live[i] || a == b {
            continue;
        }
        let product = [a, b].into_iter().map(|c| c.0 as usize).find(|&c| {
            matches!(nodes[c], Node::Mul(..)) && uses[c] == 1 && !f.product_of.contains_key(&c)
        });
        if let Some(m) = product {
            f.sum_of.insert(i, m);
            f.product_of.insert(m, i);
            for g in nodes[m].children() {
                let g = g.0 as usize;
                last_use[g] = last_use[g].max(i);
            }
        }
    }
    f
}
