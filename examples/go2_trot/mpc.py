"""A whole-body MPC for Go2 on rbdgen's generated Python module.

Real-time iteration: each tick (every `dt`, 50 Hz) the horizon of N knots is
shifted by one knot, its first state set to the measured one, and every knot
linearised in one batch call; one QP in the torque corrections
δu_k (the δx_k eliminated through the dynamics, a dense QP for ProxQP) then
corrects the whole trajectory:

    δx_0 = 0,   δx_{k+1} = A_k δx_k + B_k δu_k + (f(x̄_k, ū_k) ⊖ x̄_{k+1}),
    λ_k ≈ λ̄_k + ∂λ/∂q δq_k + ∂λ/∂v δv_k + ∂λ/∂τ S δu_k   in the friction
    pyramid (μ = 0.6) with λz ≥ f_min for the feet the gait puts down,
    torque limits on ū_k + δu_k,

minimising base pose and velocity tracking, joint posture, each foot's height
against the gait's swing profile, the stance feet's velocity, the touchdown
position (a Raibert step) and the torques. f and λ are rbdgen's
`contact_step_linearization_forces_masked` (semi-implicit Euler, v̇ and λ
from the rigid contact solve of the knot's active feet); x = (q, v) in Pinocchio's
conventions, δx in the tangent space (base twist in the LOCAL frame).

Two linearisers give the same numbers: `RbdgenLinearizer` (one batch call)
and `PinocchioLinearizer` (`constraintDynamics` and
`computeConstraintDynamicsDerivatives` per knot, A and B assembled with
`dIntegrate`).
"""

import time

import numpy as np

NV, NX, NU, NC = 18, 36, 12, 12
FOOT_FRAMES = ("FL_foot", "FR_foot", "RL_foot", "RR_foot")
# Hip positions in the base frame (go2.xml: hip body + thigh offset), for the
# touchdown target.
HIP_XY = np.array([[0.1934, 0.142], [0.1934, -0.142], [-0.1934, 0.142], [-0.1934, -0.142]])


class Gait:
    """The contact schedule: all feet down before `start` (or always, for
    `trot=False`), then a trot of period `period` (FL+RR down for the first
    half, FR+RL for the second)."""

    def __init__(self, trot=True, start=0.5, period=0.5, swing_height=0.07):
        self.trot, self.start, self.period, self.swing_height = trot, start, period, swing_height

    def phase(self, t):
        return ((t - self.start) % self.period) / self.period

    def contact(self, t):
        """Which feet (FL, FR, RL, RR) are down at time t."""
        if not self.trot or t < self.start:
            return np.ones(4, dtype=bool)
        first_half = self.phase(t) < 0.5
        return np.array([first_half, not first_half, not first_half, first_half])

    def swing_fraction(self, t):
        """How far (0 to 1) each foot is through its swing at time t (0 for a
        foot down)."""
        down = self.contact(t)
        s = (self.phase(t) % 0.5) / 0.5 if self.trot and t >= self.start else 0.0
        return np.where(down, 0.0, s)

    def stance_time(self):
        return 0.5 * self.period


class RbdgenLinearizer:
    """The knots' linearisation through the generated module: one batch call
    of `contact_step_linearization_forces_masked` (q⁺, v⁺, A, B, and the
    contact forces λ with Λx = [∂λ/∂q | ∂λ/∂v], Λu = ∂λ/∂u, from the same
    derivative pass)."""

    name = "rbdgen"

    def __init__(self, dyn, damping=0.0):
        self.dyn, self.damping = dyn, damping

    def __call__(self, qs, vs, us, active, h):
        n = len(qs)
        hs, damp = np.full(n, h), np.full(n, self.damping)
        q_next, v_next, a, b, lam, lam_x, lam_u = self.dyn.contact_step_linearization_forces_masked_batch(
            qs, vs, us, hs, active, damp)
        return q_next, v_next, a, b, lam, lam_x[:, :, :NV], lam_x[:, :, NV:], lam_u


class PinocchioLinearizer:
    """The same numbers through Pinocchio: per knot `constraintDynamics` and
    `computeConstraintDynamicsDerivatives` on the knot's active feet (point
    contacts at the foot frames, LOCAL_WORLD_ALIGNED: λ in world axes, as
    rbdgen's), then semi-implicit Euler and its Jacobians with `dIntegrate`."""

    name = "Pinocchio"

    def __init__(self, pin_model):
        import pinocchio as pin

        self.pin, self.model = pin, pin_model
        self.feet = []
        for name in FOOT_FRAMES:
            frame = pin_model.frames[pin_model.getFrameId(name)]
            self.feet.append((frame.parentJoint, frame.placement))
        self.prox = pin.ProximalSettings(1e-12, 0.0, 1)
        self.modes = {}  # contact mask -> (data, constraint models, datas)

    def _mode(self, mask):
        key = tuple(bool(x) for x in mask)
        if key not in self.modes:
            pin = self.pin
            models = pin.StdVec_RigidConstraintModel()
            for leg, down in enumerate(key):
                if down:
                    joint, placement = self.feet[leg]
                    models.append(pin.RigidConstraintModel(
                        pin.ContactType.CONTACT_3D, self.model, joint, placement,
                        pin.ReferenceFrame.LOCAL_WORLD_ALIGNED))
            datas = pin.StdVec_RigidConstraintData()
            for cm in models:
                datas.append(cm.createData())
            data = self.model.createData()
            pin.initConstraintDynamics(self.model, data, models, datas)
            self.modes[key] = (data, models, datas)
        return key, self.modes[key]

    def __call__(self, qs, vs, us, active, h):
        pin, model = self.pin, self.model
        n = len(qs)
        q_next, v_next = np.zeros((n, model.nq)), np.zeros((n, NV))
        a_mat, b_mat = np.zeros((n, NX, NX)), np.zeros((n, NX, NU))
        lam = np.zeros((n, NC))
        dl_dq, dl_dv, dl_du = np.zeros((n, NC, NV)), np.zeros((n, NC, NV)), np.zeros((n, NC, NU))
        eye = np.eye(NV)
        for k in range(n):
            key, (data, models, datas) = self._mode(active[k, ::3])
            tau = np.concatenate([np.zeros(6), us[k]])
            ddq = pin.constraintDynamics(model, data, qs[k], vs[k], tau, models, datas, self.prox)
            pin.computeConstraintDynamicsDerivatives(model, data, models, datas, self.prox)
            rows = np.concatenate([np.arange(3 * leg, 3 * leg + 3) for leg, down in enumerate(key) if down])
            lam[k, rows] = data.lambda_c
            dl_dq[k, rows], dl_dv[k, rows] = data.dlambda_dq, data.dlambda_dv
            dl_du[k, rows] = data.dlambda_dtau[:, 6:]
            v_next[k] = vs[k] + h * ddq
            q_next[k] = pin.integrate(model, qs[k], h * v_next[k])
            d_q = pin.dIntegrate(model, qs[k], h * v_next[k], pin.ArgumentPosition.ARG0)
            d_v = pin.dIntegrate(model, qs[k], h * v_next[k], pin.ArgumentPosition.ARG1)
            dvn_dq, dvn_dv, dvn_du = h * data.ddq_dq, eye + h * data.ddq_dv, h * data.ddq_dtau[:, 6:]
            a_mat[k, :NV, :NV] = d_q + h * d_v @ dvn_dq
            a_mat[k, :NV, NV:] = h * d_v @ dvn_dv
            a_mat[k, NV:, :NV], a_mat[k, NV:, NV:] = dvn_dq, dvn_dv
            b_mat[k, :NV], b_mat[k, NV:] = h * d_v @ dvn_du, dvn_du
        return q_next, v_next, a_mat, b_mat, lam, dl_dq, dl_dv, dl_du


class WholeBodyMPC:
    """See the module's doc. `dyn` is the generated module (frames, Lie
    group); `linearize` one of the linearisers above; `compare` an optional
    second lineariser run on the same knots every tick (timed, and its
    difference recorded), whose result is not used."""

    def __init__(self, dyn, linearize, torque_limit, gait, knots=16, dt=0.02, mu=0.6,
                 base_height=0.28, home=None, compare=None):
        self.dyn, self.linearize, self.compare = dyn, linearize, compare
        self.gait, self.N, self.dt, self.mu = gait, knots, dt, mu
        self.base_height = base_height
        self.home = np.asarray(home)
        self.u_max = 0.95 * torque_limit
        self.f_min = 3.0
        # Weights: base [x y z] pose, [roll pitch yaw], joints; velocities.
        self.w_q = np.concatenate([[20, 20, 400], [300, 300, 50], np.full(12, 2.0)])
        self.w_v = np.concatenate([[40, 40, 20], [4, 4, 10], np.full(12, 0.02)])
        self.w_u, self.w_du = 1e-3, 1e-3
        self.w_foot_z, self.w_foot_v, self.w_step = 2000.0, 20.0, 1000.0
        self.timings = []
        self.compare_error = 0.0
        self._build_qp()

    # -- setup -------------------------------------------------------------

    def _build_qp(self):
        """The condensed QP in U = (δu_0 .. δu_{N-1}): the states are
        eliminated through the linearised dynamics, X = G U + c. ProxQP's
        dense solver takes it with the torque limits as box constraints and
        five friction rows per foot and knot (those of a foot in the air are
        zero rows between -1 and 1, always satisfied, so the dimensions
        stay)."""
        import proxsuite

        n, n_in = self.N * NU, self.N * 20
        self.qp = proxsuite.proxqp.dense.QP(n, 0, n_in, True)
        self.qp.settings.eps_abs = 1e-5
        self.qp.settings.eps_rel = 0.0
        self.qp.settings.max_iter = 200
        self.qp.settings.initial_guess = proxsuite.proxqp.InitialGuess.WARM_START_WITH_PREVIOUS_RESULT
        self.qp.settings.verbose = False
        self.qp_ready = False
        self.qp_cold_solves = self.qp_failures = 0  # counted over the run
        # The friction pyramid: rows λz, λx - μλz, -λx - μλz, λy - μλz, -λy - μλz.
        mu = self.mu
        self.cone = np.array([[0, 0, 1], [1, 0, -mu], [-1, 0, -mu], [0, 1, -mu], [0, -1, -mu]], dtype=float)

    def reset(self, q, v):
        """The first trajectory: the measured state held, the torques that
        hold the robot up on four feet (each foot carrying a quarter of the
        weight)."""
        N = self.N
        self.qs = np.tile(q, (N + 1, 1))
        self.vs = np.tile(v, (N + 1, 1))
        g = self.dyn.generalized_gravity(q)  # = Sᵀτ + Σ J_footᵀ λ_foot at rest
        mg = np.linalg.norm(g[:3])  # the weight: the base's force row
        force = np.zeros(NC)
        force[2::3] = mg / 4  # per foot, world z
        jt = sum(self.dyn.frame_jacobian_local_world_aligned(q, f)[:3].T @ force[3 * i:3 * i + 3]
                 for i, f in enumerate(FOOT_FRAMES))
        u = (g - jt)[6:]
        self.us = np.tile(u, (N, 1))
        self.ref_xy = q[:2].copy()
        self.ref_yaw = _yaw(q[3:7])
        self.t_tick = None

    # -- one tick ----------------------------------------------------------

    def _references(self, t, command):
        """Per knot: the reference configuration and velocity, the feet's
        height and the contact masks."""
        N, dt = self.N, self.dt
        vx, vy, wz = command
        qr, vr = np.zeros((N + 1, 19)), np.zeros((N + 1, NV))
        xy, yaw = self.ref_xy.copy(), self.ref_yaw
        for k in range(N + 1):
            qr[k, :2], qr[k, 2] = xy, self.base_height
            qr[k, 3:7] = [0, 0, np.sin(yaw / 2), np.cos(yaw / 2)]
            qr[k, 7:] = self.home
            vr[k, :3] = [vx, vy, 0]
            vr[k, 5] = wz
            c, s = np.cos(yaw), np.sin(yaw)
            xy = xy + dt * np.array([c * vx - s * vy, s * vx + c * vy])
            yaw += dt * wz
        times = t + dt * np.arange(N + 1)
        down = np.array([self.gait.contact(tk + 0.5 * dt) for tk in times])  # over step k
        swing = np.array([self.gait.swing_fraction(tk) for tk in times])  # at knot k
        foot_z = 0.022 + self.gait.swing_height * 0.5 * (1 - np.cos(2 * np.pi * swing))  # lands at rest
        return qr, vr, down, foot_z

    def tick(self, t, q, v, command):
        """One real-time iteration at time t from the measured (q, v)
        (Pinocchio's conventions); returns the timings (s)."""
        t0 = time.perf_counter()
        N, dt = self.N, self.dt
        if self.t_tick is not None:  # shift the horizon by one knot
            self.qs[:-1], self.vs[:-1], self.us[:-1] = self.qs[1:], self.vs[1:], self.us[1:]
        self.t_tick = t
        self.qs[0], self.vs[0] = q, v
        # The reference path follows the command, and the robot when it is pushed away.
        c, s = np.cos(self.ref_yaw), np.sin(self.ref_yaw)
        vx, vy, wz = command
        self.ref_xy += dt * np.array([c * vx - s * vy, s * vx + c * vy])
        self.ref_yaw += dt * wz
        gap = q[:2] - self.ref_xy
        if np.linalg.norm(gap) > 0.1:
            self.ref_xy += gap * (1 - 0.1 / np.linalg.norm(gap))
        qr, vr, down, foot_z = self._references(t, command)
        active = np.repeat(down[:N], 3, axis=1).astype(float)

        t1 = time.perf_counter()
        lin = self.linearize(self.qs[:N], self.vs[:N], self.us, active, dt)
        t2 = time.perf_counter()
        t_compare = 0.0
        if self.compare is not None:
            other = self.compare(self.qs[:N], self.vs[:N], self.us, active, dt)
            t_compare = time.perf_counter() - t2
            self.compare_error = max(self.compare_error, max(
                float(np.max(np.abs(x - y)) / (1 + np.max(np.abs(y)))) for x, y in zip(lin[2:], other[2:])))
        t3 = time.perf_counter()
        q_next, v_next, a_mat, b_mat, lam, dl_dq, dl_dv, dl_du = lin

        hess, grad = self._state_costs(qr, vr, down, foot_z)
        H, g, C, lo, hi, G, c = self._condense(hess, grad, down[:N], q_next, v_next, a_mat, b_mat,
                                               lam, dl_dq, dl_dv, dl_du)
        t4 = time.perf_counter()
        du = self._solve(H, g, C, lo, hi)
        t5 = time.perf_counter()
        if du is not None:
            dx = np.zeros((N + 1, NX))
            dx[1:] = G @ du + c
            self.qs = self.dyn.integrate_batch(self.qs, dx[:, :NV])
            self.vs = self.vs + dx[:, NV:]
            self.us = np.clip(self.us + du.reshape(N, NU), -self.u_max, self.u_max)
        self.down_now = down[0]
        t6 = time.perf_counter()
        timing = dict(linearisation=t2 - t1, qp=t5 - t4, rest=(t1 - t0) + (t4 - t3) + (t6 - t5),
                      compare=t_compare)
        self.timings.append(timing)
        return timing

    def _state_costs(self, qr, vr, down, foot_z):
        """The quadratic cost of each knot's δx_k: (H_k, g_k) for
        ½ δxᵀ H δx + gᵀ δx (knot 0 is fixed and has none)."""
        N, dyn = self.N, self.dyn
        hess = np.zeros((N + 1, NX, NX))
        grad = np.zeros((N + 1, NX))
        e_q = dyn.difference_batch(qr, self.qs)  # q̄_k ⊖ q_ref,k
        e_v = self.vs - vr
        w = np.concatenate([self.w_q, self.w_v])
        hess[1:] += np.diag(w)
        grad[1:] = w * np.concatenate([e_q, e_v], axis=1)[1:]
        stance_time = self.gait.stance_time()
        for leg, frame in enumerate(FOOT_FRAMES):
            place = dyn.frame_placement_batch(self.qs, frame)
            jac = dyn.frame_jacobian_local_world_aligned_batch(self.qs, frame)[:, :3]
            pos = place[:, :3, 3]
            jz = jac[:, 2]
            # Height against the swing profile (the sphere's centre).
            hess[1:, :NV, :NV] += self.w_foot_z * jz[1:, :, None] * jz[1:, None, :]
            grad[1:, :NV] += self.w_foot_z * (pos[1:, 2] - foot_z[1:, leg])[:, None] * jz[1:]
            for k in range(1, N + 1):
                # A foot down keeps the velocity it lands with in the rigid
                # model: penalise it.
                if down[k, leg]:
                    jk = jac[k]
                    hess[k, NV:, NV:] += self.w_foot_v * jk.T @ jk
                    grad[k, NV:] += self.w_foot_v * jk.T @ (jk @ self.vs[k])
                # Touchdown: the first knot down after a swing, under the
                # hip moved half a stance along the commanded velocity.
                if down[k, leg] and not down[k - 1, leg]:
                    c, s = np.cos(_yaw(self.qs[k, 3:7])), np.sin(_yaw(self.qs[k, 3:7]))
                    rot = np.array([[c, -s], [s, c]])
                    target = self.qs[k, :2] + rot @ (HIP_XY[leg] + 0.5 * stance_time * vr[k, :2])
                    jxy = jac[k, :2]
                    hess[k, :NV, :NV] += self.w_step * jxy.T @ jxy
                    grad[k, :NV] += self.w_step * jxy.T @ (pos[k, :2] - target)
        return hess[1:], grad[1:]

    def _condense(self, hess, grad, down, q_next, v_next, a_mat, b_mat, lam, dl_dq, dl_dv, dl_du):
        """The QP in U: X = G U + c from the linearised dynamics, the costs
        and the friction rows moved onto U."""
        N, dyn = self.N, self.dyn
        # δx_{k+1} = A_k δx_k + B_k δu_k + d_k, d_k = f(x̄_k, ū_k) ⊖ x̄_{k+1}.
        defect = np.concatenate([dyn.difference_batch(self.qs[1:], q_next), v_next - self.vs[1:]], axis=1)
        G = np.zeros((N, NX, N * NU))  # δx_{k+1} = G[k] U + c[k]
        c = np.zeros((N, NX))
        for k in range(N):
            if k > 0:  # G[k - 1] is zero from column k NU on
                G[k, :, :k * NU] = a_mat[k] @ G[k - 1, :, :k * NU]
                c[k] = a_mat[k] @ c[k - 1]
            G[k, :, k * NU:(k + 1) * NU] = b_mat[k]
            c[k] += defect[k]
        g2 = G.reshape(N * NX, N * NU)
        H = g2.T @ np.matmul(hess, G).reshape(N * NX, N * NU) + (self.w_u + self.w_du) * np.eye(N * NU)
        g = g2.T @ (np.matmul(hess, c[:, :, None])[:, :, 0] + grad).reshape(-1) + self.w_u * self.us.reshape(-1)
        # Friction on λ_k ≈ λ̄_k + ∂λ/∂x δx_k + ∂λ/∂u δu_k, for the feet down.
        dl_dx = np.concatenate([dl_dq, dl_dv], axis=2)  # (N, 12, 36)
        C = np.zeros((N, 20, N * NU))
        lo = np.full((N, 20), -1.0)  # a foot in the air: zero rows, always satisfied
        hi = np.full((N, 20), 1.0)
        for k in range(N):
            lam_k = lam[k].copy()
            rows_x = np.zeros((12, N * NU))
            if k > 0:
                rows_x = dl_dx[k] @ G[k - 1]
                lam_k += dl_dx[k] @ c[k - 1]
            rows_x[:, k * NU:(k + 1) * NU] += dl_du[k]
            for leg in np.flatnonzero(down[k]):
                f = slice(3 * leg, 3 * leg + 3)
                r = slice(5 * leg, 5 * leg + 5)
                C[k, r] = self.cone @ rows_x[f]
                cl = self.cone @ lam_k[f]
                lo[k, r] = np.array([self.f_min, -1e20, -1e20, -1e20, -1e20]) - cl
                hi[k, r] = np.array([1e20, 0, 0, 0, 0]) - cl
        return H, g, C.reshape(N * 20, -1), lo.reshape(-1), hi.reshape(-1), G, c

    def _solve(self, H, g, C, lo, hi):
        lo_box = (-self.u_max - self.us).reshape(-1)
        hi_box = (self.u_max - self.us).reshape(-1)
        if not self.qp_ready:
            self.qp.init(H, g, None, None, C, lo, hi, lo_box, hi_box)
            self.qp_ready = True
        else:
            self.qp.update(H, g, None, None, C, lo, hi, lo_box, hi_box)
        self.qp.solve()
        if self.qp.results.info.status != proxsuite_solved():
            self.qp_cold_solves += 1
            # Warm-started from the last tick's solution, ProxQP sometimes
            # declares a feasible QP infeasible after one iteration (25
            # ticks in 3 s of trot, each feasible by an LP): solve it again
            # from its equality-constrained guess.
            guess = self.qp.settings.initial_guess
            self.qp.settings.initial_guess = proxsuite_guess("EQUALITY_CONSTRAINED_INITIAL_GUESS")
            self.qp.init(H, g, None, None, C, lo, hi, lo_box, hi_box)
            self.qp.solve()
            self.qp.settings.initial_guess = guess
        res = self.qp.results
        self.qp_status = res.info.status
        self.qp_iterations = res.info.iter
        x = np.array(res.x)
        solved = self.qp_status == proxsuite_solved()
        self.qp_failures += not solved
        return x if solved and np.all(np.isfinite(x)) else None

    # -- between ticks -----------------------------------------------------

    def joint_targets(self, t):
        """(q_des, v_des, τ_ff) of the joints at time t within the tick:
        the trajectory between knots 0 and 1, the first knot's torque."""
        s = np.clip((t - self.t_tick) / self.dt, 0.0, 1.0)
        q_des = (1 - s) * self.qs[0, 7:] + s * self.qs[1, 7:]
        v_des = (1 - s) * self.vs[0, 6:] + s * self.vs[1, 6:]
        return q_des, v_des, self.us[0]


def proxsuite_solved():
    import proxsuite

    return proxsuite.proxqp.QPSolverOutput.PROXQP_SOLVED


def proxsuite_guess(name):
    import proxsuite

    return getattr(proxsuite.proxqp.InitialGuess, name)


def _yaw(quat_xyzw):
    x, y, z, w = quat_xyzw
    return float(np.arctan2(2 * (w * z + x * y), 1 - 2 * (y * y + z * z)))
