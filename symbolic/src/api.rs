//! The generated module's items besides its functions: the model's
//! constants (`NQ`, `NV`, `NEUTRAL`, names, gravity, limits, masses, armature,
//! contact set, run-time parameters), the `Frame` enum, the `mul_add` helper,
//! and the types and parameters of the generated signatures.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use rbdgen_runtime::Model;

use crate::emit::{ScalarType, Shape, TRIG_LANES};
use crate::functions::{Dim, Output};
use crate::options::Options;

/// The module's constants, in order: `NQ`, `NV`, `NEUTRAL`, `JOINT_NAMES`,
/// `GRAVITY`, `NJOINTS`, `NU`, `ACTUATED_DOFS`, the limits and masses, the
/// constants of the options that change the model, and the `Frame` enum.
pub(crate) fn constants(model: &Model, options: &Options) -> TokenStream {
    let ty = options.scalar.ty();
    let (nq, nv) = (
        Literal::usize_unsuffixed(model.nq),
        Literal::usize_unsuffixed(model.nv),
    );
    let joint_names: Vec<&str> = model.joints[1..].iter().map(|j| j.name.as_str()).collect();
    let njoints = Literal::usize_unsuffixed(joint_names.len());
    let njoints_universe = Literal::usize_unsuffixed(model.njoints());
    let neutral = model
        .neutral()
        .into_iter()
        .map(|x| options.scalar.literal(x));
    let gravity = model.gravity.0.map(|g| options.scalar.literal(g));
    let frames = frame_enum(model, options);
    let setup = setup_constants(model, options.scalar);
    let actuated: Vec<Literal> = rbdgen_runtime::actuated_dofs(model)
        .into_iter()
        .map(Literal::usize_unsuffixed)
        .collect();
    let nu = Literal::usize_unsuffixed(actuated.len());
    let limits = limit_constants(model, options.scalar);
    quote! {
        /// Length of the configuration `q`.
        pub const NQ: usize = #nq;
        /// Length of the velocity `v` (the tangent space), and of `a` and `tau`.
        pub const NV: usize = #nv;
        /// The neutral configuration (Pinocchio's `neutral`): zero angles and offsets,
        /// `[1, 0]` for continuous joints, the identity `[0, 0, 0, 0, 0, 0, 1]` for a free-flyer.
        pub const NEUTRAL: [#ty; NQ] = [#(#neutral),*];
        /// Joint names in model order (the universe excluded); joint `i` here is Pinocchio's joint id `i + 1`.
        pub const JOINT_NAMES: [&str; #njoints] = [#(#joint_names),*];
        /// Gravity in the world frame (m/s²).
        pub const GRAVITY: [#ty; 3] = [#(#gravity),*];
        /// Number of joints, the universe included (Pinocchio's `njoints`): the length of
        /// `fext`, indexed by joint id (`JOINT_NAMES[i - 1]` for `i > 0`).
        pub const NJOINTS: usize = #njoints_universe;
        /// Number of actuated dofs: every dof but a free-flyer's (the length of `u`).
        pub const NU: usize = #nu;
        /// The actuated dofs, indices into `v`: the actuation matrix `S` (`NV x NU`) has a
        /// one at `(ACTUATED_DOFS[k], k)`, so `tau = S u`.
        pub const ACTUATED_DOFS: [usize; NU] = [#(#actuated),*];
        #limits

        #setup
        #frames
    }
}

/// The model's own numbers: joint limits from the URDF (Pinocchio's
/// `lowerPositionLimit`, `upperPositionLimit`, `velocityLimit`, `effortLimit`,
/// infinite where the file has none) and the bodies' masses.
fn limit_constants(model: &Model, scalar: ScalarType) -> TokenStream {
    let ty = scalar.ty();
    let list = |x: &[f64]| -> Vec<TokenStream> {
        x.iter()
            .map(|&x| {
                if x.is_finite() {
                    scalar.literal(x)
                } else if x > 0.0 {
                    quote!(#ty::INFINITY)
                } else {
                    quote!(#ty::NEG_INFINITY)
                }
            })
            .collect()
    };
    let (lower, upper) = (
        list(&model.lower_position_limit),
        list(&model.upper_position_limit),
    );
    let (velocity, effort) = (list(&model.velocity_limit), list(&model.effort_limit));
    let masses: Vec<f64> = model.joints.iter().map(|j| j.inertia.mass).collect();
    let total = scalar.literal(masses.iter().sum());
    let masses = list(&masses);
    quote! {
        /// Lower limit of each entry of `q` (rad, m) from the URDF `<limit lower>`; `-∞` for
        /// continuous joints, a free-flyer and joints without limits (Pinocchio's `lowerPositionLimit`).
        pub const Q_LOWER: [#ty; NQ] = [#(#lower),*];
        /// Upper limit of each entry of `q` (rad, m), as `Q_LOWER` (Pinocchio's `upperPositionLimit`).
        pub const Q_UPPER: [#ty; NQ] = [#(#upper),*];
        /// Speed limit of each dof (rad/s, m/s) from `<limit velocity>`; `∞` where absent or zero
        /// and for a free-flyer (Pinocchio's `velocityLimit`).
        pub const V_MAX: [#ty; NV] = [#(#velocity),*];
        /// Torque or force limit of each dof (N·m, N) from `<limit effort>`; `∞` where absent or
        /// zero and for a free-flyer (Pinocchio's `effortLimit`).
        pub const TAU_MAX: [#ty; NV] = [#(#effort),*];
        /// Mass of the body of each joint id (kg), the links welded to it included; entry 0, the
        /// universe, holds nothing that moves.
        pub const BODY_MASSES: [#ty; NJOINTS] = [#(#masses),*];
        /// Total mass of the moving bodies (kg).
        pub const TOTAL_MASS: #ty = #total;
    }
}

/// The constants of the options that change the model: `ARMATURE` when
/// there is one, the contact set (`NC`, `CONTACTS`), the run-time parameters'
/// links and their URDF values (`NPARAMETERS`, `PARAMETER_LINKS`,
/// `LINK_PARAMETERS`). Nothing for a plain model.
fn setup_constants(model: &Model, scalar: ScalarType) -> TokenStream {
    let ty = scalar.ty();
    let mut out = TokenStream::new();
    if model.armature.iter().any(|&a| a != 0.0) {
        let arm = model.armature.iter().map(|&a| scalar.literal(a));
        out.extend(quote! {
            /// Rotor inertia per dof (kg·m², kg), on the diagonal of `M` in every dynamics
            /// function (Pinocchio's `model.armature`).
            pub const ARMATURE: [#ty; NV] = [#(#arm),*];
        });
    }
    if !model.contacts.is_empty() {
        let nc = Literal::usize_unsuffixed(model.nc());
        let n = Literal::usize_unsuffixed(model.contacts.len());
        let list = model.contacts.iter().map(|c| {
            let (name, rows) = (&model.frames[c.frame].name, c.kind.rows());
            quote!((#name, #rows))
        });
        out.extend(quote! {
            /// Rows of the contact set: 3 per point contact, 6 per 6-D contact.
            pub const NC: usize = #nc;
            /// The contact set, in row order: the link frame and its rows (3: a point, the
            /// linear velocity of its origin in world axes; 6: the whole frame, in its own axes).
            pub const CONTACTS: [(&str, usize); #n] = [#(#list),*];
        });
    }
    if !model.parameters.is_empty() {
        let n = Literal::usize_unsuffixed(model.parameters.len());
        let names = model
            .parameters
            .iter()
            .map(|&f| model.frames[f].name.as_str());
        let values = model.parameters.iter().map(|&f| {
            let p = model.frames[f]
                .inertia
                .to_parameters()
                .map(|x| scalar.literal(x));
            quote!([#(#p),*])
        });
        out.extend(quote! {
            /// Number of links whose inertial parameters are the argument `pi`.
            pub const NPARAMETERS: usize = #n;
            /// The links whose inertial parameters are the argument `pi`, in order.
            pub const PARAMETER_LINKS: [&str; NPARAMETERS] = [#(#names),*];
            /// The URDF's parameters of those links, `[m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy,
            /// I_xz, I_yz, I_zz]` in the link frame, `I` about its origin (kg, kg·m, kg·m²): pass
            /// them as `pi` for the robot as modelled, plus a payload's for a grasped object.
            pub const LINK_PARAMETERS: [[#ty; 10]; NPARAMETERS] = [#(#values),*];
        });
    }
    out
}

/// The module's `mul_add(a, b, c) = a * b + c` on values of type `ty` (the
/// scalar type, or the column kernels' `wide` vector `V`), which emission
/// fuses products into: with `std`, `ty`'s `mul_add` (`f64::mul_add`, or
/// `wide`'s lane by lane) where the target has FMA instructions (`-C
/// target-cpu=native`, `x86-64-v3`): one instruction, one rounding. Core
/// has no stable FMA, and its vector intrinsics make rustc many times slower
/// on large functions, so without `std` it is a product and a sum.
pub(crate) fn mul_add_helper(ty: &TokenStream, std: bool) -> TokenStream {
    let body = if std {
        quote! {
            #[cfg(target_feature = "fma")]
            {
                a.mul_add(b, c)
            }
            #[cfg(not(target_feature = "fma"))]
            {
                a * b + c
            }
        }
    } else {
        quote!(a * b + c)
    };
    quote! {
        /// `a * b + c`: the products that emission fused into sums.
        #[allow(dead_code)]
        #[inline(always)]
        fn mul_add(a: #ty, b: #ty, c: #ty) -> #ty {
            #body
        }
    }
}

/// Where `wide`'s range reduction stops matching `libm` to the last place
/// or two (measured against `libm` on 400,000 angles per range: `f64`
/// within 2.2e-16 up to 5e8 and 6e-8 off below 1e9; `f32` within 1.2e-7 up
/// to 1e4 and 2.7e-7 off below 2e4), with a margin: 1e8 and 1e4. Beyond it
/// the trigonometry is `libm`'s, one value at a time.
pub(crate) fn trig_limit(scalar: ScalarType) -> TokenStream {
    scalar.literal(match scalar {
        ScalarType::F64 => 1e8,
        ScalarType::F32 => 1e4,
    })
}

/// The module's `sincos4`, which emission gives the joint angles to
/// [`TRIG_LANES`] at a time: `wide`'s vectorised polynomial (one call for
/// four angles instead of four of `libm`'s), within two units in the last
/// place of `libm`'s up to [`trig_limit`], `libm`'s beyond it.
pub(crate) fn sincos4_helper(scalar: ScalarType) -> TokenStream {
    let ty = scalar.ty();
    let w = format_ident!("{}x{TRIG_LANES}", scalar.name());
    let limit = trig_limit(scalar);
    let sincos = scalar.math_name("sincos");
    let n = Literal::usize_unsuffixed(TRIG_LANES);
    let limit_text = match scalar {
        ScalarType::F64 => "1e8",
        ScalarType::F32 => "1e4",
    };
    let doc = [
        format!(" The sines and cosines of {TRIG_LANES} joint angles at once: `wide`'s vectorised"),
        " polynomial (within two units in the last place of `libm`'s) when every `|x|`".into(),
        format!(
            " is at most {limit_text}; `libm`'s one by one otherwise (NaN counts as in range)."
        ),
    ];
    quote! {
        #(#[doc = #doc])*
        #[allow(dead_code)]
        #[inline(always)]
        fn sincos4(x: [#ty; #n]) -> ([#ty; #n], [#ty; #n]) {
            let v = wide::#w::new(x);
            if v.abs().simd_gt(wide::#w::splat(#limit)).any() {
                let (mut s, mut c) = ([0.0; #n], [0.0; #n]);
                for k in 0..#n {
                    (s[k], c[k]) = libm::#sincos(x[k]);
                }
                (s, c)
            } else {
                let (s, c) = v.sin_cos();
                (s.to_array(), c.to_array())
            }
        }
    }
}

pub(crate) fn dim_tokens(dim: Dim) -> TokenStream {
    match dim {
        Dim::Nq => quote!(NQ),
        Dim::Nv => quote!(NV),
        Dim::Fixed(n) => {
            let n = Literal::usize_unsuffixed(n);
            quote!(#n)
        }
        Dim::Wrenches => quote!(6 * NJOINTS),
        Dim::Nu => quote!(NU),
        Dim::TwoNv => quote!(2 * NV),
        Dim::Placement => quote!(16),
        Dim::Scalar => quote!(1),
        Dim::Contacts => quote!(NC),
        Dim::Parameters => quote!(10 * NPARAMETERS),
        Dim::Regressor => quote!(10 * (NJOINTS - 1)),
    }
}

pub(crate) fn output_shape(output: &Output, model: &Model) -> Shape {
    match output {
        Output::Scalar => Shape::Scalar,
        Output::Vector(n) => Shape::Vector(n.len(model)),
        Output::Matrix(r, c) => Shape::Matrix(r.len(model), c.len(model)),
        Output::Tuple(parts) => {
            Shape::Tuple(parts.iter().map(|p| output_shape(p, model)).collect())
        }
    }
}

pub(crate) fn output_type(output: &Output, ty: &TokenStream) -> TokenStream {
    match output {
        Output::Scalar => ty.clone(),
        Output::Vector(n) => {
            let n = dim_tokens(*n);
            quote!([#ty; #n])
        }
        Output::Matrix(r, c) => {
            let (r, c) = (dim_tokens(*r), dim_tokens(*c));
            quote!([[#ty; #c]; #r])
        }
        Output::Tuple(parts) => {
            let parts = parts.iter().map(|p| output_type(p, ty));
            quote!((#(#parts),*))
        }
    }
}

/// The parameter declarations of `args` over the value type `ty`.
pub(crate) fn arg_params(args: &[(&str, Dim)], ty: &TokenStream) -> Vec<TokenStream> {
    args.iter()
        .map(|(n, d)| {
            let n = Ident::new(n, Span::call_site());
            match d {
                Dim::Wrenches => quote!(#n: &[[#ty; 6]; NJOINTS]),
                Dim::Parameters => quote!(#n: &[[#ty; 10]; NPARAMETERS]),
                Dim::Placement => quote!(#n: &[[#ty; 4]; 4]),
                Dim::Scalar => quote!(#n: #ty),
                _ => {
                    let d = dim_tokens(*d);
                    quote!(#n: &[#ty; #d])
                }
            }
        })
        .collect()
}

/// Rust identifier for a frame: UpperCamelCase of the link name.
pub(crate) fn variant_name(name: &str, taken: &mut BTreeSet<String>) -> Ident {
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

/// The link frames of the `Frame` enum and of the per-frame functions: those
/// of `options.frames` (in model order), else every link frame.
pub(crate) fn selected_frames<'m>(
    model: &'m Model,
    options: &Options,
) -> Vec<(usize, &'m rbdgen_runtime::Frame)> {
    model
        .body_frames()
        .filter(|(_, f)| {
            options
                .frames
                .as_ref()
                .is_none_or(|names| names.contains(&f.name))
        })
        .collect()
}

fn frame_enum(model: &Model, options: &Options) -> TokenStream {
    let mut taken = BTreeSet::new();
    let frames: Vec<(Ident, &str)> = selected_frames(model, options)
        .into_iter()
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
