//! Constant folding as an e-class analysis: each e-class knows the constant it
//! equals, if any, and holds that constant's node.

use std::cell::Cell;

use egg::{merge_option, Analysis, DidMerge, EGraph, Id};

use super::{node_of, Constant, Math};
use crate::graph::NodeId;

/// Constant folding ([`Analysis`] with `Option<Constant>` data): `make`
/// evaluates an operation whose operands are all constants with
/// [`crate::Node::apply`] itself (a non-finite result is not folded, so a
/// division by zero stays visible); `modify` adds the constant's node to the
/// class, so that extraction can pick it at no cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct ConstantFold;

impl Analysis<Math> for ConstantFold {
    type Data = Option<Constant>;

    fn make(egraph: &mut EGraph<Math, Self>, enode: &Math, _id: Id) -> Self::Data {
        if let Math::Const(c) = enode {
            return Some(*c);
        }
        // The operands as nodes whose ids are their e-classes' ids.
        let node = node_of(enode, |i| NodeId(usize::from(i) as u32))?;
        // `Node::apply` reads only the operands it needs (one side of a
        // selection): the operation folds when each of those is a constant.
        let unknown = Cell::new(false);
        let value = node.apply(
            |id| match egraph[Id::from(id.0 as usize)].data {
                Some(c) => c.value(),
                None => {
                    unknown.set(true);
                    f64::NAN
                }
            },
            |_| f64::NAN,
        );
        (!unknown.get() && value.is_finite()).then(|| Constant::new(value))
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
