//! `rbdgen info`: what the model of a URDF looks like, and what its generated
//! functions cost (with, beside `rnea`, the `93n` multiplications of the best
//! hand formulations of RNEA for comparison).

use std::path::PathBuf;

use rbdgen_runtime::Model;
use rbdgen_symbolic::{generate_module, rnea_mul_reference, Function, Options};

use super::ModelArgs;

/// Arguments of `rbdgen info`.
#[derive(clap::Args)]
pub struct Args {
    /// The URDF file.
    urdf: PathBuf,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    floating_base: bool,
    /// Skip generating the functions (no operation counts).
    #[arg(long)]
    no_ops: bool,
    /// Simplify with egg and print the counts before and after
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
        ..Options::default()
    };
    args.model
        .apply(&mut options)
        .map_err(|e| format!("{}: {e}", args.urdf.display()))?;
    let model = super::build_model(&args.urdf, &text, &options)?;
    print_info(&model);
    if !args.no_ops {
        println!("operation counts of the generated functions:");
        // Generation can refuse a model that loads (a massless subtree makes ABA
        // undefined): the description stands, the counts say why they are missing.
        match generate_module(&text, &options, |_| {}) {
            Ok(module) => {
                let width = module.op_counts.keys().map(|f| f.name().len()).max();
                for (function, counts) in &module.op_counts {
                    let before = match module.op_counts_traced.get(function) {
                        Some(traced) if args.simplify => format!("{} → ", traced.total()),
                        _ => String::new(),
                    };
                    let w = width.unwrap_or(0);
                    println!("  {:<w$} {before}{counts}", function.name());
                    if *function == Function::Rnea {
                        println!("  {:<w$} {}", "", rnea_mul_reference(model.nv, counts));
                    }
                }
            }
            Err(e) => println!("  none: {e}"),
        }
    }
    Ok(())
}

fn print_info(model: &Model) {
    println!("robot {}: nq = {}, nv = {}", model.name, model.nq, model.nv);
    let mass: f64 = model.joints.iter().map(|j| j.inertia.mass).sum();
    println!("total mass (moving bodies): {mass} kg");
    println!("joints:");
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
        println!(
            "  {i:>3} {:<24} {:?} parent {} ({coordinates})",
            j.name, j.kind, model.joints[j.parent].name,
        );
    }
    println!("link frames:");
    for (_, f) in model.body_frames() {
        println!(
            "  {:<24} on joint {}",
            f.name, model.joints[f.parent_joint].name
        );
    }
    if model.armature.iter().any(|&a| a != 0.0) {
        println!("armature (per dof, on the diagonal of M):");
        for j in &model.joints[1..] {
            let values = &model.armature[j.v_range()];
            if values.iter().any(|&a| a != 0.0) {
                let list: Vec<String> = values.iter().map(|a| a.to_string()).collect();
                println!("  {:<24} {}", j.name, list.join(", "));
            }
        }
    }
    if !model.contacts.is_empty() {
        println!("contacts (nc = {} rows):", model.nc());
        for c in &model.contacts {
            println!(
                "  {:<24} {} ({} rows)",
                model.frames[c.frame].name,
                c.kind.name(),
                c.kind.rows()
            );
        }
    }
    if !model.parameters.is_empty() {
        println!("links with run-time inertial parameters (`pi`):");
        for &f in &model.parameters {
            let frame = &model.frames[f];
            println!(
                "  {:<24} mass {} kg, on joint {}",
                frame.name, frame.inertia.mass, model.joints[frame.parent_joint].name
            );
        }
    }
}
