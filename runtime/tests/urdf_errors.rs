//! The URDF loader refuses broken robots with the matching [`ModelError`]
//! variant, whose message names the element at fault, and never panics.

use rbdgen_runtime::{Model, ModelError};

const LIMIT: &str = r#"<limit lower="-1" upper="1" effort="10" velocity="1"/>"#;

fn link(name: &str) -> String {
    format!(
        r#"<link name="{name}"><inertial><origin xyz="0 0 0.1"/><mass value="1"/>
           <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>"#
    )
}

fn joint(name: &str, kind: &str, parent: &str, child: &str) -> String {
    joint_with(
        name,
        kind,
        parent,
        child,
        r#"<origin xyz="0 0 0.1"/><axis xyz="0 0 1"/>"#,
    )
}

fn joint_with(name: &str, kind: &str, parent: &str, child: &str, extra: &str) -> String {
    format!(
        r#"<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>{extra}{LIMIT}</joint>"#
    )
}

fn robot(parts: &[String]) -> String {
    format!(
        "<?xml version=\"1.0\"?>\n<robot name=\"broken\">\n{}\n</robot>",
        parts.join("\n")
    )
}

/// Loads `urdf` with a fixed and a floating base and returns the error, which
/// must be the same both ways.
fn error(urdf: &str) -> ModelError {
    let fixed = Model::from_urdf_str(urdf, false)
        .err()
        .unwrap_or_else(|| panic!("accepted (fixed base):\n{urdf}"));
    let floating = Model::from_urdf_str(urdf, true)
        .err()
        .unwrap_or_else(|| panic!("accepted (floating base):\n{urdf}"));
    assert_eq!(fixed.to_string(), floating.to_string());
    fixed
}

fn assert_names(e: &ModelError, names: &[&str]) {
    let message = e.to_string();
    for name in names {
        assert!(
            message.contains(&format!("`{name}`")),
            "message `{message}` does not name `{name}`"
        );
    }
}

/// A valid three-link chain a - ja - b - jb - c, to check the fixtures themselves.
fn chain() -> Vec<String> {
    vec![
        link("a"),
        link("b"),
        link("c"),
        joint("ja", "revolute", "a", "b"),
        joint("jb", "prismatic", "b", "c"),
    ]
}

#[test]
fn the_fixture_chain_is_valid() {
    let model = Model::from_urdf_str(&robot(&chain()), false).unwrap();
    assert_eq!((model.nq, model.nv), (2, 2));
}

#[test]
fn malformed_xml() {
    for text in [
        "<robot name=\"broken\"><link name=\"a\"></robot>".to_string(),
        "this is not xml".to_string(),
        robot(&chain()).replace("</robot>", ""),
    ] {
        let e = error(&text);
        assert!(matches!(e, ModelError::Parse(_)), "{text}: {e:?}");
        assert!(e.to_string().starts_with("cannot parse URDF: "), "{e}");
    }
    // A joint without its required <child> is refused, naming the joint.
    let text = robot(&[
        link("a"),
        link("b"),
        r#"<joint name="ja" type="fixed"><parent link="a"/></joint>"#.into(),
    ]);
    let e = error(&text);
    assert!(matches!(e, ModelError::Missing { .. }), "{e:?}");
    assert!(e.to_string().contains("`<child>`"), "{e}");
    assert_names(&e, &["ja"]);
}

#[test]
fn missing_file() {
    let e = Model::from_urdf_file("does/not/exist.urdf", false).unwrap_err();
    assert!(matches!(e, ModelError::Parse(_)), "{e:?}");
    assert!(e.to_string().contains("does/not/exist.urdf"), "{e}");
}

#[test]
fn no_links() {
    let e = error(&robot(&[]));
    assert!(matches!(e, ModelError::Empty), "{e:?}");
}

#[test]
fn duplicate_link() {
    let mut parts = chain();
    parts.push(link("b"));
    let e = error(&robot(&parts));
    assert!(
        matches!(&e, ModelError::DuplicateLink(name) if name == "b"),
        "{e:?}"
    );
    assert_names(&e, &["b"]);
}

#[test]
fn duplicate_joint() {
    let mut parts = chain();
    parts.push(link("d"));
    parts.push(joint("jb", "revolute", "c", "d"));
    let e = error(&robot(&parts));
    assert!(
        matches!(&e, ModelError::DuplicateJoint(name) if name == "jb"),
        "{e:?}"
    );
    assert_names(&e, &["jb"]);
}

#[test]
fn unknown_parent_link() {
    let mut parts = chain();
    parts.push(link("d"));
    parts.push(joint("jd", "revolute", "ghost", "d"));
    let e = error(&robot(&parts));
    assert!(
        matches!(&e, ModelError::UnknownLink { joint, link } if joint == "jd" && link == "ghost"),
        "{e:?}"
    );
    assert_names(&e, &["jd", "ghost"]);
}

#[test]
fn unknown_child_link() {
    let mut parts = chain();
    parts.push(joint("jd", "fixed", "c", "ghost"));
    let e = error(&robot(&parts));
    assert!(
        matches!(&e, ModelError::UnknownLink { joint, link } if joint == "jd" && link == "ghost"),
        "{e:?}"
    );
    assert_names(&e, &["jd", "ghost"]);
}

#[test]
fn link_with_two_parents() {
    let mut parts = chain();
    parts.push(joint("jc", "revolute", "a", "c"));
    let e = error(&robot(&parts));
    assert!(
        matches!(&e, ModelError::SeveralParents(name) if name == "c"),
        "{e:?}"
    );
    assert_names(&e, &["c"]);
}

#[test]
fn two_roots() {
    let mut parts = chain();
    parts.push(link("island"));
    let e = error(&robot(&parts));
    assert!(matches!(e, ModelError::NotATree(_)), "{e:?}");
    let message = e.to_string();
    assert!(message.contains("a, island"), "{message}");
}

#[test]
fn cycle_without_root() {
    // Every link has a parent joint: a -> b -> c -> a.
    let mut parts = chain();
    parts.push(joint("jc", "revolute", "c", "a"));
    let e = error(&robot(&parts));
    assert!(matches!(e, ModelError::NotATree(_)), "{e:?}");
    assert!(e.to_string().contains("cycle"), "{e}");
}

#[test]
fn cycle_beside_the_tree() {
    // One root (a, with its chain) plus a loop x -> y -> x that no path from the root reaches.
    let mut parts = chain();
    parts.extend([
        link("x"),
        link("y"),
        joint("jx", "revolute", "x", "y"),
        joint("jy", "revolute", "y", "x"),
    ]);
    let e = error(&robot(&parts));
    assert!(matches!(e, ModelError::NotATree(_)), "{e:?}");
    let message = e.to_string();
    assert!(
        message.contains("`x`") && message.contains("`y`"),
        "{message}"
    );
}

#[test]
fn self_loop() {
    let e = error(&robot(&[link("a"), joint("ja", "revolute", "a", "a")]));
    assert!(matches!(e, ModelError::NotATree(_)), "{e:?}");
}

#[test]
fn unsupported_joint_types() {
    // `floating` is supported: a free-flyer, as in Pinocchio (tests/urdf/floating_joint.urdf);
    // `planar` too (Pinocchio's JointModelPlanar). urdfdom, and so Pinocchio, refuse `spherical`.
    let kind = "spherical";
    let mut parts = chain();
    parts.push(link("d"));
    parts.push(joint("jd", kind, "c", "d"));
    let e = error(&robot(&parts));
    assert!(
        matches!(&e, ModelError::UnsupportedJoint { joint, kind: k } if joint == "jd" && k == kind),
        "{kind}: {e:?}"
    );
    assert_names(&e, &["jd", kind]);
}

#[test]
fn zero_axis() {
    for kind in ["revolute", "continuous", "prismatic"] {
        let mut parts = chain();
        parts.push(link("d"));
        parts.push(joint_with("jd", kind, "c", "d", r#"<axis xyz="0 0 0"/>"#));
        let e = error(&robot(&parts));
        assert!(
            matches!(&e, ModelError::ZeroAxis(name) if name == "jd"),
            "{kind}: {e:?}"
        );
        assert_names(&e, &["jd"]);
    }
}

#[test]
fn non_finite_joint_numbers() {
    for (extra, field) in [
        (
            r#"<origin xyz="0 NaN 0.1"/><axis xyz="0 0 1"/>"#,
            "origin xyz",
        ),
        (
            r#"<origin xyz="0 0 0.1" rpy="0 inf 0"/><axis xyz="0 0 1"/>"#,
            "origin rpy",
        ),
        (r#"<axis xyz="0 nan 1"/>"#, "axis"),
    ] {
        let mut parts = chain();
        parts.push(link("d"));
        parts.push(joint_with("jd", "revolute", "c", "d", extra));
        let e = error(&robot(&parts));
        assert!(
            matches!(&e, ModelError::NonFinite { element, field: f } if element.contains("`jd`") && f == field),
            "{extra}: {e:?}"
        );
        assert_names(&e, &["jd"]);
    }
    // A fixed joint's origin is checked as well.
    let mut parts = chain();
    parts.push(link("d"));
    parts.push(joint_with(
        "weld",
        "fixed",
        "c",
        "d",
        r#"<origin xyz="NaN 0 0"/>"#,
    ));
    let e = error(&robot(&parts));
    assert!(
        matches!(&e, ModelError::NonFinite { element, .. } if element.contains("`weld`")),
        "{e:?}"
    );
}

#[test]
fn non_finite_inertial() {
    for (inertial, field) in [
        (
            r#"<origin xyz="0 0 NaN"/><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>"#,
            "origin xyz",
        ),
        (
            r#"<mass value="inf"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/>"#,
            "mass",
        ),
        (
            r#"<mass value="1"/><inertia ixx="1" ixy="NaN" ixz="0" iyy="1" iyz="0" izz="1"/>"#,
            "inertia",
        ),
    ] {
        let mut parts = chain();
        parts.push(format!(
            r#"<link name="d"><inertial>{inertial}</inertial></link>"#
        ));
        parts.push(joint("jd", "revolute", "c", "d"));
        let e = error(&robot(&parts));
        assert!(
            matches!(&e, ModelError::NonFinite { element, field: f } if element.contains("`d`") && f == field),
            "{inertial}: {e:?}"
        );
        assert_names(&e, &["d"]);
    }
}

#[test]
fn negative_mass() {
    let heavy = r#"<inertial><mass value="-2"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>"#;
    // Below a moving joint, below a fixed joint, and on the root.
    for (child_joint, root) in [("revolute", false), ("fixed", false), ("revolute", true)] {
        let mut parts = chain();
        let bad = if root { "a" } else { "d" };
        if root {
            parts[0] = format!(r#"<link name="a">{heavy}</link>"#);
        } else {
            parts.push(format!(r#"<link name="d">{heavy}</link>"#));
            parts.push(joint("jd", child_joint, "c", "d"));
        }
        let e = error(&robot(&parts));
        assert!(
            matches!(&e, ModelError::InvalidInertia { link, .. } if link == bad),
            "{e:?}"
        );
        assert_names(&e, &[bad]);
        assert!(e.to_string().contains("negative mass"), "{e}");
    }
}
