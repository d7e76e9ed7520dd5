//! Printing: a [`Schedule`] as a Rust block (and its parts), in a scalar type
//! and an arithmetic.

use std::collections::HashMap;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::schedule::{Op, Operand, Schedule, Signed, TRIG_LANES};
use super::{Arith, Inputs, ScalarType, Shape};
use crate::graph::NodeId;

/// What [`print()`] makes: the function body, and the parts it calls
/// (module-level items, empty unless the block has several parts).
pub struct Emitted {
    /// The block, ending in the output expression.
    pub block: TokenStream,
    /// The spill type `struct {spill}(S, .., S)` (C fields), then `mod
    /// {prefix}{k} { .. fn run(params.., t: &mut {spill}, out: &mut R) }` in
    /// order.
    pub parts: Vec<TokenStream>,
    /// Printed `into` with several parts: the block that returns its result
    /// instead (a local `out`, zeros filled, then the same calls), which
    /// shares the parts.
    pub by_value: Option<TokenStream>,
}

/// How a long block is split: the parts' name prefix, and the enclosing
/// function's parameters (declared by each part) and their names (passed on).
pub struct Split<'a> {
    /// Names the parts `{prefix}0`, `{prefix}1`, ...; unique in the module.
    pub prefix: &'a str,
    /// Names the spill struct, a tuple struct; unique in the module.
    pub spill: &'a str,
    /// The parameter declarations, as `q: &[f64; NQ]`.
    pub params: &'a [TokenStream],
    /// The parameter names, in the same order.
    pub names: &'a [Ident],
    /// The type of the block's result, which each part receives as `out:
    /// &mut` to store its outputs in.
    pub output: &'a TokenStream,
}

/// How many locals one `let` declares: eight names and their type fit a line.
pub const LOCALS_PER_LET: usize = 8;

/// `let [x0, .., x7]: [ty; 8];` and so on for the locals `{prefix}0` to
/// `{prefix}{count - 1}`, [`LOCALS_PER_LET`] to a `let` (see [`print()`]).
pub(super) fn declare_locals(prefix: &str, count: usize, ty: &TokenStream) -> Vec<TokenStream> {
    let all: Vec<usize> = (0..count).collect();
    let lets = all.chunks(LOCALS_PER_LET).map(|chunk| {
        let names = chunk.iter().map(|&n| format_ident!("{prefix}{n}"));
        let len = Literal::usize_unsuffixed(chunk.len());
        quote!(let [#(#names),*]: [#ty; #len];)
    });
    lets.collect()
}

/// The block of `schedule` in `scalar` arithmetic (or lanes of it), ending in
/// the outputs arranged as `shape`. `inputs` names the arguments the inputs
/// are read from; `math` is the path of the module providing `libm`'s
/// functions (`sin`, `cos`, `sincos`, `sqrt`, `atan2` and their `f32` forms
/// `sinf`, ...). Every constant must be representable in `scalar`. Fused
/// products call the enclosing module's `mul_add`, groups of angles its
/// `sincos4` (scalar and lanes modules define both).
///
/// Local `k` of a part is `xk`, assigned once. The locals are declared at the
/// top of the part, [`LOCALS_PER_LET`] to a `let` (`let [x0, .., x7]: [f64;
/// 8];`): one `let` per value nests one lexical scope per operation, and
/// rustc overflows its stack on a few thousand of them in a debug build. A
/// schedule of several parts becomes a chain of `#[inline(never)]` functions
/// `{prefix}{k}::run` taking the enclosing function's parameters, the spill
/// struct `t` and the result `out` (both on the caller's stack). `t` is a tuple
/// struct, read as `t.12`, not an array: rustc type-checks an array index through the
/// `Index` trait, and on Go2+Z1's largest build the spill indices took about
/// 60 % of the type check and a fifth of the whole build. Each part is a
/// module of its own because rustc puts each module in its own codegen unit,
/// which LLVM compiles in parallel with the others.
///
/// Each output is stored into `out` as soon as it is computed (`out[3][5] =
/// x9;`), rather than kept live to the end (the entries of a mass matrix, say)
/// or spilled and gathered: a block of thousands of consecutive loads and
/// stores is what LLVM's store merging takes superlinear time on.
///
/// With `into`, the block returns nothing and writes into the enclosing
/// function's `out: &mut R`, which holds zeros: every output but the
/// constant zeros is written. A batch calls it on one result, zeroed once,
/// instead of filling and copying a result per call.
#[allow(clippy::too_many_arguments)]
pub fn print(
    schedule: &Schedule,
    shape: &Shape,
    inputs: &Inputs,
    math: &TokenStream,
    scalar: ScalarType,
    arith: Arith,
    split: &Split,
    into: bool,
) -> Emitted {
    let function = |name: &str| {
        let f = scalar.math_function(name);
        quote!(#math::#f)
    };
    let (sin, cos, sincos) = (function("sin"), function("cos"), function("sincos"));
    let (sqrt, atan2) = (function("sqrt"), function("atan2"));
    let name = |s: usize| format_ident!("x{}", s);
    let x = |o: Operand| -> TokenStream {
        match o {
            Operand::Const(c) => arith.literal(scalar, c),
            Operand::Input(k) => inputs.token(k),
            Operand::Local { slot, .. } => {
                let n = name(slot);
                quote!(#n)
            }
            Operand::Spilled { entry, .. } => {
                let e = Literal::usize_unsuffixed(entry);
                quote!(t.#e)
            }
        }
    };
    let signed = |s: Signed| {
        let v = x(s.operand);
        if s.negated {
            quote!(-#v)
        } else {
            v
        }
    };
    let ty = arith.ty(scalar);
    // Output `k` is the place `out[..]`; in a part, a scalar result is `*out`.
    let several = schedule.parts.len() > 1;
    let place = |k: usize| match shape {
        Shape::Scalar if several || into => quote!(*out),
        _ => shape.place(k),
    };
    let mut places: HashMap<NodeId, Vec<usize>> = HashMap::new();
    for (k, o) in schedule.outputs.iter().enumerate() {
        if let Operand::Local { node, .. } = o {
            places.entry(*node).or_default().push(k);
        }
    }
    let mut bodies: Vec<TokenStream> = Vec::with_capacity(schedule.parts.len());
    for part in &schedule.parts {
        let decls = declare_locals("x", part.locals, &ty);
        let mut body = Vec::with_capacity(2 * part.statements.len());
        for statement in &schedule.statements[part.statements.clone()] {
            let expr = match statement.op {
                Op::Neg(a) => {
                    let a = x(a);
                    quote!(-#a)
                }
                Op::Add(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a + #b)
                }
                Op::Sub(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a - #b)
                }
                Op::Mul(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a * #b)
                }
                Op::Div(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#a / #b)
                }
                Op::Sqrt(a) => {
                    let a = x(a);
                    quote!(#sqrt(#a))
                }
                Op::Atan2(a, b) => {
                    let (a, b) = (x(a), x(b));
                    quote!(#atan2(#a, #b))
                }
                Op::Select(c, a, b) => {
                    let (c, a, b) = (x(c), x(a), x(b));
                    match arith {
                        Arith::Scalar => quote!(if #c > 0.0 { #a } else { #b }),
                        Arith::Lanes => quote!(V::select(#c, #a, #b)),
                    }
                }
                Op::Sin(a) => {
                    let a = x(a);
                    quote!(#sin(#a))
                }
                Op::Cos(a) => {
                    let a = x(a);
                    quote!(#cos(#a))
                }
                Op::SinCos(a) => {
                    let a = x(a);
                    quote!(#sincos(#a))
                }
                Op::SinCos4(args, _) => {
                    let args = args.map(x);
                    quote!(sincos4([#(#args),*]))
                }
                Op::MulAdd(a, b, c) => {
                    let (a, b, c) = (signed(a), x(b), signed(c));
                    quote!(mul_add(#a, #b, #c))
                }
            };
            let targets: Vec<Ident> = statement.defines.iter().map(|d| name(d.slot)).collect();
            body.push(match (statement.op, targets.as_slice()) {
                // `([sines], [cosines]) = sincos4(..)`, `_` where unused.
                (Op::SinCos4(_, used), _) => {
                    let mut defined = targets.iter();
                    let mut each = used.iter().map(|&u| match u {
                        true => {
                            let t = defined.next().expect("a local per used result");
                            quote!(#t)
                        }
                        false => quote!(_),
                    });
                    let sines: Vec<TokenStream> = each.by_ref().take(TRIG_LANES).collect();
                    let cosines: Vec<TokenStream> = each.collect();
                    quote!(([#(#sines),*], [#(#cosines),*]) = #expr;)
                }
                (_, [one]) => quote!(#one = #expr;),
                (_, many) => quote!((#(#many),*) = #expr;),
            });
            for d in &statement.defines {
                for &k in places.get(&d.node).into_iter().flatten() {
                    let (place, v) = (place(k), name(d.slot));
                    body.push(quote!(#place = #v;));
                }
                if let Some(e) = d.spill {
                    let (e, v) = (Literal::usize_unsuffixed(e), name(d.slot));
                    body.push(quote!(t.#e = #v;));
                }
            }
        }
        bodies.push(quote!(#(#decls)* #(#body)*));
    }
    let zero = arith.literal(scalar, 0.0);
    // The constant and input outputs that are not zero.
    let sets = |into: bool| {
        let nonzero = schedule
            .outputs
            .iter()
            .enumerate()
            .filter(|(_, o)| match o {
                Operand::Local { .. } => false,
                Operand::Const(c) => c.to_bits() != 0,
                _ => true,
            });
        // Into `out` a scalar is `*out`; a local `out` is assigned directly.
        let sets = nonzero.map(|(k, &o)| {
            let place = if into { place(k) } else { shape.place(k) };
            let v = x(o);
            quote!(#place = #v;)
        });
        quote!(#(#sets)*)
    };
    let declare = |into: bool| match shape {
        _ if into => sets(true),
        // One value, computed in this function: assigned once, where computed.
        Shape::Scalar if !several && !places.is_empty() => quote!(let out: #ty;),
        // Nothing computed: the outputs as one literal.
        _ if places.is_empty() && !several => {
            let values: Vec<TokenStream> = schedule.outputs.iter().map(|&o| x(o)).collect();
            let initial = shape.build(&values);
            quote!(let out = #initial;)
        }
        // Zeros (`[[0.0; C]; R]`, a fill), then the constant and input outputs
        // that are not zero: a literal of the whole array is built on the stack
        // and copied into place, many times the cost of a fill for lanes.
        _ => {
            let zeros = shape.build(&vec![zero.clone(); shape.len()]);
            let sets = sets(false);
            quote!(let mut out = #zeros; #sets)
        }
    };
    // The block's value: the result, or nothing when written into `out`.
    let result = (!into).then(|| quote!(out));
    if !several {
        let (body, declare) = (&bodies[0], declare(into));
        return Emitted {
            block: quote!({ #declare #body #result }),
            parts: Vec::new(),
            by_value: None,
        };
    }
    let (params, names, output) = (split.params, split.names, split.output);
    let spill = format_ident!("{}", split.spill);
    let fields = std::iter::repeat_n(&ty, schedule.spills);
    let spill_type = quote! {
        /// The values that outlive the part computing them (a field is reused
        /// after the last part reading it).
        #[derive(Default)]
        struct #spill(#(#fields),*);
    };
    let fns: Vec<Ident> = (0..bodies.len())
        .map(|k| format_ident!("{}{}", split.prefix, k))
        .collect();
    let items = std::iter::once(spill_type)
        .chain(fns.iter().zip(&bodies).map(|(f, body)| {
            quote! {
                mod #f {
                    #[allow(unused_imports)]
                    use super::*;
                    #[inline(never)]
                    #[allow(unused_variables)]
                    pub(super) fn run(#(#params,)* t: &mut #spill, out: &mut #output) { #body }
                }
            }
        }))
        .collect();
    // The calls of the parts, on `out` (into) or on a local result returned.
    let block = |into: bool| {
        let (declare, result) = (declare(into), (!into).then(|| quote!(out)));
        let out = if into { quote!(out) } else { quote!(&mut out) };
        let calls = fns
            .iter()
            .map(|f| quote!(#f::run(#(#names,)* &mut t, #out);));
        quote!({
            #declare
            let mut t = #spill::default();
            #(#calls)*
            #result
        })
    };
    Emitted {
        block: block(into),
        parts: items,
        by_value: into.then(|| block(false)),
    }
}
