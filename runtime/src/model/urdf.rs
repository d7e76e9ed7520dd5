//! The tree of a URDF document as a [`Model`], as Pinocchio's `buildModelFromUrdf`
//! builds it (`load.rs` parses the text and checks the result).

use std::collections::{BTreeMap, HashMap};

use super::{Frame, FrameKind, Joint, JointKind, Model};
use crate::error::ModelError;
use crate::spatial::{Inertia, Matrix3, Transform, Vector3};

pub(super) struct Builder<'a> {
    links: HashMap<&'a str, &'a urdf_rs::Link>,
    /// Child joints of each link, sorted by joint name.
    children: HashMap<&'a str, BTreeMap<&'a str, &'a urdf_rs::Joint>>,
    root: &'a str,
    model: Model,
}

impl<'a> Builder<'a> {
    pub(super) fn new(robot: &'a urdf_rs::Robot) -> Result<Self, ModelError> {
        if robot.links.is_empty() {
            return Err(ModelError::Empty);
        }
        let mut links = HashMap::new();
        for link in &robot.links {
            if links.insert(link.name.as_str(), link).is_some() {
                return Err(ModelError::DuplicateLink(link.name.clone()));
            }
        }
        let mut children: HashMap<&str, BTreeMap<&str, &urdf_rs::Joint>> = HashMap::new();
        let mut has_parent: HashMap<&str, &str> = HashMap::new();
        let mut joint_names = HashMap::new();
        for joint in &robot.joints {
            if joint_names.insert(joint.name.as_str(), ()).is_some() {
                return Err(ModelError::DuplicateJoint(joint.name.clone()));
            }
            for link in [&joint.parent.link, &joint.child.link] {
                if !links.contains_key(link.as_str()) {
                    return Err(ModelError::UnknownLink {
                        joint: joint.name.clone(),
                        link: link.clone(),
                    });
                }
            }
            if has_parent
                .insert(joint.child.link.as_str(), joint.name.as_str())
                .is_some()
            {
                return Err(ModelError::SeveralParents(joint.child.link.clone()));
            }
            children
                .entry(joint.parent.link.as_str())
                .or_default()
                .insert(joint.name.as_str(), joint);
        }
        let mut roots: Vec<&str> = robot
            .links
            .iter()
            .map(|l| l.name.as_str())
            .filter(|l| !has_parent.contains_key(l))
            .collect();
        let root = match roots.len() {
            1 => roots.remove(0),
            0 => {
                return Err(ModelError::NotATree(
                    "every link has a parent joint (a cycle)".into(),
                ))
            }
            _ => {
                return Err(ModelError::NotATree(format!(
                    "several root links: {}",
                    roots.join(", ")
                )))
            }
        };
        // With one parent per link, the links that no path from the root reaches form cycles.
        let mut reached = vec![root];
        let mut k = 0;
        while k < reached.len() {
            if let Some(c) = children.get(reached[k]) {
                reached.extend(c.values().map(|j| j.child.link.as_str()));
            }
            k += 1;
        }
        if reached.len() != links.len() {
            let lost: Vec<String> = robot
                .links
                .iter()
                .filter(|l| !reached.contains(&l.name.as_str()))
                .map(|l| format!("`{}`", l.name))
                .collect();
            return Err(ModelError::NotATree(format!(
                "links {} are not reachable from the root link `{root}` (a cycle)",
                lost.join(", ")
            )));
        }
        let model = Model::universe(robot.name.clone(), Vector3([0.0, 0.0, -9.81]));
        Ok(Self {
            links,
            children,
            root,
            model,
        })
    }

    pub(super) fn build(mut self, name: &str, floating_base: bool) -> Result<Model, ModelError> {
        let root_link = self.links[self.root];
        let root_inertia = link_inertia(root_link)?;
        let root_joint = if floating_base {
            self.add_joint(
                "root_joint",
                JointKind::FreeFlyer,
                0,
                Transform::identity(),
                root_inertia,
                None,
            )
        } else {
            0
        };
        self.model.frames.push(Frame {
            name: self.root.to_string(),
            kind: FrameKind::Body,
            parent_joint: root_joint,
            placement: Transform::identity(),
            inertia: root_inertia,
        });
        self.visit(self.root, root_joint, Transform::identity())?;
        self.model.name = name.to_string();
        self.model.armature = vec![0.0; self.model.nv];
        self.model.finish_tree();
        Ok(self.model)
    }

    fn add_joint(
        &mut self,
        name: &str,
        kind: JointKind,
        parent: usize,
        placement: Transform<f64>,
        inertia: Inertia<f64>,
        limit: Option<&urdf_rs::JointLimit>,
    ) -> usize {
        let (idx_q, idx_v) = (self.model.nq, self.model.nv);
        let none = |x: f64| if x > 0.0 { x } else { f64::INFINITY };
        let bounded = matches!(
            kind,
            JointKind::Revolute { .. } | JointKind::Prismatic { .. }
        );
        let (lower, upper) = match limit {
            Some(l) if bounded && (l.lower != 0.0 || l.upper != 0.0) => (l.lower, l.upper),
            _ => (f64::NEG_INFINITY, f64::INFINITY),
        };
        let m = &mut self.model;
        m.lower_position_limit
            .extend(std::iter::repeat_n(lower, kind.nq()));
        m.upper_position_limit
            .extend(std::iter::repeat_n(upper, kind.nq()));
        let (velocity, effort) = limit.map_or((f64::INFINITY, f64::INFINITY), |l| {
            (none(l.velocity), none(l.effort))
        });
        m.velocity_limit
            .extend(std::iter::repeat_n(velocity, kind.nv()));
        m.effort_limit
            .extend(std::iter::repeat_n(effort, kind.nv()));
        self.model.nq += kind.nq();
        self.model.nv += kind.nv();
        self.model.joints.push(Joint {
            name: name.to_string(),
            kind,
            parent,
            placement,
            inertia,
            idx_q,
            idx_v,
            mimic: None,
        });
        self.model.joints.len() - 1
    }

    /// Adds the subtree below `link`, whose frame sits at `joint_from_link` in
    /// joint `parent`: depth-first, children in the order of their joint names,
    /// with an explicit stack (a chain of thousands of links needs no deep
    /// recursion).
    fn visit(
        &mut self,
        link: &'a str,
        parent: usize,
        joint_from_link: Transform<f64>,
    ) -> Result<(), ModelError> {
        // Pending joints with the joint id and placement of their parent link's frame.
        let mut stack: Vec<(&'a urdf_rs::Joint, usize, Transform<f64>)> = Vec::new();
        self.push_children(&mut stack, link, parent, joint_from_link);
        while let Some((joint, parent, joint_from_link)) = stack.pop() {
            let origin = pose(&joint.origin, &format!("joint `{}`", joint.name))?;
            let parent_from_joint = joint_from_link * origin;
            let child = joint.child.link.as_str();
            let inertia = link_inertia(self.links[child])?;
            let kind = joint_kind(joint)?;
            match kind {
                None => {
                    self.model.frames.push(Frame {
                        name: joint.name.clone(),
                        kind: FrameKind::FixedJoint,
                        parent_joint: parent,
                        placement: parent_from_joint,
                        inertia: Inertia::zero(),
                    });
                    self.model.frames.push(Frame {
                        name: child.to_string(),
                        kind: FrameKind::Body,
                        parent_joint: parent,
                        placement: parent_from_joint,
                        inertia,
                    });
                    if parent > 0 {
                        self.model.joints[parent].inertia +=
                            inertia.transformed(&parent_from_joint);
                    }
                    self.push_children(&mut stack, child, parent, parent_from_joint);
                }
                Some(kind) => {
                    // Pinocchio reads no `<limit>` for free-flyers and planar joints.
                    let limit = (!matches!(kind, JointKind::FreeFlyer | JointKind::Planar))
                        .then_some(&joint.limit);
                    let id = self.add_joint(
                        &joint.name,
                        kind,
                        parent,
                        parent_from_joint,
                        inertia,
                        limit,
                    );
                    for (name, kind, inertia) in [
                        (joint.name.as_str(), FrameKind::Joint, Inertia::zero()),
                        (child, FrameKind::Body, inertia),
                    ] {
                        self.model.frames.push(Frame {
                            name: name.to_string(),
                            kind,
                            parent_joint: id,
                            placement: Transform::identity(),
                            inertia,
                        });
                    }
                    self.push_children(&mut stack, child, id, Transform::identity());
                }
            }
        }
        Ok(())
    }

    /// Queues the child joints of `link`, the first by name on top.
    fn push_children(
        &self,
        stack: &mut Vec<(&'a urdf_rs::Joint, usize, Transform<f64>)>,
        link: &str,
        parent: usize,
        joint_from_link: Transform<f64>,
    ) {
        if let Some(children) = self.children.get(link) {
            stack.extend(
                children
                    .values()
                    .rev()
                    .map(|&joint| (joint, parent, joint_from_link)),
            );
        }
    }
}

fn finite(values: &[f64], element: &str, field: &str) -> Result<(), ModelError> {
    if values.iter().all(|x| x.is_finite()) {
        Ok(())
    } else {
        Err(ModelError::NonFinite {
            element: element.to_string(),
            field: field.to_string(),
        })
    }
}

fn pose(p: &urdf_rs::Pose, element: &str) -> Result<Transform<f64>, ModelError> {
    finite(&p.xyz.0, element, "origin xyz")?;
    finite(&p.rpy.0, element, "origin rpy")?;
    Ok(Transform::from_xyz_rpy(p.xyz.0, p.rpy.0))
}

/// `None` for a fixed joint.
fn joint_kind(joint: &urdf_rs::Joint) -> Result<Option<JointKind>, ModelError> {
    use urdf_rs::JointType as T;
    let axis = || -> Result<[f64; 3], ModelError> {
        let a = joint.axis.xyz.0;
        finite(&a, &format!("joint `{}`", joint.name), "axis")?;
        let norm = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        if norm == 0.0 {
            return Err(ModelError::ZeroAxis(joint.name.clone()));
        }
        Ok(a.map(|x| x / norm))
    };
    Ok(match joint.joint_type {
        T::Fixed => None,
        T::Revolute => Some(JointKind::Revolute { axis: axis()? }),
        T::Continuous => Some(JointKind::RevoluteUnbounded { axis: axis()? }),
        T::Prismatic => Some(JointKind::Prismatic { axis: axis()? }),
        // Pinocchio's URDF parser makes a free-flyer of a `floating` joint
        // anywhere in the tree; its axis is ignored.
        T::Floating => Some(JointKind::FreeFlyer),
        // Pinocchio's `JointModelPlanar`: the xy plane of the joint frame,
        // whatever the axis (Pinocchio ignores it too).
        T::Planar => Some(JointKind::Planar),
        ref other => {
            let kind = format!("{other:?}").to_lowercase();
            return Err(ModelError::UnsupportedJoint {
                joint: joint.name.clone(),
                kind,
            });
        }
    })
}

/// The link's inertia in the link frame; zero for a link with no `<inertial>`.
fn link_inertia(link: &urdf_rs::Link) -> Result<Inertia<f64>, ModelError> {
    let i = &link.inertial;
    let element = format!("link `{}`", link.name);
    let m = i.mass.value;
    let t = &i.inertia;
    finite(&[m], &element, "mass")?;
    finite(
        &[t.ixx, t.ixy, t.ixz, t.iyy, t.iyz, t.izz],
        &element,
        "inertia",
    )?;
    if m < 0.0 {
        return Err(ModelError::InvalidInertia {
            link: link.name.clone(),
            reason: format!("negative mass {m}"),
        });
    }
    let frame = pose(&i.origin, &element)?;
    let at_com = Matrix3([
        [t.ixx, t.ixy, t.ixz],
        [t.ixy, t.iyy, t.iyz],
        [t.ixz, t.iyz, t.izz],
    ]);
    Ok(Inertia::from_com(
        m,
        frame.translation,
        at_com.rotate_symmetric(&frame.rotation),
    ))
}
