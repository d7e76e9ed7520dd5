//! Emission: a traced graph becomes a Rust block of assignments in
//! topological order (ties broken by node id), ending in the output array.
//! [`schedule()`] decides the statements, their locals, the parts of a
//! long block and the values spilled between parts, as plain data; [`print()`]
//! writes that schedule as Rust in a scalar type and an arithmetic.
//! [`print_packed()`] (limbs side by side) lowers its scalar operations with
//! the schedule's lowering and fusion step and writes them with the same
//! statement printer; its vector statements are its own.

mod packed;
mod print;
mod schedule;
#[cfg(test)]
mod tests;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

pub use packed::print_packed;
pub use print::{print, Emitted, Split, LOCALS_PER_LET};
pub use schedule::{
    schedule, Definition, Op, Operand, Part, Schedule, Signed, Statement, TRIG_LANES,
};

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

    /// The place of value `k` (row-major) in a variable `out` of this shape:
    /// `out`, `out[i]`, `out[i][j]`, `out.t[..]`.
    fn place(&self, k: usize) -> TokenStream {
        let index = self.index(k);
        quote!(out #index)
    }

    /// The indexing that reaches value `k` (row-major) of this shape: nothing,
    /// `[i]`, `[i][j]`, or a tuple field and its part's indexing.
    fn index(&self, k: usize) -> TokenStream {
        match self {
            Shape::Scalar => TokenStream::new(),
            Shape::Vector(_) => {
                let i = Literal::usize_unsuffixed(k);
                quote!([#i])
            }
            Shape::Matrix(_, c) => {
                let (i, j) = (
                    Literal::usize_unsuffixed(k / c),
                    Literal::usize_unsuffixed(k % c),
                );
                quote!([#i][#j])
            }
            Shape::Tuple(parts) => {
                let mut k = k;
                for (t, p) in parts.iter().enumerate() {
                    if k < p.len() {
                        let (t, rest) = (Literal::usize_unsuffixed(t), p.index(k));
                        return quote!(.#t #rest);
                    }
                    k -= p.len();
                }
                unreachable!("value beyond the shape")
            }
        }
    }

    /// The expression of this shape with every value `zero` (`[[0.0; 35]; 35]`).
    pub fn zeros(&self, zero: &TokenStream) -> TokenStream {
        self.build(&vec![zero.clone(); self.len()])
    }

    /// The expression of this shape built from `values`, in order; a row of
    /// equal values is a repeat expression (`[0.0; 24]`).
    fn build(&self, values: &[TokenStream]) -> TokenStream {
        assert_eq!(self.len(), values.len());
        match self {
            Shape::Scalar => values[0].clone(),
            Shape::Vector(_) => array(values),
            Shape::Matrix(r, c) => {
                // `chunks` needs a non-zero length: a model without dofs has `[[_; 0]; r]`.
                let rows: Vec<TokenStream> = match *c {
                    0 => vec![array(&[]); *r],
                    c => values.chunks(c).map(array).collect(),
                };
                array(&rows)
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

/// `[a, b, ..]`, or `[a; n]` when the items are equal and more than one.
fn array(items: &[TokenStream]) -> TokenStream {
    let first = items.first().map(ToString::to_string);
    if items.len() > 1 && items.iter().all(|i| Some(i.to_string()) == first) {
        let (item, n) = (&items[0], Literal::usize_unsuffixed(items.len()));
        quote!([#item; #n])
    } else {
        quote!([#(#items),*])
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
    /// How many of the first arguments hold scalars in [`Arith::Lanes`]: a
    /// read of them is the same value in every lane, `V::splat(f[3])` (the
    /// factors that a column kernel run on eight columns at once reads).
    pub splat: usize,
}

impl<'a> Inputs<'a> {
    /// The inputs `args` with their row lengths, none splat.
    pub fn new(args: &'a [(&'a str, usize)], row_len: &'a [Option<usize>]) -> Inputs<'a> {
        Inputs {
            args,
            row_len,
            splat: 0,
        }
    }

    fn token(&self, k: u32) -> TokenStream {
        let mut k = k as usize;
        for (a, (name, len)) in self.args.iter().enumerate() {
            if k < *len {
                let name = Ident::new(name, Span::call_site());
                let read = match self.row_len.get(a).copied().flatten() {
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
                return match a < self.splat {
                    true => quote!(V::splat(#read)),
                    false => read,
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
    /// constants are rounded to `f32`; see docs/guide.md ("Single precision") for the accuracy.
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
/// (see [`schedule()`] and [`print()`]): rustc's time on one straight-line
/// function grows faster than its length (in MIR's destination propagation
/// and LLVM's SLP vectorizer, both superlinear in a block's length).
pub const WHOLE_LEN: usize = 4000;

/// The most statements of one part of a block longer than [`WHOLE_LEN`].
/// Shorter parts build faster but pass more values through the spill struct:
/// on Go2+Z1, parts of 1500 instead of 4000 built the six dynamics functions
/// in about 28 s instead of 45 s (when locals were reused and all parts were
/// one codegen unit) and run the derivatives within 3 % as fast; parts of
/// 700 run them 8–12 % slower.
pub const PART_LEN: usize = 1500;
