//! `rbdgen info`: what the model of a URDF looks like.

use std::path::PathBuf;

use rbdgen::Model;

/// Arguments of `rbdgen info`.
#[derive(clap::Args)]
pub struct Args {
    /// The URDF file.
    urdf: PathBuf,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    floating_base: bool,
}

/// Runs the subcommand; the error is the message to print.
pub fn run(args: Args) -> Result<(), String> {
    let text = crate::read(&args.urdf)?;
    let model = Model::from_urdf_str(&text, args.floating_base)
        .map_err(|e| format!("{}: {e}", args.urdf.display()))?;
    print_info(&model);
    Ok(())
}

fn print_info(model: &Model) {
    println!("robot {}: nq = {}, nv = {}", model.name, model.nq, model.nv);
    let mass: f64 = model.joints.iter().map(|j| j.inertia.mass).sum();
    println!("total mass (moving bodies): {mass} kg");
    println!("joints:");
    for (i, j) in model.joints.iter().enumerate().skip(1) {
        println!(
            "  {i:>3} {:<24} {:?} parent {} (q[{}..{}], v[{}..{}])",
            j.name,
            j.kind,
            model.joints[j.parent].name,
            j.idx_q,
            j.idx_q + j.kind.nq(),
            j.idx_v,
            j.idx_v + j.kind.nv()
        );
    }
    println!("link frames:");
    for (_, f) in model.body_frames() {
        println!(
            "  {:<24} on joint {}",
            f.name, model.joints[f.parent_joint].name
        );
    }
}
