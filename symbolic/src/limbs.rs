//! Limbs side by side: the legs of a quadruped (the arms of a humanoid) are
//! one chain with other constants, and the traced operations of one leg line
//! up one to one with those of the others. [`pack`] finds them and groups
//! each operation with its counterparts, one limb per lane of a vector of
//! [`LANES`], so that emission writes one vector operation where the
//! straight-line form writes up to four ([`crate::emit::print_packed`]).
//!
//! The groups start from the joint inputs of sibling subtrees of one shape
//! ([`limb_groups`]: `q`, `v`, `a` of the same joint of each leg) and grow to
//! every user whose operands line up lane by lane ([`pack`]): an operand is
//! then a pack in lane order, one value for all lanes (the body's velocity
//! that every leg reads), a constant per lane (each hip's offset), or a
//! tuple of values computed apart (gathered into a vector).

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, HashSet};

use rbdgen_runtime::Model;

use crate::functions::Dim;
use crate::graph::{Graph, Node, NodeId};

/// The lanes of a pack's vector (`wide`'s `f64x4` or `f32x4`): limbs of a
/// group beyond four are packed four at a time.
pub const LANES: usize = 4;

/// One value of the packed program, in [`Packing::order`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Item {
    /// A node computed alone.
    Scalar(NodeId),
    /// Pack `k` of [`Packing::packs`], its lanes computed at once.
    Pack(usize),
}

/// What [`pack`] finds: the packs and an order of the live operations.
#[derive(Clone, Debug)]
pub struct Packing {
    /// Each pack's nodes, lane by lane (2 to [`LANES`] of them): the same
    /// operation, on operands that line up ([`Packing::operands`]). Packs of
    /// inputs (the limbs' joint inputs) included.
    pub packs: Vec<Vec<NodeId>>,
    /// Every live operation once, a pack as one item, each after the items
    /// computing its operands. Packs of inputs are not items.
    pub order: Vec<Item>,
    /// `(pack, lane)` of each node in a pack, by node id.
    lane_of: Vec<Option<(usize, usize)>>,
}

/// An operand of a pack, all lanes at once: how emission builds its vector.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lanes {
    /// Pack `k`, lane for lane.
    Pack(usize),
    /// One node for every lane (broadcast).
    Same(NodeId),
    /// A node per lane, gathered (constants, or values computed apart).
    Gather(Vec<NodeId>),
}

impl Packing {
    /// `(pack, lane)` of `id`, when it is in a pack.
    pub fn lane(&self, id: NodeId) -> Option<(usize, usize)> {
        self.lane_of[id.0 as usize]
    }

    /// The operands of pack `k`, position by position: for `+` and `·`, each
    /// lane's operands in the order that lines them up with lane 0's.
    pub fn operands(&self, graph: &Graph, k: usize) -> Vec<Lanes> {
        let children = aligned_children(graph, &self.packs[k], &self.lane_of);
        (0..children[0].len())
            .map(|pos| {
                let tuple: Vec<NodeId> = children.iter().map(|c| c[pos]).collect();
                self.lanes(&tuple)
            })
            .collect()
    }

    /// The vector of `tuple` (one node per lane).
    fn lanes(&self, tuple: &[NodeId]) -> Lanes {
        if let Some(k) = in_order(tuple, &self.packs, &self.lane_of) {
            Lanes::Pack(k)
        } else if tuple.iter().all(|&x| x == tuple[0]) {
            Lanes::Same(tuple[0])
        } else {
            Lanes::Gather(tuple.to_vec())
        }
    }

    /// The operations computed in a pack's lanes beyond its first:
    /// [`crate::OpCounts::in_lanes`].
    pub fn in_lanes(&self) -> usize {
        let extra = self.order.iter().map(|i| match i {
            Item::Scalar(_) => 0,
            Item::Pack(k) => self.packs[*k].len() - 1,
        });
        extra.sum()
    }

    /// `(operations, items of the packed program)` over the live operations.
    pub fn counts(&self) -> (usize, usize) {
        let packed: usize = self
            .order
            .iter()
            .map(|i| match i {
                Item::Scalar(_) => 1,
                Item::Pack(k) => self.packs[*k].len(),
            })
            .sum();
        (packed, self.order.len())
    }
}

/// Sibling subtrees of one shape, grouped: for each group, each subtree's
/// joints in depth-first order (the legs of a quadruped: four chains of
/// three joints). A shape is each joint's `nq`, `nv` and parent's place in
/// the subtree. None on a model with mimic joints (whose inputs are shared).
pub fn limb_groups(model: &Model) -> Vec<Vec<Vec<usize>>> {
    if model.has_mimic() {
        return Vec::new();
    }
    let joints = &model.joints;
    let subtree = |root: usize| {
        let mut s = vec![root];
        for j in root + 1..joints.len() {
            if s.contains(&joints[j].parent) {
                s.push(j);
            }
        }
        s
    };
    let shape = |s: &[usize]| -> Vec<(usize, usize, Option<usize>)> {
        s.iter()
            .map(|&j| {
                let parent = s.iter().position(|&p| p == joints[j].parent);
                (joints[j].kind.nq(), joints[j].kind.nv(), parent)
            })
            .collect()
    };
    let mut groups = Vec::new();
    for p in 0..joints.len() {
        let mut by_shape: Vec<(Vec<(usize, usize, Option<usize>)>, Vec<Vec<usize>>)> = Vec::new();
        for child in (1..joints.len()).filter(|&j| joints[j].parent == p) {
            let s = subtree(child);
            let key = shape(&s);
            match by_shape.iter_mut().find(|(k, _)| *k == key) {
                Some((_, members)) => members.push(s),
                None => by_shape.push((key, vec![s])),
            }
        }
        for (_, members) in by_shape {
            for chunk in members.chunks(LANES).filter(|c| c.len() > 1) {
                groups.push(chunk.to_vec());
            }
        }
    }
    groups
}

/// The input numbers of the limbs' joints, lane by lane: for each group of
/// [`limb_groups`], each joint place and each argument of `args` that is
/// `q` ([`Dim::Nq`]) or over the dofs ([`Dim::Nv`]), each entry.
fn seeds(model: &Model, args: &[Dim]) -> Vec<Vec<u32>> {
    let mut seeds = Vec::new();
    for group in limb_groups(model) {
        for place in 0..group[0].len() {
            let mut offset = 0;
            for dim in args {
                let joint = |s: &Vec<usize>| &model.joints[s[place]];
                let range = |s: &Vec<usize>| match dim {
                    Dim::Nq => Some((joint(s).idx_q, joint(s).kind.nq())),
                    Dim::Nv => Some((joint(s).idx_v, joint(s).kind.nv())),
                    _ => None,
                };
                if let Some((_, n)) = range(&group[0]) {
                    for k in 0..n {
                        let lanes = group.iter().map(|s| {
                            let (start, _) = range(s).expect("same shape");
                            (offset + start + k) as u32
                        });
                        seeds.push(lanes.collect());
                    }
                }
                offset += dim.len(model);
            }
        }
    }
    seeds
}

/// The operations a pack may hold.
fn packable(node: &Node) -> bool {
    node.operation().is_some_and(|(op, _)| op.wide().is_some())
}

fn commutative(node: &Node) -> bool {
    node.operation().is_some_and(|(op, _)| op.commutative())
}

/// The pack holding `tuple` lane for lane, if any.
fn in_order(
    tuple: &[NodeId],
    packs: &[Vec<NodeId>],
    lane_of: &[Option<(usize, usize)>],
) -> Option<usize> {
    match lane_of[tuple[0].0 as usize] {
        Some((k, 0)) if packs[k].len() == tuple.len() => {
            let ok = (1..tuple.len()).all(|i| lane_of[tuple[i].0 as usize] == Some((k, i)));
            ok.then_some(k)
        }
        _ => None,
    }
}

/// Each lane's operands of `pack`, those of `+` and `·` swapped where that
/// lines up more of them with lane 0's (the same pack, a constant, the same
/// node).
fn aligned_children(
    graph: &Graph,
    pack: &[NodeId],
    lane_of: &[Option<(usize, usize)>],
) -> Vec<Vec<NodeId>> {
    let mut children: Vec<Vec<NodeId>> = pack
        .iter()
        .map(|&x| graph.node(x).children().collect())
        .collect();
    if commutative(&graph.node(pack[0])) {
        let class = |x: NodeId| match (lane_of[x.0 as usize], graph.constant_value(x)) {
            (Some((k, _)), _) => (0, k as u64),
            (None, Some(_)) => (1, 0),
            (None, None) => (2, u64::from(x.0)),
        };
        for lane in 1..children.len() {
            let score = |c: &[NodeId]| {
                (0..2)
                    .filter(|&i| class(c[i]) == class(children[0][i]))
                    .count()
            };
            let swapped = vec![children[lane][1], children[lane][0]];
            if score(&swapped) > score(&children[lane]) {
                children[lane] = swapped;
            }
        }
    }
    children
}

/// The limbs of `model` side by side in the graph of a function with
/// arguments `args`, or `None` when the model has no limbs of one shape or
/// the packed program has more than `max_items` items.
///
/// From the packs of the limbs' inputs, a node joins a pack with its
/// counterparts in the other lanes: the user of each lane's value that has
/// the same operation, the same kinds of operands (this value, a constant,
/// another value) and the same rank among such users (the trace visits the
/// limbs in the same order). Its other operands must be in one pack lane for
/// lane, or all outside packs. Then the operand tuples of the packs that
/// are values computed apart of one operation are packed in turn (the hips'
/// velocities, each the body's under another constant placement). Last, the
/// items are ordered so that every operand comes first; a pack that some
/// lane's value needs through a chain outside packs (a cycle) is undone.
pub fn pack(
    model: &Model,
    graph: &Graph,
    outputs: &[NodeId],
    args: &[Dim],
    max_items: usize,
) -> Option<Packing> {
    let seeds = seeds(model, args);
    if seeds.is_empty() {
        return None;
    }
    let nodes = graph.nodes();
    let mut live = vec![false; nodes.len()];
    for o in outputs {
        live[o.0 as usize] = true;
    }
    for i in (0..nodes.len()).rev() {
        if live[i] {
            for c in nodes[i].children() {
                live[c.0 as usize] = true;
            }
        }
    }
    // Each live node's users, in id order (the order of the trace).
    let mut users: Vec<Vec<NodeId>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate().filter(|(i, _)| live[*i]) {
        for c in n.children() {
            let u = &mut users[c.0 as usize];
            if u.last() != Some(&NodeId(i as u32)) {
                u.push(NodeId(i as u32));
            }
        }
    }
    let mut packs: Vec<Vec<NodeId>> = Vec::new();
    let mut lane_of: Vec<Option<(usize, usize)>> = vec![None; nodes.len()];
    let mut work = Vec::new();
    for seed in seeds {
        let ids: Option<Vec<NodeId>> = seed.iter().map(|&k| graph.input(k)).collect();
        let Some(ids) = ids.filter(|ids| ids.iter().all(|x| live[x.0 as usize])) else {
            continue;
        };
        add_pack(&mut packs, &mut lane_of, ids);
        work.push(packs.len() - 1);
    }
    // Up: the users of packed values.
    while let Some(p) = work.pop() {
        let pack = packs[p].clone();
        let like = Like::new(graph, &users, &pack);
        for &u0 in &users[pack[0].0 as usize] {
            if lane_of[u0.0 as usize].is_some() || !packable(&nodes[u0.0 as usize]) {
                continue;
            }
            let Some(lanes) = counterparts(graph, &like, &packs, &lane_of, &pack, u0) else {
                continue;
            };
            add_pack(&mut packs, &mut lane_of, lanes);
            work.push(packs.len() - 1);
        }
    }
    // Down: operand tuples of one operation, computed apart.
    let grown = packs.len();
    for p in 0..grown {
        let children = aligned_children(graph, &packs[p], &lane_of);
        for pos in 0..children[0].len() {
            let tuple: Vec<NodeId> = children.iter().map(|c| c[pos]).collect();
            let mut planned = Vec::new();
            let mut taken = HashSet::new();
            if plan_down(graph, &lane_of, &tuple, &mut planned, &mut taken, 0) {
                for lanes in planned {
                    add_pack(&mut packs, &mut lane_of, lanes);
                }
            }
        }
    }
    let order = order(graph, &live, &mut packs, &mut lane_of, max_items)?;
    Some(Packing {
        packs,
        order,
        lane_of,
    })
}

fn add_pack(
    packs: &mut Vec<Vec<NodeId>>,
    lane_of: &mut [Option<(usize, usize)>],
    lanes: Vec<NodeId>,
) {
    for (lane, x) in lanes.iter().enumerate() {
        lane_of[x.0 as usize] = Some((packs.len(), lane));
    }
    packs.push(lanes);
}

/// The kinds of `node`'s operands as [`counterparts`] compares them: the
/// operation, then per operand 1 for `anchor`, 2 for a constant, 3 for
/// another value (sorted for `+` and `·`).
fn signature(graph: &Graph, node: &Node, anchor: NodeId) -> Vec<u8> {
    let mut s = vec![kind(node)];
    s.extend(
        node.children()
            .map(|c| match (c == anchor, graph.constant_value(c)) {
                (true, _) => 1,
                (false, Some(_)) => 2,
                (false, None) => 3,
            }),
    );
    if commutative(node) {
        s[1..].sort_unstable();
    }
    s
}

/// The operation of `node` as a number: 0 for a constant, 1 for an input,
/// then one per operator.
fn kind(node: &Node) -> u8 {
    match (node, node.operation()) {
        (_, Some((op, _))) => 2 + op as u8,
        (Node::Input(_), None) => 1,
        _ => 0,
    }
}

/// `u0`'s counterpart in each lane of `pack` (`u0`, a user of lane 0's
/// value, first), when every lane has one and their operands line up.
fn counterparts(
    graph: &Graph,
    like: &Like,
    packs: &[Vec<NodeId>],
    lane_of: &[Option<(usize, usize)>],
    pack: &[NodeId],
    u0: NodeId,
) -> Option<Vec<NodeId>> {
    let n0 = graph.node(u0);
    let s0 = signature(graph, &n0, pack[0]);
    let firsts = like.users(0, &s0);
    let rank = *like.rank.get(&u0)?;
    let c0: Vec<NodeId> = n0.children().collect();
    let mut lanes = vec![u0];
    for (lane, &anchor) in pack.iter().enumerate().skip(1) {
        let others = like.users(lane, &s0);
        if others.len() != firsts.len() {
            return None;
        }
        let u = others[rank];
        if lane_of[u.0 as usize].is_some() || lanes.contains(&u) {
            return None;
        }
        let mut c: Vec<NodeId> = graph.node(u).children().collect();
        // Put the anchor where lane 0 has its own.
        if commutative(&n0) && (c[0] == anchor) != (c0[0] == pack[0]) {
            c.swap(0, 1);
        }
        for (x, y) in c0.iter().zip(&c) {
            let ok = match (lane_of[x.0 as usize], lane_of[y.0 as usize]) {
                (Some((k, 0)), _) => packs[k].get(lane) == Some(y),
                (Some(_), _) => false,
                (None, found) => found.is_none(),
            };
            if !ok {
                return None;
            }
        }
        lanes.push(u);
    }
    Some(lanes)
}

/// The users of each lane's value in a pack, grouped by their
/// [`signature`] with that value as the anchor, in id order; and the rank
/// of each user of lane 0's value in its group. Built once per pack, so
/// that [`counterparts`] of each user reads them instead of scanning every
/// user again (a value with thousands of users made that quadratic).
struct Like {
    groups: Vec<HashMap<Vec<u8>, Vec<NodeId>>>,
    rank: HashMap<NodeId, usize>,
}

impl Like {
    fn new(graph: &Graph, users: &[Vec<NodeId>], pack: &[NodeId]) -> Self {
        let groups: Vec<HashMap<Vec<u8>, Vec<NodeId>>> = (pack.iter())
            .map(|&anchor| {
                let mut g: HashMap<Vec<u8>, Vec<NodeId>> = HashMap::new();
                for &u in &users[anchor.0 as usize] {
                    let s = signature(graph, &graph.node(u), anchor);
                    g.entry(s).or_default().push(u);
                }
                g
            })
            .collect();
        let rank = (groups[0].values())
            .flat_map(|same| same.iter().enumerate().map(|(k, &u)| (u, k)))
            .collect();
        Self { groups, rank }
    }

    /// The users of lane `lane`'s value with signature `s`.
    fn users(&self, lane: usize, s: &[u8]) -> &[NodeId] {
        self.groups[lane].get(s).map_or(&[], Vec::as_slice)
    }
}

/// Plans packs for `tuple` (one node per lane, outside packs) and, where
/// they are of one operation too, for its operands' tuples; `false` when
/// `tuple` is not of one packable operation on distinct values. Constants,
/// one node for all lanes and packs in lane order need no pack; other
/// operand tuples are planned in turn, or gathered.
fn plan_down(
    graph: &Graph,
    lane_of: &[Option<(usize, usize)>],
    tuple: &[NodeId],
    planned: &mut Vec<Vec<NodeId>>,
    taken: &mut HashSet<NodeId>,
    depth: usize,
) -> bool {
    const DEPTH: usize = 12;
    let node0 = graph.node(tuple[0]);
    let distinct: HashSet<NodeId> = tuple.iter().copied().collect();
    if depth > DEPTH
        || distinct.len() != tuple.len()
        || !packable(&node0)
        || tuple.iter().any(|&x| {
            lane_of[x.0 as usize].is_some()
                || taken.contains(&x)
                || kind(&graph.node(x)) != kind(&node0)
        })
    {
        return false;
    }
    taken.extend(tuple.iter().copied());
    planned.push(tuple.to_vec());
    let children: Vec<Vec<NodeId>> = tuple
        .iter()
        .map(|&x| graph.node(x).children().collect())
        .collect();
    for pos in 0..children[0].len() {
        let sub: Vec<NodeId> = children.iter().map(|c| c[pos]).collect();
        let settled = sub.iter().all(|&x| x == sub[0])
            || sub.iter().all(|&x| graph.constant_value(x).is_some())
            || sub.iter().any(|&x| lane_of[x.0 as usize].is_some());
        if settled {
            continue;
        }
        let (len, before) = (planned.len(), taken.clone());
        if !plan_down(graph, lane_of, &sub, planned, taken, depth + 1) {
            planned.truncate(len);
            *taken = before;
        }
    }
    true
}

/// The live operations as items, operands first, ties broken by the
/// smallest node id (the trace's order); packs in a cycle are undone, the
/// first blocked one at a time. `None` once more than `max_items` items.
fn order(
    graph: &Graph,
    live: &[bool],
    packs: &mut [Vec<NodeId>],
    lane_of: &mut [Option<(usize, usize)>],
    max_items: usize,
) -> Option<Vec<Item>> {
    let nodes = graph.nodes();
    let leaf = |i: usize| matches!(nodes[i], Node::Const(_) | Node::Input(_));
    loop {
        let mut items: Vec<Item> = Vec::new();
        for i in (0..nodes.len()).filter(|&i| live[i] && !leaf(i) && lane_of[i].is_none()) {
            items.push(Item::Scalar(NodeId(i as u32)));
        }
        for (k, pack) in packs.iter().enumerate() {
            let held = !pack.is_empty() && lane_of[pack[0].0 as usize] == Some((k, 0));
            if held && !leaf(pack[0].0 as usize) {
                items.push(Item::Pack(k));
            }
        }
        // Each undone pack adds items: past `max_items` the packing is
        // refused whatever follows, so stop.
        if items.len() > max_items {
            return None;
        }
        let index: HashMap<Item, usize> = items.iter().enumerate().map(|(k, &i)| (i, k)).collect();
        let item_of = |x: NodeId| -> Option<usize> {
            if leaf(x.0 as usize) {
                return None;
            }
            match lane_of[x.0 as usize] {
                Some((k, _)) => index.get(&Item::Pack(k)).copied(),
                None => index.get(&Item::Scalar(x)).copied(),
            }
        };
        let members = |item: Item| -> Vec<NodeId> {
            match item {
                Item::Scalar(x) => vec![x],
                Item::Pack(k) => packs[k].clone(),
            }
        };
        let mut deps: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
        let mut undo = None;
        for (k, &item) in items.iter().enumerate() {
            for m in members(item) {
                for d in graph.node(m).children().filter_map(item_of) {
                    if d == k {
                        undo = Some(k);
                    } else if !deps[k].contains(&d) {
                        deps[k].push(d);
                    }
                }
            }
        }
        let key = |item: Item| match item {
            Item::Scalar(x) => x,
            Item::Pack(k) => *packs[k].iter().min().expect("a pack has lanes"),
        };
        if undo.is_none() {
            let mut waiting: Vec<usize> = deps.iter().map(Vec::len).collect();
            let mut users: Vec<Vec<usize>> = vec![Vec::new(); items.len()];
            for (k, d) in deps.iter().enumerate() {
                for &x in d {
                    users[x].push(k);
                }
            }
            let mut ready: BinaryHeap<Reverse<(NodeId, usize)>> = (0..items.len())
                .filter(|&k| waiting[k] == 0)
                .map(|k| Reverse((key(items[k]), k)))
                .collect();
            let mut order = Vec::with_capacity(items.len());
            while let Some(Reverse((_, k))) = ready.pop() {
                order.push(items[k]);
                for &u in &users[k] {
                    waiting[u] -= 1;
                    if waiting[u] == 0 {
                        ready.push(Reverse((key(items[u]), u)));
                    }
                }
            }
            if order.len() == items.len() {
                return Some(order);
            }
            undo = (0..items.len())
                .filter(|&k| waiting[k] > 0 && matches!(items[k], Item::Pack(_)))
                .min_by_key(|&k| key(items[k]));
        }
        let Some(Item::Pack(k)) = undo.map(|k| items[k]) else {
            unreachable!("a cycle among scalar nodes of a DAG")
        };
        for m in std::mem::take(&mut packs[k]) {
            lane_of[m.0 as usize] = None;
        }
    }
}
