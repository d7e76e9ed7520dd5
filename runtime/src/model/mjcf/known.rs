//! The elements and attributes MuJoCo defines for the MJCF elements rbdgen
//! reads, after MuJoCo's schema (`XMLreference`, the `MJCF` table of
//! `xml_native_reader.cc`, with the attributes of older releases that
//! published models still carry): any other child element or attribute of
//! `<mujoco>`, `<compiler>`, `<option>`, `<default>`, `<worldbody>`, a
//! `<body>` or its `<inertial>`, `<joint>`, `<freejoint>`, `<geom>` or
//! `<site>` (in a body or a default class) is reported
//! ([`crate::ModelError::UnknownElement`]): a misspelled `<inertal>` would
//! leave the body's inertia to its geoms, a `pso` its joint at the origin.
//! What MuJoCo defines and rbdgen does not read (`<actuator>`, `<sensor>`,
//! `<asset>`, a geom's `rgba` or `friction`, a joint's `damping`) stays
//! quiet, and so do the insides of elements rbdgen does not read.

use super::xml::Tree;
use crate::model::document::Unknown;

/// The orientation attributes of a frame (MuJoCo's alternatives to `quat`).
const ORIENTATION: &[&str] = &["quat", "axisangle", "xyaxes", "zaxis", "euler"];

/// The children of `<mujoco>`.
const MUJOCO_CHILDREN: &[&str] = &[
    "compiler",
    "option",
    "size",
    "visual",
    "statistic",
    "default",
    "extension",
    "custom",
    "asset",
    "worldbody",
    "contact",
    "deformable",
    "equality",
    "tendon",
    "actuator",
    "sensor",
    "keyframe",
    "include",
];

/// The children of `<body>` and `<worldbody>`, those rbdgen refuses
/// (`<frame>`, `<composite>`, ...) included: they get their own error.
const BODY_CHILDREN: &[&str] = &[
    "body",
    "inertial",
    "joint",
    "freejoint",
    "geom",
    "site",
    "camera",
    "light",
    "plugin",
    "attach",
    "frame",
    "replicate",
    "composite",
    "flexcomp",
    "include",
];

/// The children of `<default>`.
const DEFAULT_CHILDREN: &[&str] = &[
    "default",
    "mesh",
    "material",
    "joint",
    "geom",
    "site",
    "camera",
    "light",
    "pair",
    "equality",
    "tendon",
    "general",
    "motor",
    "position",
    "velocity",
    "intvelocity",
    "damper",
    "cylinder",
    "muscle",
    "adhesion",
];

/// The attributes of `<joint>`.
const JOINT: &[&str] = &[
    "name",
    "class",
    "type",
    "group",
    "pos",
    "axis",
    "springdamper",
    "limited",
    "actuatorfrclimited",
    "solreflimit",
    "solimplimit",
    "solreffriction",
    "solimpfriction",
    "stiffness",
    "range",
    "actuatorfrcrange",
    "actuatorgravcomp",
    "margin",
    "ref",
    "springref",
    "armature",
    "damping",
    "frictionloss",
    "user",
];

/// The attributes of `<geom>` (the orientation ones apart).
const GEOM: &[&str] = &[
    "name",
    "class",
    "type",
    "contype",
    "conaffinity",
    "condim",
    "group",
    "priority",
    "size",
    "material",
    "friction",
    "mass",
    "density",
    "shellinertia",
    "solmix",
    "solref",
    "solimp",
    "margin",
    "gap",
    "fromto",
    "pos",
    "hfield",
    "mesh",
    "fitscale",
    "rgba",
    "fluidshape",
    "fluidcoef",
    "user",
];

/// The attributes of `<site>` (the orientation ones apart).
const SITE: &[&str] = &[
    "name", "class", "type", "group", "pos", "material", "size", "fromto", "rgba", "user",
];

/// The attributes of `<compiler>`, with those of MuJoCo 2 (`convexhull`,
/// `exactmeshinertia`).
const COMPILER: &[&str] = &[
    "autolimits",
    "boundmass",
    "boundinertia",
    "settotalmass",
    "balanceinertia",
    "strippath",
    "coordinate",
    "angle",
    "fitaabb",
    "eulerseq",
    "meshdir",
    "texturedir",
    "discardvisual",
    "usethread",
    "fusestatic",
    "inertiafromgeom",
    "inertiagrouprange",
    "saveinertial",
    "assetdir",
    "alignfree",
    "convexhull",
    "exactmeshinertia",
];

/// The attributes of `<option>`, with those of MuJoCo 2 (`collision`,
/// `mpr_tolerance`, `mpr_iterations`, `apirate`).
const OPTION: &[&str] = &[
    "timestep",
    "apirate",
    "impratio",
    "tolerance",
    "ls_tolerance",
    "noslip_tolerance",
    "ccd_tolerance",
    "sleep_tolerance",
    "mpr_tolerance",
    "gravity",
    "wind",
    "magnetic",
    "density",
    "viscosity",
    "o_margin",
    "o_solref",
    "o_solimp",
    "o_friction",
    "integrator",
    "collision",
    "cone",
    "jacobian",
    "solver",
    "iterations",
    "ls_iterations",
    "noslip_iterations",
    "ccd_iterations",
    "mpr_iterations",
    "sdf_iterations",
    "sdf_initpoints",
    "actuatorgroupdisable",
];

/// What MuJoCo defines for an element rbdgen reads: its child elements and
/// its attributes (`None`: not checked), the orientation ones when
/// `oriented`.
struct Known {
    children: &'static [&'static str],
    attributes: Option<&'static [&'static str]>,
    oriented: bool,
}

impl Known {
    /// The element `tag` under `parent_tag`; `None` for an element rbdgen
    /// does not read, whose insides are not checked.
    fn of(tag: &str, parent_tag: &str) -> Option<Known> {
        let known = |children, attributes, oriented| {
            Some(Known {
                children,
                attributes: Some(attributes),
                oriented,
            })
        };
        match (tag, parent_tag) {
            ("mujoco", "") => known(MUJOCO_CHILDREN, &["model"], false),
            ("compiler", "mujoco") => known(&["lengthrange"], COMPILER, false),
            ("option", "mujoco") => known(&["flag"], OPTION, false),
            ("default", "mujoco" | "default") => known(DEFAULT_CHILDREN, &["class"], false),
            // MuJoCo's schema gives the world body a body's attributes;
            // rbdgen reads none of them.
            ("worldbody", "mujoco") => Some(Known {
                children: BODY_CHILDREN,
                attributes: None,
                oriented: false,
            }),
            ("body", "worldbody" | "body") => known(
                BODY_CHILDREN,
                &[
                    "name",
                    "childclass",
                    "pos",
                    "mocap",
                    "gravcomp",
                    "sleep",
                    "user",
                ],
                true,
            ),
            ("inertial", "body") => {
                known(&[], &["pos", "mass", "diaginertia", "fullinertia"], true)
            }
            ("joint", "body" | "default") => known(&[], JOINT, false),
            ("freejoint", "body") => known(&[], &["name", "group", "align"], false),
            ("geom", "body" | "worldbody" | "default") => known(&["plugin"], GEOM, true),
            ("site", "body" | "worldbody" | "default") => known(&[], SITE, true),
            _ => None,
        }
    }
}

/// How a warning names element `index`: `` `<body name="torso">` ``,
/// `` `<default class="leg">` ``, `` `<geom>` ``, with its file when it
/// comes from an `<include>`d one.
fn describe(tree: &Tree, index: usize) -> String {
    let e = tree.get(index);
    let key = if e.tag == "default" { "class" } else { "name" };
    let named = match tree.attribute(index, key) {
        Some(name) => format!("`<{} {key}=\"{name}\">`", e.tag),
        None => format!("`<{}>`", e.tag),
    };
    match tree.files[e.file].as_str() {
        "" => named,
        file => format!("{named} (file `{file}`)"),
    }
}

/// A step of the walk: an element to check (with its parent's tag and its
/// parent), or an unknown element to report.
enum Step {
    Check(usize, String, Option<usize>),
    Report(Unknown),
}

/// The elements and attributes of `tree` that MuJoCo does not define where
/// rbdgen reads (see the module documentation), in document order.
pub(super) fn unknowns(tree: &Tree) -> Vec<Unknown> {
    let mut out = Vec::new();
    let mut stack = vec![Step::Check(0, String::new(), None)];
    while let Some(step) = stack.pop() {
        let (index, parent_tag, parent) = match step {
            Step::Report(u) => {
                out.push(u);
                continue;
            }
            Step::Check(index, parent_tag, parent) => (index, parent_tag, parent),
        };
        let e = tree.get(index);
        let Some(known) = Known::of(&e.tag, &parent_tag) else {
            continue;
        };
        if let Some(attributes) = known.attributes {
            let mut listed: Vec<&str> = attributes.to_vec();
            if known.oriented {
                listed.extend(ORIENTATION);
            }
            for (key, _) in e.attributes.iter().filter(|(k, _)| !listed.contains(&&**k)) {
                let named = tree
                    .attribute(index, "name")
                    .map_or_else(String::new, |n| format!(" name=\"{n}\""));
                out.push(Unknown {
                    what: format!("attribute `{key}` of `<{}{named}>`", e.tag),
                    parent: describe(tree, parent.unwrap_or(index)),
                    line: e.line.into(),
                    hint: crate::error::did_you_mean(key, listed.iter().copied()),
                });
            }
        }
        let steps: Vec<Step> = e
            .children
            .iter()
            .map(|&child| {
                let tag = tree.get(child).tag.as_str();
                if known.children.contains(&tag) {
                    return Step::Check(child, e.tag.clone(), Some(index));
                }
                let hint = crate::error::nearest(tag, known.children.iter().copied())
                    .map_or_else(String::new, |k| format!("; did you mean `<{k}>`?"));
                Step::Report(Unknown {
                    what: format!("element `<{tag}>`"),
                    parent: describe(tree, index),
                    line: tree.get(child).line.into(),
                    hint,
                })
            })
            .collect();
        stack.extend(steps.into_iter().rev());
    }
    out
}
