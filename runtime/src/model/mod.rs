//! The robot model: the constants of a kinematic tree, built once, only borrowed
//! by the algorithms (Pinocchio's `Model`).

mod joint;
mod load;
pub mod mimic;
pub mod mjcf;
mod random;
mod topology;
mod urdf;

pub use joint::JointKind;
pub use mimic::Mimic;

mod document;
mod setup;
pub mod validate;

pub use setup::{Contact, ContactKind};
pub use topology::Topology;

use crate::spatial::{Inertia, Transform, Vector3};

/// A joint of the tree with the body it carries.
#[derive(Clone, Debug, PartialEq)]
pub struct Joint {
    /// The URDF joint name (`universe` for id 0, `root_joint` for a free-flyer root).
    pub name: String,
    /// What kind of motion it allows.
    pub kind: JointKind,
    /// Parent joint id; the universe's parent is itself (0).
    pub parent: usize,
    /// Placement of this joint's frame in its parent joint's frame at q = neutral
    /// (Pinocchio's `jointPlacements[i]`, `parent_from_joint`).
    pub placement: Transform<f64>,
    /// Inertia of the body carried by the joint, with every link welded to it by
    /// fixed joints merged in, in the joint frame.
    pub inertia: Inertia<f64>,
    /// First index of the joint in `q`.
    pub idx_q: usize,
    /// First index of the joint in `v`.
    pub idx_v: usize,
    /// For a mimicking joint (a model loaded with mimic joints,
    /// [`Model::from_urdf_str_mimic`]), the joint it follows; its `idx_q` and
    /// `idx_v` are then that joint's. `None` otherwise.
    pub mimic: Option<Mimic>,
}

/// What a frame marks, as Pinocchio's `FrameType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A URDF link (Pinocchio's `BODY`).
    Body,
    /// A moving joint (Pinocchio's `JOINT`).
    Joint,
    /// A fixed joint (Pinocchio's `FIXED_JOINT`).
    FixedJoint,
    /// An operational frame: an MJCF `<site>` (Pinocchio's `OP_FRAME`).
    Op,
}

/// A named frame attached to a joint.
#[derive(Clone, Debug, PartialEq)]
pub struct Frame {
    /// The URDF link or joint name, the MJCF body, joint or site name.
    pub name: String,
    /// What it marks.
    pub kind: FrameKind,
    /// The joint it moves with.
    pub parent_joint: usize,
    /// Its placement in the parent joint's frame (`joint_from_frame`).
    pub placement: Transform<f64>,
    /// For a link (BODY) frame, the link's own inertia from the URDF in the
    /// link frame (already part of its parent joint's [`Joint::inertia`]);
    /// zero for other frames. Pinocchio's `Frame::inertia`, kept for every
    /// link so that a link's inertial parameters can be replaced
    /// ([`Model::parameters`]).
    pub inertia: Inertia<f64>,
}

/// A kinematic tree with its inertias (Pinocchio's `Model`). Joint 0 is the
/// universe and `joints[i].parent < i`, in depth-first order. Built by the
/// loaders ([`Model::from_urdf_str`], [`Model::from_mjcf_str`]), which also
/// derive its [`Topology`]: the tree (joint parents, kinds and order) is not
/// to be edited afterwards.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// The URDF robot name.
    pub name: String,
    /// Joints by id, the universe first.
    pub joints: Vec<Joint>,
    /// Frames in Pinocchio's order (links and joints, depth-first).
    pub frames: Vec<Frame>,
    /// Length of `q`.
    pub nq: usize,
    /// Length of `v` (the tangent space).
    pub nv: usize,
    /// Gravity in the world frame, (0, 0, -9.81) m/s².
    pub gravity: Vector3<f64>,
    /// Rotor inertia per velocity dof `[nv]` (kg·m² or kg), added to the
    /// diagonal of `M(q)` by every dynamics algorithm (Pinocchio's
    /// `model.armature`); zeros as loaded. Set it per joint with
    /// [`Model::set_armature`].
    pub armature: Vec<f64>,
    /// The contact set of the generated contact functions and of `rbdgen eval`
    /// (the runtime's contact functions take their set as an argument); empty
    /// as loaded. See [`Model::set_contacts`].
    pub contacts: Vec<Contact>,
    /// Link (BODY) frames whose inertial parameters are run-time inputs of the
    /// generated functions (a payload held by the gripper); empty as loaded.
    /// See [`Model::set_parameters`].
    pub parameters: Vec<usize>,
    /// Lower limit of each entry of `q` `[nq]` (rad, m; Pinocchio's
    /// `lowerPositionLimit`): the URDF `<limit lower>` of revolute and
    /// prismatic joints, `-∞` for continuous joints, free-flyers and joints
    /// whose limit is absent or `lower == upper == 0`.
    pub lower_position_limit: Vec<f64>,
    /// Upper limit of each entry of `q` `[nq]`, as [`Model::lower_position_limit`].
    pub upper_position_limit: Vec<f64>,
    /// Speed limit of each dof `[nv]` (rad/s, m/s; Pinocchio's
    /// `velocityLimit`): the URDF `<limit velocity>`, `∞` where it is absent
    /// or zero (urdfdom reads an absent value as 0) and for free-flyers.
    pub velocity_limit: Vec<f64>,
    /// Torque or force limit of each dof `[nv]` (N·m, N; Pinocchio's
    /// `effortLimit`): the URDF `<limit effort>`, `∞` where absent or zero and
    /// for free-flyers.
    pub effort_limit: Vec<f64>,
    /// The tree as the algorithms walk it, derived from `joints` by the loader.
    topology: Topology,
    /// What the URDF or MJCF loader read past: elements and attributes the
    /// format does not have ([`Model::physical_warnings`] reports them).
    pub(crate) unknown: Vec<document::Unknown>,
}

impl Joint {
    /// Its entries in `v`: `idx_v..idx_v + nv`.
    pub fn v_range(&self) -> core::ops::Range<usize> {
        self.idx_v..self.idx_v + self.kind.nv()
    }

    /// Its entries in `q`: `idx_q..idx_q + nq`.
    pub fn q_range(&self) -> core::ops::Range<usize> {
        self.idx_q..self.idx_q + self.kind.nq()
    }
}

impl Model {
    /// A model with the universe only, for the loaders to grow.
    pub(super) fn universe(name: String, gravity: Vector3<f64>) -> Self {
        Model {
            name,
            joints: vec![Joint {
                name: "universe".into(),
                kind: JointKind::Universe,
                parent: 0,
                placement: Transform::identity(),
                inertia: Inertia::zero(),
                idx_q: 0,
                idx_v: 0,
                mimic: None,
            }],
            frames: Vec::new(),
            nq: 0,
            nv: 0,
            gravity,
            armature: Vec::new(),
            contacts: Vec::new(),
            parameters: Vec::new(),
            lower_position_limit: Vec::new(),
            upper_position_limit: Vec::new(),
            velocity_limit: Vec::new(),
            effort_limit: Vec::new(),
            topology: Topology::default(),
            unknown: Vec::new(),
        }
    }

    /// Derives the topology of the joints, once they are all added.
    pub(super) fn finish_tree(&mut self) {
        self.topology = Topology::new(self);
    }

    /// The tree as the algorithms walk it: dof parents, subtrees, support
    /// paths, and the fingerprint that [`crate::Data`] checks.
    pub fn topology(&self) -> &Topology {
        &self.topology
    }

    /// Number of joints, the universe included (Pinocchio's `njoints`).
    pub fn njoints(&self) -> usize {
        self.joints.len()
    }

    /// The neutral configuration `[nq]` (Pinocchio's `neutral`).
    pub fn neutral(&self) -> Vec<f64> {
        self.joints
            .iter()
            .filter(|j| j.mimic.is_none())
            .flat_map(|j| j.kind.neutral().iter().copied())
            .collect()
    }

    /// The id of the joint named `name`.
    pub fn joint_id(&self, name: &str) -> Option<usize> {
        self.joints.iter().position(|j| j.name == name)
    }

    /// The index of the frame named `name` and of the given kind.
    pub fn frame_id(&self, name: &str, kind: FrameKind) -> Option<usize> {
        self.frames
            .iter()
            .position(|f| f.name == name && f.kind == kind)
    }

    /// The link (BODY) frames, in model order.
    pub fn body_frames(&self) -> impl Iterator<Item = (usize, &Frame)> {
        self.frames
            .iter()
            .enumerate()
            .filter(|(_, f)| f.kind == FrameKind::Body)
    }
}

/// The text of a model file.
///
/// # Errors
/// [`crate::error::ModelError::Parse`] naming the file when it cannot be read.
pub(crate) fn read_file(path: &std::path::Path) -> Result<String, crate::error::ModelError> {
    std::fs::read_to_string(path)
        .map_err(|e| crate::error::ModelError::Parse(format!("{}: {e}", path.display())))
}
