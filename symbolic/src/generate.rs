//! The one entry point: URDF text and options in, formatted Rust out. The
//! macro and the CLI both call [`generate_tokens`] / [`generate`].

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use rbdgen_runtime::{
    aba, crba, forward_kinematics, frame_placement, rnea, Data, Model, ModelError,
};
use thiserror::Error;

use crate::emit::{emit_block, Inputs, Shape};
use crate::graph::OpCounts;
use crate::trace::{trace, Expr, Traced};

/// A function the generated module can contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Function {
    /// `rnea(q, v, a) -> tau`.
    Rnea,
    /// `crba(q) -> M` (full).
    Crba,
    /// `aba(q, v, tau) -> a`.
    Aba,
    /// `frame_placement(q, frame) -> oMf` (4x4).
    FramePlacement,
}

impl Function {
    /// Every function, in emission order.
    pub const ALL: [Function; 4] = [
        Function::Rnea,
        Function::Crba,
        Function::Aba,
        Function::FramePlacement,
    ];

    /// The generated function's name, as the runtime's.
    pub fn name(self) -> &'static str {
        match self {
            Function::Rnea => "rnea",
            Function::Crba => "crba",
            Function::Aba => "aba",
            Function::FramePlacement => "frame_placement",
        }
    }

    /// The function called `name`.
    pub fn from_name(name: &str) -> Option<Function> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Give the root link a free-flyer joint (Pinocchio's `JointModelFreeFlyer`).
    pub floating_base: bool,
    /// The functions to emit (all by default).
    pub functions: BTreeSet<Function>,
    /// The name the URDF is known by in the header (a relative path; never absolute).
    pub source_name: String,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            floating_base: false,
            functions: Function::ALL.into_iter().collect(),
            source_name: String::new(),
        }
    }
}

/// Why code could not be generated.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// The URDF does not make a model.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// Tracing produced a non-finite constant (for example a massless subtree
    /// that ABA would divide by).
    #[error("{function}: {reason}")]
    NonFinite {
        /// The function being traced.
        function: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// The token stream did not parse as a Rust file (an internal error).
    #[error("generated code does not parse: {0}")]
    Syntax(String),
}

/// Formatted Rust source of the module for `urdf` (the items of the module;
/// wrap it in `mod NAME { ... }` or keep it as a file of its own).
///
/// # Errors
/// [`GenerateError`] for a URDF that does not make a model or a trace that
/// produces a non-finite constant.
pub fn generate(urdf: &str, options: &Options) -> Result<String, GenerateError> {
    let tokens = generate_tokens(urdf, options)?;
    let file: syn::File = syn::parse2(tokens).map_err(|e| GenerateError::Syntax(e.to_string()))?;
    Ok(prettyplease::unparse(&file))
}

/// The module items for `urdf` as tokens; see [`generate`].
///
/// # Errors
/// As [`generate`].
pub fn generate_tokens(urdf: &str, options: &Options) -> Result<TokenStream, GenerateError> {
    let model = Model::from_urdf_str(urdf, options.floating_base)?;
    let (nq, nv) = (
        Literal::usize_unsuffixed(model.nq),
        Literal::usize_unsuffixed(model.nv),
    );
    let mut items = Vec::new();
    let mut report = Vec::new();
    for &function in &options.functions {
        let (item, counts) = emit_function(&model, function)?;
        items.push(item);
        report.push(format!(" - `{}`: {counts}", function.name()));
    }
    let header = header_doc(&model, options, &report);
    let joint_names: Vec<&str> = model.joints[1..].iter().map(|j| j.name.as_str()).collect();
    let njoints = Literal::usize_unsuffixed(joint_names.len());
    let frames = frame_enum(&model);
    Ok(quote! {
        #(#![doc = #header])*
        #![allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case)]

        /// Length of the configuration `q`.
        pub const NQ: usize = #nq;
        /// Length of the velocity `v` (the tangent space), and of `a` and `tau`.
        pub const NV: usize = #nv;
        /// Joint names in model order (the universe excluded); joint `i` here is Pinocchio's joint id `i + 1`.
        pub const JOINT_NAMES: [&str; #njoints] = [#(#joint_names),*];
        /// Gravity in the world frame (m/s²).
        pub const GRAVITY: [f64; 3] = [0.0, 0.0, -9.81];

        #frames
        #(#items)*
    })
}

fn header_doc(model: &Model, options: &Options, report: &[String]) -> Vec<String> {
    let base = if options.floating_base {
        "free-flyer root"
    } else {
        "fixed base"
    };
    let mut lines = vec![
        format!(
            " Rigid-body dynamics of `{}`, generated by rbdgen {}.",
            model.name,
            env!("CARGO_PKG_VERSION")
        ),
        String::new(),
        format!(
            " Source: `{}`, {base}; nq = {}, nv = {}.",
            options.source_name, model.nq, model.nv
        ),
        " Conventions are Pinocchio's: joint order, `q`/`v` layout, free-flyer".into(),
        " `[x y z qx qy qz qw]` with `v` in the base frame, continuous joints as".into(),
        " `[cos, sin]`, spatial vectors `[linear; angular]`, gravity (0, 0, -9.81).".into(),
        " SI units. Do not edit: regenerate instead.".into(),
        String::new(),
        " Operation counts:".into(),
    ];
    lines.extend(report.iter().cloned());
    lines
}

/// Trace one function: the generic algorithm on symbolic inputs.
fn trace_function(
    model: &Model,
    args: &[(&str, usize)],
    f: impl FnOnce(&mut Data<Expr>, &[Vec<Expr>]) -> Vec<Expr>,
) -> Traced {
    let lens: Vec<usize> = args.iter().map(|a| a.1).collect();
    trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        f(&mut data, x)
    })
}

fn check(traced: &Traced, function: Function) -> Result<(), GenerateError> {
    match traced.graph.non_finite() {
        Some(reason) => Err(GenerateError::NonFinite {
            function: function.name(),
            reason: reason.to_string(),
        }),
        None => Ok(()),
    }
}

fn emit_function(
    model: &Model,
    function: Function,
) -> Result<(TokenStream, OpCounts), GenerateError> {
    let (nq, nv) = (model.nq, model.nv);
    let math = quote!(libm);
    let (args, traced, shape): (Vec<(&str, usize)>, Traced, Shape) = match function {
        Function::Rnea => {
            let args = vec![("q", nq), ("v", nv), ("a", nv)];
            let t = trace_function(model, &args, |d, x| {
                rnea(model, d, &x[0], &x[1], &x[2]).to_vec()
            });
            (args, t, Shape::Vector(nv))
        }
        Function::Crba => {
            let args = vec![("q", nq)];
            let t = trace_function(model, &args, |d, x| crba(model, d, &x[0]).to_vec());
            (args, t, Shape::Matrix(nv, nv))
        }
        Function::Aba => {
            let args = vec![("q", nq), ("v", nv), ("tau", nv)];
            let t = trace_function(model, &args, |d, x| {
                aba(model, d, &x[0], &x[1], &x[2]).to_vec()
            });
            (args, t, Shape::Vector(nv))
        }
        Function::FramePlacement => return emit_frame_placement(model),
    };
    check(&traced, function)?;
    let counts = traced.graph.op_counts(&traced.outputs);
    let block = emit_block(
        &traced.graph,
        &traced.outputs,
        shape,
        &Inputs { args: &args },
        &math,
    );
    let doc = function_doc(function, &counts);
    let item = match function {
        Function::Rnea => quote! {
            #(#[doc = #doc])*
            pub fn rnea(q: &[f64; NQ], v: &[f64; NV], a: &[f64; NV]) -> [f64; NV] #block
        },
        Function::Crba => quote! {
            #(#[doc = #doc])*
            #[allow(unused_variables)]
            pub fn crba(q: &[f64; NQ]) -> [[f64; NV]; NV] #block
        },
        Function::Aba => quote! {
            #(#[doc = #doc])*
            pub fn aba(q: &[f64; NQ], v: &[f64; NV], tau: &[f64; NV]) -> [f64; NV] #block
        },
        Function::FramePlacement => unreachable!(),
    };
    Ok((item, counts))
}

fn function_doc(function: Function, counts: &OpCounts) -> Vec<String> {
    let mut doc: Vec<String> = match function {
        Function::Rnea => vec![
            " Inverse dynamics `tau = M(q) a + C(q, v) v + g(q)` by the recursive Newton-Euler".into(),
            " algorithm (Featherstone 2008 §5.3; Pinocchio's `rnea`).".into(),
            String::new(),
            " `q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `tau: [NV]` (N·m, N; a free-flyer's".into(),
            " entries are the base wrench in the base frame). `rnea(q, v, 0)` is `nonLinearEffects`.".into(),
        ],
        Function::Crba => vec![
            " The joint-space inertia matrix `M(q)` by the composite rigid-body algorithm".into(),
            " (Featherstone 2008 §6.2; Pinocchio's `crba`, which fills only the upper".into(),
            " triangle: this is the full symmetric matrix).".into(),
            String::new(),
            " `q: [NQ]`; returns `M: [NV x NV]` (kg, kg·m, kg·m²).".into(),
        ],
        Function::Aba => vec![
            " Forward dynamics `a = M(q)⁻¹ (tau - C(q, v) v - g(q))` by the articulated-body".into(),
            " algorithm (Featherstone 2008 §7.3; Pinocchio's `aba`).".into(),
            String::new(),
            " `q: [NQ]`, `v: [NV]`, `tau: [NV]`; returns `a: [NV]`. `rnea(q, v, aba(q, v, tau)) = tau`.".into(),
        ],
        Function::FramePlacement => vec![
            " The placement `world_from_frame` of a link frame as a 4x4 homogeneous matrix".into(),
            " `[[R, p], [0, 1]]` (Pinocchio's `oMf` after `updateFramePlacements`); `q: [NQ]`, m.".into(),
        ],
    };
    doc.push(String::new());
    doc.push(format!(" Cost: {counts}."));
    doc
}

/// Rust identifier for a frame: UpperCamelCase of the link name.
fn variant_name(name: &str, taken: &mut BTreeSet<String>) -> Ident {
    let mut out = String::new();
    for part in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
    {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) || out == "Self" {
        out.insert_str(0, "Frame");
    }
    let mut candidate = out.clone();
    let mut k = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{out}{k}");
        k += 1;
    }
    Ident::new(&candidate, Span::call_site())
}

fn frame_enum(model: &Model) -> TokenStream {
    let mut taken = BTreeSet::new();
    let frames: Vec<(Ident, &str)> = model
        .body_frames()
        .map(|(_, f)| (variant_name(&f.name, &mut taken), f.name.as_str()))
        .collect();
    let n = Literal::usize_unsuffixed(frames.len());
    let variants = frames.iter().map(|(id, name)| {
        let doc = format!(" Link `{name}`.");
        quote!(#[doc = #doc] #id)
    });
    let all = frames.iter().map(|(id, _)| quote!(Frame::#id));
    let names = frames.iter().map(|(id, name)| quote!(Frame::#id => #name));
    quote! {
        /// The link (BODY) frames of the model, in Pinocchio's order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Frame { #(#variants),* }

        impl Frame {
            /// Every frame, in model order.
            pub const ALL: [Frame; #n] = [#(#all),*];

            /// The URDF link name.
            pub fn name(self) -> &'static str {
                match self { #(#names),* }
            }
        }
    }
}

fn emit_frame_placement(model: &Model) -> Result<(TokenStream, OpCounts), GenerateError> {
    let args = [("q", model.nq)];
    let math = quote!(libm);
    let mut taken = BTreeSet::new();
    let mut arms = Vec::new();
    let mut total = OpCounts::default();
    for (id, frame) in model.body_frames() {
        let variant = variant_name(&frame.name, &mut taken);
        let traced = trace_function(model, &args, |d, x| {
            forward_kinematics(model, d, &x[0]);
            frame_placement(model, d, id).to_homogeneous().concat()
        });
        check(&traced, Function::FramePlacement)?;
        let c = traced.graph.op_counts(&traced.outputs);
        total = OpCounts {
            add: total.add + c.add,
            mul: total.mul + c.mul,
            div: total.div + c.div,
            neg: total.neg + c.neg,
            sqrt: total.sqrt + c.sqrt,
            trig: total.trig + c.trig,
        };
        let block = emit_block(
            &traced.graph,
            &traced.outputs,
            Shape::Matrix(4, 4),
            &Inputs { args: &args },
            &math,
        );
        arms.push(quote!(Frame::#variant => #block));
    }
    let doc = function_doc(Function::FramePlacement, &total);
    let item = quote! {
        #(#[doc = #doc])*
        #[allow(unused_variables)]
        pub fn frame_placement(q: &[f64; NQ], frame: Frame) -> [[f64; 4]; 4] {
            match frame { #(#arms),* }
        }
    };
    Ok((item, total))
}
