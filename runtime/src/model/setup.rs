//! What a user sets on a loaded model: armature (rotor inertia) per joint, the
//! contact set, and the links whose inertial parameters are run-time inputs.

use super::{FrameKind, Model};
use crate::error::ModelError;

/// How a contact constrains its frame (Pinocchio's `CONTACT_3D` / `CONTACT_6D`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ContactKind {
    /// The frame's origin does not move: 3 rows, the linear velocity of the
    /// origin in world axes (LOCAL_WORLD_ALIGNED), a force `[3]` in world axes.
    Point,
    /// The frame does not move: 6 rows, the frame's twist in its own axes
    /// (LOCAL), a wrench `[linear; angular]` in those axes.
    Frame6d,
}

impl ContactKind {
    /// The constraint rows of a contact of this kind: 3 or 6.
    pub fn rows(self) -> usize {
        match self {
            ContactKind::Point => 3,
            ContactKind::Frame6d => 6,
        }
    }

    /// The name used by the macro, the CLI and the eval format: `point`, `6d`.
    pub fn name(self) -> &'static str {
        match self {
            ContactKind::Point => "point",
            ContactKind::Frame6d => "6d",
        }
    }

    /// The kind called `name` (`point`, `6d`, or `frame6d`).
    pub fn from_name(name: &str) -> Option<ContactKind> {
        match name {
            "point" | "3d" => Some(ContactKind::Point),
            "6d" | "frame6d" => Some(ContactKind::Frame6d),
            _ => None,
        }
    }
}

/// A contact of the robot with its environment: a link (BODY) frame held
/// still, as a point or as a whole frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Contact {
    /// The frame index (`Model::frames`).
    pub frame: usize,
    /// Point or 6-D.
    pub kind: ContactKind,
}

impl Model {
    /// Sets the armature (rotor inertia, kg·m² for a revolute dof, kg for a
    /// prismatic one) of every dof of the joint named `joint` (Pinocchio's
    /// `model.armature[idx_v..idx_v + nv] = value`), or of its dof `k` only
    /// when `joint` reads `NAME[k]` (`root_joint[3]`: a free-flyer's first
    /// angular dof).
    ///
    /// # Errors
    /// [`ModelError::UnknownName`] for a joint the model does not have (the
    /// universe included); [`ModelError::InvalidSetting`] for a negative or
    /// non-finite value, a dof index beyond the joint's, or a mimicking joint
    /// ([`crate::model::mimic`]: set its primary's).
    pub fn set_armature(&mut self, joint: &str, value: f64) -> Result<(), ModelError> {
        let (name, dof) = match joint.strip_suffix(']').and_then(|j| j.split_once('[')) {
            Some((name, k)) => (name, Some(k)),
            None => (joint, None),
        };
        let id = self
            .joint_id(name)
            .filter(|&id| id > 0)
            .ok_or_else(|| self.unknown_joint(name))?;
        if let Some(m) = self.joints[id].mimic {
            return Err(ModelError::InvalidSetting {
                item: format!("armature of joint `{joint}`"),
                reason: format!(
                    "the joint mimics `{}`: it has no dof of its own",
                    self.joints[m.primary].name
                ),
            });
        }
        if !(value >= 0.0 && value.is_finite()) {
            return Err(ModelError::InvalidSetting {
                item: format!("armature of joint `{joint}`"),
                reason: format!("{value} is not a finite value >= 0"),
            });
        }
        let range = self.joints[id].v_range();
        let range = match dof {
            None => range,
            Some(k) => {
                let k = k
                    .parse::<usize>()
                    .ok()
                    .filter(|&k| k < range.len())
                    .ok_or_else(|| ModelError::InvalidSetting {
                        item: format!("armature of joint `{joint}`"),
                        reason: format!("the joint has dofs 0 to {}", range.len() - 1),
                    })?;
                range.start + k..range.start + k + 1
            }
        };
        self.armature[range].fill(value);
        Ok(())
    }

    /// Sets the contact set from `(link frame name, kind)` pairs, in order.
    ///
    /// # Errors
    /// [`ModelError::UnknownName`] for a name that is not a link (BODY) frame;
    /// [`ModelError::InvalidSetting`] for a link welded to the universe (it
    /// cannot move, the contact's rows would be zero) or named twice.
    pub fn set_contacts(&mut self, contacts: &[(&str, ContactKind)]) -> Result<(), ModelError> {
        let mut set = Vec::with_capacity(contacts.len());
        for &(name, kind) in contacts {
            let frame = self.link_frame(name)?;
            if self.frames[frame].parent_joint == 0 {
                return Err(ModelError::InvalidSetting {
                    item: format!("contact `{name}`"),
                    reason: "the link is welded to the universe: it cannot move".into(),
                });
            }
            if set.iter().any(|c: &Contact| c.frame == frame) {
                return Err(ModelError::InvalidSetting {
                    item: format!("contact `{name}`"),
                    reason: "named twice".into(),
                });
            }
            set.push(Contact { frame, kind });
        }
        self.contacts = set;
        Ok(())
    }

    /// The number of constraint rows of the contact set, `nc` (3 per point, 6
    /// per 6-D contact).
    pub fn nc(&self) -> usize {
        self.contacts.iter().map(|c| c.kind.rows()).sum()
    }

    /// Names the links whose inertial parameters become run-time inputs of the
    /// generated functions, in order.
    ///
    /// # Errors
    /// [`ModelError::UnknownName`] for a name that is not a link (BODY) frame;
    /// [`ModelError::InvalidSetting`] for a link welded to the universe (its
    /// inertia enters no dynamics) or named twice.
    pub fn set_parameters(&mut self, links: &[&str]) -> Result<(), ModelError> {
        let mut set = Vec::with_capacity(links.len());
        for &name in links {
            let frame = self.link_frame(name)?;
            if self.frames[frame].parent_joint == 0 {
                return Err(ModelError::InvalidSetting {
                    item: format!("parameters of link `{name}`"),
                    reason: "the link is welded to the universe: its inertia enters no dynamics"
                        .into(),
                });
            }
            if set.contains(&frame) {
                return Err(ModelError::InvalidSetting {
                    item: format!("parameters of link `{name}`"),
                    reason: "named twice".into(),
                });
            }
            set.push(frame);
        }
        self.parameters = set;
        Ok(())
    }

    /// The index of the link (BODY) frame named `name`.
    ///
    /// # Errors
    /// [`ModelError::UnknownName`] listing the link frames.
    pub fn link_frame(&self, name: &str) -> Result<usize, ModelError> {
        self.frame_id(name, FrameKind::Body)
            .ok_or_else(|| ModelError::UnknownName {
                what: "link frame",
                name: name.to_string(),
                hint: crate::error::did_you_mean(
                    name,
                    self.body_frames().map(|(_, f)| f.name.as_str()),
                ),
                known: self
                    .body_frames()
                    .map(|(_, f)| f.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    fn unknown_joint(&self, name: &str) -> ModelError {
        ModelError::UnknownName {
            what: "joint",
            name: name.to_string(),
            hint: crate::error::did_you_mean(
                name,
                self.joints[1..].iter().map(|j| j.name.as_str()),
            ),
            known: self.joints[1..]
                .iter()
                .map(|j| j.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
