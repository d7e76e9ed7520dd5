//! The operator list: one row per operation of the graph, from which the
//! graph's [`Node`], the schedule's [`Op`], the e-graph language [`Math`],
//! their conversions into one another and the per-operator facts
//! ([`Operator`]: arity, egg symbol, operation-count class, spelling in Rust
//! and in CasADi's Python, form on packed limbs, value) are made.
//!
//! Adding an operator is one row here, plus what only it knows: its method
//! on the scalar (the runtime's `Scalar`, `Dual`, and [`crate::Expr`]), its
//! folding in [`crate::Graph::add`] if any, its derivatives in
//! [`crate::diff`], its rewrite rules in [`crate::simplify::rules`], and
//! for a [`Spelling::Call`] the function of the generated lanes module.

/// The most operands of an operator.
pub const MAX_ARITY: usize = 3;
/// How an operator is written, in Rust and in CasADi's Python.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    /// `-a`.
    Prefix(&'static str),
    /// `a + b`.
    Infix(&'static str),
    /// `f(a, ..)`: the math module's `f` in Rust (`ff` for `f32`), `_f` in
    /// CasADi's Python.
    Call(&'static str),
    /// `if c > 0 { a } else { b }`: `V::select(c, a, b)` on lanes,
    /// `_if_else(c > 0, a, b)` in CasADi's Python.
    Select,
}

/// How an operator runs on `wide`'s vectors when limbs are packed side by
/// side ([`crate::limbs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wide {
    /// Its Rust spelling, which `wide` implements (`-a`, `a + b`).
    Spelled,
    /// A method of the vector (`a.sqrt()`).
    Method(&'static str),
    /// Through the module's `sincos4` on the lanes (a sine or a cosine).
    SinCos,
}

/// Replaces an operand's name by a type (for the generated enums).
macro_rules! operand_type {
    ($arg:ident, $ty:ty) => {
        $ty
    };
}
pub(crate) use operand_type;

/// Takes the next operand of `$it` (one per `$arg`).
macro_rules! next_operand {
    ($it:ident, $arg:ident) => {
        $it.next()
            .expect("as many operands as the operator's arity")
    };
}
pub(crate) use next_operand;

/// Calls `$callback!` with every operator's row, in the order of the
/// e-graph language's variants (egg sorts e-nodes by their derived order,
/// which can decide ties between equal costs: keep the order). Each layer
/// makes its own items from the rows: [`Operator`] here, `Node` in
/// `graph.rs`, `Op` in `emit/schedule.rs`, `Math` in `simplify/mod.rs`.
macro_rules! for_each_operator {
    ($callback:ident) => {
        $crate::ops::operator_rows! {
            $callback;
            /// `a + b`.
            Add(a, b) {
                egg: "+", [Id; 2];
                counts: add;
                spelling: Spelling::Infix("+");
                wide: Some(Wide::Spelled);
                commutative: true;
                value: |x| x(a) + x(b);
            }
            /// `a - b`.
            Sub(a, b) {
                egg: "-", [Id; 2];
                counts: add;
                spelling: Spelling::Infix("-");
                wide: Some(Wide::Spelled);
                commutative: false;
                value: |x| x(a) - x(b);
            }
            /// `a * b`.
            Mul(a, b) {
                egg: "*", [Id; 2];
                counts: mul;
                spelling: Spelling::Infix("*");
                wide: Some(Wide::Spelled);
                commutative: true;
                value: |x| x(a) * x(b);
            }
            /// `a / b`.
            Div(a, b) {
                egg: "/", [Id; 2];
                counts: div;
                spelling: Spelling::Infix("/");
                wide: Some(Wide::Spelled);
                commutative: false;
                value: |x| x(a) / x(b);
            }
            /// `-a`.
            Neg(a) {
                egg: "neg", Id;
                counts: neg;
                spelling: Spelling::Prefix("-");
                wide: Some(Wide::Spelled);
                commutative: false;
                value: |x| -x(a);
            }
            /// `sin a`.
            Sin(a) {
                egg: "sin", Id;
                counts: trig;
                spelling: Spelling::Call("sin");
                wide: Some(Wide::SinCos);
                commutative: false;
                value: |x| x(a).sin();
            }
            /// `cos a`.
            Cos(a) {
                egg: "cos", Id;
                counts: trig;
                spelling: Spelling::Call("cos");
                wide: Some(Wide::SinCos);
                commutative: false;
                value: |x| x(a).cos();
            }
            /// `√a`.
            Sqrt(a) {
                egg: "sqrt", Id;
                counts: sqrt;
                spelling: Spelling::Call("sqrt");
                wide: Some(Wide::Method("sqrt"));
                commutative: false;
                value: |x| x(a).sqrt();
            }
            /// `atan2(a, b)`: the angle of the point (b, a).
            Atan2(a, b) {
                egg: "atan2", [Id; 2];
                counts: trig;
                spelling: Spelling::Call("atan2");
                wide: None;
                commutative: false;
                value: |x| x(a).atan2(x(b));
            }
            /// `if c > 0 { a } else { b }`.
            Select(c, a, b) {
                egg: "select", [Id; 3];
                counts: select;
                spelling: Spelling::Select;
                wide: None;
                commutative: false;
                value: |x| if x(c) > 0.0 { x(a) } else { x(b) };
            }
        }
    };
}
pub(crate) use for_each_operator;

/// Hands the rows of [`for_each_operator!`] to `$callback!` in the compact
/// form every layer matches: `Name(a, b) [symbol, egg child type, count
/// class, spelling, wide, commutative, |x| value]`, docs first.
macro_rules! operator_rows {
    ($callback:ident; $(
        $(#[doc = $doc:literal])*
        $name:ident($($arg:ident),+) {
            egg: $sym:literal, $egg:ty;
            counts: $class:ident;
            spelling: $spelling:expr;
            wide: $wide:expr;
            commutative: $commutative:expr;
            value: |$x:ident| $value:expr;
        }
    )*) => {
        $callback! {
            $($(#[doc = $doc])* $name($($arg),+) [$sym, $egg, $class,
                $spelling, $wide, $commutative, |$x| $value])*
        }
    };
}
pub(crate) use operator_rows;

/// The operators and their facts.
macro_rules! operator_facts {
    ($($(#[doc = $doc:literal])* $name:ident($($arg:ident),+) [$sym:literal, $egg:ty, $class:ident,
        $spelling:expr, $wide:expr, $commutative:expr, |$x:ident| $value:expr])*) => {
        /// An operation of the graph, without its operands.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Operator {
            $($(#[doc = $doc])* $name,)*
        }

        impl Operator {
            /// Every operator, in the list's order.
            pub const ALL: &'static [Operator] = &[$(Operator::$name),*];

            /// The number of operands.
            pub fn arity(self) -> usize {
                match self {
                    $(Operator::$name => [$(stringify!($arg)),+].len(),)*
                }
            }

            /// The e-graph's symbol (`+`, `neg`, `select`).
            pub fn symbol(self) -> &'static str {
                match self {
                    $(Operator::$name => $sym,)*
                }
            }

            /// How it is written in Rust and in CasADi's Python.
            pub fn spelling(self) -> Spelling {
                match self {
                    $(Operator::$name => $spelling,)*
                }
            }

            /// How it runs on packed limbs; `None` if it is never packed.
            pub fn wide(self) -> Option<Wide> {
                match self {
                    $(Operator::$name => $wide,)*
                }
            }

            /// Whether its two operands commute.
            pub fn commutative(self) -> bool {
                match self {
                    $(Operator::$name => $commutative,)*
                }
            }
        }

    };
}

for_each_operator!(operator_facts);

/// `items` padded to [`MAX_ARITY`] with its first item.
pub(crate) fn pad<T: Copy, const N: usize>(items: [T; N]) -> [T; MAX_ARITY] {
    std::array::from_fn(|i| items[i.min(N - 1)])
}

#[cfg(test)]
mod tests {
    use egg::Id;

    use super::*;
    use crate::emit::{Op, Operand};
    use crate::graph::{Node, NodeId};
    use crate::simplify::Math;

    /// Each operator goes from `Node` to `Op` and to `Math` and back, with
    /// its operands in order, and `Math` prints its symbol.
    #[test]
    fn the_generated_forms_agree() {
        for &op in Operator::ALL {
            let n = op.arity();
            let ids: Vec<NodeId> = (0..n as u32).map(|k| NodeId(k + 7)).collect();
            let node = Node::from_operation(op, &ids);
            let (back, args) = node.operation().expect("an operation");
            assert_eq!((back, &args[..n]), (op, &ids[..]));
            assert_eq!(node.children().collect::<Vec<_>>(), ids);
            let operands: Vec<Operand> = (0..n as u32).map(Operand::Input).collect();
            let (back, args) = Op::from_operation(op, &operands)
                .operation()
                .expect("an operation");
            assert_eq!((back, &args[..n]), (op, &operands[..]));
            let classes: Vec<Id> = (0..n).map(|k| Id::from(k + 3)).collect();
            let math = Math::from_operation(op, &classes);
            assert_eq!(math.operation(), Some((op, &classes[..])));
            assert_eq!(math.to_string(), op.symbol());
        }
    }
}
