// Pinocchio's template library timed on the same kind of states as rbdgen's
// criterion benches (benches/dynamics.rs), for the side-by-side table of
// scripts/bench.
//
// Usage: harness [--batches N] [--batch-ms T] ROBOT [ROBOT ...], where
//   ROBOT = [--contacts LINK:point|6d,... --frame LINK] NAME URDF floating|fixed
//
// For each robot: one Model, one Data reused, 100 random states cycled:
// q = integrate(neutral, U[-1,1]^nv), and for a free-flyer root its position
// drawn in U[-1,1]^3 and its quaternion uniformly on the unit sphere; v, a, tau
// in U[-1,1]^nv; a second configuration q2 drawn as q (difference, dDifference);
// fext: one wrench in U[-1,1]^6 per joint (the universe's zero); the target of
// the pose error: the bench frame's placement at q2. Per-frame algorithms use
// the link frame at the end of the longest joint chain, as rbdgen's benches.
// Each algorithm runs one warm-up batch, then N batches (9 by default) of about
// T ms (30 by default); the figure is the median batch time divided by its
// number of calls. Output: TSV lines `robot<TAB>function<TAB>ns<TAB>min` on
// standard output, in ns per call: the median batch's and the fastest
// batch's (scripts/bench's spread, (median - min) / median). A name ending
// in `*` is a composition of Pinocchio
// calls computing what the rbdgen function of the same name computes
// (poseError*, stepLinearization*).
//
// A robot with --contacts (the stance robots of benches/stance.rs) times the
// MPC derivatives instead, with those contacts and per-frame algorithms on
// the --frame link: a point contact is a CONTACT_3D constraint in
// LOCAL_WORLD_ALIGNED, a 6d one CONTACT_6D in LOCAL, on the link's BODY frame
// (its parent joint and placement); default ProximalSettings (mu = 0, one
// iteration), as rbdgen's zero damping. Each timed call runs the forward pass
// that the derivatives need: constraintDynamics before
// computeConstraintDynamicsDerivatives, impulseDynamics (r = 0) before
// computeImpulseDynamicsDerivatives, computeForwardKinematicsDerivatives(q, v,
// a) before getFrameVelocityDerivatives / getFrameAccelerationDerivatives
// (rbdgen's frame_velocity_derivatives_local takes no a: Pinocchio has no
// velocity-only pass). contactStepLinearization* is stepLinearization* with
// constraintDynamics and its derivatives in place of ABA's.
//
// Where the work differs from rbdgen's (which always returns full matrices):
// crba, computeRNEADerivatives (dtau_da) and computeMinverse fill only the upper
// triangle; getFrameJacobian, dIntegrate and dDifference write only the nonzero
// columns or blocks (their outputs are zeroed once, before timing).
//
// Built by benches/pinocchio/build.sh against the headers and libraries of
// PyPI's pin 4.1.0 wheel.

#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/center-of-mass.hpp>
#include <pinocchio/algorithm/centroidal-derivatives.hpp>
#include <pinocchio/algorithm/centroidal.hpp>
#include <pinocchio/algorithm/constrained-dynamics-derivatives.hpp>
#include <pinocchio/algorithm/constrained-dynamics.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/energy.hpp>
#include <pinocchio/algorithm/frames-derivatives.hpp>
#include <pinocchio/algorithm/frames.hpp>
#include <pinocchio/algorithm/impulse-dynamics-derivatives.hpp>
#include <pinocchio/algorithm/impulse-dynamics.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/algorithm/kinematics-derivatives.hpp>
#include <pinocchio/algorithm/kinematics.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody.hpp>
#include <pinocchio/parsers/urdf.hpp>
#include <pinocchio/spatial.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pin = pinocchio;

namespace {

constexpr int kStates = 100;

// Keeps the compiler from dropping the work whose results land in `data`.
template <typename T>
inline void keep(T &value) {
  asm volatile("" : : "g"(&value) : "memory");
}

struct State {
  Eigen::VectorXd q, v, a, tau;
  // A second configuration; tau with the free-flyer's entries zero (S u).
  Eigen::VectorXd q2, tau_actuated;
  // One wrench per joint, in the joint's frame.
  std::vector<pin::Force> fext;
  // The bench frame's placement at q2.
  pin::SE3 target;
};

// The time step of stepLinearization* (s), as rbdgen's bench.
constexpr double kStep = 0.01;

// A uniform unit quaternion (Shoemake 1992), as [x, y, z, w].
Eigen::Vector4d random_unit_quaternion(std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const double u1 = u01(rng), u2 = u01(rng), u3 = u01(rng);
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  const double tau = 2.0 * M_PI;
  return {a * std::sin(tau * u2), a * std::cos(tau * u2), b * std::sin(tau * u3),
          b * std::cos(tau * u3)};
}

// `frame`: the frame whose placement at q2 is the pose error's target.
std::vector<State> random_states(const pin::Model &model, bool floating, pin::FrameIndex frame,
                                 std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  auto uniform = [&](int n) {
    Eigen::VectorXd x(n);
    for (int i = 0; i < n; ++i) x[i] = u(rng);
    return x;
  };
  auto random_q = [&]() {
    Eigen::VectorXd q = pin::integrate(model, pin::neutral(model), uniform(model.nv));
    if (floating) {
      q.head<3>() = uniform(3);
      q.segment<4>(3) = random_unit_quaternion(rng);
    }
    return q;
  };
  pin::Data data(model);
  std::vector<State> states;
  for (int k = 0; k < kStates; ++k) {
    State s;
    s.q = random_q();
    s.v = uniform(model.nv);
    s.a = uniform(model.nv);
    s.tau = uniform(model.nv);
    s.q2 = random_q();
    s.tau_actuated = s.tau;
    if (floating) s.tau_actuated.head<6>().setZero();
    s.fext.assign(model.njoints, pin::Force::Zero());
    for (int i = 1; i < model.njoints; ++i) s.fext[i] = pin::Force(Eigen::Matrix<double, 6, 1>(uniform(6)));
    pin::forwardKinematics(model, data, s.q2);
    s.target = pin::updateFramePlacement(model, data, frame);
    states.push_back(s);
  }
  return states;
}

// The ns per call of the median and of the fastest batch.
struct Timing {
  double median, min;
};

// The ns per call of `call(state)` over `batches` batches, cycling the states.
template <typename Call>
Timing time_ns(const std::vector<State> &states, int batches, double batch_ms, Call call) {
  using clock = std::chrono::steady_clock;
  auto run = [&](long calls) {
    const auto start = clock::now();
    for (long i = 0; i < calls; ++i) call(states[i % kStates]);
    return std::chrono::duration<double, std::nano>(clock::now() - start).count();
  };
  // Calibrate the batch length on one pass over the states (also a warm-up).
  const double per_call = std::max(run(kStates) / kStates, 1.0);
  const long calls = std::max<long>(kStates, static_cast<long>(batch_ms * 1e6 / per_call));
  run(calls);
  std::vector<double> ns;
  for (int b = 0; b < batches; ++b) ns.push_back(run(calls) / static_cast<double>(calls));
  std::nth_element(ns.begin(), ns.begin() + ns.size() / 2, ns.end());
  return {ns[ns.size() / 2], *std::min_element(ns.begin(), ns.end())};
}

void bench_robot(const std::string &name, const pin::Model &model, bool floating, int batches,
                 double batch_ms) {
  pin::Data data(model);

  // The link (BODY) frame at the end of the longest joint chain, the first in
  // model order among ties, as rbdgen's frame_placement bench.
  auto depth = [&](pin::JointIndex joint) {
    int n = 0;
    for (; joint != 0; joint = model.parents[joint]) ++n;
    return n;
  };
  pin::FrameIndex frame = 0;
  for (pin::FrameIndex i = 0; i < model.frames.size(); ++i)
    if (model.frames[i].type == pin::BODY &&
        depth(model.frames[i].parentJoint) > depth(model.frames[frame].parentJoint))
      frame = i;
  std::fprintf(stderr, "harness: %s: per-frame algorithms on %s\n", name.c_str(),
               model.frames[frame].name.c_str());
  std::mt19937_64 rng(2024);
  const auto states = random_states(model, floating, frame, rng);

  // Outputs of the algorithms that do not write into `data`.
  const int nv = model.nv;
  const int nu = floating ? nv - 6 : nv;
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(6, nv), J_e(6, nv), Dq = Eigen::MatrixXd::Zero(nv, nv),
                  Dv = Eigen::MatrixXd::Zero(nv, nv), A(2 * nv, 2 * nv), B(2 * nv, nu);
  Eigen::Matrix<double, 6, 6> J_log;
  Eigen::Matrix<double, 6, 1> e;
  Eigen::VectorXd q_out(model.nq), v_out(nv), hv(nv);

  // One algorithm: timed and printed. A template, so that the call inlines.
  auto report = [&](const char *function, auto call) {
    const Timing t = time_ns(states, batches, batch_ms, call);
    std::printf("%s\t%s\t%.1f\t%.1f\n", name.c_str(), function, t.median, t.min);
    std::fflush(stdout);
  };
  report("forwardKinematics", [&](const State &s) {
    pin::forwardKinematics(model, data, s.q);
    keep(data);
  });
  report("framePlacement", [&](const State &s) {
    pin::forwardKinematics(model, data, s.q);
    pin::updateFramePlacement(model, data, frame);
    keep(data);
  });
  report("rnea", [&](const State &s) {
    pin::rnea(model, data, s.q, s.v, s.a);
    keep(data);
  });
  report("nonLinearEffects", [&](const State &s) {
    pin::nonLinearEffects(model, data, s.q, s.v);
    keep(data);
  });
  report("computeGeneralizedGravity", [&](const State &s) {
    pin::computeGeneralizedGravity(model, data, s.q);
    keep(data);
  });
  report("crba", [&](const State &s) {
    pin::crba(model, data, s.q);
    keep(data);
  });
  report("aba", [&](const State &s) {
    pin::aba(model, data, s.q, s.v, s.tau);
    keep(data);
  });
  report("computeMinverse", [&](const State &s) {
    pin::computeMinverse(model, data, s.q);
    keep(data);
  });
  report("ccrba", [&](const State &s) {
    pin::ccrba(model, data, s.q, s.v);
    keep(data);
  });
  report("centerOfMass", [&](const State &s) {
    pin::centerOfMass(model, data, s.q);
    keep(data);
  });
  report("jacobianCenterOfMass", [&](const State &s) {
    pin::jacobianCenterOfMass(model, data, s.q);
    keep(data);
  });
  report("computeKineticEnergy", [&](const State &s) {
    double energy = pin::computeKineticEnergy(model, data, s.q, s.v);
    keep(energy);
    keep(data);
  });
  report("computeRNEADerivatives", [&](const State &s) {
    pin::computeRNEADerivatives(model, data, s.q, s.v, s.a);
    keep(data);
  });
  report("computeABADerivatives", [&](const State &s) {
    pin::computeABADerivatives(model, data, s.q, s.v, s.tau);
    keep(data);
  });
  report("dccrba", [&](const State &s) {
    pin::dccrba(model, data, s.q, s.v);
    keep(data);
  });
  report("computePotentialEnergy", [&](const State &s) {
    double energy = pin::computePotentialEnergy(model, data, s.q);
    keep(energy);
    keep(data);
  });
  report("computeJointJacobians", [&](const State &s) {
    pin::computeJointJacobians(model, data, s.q);
    keep(data);
  });
  // getFrameJacobian after computeJointJacobians (the runtime's way), and
  // computeFrameJacobian (only the frame's support chain, as the generated code).
  const std::pair<const char *, pin::ReferenceFrame> references[] = {
      {"LOCAL", pin::LOCAL}, {"WORLD", pin::WORLD}, {"LOCAL_WORLD_ALIGNED", pin::LOCAL_WORLD_ALIGNED}};
  for (const auto &[rf_name, rf] : references) {
    J.setZero();
    report(("getFrameJacobian(" + std::string(rf_name) + ")").c_str(), [&, rf = rf](const State &s) {
      pin::computeJointJacobians(model, data, s.q);
      pin::getFrameJacobian(model, data, frame, rf, J);
      keep(J);
      keep(data);
    });
    J.setZero();
    report(("computeFrameJacobian(" + std::string(rf_name) + ")").c_str(), [&, rf = rf](const State &s) {
      pin::computeFrameJacobian(model, data, s.q, frame, rf, J);
      keep(J);
      keep(data);
    });
  }
  report("rnea(fext)", [&](const State &s) {
    pin::rnea(model, data, s.q, s.v, s.a, s.fext);
    keep(data);
  });
  report("computeRNEADerivatives(fext)", [&](const State &s) {
    pin::computeRNEADerivatives(model, data, s.q, s.v, s.a, s.fext);
    keep(data);
  });
  report("integrate", [&](const State &s) {
    pin::integrate(model, s.q, s.v, q_out);
    keep(q_out);
  });
  report("difference", [&](const State &s) {
    pin::difference(model, s.q, s.q2, v_out);
    keep(v_out);
  });
  report("dIntegrate(ARG0)", [&](const State &s) {
    pin::dIntegrate(model, s.q, s.v, Dq, pin::ARG0);
    keep(Dq);
  });
  report("dIntegrate(ARG1)", [&](const State &s) {
    pin::dIntegrate(model, s.q, s.v, Dq, pin::ARG1);
    keep(Dq);
  });
  report("dDifference(ARG0)", [&](const State &s) {
    pin::dDifference(model, s.q, s.q2, Dq, pin::ARG0);
    keep(Dq);
  });
  report("dDifference(ARG1)", [&](const State &s) {
    pin::dDifference(model, s.q, s.q2, Dq, pin::ARG1);
    keep(Dq);
  });
  // rbdgen's pose_error: E = oMf⁻¹ target, e = log6(E), J_e = -Jlog6(E⁻¹) J_local.
  J.setZero();
  report("poseError*", [&](const State &s) {
    pin::computeJointJacobians(model, data, s.q);
    const pin::SE3 E = pin::updateFramePlacement(model, data, frame).actInv(s.target);
    e = pin::log6(E).toVector();
    pin::Jlog6(E.inverse(), J_log);
    pin::getFrameJacobian(model, data, frame, pin::LOCAL, J);
    J_e.noalias() = -J_log * J;
    keep(e);
    keep(J_e);
    keep(data);
  });
  // rbdgen's step_linearization: a = aba(q, v, S u) (computeABADerivatives also
  // leaves it in data.ddq), v+ = v + h a, q+ = integrate(q, h v+), and
  // A = [[Dq + h² Dv ∂a/∂q, h Dv (I + h ∂a/∂v)], [h ∂a/∂q, I + h ∂a/∂v]],
  // B = [[h² Dv M⁻¹ S], [h M⁻¹ S]] with Dq, Dv = dIntegrate(q, h v+, ARG0 / ARG1).
  Dq.setZero();
  Dv.setZero();
  report("stepLinearization*", [&](const State &s) {
    pin::computeABADerivatives(model, data, s.q, s.v, s.tau_actuated);
    v_out = s.v + kStep * data.ddq;
    hv = kStep * v_out;
    pin::integrate(model, s.q, hv, q_out);
    pin::dIntegrate(model, s.q, hv, Dq, pin::ARG0);
    pin::dIntegrate(model, s.q, hv, Dv, pin::ARG1);
    A.bottomLeftCorner(nv, nv) = kStep * data.ddq_dq;
    A.bottomRightCorner(nv, nv) = kStep * data.ddq_dv;
    A.bottomRightCorner(nv, nv).diagonal().array() += 1.0;
    A.topLeftCorner(nv, nv) = Dq;
    A.topLeftCorner(nv, nv).noalias() += kStep * Dv * A.bottomLeftCorner(nv, nv);
    A.topRightCorner(nv, nv).noalias() = kStep * Dv * A.bottomRightCorner(nv, nv);
    B.bottomRows(nv) = kStep * data.Minv.rightCols(nu);
    B.topRows(nv).noalias() = kStep * Dv * B.bottomRows(nv);
    keep(q_out);
    keep(v_out);
    keep(A);
    keep(B);
    keep(data);
  });
}

// One contact of a stance robot: the link's name, 6-D (true) or point.
using ContactSpec = std::vector<std::pair<std::string, bool>>;

// The MPC derivatives with the contacts `contacts`, per-frame algorithms on `frame_name`.
void bench_stance(const std::string &name, const pin::Model &model, bool floating,
                  const ContactSpec &contacts, const std::string &frame_name, int batches,
                  double batch_ms) {
  pin::Data data(model);
  auto link = [&](const std::string &link_name) {
    if (!model.existFrame(link_name, pin::BODY))
      throw std::runtime_error("no link frame " + link_name);
    return model.getFrameId(link_name, pin::BODY);
  };
  const pin::FrameIndex frame = link(frame_name);
  std::fprintf(stderr, "harness: %s: per-frame algorithms on %s\n", name.c_str(), frame_name.c_str());
  std::mt19937_64 rng(2024);
  const auto states = random_states(model, floating, frame, rng);

  PINOCCHIO_STD_VECTOR_WITH_EIGEN_ALLOCATOR(pin::RigidConstraintModel) contact_models;
  PINOCCHIO_STD_VECTOR_WITH_EIGEN_ALLOCATOR(pin::RigidConstraintData) contact_datas;
  for (const auto &[link_name, six] : contacts) {
    const pin::Frame &f = model.frames[link(link_name)];
    contact_models.emplace_back(six ? pin::CONTACT_6D : pin::CONTACT_3D, model, f.parentJoint,
                                f.placement, six ? pin::LOCAL : pin::LOCAL_WORLD_ALIGNED);
  }
  for (const auto &cm : contact_models) contact_datas.emplace_back(cm);
  pin::initConstraintDynamics(model, data, contact_models, contact_datas);
  pin::ProximalSettings settings;

  const int nv = model.nv;
  const int nu = floating ? nv - 6 : nv;
  pin::Data::Matrix6x dh_dq = pin::Data::Matrix6x::Zero(6, nv), dhdot_dq = dh_dq, dhdot_dv = dh_dq,
                      dhdot_da = dh_dq, v_dq = dh_dq, v_dv = dh_dq, a_dq = dh_dq, a_dv = dh_dq,
                      a_da = dh_dq;
  Eigen::MatrixXd Dq = Eigen::MatrixXd::Zero(nv, nv), Dv = Eigen::MatrixXd::Zero(nv, nv),
                  A(2 * nv, 2 * nv), B(2 * nv, nu);
  Eigen::VectorXd q_out(model.nq), v_out(nv), hv(nv);

  auto report = [&](const char *function, auto call) {
    const Timing t = time_ns(states, batches, batch_ms, call);
    std::printf("%s\t%s\t%.1f\t%.1f\n", name.c_str(), function, t.median, t.min);
    std::fflush(stdout);
  };
  report("constraintDynamics", [&](const State &s) {
    pin::constraintDynamics(model, data, s.q, s.v, s.tau, contact_models, contact_datas, settings);
    keep(data);
  });
  report("computeConstraintDynamicsDerivatives", [&](const State &s) {
    pin::constraintDynamics(model, data, s.q, s.v, s.tau, contact_models, contact_datas, settings);
    pin::computeConstraintDynamicsDerivatives(model, data, contact_models, contact_datas, settings);
    keep(data);
  });
  report("computeCentroidalDynamicsDerivatives", [&](const State &s) {
    pin::computeCentroidalDynamicsDerivatives(model, data, s.q, s.v, s.a, dh_dq, dhdot_dq, dhdot_dv,
                                              dhdot_da);
    keep(dh_dq);
    keep(dhdot_dq);
    keep(dhdot_dv);
    keep(dhdot_da);
    keep(data);
  });
  report("getFrameVelocityDerivatives(LOCAL)", [&](const State &s) {
    pin::computeForwardKinematicsDerivatives(model, data, s.q, s.v, s.a);
    pin::getFrameVelocityDerivatives(model, data, frame, pin::LOCAL, v_dq, v_dv);
    keep(v_dq);
    keep(v_dv);
    keep(data);
  });
  report("getFrameAccelerationDerivatives(LOCAL)", [&](const State &s) {
    pin::computeForwardKinematicsDerivatives(model, data, s.q, s.v, s.a);
    pin::getFrameAccelerationDerivatives(model, data, frame, pin::LOCAL, v_dq, a_dq, a_dv, a_da);
    keep(v_dq);
    keep(a_dq);
    keep(a_dv);
    keep(a_da);
    keep(data);
  });
  report("computeImpulseDynamicsDerivatives", [&](const State &s) {
    pin::impulseDynamics(model, data, s.q, s.v, contact_models, contact_datas, 0.0, settings);
    pin::computeImpulseDynamicsDerivatives(model, data, contact_models, contact_datas, 0.0, settings);
    keep(data);
  });
  // rbdgen's contact_step_linearization: stepLinearization* (see bench_robot)
  // with a, ∂a/∂q, ∂a/∂v, ∂a/∂tau from the constrained dynamics.
  report("contactStepLinearization*", [&](const State &s) {
    pin::constraintDynamics(model, data, s.q, s.v, s.tau_actuated, contact_models, contact_datas,
                            settings);
    pin::computeConstraintDynamicsDerivatives(model, data, contact_models, contact_datas, settings);
    v_out = s.v + kStep * data.ddq;
    hv = kStep * v_out;
    pin::integrate(model, s.q, hv, q_out);
    pin::dIntegrate(model, s.q, hv, Dq, pin::ARG0);
    pin::dIntegrate(model, s.q, hv, Dv, pin::ARG1);
    A.bottomLeftCorner(nv, nv) = kStep * data.ddq_dq;
    A.bottomRightCorner(nv, nv) = kStep * data.ddq_dv;
    A.bottomRightCorner(nv, nv).diagonal().array() += 1.0;
    A.topLeftCorner(nv, nv) = Dq;
    A.topLeftCorner(nv, nv).noalias() += kStep * Dv * A.bottomLeftCorner(nv, nv);
    A.topRightCorner(nv, nv).noalias() = kStep * Dv * A.bottomRightCorner(nv, nv);
    B.bottomRows(nv) = kStep * data.ddq_dtau.rightCols(nu);
    B.topRows(nv).noalias() = kStep * Dv * B.bottomRows(nv);
    keep(q_out);
    keep(v_out);
    keep(A);
    keep(B);
    keep(data);
  });
}

// `LINK:point|6d,...`.
ContactSpec parse_contacts(const std::string &spec) {
  ContactSpec out;
  std::size_t start = 0;
  while (start <= spec.size()) {
    const std::size_t end = std::min(spec.find(',', start), spec.size());
    const std::string item = spec.substr(start, end - start);
    const std::size_t colon = item.rfind(':');
    if (colon == std::string::npos) throw std::invalid_argument("contact " + item);
    const std::string kind = item.substr(colon + 1);
    if (kind != "point" && kind != "6d") throw std::invalid_argument("contact kind " + kind);
    out.emplace_back(item.substr(0, colon), kind == "6d");
    start = end + 1;
  }
  return out;
}

int usage() {
  std::fprintf(stderr,
               "usage: harness [--batches N] [--batch-ms T] ROBOT [ROBOT ...]\n"
               "  ROBOT = [--contacts LINK:point|6d,... --frame LINK] NAME URDF floating|fixed\n");
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  int batches = 9;
  double batch_ms = 30.0;
  std::size_t i = 0;
  try {
    for (; i + 1 < args.size() && (args[i] == "--batches" || args[i] == "--batch-ms"); i += 2) {
      if (args[i] == "--batches")
        batches = std::stoi(args[i + 1]);
      else
        batch_ms = std::stod(args[i + 1]);
    }
  } catch (const std::exception &) {
    return usage();
  }
  if (i == args.size() || batches < 1 || batch_ms <= 0.0) return usage();
  while (i < args.size()) {
    ContactSpec contacts;
    std::string frame;
    try {
      for (; i + 1 < args.size() && args[i].rfind("--", 0) == 0; i += 2) {
        if (args[i] == "--contacts")
          contacts = parse_contacts(args[i + 1]);
        else if (args[i] == "--frame")
          frame = args[i + 1];
        else
          return usage();
      }
    } catch (const std::exception &) {
      return usage();
    }
    if (args.size() - i < 3 || contacts.empty() != frame.empty()) return usage();
    const std::string &base = args[i + 2];
    if (base != "floating" && base != "fixed") return usage();
    const bool floating = base == "floating";
    try {
      pin::Model model;
      if (floating)
        pin::urdf::buildModel(args[i + 1], pin::JointModelFreeFlyer(), model);
      else
        pin::urdf::buildModel(args[i + 1], model);
      if (contacts.empty())
        bench_robot(args[i], model, floating, batches, batch_ms);
      else
        bench_stance(args[i], model, floating, contacts, frame, batches, batch_ms);
    } catch (const std::exception &e) {
      std::fprintf(stderr, "harness: %s: %s\n", args[i + 1].c_str(), e.what());
      return 1;
    }
    i += 3;
  }
  return 0;
}
