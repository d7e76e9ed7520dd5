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

use egg::{Id, LanguageChildren};

use crate::emit::{Operand, Signed, TRIG_LANES};
use crate::graph::{NodeId, OpCounts};

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

/// Takes the next operand of `$it` (one per `$arg`).
macro_rules! next_operand {
    ($it:ident, $arg:ident) => {
        $it.next()
            .expect("as many operands as the operator's arity")
    };
}

/// The operators' rows, in the order of the e-graph language's variants
/// (egg sorts e-nodes by their derived order, which can decide ties between
/// equal costs: keep the order).
macro_rules! operators {
    ($(
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

            /// Counts one operation of this operator into `n`.
            pub fn count(self, n: &mut OpCounts) {
                match self {
                    $(Operator::$name => n.$class += 1,)*
                }
            }
        }

        /// One operation. Constants are stored by their bits so that nodes
        /// hash exactly.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Node {
            /// A finite constant (`f64::to_bits`).
            Const(u64),
            /// Input number `k` of the traced function.
            Input(u32),
            $($(#[doc = $doc])* $name($(operand_type!($arg, NodeId)),+),)*
        }

        impl Node {
            /// The operator and its operands (the first [`Operator::arity`]
            /// of the array), `None` for a constant or an input.
            pub fn operation(&self) -> Option<(Operator, [NodeId; MAX_ARITY])> {
                match *self {
                    Node::Const(_) | Node::Input(_) => None,
                    $(Node::$name($($arg),+) => Some((Operator::$name, pad([$($arg),+]))),)*
                }
            }

            /// The node applying `op` to `operands` (as many as its arity).
            pub fn from_operation(op: Operator, operands: &[NodeId]) -> Node {
                let mut it = operands.iter().copied();
                match op {
                    $(Operator::$name => Node::$name($(next_operand!(it, $arg)),+),)*
                }
            }

            /// The same operation on other operands: `f` maps each child.
            pub fn map_children(&self, mut f: impl FnMut(NodeId) -> NodeId) -> Node {
                match *self {
                    Node::Const(_) | Node::Input(_) => *self,
                    $(Node::$name($($arg),+) => Node::$name($(f($arg)),+),)*
                }
            }

            /// The value of the node given its operands' values (the numeric
            /// semantics every other pass must agree with). An operand is read
            /// only if the value needs it (one side of a selection).
            pub fn apply(&self, x: impl Fn(NodeId) -> f64, input: impl Fn(u32) -> f64) -> f64 {
                match *self {
                    Node::Const(bits) => f64::from_bits(bits),
                    Node::Input(k) => input(k),
                    $(Node::$name($($arg),+) => {
                        let $x = &x;
                        $value
                    })*
                }
            }
        }

        /// The operation of a statement, on its operands: an operator of the
        /// list, or one of the forms the schedule makes ([`Op::SinCos`],
        /// [`Op::SinCos4`], [`Op::MulAdd`]). A lone [`Op::Sin`] or [`Op::Cos`]
        /// has no partner of the same argument.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Op {
            $($(#[doc = $doc])* $name($(operand_type!($arg, Operand)),+),)*
            /// `(sin a, cos a)` in one call: a statement with two definitions,
            /// the sine first.
            SinCos(Operand),
            /// The sines and cosines of [`TRIG_LANES`] arguments in one
            /// vectorised call (the module's `sincos4`), the arguments padded
            /// with zeros. The flags say which of the eight results (the sines
            /// in argument order, then the cosines) are used; `defines` lists
            /// those, in that order.
            SinCos4([Operand; TRIG_LANES], [bool; 2 * TRIG_LANES]),
            /// `a * b + c`: a product fused into the sum or difference that is
            /// its only use (the module's `mul_add`).
            MulAdd(Signed, Operand, Signed),
        }

        impl Op {
            /// The operator and its operands (the first [`Operator::arity`]),
            /// `None` for the schedule's own forms.
            pub fn operation(&self) -> Option<(Operator, [Operand; MAX_ARITY])> {
                match *self {
                    $(Op::$name($($arg),+) => Some((Operator::$name, pad([$($arg),+]))),)*
                    Op::SinCos(_) | Op::SinCos4(..) | Op::MulAdd(..) => None,
                }
            }

            /// The statement applying `op` to `operands` (as many as its arity).
            pub fn from_operation(op: Operator, operands: &[Operand]) -> Op {
                let mut it = operands.iter().copied();
                match op {
                    $(Operator::$name => Op::$name($(next_operand!(it, $arg)),+),)*
                }
            }
        }

        /// The e-graph language (egg's `define_language!` gives its variants no
        /// docs).
        #[allow(missing_docs)]
        mod language {
            use egg::{define_language, Id, Symbol};

            use crate::simplify::Constant;

            define_language! {
                /// The e-graph language: [`super::Node`]'s operations (with
                /// [`super::Node::apply`]'s semantics, by their
                /// [`super::Operator::symbol`]), constants by bits (`Const`)
                /// and every node outside the window as a leaf symbol (`Leaf`,
                /// `n` and its id in the graph being built).
                pub enum Math {
                    $($sym = $name($egg),)*
                    Const(Constant),
                    Leaf(Symbol),
                }
            }
        }
        pub use language::Math;

        impl Math {
            /// The e-node applying `op` to the e-classes `children`.
            pub fn from_operation(op: Operator, children: &[Id]) -> Math {
                match op {
                    $(Operator::$name => Math::$name(LanguageChildren::from_vec(children.to_vec())),)*
                }
            }

            /// The operator and its operands' e-classes, `None` for a constant
            /// or a leaf.
            pub fn operation(&self) -> Option<(Operator, &[Id])> {
                match self {
                    $(Math::$name(ids) => Some((Operator::$name, LanguageChildren::as_slice(ids))),)*
                    Math::Const(_) | Math::Leaf(_) => None,
                }
            }
        }
    };
}

/// `items` padded to [`MAX_ARITY`] with its first item.
fn pad<T: Copy, const N: usize>(items: [T; N]) -> [T; MAX_ARITY] {
    std::array::from_fn(|i| items[i.min(N - 1)])
}

operators! {
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

impl Node {
    /// The operands of the node.
    pub fn children(&self) -> impl Iterator<Item = NodeId> {
        let (ids, n) = match self.operation() {
            Some((op, ids)) => (ids, op.arity()),
            None => ([NodeId(0); MAX_ARITY], 0),
        };
        ids.into_iter().take(n)
    }
}

impl Op {
    /// The values read, in order.
    pub fn operands(&self) -> Vec<Operand> {
        match *self {
            Op::SinCos(a) => vec![a],
            Op::SinCos4(args, _) => args.to_vec(),
            Op::MulAdd(a, b, c) => vec![a.operand, b, c.operand],
            _ => {
                let (op, args) = self.operation().expect("an operator");
                args[..op.arity()].to_vec()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
