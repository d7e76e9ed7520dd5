//! The tree of a model as the algorithms walk it: the parent of each dof, the
//! dofs below each dof and the support path of each joint, derived once from
//! the joints by the loaders (Pinocchio's `parents_fromRow`,
//! `nvSubtree_fromRow` and `supports`).
//!
//! Joints are in depth-first order (`parent(i) < i`, and the joints below a
//! joint follow it without a gap), so the dofs below a dof form one range and
//! ancestry is two comparisons. Everything here takes O(njoints + nv) memory:
//! support paths are written into a caller's buffer, not stored (a chain of
//! 5,000 links would otherwise hold millions of indices).
//!
//! On a model with mimic joints ([`crate::model::mimic`]) a mimicking joint
//! shares its primary's dof, so one dof moves bodies on several branches and
//! `M` couples them: the tree of dofs is then a chain (dof k's parent is
//! k - 1), which makes the factorisation of `M` dense and lets every entry of
//! the derivatives be nonzero. The joints' own dofs (those of the model
//! without mimics) are kept for the derivatives, which run over them.

use super::Model;

/// The tree of a [`Model`], derived from its joints when the model is loaded
/// ([`Model::topology`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Topology {
    /// Parent joint of each joint `[njoints]`, the universe's itself (0).
    parent: Vec<usize>,
    /// Parent of each dof `[nv]` in the tree of dofs (Featherstone 2008 §6.5's
    /// λ): the previous dof of the same joint, else the last dof of the
    /// parent joint; `None` at a root.
    dof_parent: Vec<Option<usize>>,
    /// End of the dofs below each dof `[nv]`: dof k and its descendants are
    /// `k..subtree_end[k]`.
    subtree_end: Vec<usize>,
    /// First dof of the joint of each dof `[nv]`.
    joint_start: Vec<usize>,
    /// First own dof of each joint `[njoints + 1]`: joint i's own dofs are
    /// `own_start[i]..own_start[i + 1]` (its `v_range()` without mimics).
    own_start: Vec<usize>,
    /// Per own dof, its index in `v` and its gain (1 but for a mimicking joint).
    own_to_v: Vec<(usize, f64)>,
    /// Hash of what [`crate::Data::new`] reads from the model; see
    /// [`Topology::fingerprint`].
    fingerprint: u64,
}

impl Topology {
    /// The topology of `model`'s joints, in depth-first order.
    pub(crate) fn new(model: &Model) -> Self {
        let joints = &model.joints;
        let parent: Vec<usize> = joints.iter().map(|j| j.parent).collect();
        let mut end: Vec<usize> = joints.iter().map(|j| j.v_range().end).collect();
        for i in (1..joints.len()).rev() {
            end[parent[i]] = end[parent[i]].max(end[i]);
        }
        let mut dof_parent = vec![None; model.nv];
        let mut subtree_end = vec![0; model.nv];
        let mut joint_start = vec![0; model.nv];
        // A mimicking joint's dof is its primary's, which sets it.
        for (i, joint) in joints.iter().enumerate().skip(1) {
            if joint.mimic.is_some() {
                continue;
            }
            for k in joint.v_range() {
                dof_parent[k] = if k > joint.idx_v {
                    Some(k - 1)
                } else if joint.parent > 0 {
                    Some(joints[joint.parent].v_range().end - 1)
                } else {
                    None
                };
                subtree_end[k] = end[i];
                joint_start[k] = joint.idx_v;
            }
        }
        if model.has_mimic() {
            dof_parent = (0..model.nv).map(|k| k.checked_sub(1)).collect();
            subtree_end = vec![model.nv; model.nv];
        }
        let mut own_start = Vec::with_capacity(joints.len() + 1);
        let mut own_to_v = Vec::with_capacity(model.nv);
        for joint in joints {
            own_start.push(own_to_v.len());
            let gain = joint.mimic.map_or(1.0, |m| m.gain);
            own_to_v.extend(joint.v_range().map(|k| (k, gain)));
        }
        own_start.push(own_to_v.len());
        let topology = Self {
            parent,
            dof_parent,
            subtree_end,
            joint_start,
            own_start,
            own_to_v,
            fingerprint: fingerprint(model),
        };
        debug_assert!(
            (2..joints.len()).all(|i| topology.is_ancestor(joints[i].parent, i - 1)),
            "joints are not in depth-first order"
        );
        topology
    }

    /// The parent of each dof `[nv]` (Featherstone 2008 §6.5's λ over dofs,
    /// Pinocchio's `parents_fromRow`): the previous dof of the same joint,
    /// else the last dof of the parent joint; `None` at a root. A chain on a
    /// model with mimic joints (see the module documentation).
    #[inline]
    pub fn dof_parents(&self) -> &[Option<usize>] {
        &self.dof_parent
    }

    /// Dof `k` and the dofs below it in the tree, a range of `v`
    /// (Pinocchio's `nvSubtree_fromRow`).
    #[inline]
    pub fn dof_subtree(&self, k: usize) -> core::ops::Range<usize> {
        k..self.subtree_end[k]
    }

    /// Whether dof `k` is dof `i` or one of its ancestors.
    #[inline]
    pub fn is_dof_ancestor(&self, k: usize, i: usize) -> bool {
        self.dof_subtree(k).contains(&i)
    }

    /// The dofs on a branch through the joint of dof `k`: those of its
    /// ancestors, its own and those below it, ascending; written to `out`
    /// (cleared first). The entries of a column of `∂τ/∂q` and `∂τ/∂v` that
    /// the tree allows to be nonzero.
    pub fn branch_dofs(&self, k: usize, out: &mut Vec<usize>) {
        let start = self.joint_start[k];
        out.clear();
        let mut d = self.dof_parent[start];
        while let Some(dd) = d {
            out.push(dd);
            d = self.dof_parent[dd];
        }
        out.reverse();
        out.extend(self.dof_subtree(start));
    }

    /// The chains of the tree of dofs, in order: each a range of dofs from a
    /// root or a branching dof's child to the next branching dof or a leaf
    /// (a floating base, a leg, a waist, an arm). Every dof of a chain is an
    /// ancestor or a descendant of every other one, and the dofs below a
    /// chain are those below its last dof.
    pub fn dof_chains(&self) -> Vec<core::ops::Range<usize>> {
        let nv = self.dof_parent.len();
        let mut children = vec![0usize; nv];
        for p in self.dof_parent.iter().flatten() {
            children[*p] += 1;
        }
        let mut chains: Vec<core::ops::Range<usize>> = Vec::new();
        for c in 0..nv {
            match chains.last_mut() {
                Some(g) if c > 0 && self.dof_parent[c] == Some(c - 1) && children[c - 1] == 1 => {
                    g.end = c + 1
                }
                _ => chains.push(c..c + 1),
            }
        }
        chains
    }

    /// The first dof of the joint of dof `k`.
    pub(crate) fn joint_start(&self, k: usize) -> usize {
        self.joint_start[k]
    }

    /// The joints from the child of the universe down to joint `i`,
    /// inclusive, written to `out` (cleared first; Pinocchio's `supports[i]`
    /// without the universe; empty for the universe).
    pub fn support(&self, i: usize, out: &mut Vec<usize>) {
        out.clear();
        let mut j = i;
        while j > 0 {
            out.push(j);
            j = self.parent[j];
        }
        out.reverse();
    }

    /// The own dofs of joint `i`: its `v_range()`, unless the model has
    /// mimic joints, where they are its dofs in the model without mimics
    /// (indices into [`Topology::own_to_v`]).
    pub(crate) fn own_dofs(&self, i: usize) -> core::ops::Range<usize> {
        self.own_start[i]..self.own_start[i + 1]
    }

    /// Per own dof (joint by joint, see [`Topology::own_dofs`]), its index in
    /// `v` and its gain: the map `G` with `v_own = G v`, the identity without
    /// mimic joints.
    pub(crate) fn own_to_v(&self) -> &[(usize, f64)] {
        &self.own_to_v
    }

    /// Whether joint `a` is joint `i` or one of its ancestors (the universe
    /// is an ancestor of every joint).
    fn is_ancestor(&self, a: usize, mut i: usize) -> bool {
        while i > a {
            i = self.parent[i];
        }
        i == a
    }

    /// A hash of what a [`crate::Data`] built for the model depends on: `nq`,
    /// `nv`, the number of joints and frames, each joint's parent, kind, `q`
    /// and `v` indices, body inertia and mimic as loaded. Two loads of the same file
    /// give the same value, and a clone keeps it; [`crate::Data::check`]
    /// compares it.
    pub fn fingerprint(&self) -> u64 {
        self.fingerprint
    }
}

/// FNV-1a over the words that [`Topology::fingerprint`] covers.
fn fingerprint(model: &Model) -> u64 {
    let mut words = vec![
        model.nq as u64,
        model.nv as u64,
        model.njoints() as u64,
        model.frames.len() as u64,
    ];
    for joint in &model.joints {
        let i = &joint.inertia;
        words.extend([joint.parent, joint.idx_q, joint.idx_v].map(|x| x as u64));
        words.extend([joint.kind.nq(), joint.kind.nv()].map(|x| x as u64));
        words.extend(
            core::iter::once(i.mass)
                .chain(i.first_moment.0)
                .chain(i.rotational.0.into_iter().flatten())
                .map(f64::to_bits),
        );
        if let Some(m) = joint.mimic {
            words.extend([m.primary as u64, m.gain.to_bits(), m.offset.to_bits()]);
        }
    }
    words.iter().fold(0xcbf2_9ce4_8422_2325, |h, w| {
        w.to_le_bytes()
            .iter()
            .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    })
}
