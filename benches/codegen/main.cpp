// Code generated from Pinocchio's algorithms by CppADCodeGen and by CasADi,
// timed on the states of benches/pinocchio/harness.cpp, beside Pinocchio's
// template library itself, for scripts/bench-codegen.
//
// Usage: codegen-bench [--batches N] [--batch-ms T] [--only pinocchio|cppadcg|casadi]...
//                      [--cache-key KEY] --work-dir DIR --cppadcg-flags FLAGS
//                      --casadi-cc COMMAND URDF floating|fixed
//
// The functions, under rbdgen's names: rnea, crba, aba, minverse
// (computeMinverse), rnea_derivatives (computeRNEADerivatives),
// aba_derivatives (computeABADerivatives). Every generated function is
// checked against Pinocchio's double-precision result on all 100 states
// (1e-9, relative to max(1, |value|)) before it is timed; a mismatch stops the
// program with an error. Output: TSV lines `generator<TAB>function<TAB>kind<TAB>value`,
// generator `pinocchio`, `cppadcg`, `casadi` or `casadi-cse` (the latter two
// both selected by `--only casadi`), kind `ns` (median ns per call), or
// `instructions` / `operations` (the size of a CasADi function).
//
// The C generated and compiled at run time goes to DIR. A library there is
// reused when it was built with the same KEY (scripts/bench-codegen passes
// the binary's build stamp), URDF and flags (and, for CasADi, the same C).

#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/joint-configuration.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody.hpp>
#include <pinocchio/parsers/urdf.hpp>

#include "generators.hpp"

#include <fstream>
#include <random>
#include <set>
#include <sstream>

namespace pin = pinocchio;

namespace codegen_bench {

bool cached(const std::string &lib, const std::string &key) {
  std::ifstream so(lib), stamp(lib + ".key");
  std::stringstream text;
  text << stamp.rdbuf();
  return so.good() && stamp.good() && text.str() == key;
}

void mark_cached(const std::string &lib, const std::string &key) {
  std::ofstream(lib + ".key") << key;
}

namespace {

// A uniform unit quaternion (Shoemake 1992), as [x, y, z, w]: harness.cpp's.
Eigen::Vector4d random_unit_quaternion(std::mt19937_64 &rng) {
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  const double u1 = u01(rng), u2 = u01(rng), u3 = u01(rng);
  const double a = std::sqrt(1.0 - u1), b = std::sqrt(u1);
  const double tau = 2.0 * M_PI;
  return {a * std::sin(tau * u2), a * std::cos(tau * u2), b * std::sin(tau * u3),
          b * std::cos(tau * u3)};
}

// harness.cpp's states: the same generator, seed and sequence of draws (the
// draws of q2 and fext, which these functions do not read, are made all the
// same so that every state is the harness's).
std::vector<State> random_states(const pin::Model &model, bool floating) {
  std::mt19937_64 rng(2024);
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
  std::vector<State> states;
  for (int k = 0; k < kStates; ++k) {
    State s;
    s.q = random_q();
    s.v = uniform(model.nv);
    s.a = uniform(model.nv);
    s.tau = uniform(model.nv);
    random_q();                                            // q2
    for (int i = 1; i < model.njoints; ++i) uniform(6);    // fext
    states.push_back(s);
  }
  return states;
}

// Pinocchio's double-precision results at every state, each from a fresh Data
// and zeroed outputs (so the untouched triangles are zero).
std::vector<Reference> references(const pin::Model &model, const std::vector<State> &states) {
  const int nv = model.nv;
  std::vector<Reference> refs;
  for (const auto &s : states) {
    Reference r;
    {
      pin::Data data(model);
      r.tau = pin::rnea(model, data, s.q, s.v, s.a);
    }
    {
      pin::Data data(model);
      data.M.setZero();
      r.M = pin::crba(model, data, s.q);
    }
    {
      pin::Data data(model);
      r.ddq = pin::aba(model, data, s.q, s.v, s.tau);
    }
    {
      pin::Data data(model);
      data.Minv.setZero();
      r.Minv = pin::computeMinverse(model, data, s.q);
    }
    {
      pin::Data data(model);
      r.dtau_dq = r.dtau_dv = r.dtau_da = Eigen::MatrixXd::Zero(nv, nv);
      pin::computeRNEADerivatives(model, data, s.q, s.v, s.a, r.dtau_dq, r.dtau_dv, r.dtau_da);
    }
    {
      pin::Data data(model);
      r.ddq_dq = r.ddq_dv = r.ddq_dtau = Eigen::MatrixXd::Zero(nv, nv);
      pin::computeABADerivatives(model, data, s.q, s.v, s.tau, r.ddq_dq, r.ddq_dv, r.ddq_dtau);
    }
    refs.push_back(r);
  }
  return refs;
}

// Pinocchio's own template library on the same states (one Data reused, as harness.cpp).
void bench_pinocchio(const pin::Model &model, const std::vector<State> &states, const Options &o) {
  pin::Data data(model);
  auto timed = [&](const char *function, auto call) {
    report("pinocchio", function, "ns", time_ns(o.batches, o.batch_ms, [&](int k) {
             call(states[k]);
             keep(data);
           }));
  };
  timed("rnea", [&](const State &s) { pin::rnea(model, data, s.q, s.v, s.a); });
  timed("crba", [&](const State &s) { pin::crba(model, data, s.q); });
  timed("aba", [&](const State &s) { pin::aba(model, data, s.q, s.v, s.tau); });
  timed("minverse", [&](const State &s) { pin::computeMinverse(model, data, s.q); });
  timed("rnea_derivatives", [&](const State &s) { pin::computeRNEADerivatives(model, data, s.q, s.v, s.a); });
  timed("aba_derivatives", [&](const State &s) { pin::computeABADerivatives(model, data, s.q, s.v, s.tau); });
}

std::vector<std::string> split(const std::string &text) {
  std::istringstream in(text);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  return words;
}

int usage() {
  std::fprintf(stderr,
               "usage: codegen-bench [--batches N] [--batch-ms T] [--only pinocchio|cppadcg|casadi]... "
               "[--cache-key KEY] --work-dir DIR --cppadcg-flags FLAGS --casadi-cc COMMAND "
               "URDF floating|fixed\n");
  return 2;
}

}  // namespace
}  // namespace codegen_bench

int main(int argc, char **argv) {
  using namespace codegen_bench;
  std::vector<std::string> args(argv + 1, argv + argc);
  Options options;
  std::string cppadcg_flags, casadi_cc, key = "unstamped";
  std::set<std::string> only;
  std::size_t i = 0;
  try {
    for (; i + 1 < args.size() && args[i].rfind("--", 0) == 0; i += 2) {
      const std::string &value = args[i + 1];
      if (args[i] == "--batches") options.batches = std::stoi(value);
      else if (args[i] == "--batch-ms") options.batch_ms = std::stod(value);
      else if (args[i] == "--only") only.insert(value);
      else if (args[i] == "--cache-key") key = value;
      else if (args[i] == "--work-dir") options.work_dir = value;
      else if (args[i] == "--cppadcg-flags") cppadcg_flags = value;
      else if (args[i] == "--casadi-cc") casadi_cc = value;
      else return usage();
    }
  } catch (const std::exception &) {
    return usage();
  }
  if (args.size() - i != 2 || options.work_dir.empty() || cppadcg_flags.empty() || casadi_cc.empty() ||
      (args[i + 1] != "floating" && args[i + 1] != "fixed"))
    return usage();
  const std::string urdf = args[i];
  const bool floating = args[i + 1] == "floating";
  auto wanted = [&](const char *generator) { return only.empty() || only.count(generator); };

  try {
    pin::Model model;
    if (floating)
      pin::urdf::buildModel(urdf, pin::JointModelFreeFlyer(), model);
    else
      pin::urdf::buildModel(urdf, model);
    std::fprintf(stderr, "codegen-bench: %s: nq %d, nv %d\n", urdf.c_str(), model.nq, model.nv);
    std::stringstream text;
    text << std::ifstream(urdf).rdbuf();
    options.cache_key = key + " " + urdf + " " + args[i + 1] + " " +
                        std::to_string(std::hash<std::string>{}(text.str()));

    const auto states = random_states(model, floating);
    const auto refs = references(model, states);
    if (wanted("pinocchio")) bench_pinocchio(model, states, options);
    if (wanted("cppadcg")) bench_cppadcg(model, states, refs, options, split(cppadcg_flags));
    if (wanted("casadi")) bench_casadi(model, states, refs, options, casadi_cc);
  } catch (const std::exception &e) {
    std::fprintf(stderr, "codegen-bench: %s\n", e.what());
    return 1;
  }
  return 0;
}
