//! Inertias from geoms, as MuJoCo's compiler computes them for a body
//! without `<inertial>` (`inertiafromgeom`): each geom of a counted group is
//! a solid of uniform density (its `mass`, else `density` × volume), and the
//! body's inertia is their sum.

use super::compiler::Compiler;
use super::xml::Tree;
use crate::error::ModelError;
use crate::spatial::{Inertia, Matrix3, Transform, Vector3};

/// The shape of a geom, sizes in metres.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum GeomShape {
    /// Radius.
    Sphere(f64),
    /// Radius and half length of the cylindrical part (along z).
    Capsule(f64, f64),
    /// Radius and half height (along z).
    Cylinder(f64, f64),
    /// Semi-axes.
    Ellipsoid([f64; 3]),
    /// Half sizes.
    Box([f64; 3]),
    /// A plane or height field: no volume (MuJoCo allows them in static bodies only).
    Surface,
    /// A mesh or an SDF: rbdgen does not compute its volume.
    Unsupported(String),
}

/// A geom as far as inertia goes.
#[derive(Clone, Debug)]
pub(super) struct Geom {
    /// The element, for errors.
    pub element: usize,
    /// Shape and size.
    pub shape: GeomShape,
    /// Its frame in the body frame (z along the axis of capsules and cylinders).
    pub placement: Transform<f64>,
    /// `mass` (kg), which overrides `density`.
    pub mass: Option<f64>,
    /// `density` (kg/m³).
    pub density: f64,
    /// `group`.
    pub group: i64,
    /// `contype = conaffinity = 0`: dropped under `discardvisual`.
    pub visual: bool,
}

impl Geom {
    /// The volume (m³), `None` for shapes without one.
    fn volume(&self) -> Option<f64> {
        use std::f64::consts::PI;
        Some(match &self.shape {
            GeomShape::Sphere(r) => 4.0 / 3.0 * PI * r.powi(3),
            GeomShape::Capsule(r, h) => PI * r * r * (2.0 * h) + 4.0 / 3.0 * PI * r.powi(3),
            GeomShape::Cylinder(r, h) => PI * r * r * (2.0 * h),
            GeomShape::Ellipsoid([a, b, c]) => 4.0 / 3.0 * PI * a * b * c,
            GeomShape::Box([a, b, c]) => 8.0 * a * b * c,
            GeomShape::Surface | GeomShape::Unsupported(_) => return None,
        })
    }

    /// Principal moments about the centre (kg·m²) of a solid of mass `m`
    /// (MuJoCo's `mjCGeom::ComputeInertia`).
    fn moments(&self, m: f64) -> [f64; 3] {
        match self.shape {
            GeomShape::Sphere(r) => [2.0 / 5.0 * m * r * r; 3],
            GeomShape::Capsule(r, h) => {
                let height = 2.0 * h;
                // The mass splits between the cylinder and the two
                // hemispheres in proportion to their volumes.
                let sphere = m * 4.0 * r / (4.0 * r + 3.0 * height);
                let cylinder = m - sphere;
                let side = cylinder * (3.0 * r * r + height * height) / 12.0
                    + sphere * 2.0 * r * r / 5.0
                    + sphere * height * (3.0 * r + 2.0 * height) / 8.0;
                let axial = cylinder * r * r / 2.0 + sphere * 2.0 * r * r / 5.0;
                [side, side, axial]
            }
            GeomShape::Cylinder(r, h) => {
                let height = 2.0 * h;
                let side = m * (3.0 * r * r + height * height) / 12.0;
                [side, side, m * r * r / 2.0]
            }
            GeomShape::Ellipsoid([a, b, c]) => [
                m * (b * b + c * c) / 5.0,
                m * (a * a + c * c) / 5.0,
                m * (a * a + b * b) / 5.0,
            ],
            GeomShape::Box([a, b, c]) => {
                let (x, y, z) = (2.0 * a, 2.0 * b, 2.0 * c);
                [
                    m * (y * y + z * z) / 12.0,
                    m * (x * x + z * z) / 12.0,
                    m * (x * x + y * y) / 12.0,
                ]
            }
            GeomShape::Surface | GeomShape::Unsupported(_) => [0.0; 3],
        }
    }
}

/// The inertia of a body (its frame) from its geoms: those whose group lies
/// in `inertiagrouprange` and, under `discardvisual`, that are not visual.
///
/// # Errors
/// A counted mesh or SDF geom (its volume is not computed), a plane or height
/// field in a body that needs its inertia, a negative mass or density, or a
/// zero size where the shape needs one.
pub(super) fn body_inertia(
    tree: &Tree,
    compiler: &Compiler,
    body: usize,
    geoms: &[Geom],
) -> Result<Inertia<f64>, ModelError> {
    let mut total = Inertia::zero();
    for g in geoms {
        let (lo, hi) = compiler.groups;
        if g.group < lo || g.group > hi || (compiler.discardvisual && g.visual) {
            continue;
        }
        let volume = match (&g.shape, g.volume()) {
            (_, Some(v)) => v,
            (GeomShape::Unsupported(kind), None) => {
                return Err(tree.error(
                    g.element,
                    format!(
                        "body {} has no <inertial> and takes its inertia from its geoms, \
                         but rbdgen does not compute the inertia of a `{kind}` geom: give \
                         the body an <inertial>, or put the geom in a group outside \
                         `<compiler inertiagrouprange>`",
                        tree.label(body)
                    ),
                ))
            }
            (_, None) => continue,
        };
        if g.density < 0.0 || g.mass.is_some_and(|m| m < 0.0) {
            return Err(tree.error(g.element, "negative `mass` or `density`"));
        }
        let mass = g.mass.unwrap_or(g.density * volume);
        if mass == 0.0 {
            continue;
        }
        if volume <= 0.0 {
            return Err(tree.error(
                g.element,
                "a geom with mass but no volume: its `size` is zero or missing",
            ));
        }
        let [a, b, c] = g.moments(mass);
        let at_com = Matrix3([[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]])
            .rotate_symmetric(&g.placement.rotation);
        total += Inertia::from_com(mass, g.placement.translation, at_com);
    }
    Ok(total)
}

/// Refuses an `<inertial>` that no rigid body has: principal moments that are
/// negative or violate the triangle inequality (MuJoCo's compiler refuses
/// both), beyond a relative rounding tolerance.
pub(super) fn check_inertia(
    tree: &Tree,
    element: usize,
    mass: f64,
    at_com: &Matrix3<f64>,
) -> Result<(), ModelError> {
    let [a, b, c] = principal(at_com).0;
    let tolerance = 1e-9 * c.abs().max(1e-300);
    if mass == 0.0 && c == 0.0 {
        return Ok(());
    }
    if a < -tolerance {
        return Err(tree.error(
            element,
            format!("principal moments {a:e}, {b:e}, {c:e} kg·m²: not positive semi-definite"),
        ));
    }
    if a + b < c - tolerance {
        return Err(tree.error(
            element,
            format!(
                "principal moments {a:e}, {b:e}, {c:e} kg·m² violate the triangle \
                 inequality ({a:e} + {b:e} < {c:e}), which MuJoCo refuses"
            ),
        ));
    }
    Ok(())
}

/// Eigenvalues (ascending) and eigenvectors (columns) of a symmetric matrix.
fn principal(m: &Matrix3<f64>) -> ([f64; 3], Matrix3<f64>) {
    let n = nalgebra::Matrix3::from_fn(|i, j| m.0[i][j]);
    let e = n.symmetric_eigen();
    let mut order = [0, 1, 2];
    order.sort_by(|&i, &j| e.eigenvalues[i].total_cmp(&e.eigenvalues[j]));
    (
        order.map(|k| e.eigenvalues[k]),
        Matrix3(core::array::from_fn(|i| {
            order.map(|k| e.eigenvectors[(i, k)])
        })),
    )
}

/// `inertia` with its mass at least `boundmass` and its principal moments at
/// least `boundinertia` (MuJoCo's compiler bounds).
pub(super) fn bounded(inertia: &Inertia<f64>, boundmass: f64, boundinertia: f64) -> Inertia<f64> {
    let m = inertia.mass;
    let com = if m > 0.0 {
        inertia.first_moment.scale(1.0 / m)
    } else {
        Vector3::zeros()
    };
    let skew = com.skew();
    let at_com = inertia.rotational + (skew * skew).scale(m);
    let (moments, axes) = principal(&at_com);
    let moments = moments.map(|x| x.max(boundinertia));
    let diagonal = Matrix3(core::array::from_fn(|i| {
        core::array::from_fn(|j| if i == j { moments[i] } else { 0.0 })
    }));
    Inertia::from_com(m.max(boundmass), com, diagonal.rotate_symmetric(&axes))
}
