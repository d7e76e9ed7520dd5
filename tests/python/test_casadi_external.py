"""The compiled route of docs/casadi.md: `rbdgen generate --casadi-external NAME
--crate DIR` built with cargo into a shared library of CasADi external functions,
loaded with `casadi.external`, against the runtime (`rbdgen eval`), and its
`jac_rnea` and `jac_aba` (from rnea_derivatives and aba_derivatives) against the
runtime's derivatives, through CasADi's own `jacobian` of an MX expression.

Go2+Z1 (free-flyer, four point contacts; `jac_`'s block of q is with respect to
q's 25 entries, by automatic differentiation of the traced graph, and is checked
through the symbolic module's `integrate` against the tangent-space derivative)
and Z1 (fixed base, a 6-D contact). The crates build in target/casadi-external
(about 15 s for Z1 and 60 s for Go2+Z1, cold).
"""

import importlib.util
import json
import os
import subprocess
import sys

import casadi as ca
import numpy as np
import pytest

from test_casadi import GO2_Z1, ROOT, Z1, close, column, random_states, rbdgen

FUNCTIONS = "rnea,crba,aba,contact_dynamics,contact_inverse_dynamics,contact_drift"
TARGET = ROOT / "target" / "casadi-external"


@pytest.fixture(scope="module", params=[GO2_Z1, Z1], ids=["go2_z1", "z1_6d"])
def external(request, tmp_path_factory):
    """(path of the library, the model's nq and nv, the states with rbdgen eval's values)."""
    spec = request.param
    name = spec["name"] + "_external"
    out = tmp_path_factory.mktemp(name)
    contacts = ",".join(f"{f}:{t}" for f, t in spec["contacts"])
    crate = out / name
    subprocess.run(
        [rbdgen(), "generate", spec["model"], *spec["flags"], "--contacts", contacts,
         "--functions", FUNCTIONS, "--casadi-external", name, "--crate", str(crate), "--quiet"],
        cwd=ROOT, check=True,
    )
    subprocess.run(
        ["cargo", "build", "--release", "--quiet"],
        cwd=crate, check=True, env={**os.environ, "CARGO_TARGET_DIR": str(TARGET)},
    )
    states = out / "states.json"
    data = random_states(spec["reference"], spec["contacts"], 3, seed=56)
    states.write_text(json.dumps(data))
    values = out / "values.json"
    subprocess.run(
        [rbdgen(), "eval", spec["model"], *spec["flags"], "--states", str(states), "-o", str(values)],
        cwd=ROOT, check=True,
    )
    header = data["model"]
    library = TARGET / "release" / f"lib{name}.so"
    # The symbolic module: its integrate for the free-flyer's tangent space,
    # its contact functions for CasADi's own derivatives of them.
    path = out / f"{name}_symbolic.py"
    subprocess.run(
        [rbdgen(), "generate", spec["model"], *spec["flags"], "--contacts", contacts,
         "--functions", "integrate,contact_inverse_dynamics,contact_drift,contact_dynamics",
         "--casadi", f"{name}_symbolic", "-o", str(path), "--quiet"],
        cwd=ROOT, check=True,
    )
    module_spec = importlib.util.spec_from_file_location(f"{name}_symbolic", path)
    symbolic = importlib.util.module_from_spec(module_spec)
    module_spec.loader.exec_module(symbolic)
    integrate = symbolic.integrate_function if header["nq"] != header["nv"] else None
    states = json.loads(values.read_text())["states"]
    return str(library), header["nq"], header["nv"], states, integrate, symbolic


def test_external_values_equal_the_runtime(external):
    library, nq, nv, states, _, _ = external
    rnea, crba, aba, contact_dynamics, contact_inverse_dynamics, contact_drift = (
        ca.external(f, library) for f in FUNCTIONS.split(",")
    )
    assert [rnea.name_in(i) for i in range(3)] == ["q", "v", "a"]
    assert rnea.name_out(0) == "tau" and crba.size_out(0) == (nv, nv)
    assert contact_dynamics.name_out(1) == "lambda"
    if nq != nv:
        # Go2+Z1's mass matrix: the legs' blocks are structural zeros.
        assert crba.sparsity_out(0).nnz() < nv * nv
        assert ca.external("jac_aba", library).sparsity_out(0).nnz() < nv * nq
    for k, s in enumerate(states):
        q, v, a, tau = (column(s[key]) for key in ("q", "v", "a", "tau"))
        close(rnea(q, v, a), s["rnea"], f"rnea {k}")
        close(crba(q), s["crba"], f"crba {k}")
        close(aba(q, v, tau), s["aba"], f"aba {k}")
        ddq, lam = contact_dynamics(q, v, tau, 0.0)
        close(ddq, s["contact_dynamics"]["ddq"], f"contact_dynamics.ddq {k}")
        close(lam, s["contact_dynamics"]["lambda"], f"contact_dynamics.lambda {k}")
        close(contact_inverse_dynamics(q, v, ddq, lam), tau, f"contact_inverse_dynamics {k}")
        close(contact_drift(q, v), s["contact_drift"], f"contact_drift {k}")
        # Inside an MX graph, as IPOPT's problems hold it.
        sq = ca.MX.sym("q", nq)
        f = ca.Function("f", [sq], [aba(sq, v, tau) + 0])
        close(f(q), s["aba"], f"aba in MX {k}")


def test_external_jacobians_are_the_analytical_derivatives(external):
    """CasADi's jacobian of the external rnea and aba (their jac_) against the
    runtime's derivatives; with a free-flyer, d/dδ f(integrate(q, δ)) at δ = 0."""
    library, nq, nv, states, integrate, _ = external
    for name, derivatives, args, outs in [
        ("rnea", "rnea_derivatives", ("q", "v", "a"), ("dtau_dq", "dtau_dv", "dtau_da")),
        ("aba", "aba_derivatives", ("q", "v", "tau"), ("ddq_dq", "ddq_dv", "ddq_dtau")),
    ]:
        f = ca.external(name, library)
        symbols = [ca.MX.sym(a, nq if a == "q" else nv) for a in args]
        delta = ca.MX.sym("delta", nv)
        moved = integrate(symbols[0], delta) if integrate else symbols[0] + delta
        value = f(moved, *symbols[1:])
        jacobians = [ca.jacobian(value, delta)] + [ca.jacobian(value, x) for x in symbols[1:]]
        jac = ca.Function("j", symbols + [delta], jacobians)
        for k, s in enumerate(states):
            blocks = jac(*(column(s[a]) for a in args), np.zeros(nv))
            for block, out in zip(blocks, outs):
                close(block, s[derivatives][out], f"jacobian of external {name}: {out} {k}")


def test_the_opti_example_solves_through_both_routes():
    """examples/casadi/z1_swing.py: IPOPT on the Z1 swing through the symbolic and
    the compiled route; its exit status says the two solutions agree to 1e-3."""
    example = ROOT / "examples" / "casadi" / "z1_swing.py"
    run = subprocess.run(
        [sys.executable, "-W", "ignore::FutureWarning", str(example)],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "RBDGEN": rbdgen()},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("Solve_Succeeded") == 2, run.stdout


def test_the_go2_z1_reach_solves_through_both_routes():
    """examples/casadi/go2_z1_reach.py on a short horizon (6 knots: the full 20
    take about a minute per route): IPOPT on Go2+Z1 standing on its feet through
    the symbolic and the compiled route (jac_contact_dynamics); its exit status
    says the two solutions agree to 1e-3."""
    example = ROOT / "examples" / "casadi" / "go2_z1_reach.py"
    run = subprocess.run(
        [sys.executable, "-W", "ignore::FutureWarning", str(example), "--knots", "6"],
        cwd=ROOT, capture_output=True, text=True, env={**os.environ, "RBDGEN": rbdgen()},
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count("Solve_Succeeded") == 2, run.stdout


def test_external_contact_jacobians_equal_casadis_own(external):
    """jac_contact_inverse_dynamics, jac_contact_drift and jac_contact_dynamics
    (from the analytical derivatives, q's entries by automatic differentiation on
    Go2+Z1, contact_dynamics' damping likewise) against CasADi's own jacobian of
    the symbolic export, of every output with respect to every input."""
    library, nq, nv, states, _, symbolic = external
    nc = symbolic.NC
    for name, sizes in [
        ("contact_inverse_dynamics", (nq, nv, nv, nc)),
        ("contact_drift", (nq, nv)),
        ("contact_dynamics", (nq, nv, nv, 1)),
    ]:
        f = ca.external(name, library)
        g = symbolic.function(name)
        symbols = [ca.MX.sym(f"x{i}", n) for i, n in enumerate(sizes)]

        def jacobians(h):
            out = h(*symbols)
            out = out if isinstance(out, (list, tuple)) else [out]
            return [ca.jacobian(o, x) for o in out for x in symbols]

        ours = ca.Function("ours", symbols, jacobians(f))
        theirs = ca.Function("theirs", symbols, jacobians(g))
        rng = np.random.default_rng(57)
        for k, s in enumerate(states):
            last = rng.uniform(-50, 50, (nc, 1))
            if name == "contact_dynamics":
                last = 1e-3 * (k + 1)  # the damping, its block included
            args = [column(s["q"]), column(s["v"]),
                    column(s["tau" if name == "contact_dynamics" else "a"]), last]
            args = args[: len(sizes)]
            for i, (a, b) in enumerate(zip(ours(*args), theirs(*args))):
                close(a, b.full(), f"jac_{name} block {i} {k}")
