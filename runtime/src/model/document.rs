//! The first pass of the URDF loader: the XML itself. One streaming pass (no
//! recursion, so no stack overflow on deep nesting) checks that the text is
//! well-formed XML with a `<robot>` root, not nested absurdly deep, and that
//! the links and joints carry the attributes and numbers the model needs; its
//! errors name the element (the link or joint, or the line of a nameless one),
//! which the URDF parser's do not.
//!
//! The pass also keeps only what a model is made of: `<robot>`, each
//! `<link>` with its `<inertial>`, and each `<joint>` with its children.
//! Visuals, collisions, materials and extension tags (`<gazebo>`,
//! `<transmission>`, namespaced elements) never reach the URDF parser, so a
//! defect there (a `<texture/>` without a file name, as in some published
//! robots) does not stop dynamics, just as Pinocchio's model builder ignores
//! geometry.

use std::collections::HashSet;
use std::fmt::Write;

use xml::common::Position;
use xml::reader::{ParserConfig, XmlEvent};

use crate::error::ModelError;

/// The xacro namespace: its elements (but [`XACRO_INERT`]) are macros,
/// includes, calls and conditions that only `xacro` expands.
const XACRO: &str = "http://www.ros.org/wiki/xacro";

/// Xacro elements that change no model by themselves (a property is used
/// through `${...}`, which is refused on its own).
const XACRO_INERT: &[&str] = &["property", "arg"];

/// Elements nested deeper than this are refused (a URDF needs about 6 levels).
pub(crate) const MAX_DEPTH: usize = 64;

/// Attributes holding numbers: (element, attribute, count, required).
const NUMBERS: &[(&str, &str, usize, bool)] = &[
    ("origin", "xyz", 3, false),
    ("origin", "rpy", 3, false),
    ("mass", "value", 1, true),
    ("inertia", "ixx", 1, true),
    ("inertia", "ixy", 1, true),
    ("inertia", "ixz", 1, true),
    ("inertia", "iyy", 1, true),
    ("inertia", "iyz", 1, true),
    ("inertia", "izz", 1, true),
    ("axis", "xyz", 3, true),
    ("limit", "lower", 1, false),
    ("limit", "upper", 1, false),
    ("limit", "effort", 1, false),
    ("limit", "velocity", 1, true),
    ("dynamics", "damping", 1, false),
    ("dynamics", "friction", 1, false),
    ("mimic", "multiplier", 1, false),
    ("mimic", "offset", 1, false),
    ("calibration", "rising", 1, false),
    ("calibration", "falling", 1, false),
    ("safety_controller", "soft_lower_limit", 1, false),
    ("safety_controller", "soft_upper_limit", 1, false),
    ("safety_controller", "k_position", 1, false),
    ("safety_controller", "k_velocity", 1, true),
];

/// Attributes holding names: (element, attribute), all required.
const NAMES: &[(&str, &str)] = &[
    ("link", "name"),
    ("joint", "name"),
    ("joint", "type"),
    ("parent", "link"),
    ("child", "link"),
    ("mimic", "joint"),
];

/// Child elements that must be present: (element, children).
const CHILDREN: &[(&str, &[&str])] = &[
    ("joint", &["parent", "child"]),
    ("inertial", &["mass", "inertia"]),
];

/// The joint types the URDF parser knows; any other is refused here by name.
const JOINT_TYPES: &[&str] = &[
    "revolute",
    "continuous",
    "prismatic",
    "fixed",
    "floating",
    "planar",
    "spherical",
];

/// The elements of the URDF format under `<robot>`, and the extension tags
/// that tools put there (Gazebo's, ros2_control's): any other is reported.
const ROBOT_CHILDREN: &[&str] = &[
    "link",
    "joint",
    "material",
    "transmission",
    "gazebo",
    "ros2_control",
    "sensor",
];

/// The children of each element that the loader reads, as the URDF format
/// defines them, with the extensions tools write in a link (PyBullet's
/// `<contact>`, Gazebo's `<gravity>`, `<kinematic>` and `<surface>`,
/// `<self_filter>`, `<collision_checking>`): any other is reported.
const KNOWN_CHILDREN: &[(&str, &[&str])] = &[
    (
        "link",
        &[
            "inertial",
            "visual",
            "collision",
            "contact",
            "gravity",
            "kinematic",
            "surface",
            "self_filter",
            "collision_checking",
            "self_collision_checking",
        ],
    ),
    ("inertial", &["origin", "mass", "inertia"]),
    (
        "joint",
        &[
            "origin",
            "parent",
            "child",
            "axis",
            "calibration",
            "dynamics",
            "limit",
            "mimic",
            "safety_controller",
        ],
    ),
];

/// The attributes of each element that the loader reads, with the
/// extensions that robots' files carry (SDFormat's `dont_collapse` on a
/// fixed joint, Franka's friction model in `<dynamics>`, PAL's motor data
/// in `<limit>`): any other is reported.
const KNOWN_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("robot", &["name", "version"]),
    ("link", &["name", "type"]),
    ("joint", &["name", "type", "dont_collapse"]),
    ("origin", &["xyz", "rpy"]),
    ("mass", &["value"]),
    ("inertia", &["ixx", "ixy", "ixz", "iyy", "iyz", "izz"]),
    ("parent", &["link"]),
    ("child", &["link"]),
    ("axis", &["xyz"]),
    ("calibration", &["rising", "falling", "reference_position"]),
    (
        "dynamics",
        &["damping", "friction", "D", "K", "mu_coulomb", "mu_viscous"],
    ),
    (
        "limit",
        &[
            "lower",
            "upper",
            "effort",
            "velocity",
            "gear_velocity",
            "current",
            "command_effort",
        ],
    ),
    ("mimic", &["joint", "multiplier", "offset"]),
    (
        "safety_controller",
        &[
            "soft_lower_limit",
            "soft_upper_limit",
            "k_position",
            "k_velocity",
        ],
    ),
];

/// An element or attribute the URDF format does not have, where the loader
/// reads ([`ModelError::UnknownElement`] says it).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Unknown {
    /// `` element `<inertal>` `` or `` attribute `xyzz` of `<origin>` ``.
    pub(crate) what: String,
    /// ``link `base` `` or `` `<robot>` ``.
    pub(crate) parent: String,
    /// Its line.
    pub(crate) line: u64,
    /// ``; did you mean `<inertial>`?`` or empty.
    pub(crate) hint: String,
}

impl Unknown {
    /// As the warning or error the loaders report.
    pub(crate) fn to_error(&self) -> ModelError {
        ModelError::UnknownElement {
            what: self.what.clone(),
            parent: self.parent.clone(),
            line: self.line,
            hint: self.hint.clone(),
        }
    }

    /// `error` as a model that could not be built from a document with the
    /// unknown elements and attributes `unknown` (any of them may be the
    /// cause): [`ModelError::WithUnknownElement`] naming them all, or
    /// `error` itself when there are none.
    pub(crate) fn note_on(error: ModelError, unknown: &[Unknown]) -> ModelError {
        if unknown.is_empty() {
            return error;
        }
        ModelError::WithUnknownElement {
            source: Box::new(error),
            unknown: unknown
                .iter()
                .map(|u| u.to_error().to_string())
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// The unknown children of `tag` among its attributes `attributes` (when the
/// loader reads `tag`), then `tag` itself when its parent `parent_tag` has
/// known children and it is none of them; `parent` names where it is.
fn unknowns(
    tag: &str,
    parent_tag: &str,
    attributes: &[(&str, &str)],
    parent: &str,
    line: u64,
    out: &mut Vec<Unknown>,
) {
    let known_children = match parent_tag {
        "robot" => Some(ROBOT_CHILDREN),
        _ => KNOWN_CHILDREN
            .iter()
            .find(|(t, _)| *t == parent_tag)
            .map(|(_, c)| *c),
    };
    if let Some(children) = known_children {
        if !children.contains(&tag) {
            let hint = crate::error::nearest(tag, children.iter().copied())
                .map_or_else(String::new, |k| format!("; did you mean `<{k}>`?"));
            out.push(Unknown {
                what: format!("element `<{tag}>`"),
                parent: parent.to_string(),
                line,
                hint,
            });
            return;
        }
    }
    if let Some((_, known)) = KNOWN_ATTRIBUTES.iter().find(|(t, _)| *t == tag) {
        for (key, _) in attributes.iter().filter(|(k, _)| !known.contains(k)) {
            out.push(Unknown {
                what: format!("attribute `{key}` of `<{tag}>`"),
                parent: parent.to_string(),
                line,
                hint: crate::error::did_you_mean(key, known.iter().copied()),
            });
        }
    }
}

/// A `<link>` or `<joint>` under `<robot>` being read.
struct Item {
    /// How errors name it: ``joint `j` `` or `` `<joint>` at line 7 ``.
    label: String,
    /// `link` or `joint`.
    tag: String,
    /// The depth of its element.
    depth: usize,
    /// Its child element being read (`inertial`, `visual`, `origin`, ...).
    section: String,
    /// Open elements with required children: (element, depth, children seen).
    open: Vec<(String, usize, HashSet<String>)>,
}

impl Item {
    /// Whether the element at `depth` is part of the model: a joint's own
    /// children, a link's inertial.
    fn keeps(&self, depth: usize) -> bool {
        depth == self.depth
            || match self.tag.as_str() {
                "joint" => depth == self.depth + 1,
                _ => self.section == "inertial",
            }
    }
}

/// Checks a URDF document and returns the part of it that a model is made of,
/// as XML text; see the module documentation.
///
/// # Errors
/// [`ModelError::Parse`] for malformed XML (with line and column) or nesting
/// deeper than [`MAX_DEPTH`], [`ModelError::NotARobot`] for another root
/// element, [`ModelError::Missing`] for a required attribute or child element,
/// [`ModelError::NotANumber`] for an attribute that does not hold the numbers
/// it must, [`ModelError::UnsupportedJoint`] for an unknown joint type.
pub(crate) fn reduce(text: &str) -> Result<String, ModelError> {
    reduce_with_unknowns(text).map(|(reduced, _)| reduced)
}

/// [`reduce`], and the elements and attributes of `<robot>`, its links and
/// joints and their inertials that the URDF format does not have, in the
/// order of the document ([`Unknown`]).
///
/// # Errors
/// As [`reduce`].
pub(crate) fn reduce_with_unknowns(text: &str) -> Result<(String, Vec<Unknown>), ModelError> {
    let mut unknown = Vec::new();
    let mut reader = ParserConfig::new()
        .ignore_comments(true)
        .create_reader(text.as_bytes());
    let mut out = String::with_capacity(text.len() / 2);
    let mut depth = 0;
    let mut item: Option<Item> = None;
    // Depths of the elements written to `out` and not closed yet.
    let mut written: Vec<usize> = Vec::new();
    loop {
        let event = reader.next().map_err(|e| {
            let p = e.position();
            ModelError::Parse(format!(
                "line {}, column {}: {}",
                p.row + 1,
                p.column + 1,
                e.msg()
            ))
        })?;
        let line = reader.position().row + 1;
        match event {
            XmlEvent::StartElement {
                name, attributes, ..
            } => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(ModelError::Parse(format!(
                        "line {line}: elements nested deeper than {MAX_DEPTH} levels"
                    )));
                }
                if name.namespace.as_deref() == Some(XACRO)
                    && !XACRO_INERT.contains(&&*name.local_name)
                {
                    return Err(ModelError::Xacro {
                        line,
                        what: format!("`<xacro:{}>`", name.local_name),
                    });
                }
                if let Some(a) = attributes
                    .iter()
                    .find(|a| a.value.contains("${") || a.value.contains("$("))
                {
                    return Err(ModelError::Xacro {
                        line,
                        what: format!(
                            "`{}` in `{} {}`",
                            a.value, name.local_name, a.name.local_name
                        ),
                    });
                }
                if name.prefix.is_some() {
                    continue;
                }
                let tag = name.local_name.as_str();
                let attributes: Vec<(&str, &str)> = attributes
                    .iter()
                    .filter(|a| a.name.prefix.is_none())
                    .map(|a| (a.name.local_name.as_str(), a.value.as_str()))
                    .collect();
                let attr = |key: &str| attributes.iter().find(|a| a.0 == key).map(|a| a.1);
                if depth == 1 {
                    if tag != "robot" {
                        return Err(ModelError::NotARobot(tag.to_string()));
                    }
                    unknowns(tag, "", &attributes, "`<robot>`", line, &mut unknown);
                    let kept: Vec<(&str, &str)> = attributes
                        .iter()
                        .copied()
                        .filter(|(k, _)| matches!(*k, "name" | "version"))
                        .collect();
                    write_start(&mut out, tag, &kept);
                    written.push(depth);
                    continue;
                }
                if depth == 2 {
                    unknowns(tag, "robot", &attributes, "`<robot>`", line, &mut unknown);
                    item = matches!(tag, "link" | "joint").then(|| Item {
                        label: match attr("name") {
                            Some(n) => format!("{tag} `{n}`"),
                            None => format!("`<{tag}>` at line {line}"),
                        },
                        tag: tag.to_string(),
                        depth,
                        section: String::new(),
                        open: Vec::new(),
                    });
                }
                let Some(item) = item.as_mut() else { continue };
                if depth == item.depth + 1 {
                    item.section = tag.to_string();
                    unknowns(tag, &item.tag, &attributes, &item.label, line, &mut unknown);
                } else if depth == item.depth + 2
                    && item.tag == "link"
                    && item.section == "inertial"
                {
                    unknowns(
                        tag,
                        "inertial",
                        &attributes,
                        &item.label,
                        line,
                        &mut unknown,
                    );
                }
                if item.keeps(depth) && written.last() == Some(&(depth - 1)) {
                    check_element(item, tag, &attr, depth)?;
                    write_start(&mut out, tag, &attributes);
                    written.push(depth);
                }
            }
            XmlEvent::EndElement { name } => {
                if let Some(it) = item.as_mut() {
                    if name.prefix.is_none() {
                        close_element(it, depth)?;
                    }
                    if depth == it.depth {
                        item = None;
                    }
                }
                if written.last() == Some(&depth) {
                    written.pop();
                    let _ = write!(out, "</{}>", name.local_name);
                }
                depth -= 1;
            }
            XmlEvent::EndDocument => return Ok((out, unknown)),
            _ => {}
        }
    }
}

/// Writes `<tag a="v" ...>` with the values escaped.
fn write_start(out: &mut String, tag: &str, attributes: &[(&str, &str)]) {
    let _ = write!(out, "<{tag}");
    for (key, value) in attributes {
        let _ = write!(out, " {key}=\"");
        for c in value.chars() {
            match c {
                '&' => out.push_str("&amp;"),
                '<' => out.push_str("&lt;"),
                '>' => out.push_str("&gt;"),
                '"' => out.push_str("&quot;"),
                c => out.push(c),
            }
        }
        out.push('"');
    }
    out.push('>');
}

/// The checks of one element of a link or joint.
fn check_element<'a>(
    item: &mut Item,
    tag: &str,
    attr: &impl Fn(&str) -> Option<&'a str>,
    depth: usize,
) -> Result<(), ModelError> {
    if let Some((_, open_depth, seen)) = item.open.last_mut() {
        if depth == *open_depth + 1 {
            seen.insert(tag.to_string());
        }
    }
    let missing = |what: String| ModelError::Missing {
        element: item.label.clone(),
        what,
    };
    for &(_, key) in NAMES.iter().filter(|(t, _)| *t == tag) {
        if attr(key).is_none() {
            let what = if depth == item.depth {
                format!("`{key}` attribute")
            } else {
                format!("`{key}` attribute of `<{tag}>`")
            };
            return Err(missing(what));
        }
    }
    for &(_, key, count, required) in NUMBERS.iter().filter(|(t, ..)| *t == tag) {
        match attr(key) {
            None if required => {
                return Err(missing(format!("`{key}` attribute of `<{tag}>`")));
            }
            None => {}
            Some(value) => {
                let numbers: Vec<&str> = value.split_whitespace().collect();
                if numbers.len() != count || numbers.iter().any(|x| x.parse::<f64>().is_err()) {
                    return Err(ModelError::NotANumber {
                        element: item.label.clone(),
                        field: format!("{tag} {key}"),
                        expected: if count == 1 {
                            "a number".into()
                        } else {
                            format!("{count} numbers")
                        },
                        value: value.to_string(),
                    });
                }
            }
        }
    }
    if tag == "joint" && depth == item.depth {
        let kind = attr("type").unwrap_or_default();
        if !JOINT_TYPES.contains(&kind) {
            return Err(ModelError::UnsupportedJoint {
                joint: attr("name").unwrap_or_default().to_string(),
                kind: kind.to_string(),
            });
        }
    }
    if CHILDREN.iter().any(|(t, _)| *t == tag) {
        item.open.push((tag.to_string(), depth, HashSet::new()));
    }
    Ok(())
}

/// At the end of an element: are its required children there?
fn close_element(item: &mut Item, depth: usize) -> Result<(), ModelError> {
    let Some((tag, open_depth, seen)) = item.open.last() else {
        return Ok(());
    };
    if *open_depth != depth {
        return Ok(());
    }
    let required = CHILDREN
        .iter()
        .find(|(t, _)| t == tag)
        .map_or(&[][..], |(_, c)| c);
    if let Some(child) = required.iter().find(|c| !seen.contains(**c)) {
        let what = if depth == item.depth {
            format!("`<{child}>` element")
        } else {
            format!("`<{child}>` element in `<{tag}>`")
        };
        return Err(ModelError::Missing {
            element: item.label.clone(),
            what,
        });
    }
    item.open.pop();
    Ok(())
}
