//! Constant folding as an e-class analysis: each e-class knows the constant it
//! equals, if any, and holds that constant's node.

use egg::{merge_option, Analysis, DidMerge, EGraph, Id};

use super::{Constant, Math};

/// Constant folding ([`Analysis`] with `Option<Constant>` data): `make`
/// evaluates an operation whose operands are all constants with the numeric
/// semantics of [`crate::Node::apply`] (a non-finite result is not folded, so a
/// division by zero stays visible); `modify` adds the constant's node to the
/// class, so that extraction can pick it at no cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConstantFold;

impl Analysis<Math> for ConstantFold {
    type Data = Option<Constant>;

    fn make(egraph: &mut EGraph<Math, Self>, enode: &Math, _id: Id) -> Self::Data {
        let x = |i: &Id| egraph[*i].data.map(Constant::value);
        let value = match enode {
            Math::Const(c) => return Some(*c),
            Math::Leaf(_) => return None,
            Math::Neg(a) => -x(a)?,
            Math::Add([a, b]) => x(a)? + x(b)?,
            Math::Sub([a, b]) => x(a)? - x(b)?,
            Math::Mul([a, b]) => x(a)? * x(b)?,
            Math::Div([a, b]) => x(a)? / x(b)?,
            Math::Sin(a) => x(a)?.sin(),
            Math::Cos(a) => x(a)?.cos(),
            Math::Sqrt(a) => x(a)?.sqrt(),
            Math::Atan2([a, b]) => x(a)?.atan2(x(b)?),
            Math::Select([c, a, b]) => {
                if x(c)? > 0.0 {
                    x(a)?
                } else {
                    x(b)?
                }
            }
        };
        value.is_finite().then(|| Constant::new(value))
    }

    fn merge(&mut self, to: &mut Self::Data, from: Self::Data) -> DidMerge {
        // Two constants in one class differ at most by rounding (a rewrite that
        // is exact in real arithmetic): keep the first.
        merge_option(to, from, |a, b| DidMerge(false, *a != b))
    }

    fn modify(egraph: &mut EGraph<Math, Self>, id: Id) {
        if let Some(c) = egraph[id].data {
            let k = egraph.add(Math::Const(c));
            egraph.union(id, k);
        }
    }
}
