"""The plant: MuJoCo simulating Menagerie's Unitree Go2, and the conventions
between MuJoCo's state and rbdgen's (Pinocchio's).

Conventions met here, each converted in one function below:

- MuJoCo's free-joint quaternion is [w x y z]; Pinocchio's is [x y z w]
  (`q_from_mujoco`).
- MuJoCo's free-joint velocity is [linear in WORLD axes, angular in the
  body's LOCAL axes]; Pinocchio's v is [linear LOCAL, angular LOCAL]: the
  linear part is rotated by Rᵀ (`v_from_mujoco`).
- MuJoCo's actuators are in the MJCF's <actuator> order (FR, FL, RR, RL),
  not the joint order (FL, FR, RL, RR) of qpos and of rbdgen's u: `ctrl` is
  mapped through each actuator's joint (`Plant.set_torques`).
- The MJCF's joint damping (2 N·m·s/rad) and friction loss (0.2 N·m) are
  MuJoCo passive forces that rbdgen's model (rigid bodies and armature) does
  not have: the low-level loop adds them back (`Plant.passive_compensation`).
- The foot contact geoms are spheres (radius 0.022) centred 0.213 m below
  each knee; the controller's model gets a massless body at that centre
  (`derive_controller_mjcf`), a link frame that rbdgen can take as a point
  contact. The floor touches the sphere 0.022 m below that point.
"""

from pathlib import Path

import mujoco
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
GO2_DIR = ROOT / "models" / "mjcf" / "menagerie" / "unitree_go2"
FEET = ("FL", "FR", "RL", "RR")  # rbdgen's contact order, and qpos's legs
FOOT_RADIUS = 0.022
FOOT_OFFSET = (-0.002, 0.0, -0.213)  # the foot sphere's centre in the calf body
HOME_JOINTS = np.tile([0.0, 0.9, -1.8], 4)  # Menagerie's "home" keyframe
DAMPING, FRICTION_LOSS = 2.0, 0.2  # go2.xml's joint defaults


def derive_controller_mjcf(out_path):
    """Writes the controller's model: go2.xml unchanged but for a massless
    body `<LEG>_foot` at each foot sphere's centre (a link frame for
    `--contacts`; sites become operational frames, which the generated
    per-frame and contact functions do not take). Returns the path."""
    text = (GO2_DIR / "go2.xml").read_text()
    pos = " ".join(f"{x:g}" for x in FOOT_OFFSET)
    for leg in FEET:
        geom = f'<geom name="{leg}" class="foot"/>'
        assert text.count(geom) == 1, geom
        text = text.replace(geom, f'{geom}\n            <body name="{leg}_foot" pos="{pos}"/>')
    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(text)
    return out_path


def quat_wxyz_to_xyzw(qw):
    return np.array([qw[1], qw[2], qw[3], qw[0]])


def rotation_from_xyzw(quat):
    """The rotation matrix of a unit quaternion [x y z w]."""
    x, y, z, w = quat
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ])


def q_from_mujoco(qpos):
    """Pinocchio's q [x y z qx qy qz qw, joints] from MuJoCo's qpos."""
    return np.concatenate([qpos[:3], quat_wxyz_to_xyzw(qpos[3:7]), qpos[7:]])


def v_from_mujoco(qpos, qvel):
    """Pinocchio's v [linear LOCAL, angular LOCAL, joints] from MuJoCo's
    qvel [linear WORLD, angular LOCAL, joints]."""
    rot = rotation_from_xyzw(quat_wxyz_to_xyzw(qpos[3:7]))
    return np.concatenate([rot.T @ qvel[:3], qvel[3:6], qvel[6:]])


def tilt(quat_xyzw):
    """The angle (rad) between the base's z axis and the world's."""
    return float(np.arccos(np.clip(rotation_from_xyzw(quat_xyzw)[2, 2], -1.0, 1.0)))


def yaw(quat_xyzw):
    rot = rotation_from_xyzw(quat_xyzw)
    return float(np.arctan2(rot[1, 0], rot[0, 0]))


class Plant:
    """MuJoCo's Go2 on a floor (scene.xml), compiled without its mesh geoms
    (the meshes are not in this repository; they are visual only)."""

    def __init__(self, heading=0.0):
        """`heading`: the base's initial yaw (rad) about the world's z axis."""
        spec = mujoco.MjSpec.from_file(str(GO2_DIR / "scene.xml"))
        for geom in list(spec.geoms):
            if geom.type == mujoco.mjtGeom.mjGEOM_MESH:
                spec.delete(geom)
        for mesh in list(spec.meshes):
            spec.delete(mesh)
        self.model = spec.compile()
        self.data = mujoco.MjData(self.model)
        m = self.model
        self.dt = m.opt.timestep
        self.base_id = m.body("base").id
        self.floor_id = m.geom("floor").id
        self.foot_geoms = [m.geom(leg).id for leg in FEET]
        # ctrl[i] drives the joint whose qpos index is actuator_qpos[i].
        self.actuator_qpos = np.array([m.jnt_qposadr[m.actuator_trnid[i, 0]] for i in range(m.nu)])
        self.ctrl_range = m.actuator_ctrlrange.copy()
        # The torque limits in rbdgen's joint order.
        self.torque_limit = np.zeros(12)
        self.torque_limit[self.actuator_qpos - 7] = self.ctrl_range[:, 1]
        mujoco.mj_resetDataKeyframe(m, self.data, m.key("home").id)
        self.data.qpos[3:7] = [np.cos(heading / 2), 0.0, 0.0, np.sin(heading / 2)]  # [w x y z]
        mujoco.mj_forward(m, self.data)

    @property
    def time(self):
        return self.data.time

    def state(self):
        """(q, v) in Pinocchio's conventions."""
        return q_from_mujoco(self.data.qpos.copy()), v_from_mujoco(self.data.qpos, self.data.qvel)

    def passive_compensation(self, joint_velocity):
        """The torque that cancels MuJoCo's joint damping and (smoothed)
        friction loss, which the controller's model leaves out."""
        return DAMPING * joint_velocity + FRICTION_LOSS * np.tanh(joint_velocity / 0.05)

    def set_torques(self, tau_joints):
        """Joint torques in rbdgen's order (FL, FR, RL, RR; hip, thigh, calf)
        into MuJoCo's ctrl (actuator order), clipped to ctrlrange."""
        ctrl = tau_joints[self.actuator_qpos - 7]
        self.data.ctrl[:] = np.clip(ctrl, self.ctrl_range[:, 0], self.ctrl_range[:, 1])

    def push(self, force_world):
        """A force (N, world axes) on the base's centre of mass until changed."""
        self.data.xfrc_applied[self.base_id, :3] = force_world

    def step(self):
        mujoco.mj_step(self.model, self.data)

    def foot_normal_forces(self):
        """Each foot's normal force from the floor (N), FL, FR, RL, RR."""
        forces = np.zeros(4)
        wrench = np.zeros(6)
        for i in range(self.data.ncon):
            con = self.data.contact[i]
            for leg, geom in enumerate(self.foot_geoms):
                if geom in (con.geom1, con.geom2):
                    mujoco.mj_contactForce(self.model, self.data, i, wrench)
                    forces[leg] += wrench[0]
        return forces

    def body_on_floor(self):
        """The name of a body other than a foot touching the floor, or None."""
        for i in range(self.data.ncon):
            con = self.data.contact[i]
            if self.floor_id not in (con.geom1, con.geom2):
                continue
            other = con.geom2 if con.geom1 == self.floor_id else con.geom1
            if other not in self.foot_geoms:
                return self.model.body(self.model.geom_bodyid[other]).name
        return None


if __name__ == "__main__":
    # `python plant.py OUT.xml`: writes the controller's MJCF (scripts/go2-trot).
    import sys

    print(derive_controller_mjcf(sys.argv[1]))
