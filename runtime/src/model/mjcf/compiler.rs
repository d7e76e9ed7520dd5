//! The `<compiler>` settings of an MJCF file, read before the bodies: the
//! angle unit and Euler sequence of the orientations, and how bodies get
//! their inertias (shared by the body reader and the geom inertias).

use super::xml::{Tree, Value};
use crate::error::ModelError;

/// Where a body's inertia comes from (`<compiler inertiafromgeom>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum FromGeom {
    /// Always from the geoms, `<inertial>` ignored.
    Always,
    /// Never: a body without `<inertial>` is refused.
    Never,
    /// From `<inertial>` when present, else from the geoms (MuJoCo's default).
    Auto,
}

/// The `<compiler>` settings the model depends on.
#[derive(Clone, Debug)]
pub(super) struct Compiler {
    /// Radians per angle unit: π/180 for `angle="degree"` (the default), 1 for radian.
    pub angle: f64,
    /// `eulerseq`, three of `xyzXYZ` (lowercase: rotating axes, uppercase: fixed).
    pub eulerseq: [u8; 3],
    /// `inertiafromgeom`.
    pub from_geom: FromGeom,
    /// `inertiagrouprange`: geoms of these groups count for inertia.
    pub groups: (i64, i64),
    /// `boundmass`: lower bound of every body's mass.
    pub boundmass: f64,
    /// `boundinertia`: lower bound of every body's principal moments.
    pub boundinertia: f64,
    /// `settotalmass`: the bodies' masses and inertias scaled to this total,
    /// with the `<compiler>` element giving it.
    pub settotalmass: Option<(f64, usize)>,
    /// `autolimits`: a `range` makes a joint limited unless `limited="false"`.
    pub autolimits: bool,
    /// `discardvisual`: geoms with `contype = conaffinity = 0` are discarded.
    pub discardvisual: bool,
}

impl Default for Compiler {
    fn default() -> Self {
        Self {
            angle: std::f64::consts::PI / 180.0,
            eulerseq: *b"xyz",
            from_geom: FromGeom::Auto,
            groups: (0, 5),
            boundmass: 0.0,
            boundinertia: 0.0,
            settotalmass: None,
            autolimits: true,
            discardvisual: false,
        }
    }
}

impl Compiler {
    /// The settings of the `<compiler>` children of `root`, a later element
    /// overriding an earlier one, MuJoCo's defaults for the rest.
    ///
    /// # Errors
    /// A malformed value, or a setting rbdgen does not support
    /// (`coordinate="global"`, `balanceinertia="true"`).
    pub(super) fn read(tree: &Tree, root: usize) -> Result<Compiler, ModelError> {
        let mut c = Compiler::default();
        for element in tree.children_tagged(root, "compiler") {
            let value = |key: &'static str| {
                tree.attribute(element, key)
                    .map(|text| Value { text, element, key })
            };
            if let Some(v) = value("angle") {
                c.angle = match v.keyword(tree, &["degree", "radian"])? {
                    "degree" => std::f64::consts::PI / 180.0,
                    _ => 1.0,
                };
            }
            if let Some(v) = value("eulerseq") {
                let s = v.text.trim().as_bytes();
                if s.len() != 3 || !s.iter().all(|b| b"xyzXYZ".contains(b)) {
                    return Err(tree.error(
                        element,
                        format!("`eulerseq` must be three of `xyzXYZ`, found `{}`", v.text),
                    ));
                }
                c.eulerseq = [s[0], s[1], s[2]];
            }
            if let Some(v) = value("inertiafromgeom") {
                c.from_geom = match v.keyword(tree, &["true", "false", "auto"])? {
                    "true" => FromGeom::Always,
                    "false" => FromGeom::Never,
                    _ => FromGeom::Auto,
                };
            }
            if let Some(v) = value("inertiagrouprange") {
                let [lo, hi] = v.numbers::<2>(tree)?;
                c.groups = (lo as i64, hi as i64);
            }
            if let Some(v) = value("boundmass") {
                c.boundmass = v.number(tree)?;
            }
            if let Some(v) = value("boundinertia") {
                c.boundinertia = v.number(tree)?;
            }
            if let Some(v) = value("settotalmass") {
                let m = v.number(tree)?;
                // MuJoCo: a value <= 0 (the default, -1) leaves the masses alone.
                c.settotalmass = (m > 0.0).then_some((m, element));
            }
            if let Some(v) = value("autolimits") {
                c.autolimits = v.boolean(tree)?;
            }
            if let Some(v) = value("discardvisual") {
                c.discardvisual = v.boolean(tree)?;
            }
            if let Some(v) = value("coordinate") {
                if v.keyword(tree, &["local", "global"])? == "global" {
                    return Err(tree.error(
                        element,
                        "`coordinate=\"global\"` is not supported (MuJoCo removed it in \
                         2.3.3): give positions in the parent body's frame",
                    ));
                }
            }
            if let Some(v) = value("balanceinertia") {
                if v.boolean(tree)? {
                    return Err(tree.error(
                        element,
                        "`balanceinertia=\"true\"` is not supported: give inertias that \
                         satisfy the triangle inequality",
                    ));
                }
            }
        }
        Ok(c)
    }
}
