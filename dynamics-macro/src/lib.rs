//! The `robot_dynamics!` proc macro: reads a URDF at compile time and expands to
//! a module of specialised dynamics functions. It parses its arguments, resolves
//! the path, calls [`rbdgen_symbolic::generate_tokens`] and wraps its items
//! in the module; nothing more.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use rbdgen_symbolic::{
    description_files, generate_module, nearest, read_description, ContactKind, Function,
    GenerateError, Model, Options, ScalarType,
};

/// Generates a module of rigid-body dynamics functions from a URDF.
///
/// ```text
/// rbdgen::robot_dynamics!(mod go2_z1, "models/go2_z1.urdf", floating_base);
/// rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", functions = [rnea, crba]);
/// ```
///
/// - `mod NAME`: the module to create, with the visibility written before
///   `mod` as for an ordinary module item (`pub mod NAME`, `pub(crate) mod
///   NAME`; private without one).
/// - the URDF or MJCF (`.xml`, `<mujoco>` root) path, relative to the calling crate's `CARGO_MANIFEST_DIR`.
/// - `floating_base`: give the root link a free-flyer joint (`nq += 7`, `nv += 6`).
/// - `mimic`: model the URDF's `<mimic>` joints as Pinocchio's
///   `buildModelFromUrdf(.., mimic=True)`: a mimicking joint follows
///   `multiplier θ_primary + offset` and has no entry in `q` or `v` (chains of
///   mimics are composed). Without it, mimic tags are ignored.
/// - `functions = [...]`: emit only these (`rnea`, `crba`, `aba`,
///   `frame_placement`, `minverse`, `ccrba`, the frame Jacobians, the derivatives
///   and the configuration-space operations: any name of
///   `rbdgen_symbolic::Function`, listed in the README); all by default.
/// - `jacobians = [...]`: also emit `NAME_jacobian` for these functions, by
///   automatic differentiation of the traced graph: one block per argument, a
///   configuration's in the tangent space (`NV` columns); none by default.
/// - `simplify`: simplify each function's graph with e-graphs (egg) before
///   emitting it, as `rbdgen generate --simplify`; the header gives the counts
///   before and after.
/// - `scalar = f32`: single-precision code (`f32` arrays, `libm::sinf`, ...)
///   for microcontrollers; `f64` by default.
/// - `armature = [JOINT: VALUE, ...]`: rotor inertia (kg·m², kg) of each dof of
///   the named joints, on the diagonal of `M` in every dynamics function
///   (Pinocchio's `model.armature`); zero by default.
/// - `contacts = [LINK: point | 6d, ...]`: the contact set of `contact_jacobian`,
///   `contact_drift`, `contact_dynamics`, `contact_inverse_dynamics` and
///   `center_of_pressure` (rows in this order: 3 per point, 6 per 6-D contact).
/// - `contact_sets = { NAME: [LINK: point | 6d, ...], ... }`: named contact
///   sets (gait modes; `flight: []` for none): the contact functions are
///   emitted once per set in a submodule `NAME` with its `NC` and `CONTACTS`,
///   the other functions once at the top.
/// - `parameters = [LINK, ...]`: links whose inertial parameters become the
///   run-time argument `pi: &[[f64; 10]; NPARAMETERS]` of every function that
///   reads inertias (a payload; `LINK_PARAMETERS` holds the URDF's values).
/// - `frames = [LINK, ...]`: the link frames of the `Frame` enum and of the
///   per-frame functions (all by default).
/// - `lanes = 4` (2, 4 or 8; with `f32` 4, 8 or 16): also a module `lanes`
///   with every function over `L` states at once (`lanes::V`, a SIMD vector
///   of the `wide` crate), `NAME_aos` and `NAME_batch` wrappers.
/// - `threads` (with `lanes`): also `lanes::NAME_batch_par`, the batch split
///   across rayon's thread pool in whole lane groups; needs rbdgen's `rayon`
///   feature.
/// - `strict`: a model that Pinocchio accepts but no rigid body has (a link
///   inertia violating the triangle inequality, a moving subtree without
///   mass) is a compile error; without it, each is a compiler warning naming
///   the link (`use of deprecated constant ...: link `d` has an invalid
///   inertia: ...`).
/// - `max_ops = N`: the most operations one function may have
///   (`rbdgen_symbolic::DEFAULT_MAX_OPS`, 200,000, by default: rustc takes
///   about 1 ms per operation); a larger function is a compile error naming
///   it, its count and the limit.
///
/// Names may be identifiers or string literals. An unknown joint or link, a
/// negative armature, a contact or parameter on a link welded to the world is
/// a compile error spanned on that item.
///
/// A missing or malformed file is a compile error on the path literal, whose
/// message starts with the path as written. Editing the URDF triggers a rebuild.
/// `RBDGEN_MANIFEST_DIR`, when set in the environment of the compiler, replaces
/// `CARGO_MANIFEST_DIR` as the base of the path (for harnesses that compile
/// code outside its crate, such as compile-fail tests).
#[proc_macro]
pub fn robot_dynamics(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match syn::parse::<Args>(input).and_then(|args| expand(&args)) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

struct Args {
    vis: syn::Visibility,
    name: Ident,
    path: LitStr,
    floating_base: bool,
    mimic: bool,
    functions: Option<Vec<(Function, Span)>>,
    jacobians: Vec<(Function, Span)>,
    simplify: bool,
    scalar: ScalarType,
    armature: Vec<(String, f64, Span)>,
    contacts: Vec<(String, ContactKind, Span)>,
    /// `contact_sets = { NAME: [LINK: point | 6d, ...], ... }`.
    contact_sets: Vec<ContactSet>,
    parameters: Vec<(String, Span)>,
    frames: Option<Vec<(String, Span)>>,
    lanes: Option<usize>,
    /// `threads`, with its span.
    threads: Option<Span>,
    strict: bool,
    max_ops: usize,
}

/// A joint or link name: an identifier or a string literal.
fn parse_name(input: ParseStream) -> syn::Result<(String, Span)> {
    if input.peek(LitStr) {
        let s: LitStr = input.parse()?;
        Ok((s.value(), s.span()))
    } else {
        let id: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        Ok((id.to_string(), id.span()))
    }
}

/// `[ITEM, ...]` with `item` parsing one entry.
fn parse_list<T>(
    input: ParseStream,
    item: fn(ParseStream) -> syn::Result<T>,
) -> syn::Result<Vec<T>> {
    input.parse::<Token![=]>()?;
    let content;
    syn::bracketed!(content in input);
    Ok(content
        .parse_terminated(item, Token![,])?
        .into_iter()
        .collect())
}

/// A named contact set of `contact_sets`: its name (with its span) and contacts.
type ContactSet = ((String, Span), Vec<(String, ContactKind, Span)>);

/// `= { NAME: [LINK: point | 6d, ...], ... }`.
fn parse_contact_sets(input: ParseStream) -> syn::Result<Vec<ContactSet>> {
    input.parse::<Token![=]>()?;
    let content;
    syn::braced!(content in input);
    let sets = content.parse_terminated(
        |input: ParseStream| {
            let name = parse_name(input)?;
            input.parse::<Token![:]>()?;
            let list;
            syn::bracketed!(list in input);
            let contacts = list.parse_terminated(parse_contact, Token![,])?;
            Ok((name, contacts.into_iter().collect()))
        },
        Token![,],
    )?;
    Ok(sets.into_iter().collect())
}

/// `JOINT: VALUE`, the value a (signed) number.
fn parse_armature(input: ParseStream) -> syn::Result<(String, f64, Span)> {
    let (name, span) = parse_name(input)?;
    input.parse::<Token![:]>()?;
    let negative = input.parse::<Option<Token![-]>>()?.is_some();
    let lit: syn::Lit = input.parse()?;
    let value = match &lit {
        syn::Lit::Float(f) => f.base10_parse::<f64>()?,
        syn::Lit::Int(i) => i.base10_parse::<f64>()?,
        _ => {
            return Err(syn::Error::new(
                lit.span(),
                "expected a number (kg·m² or kg)",
            ))
        }
    };
    Ok((name, if negative { -value } else { value }, span))
}

/// `LINK: point` or `LINK: 6d`.
fn parse_contact(input: ParseStream) -> syn::Result<(String, ContactKind, Span)> {
    let (name, span) = parse_name(input)?;
    input.parse::<Token![:]>()?;
    let kind: proc_macro2::TokenTree = input.parse()?;
    let text = kind.to_string();
    let kind = ContactKind::from_name(&text).ok_or_else(|| {
        syn::Error::new(
            kind.span(),
            format!("unknown contact type `{text}`; expected `point` or `6d`"),
        )
    })?;
    Ok((name, kind, span))
}

/// `= [NAME, ...]` after `key` (`functions` or `jacobians`): names of
/// functions of the table, none twice, at least one.
fn parse_functions(input: ParseStream, key: &Ident) -> syn::Result<Vec<(Function, Span)>> {
    input.parse::<Token![=]>()?;
    let content;
    syn::bracketed!(content in input);
    let names = content.parse_terminated(Ident::parse, Token![,])?;
    if names.is_empty() {
        let hint = if key == "functions" {
            "leave `functions` out for all of them"
        } else {
            "leave `jacobians` out for none"
        };
        return Err(syn::Error::new(
            key.span(),
            format!("`{key} = []` names no function; {hint}"),
        ));
    }
    let mut list: Vec<(Function, Span)> = Vec::new();
    for n in names {
        let f = Function::from_name(&n.to_string()).ok_or_else(|| {
            let known: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
            let name = n.to_string();
            let near = Function::alias(&name)
                .map(Function::name)
                .or_else(|| nearest(&name, known.iter().copied()));
            let message = match near {
                Some(near) => format!("unknown function `{n}`; did you mean `{near}`?"),
                None => format!("unknown function `{n}`; known: {}", known.join(", ")),
            };
            syn::Error::new(n.span(), message)
        })?;
        if list.iter().any(|(g, _)| *g == f) {
            return Err(syn::Error::new(
                n.span(),
                format!("`{n}` is listed twice in `{key}`"),
            ));
        }
        list.push((f, n.span()));
    }
    Ok(list)
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let vis: syn::Visibility = input.parse()?;
        if !input.peek(Token![mod]) {
            return Err(input.error(
                "expected `mod NAME` first: robot_dynamics!(mod NAME, \"path/to/robot.urdf\", ...)",
            ));
        }
        input.parse::<Token![mod]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![,]>()?;
        let path: LitStr = input.parse()?;
        let mut floating_base = false;
        let mut mimic = false;
        let mut functions = None;
        let mut jacobians = Vec::new();
        let mut simplify = false;
        let mut scalar = ScalarType::F64;
        let (mut armature, mut contacts, mut parameters, mut frames) =
            (Vec::new(), Vec::new(), Vec::new(), None);
        let mut contact_sets = Vec::new();
        let mut lanes = None;
        let mut threads = None;
        let mut strict = false;
        let mut max_ops = rbdgen_symbolic::DEFAULT_MAX_OPS;
        while input.parse::<Option<Token![,]>>()?.is_some() {
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "floating_base" => floating_base = true,
                "mimic" => mimic = true,
                "functions" => functions = Some(parse_functions(input, &key)?),
                "jacobians" => jacobians = parse_functions(input, &key)?,
                "simplify" => simplify = true,
                "scalar" => {
                    input.parse::<Token![=]>()?;
                    let ty: Ident = input.parse()?;
                    scalar = ScalarType::from_name(&ty.to_string()).ok_or_else(|| {
                        syn::Error::new(ty.span(), format!("unknown scalar `{ty}`; expected `f64` or `f32`"))
                    })?;
                }
                "armature" => armature = parse_list(input, parse_armature)?,
                "contacts" => contacts = parse_list(input, parse_contact)?,
                "contact_sets" => contact_sets = parse_contact_sets(input)?,
                "parameters" => parameters = parse_list(input, parse_name)?,
                "frames" => frames = Some(parse_list(input, parse_name)?),
                "lanes" => {
                    input.parse::<Token![=]>()?;
                    let n: syn::LitInt = input.parse()?;
                    lanes = Some((n.base10_parse::<usize>()?, n.span()));
                }
                "threads" => threads = Some(key.span()),
                "strict" => strict = true,
                "max_ops" => {
                    input.parse::<Token![=]>()?;
                    let n: syn::LitInt = input.parse()?;
                    max_ops = n.base10_parse::<usize>()?;
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                        "unknown option `{other}`; expected `floating_base`, `mimic`, `functions = [...]`, \
                         `jacobians = [...]`, `simplify`, `scalar = f32`, `armature = [...]`, `contacts = [...]`, `contact_sets = {{...}}`, `parameters = [...]`, \
                         `frames = [...]`, `lanes = 4`, `threads`, `strict` or `max_ops = N`"
                    ),
                    ))
                }
            }
        }
        // The lane count against the scalar type, which may come after it.
        let lanes = match lanes {
            Some((l, span)) if !rbdgen_symbolic::lane_widths(scalar).contains(&l) => {
                let e = rbdgen_symbolic::GenerateError::Lanes { lanes: l, scalar };
                return Err(syn::Error::new(span, e.to_string()));
            }
            lanes => lanes.map(|(l, _)| l),
        };
        Ok(Args {
            vis,
            name,
            path,
            floating_base,
            mimic,
            functions,
            jacobians,
            simplify,
            scalar,
            armature,
            contacts,
            contact_sets,
            parameters,
            frames,
            lanes,
            threads,
            strict,
            max_ops,
        })
    }
}

/// Each armature, contact, parameter and frame name against the model, so that
/// a bad one is an error spanned on it (`Err(message)`: the URDF itself).
fn check_names(args: &Args, urdf: &str) -> Result<(), Result<syn::Error, String>> {
    let model = if args.mimic {
        Model::from_description_str_mimic(urdf, args.floating_base)
    } else {
        Model::from_description_str(urdf, args.floating_base)
    };
    let mut model = model.map_err(|e| Err(e.to_string()))?;
    let at =
        |span: Span| move |e: rbdgen_symbolic::ModelError| Ok(syn::Error::new(span, e.to_string()));
    for (k, (name, value, span)) in args.armature.iter().enumerate() {
        if args.armature[..k].iter().any(|(n, _, _)| n == name) {
            let msg = format!("armature of joint `{name}`: named twice");
            return Err(Ok(syn::Error::new(*span, msg)));
        }
        model.set_armature(name, *value).map_err(at(*span))?;
    }
    let mut contacts = Vec::new();
    for (name, kind, span) in &args.contacts {
        contacts.push((name.as_str(), *kind));
        model.set_contacts(&contacts).map_err(at(*span))?;
    }
    for ((name, span), set) in &args.contact_sets {
        let mut m = model.clone();
        let mut contacts = Vec::new();
        for (link, kind, span) in set {
            contacts.push((link.as_str(), *kind));
            m.set_contacts(&contacts).map_err(at(*span))?;
        }
        rbdgen_symbolic::check_contact_set_name(name)
            .map_err(|e| Ok(syn::Error::new(*span, e.to_string())))?;
        if args
            .contact_sets
            .iter()
            .filter(|((n, _), _)| n == name)
            .count()
            > 1
        {
            let msg = format!("contact set `{name}`: named twice");
            return Err(Ok(syn::Error::new(*span, msg)));
        }
    }
    let mut links = Vec::new();
    for (name, span) in &args.parameters {
        links.push(name.as_str());
        model.set_parameters(&links).map_err(at(*span))?;
    }
    for (name, span) in args.frames.iter().flatten() {
        model.link_frame(name).map_err(at(*span))?;
    }
    if args.contacts.is_empty() && args.contact_sets.is_empty() {
        for (f, span) in args.functions.iter().flatten().chain(&args.jacobians) {
            if f.needs_contacts() {
                let msg = format!(
                    "`{}` needs a contact set: add `contacts = [LINK: point | 6d, ...]` or `contact_sets = {{ NAME: [...] }}`",
                    f.name()
                );
                return Err(Ok(syn::Error::new(*span, msg)));
            }
        }
    }
    Ok(())
}

fn expand(args: &Args) -> syn::Result<TokenStream> {
    if let (Some(span), None) = (args.threads, args.lanes) {
        return Err(syn::Error::new(
            span,
            "threads: `NAME_batch_par` splits the lanes' batch across threads; add `lanes = 2 | 4 | 8`",
        ));
    }
    // One error, on `threads`, rather than that and an unresolved `rayon` in the module.
    if let (Some(span), false) = (args.threads, cfg!(feature = "rayon")) {
        return Err(syn::Error::new(
            span,
            "threads: `NAME_batch_par` runs on rayon; enable rbdgen's `rayon` feature \
             (rbdgen = { version = \"0.1\", features = [\"rayon\"] })",
        ));
    }
    let relative = args.path.value();
    let error = |msg: String| syn::Error::new(args.path.span(), format!("{relative}: {msg}"));
    let root = std::env::var("RBDGEN_MANIFEST_DIR")
        .or_else(|_| std::env::var("CARGO_MANIFEST_DIR"))
        .map_err(|_| error("CARGO_MANIFEST_DIR is not set".into()))?;
    let full: PathBuf = PathBuf::from(root).join(&relative);
    std::fs::metadata(&full).map_err(|e| error(format!("cannot read {}: {e}", full.display())))?;
    // URDF as is; MJCF (`.xml`, `<mujoco>`) with its includes expanded.
    let urdf = read_description(&full).map_err(|e| error(e.to_string()))?;
    // The file and every file an MJCF `<include>` pulls in: editing any rebuilds.
    let tracked: Vec<String> = description_files(&full)
        .map_err(|e| error(e.to_string()))?
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let mut options = Options {
        floating_base: args.floating_base,
        mimic: args.mimic,
        source_name: relative.clone(),
        scalar: args.scalar,
        std: true,
        armature: args
            .armature
            .iter()
            .map(|(n, a, _)| (n.clone(), *a))
            .collect(),
        contacts: args
            .contacts
            .iter()
            .map(|(n, k, _)| (n.clone(), *k))
            .collect(),
        contact_sets: args
            .contact_sets
            .iter()
            .map(|((name, _), set)| {
                let set = set.iter().map(|(n, k, _)| (n.clone(), *k)).collect();
                (name.clone(), set)
            })
            .collect(),
        parameters: args.parameters.iter().map(|(n, _)| n.clone()).collect(),
        frames: args
            .frames
            .as_ref()
            .map(|f| f.iter().map(|(n, _)| n.clone()).collect()),
        lanes: args.lanes,
        threads: args.threads.is_some(),
        strict: args.strict,
        max_ops: args.max_ops,
        jacobians: args.jacobians.iter().map(|(f, _)| *f).collect(),
        simplify: args.simplify,
        ..Options::default()
    };
    check_names(args, &urdf).map_err(|e| match e {
        Ok(e) => e,
        Err(msg) => error(msg),
    })?;
    if let Some(list) = &args.functions {
        options.functions = list.iter().map(|(f, _)| *f).collect();
    }
    let vis = &args.vis;
    module(
        &quote!(#vis),
        &args.name,
        &urdf,
        &options,
        &tracked,
        args.path.span(),
    )
    .map_err(|e| {
        // A singular mass matrix is often why a function failed (a constant
        // that evaluates to inf): the model's warnings go with the error.
        let mut message = e.to_string();
        if let Ok(model) = rbdgen_symbolic::build_model(&urdf, &options) {
            for warning in model.physical_warnings() {
                message.push_str(&format!("; warning: {warning}"));
            }
        }
        error(message)
    })
}

/// What `robot_dynamics!` expands to: `vis mod name { items }` with the items
/// of [`rbdgen_symbolic::generate_tokens`] (so that formatting them gives exactly the file
/// `rbdgen generate` writes), a `use` of the `libm` that `rbdgen` re-exports
/// (and of its `wide` with `lanes`, its `rayon` with `threads`), an `include_bytes!` of each
/// of `tracked` (absolute paths: the model's file and the files its MJCF `<include>`s
/// pull in) so that editing any of them triggers a rebuild, and one
/// compiler warning per item of `Module::warnings`, spanned on `span` (a proc
/// macro on stable Rust cannot emit a warning: each is the use of a
/// `#[deprecated]` item whose note is the message).
fn module(
    vis: &TokenStream,
    name: &Ident,
    urdf: &str,
    options: &Options,
    tracked: &[String],
    span: Span,
) -> Result<TokenStream, GenerateError> {
    let module = generate_module(urdf, options, |_| {})?;
    let items = module.tokens;
    let warnings = module.warnings.iter().enumerate().map(|(i, message)| {
        let item = Ident::new(&format!("RBDGEN_WARNING_{i}"), span);
        quote::quote_spanned! {span=>
            #[deprecated(note = #message)]
            #[allow(dead_code)]
            const #item: () = ();
            const _: () = #item;
        }
    });
    // `NAME_batch_par` names `rayon`: rbdgen's, behind its `rayon` feature
    // (a compile error naming the feature without it).
    let rayon = options.threads.then(|| {
        quote! {
            ::rbdgen::__threads_need_rayon!();
            use ::rbdgen::__private::rayon;
        }
    });
    // The lanes' vector type is rbdgen's `wide`.
    let wide = options.lanes.is_some().then(|| {
        quote!(
            use ::rbdgen::__private::wide;
        )
    });
    Ok(quote! {
        #vis mod #name {
            #items
            #rayon
            #wide
            use ::rbdgen::__private::libm;
            // Rebuild when the model's files change.
            #(const _: &[u8] = include_bytes!(#tracked);)*
            #(#warnings)*
        }
    })
}

#[cfg(test)]
mod tests {
    //! The macro's module and a committed file are the same code: the
    //! expansion ([`module`]) is `generate_tokens` wrapped in a module, and
    //! formatting its items gives exactly `generate`'s text.

    use quote::{format_ident, quote};
    use rbdgen_symbolic::{generate, Options, ScalarType};

    fn urdf(relative: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(relative);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn module_formats_to_the_generated_file() {
        for (file, floating_base, scalar) in [
            ("models/go2_z1.urdf", true, ScalarType::F64),
            ("tests/urdf/continuous_chain.urdf", false, ScalarType::F32),
        ] {
            let text = urdf(file);
            let options = Options {
                floating_base,
                source_name: file.to_string(),
                scalar,
                ..Options::default()
            };
            let tokens = super::module(
                &quote!(pub),
                &format_ident!("robot"),
                &text,
                &options,
                &["/abs/robot.urdf".to_string()],
                proc_macro2::Span::call_site(),
            )
            .unwrap();
            let module: syn::ItemMod = syn::parse2(tokens).unwrap();
            assert_eq!(module.ident, "robot");
            let (_, mut items) = module.content.unwrap();
            // The module ends in the `libm` import and the rebuild trigger.
            let trigger = items.pop().unwrap();
            let import = items.pop().unwrap();
            assert_eq!(
                quote!(#import).to_string(),
                quote!(
                    use ::rbdgen::__private::libm;
                )
                .to_string()
            );
            assert!(quote!(#trigger)
                .to_string()
                .contains("include_bytes ! (\"/abs/robot.urdf\")"));
            let file_of_module = syn::File {
                shebang: None,
                attrs: module.attrs,
                items,
            };
            assert_eq!(
                prettyplease::unparse(&file_of_module),
                generate(&text, &options).unwrap(),
                "{file}"
            );
        }
    }

    /// A misspelt function gets the nearest name, Pinocchio's name gets
    /// ours, and one far from every name gets the list.
    #[test]
    fn an_unknown_function_gets_did_you_mean() {
        let message = |list: &str| {
            let text = format!(r#"mod robot, "robot.urdf", functions = [{list}]"#);
            match syn::parse_str::<super::Args>(&text) {
                Ok(_) => panic!("{list}: accepted"),
                Err(e) => e.to_string(),
            }
        };
        assert_eq!(
            message("rnea, crab"),
            "unknown function `crab`; did you mean `crba`?"
        );
        assert_eq!(
            message("inverse_dynamics"),
            "unknown function `inverse_dynamics`; did you mean `rnea`?"
        );
        assert_eq!(
            message("computeMinverse"),
            "unknown function `computeMinverse`; did you mean `minverse`?"
        );
        assert!(message("teleport").starts_with("unknown function `teleport`; known: rnea, crba"));
    }

    /// When a function fails on a model that has physical warnings (two
    /// free-flyers in series: a singular mass matrix), the error carries them.
    #[test]
    fn a_failed_function_names_the_models_warnings() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let go2 = std::fs::read_to_string(root.join("models/go2.urdf")).unwrap();
        let below_world = go2.replacen(
            r#"<link name="base">"#,
            r#"<link name="world"/><joint name="world_to_base" type="floating"><parent link="world"/><child link="base"/></joint><link name="base">"#,
            1,
        );
        let path = std::env::temp_dir().join(format!(
            "rbdgen-macro-{}-go2_below_world.urdf",
            std::process::id()
        ));
        std::fs::write(&path, below_world).unwrap();
        let args: super::Args = syn::parse_str(&format!(
            r#"mod go2, "{}", floating_base, functions = [aba]"#,
            path.display()
        ))
        .unwrap();
        let e = super::expand(&args).map(|_| ()).unwrap_err().to_string();
        std::fs::remove_file(&path).unwrap();
        assert!(
            e.contains("; warning: joints `root_joint` and `world_to_base` move the same bodies"),
            "{e}"
        );
    }

    /// An MJCF file's `<include>`s are tracked as the file itself is: one
    /// `include_bytes!` of each file read, so that editing an included file
    /// rebuilds the crate.
    #[test]
    fn every_included_file_is_tracked() {
        let args: super::Args = syn::parse_str(
            r#"mod acrobot, "../models/mjcf/dm_control/acrobot.xml", functions = [rnea]"#,
        )
        .unwrap();
        let tokens = super::expand(&args).unwrap().to_string();
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/mjcf/dm_control");
        let tracked: Vec<&str> = tokens
            .split("include_bytes ! (\"")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap())
            .collect();
        let expected: Vec<String> = [
            "acrobot.xml",
            "./common/visual.xml",
            "./common/skybox.xml",
            "./common/materials.xml",
        ]
        .iter()
        .map(|f| dir.join(f).to_string_lossy().into_owned())
        .collect();
        assert_eq!(tracked, expected);
        for file in &tracked {
            assert!(std::path::Path::new(file).is_file(), "{file}");
        }
    }

    /// A model that Pinocchio accepts but no rigid body has: one `#[deprecated]`
    /// item per warning, used at once, so that rustc prints the message (naming
    /// the link) as a warning; none for a physical model (above). With `strict`
    /// the model is refused, and `max_ops` refuses a function above it.
    #[test]
    fn module_warns_of_impossible_inertias() {
        let text = urdf("tests/bad_urdf/inertia_triangle.urdf");
        let options = Options {
            functions: [rbdgen_symbolic::Function::Rnea].into_iter().collect(),
            ..Options::default()
        };
        let expand = |options: &Options| {
            super::module(
                &quote!(),
                &format_ident!("robot"),
                &text,
                options,
                &["/abs/robot.urdf".to_string()],
                proc_macro2::Span::call_site(),
            )
        };
        let tokens = expand(&options).unwrap().to_string();
        let deprecated = tokens.matches("# [deprecated").count();
        assert_eq!(deprecated, 1, "{tokens}");
        assert!(
            tokens.contains("link `d` has an invalid inertia: principal moments"),
            "{tokens}"
        );
        assert!(
            tokens.contains("const _ : () = RBDGEN_WARNING_0 ;"),
            "{tokens}"
        );
        let strict = Options {
            strict: true,
            ..options.clone()
        };
        let e = expand(&strict).map(|_| ()).unwrap_err().to_string();
        assert!(e.starts_with("link `d` has an invalid inertia"), "{e}");
        // This `rnea` has 7 operations.
        for (max_ops, refused) in [(6, true), (7, false)] {
            let limited = Options {
                max_ops,
                ..options.clone()
            };
            match expand(&limited) {
                Ok(_) => assert!(!refused, "max_ops = {max_ops}"),
                Err(e) => {
                    assert!(refused, "max_ops = {max_ops}: {e}");
                    assert_eq!(
                        e.to_string().split(" (").next().unwrap(),
                        format!(
                            "`rnea` has 7 operations, more than the limit of {max_ops} per function"
                        ),
                    );
                }
            }
        }
    }
}
