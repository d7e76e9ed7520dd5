//! `rbdgen info`: what the model of a URDF looks like, printed at once, what
//! is physically impossible in it (on stderr), and on request (`--ops`) what
//! its generated functions cost (with, beside `rnea`, the `93n`
//! multiplications of the best hand formulations of RNEA for comparison).

use std::path::PathBuf;

use rbdgen_runtime::Model;
use rbdgen_symbolic::{
    generate_module, rnea_mul_reference, Function, GenerateError, Options, DEFAULT_MAX_OPS,
};

use super::ModelArgs;

/// Arguments of `rbdgen info`.
#[derive(clap::Args)]
pub struct Args {
    /// The model file: a URDF, or MJCF (`.xml`).
    #[arg(value_name = "MODEL")]
    urdf: PathBuf,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    floating_base: bool,
    /// Also count the operations of every generated function: each is traced
    /// (and emitted), one after the other with a progress bar on stderr. That
    /// takes seconds for a quadruped, minutes for a long chain.
    #[arg(long)]
    ops: bool,
    /// No operation counts: the default, kept for scripts.
    #[arg(long, hide = true, conflicts_with = "ops")]
    no_ops: bool,
    /// With --ops: a function above this many operations is reported as too
    /// large (as `generate` would refuse it) rather than emitted.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_OPS, allow_negative_numbers = true)]
    max_ops: usize,
    /// With --ops: as for `generate`, the operations above which `minverse`
    /// and the dynamics derivatives take their column forms (the header's
    /// count then says how many are written out).
    #[arg(
        long,
        value_name = "N",
        default_value_t = rbdgen_symbolic::DEFAULT_UNROLL_LIMIT,
        allow_negative_numbers = true
    )]
    unroll_limit: usize,
    /// With --ops: simplify with egg and print the counts before and after
    /// (`rnea 3525 → 3400 ops (...)`).
    #[arg(long)]
    simplify: bool,
    /// Armature, contacts, run-time parameters, frames: as for `generate`.
    #[command(flatten)]
    model: ModelArgs,
}

/// Runs the subcommand; the error is the message to print.
pub fn run(args: Args) -> Result<(), String> {
    let text = crate::read_description(&args.urdf)?;
    let mut options = Options {
        floating_base: args.floating_base,
        simplify: args.simplify,
        source_name: args.urdf.to_string_lossy().into_owned(),
        max_ops: args.max_ops,
        unroll_limit: args.unroll_limit,
        ..Options::default()
    };
    args.model
        .apply(&mut options)
        .map_err(|e| format!("{}: {e}", args.urdf.display()))?;
    let model = super::build_model(&args.urdf, &text, &options)?;
    super::print_warnings(&args.urdf, &model.physical_warnings());
    print_info(&model);
    if args.ops {
        print_op_counts(&model, &text, &options, args.simplify);
    } else {
        outln!("operation counts: not computed (`--ops` traces every generated function)");
    }
    Ok(())
}

/// The operation count of each function that `generate` would emit, each
/// traced on its own and printed as soon as it is known. A function that
/// cannot be generated (over `--max-ops`, or ABA on a massless subtree) gets
/// the reason in place of its count.
fn print_op_counts(model: &Model, text: &str, options: &Options, simplify: bool) {
    let functions = rbdgen_symbolic::module_functions(model, options);
    let width = functions.iter().map(|f| f.name().len()).max().unwrap_or(0);
    outln!("operation counts of the generated functions:");
    let bar = super::progress_bar(functions.len(), "counting", false);
    for function in functions {
        bar.set_message(function.name());
        let one = Options {
            functions: [function].into_iter().collect(),
            ..options.clone()
        };
        let line = match generate_module(text, &one, |_| {}) {
            Ok(module) => {
                let counts = module.op_counts[&function];
                let before = match module.op_counts_traced.get(&function) {
                    Some(traced) if simplify => format!("{} → ", traced.total()),
                    _ => String::new(),
                };
                let mut line = format!(
                    "  {:<width$} {before}{counts}, {}",
                    function.name(),
                    counts.code_size_text()
                );
                if function == Function::Rnea {
                    let reference = rnea_mul_reference(model.nv, &counts);
                    line.push_str(&format!("\n  {:<width$} {reference}", ""));
                }
                if let Some(base) = function.ad_form() {
                    line.push_str(&format!(
                        "\n  {:<width$} {}",
                        "",
                        ad_counts(text, options, base)
                    ));
                }
                line
            }
            Err(GenerateError::TooLarge { ops, limit, .. }) => format!(
                "  {:<width$} at least {ops} ops: more than --max-ops {limit}, not generated",
                function.name()
            ),
            Err(e) => format!(
                "  {:<width$} not generated: {}",
                function.name(),
                e.render(super::flag)
            ),
        };
        bar.suspend(|| outln!("{line}"));
        bar.inc(1);
    }
    bar.finish_and_clear();
}

/// The operation count of `base`'s Jacobian by automatic differentiation
/// (`NAME_jacobian`), to print beside the analytical form.
fn ad_counts(text: &str, options: &Options, base: Function) -> String {
    let one = Options {
        functions: [base].into_iter().collect(),
        jacobians: [base].into_iter().collect(),
        ..options.clone()
    };
    match generate_module(text, &one, |_| {}) {
        Ok(module) => format!(
            "by automatic differentiation (`{}_jacobian`): {}",
            base.name(),
            module.jacobian_op_counts[&base]
        ),
        Err(e) => format!(
            "by automatic differentiation: not generated: {}",
            e.render(super::flag)
        ),
    }
}

fn print_info(model: &Model) {
    outln!("robot {}: nq = {}, nv = {}", model.name, model.nq, model.nv);
    let mass: f64 = model.joints.iter().map(|j| j.inertia.mass).sum();
    // Rounded to 1e-9 kg, without the digits of the summation's rounding.
    let mass = format!("{mass:.9}");
    let mass = mass.trim_end_matches('0').trim_end_matches('.');
    outln!("total mass (moving bodies): {mass} kg");
    outln!("joints:");
    for (i, j) in model.joints.iter().enumerate().skip(1) {
        let coordinates = match j.mimic {
            None => format!(
                "q[{}..{}], v[{}..{}]",
                j.idx_q,
                j.idx_q + j.kind.nq(),
                j.idx_v,
                j.idx_v + j.kind.nv()
            ),
            Some(m) => format!(
                "mimics {}: {} q[{}] + {}",
                model.joints[m.primary].name, m.gain, j.idx_q, m.offset
            ),
        };
        outln!(
            "  {i:>3} {:<24} {:?} parent {} ({coordinates})",
            j.name,
            j.kind,
            model.joints[j.parent].name,
        );
    }
    outln!("link frames:");
    for (_, f) in model.body_frames() {
        outln!(
            "  {:<24} on joint {}",
            f.name,
            model.joints[f.parent_joint].name
        );
    }
    if model.armature.iter().any(|&a| a != 0.0) {
        outln!("armature (per dof, on the diagonal of M):");
        for j in &model.joints[1..] {
            let values = &model.armature[j.v_range()];
            if values.iter().any(|&a| a != 0.0) {
                let list: Vec<String> = values.iter().map(|a| a.to_string()).collect();
                outln!("  {:<24} {}", j.name, list.join(", "));
            }
        }
    }
    if !model.contacts.is_empty() {
        outln!("contacts (nc = {} rows):", model.nc());
        for c in &model.contacts {
            outln!(
                "  {:<24} {} ({} rows)",
                model.frames[c.frame].name,
                c.kind.name(),
                c.kind.rows()
            );
        }
    }
    if !model.parameters.is_empty() {
        outln!("links with run-time inertial parameters (`pi`):");
        for &f in &model.parameters {
            let frame = &model.frames[f];
            outln!(
                "  {:<24} mass {} kg, on joint {}",
                frame.name,
                frame.inertia.mass,
                model.joints[frame.parent_joint].name
            );
        }
    }
}
