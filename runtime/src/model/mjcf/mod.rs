//! Building a [`Model`] from MJCF, MuJoCo's XML format, with the joint order,
//! the `q` / `v` layout and the frames of Pinocchio's `buildModelFromMJCF`.
//!
//! # What is read
//!
//! - `<worldbody>` and its bodies, depth-first in document order (Pinocchio's
//!   joint order: not alphabetical, unlike URDF). Every child body of
//!   `<worldbody>` is loaded, as MuJoCo does; Pinocchio 4.1.0 reads the first
//!   one only, so its model of a file with several (dm_control's manipulator
//!   with its ball and peg) is the prefix of ours: the same joints, `q` and `v`
//!   entries and frames first.
//! - Body `pos` and orientation (`quat`, `axisangle`, `euler`, `xyaxes`,
//!   `zaxis`; `<compiler angle eulerseq>`), `childclass`.
//! - `hinge`, `slide`, `ball` and `free` joints (`<joint>` or `<freejoint>`)
//!   with `pos`, `axis`, `ref`, `armature` (into [`Model::armature`], every
//!   dof of the joint), `range` / `limited` (into the position limits of
//!   hinges and slides; hinge angles in the compiler's unit),
//!   `actuatorfrcrange` (into the effort limits). A `ball` is Pinocchio's
//!   spherical joint ([`JointKind::Spherical`], `q = [qx qy qz qw]`, MuJoCo's
//!   `[qw qx qy qz]` reordered; `ω` in the joint frame, as MuJoCo's); its
//!   `range` (a cone angle) is no limit on `q`.
//! - `<inertial>` (`mass`, `pos`, `diaginertia` or `fullinertia`, an
//!   orientation), or, for a body without one, the inertia of its geoms as
//!   MuJoCo computes it (`<compiler inertiafromgeom="auto">`, the default;
//!   `"true"` always uses the geoms, `"false"` refuses a body without
//!   `<inertial>`): spheres, capsules, cylinders, ellipsoids and boxes with
//!   their `mass` or `density`, `fromto`, the groups of `inertiagrouprange`;
//!   a mesh that would count is refused (rbdgen does not compute mesh
//!   volumes). Then `boundmass`, `boundinertia` and `settotalmass`.
//! - `<default>` classes (nested, inheriting) for joints, geoms and sites,
//!   chosen as MuJoCo does: the element's `class`, else the nearest
//!   `childclass`, else the top-level class.
//! - `<site>`s, as operational frames ([`FrameKind::Op`]), those of
//!   `<worldbody>` itself (which Pinocchio skips) after all the others.
//! - `<option gravity>` into [`Model::gravity`].
//! - `<include file>` (by [`Model::from_mjcf_file`]), resolved against the
//!   main file's directory.
//!
//! Everything else (assets, actuators, sensors, tendons, equality
//! constraints, contacts, visuals) does not change the rigid-body model and is
//! ignored. `<frame>`, `<composite>`,
//! `<flexcomp>`, `<replicate>` and `<attach>` would change it and are refused.
//! A child element or attribute that MuJoCo does not define, in an element
//! rbdgen reads (a misspelled `<inertal>` in a body, `pso` on a joint), is
//! read past, and reported by [`Model::physical_warnings`]
//! ([`ModelError::UnknownElement`], naming it, its parent and its line);
//! [`Model::from_mjcf_str_strict`] refuses it.
//!
//! # Several joints in one body
//!
//! Pinocchio makes them one composite joint (`JointModelComposite`, named
//! `Composite_<first joint>`) whose `q` and `v` are the sub-joints' in
//! order. rbdgen makes them consecutive joints of their own (named as in the
//! file) with massless bodies between them: the same `q` and `v` layout, the
//! same mechanism, so every quantity indexed by `q`, `v` or a frame is the
//! same, but [`Model::njoints`] counts each sub-joint where Pinocchio counts
//! one composite. Each joint's placement in the chain is Pinocchio's
//! (`body pose · pos₁`, then `pos_k - pos_{k-1}`), the body frame sits at
//! `-pos_n` in the last one, and the last one carries the body's inertia, its
//! JOINT frame `Composite_<first>` and its BODY frame, so the frames are
//! Pinocchio's, one for one. A per-joint quantity (`fext`, Pinocchio's joint
//! ids) maps the composite to the last sub-joint.
//!
//! # `floating_base` and the file's joints
//!
//! As a URDF's: the flag gives the first child body of `<worldbody>` a
//! free-flyer named `root_joint`, at the identity (`q` is then the world pose
//! of that body's frame). That is Pinocchio's
//! `buildModelFromMJCF(file, JointModelFreeFlyer())` when the body has no
//! joint of its own. When it has joints (a `<freejoint>`, or dm_control's
//! planar `rootx` / `rootz` / `rooty`), Pinocchio ignores the flag; rbdgen
//! adds the free-flyer above them, as it (and Pinocchio) does above a URDF
//! root that a `floating` joint already frees, so that one flag means one
//! thing in both formats: two joints then move the same body along the same
//! directions, a singular mass matrix that [`Model::physical_warnings`]
//! reports ([`Model::check_redundant_joints`]; an error with `strict`).
//! Without the flag a
//! `<freejoint>` is still a free-flyer (`q = [x y z qx qy qz qw]`, MuJoCo's
//! `[x y z qw qx qy qz]` reordered; `v` in the body frame, MuJoCo's linear
//! velocity is in the world frame), and a jointless first body is welded to
//! the world.
//!
//! # Where rbdgen follows MuJoCo rather than Pinocchio 4.1.0
//!
//! Pinocchio's parser departs from MuJoCo's meaning of the file in ways that
//! change the dynamics; rbdgen keeps MuJoCo's (checked against MuJoCo 4.0's
//! compiled model):
//! - the placement of a free joint is the identity (`q` is the body's world
//!   pose); Pinocchio gives it the translation `p - R p` of the body's initial
//!   pose `(R, p)` (dm_control's humanoid_CMU: `(0, 1, 1)`);
//! - a jointless top-level body is welded at its `pos` / orientation;
//!   Pinocchio ignores them;
//! - `ref` of a joint in a multi-joint body shifts that joint's zero (it does
//!   for single joints in Pinocchio too; its composite joints get it wrong);
//! - a geom's `mass` given by a default class is its mass (Pinocchio reads it
//!   from the element only: dm_control's acrobot arms weigh 1 kg each, not
//!   8.4 kg), geoms count by `inertiagrouprange` (Pinocchio drops geoms with
//!   `contype = conaffinity = 0`, and gives a counted mesh the unit inertia),
//!   `settotalmass`, `boundmass` and `boundinertia` apply;
//! - a site's `pos` and orientation given by a default class place it
//!   (Pinocchio reads them from the element only: dm_control's manipulator
//!   fingertip sites);
//! - `<option gravity>` sets the gravity (Pinocchio keeps (0, 0, -9.81));
//! - limits: the free-flyer's are infinite (Pinocchio: ±1.01 on all seven
//!   entries), a slide's `range` is in metres whatever the angle unit, the
//!   effort limit is the larger magnitude of `actuatorfrcrange`.
//!
//! Names of unnamed elements are Pinocchio's: a body `<parent>Bis`, a joint
//! `<body>Joint_<k>`, a `<freejoint>` `<body>_free`, a site `<body>Site_<k>`.

mod compiler;
mod geom;
mod known;
mod spec;
mod xml;

use std::path::{Path, PathBuf};

use super::document::Unknown;
use super::{Frame, FrameKind, Joint, JointKind, Model};
use crate::error::ModelError;
use crate::spatial::{Inertia, Matrix3, Transform, Vector3};
use spec::{BodySpec, JointSpec, JointType, Spec};

impl Model {
    /// Builds the model of an MJCF document; see [`crate::model::mjcf`] for
    /// what is read and how it maps to
    /// Pinocchio's `buildModelFromMJCF`.
    ///
    /// `floating_base` gives the first body a free-flyer `root_joint`, above
    /// its own joints when it has some (a singular model then, reported by
    /// [`Model::physical_warnings`]).
    ///
    /// # Errors
    /// [`ModelError::Mjcf`] naming the element and its line: malformed XML, a
    /// root element other than `<mujoco>`, malformed numbers, missing required
    /// attributes, unknown joint or geom types or default classes, a free joint
    /// below a top-level body or beside other joints, a body without inertial
    /// data where none can be computed, an inertia no rigid body has, duplicate
    /// body or joint names, an `<include>` (use [`Model::from_mjcf_file`]),
    /// unsupported elements (`<frame>`, `<composite>`, ...). Never panics.
    ///
    /// A child element or attribute that MuJoCo does not define, in an
    /// element this loader reads, is read past and reported by
    /// [`Model::physical_warnings`]; when the model cannot be built,
    /// [`ModelError::WithUnknownElement`] names them all too.
    pub fn from_mjcf_str(xml: &str, floating_base: bool) -> Result<Model, ModelError> {
        build(&xml::Tree::parse(xml, None)?, floating_base, false)
    }

    /// Builds the model of an MJCF document as [`Model::from_mjcf_str`]
    /// does, and refuses child elements and attributes that MuJoCo does not
    /// define in the elements rbdgen reads (`<mujoco>`, `<compiler>`,
    /// `<option>`, `<default>`, `<worldbody>`, `<body>`, `<inertial>`,
    /// `<joint>`, `<freejoint>`, `<geom>`, `<site>`): a misspelled tag,
    /// which [`Model::from_mjcf_str`] reads past.
    ///
    /// # Errors
    /// Every error of [`Model::from_mjcf_str`], and
    /// [`ModelError::UnknownElement`] naming the first unknown element or
    /// attribute, its parent and its line.
    pub fn from_mjcf_str_strict(xml: &str, floating_base: bool) -> Result<Model, ModelError> {
        build(&xml::Tree::parse(xml, None)?, floating_base, true)
    }

    /// Reads and builds the model of an MJCF file as
    /// [`Model::from_mjcf_str_strict`] does, its `<include>`s resolved as
    /// [`Model::from_mjcf_file`] resolves them.
    ///
    /// # Errors
    /// [`ModelError::Parse`] when the file cannot be read, and every error of
    /// [`Model::from_mjcf_str_strict`].
    pub fn from_mjcf_file_strict(
        path: impl AsRef<Path>,
        floating_base: bool,
    ) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let text = crate::model::read_file(path)?;
        build(&xml::Tree::parse(&text, Some(path))?, floating_base, true)
    }

    /// Reads and builds the model of an MJCF file, its `<include>`s resolved
    /// against the file's directory; see [`Model::from_mjcf_str`].
    ///
    /// # Errors
    /// [`ModelError::Parse`] when the file cannot be read, and every error of
    /// [`Model::from_mjcf_str`].
    pub fn from_mjcf_file(
        path: impl AsRef<Path>,
        floating_base: bool,
    ) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let text = crate::model::read_file(path)?;
        build(&xml::Tree::parse(&text, Some(path))?, floating_base, false)
    }
}

impl Model {
    /// Builds the model of a URDF or an MJCF document, told apart by the root
    /// element (`<robot>` or `<mujoco>`, after any XML declaration and
    /// comments): [`Model::from_urdf_str`] or [`Model::from_mjcf_str`].
    ///
    /// # Errors
    /// Those of the loader chosen; a text that is neither is handed to the
    /// URDF loader, whose error names the root element.
    pub fn from_description_str(text: &str, floating_base: bool) -> Result<Model, ModelError> {
        if is_mjcf(text) {
            Model::from_mjcf_str(text, floating_base)
        } else {
            Model::from_urdf_str(text, floating_base)
        }
    }

    /// Reads and builds the model of a URDF or MJCF file: MJCF for a `.xml`
    /// or `.mjcf` file or a `<mujoco>` root, URDF otherwise; see
    /// [`Model::from_mjcf_file`] and [`Model::from_urdf_file`].
    ///
    /// # Errors
    /// [`ModelError::Parse`] when the file cannot be read, and those of the
    /// loader chosen.
    pub fn from_description_file(
        path: impl AsRef<Path>,
        floating_base: bool,
    ) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let text = crate::model::read_file(path)?;
        let by_extension = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("xml") || e.eq_ignore_ascii_case("mjcf"));
        if by_extension || is_mjcf(&text) {
            build(&xml::Tree::parse(&text, Some(path))?, floating_base, false)
        } else {
            Model::from_urdf_str(&text, floating_base)
        }
    }
}

/// Whether the root element of `text` is `<mujoco>`: the first start tag
/// after the XML declaration, comments and a doctype.
pub fn is_mjcf(text: &str) -> bool {
    let mut rest = text;
    loop {
        rest = rest.trim_start();
        if let Some(r) = rest.strip_prefix("<?") {
            rest = r.split_once("?>").map_or("", |(_, r)| r);
        } else if let Some(r) = rest.strip_prefix("<!--") {
            rest = r.split_once("-->").map_or("", |(_, r)| r);
        } else if let Some(r) = rest.strip_prefix("<!") {
            rest = r.split_once('>').map_or("", |(_, r)| r);
        } else {
            return rest.strip_prefix("<mujoco").is_some_and(|r| {
                r.starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/')
            });
        }
    }
}

/// The MJCF file at `path` as one self-contained document: its `<include>`s
/// expanded (MuJoCo's rule: the children of the included `<mujoco>` in place
/// of the element), comments and text dropped. For callers that take the
/// model as text (code generation, hashing): `Model::from_mjcf_str` of the
/// result is `Model::from_mjcf_file(path)`.
///
/// # Errors
/// [`ModelError::Parse`] when the file cannot be read; [`ModelError::Mjcf`]
/// for malformed XML or an include that cannot be read.
pub fn flatten(path: impl AsRef<Path>) -> Result<String, ModelError> {
    let path = path.as_ref();
    let text = crate::model::read_file(path)?;
    Ok(xml::Tree::parse(&text, Some(path))?.to_xml())
}

/// The text of a robot description file for callers that take the model as
/// text ([`Model::from_description_str`], code generation, hashing): an MJCF
/// file (`.xml` / `.mjcf`, or a `<mujoco>` root) [`flatten`]ed, its includes
/// expanded; any other file as it is.
///
/// # Errors
/// [`ModelError::Parse`] when the file cannot be read; for MJCF, those of
/// [`flatten`].
pub fn read_description(path: impl AsRef<Path>) -> Result<String, ModelError> {
    let path = path.as_ref();
    let text = crate::model::read_file(path)?;
    let by_extension = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml") || e.eq_ignore_ascii_case("mjcf"));
    if by_extension || is_mjcf(&text) {
        Ok(xml::Tree::parse(&text, Some(path))?.to_xml())
    } else {
        Ok(text)
    }
}

/// The files a robot description is read from: `path`, then, for an MJCF
/// file (as [`read_description`] tells them apart), each file that its
/// `<include>`s pull in, nested ones too, once each in reading order. A build
/// that reads the model must rerun when any of them changes: the macro
/// emits an `include_bytes!` of each, a build script a
/// `cargo:rerun-if-changed` line.
///
/// # Errors
/// As [`read_description`].
pub fn description_files(path: impl AsRef<Path>) -> Result<Vec<PathBuf>, ModelError> {
    let path = path.as_ref();
    let text = crate::model::read_file(path)?;
    let by_extension = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("xml") || e.eq_ignore_ascii_case("mjcf"));
    let mut files = vec![path.to_path_buf()];
    if by_extension || is_mjcf(&text) {
        let tree = xml::Tree::parse(&text, Some(path))?;
        // Every include resolves against the main file's directory (MuJoCo's rule).
        let dir = path.parent().unwrap_or(Path::new("."));
        for name in &tree.files[1..] {
            let file = dir.join(name);
            if !files.contains(&file) {
                files.push(file);
            }
        }
    }
    Ok(files)
}

/// Where a body sits: the joint it moves with and its frame in that joint's frame.
#[derive(Clone, Copy)]
struct Attachment {
    joint: usize,
    joint_from_body: Transform<f64>,
}

/// The loader: the element tree's unknown elements and attributes, the
/// bodies, then the model; `strict` refuses the first unknown.
fn build(tree: &xml::Tree, floating_base: bool, strict: bool) -> Result<Model, ModelError> {
    let unknown = known::unknowns(tree);
    // A model that fails to build names the unknown elements too (any one may be the cause): a
    // misspelled `<inertial>` leaves the body to its geoms' inertia.
    let with_unknown = |e: ModelError| Unknown::note_on(e, &unknown);
    let mut model = build_spec(tree, floating_base).map_err(with_unknown)?;
    if let (true, Some(u)) = (strict, unknown.first()) {
        return Err(u.to_error());
    }
    model.unknown = unknown;
    Ok(model)
}

/// The model of the element tree's bodies.
fn build_spec(tree: &xml::Tree, floating_base: bool) -> Result<Model, ModelError> {
    let spec = Spec::read(tree)?;
    let mut b = Builder {
        model: Model::universe(spec.name.clone(), Vector3(spec.gravity)),
    };
    let mut attached: Vec<Attachment> = Vec::with_capacity(spec.bodies.len());
    for (index, body) in spec.bodies.iter().enumerate() {
        let parent = match body.parent {
            Some(p) => attached[p],
            None => Attachment {
                joint: 0,
                joint_from_body: Transform::identity(),
            },
        };
        let at = match (index == 0 && floating_base, body.joints.is_empty()) {
            (true, true) => b.free_root(body),
            // The flag adds its free-flyer above the body's own joints, as it
            // does above a URDF root: a singular model that
            // `Model::check_redundant_joints` reports.
            (true, false) => {
                let joint = b.root_joint();
                b.model.frames.push(Frame {
                    name: "root_joint".into(),
                    kind: FrameKind::Joint,
                    parent_joint: joint,
                    placement: Transform::identity(),
                    inertia: Inertia::zero(),
                });
                let above = Attachment {
                    joint,
                    joint_from_body: Transform::identity(),
                };
                b.body(body, above)
            }
            _ => b.body(body, parent),
        };
        for site in &body.sites {
            b.model.frames.push(Frame {
                name: site.name.clone(),
                kind: FrameKind::Op,
                parent_joint: at.joint,
                placement: at.joint_from_body * site.placement,
                inertia: Inertia::zero(),
            });
        }
        attached.push(at);
    }
    // Sites of the world body come last: Pinocchio 4.1.0 has none of them,
    // so its frames stay a prefix of ours.
    for site in &spec.world_sites {
        b.model.frames.push(Frame {
            name: site.name.clone(),
            kind: FrameKind::Op,
            parent_joint: 0,
            placement: site.placement,
            inertia: Inertia::zero(),
        });
    }
    super::validate::finite_model(&b.model)?;
    b.model.finish_tree();
    Ok(b.model)
}

struct Builder {
    model: Model,
}

impl Builder {
    /// The free-flyer `root_joint` that `floating_base` gives a jointless first body.
    fn free_root(&mut self, body: &BodySpec) -> Attachment {
        let id = self.root_joint();
        self.model.joints[id].inertia = body.inertia;
        self.push_frames(id, "root_joint", body, Transform::identity());
        Attachment {
            joint: id,
            joint_from_body: Transform::identity(),
        }
    }

    /// The free-flyer `root_joint` of `floating_base`, at the identity below
    /// the universe, without a body; returns its id.
    fn root_joint(&mut self) -> usize {
        self.add_joint(
            "root_joint".into(),
            JointKind::FreeFlyer,
            0,
            Transform::identity(),
            None,
            0.0,
        )
    }

    /// Adds a body with its joints; returns where its frame is.
    fn body(&mut self, body: &BodySpec, parent: Attachment) -> Attachment {
        let parent_from_body = parent.joint_from_body * body.placement;
        if body.joints.is_empty() {
            if body.parent.is_some() {
                self.model.frames.push(Frame {
                    name: format!("{}_fixed", body.name),
                    kind: FrameKind::FixedJoint,
                    parent_joint: parent.joint,
                    placement: parent_from_body,
                    inertia: Inertia::zero(),
                });
            }
            self.model.frames.push(Frame {
                name: body.name.clone(),
                kind: FrameKind::Body,
                parent_joint: parent.joint,
                placement: parent_from_body,
                inertia: body.inertia,
            });
            if parent.joint > 0 {
                self.model.joints[parent.joint].inertia +=
                    body.inertia.transformed(&parent_from_body);
            }
            return Attachment {
                joint: parent.joint,
                joint_from_body: parent_from_body,
            };
        }
        let mut joint = parent.joint;
        let mut placement = parent_from_body;
        let mut previous = [0.0; 3];
        for j in &body.joints {
            let kind = joint_kind(j);
            let anchor = if j.kind == JointType::Free {
                // MuJoCo: a free joint's q is the body's world pose (top-level
                // bodies only), whatever the body's pos, quat and joint pos.
                placement = Transform::identity();
                [0.0; 3]
            } else {
                j.pos
            };
            let step = Transform {
                rotation: Matrix3::identity(),
                translation: Vector3(std::array::from_fn(|k| anchor[k] - previous[k])),
            };
            let zero = reference_offset(j);
            joint = self.add_joint(
                j.name.clone(),
                kind,
                joint,
                placement * step * zero,
                j.range,
                j.armature,
            );
            let effort = j.effort.unwrap_or(f64::INFINITY);
            let nv = self.model.joints[joint].kind.nv();
            let n = self.model.effort_limit.len();
            self.model.effort_limit[n - nv..].fill(effort);
            placement = Transform::identity();
            previous = anchor;
        }
        let joint_from_body = Transform {
            rotation: Matrix3::identity(),
            translation: Vector3(previous.map(|x| -x)),
        };
        self.model.joints[joint].inertia = body.inertia.transformed(&joint_from_body);
        let joint_frame = match body.joints.as_slice() {
            [only] => only.name.clone(),
            all => format!("Composite_{}", all[0].name),
        };
        self.push_frames(joint, &joint_frame, body, joint_from_body);
        Attachment {
            joint,
            joint_from_body,
        }
    }

    /// The JOINT frame of a body's (last) joint and the BODY frame.
    fn push_frames(
        &mut self,
        joint: usize,
        joint_frame: &str,
        body: &BodySpec,
        joint_from_body: Transform<f64>,
    ) {
        self.model.frames.push(Frame {
            name: joint_frame.to_string(),
            kind: FrameKind::Joint,
            parent_joint: joint,
            placement: Transform::identity(),
            inertia: Inertia::zero(),
        });
        self.model.frames.push(Frame {
            name: body.name.clone(),
            kind: FrameKind::Body,
            parent_joint: joint,
            placement: joint_from_body,
            inertia: body.inertia,
        });
    }

    fn add_joint(
        &mut self,
        name: String,
        kind: JointKind,
        parent: usize,
        placement: Transform<f64>,
        range: Option<(f64, f64)>,
        armature: f64,
    ) -> usize {
        let m = &mut self.model;
        let (nq, nv) = (kind.nq(), kind.nv());
        let (lower, upper) = range.unwrap_or((f64::NEG_INFINITY, f64::INFINITY));
        m.lower_position_limit
            .extend(std::iter::repeat_n(lower, nq));
        m.upper_position_limit
            .extend(std::iter::repeat_n(upper, nq));
        m.velocity_limit
            .extend(std::iter::repeat_n(f64::INFINITY, nv));
        m.effort_limit
            .extend(std::iter::repeat_n(f64::INFINITY, nv));
        m.armature.extend(std::iter::repeat_n(armature, nv));
        m.joints.push(Joint {
            name,
            kind,
            parent,
            placement,
            inertia: Inertia::zero(),
            idx_q: m.nq,
            idx_v: m.nv,
            mimic: None,
        });
        m.nq += nq;
        m.nv += nv;
        m.joints.len() - 1
    }
}

fn joint_kind(j: &JointSpec) -> JointKind {
    match j.kind {
        JointType::Hinge(axis) => JointKind::Revolute { axis },
        JointType::Slide(axis) => JointKind::Prismatic { axis },
        JointType::Free => JointKind::FreeFlyer,
        JointType::Ball => JointKind::Spherical,
    }
}

/// The placement that moves a hinge's or slide's zero to its `ref`: MuJoCo's
/// joint displacement is `q - ref`.
fn reference_offset(j: &JointSpec) -> Transform<f64> {
    match j.kind {
        JointType::Hinge(axis) if j.reference != 0.0 => Transform {
            rotation: spec::axis_angle(axis, -j.reference),
            translation: Vector3::zeros(),
        },
        JointType::Slide(axis) if j.reference != 0.0 => Transform {
            rotation: Matrix3::identity(),
            translation: Vector3(axis.map(|a| -a * j.reference)),
        },
        _ => Transform::identity(),
    }
}
