//! User functions: a function the user writes in ordinary Rust over the
//! runtime's algorithms, generic over the scalar, traced and emitted with the
//! table's functions, with its derivatives by automatic differentiation
//! ([`crate::diff`]) on request.
//!
//! The function is written once, `fn cost<S: Scalar>(model: &Model, data:
//! &mut Data<S>, x: &[Vec<S>]) -> Result<Vec<S>, InputError>`, and given to
//! the generator as `cost::<Expr>`; the same function on `f64` is its
//! reference value. A data-dependent branch cannot be written: [`Scalar`]
//! has no comparison (`x > y` on `S` does not compile), and
//! [`Scalar::select`] is the one data-dependent choice, recorded in the
//! graph. Only a build script can give one (`rbdgen::build::Config::
//! user_function`): `robot_dynamics!` runs inside the compiler before the
//! crate it expands in exists, so it cannot call that crate's code.
//!
//! [`Scalar`]: rbdgen_runtime::Scalar
//! [`Scalar::select`]: rbdgen_runtime::Scalar::select

use rbdgen_runtime::{Data, InputError, Model};

use crate::diff::{jacobian, substitute_zero, Mode};
use crate::functions::{Dim, Output};
use crate::graph::{Node, NodeId};
use crate::jacobian::{blocks, jacobian_by_shape, trace_at_tangent};
use crate::trace::{Expr, Traced};

/// A user function's evaluation on the symbolic scalar: the arguments in
/// the order of [`UserFunction::input`], one `Vec` each; returns the outputs
/// flattened row-major.
pub type UserFn = fn(&Model, &mut Data<Expr>, &[Vec<Expr>]) -> Result<Vec<Expr>, InputError>;

/// A function written by the user, with the derivatives to emit beside it:
/// ordinary Rust over the runtime's algorithms, generic over the scalar,
/// traced and emitted with the table's functions, its derivatives by
/// automatic differentiation ([`crate::diff`]) on request.
///
/// The function is written once, `fn cost<S: Scalar>(model: &Model, data:
/// &mut Data<S>, x: &[Vec<S>]) -> Result<Vec<S>, InputError>`, and given to
/// the generator as `cost::<Expr>`; the same function on `f64` is its
/// reference value. A data-dependent branch cannot be written: [`Scalar`]
/// has no comparison (`x > y` on `S` does not compile), and
/// [`Scalar::select`] is the one data-dependent choice, recorded in the
/// graph. Only a build script can give one (`rbdgen::build::Config::
/// user_function`): `robot_dynamics!` runs inside the compiler before the
/// crate it expands in exists, so it cannot call that crate's code.
///
/// [`Scalar`]: rbdgen_runtime::Scalar
/// [`Scalar::select`]: rbdgen_runtime::Scalar::select
///
/// ```
/// use rbdgen_runtime::{center_of_mass, Data, InputError, Model, Scalar};
/// use rbdgen_symbolic::{Dim, Expr, Output, UserFunction};
///
/// /// The centre of mass's height above `target[0]`, squared.
/// fn com_height<S: Scalar>(m: &Model, d: &mut Data<S>, x: &[Vec<S>]) -> Result<Vec<S>, InputError> {
///     let c = center_of_mass(m, d, &x[0])?;
///     let e = c.0[2] - x[1][0];
///     Ok(vec![e * e])
/// }
///
/// let f = UserFunction::new("com_height", Output::Scalar, com_height::<Expr>)
///     .input("q", Dim::Nq)
///     .input("target", Dim::Fixed(1))
///     .gradient(&["q"])
///     .hessian(&["q"]);
/// ```
#[derive(Clone, Debug)]
pub struct UserFunction {
    /// The generated function's name (a Rust identifier, not a table function's).
    pub name: String,
    /// The arguments: name and length, in order.
    pub inputs: Vec<(String, Dim)>,
    /// The result.
    pub output: Output,
    /// The evaluation on the symbolic scalar.
    pub evaluate: UserFn,
    /// Doc lines of the generated function.
    pub doc: Vec<String>,
    /// Emit `NAME_jacobian` with respect to these inputs (a block each).
    pub jacobian: Vec<String>,
    /// Emit `NAME_gradient` with respect to these inputs (concatenated; a
    /// configuration in the tangent space); for a scalar output.
    pub gradient: Vec<String>,
    /// Emit `NAME_hessian` with respect to these inputs; for a scalar output.
    pub hessian: Vec<String>,
    /// Emit `NAME_gauss_newton`, `(c, g, H)` with `c = ½ |r|²`, `g = Jᵀ r`,
    /// `H = Jᵀ J` for the residual `r` the function returns, with respect to
    /// these inputs; for a vector output.
    pub gauss_newton: Vec<String>,
}

impl PartialEq for UserFunction {
    /// Equal names, arguments, outputs, docs and derivatives (the evaluation,
    /// a function pointer, is not compared).
    fn eq(&self, o: &Self) -> bool {
        (
            &self.name,
            &self.inputs,
            self.output,
            &self.doc,
            &self.jacobian,
            &self.gradient,
            &self.hessian,
            &self.gauss_newton,
        ) == (
            &o.name,
            &o.inputs,
            o.output,
            &o.doc,
            &o.jacobian,
            &o.gradient,
            &o.hessian,
            &o.gauss_newton,
        )
    }
}

impl UserFunction {
    /// A function `name` with result `output`, evaluated by `evaluate` (a
    /// generic function instantiated on [`Expr`]); arguments follow with
    /// [`UserFunction::input`].
    pub fn new(name: &str, output: Output, evaluate: UserFn) -> UserFunction {
        UserFunction {
            name: name.to_string(),
            inputs: Vec::new(),
            output,
            evaluate,
            doc: Vec::new(),
            jacobian: Vec::new(),
            gradient: Vec::new(),
            hessian: Vec::new(),
            gauss_newton: Vec::new(),
        }
    }

    /// Adds an argument: `&[f64; len]` (`Dim::Nq` a configuration, which
    /// derivatives take in the tangent space), or `f64` for [`Dim::Scalar`].
    pub fn input(mut self, name: &str, dim: Dim) -> UserFunction {
        self.inputs.push((name.to_string(), dim));
        self
    }

    /// Adds a line of documentation to the generated function.
    pub fn doc(mut self, line: &str) -> UserFunction {
        self.doc.push(line.to_string());
        self
    }

    /// Also emits `NAME_jacobian`: a block per input of `wrt`, a row per
    /// output scalar.
    pub fn jacobian(mut self, wrt: &[&str]) -> UserFunction {
        self.jacobian = wrt.iter().map(ToString::to_string).collect();
        self
    }

    /// Also emits `NAME_gradient` with respect to the inputs of `wrt`,
    /// concatenated (a scalar output only).
    pub fn gradient(mut self, wrt: &[&str]) -> UserFunction {
        self.gradient = wrt.iter().map(ToString::to_string).collect();
        self
    }

    /// Also emits `NAME_hessian` with respect to the inputs of `wrt`,
    /// concatenated (a scalar output only): exact, symmetric.
    pub fn hessian(mut self, wrt: &[&str]) -> UserFunction {
        self.hessian = wrt.iter().map(ToString::to_string).collect();
        self
    }

    /// Also emits `NAME_gauss_newton` for the residual the function returns
    /// (a vector output only): `(c, g, H)`, the cost `½ |r|²`, its gradient
    /// `Jᵀ r` and the Gauss-Newton Hessian `Jᵀ J`, with respect to the inputs
    /// of `wrt` concatenated.
    pub fn gauss_newton(mut self, wrt: &[&str]) -> UserFunction {
        self.gauss_newton = wrt.iter().map(ToString::to_string).collect();
        self
    }

    /// The positions of the inputs named `wrt`.
    fn positions(&self, wrt: &[String]) -> Result<Vec<usize>, String> {
        wrt.iter()
            .map(|w| {
                self.inputs
                    .iter()
                    .position(|(n, _)| n == w)
                    .ok_or_else(|| format!("differentiated with respect to `{w}`, not an input"))
            })
            .collect()
    }

    /// The width of the tangent of the inputs at `positions`, concatenated.
    fn width(&self, model: &Model, positions: &[usize]) -> usize {
        positions
            .iter()
            .map(|&k| match self.inputs[k].1 {
                Dim::Nq => model.nv,
                d => d.len(model),
            })
            .sum()
    }

    /// What is wrong with the function's declaration, if anything.
    pub fn check(&self) -> Result<(), String> {
        if syn::parse_str::<syn::Ident>(&self.name).is_err() {
            return Err("the name is not a Rust identifier".into());
        }
        if crate::Function::from_name(&self.name).is_some() {
            return Err("the name is a built-in function's".into());
        }
        if let Some(item) = generated_item(&self.name) {
            return Err(format!("the name is taken by the module's {item}"));
        }
        if self.inputs.is_empty() {
            return Err("no inputs".into());
        }
        for (k, (n, _)) in self.inputs.iter().enumerate() {
            if syn::parse_str::<syn::Ident>(n).is_err() || n == "frame" {
                return Err(format!("input `{n}`: not a usable argument name"));
            }
            if self.inputs[..k].iter().any(|(m, _)| m == n) {
                return Err(format!("input `{n}` is named twice"));
            }
        }
        if matches!(self.output, Output::Tuple(_)) {
            return Err("a tuple output; return one vector or matrix".into());
        }
        let scalar = self.output == Output::Scalar;
        if !scalar && (!self.gradient.is_empty() || !self.hessian.is_empty()) {
            return Err("a gradient or Hessian needs a scalar output".into());
        }
        if scalar && !self.gauss_newton.is_empty() {
            return Err("Gauss-Newton needs a residual vector output".into());
        }
        for wrt in [
            &self.jacobian,
            &self.gradient,
            &self.hessian,
            &self.gauss_newton,
        ] {
            let positions = self.positions(wrt)?;
            if positions
                .iter()
                .enumerate()
                .any(|(i, p)| positions[..i].contains(p))
            {
                return Err("an input is differentiated twice in one list".into());
            }
        }
        Ok(())
    }

    /// The functions this declaration emits: the function itself, then each
    /// derivative asked for.
    pub fn items(&self) -> Vec<UserItem> {
        let mut items = vec![UserItem::Value];
        if !self.jacobian.is_empty() {
            items.push(UserItem::Jacobian);
        }
        if !self.gradient.is_empty() {
            items.push(UserItem::Gradient);
        }
        if !self.hessian.is_empty() {
            items.push(UserItem::Hessian);
        }
        if !self.gauss_newton.is_empty() {
            items.push(UserItem::GaussNewton);
        }
        items
    }
}

/// One generated function of a [`UserFunction`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserItem {
    /// `NAME`: the function.
    Value,
    /// `NAME_jacobian`.
    Jacobian,
    /// `NAME_gradient`.
    Gradient,
    /// `NAME_hessian`.
    Hessian,
    /// `NAME_gauss_newton`.
    GaussNewton,
}

impl UserItem {
    /// The generated function's name for the user function `name`.
    pub fn name(self, name: &str) -> String {
        match self {
            UserItem::Value => name.to_string(),
            UserItem::Jacobian => format!("{name}_jacobian"),
            UserItem::Gradient => format!("{name}_gradient"),
            UserItem::Hessian => format!("{name}_hessian"),
            UserItem::GaussNewton => format!("{name}_gauss_newton"),
        }
    }

    /// The generated function's result for `f` on `model`.
    pub fn output(self, f: &UserFunction, model: &Model) -> Output {
        let tangent = |wrt: &[String]| {
            let positions = f.positions(wrt).unwrap_or_default();
            match positions.as_slice() {
                [k] if f.inputs[*k].1 == Dim::Nq => Dim::Nv,
                _ => Dim::Fixed(f.width(model, &positions)),
            }
        };
        let rows = || match f.output {
            Output::Scalar => None,
            Output::Vector(d) => Some(d),
            o => Some(Dim::Fixed(o.len(model))),
        };
        match self {
            UserItem::Value => f.output,
            UserItem::Jacobian => {
                let positions = f.positions(&f.jacobian).unwrap_or_default();
                let blocks: Vec<Output> = positions
                    .iter()
                    .map(|&k| {
                        let cols = match f.inputs[k].1 {
                            Dim::Nq => Some(Dim::Nv),
                            Dim::Scalar => None,
                            d => Some(d),
                        };
                        match (rows(), cols) {
                            (None, None) => Output::Scalar,
                            (Some(d), None) | (None, Some(d)) => Output::Vector(d),
                            (Some(r), Some(c)) => Output::Matrix(r, c),
                        }
                    })
                    .collect();
                if blocks.len() == 1 {
                    blocks[0]
                } else {
                    Output::Tuple(Box::leak(blocks.into_boxed_slice()))
                }
            }
            UserItem::Gradient => Output::Vector(tangent(&f.gradient)),
            UserItem::Hessian => {
                let n = tangent(&f.hessian);
                Output::Matrix(n, n)
            }
            UserItem::GaussNewton => {
                let n = tangent(&f.gauss_newton);
                Output::Tuple(Box::leak(Box::new([
                    Output::Scalar,
                    Output::Vector(n),
                    Output::Matrix(n, n),
                ])))
            }
        }
    }

    /// The generated function's doc lines.
    pub fn doc(self, f: &UserFunction) -> Vec<String> {
        let list = |wrt: &[String]| {
            wrt.iter()
                .map(|w| format!("`{w}`"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        let tangent = "a configuration in the tangent space (`NV` columns), by automatic \
                       differentiation of the traced function.";
        match self {
            UserItem::Value if f.doc.is_empty() => {
                vec![format!(
                    "`{}`, a user function traced from the build script.",
                    f.name
                )]
            }
            UserItem::Value => f.doc.clone(),
            UserItem::Jacobian => vec![
                format!(
                    "The Jacobian of [`{}`]: a block per input of {},",
                    f.name,
                    list(&f.jacobian)
                ),
                format!("a row per output scalar; {tangent}"),
            ],
            UserItem::Gradient => vec![
                format!(
                    "The gradient of [`{}`] with respect to {} (concatenated);",
                    f.name,
                    list(&f.gradient)
                ),
                tangent.to_string(),
            ],
            UserItem::Hessian => vec![
                format!(
                    "The Hessian of [`{}`] with respect to {} (concatenated), symmetric;",
                    f.name,
                    list(&f.hessian)
                ),
                tangent.to_string(),
            ],
            UserItem::GaussNewton => vec![
                format!(
                    "The Gauss-Newton model of the cost `c = ½ |r|²` of the residual `r =` [`{}`]:",
                    f.name
                ),
                format!(
                    "`(c, Jᵀ r, Jᵀ J)` with `J` the Jacobian with respect to {} (concatenated);",
                    list(&f.gauss_newton)
                ),
                tangent.to_string(),
            ],
        }
    }

    /// The traced graph of this item of `f` on `model`.
    ///
    /// # Errors
    /// What `f` returns, or [`InputError::Length`] for an output of another
    /// length than [`UserFunction::output`] says.
    pub fn trace(self, f: &UserFunction, model: &Model) -> Result<Traced, InputError> {
        let dims: Vec<Dim> = f.inputs.iter().map(|(_, d)| *d).collect();
        let wrt: &[String] = match self {
            UserItem::Value => &[],
            UserItem::Jacobian => &f.jacobian,
            UserItem::Gradient => &f.gradient,
            UserItem::Hessian => &f.hessian,
            UserItem::GaussNewton => &f.gauss_newton,
        };
        let positions = f.positions(wrt).unwrap_or_default();
        let expected = f.output.len(model);
        let mut at = trace_at_tangent(model, &dims, &positions, |data, x| {
            let out = (f.evaluate)(model, data, x)?;
            if out.len() != expected {
                return Err(InputError::Length {
                    argument: "the user function's output",
                    len: out.len(),
                    expected,
                });
            }
            Ok(out)
        })?;
        let graph = &mut at.graph;
        let outputs: Vec<NodeId> = match self {
            UserItem::Value => at.outputs.clone(),
            UserItem::Jacobian => {
                let j = jacobian_by_shape(graph, &at.outputs, &at.wrt);
                blocks(&j, &at.widths)
            }
            UserItem::Gradient => jacobian(graph, &at.outputs, &at.wrt, Mode::Reverse).remove(0),
            UserItem::Hessian => {
                let g = jacobian(graph, &at.outputs, &at.wrt, Mode::Reverse).remove(0);
                let h = jacobian(graph, &g, &at.wrt, Mode::Forward);
                // Symmetric: the upper triangle, mirrored.
                let n = h.len();
                (0..n)
                    .flat_map(|i| (0..n).map(move |j| (i.min(j), i.max(j))))
                    .map(|(i, j)| h[i][j])
                    .collect()
            }
            UserItem::GaussNewton => {
                let r = at.outputs.clone();
                let j = jacobian_by_shape(graph, &r, &at.wrt);
                let n = at.wrt.len();
                let half = graph.constant(0.5);
                let dot = |graph: &mut crate::Graph, a: &[NodeId], b: &[NodeId]| {
                    let mut sum = graph.constant(0.0);
                    for (&x, &y) in a.iter().zip(b) {
                        let m = graph.add(Node::Mul(x, y));
                        sum = graph.add(Node::Add(sum, m));
                    }
                    sum
                };
                let rr = dot(graph, &r, &r);
                let c = graph.add(Node::Mul(half, rr));
                let column = |k: usize| j.iter().map(|row| row[k]).collect::<Vec<_>>();
                let columns: Vec<Vec<NodeId>> = (0..n).map(column).collect();
                let g: Vec<NodeId> = columns.iter().map(|col| dot(graph, col, &r)).collect();
                let mut h = vec![vec![NodeId(0); n]; n];
                for a in 0..n {
                    for b in a..n {
                        let x = dot(graph, &columns[a], &columns[b]);
                        h[a][b] = x;
                        h[b][a] = x;
                    }
                }
                [vec![c], g, h.concat()].concat()
            }
        };
        let (graph, outputs) = substitute_zero(&at.graph, &outputs, at.kept);
        Ok(Traced { graph, outputs })
    }
}

/// What of a generated module already has the name `name`, if anything:
/// its private helpers (`mul_add`, `sincos4`) or an item derived from a
/// built-in function's name (`NAME_into`, `NAME_stage`, `NAME_oK_columnG`,
/// `NAME_columns`, `NAME_partK`, `NAME_jacobian`, and the lanes' `NAME_batch`, `NAME_each`, `NAME_par`,
/// `NAME_aos`, `NAME_batch_par`).
fn generated_item(name: &str) -> Option<&'static str> {
    if matches!(name, "mul_add" | "sincos4") {
        return Some("private helper");
    }
    let digits = |r: &str| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit());
    let derived = crate::Function::ALL.iter().any(|f| {
        let rest = name
            .strip_prefix(f.name())
            .and_then(|r| r.strip_prefix('_'));
        rest.is_some_and(|rest| {
            let kernel = (rest.strip_prefix('o'))
                .and_then(|r| r.split_once("_column"))
                .is_some_and(|(k, g)| digits(k) && digits(g));
            let part = rest.strip_prefix("part").is_some_and(digits);
            let named = [
                "into",
                "stage",
                "columns",
                "jacobian",
                "batch",
                "each",
                "par",
                "aos",
                "batch_par",
            ];
            kernel || part || named.contains(&rest)
        })
    });
    derived.then_some("items for a built-in function")
}
