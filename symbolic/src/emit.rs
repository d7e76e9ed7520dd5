//! Emission: a traced graph becomes a Rust block of `let` bindings in
//! topological order (ties broken by node id), ending in the output array.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use crate::graph::{Graph, Node, NodeId};

/// The shape of a function's output, filled row-major from the flat outputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// `[f64; n]`.
    Vector(usize),
    /// `[[f64; cols]; rows]`.
    Matrix(usize, usize),
}

/// Where input number `k` comes from: the argument `args[a].0` at index `i`,
/// numbered consecutively across arguments in order.
pub struct Inputs<'a> {
    /// Argument names and lengths, in trace order.
    pub args: &'a [(&'a str, usize)],
}

impl Inputs<'_> {
    fn token(&self, k: u32) -> TokenStream {
        let mut k = k as usize;
        for (name, len) in self.args {
            if k < *len {
                let name = Ident::new(name, Span::call_site());
                let i = Literal::usize_unsuffixed(k);
                return quote!(#name[#i]);
            }
            k -= len;
        }
        unreachable!("input number beyond the arguments")
    }
}

/// A float literal that reads back to the same bits (Rust's shortest
/// round-trip form).
pub fn float_literal(x: f64) -> TokenStream {
    let lit: Literal = format!("{:?}", x.abs()).parse().expect("a finite float is a literal");
    if x.is_sign_negative() {
        quote!(-#lit)
    } else {
        quote!(#lit)
    }
}

/// The block `{ let t0 = ...; ...; [outputs] }` computing `outputs` of `graph`.
/// `math` is the path of the module providing `sin`, `cos`, `sincos`, `sqrt`.
pub fn emit_block(graph: &Graph, outputs: &[NodeId], shape: Shape, inputs: &Inputs, math: &TokenStream) -> TokenStream {
    let live = graph.reachable(outputs);
    let nodes = graph.nodes();
    let mut names: Vec<Option<Ident>> = vec![None; nodes.len()];
    let mut next = 0usize;
    let mut fresh = || {
        next += 1;
        format_ident!("t{}", next - 1)
    };
    // Sin and cos of one argument share one `sincos` call.
    let mut sin_of = std::collections::HashMap::new();
    let mut cos_of = std::collections::HashMap::new();
    for (i, node) in nodes.iter().enumerate() {
        if live[i] {
            match node {
                Node::Sin(a) => _ = sin_of.insert(*a, i),
                Node::Cos(a) => _ = cos_of.insert(*a, i),
                _ => {}
            }
        }
    }
    let operand = |names: &[Option<Ident>], id: NodeId| -> TokenStream {
        match graph.node(id) {
            Node::Const(bits) => float_literal(f64::from_bits(bits)),
            Node::Input(k) => inputs.token(k),
            _ => {
                let name = names[id.0 as usize].as_ref().expect("operand scheduled before use");
                quote!(#name)
            }
        }
    };
    let mut body = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        if !live[i] || names[i].is_some() {
            continue;
        }
        let x = |id: NodeId| operand(&names, id);
        let expr = match *node {
            Node::Const(_) | Node::Input(_) => continue,
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
                quote!(#math::sqrt(#a))
            }
            Node::Sin(a) | Node::Cos(a) => {
                if let (Some(&s), Some(&c)) = (sin_of.get(&a), cos_of.get(&a)) {
                    let arg = x(a);
                    let (sn, cn) = (fresh(), fresh());
                    body.push(quote!(let (#sn, #cn) = #math::sincos(#arg);));
                    names[s] = Some(sn);
                    names[c] = Some(cn);
                    continue;
                }
                let arg = x(a);
                if matches!(node, Node::Sin(_)) {
                    quote!(#math::sin(#arg))
                } else {
                    quote!(#math::cos(#arg))
                }
            }
        };
        let name = fresh();
        body.push(quote!(let #name = #expr;));
        names[i] = Some(name);
    }
    let values: Vec<TokenStream> = outputs.iter().map(|&o| operand(&names, o)).collect();
    let result = match shape {
        Shape::Vector(n) => {
            assert_eq!(n, values.len());
            quote!([#(#values),*])
        }
        Shape::Matrix(r, c) => {
            assert_eq!(r * c, values.len());
            let rows = values.chunks(c).map(|row| quote!([#(#row),*]));
            quote!([#(#rows),*])
        }
    };
    quote!({ #(#body)* #result })
}
