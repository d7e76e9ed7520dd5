//! The crate of CasADi external functions ([`external_crate`]): each
//! function's symbols of CasADi's external-function API over the generated
//! Rust dynamics, and the `jac_NAME` Jacobians CasADi looks up.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use rbdgen_runtime::{Data, Model};

use super::{arg_shape, model_source, output_names, output_shapes};
use crate::error::GenerateError;
use crate::functions::{Dim, Function, Output};
use crate::graph::Node;
use crate::options::Options;
use crate::prepare::build_model;
use crate::trace::{try_trace, Expr, Traced};
use crate::user::UserFunction;

/// The derivative companion of a function in the external crate: the
/// function whose outputs are its Jacobian blocks with respect to each
/// argument, in argument order ([`external_crate`]'s `jac_NAME`).
pub fn analytical_derivatives(function: Function) -> Option<Function> {
    match function {
        Function::Rnea => Some(Function::RneaDerivatives),
        Function::Aba => Some(Function::AbaDerivatives),
        Function::ContactInverseDynamics => Some(Function::ContactInverseDynamicsDerivatives),
        Function::ContactDrift => Some(Function::ContactDriftDerivatives),
        Function::ContactDynamics => Some(Function::ContactDynamicsDerivatives),
        _ => None,
    }
}

/// CasADi's sparsity pattern of a dense `(rows, cols)` matrix (its short
/// form `[rows, cols, 1]`), or of one without nonzeros.
fn sparsity(rows: usize, cols: usize, dense: bool) -> String {
    if dense {
        format!("[{rows}, {cols}, 1]")
    } else {
        let zeros = vec!["0"; cols + 1].join(", ");
        format!("[{rows}, {cols}, {zeros}]")
    }
}

/// CasADi's sparsity pattern of a `(rows, cols)` result whose entries
/// `zero` marks (row-major) are structural zeros: compressed columns
/// `[rows, cols, colind[cols + 1], row[nnz]]`, or the dense short form when
/// none is.
fn pattern_of(rows: usize, cols: usize, zero: &[bool]) -> String {
    if !zero.contains(&true) {
        return sparsity(rows, cols, true);
    }
    let mut colind = vec![0];
    let mut row = Vec::new();
    for c in 0..cols {
        row.extend((0..rows).filter(|r| !zero[r * cols + c]));
        colind.push(row.len());
    }
    let all: Vec<String> = [rows, cols]
        .into_iter()
        .chain(colind)
        .chain(row)
        .map(|x| x.to_string())
        .collect();
    format!("[{}]", all.join(", "))
}

/// The statement writing the row-major `values` (Rust text) of a `(rows,
/// cols)` result to output `k`: all of it column-major, or with structural
/// zeros (`zero`, row-major) its nonzeros in CasADi's order.
fn write_output(k: usize, values: &str, rows: usize, cols: usize, zero: &[bool]) -> String {
    if !zero.contains(&true) {
        return format!("    output(res, {k}, {values}, {rows}, {cols});\n");
    }
    let at: Vec<String> = (0..cols)
        .flat_map(|c| (0..rows).map(move |r| r * cols + c))
        .filter(|&i| !zero[i])
        .map(|i| i.to_string())
        .collect();
    format!(
        "    output_nonzeros(res, {k}, {values}, &[{}]);\n",
        at.join(", ")
    )
}

/// Which entries of a traced function's flat outputs are the constant zero.
fn zeros(traced: &Traced) -> Vec<bool> {
    traced
        .outputs
        .iter()
        .map(|&id| traced.graph.node(id) == Node::Const(0))
        .collect()
}

/// The items of one CasADi external function `name` (its evaluation, the
/// counts, names, sparsity patterns and work sizes), with `body` the
/// statements that read `arg` and write `res`.
fn external_items(
    name: &str,
    doc: &str,
    inputs: &[(String, usize, usize, bool)],
    outputs: &[(String, usize, usize, Vec<bool>)],
    body: &str,
) -> String {
    let mut out = String::new();
    let names = |list: Vec<&String>| -> String {
        list.iter()
            .enumerate()
            .map(|(k, n)| format!("        {k} => c\"{n}\".as_ptr(),\n"))
            .collect()
    };
    let pattern = |list: Vec<String>| -> String {
        list.iter()
            .enumerate()
            .map(|(k, s)| {
                format!("        {k} => {{\n            static S: &[i64] = &{s};\n            S.as_ptr()\n        }}\n")
            })
            .collect()
    };
    let (n_in, n_out) = (inputs.len(), outputs.len());
    let _ = write!(
        out,
        "/// CasADi external function `{name}`: {doc}\n\
         ///\n\
         /// # Safety\n\
         /// `arg` holds {n_in} pointers (each null, or to its input's nonzeros,\n\
         /// column-major), `res` {n_out} (each null, or to room for its output's).\n\
         #[no_mangle]\n\
         pub unsafe extern \"C\" fn {name}(\n    arg: *const *const f64,\n    res: *const *mut f64,\n    \
         _iw: *mut i64,\n    _w: *mut f64,\n    _mem: c_int,\n) -> c_int {{\n\
         {body}    0\n}}\n\n\
         /// The number of inputs of `{name}`.\n\
         #[no_mangle]\npub extern \"C\" fn {name}_n_in() -> i64 {{\n    {n_in}\n}}\n\n\
         /// The number of outputs of `{name}`.\n\
         #[no_mangle]\npub extern \"C\" fn {name}_n_out() -> i64 {{\n    {n_out}\n}}\n\n\
         /// The name of input `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_name_in(i: i64) -> *const c_char {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The name of output `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_name_out(i: i64) -> *const c_char {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The sparsity pattern of input `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_sparsity_in(i: i64) -> *const i64 {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The sparsity pattern of output `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_sparsity_out(i: i64) -> *const i64 {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The work sizes of `{name}`: its pointer counts, no integer or real work.\n\
         ///\n\
         /// # Safety\n\
         /// Each pointer is null or points to room for one `i64`.\n\
         #[no_mangle]\npub unsafe extern \"C\" fn {name}_work(\n    sz_arg: *mut i64,\n    sz_res: *mut i64,\n    \
         sz_iw: *mut i64,\n    sz_w: *mut i64,\n) -> c_int {{\n    \
         for (p, n) in [(sz_arg, {n_in}), (sz_res, {n_out}), (sz_iw, 0), (sz_w, 0)] {{\n        \
         if !p.is_null() {{\n            *p = n;\n        }}\n    }}\n    0\n}}\n\n",
        names(inputs.iter().map(|i| &i.0).collect()),
        names(outputs.iter().map(|o| &o.0).collect()),
        pattern(inputs.iter().map(|(_, r, c, d)| sparsity(*r, *c, *d)).collect()),
        pattern(
            outputs
                .iter()
                .map(|(_, r, c, zero)| pattern_of(*r, *c, zero))
                .collect()
        ),
    );
    out
}

/// The files of the crate of CasADi external functions (`rbdgen generate
/// URDF --casadi-external NAME --crate DIR`), paths relative to the crate,
/// and the generated dynamics module: `Cargo.toml` (a `cdylib` named `NAME`,
/// `libm` and `wide`), `.cargo/config.toml` (`-C target-cpu=native`: the
/// library runs on the machine that built it), `src/lib.rs` (the externals) and `src/dynamics.rs`
/// (the module, generated with `std` and, for the Jacobians, the
/// derivative functions of [`analytical_derivatives`]).
///
/// Every function of `options.functions` whose arguments are vectors or
/// scalars is a CasADi external function of its own name, loadable with
/// `casadi.external("rnea", "target/release/libNAME.so")`: `NAME`,
/// `NAME_n_in`, `NAME_n_out`, `NAME_name_in`, `NAME_name_out`,
/// `NAME_sparsity_in`, `NAME_sparsity_out`, `NAME_work`; inputs and outputs
/// named and shaped as in the CasADi module
/// ([`casadi_module`](super::casadi_module)), values column-major
/// (CasADi's), a null input read as zeros and a null output
/// skipped. `rnea`, `aba`, `contact_inverse_dynamics` and `contact_drift`
/// also get `jac_NAME`, the Jacobian CasADi looks up: its inputs are the
/// function's and its output (not read: no nonzeros), its outputs the blocks
/// `jac_OUT_IN`, filled from their analytical derivatives
/// ([`analytical_derivatives`]); where `q` has more coordinates
/// than the tangent space (`NQ > NV`: a free-flyer, a continuous joint),
/// the block of `q` is with respect to its `NQ` entries, by automatic
/// differentiation of the traced function (the module's user function
/// `NAME_raw_q` and its `NAME_raw_q_jacobian`).
///
/// # Errors
/// As [`crate::generate_module`]; [`GenerateError::Casadi`] for a name that
/// is not an identifier, a function with a matrix argument (`fext`, a
/// placement, `pi`), a per-frame function, or `f32`.
pub fn external_crate(
    urdf: &str,
    options: &Options,
    name: &str,
    command: &str,
) -> Result<(Vec<(String, String)>, crate::Module), GenerateError> {
    check_request(options, name)?;
    let model = build_model(urdf, options)?;
    let (requested, functions) = requested_functions(&model, options)?;
    let tangent = model.nq == model.nv;
    let mut raw_q = raw_q_functions(&model, &requested, tangent);
    if requested.contains(&Function::ContactDynamics) {
        raw_q.push(contact_dynamics_raw(&model, tangent)?);
    }
    let module_options = Options {
        functions,
        std: true,
        casadi: None,
        c_api: None,
        user_functions: raw_q,
        ..options.clone()
    };
    let module = crate::generate_module(urdf, &module_options, |_| {})?;
    let source = module.source()?;
    let version = env!("CARGO_PKG_VERSION");
    let mut lib = format!(
        "//! CasADi external functions of `{}`, generated by rbdgen {version}: `{command}`.\n\
         //! Do not edit: regenerate instead. `cargo build --release` writes\n\
         //! target/release/lib{name}.so; `casadi.external(\"FUNCTION\", PATH)` loads one.\n\
         //! Values are CasADi's: each input and output a column-major array of its\n\
         //! nonzeros (a result's structural zeros left out), a null input read as zeros, a null output\n\
         //! skipped; every function returns 0.\n\n\
         #![allow(clippy::missing_safety_doc)]\n\n\
         use std::ffi::{{c_char, c_int}};\n\n\
         #[allow(dead_code)]\nmod dynamics;\n\n",
        model_source(command)
    );
    lib.push_str(EXTERNAL_HELPERS);
    for &f in &requested {
        lib.push_str(&function_items(&model, f, &module_options.user_functions)?);
    }
    Ok((crate_files(name, command, lib, source), module))
}

/// The checks of the request that need no model: `name` an identifier,
/// `f64` scalars.
fn check_request(options: &Options, name: &str) -> Result<(), GenerateError> {
    if !crate::options::is_c_identifier(name) {
        return Err(GenerateError::Casadi(format!(
            "`{name}` is not a crate name (letters, digits and `_`, not starting with a digit)"
        )));
    }
    if options.scalar != crate::ScalarType::F64 {
        return Err(GenerateError::Casadi(
            "CasADi's external functions are f64; leave out the f32 scalar".into(),
        ));
    }
    Ok(())
}

/// The requested functions (the default set when all are), each checked
/// (no frame, no matrix argument), and the module's functions: them and
/// their analytical derivatives.
fn requested_functions(
    model: &Model,
    options: &Options,
) -> Result<(Vec<Function>, BTreeSet<Function>), GenerateError> {
    let requested: Vec<Function> = if options.functions.len() == Function::ALL.len() {
        Function::default_set(model)
    } else {
        options.functions.iter().copied().collect()
    };
    let mut functions = BTreeSet::new();
    for &f in &requested {
        let spec = f.spec();
        if spec.per_frame {
            return Err(GenerateError::Casadi(format!(
                "`{}` is per frame; the external functions take no frame (leave it out)",
                spec.name
            )));
        }
        if let Some((arg, _)) = f
            .args(model)
            .iter()
            .find(|(_, d)| !matches!(d.row_len(), None | Some(0)))
        {
            return Err(GenerateError::Casadi(format!(
                "`{}` takes the matrix `{arg}`; the external functions take vectors and scalars (leave it out)",
                spec.name
            )));
        }
        functions.insert(f);
        if let Some(d) = analytical_derivatives(f) {
            functions.insert(d);
        }
    }
    Ok((requested, functions))
}

/// With q not in the tangent space's coordinates, the block of q by
/// automatic differentiation of the traced function with respect to q's
/// entries, as a user function `NAME_raw_q` with q of fixed length: one
/// per requested function with a `jac_NAME` (none when `tangent`).
fn raw_q_functions(model: &Model, requested: &[Function], tangent: bool) -> Vec<UserFunction> {
    requested
        .iter()
        .filter(|_| !tangent)
        .filter_map(|&f| {
            let evaluate: crate::UserFn = match f {
                Function::Rnea => rnea_on_entries,
                Function::Aba => aba_on_entries,
                Function::ContactInverseDynamics => contact_inverse_dynamics_on_entries,
                Function::ContactDrift => contact_drift_on_entries,
                _ => return None,
            };
            let mut user =
                UserFunction::new(&format!("{}_raw_q", f.name()), f.spec().output, evaluate);
            for (arg, dim) in f.args(model) {
                let dim = if dim == Dim::Nq {
                    Dim::Fixed(model.nq)
                } else {
                    dim
                };
                user = user.input(arg, dim);
            }
            Some(user.jacobian(&["q"]))
        })
        .collect()
}

/// contact_dynamics' (a, λ) as one vector, differentiated by automatic
/// differentiation with respect to the damping (which
/// contact_dynamics_derivatives leaves out) and, with a free-flyer root, to
/// the base's 7 entries of q only (the joints' entries are their tangent
/// coordinates: their columns are the analytical derivatives').
fn contact_dynamics_raw(model: &Model, tangent: bool) -> Result<UserFunction, GenerateError> {
    if !tangent && !free_flyer_root(model) {
        return Err(GenerateError::Casadi(
            "`contact_dynamics`' Jacobian with q's entries unlike its tangent's needs a free-flyer root \
             and joints of one coordinate each (leave contact_dynamics out)"
                .into(),
        ));
    }
    let len = Function::ContactDynamics.spec().output.len(model);
    let mut user = UserFunction::new(
        "contact_dynamics_raw",
        Output::Vector(Dim::Fixed(len)),
        contact_dynamics_on_parts,
    );
    user = match tangent {
        true => user.input("q", Dim::Nq),
        false => user
            .input("base", Dim::Fixed(7))
            .input("joints", Dim::Fixed(model.nq - 7)),
    };
    user = user
        .input("v", Dim::Nv)
        .input("tau", Dim::Nv)
        .input("damping", Dim::Scalar);
    Ok(user.jacobian(if tangent {
        &["damping"]
    } else {
        &["base", "damping"]
    }))
}

/// The external items of `f` (over `dynamics::NAME`), then those of its
/// `jac_NAME` when it has analytical derivatives; `user_functions` are the
/// module's (the raw q ones).
fn function_items(
    model: &Model,
    f: Function,
    user_functions: &[UserFunction],
) -> Result<String, GenerateError> {
    let spec = f.spec();
    let args = f.args(model);
    let inputs: Vec<(String, usize, usize, bool)> = args
        .iter()
        .map(|(a, d)| {
            let (r, c) = arg_shape(*d, model);
            (a.to_string(), r, c, true)
        })
        .collect();
    let shapes = output_shapes(spec.output, model);
    // The structural zeros: the traced function's constant-zero outputs.
    let lens: Vec<usize> = args.iter().map(|(_, d)| d.len(model)).collect();
    let traced = try_trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        f.evaluate(model, &mut data, x, None)
    })
    .map_err(|source| GenerateError::Input {
        function: spec.name.to_string(),
        source,
    })?;
    let mut zero = zeros(&traced).into_iter();
    let outputs: Vec<(String, usize, usize, Vec<bool>)> = output_names(f)
        .iter()
        .zip(&shapes)
        .map(|(n, (r, c))| (n.to_string(), *r, *c, zero.by_ref().take(r * c).collect()))
        .collect();
    let mut body = String::new();
    let mut call = Vec::new();
    for (k, (a, d)) in args.iter().enumerate() {
        let n = d.len(model);
        let _ = writeln!(body, "    let {a}: [f64; {n}] = input(arg, {k});");
        call.push(match d {
            Dim::Scalar => format!("{a}[0]"),
            _ => format!("&{a}"),
        });
    }
    let _ = writeln!(
        body,
        "    let result = dynamics::{}({});",
        spec.name,
        call.join(", ")
    );
    let parts: Vec<String> = match spec.output {
        Output::Tuple(p) => (0..p.len()).map(|k| format!("result.{k}")).collect(),
        _ => vec!["result".to_string()],
    };
    for (k, ((part, (r, c)), o)) in parts
        .iter()
        .zip(&shapes)
        .zip(spec_parts(spec.output))
        .enumerate()
    {
        let flat = match o {
            Output::Scalar => format!("&[{part}]"),
            Output::Matrix(..) => format!("{part}.as_flattened()"),
            _ => format!("&{part}"),
        };
        body.push_str(&write_output(k, &flat, *r, *c, &outputs[k].3));
    }
    // The doc's first paragraph.
    let doc: Vec<&str> = spec
        .doc
        .iter()
        .copied()
        .take_while(|l| !l.is_empty())
        .collect();
    let doc = doc.join("\n/// ");
    let mut items = external_items(spec.name, &doc, &inputs, &outputs, &body);
    let tangent = model.nq == model.nv;
    if f == Function::ContactDynamics {
        items.push_str(&contact_dynamics_jacobian(
            model, &inputs, &outputs, tangent,
        ));
    } else if let Some(derivatives) = analytical_derivatives(f) {
        items.push_str(&jac_items(
            model,
            f,
            derivatives,
            &inputs,
            &outputs,
            user_functions,
        )?);
    }
    Ok(items)
}

/// The items of `jac_NAME` of `f` (not `contact_dynamics`): its inputs, then
/// the output (not read); a block per (output, input), rows the output's
/// entries, columns the input's, from `derivatives`, and where q is not in
/// the tangent's coordinates its block from the raw q user function.
fn jac_items(
    model: &Model,
    f: Function,
    derivatives: Function,
    inputs: &[(String, usize, usize, bool)],
    outputs: &[(String, usize, usize, Vec<bool>)],
    user_functions: &[UserFunction],
) -> Result<String, GenerateError> {
    let spec = f.spec();
    let args = f.args(model);
    let lens: Vec<usize> = args.iter().map(|(_, d)| d.len(model)).collect();
    let tangent = model.nq == model.nv;
    let (out_name, out_rows, out_cols, _) = outputs[0].clone();
    let mut jac_inputs = inputs.to_vec();
    jac_inputs.push((format!("out_{out_name}"), out_rows, out_cols, false));
    // The blocks' structural zeros: the derivatives' constant zeros (of
    // q's entries' Jacobian for a free-flyer).
    let traced = try_trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        derivatives.evaluate(model, &mut data, x, None)
    })
    .map_err(|source| GenerateError::Input {
        function: derivatives.name().to_string(),
        source,
    })?;
    let mut zero = zeros(&traced);
    let n = out_rows * out_cols;
    if !tangent {
        let user = user_functions
            .iter()
            .find(|u| u.name == format!("{}_raw_q", spec.name))
            .expect("a raw q user function for each jac_ of a free-flyer");
        let raw = crate::user::UserItem::Jacobian
            .trace(user, model)
            .map_err(|source| GenerateError::Input {
                function: format!("{}_raw_q_jacobian", spec.name),
                source,
            })?;
        zero = [zeros(&raw), zero[n * model.nv..].to_vec()].concat();
    }
    let mut zero = zero.into_iter();
    let jac_outputs: Vec<(String, usize, usize, Vec<bool>)> = inputs
        .iter()
        .map(|(a, r, c, _)| {
            let mask = zero.by_ref().take(n * r * c).collect();
            (format!("jac_{out_name}_{a}"), n, r * c, mask)
        })
        .collect();
    let mut body = String::new();
    for (k, (a, d)) in args.iter().enumerate() {
        let _ = writeln!(
            body,
            "    let {a}: [f64; {}] = input(arg, {k});",
            d.len(model)
        );
    }
    let call: Vec<String> = args.iter().map(|(a, _)| format!("&{a}")).collect();
    let _ = writeln!(
        body,
        "    let blocks = dynamics::{}({});",
        derivatives.name(),
        call.join(", ")
    );
    if !tangent {
        let _ = writeln!(
            body,
            "    let raw_q = dynamics::{}_raw_q_jacobian({});",
            spec.name,
            call.join(", ")
        );
    }
    for (k, (_, r, c, zero)) in jac_outputs.iter().enumerate() {
        let values = match k == 0 && !tangent {
            true => "raw_q.as_flattened()".to_string(),
            false => format!("blocks.{k}.as_flattened()"),
        };
        body.push_str(&write_output(k, &values, *r, *c, zero));
    }
    let doc = match tangent {
        true => format!(
            "the Jacobian of `{}` (CasADi's `jac_{}`), from `{}`.",
            spec.name,
            spec.name,
            derivatives.name()
        ),
        false => format!(
            "the Jacobian of `{}` (CasADi's `jac_{}`): with respect to `q`'s entries by automatic \
             differentiation of its traced graph (`{}_raw_q_jacobian`), the others from `{}`.",
            spec.name,
            spec.name,
            spec.name,
            derivatives.name()
        ),
    };
    Ok(external_items(
        &format!("jac_{}", spec.name),
        &doc,
        &jac_inputs,
        &jac_outputs,
        &body,
    ))
}

/// The crate's files: its manifest, its build configuration, `src/lib.rs`
/// (`lib`) and `src/dynamics.rs` (`source`).
fn crate_files(name: &str, command: &str, lib: String, source: String) -> Vec<(String, String)> {
    let version = env!("CARGO_PKG_VERSION");
    let cargo = format!(
        "# CasADi external functions `{name}`, generated by rbdgen {version}: `{command}`.\n\
         # `cargo build --release` writes target/release/lib{name}.so.\n\
         [package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n\
         [dependencies]\nlibm = \"0.2\"\nwide = {{ version = \"1\", default-features = false }}\n\n\
         # The generated code does not panic; no unwinding crosses into C.\n\
         [profile.release]\npanic = \"abort\"\n\n\
         [profile.dev]\npanic = \"abort\"\n\n\
         # Not part of an enclosing workspace.\n[workspace]\n"
    );
    // As the Python crate's: built for the machine that builds it (FMA, and
    // `wide`'s widest vectors); remove the file for a portable library.
    let config = format!(
        "# CasADi external functions `{name}`, generated by rbdgen {version}.\n\
         # Every crate built for the machine that builds it; remove this file for a\n\
         # portable library.\n[build]\nrustflags = [\"-C\", \"target-cpu=native\"]\n"
    );
    vec![
        (".cargo/config.toml".to_string(), config),
        ("Cargo.toml".to_string(), cargo),
        ("src/lib.rs".to_string(), lib),
        ("src/dynamics.rs".to_string(), source),
    ]
}

/// `rnea` on `q` given by its entries (a user function of the external
/// crate, differentiated with respect to them).
fn rnea_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::Rnea.evaluate(model, data, x, None)
}

/// `contact_inverse_dynamics` on `q` given by its entries, as [`rnea_on_entries`].
fn contact_inverse_dynamics_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::ContactInverseDynamics.evaluate(model, data, x, None)
}

/// Whether the model's root is a free-flyer (q's first 7 entries) and every
/// other joint has one coordinate per velocity (`NQ = NV + 1`).
fn free_flyer_root(model: &Model) -> bool {
    model.nq == model.nv + 1
        && model
            .joints
            .get(1)
            .is_some_and(|j| matches!(j.kind, rbdgen_runtime::JointKind::FreeFlyer))
}

/// `jac_contact_dynamics`: CasADi's Jacobian of both outputs (`a`, `λ`) with
/// respect to each input, output-major: the blocks of `v` and `tau` and the
/// joints' columns of `q` from `contact_dynamics_derivatives`, the columns
/// of a free-flyer's 7 entries and the block of `damping` by automatic
/// differentiation of the traced function (`contact_dynamics_raw_jacobian`).
/// Dense blocks.
fn contact_dynamics_jacobian(
    model: &Model,
    inputs: &[(String, usize, usize, bool)],
    outputs: &[(String, usize, usize, Vec<bool>)],
    tangent: bool,
) -> String {
    let (nq, nv) = (model.nq, model.nv);
    let mut jac_inputs = inputs.to_vec();
    for (o, r, c, _) in outputs {
        jac_inputs.push((format!("out_{o}"), *r, *c, false));
    }
    let mut jac_outputs = Vec::new();
    let mut body = String::new();
    for (k, (a, r, c, _)) in inputs.iter().enumerate() {
        let _ = writeln!(body, "    let {a}: [f64; {}] = input(arg, {k});", r * c);
    }
    body.push_str(
        "    let blocks = dynamics::contact_dynamics_derivatives(&q, &v, &tau, damping[0]);\n",
    );
    if tangent {
        body.push_str(
            "    let raw = dynamics::contact_dynamics_raw_jacobian(&q, &v, &tau, damping[0]);\n",
        );
    } else {
        let _ = writeln!(
            body,
            "    let base: [f64; 7] = q[..7].try_into().unwrap_or([0.0; 7]);\n    \
             let joints: [f64; {}] = q[7..].try_into().unwrap_or([0.0; {}]);\n    \
             let raw = dynamics::contact_dynamics_raw_jacobian(&base, &joints, &v, &tau, damping[0]);",
            nq - 7,
            nq - 7
        );
    }
    let mut k = 0;
    for (oi, (o, rows, _, _)) in outputs.iter().enumerate() {
        let offset = if oi == 0 { 0 } else { nv };
        let range = if oi == 0 {
            format!("..{nv}")
        } else {
            format!("{nv}..")
        };
        for (ii, (a, r, c, _)) in inputs.iter().enumerate() {
            let cols = r * c;
            let values = match (a.as_str(), tangent) {
                ("q", false) => {
                    // The base's 7 columns by AD, the joints' analytical.
                    let _ = writeln!(
                        body,
                        "    let mut jq{oi} = [[0.0; {nq}]; {rows}];\n    \
                         for (r, row) in jq{oi}.iter_mut().enumerate() {{\n        \
                         row[..7].copy_from_slice(&raw.0[{offset} + r]);\n        \
                         row[7..].copy_from_slice(&blocks.{}[r][6..]);\n    }}",
                        3 * oi
                    );
                    format!("jq{oi}.as_flattened()")
                }
                ("damping", false) => format!("&raw.1[{range}]"),
                ("damping", true) => format!("&raw[{range}]"),
                _ => format!("blocks.{}.as_flattened()", 3 * oi + ii),
            };
            body.push_str(&write_output(k, &values, *rows, cols, &[]));
            jac_outputs.push((format!("jac_{o}_{a}"), *rows, cols, Vec::new()));
            k += 1;
        }
    }
    let doc = "the Jacobian of `contact_dynamics` (CasADi's `jac_contact_dynamics`): the blocks of \
               `v`, `tau` and the joints' columns of `q` from `contact_dynamics_derivatives`, those of \
               a free-flyer's 7 entries of `q` and of `damping` by automatic differentiation of its \
               traced graph (`contact_dynamics_raw_jacobian`).";
    external_items(
        "jac_contact_dynamics",
        doc,
        &jac_inputs,
        &jac_outputs,
        &body,
    )
}

/// `contact_dynamics` with `q` in one argument, or a free-flyer's 7 entries
/// and the joints' in two; its `(a, λ)` one vector.
fn contact_dynamics_on_parts(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    if x.len() == 5 {
        let q: Vec<Expr> = x[0].iter().chain(&x[1]).cloned().collect();
        let args = [q, x[2].clone(), x[3].clone(), x[4].clone()];
        Function::ContactDynamics.evaluate(model, data, &args, None)
    } else {
        Function::ContactDynamics.evaluate(model, data, x, None)
    }
}

/// `contact_drift` on `q` given by its entries, as [`rnea_on_entries`].
fn contact_drift_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::ContactDrift.evaluate(model, data, x, None)
}

/// `aba` on `q` given by its entries, as [`rnea_on_entries`].
fn aba_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::Aba.evaluate(model, data, x, None)
}

/// The parts of an output (itself when not a tuple).
fn spec_parts(output: Output) -> Vec<Output> {
    match output {
        Output::Tuple(parts) => parts.to_vec(),
        o => vec![o],
    }
}

/// The external crate's reading and writing of CasADi's arrays.
const EXTERNAL_HELPERS: &str =
    "/// Input `i` as the Rust argument's array: its `N` values, zeros when
/// CasADi passes a null pointer (a vector's column-major order is its own).
///
/// # Safety
/// `arg` holds at least `i + 1` pointers, each null or to `N` values.
#[allow(dead_code)]
unsafe fn input<const N: usize>(arg: *const *const f64, i: usize) -> [f64; N] {
    let mut x = [0.0; N];
    let p = *arg.add(i);
    if !p.is_null() {
        x.copy_from_slice(std::slice::from_raw_parts(p, N));
    }
    x
}

/// Writes `values` (row-major, `rows x cols`) to output `i` in CasADi's
/// column-major order; nothing when CasADi passes a null pointer.
///
/// # Safety
/// `res` holds at least `i + 1` pointers, each null or to `rows * cols` values.
#[allow(dead_code)]
unsafe fn output(res: *const *mut f64, i: usize, values: &[f64], rows: usize, cols: usize) {
    let p = *res.add(i);
    if p.is_null() {
        return;
    }
    for r in 0..rows {
        for c in 0..cols {
            *p.add(c * rows + r) = values[r * cols + c];
        }
    }
}

/// Writes the nonzeros of output `i`, the entries `at` of `values` in
/// CasADi's order; nothing when CasADi passes a null pointer.
///
/// # Safety
/// `res` holds at least `i + 1` pointers, each null or to `at.len()` values.
#[allow(dead_code)]
unsafe fn output_nonzeros(res: *const *mut f64, i: usize, values: &[f64], at: &[usize]) {
    let p = *res.add(i);
    if p.is_null() {
        return;
    }
    for (j, &k) in at.iter().enumerate() {
        *p.add(j) = values[k];
    }
}

";

#[cfg(test)]
mod tests {
    use super::*;

    /// The external crate of a double pendulum: every symbol of CasADi's
    /// external-function API for each function, `jac_rnea` and `jac_aba`
    /// (its q has NV coordinates) with the output as an input without
    /// nonzeros, and a refusal of a per-frame function.
    #[test]
    fn external_crate_has_the_api_and_the_jacobians() {
        let urdf = include_str!("../../../tests/golden/double_pendulum.urdf");
        let options = Options {
            functions: [Function::Rnea, Function::Aba, Function::Crba]
                .into_iter()
                .collect(),
            ..Options::default()
        };
        let (files, _) = external_crate(urdf, &options, "pendulum", "rbdgen generate").unwrap();
        let lib = &files.iter().find(|(p, _)| p == "src/lib.rs").unwrap().1;
        for f in ["rnea", "aba", "crba", "jac_rnea", "jac_aba"] {
            for suffix in [
                "(",
                "_n_in(",
                "_n_out(",
                "_name_in(",
                "_name_out(",
                "_sparsity_in(",
                "_sparsity_out(",
                "_work(",
            ] {
                assert!(
                    lib.contains(&format!("extern \"C\" fn {f}{suffix}")),
                    "{f}{suffix}"
                );
            }
        }
        assert!(!lib.contains("fn jac_crba("));
        assert!(lib.contains("3 => c\"out_tau\".as_ptr()"));
        assert!(lib.contains("static S: &[i64] = &[2, 1, 0, 0];"));
        assert!(lib.contains("let blocks = dynamics::aba_derivatives(&q, &v, &tau);"));
        let source = &files
            .iter()
            .find(|(p, _)| p == "src/dynamics.rs")
            .unwrap()
            .1;
        assert!(source.contains("pub fn rnea_derivatives("));
        // A free-flyer: the block of q's entries by automatic differentiation.
        let floating = Options {
            floating_base: true,
            ..options.clone()
        };
        let hopper = include_str!("../../../tests/golden/hopper.urdf");
        let (files, _) = external_crate(hopper, &floating, "hopper", "rbdgen generate").unwrap();
        let lib = &files.iter().find(|(p, _)| p == "src/lib.rs").unwrap().1;
        assert!(lib.contains("let raw_q = dynamics::aba_raw_q_jacobian(&q, &v, &tau);"));
        // The q block's structural zeros left out (`aba` does not depend on
        // the base's position).
        assert!(lib.contains("output_nonzeros(res, 0, raw_q.as_flattened(), &[3, 12, "));
        let frame = Options {
            functions: [Function::FramePlacement].into_iter().collect(),
            ..Options::default()
        };
        let refused = external_crate(urdf, &frame, "pendulum", "rbdgen generate");
        assert!(matches!(refused, Err(GenerateError::Casadi(_))));
        // jac_contact_dynamics on the floating hopper standing on its shin:
        // both outputs' blocks, the base's 7 columns and the damping by
        // automatic differentiation.
        let contact = Options {
            functions: [Function::ContactDynamics].into_iter().collect(),
            contacts: vec![("shin".to_string(), rbdgen_runtime::ContactKind::Point)],
            ..floating.clone()
        };
        let (files, _) = external_crate(hopper, &contact, "hopper", "rbdgen generate").unwrap();
        let lib = &files.iter().find(|(p, _)| p == "src/lib.rs").unwrap().1;
        assert!(lib.contains("extern \"C\" fn jac_contact_dynamics("));
        for name in [
            "out_a",
            "out_lambda",
            "jac_a_damping",
            "jac_lambda_q",
            "jac_lambda_damping",
        ] {
            assert!(lib.contains(&format!("c\"{name}\".as_ptr()")), "{name}");
        }
        assert!(lib.contains(
            "dynamics::contact_dynamics_raw_jacobian(&base, &joints, &v, &tau, damping[0])"
        ));
    }
}
