//! Printing: a [`Schedule`] as a Rust block (and its parts), in a scalar type
//! and an arithmetic.

use std::collections::HashMap;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

use super::schedule::{Op, Operand, Part, Schedule, Signed, Statement, TRIG_LANES};
use super::{Arith, Inputs, ScalarType, Shape};
use crate::graph::NodeId;
use crate::ops::Spelling;

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
    let lowered = Lowered {
        math,
        scalar,
        arith,
    };
    let x = |o: Operand| operand(o, "x", inputs, scalar, arith);
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
    let bodies: Vec<TokenStream> = (schedule.parts.iter())
        .map(|part| {
            let decls = declare_locals("x", part.locals, &ty);
            let body = part_body(schedule, part, &lowered, &x, &|k| place(k), &places);
            quote!(#(#decls)* #body)
        })
        .collect();
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
    if !several {
        // The block's value: the result, or nothing when written into `out`.
        let (body, declare) = (&bodies[0], declare(into));
        let result = (!into).then(|| quote!(out));
        return Emitted {
            block: quote!({ #declare #body #result }),
            parts: Vec::new(),
            by_value: None,
        };
    }
    chain_of_parts(&bodies, schedule.spills, &ty, split, into, &declare)
}

/// The parts as modules of their own (after the spill struct's type), and
/// the block calling them in order: [`print()`] with several parts.
fn chain_of_parts(
    bodies: &[TokenStream],
    spills: usize,
    ty: &TokenStream,
    split: &Split,
    into: bool,
    declare: &dyn Fn(bool) -> TokenStream,
) -> Emitted {
    let (params, names, output) = (split.params, split.names, split.output);
    let spill = format_ident!("{}", split.spill);
    let fields = std::iter::repeat_n(ty, spills);
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
        .chain(fns.iter().zip(bodies).map(|(f, body)| {
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

/// The statements of `part`, each followed by the stores of its results
/// into the outputs at `places` (through `place`) and the spill struct.
fn part_body(
    schedule: &Schedule,
    part: &Part,
    lowered: &Lowered,
    x: &dyn Fn(Operand) -> TokenStream,
    place: &dyn Fn(usize) -> TokenStream,
    places: &HashMap<NodeId, Vec<usize>>,
) -> TokenStream {
    let name = |s: usize| format_ident!("x{}", s);
    let mut body = Vec::with_capacity(2 * part.statements.len());
    for statement in &schedule.statements[part.statements.clone()] {
        let Statement { op, defines } = statement;
        let targets: Vec<Ident> = defines.iter().map(|d| name(d.slot)).collect();
        body.push(lowered.assignment(op, &targets, x));
        for d in defines {
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
    quote!(#(#body)*)
}

/// An operand as an expression: a literal, an input's read, local `slot`
/// as `{prefix}{slot}`, or a spill entry `t.{entry}`.
pub(super) fn operand(
    o: Operand,
    prefix: &str,
    inputs: &Inputs,
    scalar: ScalarType,
    arith: Arith,
) -> TokenStream {
    match o {
        Operand::Const(c) => arith.literal(scalar, c),
        Operand::Input(k) => inputs.token(k),
        Operand::Local { slot, .. } => {
            let n = format_ident!("{prefix}{slot}");
            quote!(#n)
        }
        Operand::Spilled { entry, .. } => {
            let e = Literal::usize_unsuffixed(entry);
            quote!(t.#e)
        }
    }
}

/// How lowered statements ([`Op`]) are written: the module of the math
/// functions, the scalar type and the arithmetic. [`print()`] writes every
/// statement with it, [`super::print_packed()`] its scalar ones.
pub(super) struct Lowered<'a> {
    /// The path of the module providing `libm`'s functions.
    pub math: &'a TokenStream,
    /// The floating-point type.
    pub scalar: ScalarType,
    /// Scalars or lanes of them.
    pub arith: Arith,
}

impl Lowered<'_> {
    /// The value of `op`, its operands written by `x`.
    pub fn expression(&self, op: &Op, x: &dyn Fn(Operand) -> TokenStream) -> TokenStream {
        let function = |name: &str| {
            let (math, f) = (self.math, self.scalar.math_function(name));
            quote!(#math::#f)
        };
        let signed = |s: Signed| {
            let v = x(s.operand);
            if s.negated {
                quote!(-#v)
            } else {
                v
            }
        };
        match *op {
            Op::SinCos(a) => {
                let (f, a) = (function("sincos"), x(a));
                quote!(#f(#a))
            }
            Op::SinCos4(args, _) => {
                let args = args.map(x);
                quote!(sincos4([#(#args),*]))
            }
            Op::MulAdd(a, b, c) => {
                let (a, b, c) = (signed(a), x(b), signed(c));
                quote!(mul_add(#a, #b, #c))
            }
            _ => {
                let (operator, args) = op.operation().expect("an operator");
                let v: Vec<TokenStream> = args[..operator.arity()].iter().map(|&a| x(a)).collect();
                match (operator.spelling(), self.arith) {
                    (Spelling::Prefix(p), _) => {
                        let p: TokenStream = p.parse().expect("an operator");
                        let a = &v[0];
                        quote!(#p #a)
                    }
                    (Spelling::Infix(p), _) => {
                        let p: TokenStream = p.parse().expect("an operator");
                        let (a, b) = (&v[0], &v[1]);
                        quote!(#a #p #b)
                    }
                    (Spelling::Call(name), _) => {
                        let f = function(name);
                        quote!(#f(#(#v),*))
                    }
                    (Spelling::Select, Arith::Scalar) => {
                        let (c, a, b) = (&v[0], &v[1], &v[2]);
                        quote!(if #c > 0.0 { #a } else { #b })
                    }
                    (Spelling::Select, Arith::Lanes) => {
                        let (c, a, b) = (&v[0], &v[1], &v[2]);
                        quote!(V::select(#c, #a, #b))
                    }
                }
            }
        }
    }

    /// The statement assigning `op`'s results to `targets` (its definitions'
    /// locals, in order): `x = ..;`, `(s, c) = ..;`, or for
    /// [`Op::SinCos4`] `([sines], [cosines]) = ..;` with `_` where unused.
    pub fn assignment(
        &self,
        op: &Op,
        targets: &[Ident],
        x: &dyn Fn(Operand) -> TokenStream,
    ) -> TokenStream {
        let expr = self.expression(op, x);
        match (op, targets) {
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
        }
    }
}
