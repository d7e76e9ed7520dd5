#!/usr/bin/env python3
"""Build the robot models in models/ from example-robot-data 6.0.0.

Run from anywhere with the project venv:

    scripts/setup-python.sh && .venv/bin/python scripts/make_models.py

Every output is the source URDF with its <visual> and <collision> elements
removed. Everything else (names, joint types, origins, axes, limits, inertial
figures) is copied as the original strings: the files are handled with
xml.etree, which keeps attribute values as text, so no number is ever
re-formatted.

models/go2_z1.urdf is assembled from go2.urdf and z1.urdf; see models/README.md
for the assembly (mount pose, gripper weld, gripper_link offset).

After writing, the script checks with Pinocchio that each stripped copy gives
the same model as its source, and that go2_z1 with a free-flyer root has
nq = 25, nv = 24.
"""

import copy
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pinocchio as pin

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = os.path.join(ROOT, "models")


def robots_dir():
    """Directory holding example-robot-data's robots/ tree."""
    for entry in sys.path:
        cand = os.path.join(
            entry, "cmeel.prefix", "share", "example-robot-data", "robots"
        )
        if os.path.isdir(cand):
            return cand
    raise SystemExit("example-robot-data robots directory not found")


ROBOTS = robots_dir()

# Source files, relative to example-robot-data's robots/ directory.
SOURCES = {
    "go2.urdf": "go2_description/urdf/go2.urdf",
    "z1.urdf": "z1_description/urdf/z1.urdf",
    "panda.urdf": "panda_description/urdf/panda.urdf",
    "double_pendulum_continuous.urdf": (
        "double_pendulum_description/urdf/double_pendulum_continuous.urdf"
    ),
    "g1_29dof.urdf": "g1_description/urdf/g1_29dof_rev_1_0.urdf",
}

# go2_z1 assembly figures (documented in models/README.md).
MOUNT_JOINT = "z1_mount_joint"
MOUNT_XYZ = "0.285 0 0.05"
MOUNT_RPY = "0 0 0"
GRIPPER_JOINT = "gripper_link_joint"
GRIPPER_LINK = "gripper_link"
GRIPPER_PARENT = "gripperMover"
# Centre of the closed jaw tips, in the gripperMover frame: the jaws close on
# the plane z = -0.009 and their tips end at x = 0.100 (extent of the Z1
# gripper collision meshes z1_GripperStator.STL / z1_GripperMover.STL).
GRIPPER_XYZ = "0.1 0 -0.009"
GRIPPER_RPY = "0 0 0"


def parse(path):
    parser = ET.XMLParser(target=ET.TreeBuilder(insert_comments=True))
    return ET.parse(path, parser=parser)


def strip_geometry(root):
    for link in root.iter("link"):
        for child in list(link):
            if child.tag in ("visual", "collision"):
                link.remove(child)


def write(root, name, header):
    root = copy.deepcopy(root)
    for elem in root.iter():  # drop whitespace left by removed elements
        if elem.tail is not None and not elem.tail.strip():
            elem.tail = None
        if elem.text is not None and not elem.text.strip():
            elem.text = None
    root.insert(0, ET.Comment(header))
    ET.indent(root, space="  ")
    path = os.path.join(MODELS, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n')
        f.write(ET.tostring(root, encoding="unicode"))
        f.write("\n")
    return path


def element(tag, **attrib):
    return ET.Element(tag, {k: v for k, v in attrib.items()})


def fixed_joint(name, parent, child, xyz, rpy):
    j = element("joint", name=name, type="fixed")
    j.append(element("origin", xyz=xyz, rpy=rpy))
    j.append(element("parent", link=parent))
    j.append(element("child", link=child))
    return j


def build_go2_z1():
    go2 = parse(os.path.join(ROBOTS, SOURCES["go2.urdf"])).getroot()
    z1 = parse(os.path.join(ROBOTS, SOURCES["z1.urdf"])).getroot()
    strip_geometry(go2)
    strip_geometry(z1)

    go2_links = {e.get("name") for e in go2.findall("link")}
    go2_joints = {e.get("name") for e in go2.findall("joint")}
    z1_links = [e for e in z1.findall("link") if e.get("name") != "world"]
    z1_joints = [e for e in z1.findall("joint") if e.get("name") != "base_static_joint"]
    clash = {e.get("name") for e in z1_links} & go2_links
    clash |= {e.get("name") for e in z1_joints} & go2_joints
    clash |= {MOUNT_JOINT, GRIPPER_JOINT} & go2_joints
    clash |= {GRIPPER_LINK} & go2_links
    if clash:  # none with the 6.0.0 files; prefix Z1's names if this changes
        raise SystemExit(f"go2/z1 name clash: {sorted(clash)}")

    robot = element("robot", name="go2_z1")
    for child in go2:
        if child.tag in ("link", "joint"):
            robot.append(child)
    robot.append(ET.Comment(" Unitree Z1 arm (example-robot-data z1_description) "))
    robot.append(fixed_joint(MOUNT_JOINT, "base", "link00", MOUNT_XYZ, MOUNT_RPY))
    for e in z1:
        if e in z1_links or e in z1_joints:
            if e.tag == "joint" and e.get("name") == "jointGripper":
                e.set("type", "fixed")
                for sub in list(e):
                    if sub.tag in ("axis", "limit", "dynamics"):
                        e.remove(sub)
            robot.append(e)
    robot.append(ET.Comment(" tool centre point: centre of the closed jaw tips "))
    robot.append(
        fixed_joint(GRIPPER_JOINT, GRIPPER_PARENT, GRIPPER_LINK, GRIPPER_XYZ, GRIPPER_RPY)
    )
    robot.append(element("link", name=GRIPPER_LINK))
    return robot


HEADER = (
    " Generated by scripts/make_models.py from example-robot-data 6.0.0, "
    "robots/{src}; <visual> and <collision> removed. See models/README.md. "
)
HEADER_GO2_Z1 = (
    " Generated by scripts/make_models.py from example-robot-data 6.0.0 "
    "(robots/go2_description/urdf/go2.urdf and robots/z1_description/urdf/z1.urdf): "
    "Go2 with the Z1 arm on link base, gripper welded, gripper_link added; "
    "<visual> and <collision> removed. See models/README.md. "
)


def same_model(a, b):
    assert (a.nq, a.nv, list(a.names)) == (b.nq, b.nv, list(b.names))
    for x, y in zip(a.jointPlacements, b.jointPlacements):
        assert np.array_equal(x.homogeneous, y.homogeneous)
    for x, y in zip(a.inertias, b.inertias):
        assert np.array_equal(x.matrix(), y.matrix())
    assert [f.name for f in a.frames] == [f.name for f in b.frames]
    for x, y in zip(a.frames, b.frames):
        assert x.parentJoint == y.parentJoint
        assert np.array_equal(x.placement.homogeneous, y.placement.homogeneous)
        assert np.array_equal(x.inertia.matrix(), y.inertia.matrix())


def main():
    os.makedirs(MODELS, exist_ok=True)
    for name, src in SOURCES.items():
        tree = parse(os.path.join(ROBOTS, src))
        strip_geometry(tree.getroot())
        out = write(tree.getroot(), name, HEADER.format(src=src))
        for root_joint in (None, pin.JointModelFreeFlyer()):
            args = () if root_joint is None else (root_joint,)
            same_model(
                pin.buildModelFromUrdf(os.path.join(ROBOTS, src), *args),
                pin.buildModelFromUrdf(out, *args),
            )
        print(f"wrote {os.path.relpath(out, ROOT)}")

    out = write(build_go2_z1(), "go2_z1.urdf", HEADER_GO2_Z1)
    model = pin.buildModelFromUrdf(out, pin.JointModelFreeFlyer())
    assert (model.nq, model.nv) == (25, 24), (model.nq, model.nv)
    print(f"wrote {os.path.relpath(out, ROOT)} (nq={model.nq}, nv={model.nv})")


if __name__ == "__main__":
    main()
