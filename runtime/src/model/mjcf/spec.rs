//! The second layer of the MJCF loader: from the element tree to bodies with
//! their joints, inertias and sites, every attribute resolved through the
//! `<default>` classes and the `<compiler>` settings (MuJoCo's semantics).

use std::collections::BTreeMap;

use super::compiler::{Compiler, FromGeom};
use super::geom::{self, Geom, GeomShape};
use super::xml::{Tree, Value};
use crate::error::ModelError;
use crate::spatial::{Inertia, Matrix3, Quaternion, Transform, Vector3};

/// The MJCF joint types.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum JointType {
    /// `hinge` about a unit axis (body frame).
    Hinge([f64; 3]),
    /// `slide` along a unit axis.
    Slide([f64; 3]),
    /// `ball`: a spherical joint at `pos`.
    Ball,
    /// `free` (or `<freejoint>`).
    Free,
}

/// A joint of a body.
#[derive(Clone, Debug)]
pub(super) struct JointSpec {
    /// Its name (Pinocchio's `<body>Joint_<k>` when unnamed, `<body>_free`
    /// for an unnamed `<freejoint>`).
    pub name: String,
    /// The element, for errors.
    pub element: usize,
    /// Type and axis.
    pub kind: JointType,
    /// Its anchor in the body frame (m).
    pub pos: [f64; 3],
    /// `ref` (rad or m): the joint value at which the body has its given pose.
    pub reference: f64,
    /// `armature` (kg·m² or kg), on every dof of the joint.
    pub armature: f64,
    /// Position limits (rad or m) when the joint is limited.
    pub range: Option<(f64, f64)>,
    /// Force or torque limit when the actuator force is limited.
    pub effort: Option<f64>,
}

/// A site: a named frame on a body.
#[derive(Clone, Debug)]
pub(super) struct SiteSpec {
    /// Its name (Pinocchio's `<body>Site_<k>` when unnamed).
    pub name: String,
    /// Its placement in the body frame.
    pub placement: Transform<f64>,
}

/// A body with what the model needs of it.
#[derive(Clone, Debug)]
pub(super) struct BodySpec {
    /// Its name (Pinocchio's `<parent>Bis` when unnamed).
    pub name: String,
    /// The element, for errors.
    pub element: usize,
    /// The parent body (index into the body list), `None` for a child of `<worldbody>`.
    pub parent: Option<usize>,
    /// Its placement in the parent body's frame (the world's for a top-level body).
    pub placement: Transform<f64>,
    /// Its joints in document order.
    pub joints: Vec<JointSpec>,
    /// Its inertia in its own frame.
    pub inertia: Inertia<f64>,
    /// Its sites in document order.
    pub sites: Vec<SiteSpec>,
}

/// A model read from the element tree.
pub(super) struct Spec {
    /// `<mujoco model>`.
    pub name: String,
    /// Bodies in document order (depth-first): parents before children.
    pub bodies: Vec<BodySpec>,
    /// `<option gravity>` (m/s²).
    pub gravity: [f64; 3],
    /// Sites of `<worldbody>` itself, in the world frame.
    pub world_sites: Vec<SiteSpec>,
}

/// The element kinds that `<default>` classes hold attributes for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Joint,
    Geom,
    Site,
}

impl Kind {
    fn of(tag: &str) -> Option<Kind> {
        match tag {
            "joint" => Some(Kind::Joint),
            "geom" => Some(Kind::Geom),
            "site" => Some(Kind::Site),
            _ => None,
        }
    }
}

/// The orientation attributes: an element or class that gives one of them
/// replaces every one its class gives.
const ORIENTATION: &[&str] = &["quat", "axisangle", "euler", "xyaxes", "zaxis"];

/// A `<default>` class with the attributes it gives, its parents' included.
#[derive(Clone, Debug, Default)]
struct Class {
    /// Attribute name to (value, element giving it), per element kind.
    attributes: BTreeMap<Kind, BTreeMap<String, (String, usize)>>,
}

/// The `<default>` classes by name; `main` is the top-level one.
struct Defaults {
    classes: BTreeMap<String, Class>,
}

impl Defaults {
    fn read(tree: &Tree, root: usize) -> Result<Defaults, ModelError> {
        let mut classes: BTreeMap<String, Class> = BTreeMap::new();
        classes.insert("main".into(), Class::default());
        // (element, name of the parent class)
        let mut stack: Vec<(usize, Option<String>)> = tree
            .children_tagged(root, "default")
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|d| (d, None))
            .collect();
        while let Some((element, parent)) = stack.pop() {
            let name = match (tree.attribute(element, "class"), &parent) {
                (Some(n), _) => n.to_string(),
                (None, None) => "main".to_string(),
                (None, Some(_)) => {
                    return Err(tree.error(element, "a nested <default> needs a `class` name"))
                }
            };
            let mut class = match &parent {
                Some(p) => classes[p].clone(),
                None => classes.get("main").cloned().unwrap_or_default(),
            };
            if parent.is_some() && classes.contains_key(&name) {
                return Err(tree.error(element, format!("a second default class `{name}`")));
            }
            for &child in &tree.get(element).children {
                let Some(kind) = Kind::of(&tree.get(child).tag) else {
                    continue;
                };
                let map = class.attributes.entry(kind).or_default();
                let own = &tree.get(child).attributes;
                if own.iter().any(|(k, _)| ORIENTATION.contains(&k.as_str())) {
                    map.retain(|k, _| !ORIENTATION.contains(&k.as_str()));
                }
                for (k, v) in own {
                    map.insert(k.clone(), (v.clone(), child));
                }
            }
            classes.insert(name.clone(), class);
            let nested: Vec<usize> = tree.children_tagged(element, "default").collect();
            stack.extend(nested.into_iter().rev().map(|d| (d, Some(name.clone()))));
        }
        Ok(Defaults { classes })
    }

    /// The class an element uses: its `class` attribute, else the
    /// enclosing `childclass`, else `main`.
    fn class_of<'a>(
        &'a self,
        tree: &Tree,
        element: usize,
        childclass: Option<&'a str>,
    ) -> Result<&'a Class, ModelError> {
        let name = tree
            .attribute(element, "class")
            .or(childclass)
            .unwrap_or("main");
        self.classes
            .get(name)
            .ok_or_else(|| tree.error(element, format!("unknown default class `{name}`")))
    }
}

/// An element with its class: attribute lookups fall back on the class.
struct Resolved<'a> {
    tree: &'a Tree,
    element: usize,
    class: Option<&'a BTreeMap<String, (String, usize)>>,
    /// Whether the element itself gives an orientation (then the class's is ignored).
    own_orientation: bool,
}

impl<'a> Resolved<'a> {
    fn new(tree: &'a Tree, element: usize, kind: Kind, class: Option<&'a Class>) -> Self {
        let own_orientation = tree
            .get(element)
            .attributes
            .iter()
            .any(|(k, _)| ORIENTATION.contains(&k.as_str()));
        Self {
            tree,
            element,
            class: class.and_then(|c| c.attributes.get(&kind)),
            own_orientation,
        }
    }

    fn get(&self, key: &'a str) -> Option<Value<'a>> {
        if let Some(text) = self.tree.attribute(self.element, key) {
            return Some(Value {
                text,
                element: self.element,
                key,
            });
        }
        if self.own_orientation && ORIENTATION.contains(&key) {
            return None;
        }
        self.class
            .and_then(|c| c.get(key))
            .map(|(text, element)| Value {
                text,
                element: *element,
                key,
            })
    }
}

impl Compiler {
    /// The rotation of an element's orientation attributes (MuJoCo's
    /// `quat`, `axisangle`, `euler`, `xyaxes`, `zaxis`; at most one).
    fn orientation(&self, tree: &Tree, r: &Resolved) -> Result<Matrix3<f64>, ModelError> {
        let given: Vec<Value> = ORIENTATION.iter().filter_map(|k| r.get(k)).collect();
        let Some(v) = given.first() else {
            return Ok(Matrix3::identity());
        };
        if given.len() > 1 {
            return Err(tree.error(
                v.element,
                format!(
                    "more than one orientation (`{}` and `{}`): give one",
                    given[0].key, given[1].key
                ),
            ));
        }
        let degenerate = |what: &str| tree.error(v.element, format!("`{}`: {what}", v.key));
        Ok(match v.key {
            "quat" => {
                let [w, x, y, z] = v.numbers::<4>(tree)?;
                let n = (w * w + x * x + y * y + z * z).sqrt();
                if n == 0.0 {
                    return Err(degenerate("a zero quaternion"));
                }
                Quaternion {
                    x: x / n,
                    y: y / n,
                    z: z / n,
                    w: w / n,
                }
                .to_rotation()
            }
            "axisangle" => {
                let [x, y, z, angle] = v.numbers::<4>(tree)?;
                let axis = unit([x, y, z]).ok_or_else(|| degenerate("a zero axis"))?;
                axis_angle(axis, angle * self.angle)
            }
            "euler" => {
                let angles = v.numbers::<3>(tree)?;
                let mut r = Matrix3::identity();
                for (&c, angle) in self.eulerseq.iter().zip(angles) {
                    let axis = match c.to_ascii_lowercase() {
                        b'x' => [1.0, 0.0, 0.0],
                        b'y' => [0.0, 1.0, 0.0],
                        _ => [0.0, 0.0, 1.0],
                    };
                    let step = axis_angle(axis, angle * self.angle);
                    // Lowercase: about the rotated (body) axes; uppercase: the fixed ones.
                    r = if c.is_ascii_lowercase() {
                        r * step
                    } else {
                        step * r
                    };
                }
                r
            }
            "xyaxes" => {
                let a = v.numbers::<6>(tree)?;
                let x = unit([a[0], a[1], a[2]]).ok_or_else(|| degenerate("a zero x axis"))?;
                let y = Vector3([a[3], a[4], a[5]]);
                let x = Vector3(x);
                let y = unit((y - x.scale(x.dot(&y))).0)
                    .ok_or_else(|| degenerate("y is parallel to x"))?;
                let z = x.cross(&Vector3(y));
                from_columns(x.0, y, z.0)
            }
            _ => {
                let z = v.numbers::<3>(tree)?;
                let z = unit(z).ok_or_else(|| degenerate("a zero axis"))?;
                z_to(z)
            }
        })
    }

    /// The placement given by `pos` and the orientation attributes.
    fn frame(&self, tree: &Tree, r: &Resolved) -> Result<Transform<f64>, ModelError> {
        let translation = match r.get("pos") {
            Some(v) => Vector3(v.numbers::<3>(tree)?),
            None => Vector3::zeros(),
        };
        Ok(Transform {
            rotation: self.orientation(tree, r)?,
            translation,
        })
    }

    /// The placement of a geom or site with a `fromto` (MuJoCo: the midpoint,
    /// z along the segment), with the segment's half length.
    fn fromto(&self, tree: &Tree, v: &Value) -> Result<(Transform<f64>, f64), ModelError> {
        let a = v.numbers::<6>(tree)?;
        let from = Vector3([a[0], a[1], a[2]]);
        let to = Vector3([a[3], a[4], a[5]]);
        let d = to - from;
        let length = d.dot(&d).sqrt();
        if length == 0.0 {
            return Err(tree.error(v.element, "`fromto`: the two points coincide"));
        }
        Ok((
            Transform {
                rotation: z_to(d.scale(1.0 / length).0),
                translation: (from + to).scale(0.5),
            },
            length / 2.0,
        ))
    }
}

/// `v / |v|`, `None` for a zero vector.
fn unit(v: [f64; 3]) -> Option<[f64; 3]> {
    let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    (n > 0.0).then(|| v.map(|x| x / n))
}

fn from_columns(x: [f64; 3], y: [f64; 3], z: [f64; 3]) -> Matrix3<f64> {
    Matrix3(core::array::from_fn(|i| [x[i], y[i], z[i]]))
}

/// The rotation by `angle` (rad) about the unit `axis`.
pub(super) fn axis_angle(axis: [f64; 3], angle: f64) -> Matrix3<f64> {
    let (s, c) = (angle / 2.0).sin_cos();
    Quaternion {
        x: axis[0] * s,
        y: axis[1] * s,
        z: axis[2] * s,
        w: c,
    }
    .to_rotation()
}

/// The smallest rotation taking z to the unit vector `z` (MuJoCo's
/// `mjuu_z2quat`: half a turn about x for `-z`).
fn z_to(z: [f64; 3]) -> Matrix3<f64> {
    let axis = [-z[1], z[0], 0.0];
    let s = (axis[0] * axis[0] + axis[1] * axis[1]).sqrt();
    if s < 1e-10 {
        return if z[2] < 0.0 {
            axis_angle([1.0, 0.0, 0.0], std::f64::consts::PI)
        } else {
            Matrix3::identity()
        };
    }
    axis_angle(axis.map(|a| a / s), s.atan2(z[2]))
}

/// Elements under `<body>` (or `<worldbody>`) that would change the model and
/// are not read: refused rather than ignored.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("frame", "<frame> (MuJoCo 3 grouping frames) is not supported: move its children into the body with their placements composed"),
    ("composite", "<composite> is not supported: expand it into bodies and joints (MuJoCo's compiled model, saved with mj_saveLastXML, has them)"),
    ("flexcomp", "<flexcomp> (deformable bodies) is not supported"),
    ("replicate", "<replicate> is not supported: expand it into bodies (mj_saveLastXML)"),
    ("attach", "<attach> (model composition) is not supported: expand it (mj_saveLastXML)"),
];

impl Spec {
    /// Reads the model of an element tree.
    pub fn read(tree: &Tree) -> Result<Spec, ModelError> {
        let root = 0;
        let compiler = Compiler::read(tree, root)?;
        let defaults = Defaults::read(tree, root)?;
        let name = tree
            .attribute(root, "model")
            .unwrap_or("MuJoCo Model")
            .to_string();
        let mut gravity = [0.0, 0.0, -9.81];
        for option in tree.children_tagged(root, "option") {
            if let Some(text) = tree.attribute(option, "gravity") {
                gravity = Value {
                    text,
                    element: option,
                    key: "gravity",
                }
                .numbers::<3>(tree)?;
            }
        }
        let mut reader = Reader {
            tree,
            compiler: &compiler,
            defaults: &defaults,
            bodies: Vec::new(),
            world_sites: Vec::new(),
        };
        for world in tree.children_tagged(root, "worldbody").collect::<Vec<_>>() {
            reader.worldbody(world)?;
        }
        let (mut bodies, world_sites) = (reader.bodies, reader.world_sites);
        apply_mass_settings(tree, &compiler, &mut bodies)?;
        Ok(Spec {
            name,
            bodies,
            gravity,
            world_sites,
        })
    }
}

struct Reader<'a> {
    tree: &'a Tree,
    compiler: &'a Compiler,
    defaults: &'a Defaults,
    bodies: Vec<BodySpec>,
    world_sites: Vec<SiteSpec>,
}

impl Reader<'_> {
    /// Reads the bodies under one `<worldbody>`, depth-first in document order.
    fn worldbody(&mut self, world: usize) -> Result<(), ModelError> {
        let tree = self.tree;
        for &child in &tree.get(world).children {
            if let Some((_, why)) = UNSUPPORTED.iter().find(|(t, _)| *t == tree.get(child).tag) {
                return Err(tree.error(child, *why));
            }
            if matches!(tree.get(child).tag.as_str(), "joint" | "freejoint") {
                return Err(
                    tree.error(child, "a joint directly in <worldbody>: put it in a <body>")
                );
            }
            if tree.get(child).tag == "site" {
                let k = self.world_sites.len();
                let site = self.site(child, "world", k, None)?;
                self.world_sites.push(site);
            }
        }
        // (element, parent body, childclass in force)
        let mut stack: Vec<(usize, Option<usize>, Option<String>)> = tree
            .children_tagged(world, "body")
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .map(|b| (b, None, None))
            .collect();
        while let Some((element, parent, childclass)) = stack.pop() {
            let childclass = tree
                .attribute(element, "childclass")
                .map(str::to_string)
                .or(childclass);
            if let Some(c) = &childclass {
                if !self.defaults.classes.contains_key(c) {
                    return Err(tree.error(element, format!("unknown default class `{c}`")));
                }
            }
            let index = self.body(element, parent, childclass.as_deref())?;
            let children: Vec<usize> = tree.children_tagged(element, "body").collect();
            stack.extend(
                children
                    .into_iter()
                    .rev()
                    .map(|b| (b, Some(index), childclass.clone())),
            );
        }
        Ok(())
    }

    /// Reads one body (not its child bodies) and returns its index.
    fn body(
        &mut self,
        element: usize,
        parent: Option<usize>,
        childclass: Option<&str>,
    ) -> Result<usize, ModelError> {
        let tree = self.tree;
        let name = match tree.attribute(element, "name") {
            Some(n) => n.to_string(),
            None => {
                let parent_name = parent.map_or("", |p| self.bodies[p].name.as_str());
                format!("{parent_name}Bis")
            }
        };
        if let Some(other) = self.bodies.iter().find(|b| b.name == name) {
            return Err(tree.error(
                element,
                format!(
                    "a second body named `{name}` (the first at line {}){}",
                    tree.get(other.element).line,
                    if tree.attribute(element, "name").is_none() {
                        "; an unnamed body is named after its parent + `Bis`, as Pinocchio \
                         does: name the bodies"
                    } else {
                        ""
                    }
                ),
            ));
        }
        let placement = self
            .compiler
            .frame(tree, &Resolved::new(tree, element, Kind::Site, None))?;
        let mut joints = Vec::new();
        let mut geoms = Vec::new();
        let mut sites = Vec::new();
        let mut inertial = None;
        for &child in &tree.get(element).children {
            let tag = tree.get(child).tag.as_str();
            if let Some((_, why)) = UNSUPPORTED.iter().find(|(t, _)| *t == tag) {
                return Err(tree.error(child, *why));
            }
            match tag {
                "joint" | "freejoint" => {
                    let joint = self.joint(child, &name, joints.len(), childclass)?;
                    if joint.kind == JointType::Free && parent.is_some() {
                        return Err(tree.error(
                            child,
                            "a free joint below a top-level body: MuJoCo allows free joints \
                             only in children of <worldbody>",
                        ));
                    }
                    if let Some(other) = self
                        .bodies
                        .iter()
                        .flat_map(|b| &b.joints)
                        .chain(&joints)
                        .find(|j| j.name == joint.name)
                    {
                        return Err(tree.error(
                            child,
                            format!(
                                "a second joint named `{}` (the first at line {})",
                                joint.name,
                                tree.get(other.element).line
                            ),
                        ));
                    }
                    joints.push(joint);
                }
                "geom" => geoms.push(self.geom(child, childclass)?),
                "site" => sites.push(self.site(child, &name, sites.len(), childclass)?),
                "inertial" => {
                    if inertial.is_some() {
                        return Err(tree.error(child, "a second <inertial> in one body"));
                    }
                    inertial = Some(self.inertial(child)?);
                }
                _ => {}
            }
        }
        if joints.len() > 1 && joints.iter().any(|j| j.kind == JointType::Free) {
            let free = joints.iter().find(|j| j.kind == JointType::Free).unwrap();
            return Err(tree.error(
                free.element,
                "a free joint with other joints in the same body: a free joint must be \
                 its body's only joint",
            ));
        }
        let inertia = match (self.compiler.from_geom, inertial) {
            (FromGeom::Always, _) | (FromGeom::Auto, None) => {
                geom::body_inertia(tree, self.compiler, element, &geoms)?
            }
            (_, Some(i)) => i,
            (FromGeom::Never, None) => {
                return Err(tree.error(
                    element,
                    "no <inertial>, and `<compiler inertiafromgeom=\"false\">` forbids \
                     computing it from the geoms: give the body an <inertial>",
                ))
            }
        };
        self.bodies.push(BodySpec {
            name,
            element,
            parent,
            placement,
            joints,
            inertia,
            sites,
        });
        Ok(self.bodies.len() - 1)
    }

    fn joint(
        &self,
        element: usize,
        body: &str,
        k: usize,
        childclass: Option<&str>,
    ) -> Result<JointSpec, ModelError> {
        let tree = self.tree;
        let free_element = tree.get(element).tag == "freejoint";
        // <freejoint> takes no attributes from default classes.
        let class = if free_element {
            None
        } else {
            Some(self.defaults.class_of(tree, element, childclass)?)
        };
        let r = Resolved::new(tree, element, Kind::Joint, class);
        let name = match tree.attribute(element, "name") {
            Some(n) => n.to_string(),
            None if free_element => format!("{body}_free"),
            None => format!("{body}Joint_{k}"),
        };
        let type_name = if free_element {
            "free"
        } else {
            match r.get("type") {
                Some(v) => v.keyword(tree, &["hinge", "slide", "ball", "free"])?,
                None => "hinge",
            }
        };
        let axis = || -> Result<[f64; 3], ModelError> {
            let (a, at) = match r.get("axis") {
                Some(v) => (v.numbers::<3>(tree)?, v.element),
                None => ([0.0, 0.0, 1.0], element),
            };
            unit(a).ok_or_else(|| tree.error(at, "`axis` is zero"))
        };
        let kind = match type_name {
            "hinge" => JointType::Hinge(axis()?),
            "slide" => JointType::Slide(axis()?),
            "ball" => JointType::Ball,
            _ => JointType::Free,
        };
        let pos = match r.get("pos") {
            Some(v) if kind != JointType::Free => v.numbers::<3>(tree)?,
            _ => [0.0; 3],
        };
        // Angles of hinges are in the compiler's unit; slides are in metres.
        let unit_of = |x: f64| match kind {
            JointType::Hinge(_) => x * self.compiler.angle,
            _ => x,
        };
        let reference = match r.get("ref") {
            Some(v) => {
                let x = v.number(tree)?;
                if x != 0.0 && matches!(kind, JointType::Ball | JointType::Free) {
                    return Err(
                        tree.error(v.element, "`ref` applies to hinge and slide joints only")
                    );
                }
                unit_of(x)
            }
            None => 0.0,
        };
        let armature = match r.get("armature") {
            Some(v) => {
                let a = v.number(tree)?;
                if a < 0.0 {
                    return Err(tree.error(v.element, format!("negative `armature` {a}")));
                }
                a
            }
            None => 0.0,
        };
        let limited = |flag: &'static str, range: Option<Value>| -> Result<bool, ModelError> {
            match r.get(flag) {
                Some(v) => match v.keyword(tree, &["true", "false", "auto"])? {
                    "true" => Ok(true),
                    "false" => Ok(false),
                    _ => Ok(range.is_some() && self.compiler.autolimits),
                },
                None => Ok(range.is_some() && self.compiler.autolimits),
            }
        };
        let range_value = r.get("range");
        let range = match range_value {
            Some(v) if limited("limited", range_value)? => {
                let [lo, hi] = v.numbers::<2>(tree)?;
                if lo > hi {
                    return Err(tree.error(v.element, format!("`range` {lo} > {hi}")));
                }
                matches!(kind, JointType::Hinge(_) | JointType::Slide(_))
                    .then(|| (unit_of(lo), unit_of(hi)))
            }
            Some(v) => {
                v.numbers::<2>(tree)?;
                None
            }
            None => None,
        };
        let force_value = r.get("actuatorfrcrange");
        let effort = match force_value {
            Some(v) if limited("actuatorfrclimited", force_value)? => {
                let [lo, hi] = v.numbers::<2>(tree)?;
                Some(lo.abs().max(hi.abs()))
            }
            Some(v) => {
                v.numbers::<2>(tree)?;
                None
            }
            None => None,
        };
        Ok(JointSpec {
            name,
            element,
            kind,
            pos,
            reference,
            armature,
            range,
            effort,
        })
    }

    fn geom(&self, element: usize, childclass: Option<&str>) -> Result<Geom, ModelError> {
        let tree = self.tree;
        let class = self.defaults.class_of(tree, element, childclass)?;
        let r = Resolved::new(tree, element, Kind::Geom, Some(class));
        let type_name = match r.get("type") {
            Some(v) => v.keyword(
                tree,
                &[
                    "plane",
                    "hfield",
                    "sphere",
                    "capsule",
                    "ellipsoid",
                    "cylinder",
                    "box",
                    "mesh",
                    "sdf",
                ],
            )?,
            None => "sphere",
        };
        let size = match r.get("size") {
            Some(v) => {
                let s = v.list(tree)?;
                if s.is_empty() || s.len() > 3 {
                    return Err(tree.error(
                        v.element,
                        format!("`size` must be 1 to 3 numbers, found `{}`", v.text),
                    ));
                }
                s
            }
            None => Vec::new(),
        };
        let size_at = |k: usize| size.get(k).copied().unwrap_or(0.0);
        let (placement, half_length) = match r.get("fromto") {
            Some(v) if matches!(type_name, "capsule" | "cylinder" | "box" | "ellipsoid") => {
                let (p, h) = self.compiler.fromto(tree, &v)?;
                (p, Some(h))
            }
            Some(v) => {
                return Err(tree.error(
                    v.element,
                    format!("`fromto` cannot place a geom of type `{type_name}`"),
                ))
            }
            None => (self.compiler.frame(tree, &r)?, None),
        };
        let shape = match type_name {
            "sphere" => GeomShape::Sphere(size_at(0)),
            "capsule" => GeomShape::Capsule(size_at(0), half_length.unwrap_or(size_at(1))),
            "cylinder" => GeomShape::Cylinder(size_at(0), half_length.unwrap_or(size_at(1))),
            "ellipsoid" => match half_length {
                Some(h) => GeomShape::Ellipsoid([size_at(0), size_at(0), h]),
                None => GeomShape::Ellipsoid([size_at(0), size_at(1), size_at(2)]),
            },
            "box" => match half_length {
                Some(h) => GeomShape::Box([size_at(0), size_at(0), h]),
                None => GeomShape::Box([size_at(0), size_at(1), size_at(2)]),
            },
            "plane" | "hfield" => GeomShape::Surface,
            _ => GeomShape::Unsupported(type_name.to_string()),
        };
        let int = |key: &'static str, default: i64| -> Result<i64, ModelError> {
            match r.get(key) {
                Some(v) => {
                    let x = v.number(tree)?;
                    if x.fract() != 0.0 {
                        return Err(tree.error(
                            v.element,
                            format!("`{key}` must be an integer, found `{}`", v.text),
                        ));
                    }
                    Ok(x as i64)
                }
                None => Ok(default),
            }
        };
        let mass = r.get("mass").map(|v| v.number(tree)).transpose()?;
        let density = r
            .get("density")
            .map(|v| v.number(tree))
            .transpose()?
            .unwrap_or(1000.0);
        if let Some(v) = r.get("shellinertia") {
            if v.boolean(tree)? {
                return Err(tree.error(
                    v.element,
                    "`shellinertia=\"true\"` is not supported: give the body an <inertial>",
                ));
            }
        }
        Ok(Geom {
            element,
            shape,
            placement,
            mass,
            density,
            group: int("group", 0)?,
            visual: int("contype", 1)? == 0 && int("conaffinity", 1)? == 0,
        })
    }

    fn site(
        &self,
        element: usize,
        body: &str,
        k: usize,
        childclass: Option<&str>,
    ) -> Result<SiteSpec, ModelError> {
        let tree = self.tree;
        let class = self.defaults.class_of(tree, element, childclass)?;
        let r = Resolved::new(tree, element, Kind::Site, Some(class));
        let placement = match r.get("fromto") {
            Some(v) => self.compiler.fromto(tree, &v)?.0,
            None => self.compiler.frame(tree, &r)?,
        };
        let name = match tree.attribute(element, "name") {
            Some(n) => n.to_string(),
            None => format!("{body}Site_{k}"),
        };
        Ok(SiteSpec { name, placement })
    }

    /// An `<inertial>`: the body's inertia in the body frame.
    fn inertial(&self, element: usize) -> Result<Inertia<f64>, ModelError> {
        let tree = self.tree;
        let r = Resolved::new(tree, element, Kind::Site, None);
        let required = |key: &'static str| {
            r.get(key)
                .ok_or_else(|| tree.error(element, format!("missing `{key}` attribute")))
        };
        let mass = required("mass")?.number(tree)?;
        if mass < 0.0 {
            return Err(tree.error(element, format!("negative `mass` {mass}")));
        }
        let com = Vector3(required("pos")?.numbers::<3>(tree)?);
        let rotation = self.compiler.orientation(tree, &r)?;
        let at_com = match (r.get("diaginertia"), r.get("fullinertia")) {
            (Some(_), Some(_)) => {
                return Err(tree.error(element, "both `diaginertia` and `fullinertia`: give one"))
            }
            (Some(v), None) => {
                let [a, b, c] = v.numbers::<3>(tree)?;
                Matrix3([[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]])
            }
            (None, Some(v)) => {
                let [xx, yy, zz, xy, xz, yz] = v.numbers::<6>(tree)?;
                Matrix3([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
            }
            (None, None) => {
                return Err(tree.error(element, "missing `diaginertia` or `fullinertia` attribute"))
            }
        };
        geom::check_inertia(tree, element, mass, &at_com)?;
        Ok(Inertia::from_com(
            mass,
            com,
            at_com.rotate_symmetric(&rotation),
        ))
    }
}

/// `boundmass`, `boundinertia`, then `settotalmass`, as MuJoCo's compiler
/// applies them to every body.
fn apply_mass_settings(
    tree: &Tree,
    compiler: &Compiler,
    bodies: &mut [BodySpec],
) -> Result<(), ModelError> {
    if compiler.boundmass > 0.0 || compiler.boundinertia > 0.0 {
        for body in bodies.iter_mut() {
            body.inertia = geom::bounded(&body.inertia, compiler.boundmass, compiler.boundinertia);
        }
    }
    if let Some((total, element)) = compiler.settotalmass {
        let current: f64 = bodies.iter().map(|b| b.inertia.mass).sum();
        if current <= 0.0 {
            return Err(tree.error(
                element,
                format!("`settotalmass` {total}: the bodies have no mass to scale"),
            ));
        }
        let k = total / current;
        for body in bodies.iter_mut() {
            let i = &mut body.inertia;
            i.mass *= k;
            i.first_moment = i.first_moment.scale(k);
            i.rotational = i.rotational.scale(k);
        }
    }
    Ok(())
}
