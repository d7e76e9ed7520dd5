//! The limbs side by side ([`limbs::pack`]) on their own: run as the emitted
//! code runs it (the items in order, each pack lane by lane from its
//! operands' vectors), the packed program gives the graph's own values bit
//! for bit on random states, every live operation is computed exactly once,
//! and on the quadrupeds most of the work is in packs.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::limbs::{self, Item, Lanes, Packing, LANES};
use rbdgen_symbolic::{trace, Dim, Expr, Function, Graph, Node, NodeId, Traced};

fn load(path: &str) -> Model {
    let path = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    Model::from_urdf_file(&path, true).unwrap()
}

fn trace_function(model: &Model, function: Function) -> (Traced, Vec<Dim>) {
    let args = function.args(model);
    let lens: Vec<usize> = args.iter().map(|(_, d)| d.len(model)).collect();
    let traced = trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        function.evaluate(model, &mut data, x, None).unwrap()
    });
    (traced, args.iter().map(|(_, d)| *d).collect())
}

/// The outputs of the packed program: each item in order, a pack's lanes
/// from its operands as [`Packing::operands`] gives them. Reading a value
/// that no earlier item (or input) defined panics.
fn run_packed(graph: &Graph, outputs: &[NodeId], packing: &Packing, inputs: &[f64]) -> Vec<f64> {
    let mut value: Vec<Option<f64>> = vec![None; graph.nodes().len()];
    for (i, node) in graph.nodes().iter().enumerate() {
        value[i] = match *node {
            Node::Const(bits) => Some(f64::from_bits(bits)),
            Node::Input(k) => Some(inputs[k as usize]),
            _ => None,
        };
    }
    let read = |value: &[Option<f64>], x: NodeId| {
        value[x.0 as usize].unwrap_or_else(|| panic!("{x:?} read before it is computed"))
    };
    for item in &packing.order {
        match *item {
            Item::Scalar(x) => {
                let v = graph.node(x).apply(|c| read(&value, c), |_| unreachable!());
                value[x.0 as usize] = Some(v);
            }
            Item::Pack(k) => {
                let pack = &packing.packs[k];
                assert!((2..=LANES).contains(&pack.len()));
                let operands = packing.operands(graph, k);
                let lanes: Vec<f64> = (0..pack.len())
                    .map(|lane| {
                        let operand = |pos: usize| match &operands[pos] {
                            Lanes::Pack(q) => read(&value, packing.packs[*q][lane]),
                            Lanes::Same(x) => read(&value, *x),
                            Lanes::Gather(xs) => read(&value, xs[lane]),
                        };
                        let node = graph.node(pack[lane]);
                        assert_eq!(
                            std::mem::discriminant(&node),
                            std::mem::discriminant(&graph.node(pack[0])),
                            "pack {k} mixes operations"
                        );
                        // Recompute with the operands as the packed program
                        // reads them: they must hold this lane's operands
                        // (in the order `+` and `·` may swap).
                        let mine: Vec<f64> = node.children().map(|c| read(&value, c)).collect();
                        let theirs: Vec<f64> = (0..mine.len()).map(operand).collect();
                        let same = mine
                            .iter()
                            .zip(&theirs)
                            .all(|(a, b)| a.to_bits() == b.to_bits())
                            || (mine.len() == 2
                                && matches!(node, Node::Add(..) | Node::Mul(..))
                                && mine[0].to_bits() == theirs[1].to_bits()
                                && mine[1].to_bits() == theirs[0].to_bits());
                        assert!(
                            same,
                            "pack {k} lane {lane}: operands {theirs:?}, the node's {mine:?}"
                        );
                        let mut it = theirs.iter();
                        let mut next = || *it.next().unwrap();
                        match node {
                            Node::Neg(_) => -next(),
                            Node::Add(..) => next() + next(),
                            Node::Sub(..) => next() - next(),
                            Node::Mul(..) => next() * next(),
                            Node::Div(..) => next() / next(),
                            Node::Sin(_) => next().sin(),
                            Node::Cos(_) => next().cos(),
                            Node::Sqrt(_) => next().sqrt(),
                            n => panic!("{n:?} in a pack"),
                        }
                    })
                    .collect();
                for (&x, v) in pack.iter().zip(lanes) {
                    assert!(value[x.0 as usize].is_none(), "{x:?} computed twice");
                    value[x.0 as usize] = Some(v);
                }
            }
        }
    }
    outputs.iter().map(|&o| read(&value, o)).collect()
}

#[test]
fn packed_programs_compute_the_graphs_values() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let cases = [
        ("models/go2.urdf", Function::Rnea, 0.8),
        ("models/go2.urdf", Function::Crba, 0.8),
        ("models/go2.urdf", Function::Aba, 0.8),
        ("models/go2.urdf", Function::Minverse, 0.5),
        ("models/go2.urdf", Function::RneaDerivatives, 0.8),
        ("models/go2_z1.urdf", Function::Rnea, 0.5),
        ("models/go2_z1.urdf", Function::Aba, 0.5),
        ("models/g1_29dof.urdf", Function::Rnea, 0.5),
        ("models/g1_29dof.urdf", Function::Crba, 0.5),
    ];
    for (path, function, share) in cases {
        let model = load(path);
        let (traced, args) = trace_function(&model, function);
        let (graph, outputs) = (&traced.graph, &traced.outputs);
        let packing = limbs::pack(&model, graph, outputs, &args, usize::MAX).expect("limbs");
        // Every live operation once.
        let ops = graph.op_counts(outputs).total();
        let (scalar_ops, items) = packing.counts();
        assert_eq!(
            scalar_ops, ops,
            "{path} {function:?}: operations lost or doubled"
        );
        let packed: usize = packing
            .order
            .iter()
            .filter_map(|i| match i {
                Item::Pack(k) => Some(packing.packs[*k].len()),
                Item::Scalar(_) => None,
            })
            .sum();
        assert!(
            packed as f64 >= share * ops as f64,
            "{path} {function:?}: {packed} of {ops} operations in packs"
        );
        assert!(items < ops);
        let n = graph.input_count() as usize;
        for _ in 0..3 {
            let inputs: Vec<f64> = (0..n).map(|_| rng.gen_range(-1.5..1.5)).collect();
            let want = graph.eval(&inputs, outputs);
            let got = run_packed(graph, outputs, &packing, &inputs);
            for (k, (a, b)) in want.iter().zip(&got).enumerate() {
                assert!(
                    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()),
                    "{path} {function:?} output {k}: {a} against {b}"
                );
            }
        }
    }
}

#[test]
fn limb_groups_are_the_legs_and_the_arms() {
    let shapes = |path: &str| -> Vec<(usize, usize)> {
        let groups = limbs::limb_groups(&load(path));
        groups.iter().map(|g| (g.len(), g[0].len())).collect()
    };
    assert_eq!(shapes("models/go2.urdf"), [(4, 3)]);
    assert_eq!(shapes("models/go2_z1.urdf"), [(4, 3)]);
    assert_eq!(shapes("models/g1_29dof.urdf"), [(2, 6), (2, 7)]);
    assert!(shapes("models/z1.urdf").is_empty());
}
