//! Errors of model construction, and of a workspace used with the wrong model.

use thiserror::Error;

/// Why a URDF or MJCF document could not become a [`crate::Model`]. Every
/// variant names the element at fault.
#[derive(Debug, Error)]
pub enum ModelError {
    /// The text is not a URDF that the parser accepts: malformed XML (the
    /// message gives line and column), nesting deeper than the loader accepts,
    /// an unreadable file.
    #[error("cannot parse URDF: {0}")]
    Parse(String),
    /// The robot has no link at all.
    #[error("the robot has no links")]
    Empty,
    /// Two links share a name.
    #[error("duplicate link name `{0}`")]
    DuplicateLink(String),
    /// Two joints share a name.
    #[error("duplicate joint name `{0}`")]
    DuplicateJoint(String),
    /// A joint names a parent or child link that does not exist.
    #[error("joint `{joint}` refers to the unknown link `{link}`")]
    UnknownLink {
        /// The joint at fault.
        joint: String,
        /// The missing link.
        link: String,
    },
    /// A link is the child of more than one joint.
    #[error("link `{0}` is the child of more than one joint")]
    SeveralParents(String),
    /// No single root link: several links have no parent joint, or there is a cycle.
    #[error("the links do not form one tree: {0}")]
    NotATree(String),
    /// A joint type that rbdgen does not model.
    #[error("joint `{joint}` has the unsupported type `{kind}`")]
    UnsupportedJoint {
        /// The joint at fault.
        joint: String,
        /// Its URDF type.
        kind: String,
    },
    /// A revolute or prismatic axis of zero length.
    #[error("joint `{0}` has a zero axis")]
    ZeroAxis(String),
    /// A number that is NaN or infinite.
    #[error("{element} has a non-finite value in `{field}`")]
    NonFinite {
        /// The link or joint at fault.
        element: String,
        /// The attribute.
        field: String,
    },
    /// A negative mass or an inertia that is not physically possible.
    #[error("link `{link}` has an invalid inertia: {reason}")]
    InvalidInertia {
        /// The link at fault.
        link: String,
        /// What is wrong.
        reason: String,
    },
    /// The document is xacro (ROS's XML macro language), not URDF: a
    /// `<xacro:...>` macro, include, call or condition, or a `${...}` /
    /// `$(...)` expression, which the loader would otherwise read as
    /// missing links or malformed numbers.
    #[error(
        "line {line}: {what}: this is a xacro file, not a URDF; expand it first \
         (`xacro model.urdf.xacro > model.urdf`, with ROS's xacro or `pip install xacro`) \
         and load the URDF it writes"
    )]
    Xacro {
        /// The line of the first xacro construct.
        line: u64,
        /// What it is: `` `<xacro:macro>` ``, `` `${pi/2}` in `origin rpy` ``.
        what: String,
    },
    /// An element or attribute of a URDF's `<robot>`, `<link>`, `<joint>`
    /// or `<inertial>` that the format does not have (a misspelled tag:
    /// `<inertal>` would leave the link massless, `<orgin>` the joint at its
    /// parent's origin), or one that MuJoCo does not define in an MJCF
    /// element rbdgen reads (`<body>`, `<joint>`, `<geom>`, ...). The loader
    /// ignores it; a warning, and an error with `strict`.
    #[error("line {line}: unknown {what} in {parent}, which rbdgen ignores (misspelled?){hint}")]
    UnknownElement {
        /// The element or attribute: `` element `<inertal>` ``,
        /// `` attribute `xyzz` of `<origin>` ``.
        what: String,
        /// Where: ``link `base` ``, `` `<robot>` ``, `` `<body name="torso">` ``.
        parent: String,
        /// Its line in the document.
        line: u64,
        /// ``; did you mean `<inertial>`?`` for a near miss, empty otherwise.
        hint: String,
    },
    /// A model that could not be built from a document with unknown
    /// elements or attributes ([`ModelError::UnknownElement`]): one of them
    /// is the likely cause (a misspelled `<joint>` leaves its child link
    /// without a parent), so the note names them all, in document order.
    #[error("{source}; note: {unknown}")]
    WithUnknownElement {
        /// Why the model could not be built.
        source: Box<ModelError>,
        /// The unknown elements and attributes, each as
        /// [`ModelError::UnknownElement`] says it, `; `-separated.
        unknown: String,
    },
    /// The document's root element is not `<robot>`.
    #[error("the root element is `<{0}>`, not `<robot>`")]
    NotARobot(String),
    /// A required attribute or child element is absent.
    #[error("{element}: missing {what}")]
    Missing {
        /// The element at fault: its kind and name, or its tag and line when it
        /// has no name.
        element: String,
        /// What is missing: an attribute or a child element.
        what: String,
    },
    /// An attribute that must hold numbers does not.
    #[error("{element}: `{field}` must be {expected}, found `{value}`")]
    NotANumber {
        /// The link or joint at fault.
        element: String,
        /// The element and attribute (`origin xyz`, `mass value`).
        field: String,
        /// What it must hold (`a number`, `3 numbers`).
        expected: String,
        /// The text found.
        value: String,
    },
    /// A moving joint whose whole subtree has zero mass and zero inertia: the
    /// joint-space inertia matrix is singular and forward dynamics undefined.
    #[error(
        "joint `{joint}` moves only massless bodies (link `{link}` and everything below it \
         have zero mass and inertia): the mass matrix is singular and ABA is undefined"
    )]
    MasslessSubtree {
        /// The moving joint.
        joint: String,
        /// The link it carries.
        link: String,
    },
    /// Two joints move the same bodies along the same directions: `child`
    /// is the only joint below `joint`, whose body carries no mass, and a
    /// combination of their velocities leaves every body at rest. The mass
    /// matrix is singular (ABA and `M⁻¹` divide by zero), however the
    /// bodies are weighted. The typical case: a free-flyer added by
    /// `floating_base` above a root that a joint of the file already frees.
    #[error(
        "joints `{joint}` and `{child}` move the same bodies along the same directions \
         (`{child}` is the only joint below `{joint}`, which carries no mass): the mass \
         matrix is singular and ABA is undefined{hint}"
    )]
    RedundantJoints {
        /// The upper joint, whose body has no mass.
        joint: String,
        /// Its only child joint.
        child: String,
        /// What to do about it, when the cause is known (empty otherwise).
        hint: String,
    },
    /// A name given by the user that the model does not have:
    /// ``unknown joint `jont2`; did you mean `joint2`? The model has: …``,
    /// ``unknown joint `elbow`; the model has: …`` without a near miss.
    #[error(
        "unknown {what} `{name}`{hint}{} {known}",
        if .hint.is_empty() { "; the model has:" } else { " The model has:" }
    )]
    UnknownName {
        /// What was looked for: `joint`, `link frame`.
        what: &'static str,
        /// The name given.
        name: String,
        /// `; did you mean `x`?` for a near miss ([`nearest`]), empty otherwise.
        hint: String,
        /// The valid names, comma-separated.
        known: String,
    },
    /// An MJCF element that does not make a model: malformed XML or numbers,
    /// a missing, contradictory or unknown attribute value, an element or joint
    /// arrangement rbdgen does not model.
    #[error("{location}: {element}: {reason}")]
    Mjcf {
        /// Where: `line 12`, or ``file `common/x.xml`, line 3`` for an included file.
        location: String,
        /// The element: `<joint name="hip">`, `<geom>`, `XML` for malformed XML.
        element: String,
        /// What is wrong.
        reason: String,
    },
    /// A setting of the model that is not physically possible or not usable.
    #[error("{item}: {reason}")]
    InvalidSetting {
        /// The joint, frame or link at fault, with what it is (`armature of joint `x``).
        item: String,
        /// What is wrong.
        reason: String,
    },
}

/// The name of `known` nearest to `name` when it is a near miss (a typo):
/// at most one edit (insertion, deletion, substitution or transposition of
/// adjacent characters) per three characters of `name`, at least one;
/// `None` otherwise. Case is ignored in the count (`RNEA` is a near miss of
/// `rnea`, `CRAB` of `crba`), the exact case breaking ties. For "did you
/// mean" in messages about unknown names.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    let lower = name.to_lowercase();
    known
        .into_iter()
        .map(|k| {
            let folded = strsim::damerau_levenshtein(&lower, &k.to_lowercase());
            (folded, strsim::damerau_levenshtein(name, k), k)
        })
        .min()
        .filter(|&(distance, _, _)| distance <= limit)
        .map(|(_, _, k)| k)
}

/// `; did you mean `x`?` for the name of `known` [`nearest`] to `name`, or
/// an empty string.
pub(crate) fn did_you_mean<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    nearest(name, known).map_or_else(String::new, |k| format!("; did you mean `{k}`?"))
}

/// A [`crate::Data`] used with a model other than the one it was built for
/// ([`crate::Data::check`]): its sizes or its copy of the body inertias would
/// not match, and the algorithms would index past its vectors or return the
/// dynamics of the other robot.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("the Data was built for another model: it has {data}, the model {model}")]
pub struct DataMismatch {
    /// What the workspace was built for: `nq`, `nv`, joints, frames, fingerprint.
    pub data: String,
    /// The same for the model it is used with.
    pub model: String,
}

/// Bad input to a run-time algorithm: a slice of the wrong length, an index
/// out of range, or a [`crate::Data`] built for another model. Every algorithm
/// taking slices or a `Data` checks all its inputs before it writes anything
/// and returns this error for the first one at fault; it never panics on
/// them.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum InputError {
    /// A slice whose length is not the one the model needs.
    #[error("`{argument}` has length {len}, expected {expected}")]
    Length {
        /// The argument's name in the function's signature (`q`, `v`, `fext`).
        argument: &'static str,
        /// Its length.
        len: usize,
        /// The length the model needs (`nq`, `nv`, `njoints`, ...).
        expected: usize,
    },
    /// An index (a joint id, a frame index) the model does not have.
    #[error("`{argument}` is {index}, the model has {count} (valid: 0..{count})")]
    Index {
        /// The argument's name in the function's signature (`joint`, `frame`).
        argument: &'static str,
        /// The index given.
        index: usize,
        /// How many the model has.
        count: usize,
    },
    /// The workspace was built for another model ([`crate::Data::check`]).
    #[error(transparent)]
    Data(#[from] DataMismatch),
    /// A function that runs over the model's own tree of dofs, called on a
    /// model with mimic joints (whose dofs move several branches).
    #[error("`{function}` needs a model without mimic joints")]
    Mimic {
        /// The function's name.
        function: &'static str,
    },
}
