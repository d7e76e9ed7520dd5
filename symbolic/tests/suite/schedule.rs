//! The schedule on its own ([`schedule`]): every operand is defined before it
//! is read, every local is assigned exactly once, no spill entry is
//! overwritten while its value is still to be read, every statement computes
//! its node's value, and the outputs come out right. Checked by running the
//! schedule on `f64`, local by local, next to the graph's own evaluation, on traced functions of real
//! robots (in one part and cut into many) and on random graphs.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::emit::{schedule, Op, Operand, Schedule, PART_LEN, TRIG_LANES, WHOLE_LEN};
use rbdgen_symbolic::simplify::{simplify, Limits};
use rbdgen_symbolic::{trace, Expr, Function, Graph, Node, NodeId, Traced};

/// Equal bits, or both NaN.
fn same(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// What a local or a spill entry holds: the node and its value.
type Held = Option<(NodeId, f64)>;

/// Reads `o`, which must hold `node`'s value where the schedule says.
fn read(o: Operand, inputs: &[f64], local: &[Held], spill: &[Held]) -> f64 {
    let held = |place: &[Held], k: usize, node: NodeId, what: &str| {
        let (holder, value) =
            place[k].unwrap_or_else(|| panic!("{what} {k} read before any definition"));
        assert_eq!(
            holder, node,
            "{what} {k} holds {holder:?} when {node:?} is read: reused while live"
        );
        value
    };
    match o {
        Operand::Const(c) => c,
        Operand::Input(k) => inputs[k as usize],
        Operand::Local { slot, node } => held(local, slot, node, "local"),
        Operand::Spilled { entry, node } => held(spill, entry, node, "spill entry"),
    }
}

/// Runs `s` on `inputs` and checks it against `graph` (see the module doc).
/// Returns the number of parts and of spill entries.
fn check(graph: &Graph, outputs: &[NodeId], s: &Schedule, inputs: &[f64]) -> (usize, usize) {
    let all: Vec<NodeId> = (0..graph.nodes().len() as u32).map(NodeId).collect();
    let values = graph.eval(inputs, &all);
    let live = graph.reachable(outputs);
    let mut computed = vec![0usize; all.len()];
    let mut spill: Vec<Held> = vec![None; s.spills];
    let mut local: Vec<Held> = Vec::new();
    // Each value as its statement defines it: where outputs are stored.
    let mut defined: Vec<Option<f64>> = vec![None; all.len()];
    let mut next = 0;
    for part in &s.parts {
        assert_eq!(part.statements.start, next, "parts cover the statements");
        next = part.statements.end;
        // A part's locals start empty: nothing crosses a part but the spills.
        local = vec![None; part.locals];
        for statement in &s.statements[part.statements.clone()] {
            let x = |o: Operand| read(o, inputs, &local, &spill);
            let results = match statement.op {
                Op::Neg(a) => vec![-x(a)],
                Op::Add(a, b) => vec![x(a) + x(b)],
                Op::Sub(a, b) => vec![x(a) - x(b)],
                Op::Mul(a, b) => vec![x(a) * x(b)],
                Op::Div(a, b) => vec![x(a) / x(b)],
                Op::Sqrt(a) => vec![x(a).sqrt()],
                Op::Atan2(a, b) => vec![x(a).atan2(x(b))],
                Op::Select(c, a, b) => vec![if x(c) > 0.0 { x(a) } else { x(b) }],
                Op::Sin(a) => vec![x(a).sin()],
                Op::Cos(a) => vec![x(a).cos()],
                Op::SinCos(a) => vec![x(a).sin(), x(a).cos()],
                Op::SinCos4(args, used) => {
                    let sines = args.iter().map(|&a| x(a).sin());
                    let results = sines.chain(args.iter().map(|&a| x(a).cos()));
                    results
                        .zip(used)
                        .filter(|(_, u)| *u)
                        .map(|(r, _)| r)
                        .collect()
                }
                Op::MulAdd(a, b, c) => {
                    let sign = |negated: bool, v: f64| if negated { -v } else { v };
                    let (p, q) = (sign(a.negated, x(a.operand)), x(b));
                    vec![p * q + sign(c.negated, x(c.operand))]
                }
            };
            assert_eq!(results.len(), statement.defines.len());
            for (d, r) in statement.defines.iter().zip(results) {
                let n = d.node.0 as usize;
                assert!(live[n], "{:?} is not needed", d.node);
                assert!(
                    same(r, values[n]),
                    "{:?} = {:?}: {r} instead of {}",
                    d.node,
                    graph.node(d.node),
                    values[n]
                );
                computed[n] += 1;
                defined[n] = Some(r);
                assert!(
                    local[d.slot].is_none(),
                    "local {} assigned twice: {:?}",
                    d.slot,
                    d.node
                );
                local[d.slot] = Some((d.node, r));
                if let Some(e) = d.spill {
                    spill[e] = Some((d.node, r));
                }
            }
            if let Op::MulAdd(..) = statement.op {
                // The fused product, computed inside the statement.
                let sum = graph.node(statement.defines[0].node);
                let product = sum
                    .children()
                    .find(|c| {
                        matches!(graph.node(*c), Node::Mul(..)) && computed[c.0 as usize] == 0
                    })
                    .expect("a fused sum has a product operand");
                computed[product.0 as usize] += 1;
            }
        }
        assert!(local.iter().all(Option::is_some), "a local never assigned");
    }
    assert_eq!(next, s.statements.len(), "parts cover the statements");
    // Every live operation is computed exactly once.
    for (i, node) in graph.nodes().iter().enumerate() {
        let leaf = matches!(node, Node::Const(_) | Node::Input(_));
        let expected = usize::from(live[i] && !leaf);
        assert_eq!(computed[i], expected, "node {i} = {node:?}");
    }
    assert_eq!(s.outputs.len(), outputs.len());
    // An output computed by a statement is stored where it is defined.
    for (o, &id) in s.outputs.iter().zip(outputs) {
        let v = match *o {
            Operand::Local { node, .. } => {
                assert_eq!(node, id, "output {id:?}");
                defined[node.0 as usize].expect("output computed")
            }
            Operand::Spilled { .. } => panic!("output {id:?} read from the spill array"),
            o => read(o, inputs, &local, &spill),
        };
        assert!(same(v, values[id.0 as usize]), "output {id:?}");
    }
    (s.parts.len(), s.spills)
}

fn load(path: &str) -> Model {
    let path = format!("{}/../{path}", env!("CARGO_MANIFEST_DIR"));
    Model::from_urdf_file(&path, false).unwrap()
}

fn trace_function(model: &Model, function: Function) -> Traced {
    let lens: Vec<usize> = function
        .args(model)
        .iter()
        .map(|(_, d)| d.len(model))
        .collect();
    trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        function.evaluate(model, &mut data, x, None).unwrap()
    })
}

fn random_inputs(traced: &Traced, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let n = traced
        .graph
        .nodes()
        .iter()
        .filter_map(|n| match n {
            Node::Input(k) => Some(*k as usize + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    (0..n).map(|_| rng.gen_range(-1.5..1.5)).collect()
}

#[test]
fn traced_functions_schedule_soundly_in_one_part_and_in_many() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for (path, function) in [
        ("models/z1.urdf", Function::Rnea),
        ("models/z1.urdf", Function::AbaDerivatives),
        ("models/double_pendulum_continuous.urdf", Function::Rnea),
        (
            "models/double_pendulum_continuous.urdf",
            Function::AbaDerivatives,
        ),
    ] {
        let model = load(path);
        let traced = trace_function(&model, function);
        let simplified = simplify(&traced.graph, &traced.outputs, &Limits::default());
        let simplified = Traced {
            graph: simplified.graph,
            outputs: simplified.outputs,
        };
        for t in [&traced, &simplified] {
            let inputs = random_inputs(t, &mut rng);
            // As generated, and cut into many parts whose values cross
            // through the spill array.
            for (whole_len, part_len) in [(WHOLE_LEN, PART_LEN), (60, 60), (300, 40)] {
                let s = schedule(&t.graph, &t.outputs, whole_len, part_len);
                let (parts, spills) = check(&t.graph, &t.outputs, &s, &inputs);
                let n = s.statements.len();
                let expected = if n <= whole_len {
                    1
                } else {
                    n.div_ceil(part_len)
                };
                assert_eq!(parts, expected, "{path} {function:?}");
                if parts > 1 {
                    assert!(s.parts.iter().all(|p| p.statements.len() <= part_len));
                }
                if parts > 1 {
                    assert!(spills > 0, "{path} {function:?}");
                } else {
                    assert_eq!(spills, 0);
                }
            }
        }
    }
}

/// A random graph over `inputs` inputs with `ops` operations of every kind:
/// sines and cosines of one argument made apart (as simplification can
/// leave them), products used once (fused), outputs of every kind.
fn random_graph(rng: &mut ChaCha8Rng, inputs: usize, ops: usize) -> (Graph, Vec<NodeId>) {
    let mut g = Graph::new();
    let mut pool: Vec<NodeId> = (0..inputs).map(|_| g.new_input()).collect();
    pool.push(g.constant(0.75));
    pool.push(g.constant(-2.0));
    let mut sines = Vec::new();
    for _ in 0..ops {
        // Mostly recent operands, so that values die early.
        let pick = |rng: &mut ChaCha8Rng| {
            let n = pool.len();
            if rng.gen_bool(0.7) {
                pool[n - 1 - rng.gen_range(0..n.min(8))]
            } else {
                pool[rng.gen_range(0..n)]
            }
        };
        let (a, b, c) = (pick(rng), pick(rng), pick(rng));
        let node = match rng.gen_range(0..13) {
            0 => Node::Neg(a),
            1 | 2 => Node::Add(a, b),
            3 => Node::Sub(a, b),
            4 | 5 => Node::Mul(a, b),
            6 => Node::Div(a, b),
            7 => Node::Sqrt(a),
            8 => Node::Atan2(a, b),
            9 => Node::Select(c, a, b),
            10 => {
                sines.push(a);
                Node::Sin(a)
            }
            11 if !sines.is_empty() => Node::Cos(sines.remove(rng.gen_range(0..sines.len()))),
            _ => {
                // A product and a sum using it.
                let m = g.add(Node::Mul(a, b));
                Node::Add(m, c)
            }
        };
        let id = g.add(node);
        pool.push(id);
    }
    let outputs = (0..12)
        .map(|_| pool[rng.gen_range(0..pool.len())])
        .collect();
    (g, outputs)
}

#[test]
fn random_graphs_schedule_soundly() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for round in 0..40 {
        let (graph, outputs) = random_graph(&mut rng, 4, 300);
        let inputs: Vec<f64> = (0..4).map(|_| rng.gen_range(-2.0..2.0)).collect();
        for (whole_len, part_len) in [(WHOLE_LEN, PART_LEN), (37, 37), (100, 1)] {
            let s = schedule(&graph, &outputs, whole_len, part_len);
            check(&graph, &outputs, &s, &inputs);
            assert!(
                s.statements
                    .iter()
                    .any(|st| matches!(st.op, Op::MulAdd(..))),
                "round {round}: a fused product"
            );
        }
    }
}

#[test]
fn joint_angles_share_vectorised_calls_at_the_top() {
    // Z1's six revolute joints: one call for four angles, one for two, before
    // anything else; no other sine or cosine is left.
    let model = load("models/z1.urdf");
    let traced = trace_function(&model, Function::Rnea);
    let s = schedule(&traced.graph, &traced.outputs, WHOLE_LEN, PART_LEN);
    let inputs = random_inputs(&traced, &mut ChaCha8Rng::seed_from_u64(3));
    check(&traced.graph, &traced.outputs, &s, &inputs);
    let ops: Vec<Op> = s.statements.iter().map(|st| st.op).collect();
    let angles = |op: &Op| match op {
        Op::SinCos4(args, _) => args
            .iter()
            .filter(|a| matches!(a, Operand::Input(_)))
            .count(),
        _ => 0,
    };
    assert_eq!(ops[..2].iter().map(angles).collect::<Vec<_>>(), [4, 2]);
    assert!(ops[2..].iter().all(|op| !matches!(
        op,
        Op::SinCos4(..) | Op::SinCos(_) | Op::Sin(_) | Op::Cos(_)
    )));
    // The double pendulum's continuous joints take `[cos, sin]` as inputs: no trigonometry.
    let model = load("models/double_pendulum_continuous.urdf");
    let traced = trace_function(&model, Function::Rnea);
    let s = schedule(&traced.graph, &traced.outputs, WHOLE_LEN, PART_LEN);
    assert!(s
        .statements
        .iter()
        .all(|st| !matches!(st.op, Op::SinCos4(..))));

    // Five angles, one with its sine only, one with its cosine only, and a
    // sine of a computed value: a call for the first four (the unused results
    // flagged off), the fifth angle alone, the computed argument alone.
    let mut g = Graph::new();
    let x: Vec<NodeId> = (0..5).map(|_| g.new_input()).collect();
    let mut outputs = vec![g.add(Node::Sin(x[0])), g.add(Node::Cos(x[1]))];
    for &a in &x[2..] {
        outputs.push(g.add(Node::Cos(a)));
        outputs.push(g.add(Node::Sin(a)));
    }
    let sum = g.add(Node::Add(x[0], x[1]));
    outputs.push(g.add(Node::Sin(sum)));
    let s = schedule(&g, &outputs, WHOLE_LEN, PART_LEN);
    check(&g, &outputs, &s, &[0.1, -0.7, 2.5, 3.9, -1e3]);
    let ops: Vec<Op> = s.statements.iter().map(|st| st.op).collect();
    let Op::SinCos4(args, used) = ops[0] else {
        panic!("the angles' call first: {ops:?}")
    };
    assert_eq!(args, [0, 1, 2, 3].map(Operand::Input));
    let (sines, cosines) = used.split_at(TRIG_LANES);
    assert_eq!(sines, [true, false, true, true]);
    assert_eq!(cosines, [false, true, true, true]);
    assert_eq!(s.statements[0].defines.len(), 6);
    assert!(matches!(ops[1], Op::SinCos(Operand::Input(4))));
    assert!(matches!(ops[3], Op::Sin(Operand::Local { .. })), "{ops:?}");
}
