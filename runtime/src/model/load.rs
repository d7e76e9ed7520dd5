//! Loading a URDF document: XML structure, URDF parse, tree, then the checks
//! of [`super::validate`].

use super::document::Unknown;
use super::urdf::Builder;
use super::{validate, Model};
use crate::error::ModelError;

impl Model {
    /// Builds the model of a URDF document.
    ///
    /// Joint order is depth-first with the child joints of a link in alphabetical
    /// order of their names; fixed joints are merged (the child link's inertia
    /// moves into the parent body, the child stays as a frame). With
    /// `floating_base`, a free-flyer `root_joint` carries the root link; without,
    /// the root link is welded to the universe and its mass counts nowhere.
    /// Matches Pinocchio's `buildModelFromUrdf(file[, JointModelFreeFlyer()])`.
    ///
    /// `<mimic>` tags are ignored: a mimic joint is an independent joint, as in
    /// Pinocchio's `buildModelFromUrdf` without `mimic=True`;
    /// [`Model::from_urdf_str_mimic`] models them.
    ///
    /// # Errors
    /// [`ModelError`] naming the link or joint at fault (or the line of a
    /// nameless element): malformed XML, a root element other than `<robot>`,
    /// missing required attributes or elements, numbers that do not parse,
    /// duplicate or unknown names, links that do not form one tree, unknown or
    /// unsupported joint types (`spherical`, which urdfdom and so Pinocchio
    /// refuse too), zero axes, non-finite numbers, negative masses, rotational
    /// inertias that are not positive semi-definite (see
    /// [`crate::model::validate`] for the tolerance). A `floating` joint
    /// becomes a free-flyer and a `planar` joint Pinocchio's
    /// `JointModelPlanar` (motion in the joint frame's xy plane, `q = [x, y,
    /// cos θ, sin θ]`; the URDF axis is ignored, as Pinocchio does). When the
    /// model cannot be built and the document has an element or attribute
    /// the format does not have, [`ModelError::WithUnknownElement`] names
    /// both (a misspelled `<joint>` leaves its child link without a parent);
    /// when it can, [`Model::physical_warnings`] reports them. Never panics,
    /// whatever the text; a chain of thousands of links loads without deep
    /// recursion.
    pub fn from_urdf_str(urdf: &str, floating_base: bool) -> Result<Model, ModelError> {
        load(urdf, floating_base, false)
    }

    /// Reads and builds the model of a URDF file; see [`Model::from_urdf_str`].
    ///
    /// # Errors
    /// [`ModelError::Parse`] when the file cannot be read, and every error of
    /// [`Model::from_urdf_str`].
    pub fn from_urdf_file(
        path: impl AsRef<std::path::Path>,
        floating_base: bool,
    ) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let text = super::read_file(path)?;
        Self::from_urdf_str(&text, floating_base)
    }

    /// Builds the model of a URDF document as [`Model::from_urdf_str`] does,
    /// and also refuses link inertias whose principal moments violate the
    /// triangle inequality `I1 + I2 ≥ I3` (beyond [`validate::TOLERANCE`] times the
    /// largest principal moment of the robot), which no rigid body can have,
    /// and elements or attributes of `<robot>`, its links, joints and
    /// inertials that the URDF format does not have (a misspelled tag, which
    /// [`Model::from_urdf_str`] reads past and [`Model::physical_warnings`]
    /// reports).
    ///
    /// # Errors
    /// Every error of [`Model::from_urdf_str`],
    /// [`ModelError::InvalidInertia`] naming the link whose moments violate the
    /// triangle inequality, and [`ModelError::UnknownElement`] naming the
    /// first unknown element or attribute, its parent and its line.
    pub fn from_urdf_str_strict(urdf: &str, floating_base: bool) -> Result<Model, ModelError> {
        load(urdf, floating_base, true)
    }
}

/// The loader: XML structure (keeping only links, inertials and joints), URDF
/// parse, tree, then the inertia checks (`strict` adds the triangle inequality).
fn load(urdf: &str, floating_base: bool, strict: bool) -> Result<Model, ModelError> {
    let (reduced, unknown) = super::document::reduce_with_unknowns(urdf)?;
    // A model that fails to build names the unknown elements too (any one may be the cause): a
    // misspelled `<joint>` leaves its child link without a parent.
    let with_unknown = |e: ModelError| Unknown::note_on(e, &unknown);
    let robot = urdf_rs::read_from_string(&reduced)
        .map_err(|e| with_unknown(ModelError::Parse(e.to_string())))?;
    let mut model = Builder::new(&robot)
        .and_then(|b| b.build(&robot.name, floating_base))
        .map_err(with_unknown)?;
    validate::finite_model(&model)?;
    validate::link_inertias(&robot, strict)?;
    if let (true, Some(u)) = (strict, unknown.first()) {
        return Err(u.to_error());
    }
    model.unknown = unknown;
    Ok(model)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keeping only links, inertials and joints changes no model: every URDF
    /// of `models/` and `tests/urdf/` builds the same model from the reduced
    /// text as from the whole text.
    #[test]
    fn the_reduced_document_builds_the_same_model() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut n = 0;
        for dir in ["models", "tests/urdf"] {
            for entry in std::fs::read_dir(root.join(dir)).unwrap() {
                let path = entry.unwrap().path();
                if path.extension().is_none_or(|e| e != "urdf") {
                    continue;
                }
                let text = std::fs::read_to_string(&path).unwrap();
                // urdf-rs alone refuses some texts that the reduced document
                // loads (a `<texture/>` without a file name, tests/urdf/materials.urdf).
                let Ok(robot) = urdf_rs::read_from_string(&text) else {
                    continue;
                };
                for floating in [false, true] {
                    let whole = Builder::new(&robot)
                        .unwrap()
                        .build(&robot.name, floating)
                        .unwrap();
                    let mut reduced = load(&text, floating, false).unwrap();
                    reduced.unknown.clear();
                    assert_eq!(whole, reduced, "{}", path.display());
                }
                n += 1;
            }
        }
        assert!(n >= 10, "{n}");
    }
}
