// CasADi SX code generation of Pinocchio's algorithms: the templates run on
// ModelTpl<casadi::SX> (model.cast<casadi::SX>()) with symbolic inputs, the
// outputs become a casadi::Function, casadi::CodeGenerator writes its C, the
// compiler command of the benchmark builds a shared library, and the
// library's function is called through dlopen/dlsym with work arrays
// allocated once. Each function is built twice: with CasADi's default
// options (reported as `casadi`) and with the option cse, which merges
// common subexpressions before code generation (`casadi-cse`).
//
// Outputs are dense (column-major). Where Pinocchio fills only the upper
// triangle (crba's M, computeMinverse's Minv, computeRNEADerivatives'
// dtau_da) the function returns the symmetric matrix: the lower triangle
// reads the same graph nodes as the upper one, no operation is added.

#include <pinocchio/autodiff/casadi.hpp>

#include <pinocchio/algorithm/aba-derivatives.hpp>
#include <pinocchio/algorithm/aba.hpp>
#include <pinocchio/algorithm/crba.hpp>
#include <pinocchio/algorithm/rnea-derivatives.hpp>
#include <pinocchio/algorithm/rnea.hpp>
#include <pinocchio/multibody.hpp>

#include "generators.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace codegen_bench {
namespace {

using SX = casadi::SX;
using ADModel = pinocchio::ModelTpl<SX>;
using ADData = pinocchio::DataTpl<SX>;
using ADVector = Eigen::Matrix<SX, Eigen::Dynamic, 1>;
using ADMatrix = Eigen::Matrix<SX, Eigen::Dynamic, Eigen::Dynamic>;

// The entries of a symbolic column as an Eigen vector.
ADVector entries(const SX &x) {
  ADVector v(x.size1());
  for (casadi_int i = 0; i < x.size1(); ++i) v[i] = x(i);
  return v;
}

// An Eigen matrix of SX as a dense SX matrix; `mirror_upper`: the lower
// triangle takes the upper one's entries.
SX dense(const ADMatrix &m, bool mirror_upper = false) {
  SX out = SX::zeros(m.rows(), m.cols());
  for (Eigen::Index j = 0; j < m.cols(); ++j)
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      out(i, j) = (mirror_upper && i > j) ? m(j, i) : m(i, j);
  return SX::densify(out);
}

// A generated function's entry points, as casadi::CodeGenerator writes them.
using Eval = int (*)(const double **arg, double **res, long long *iw, double *w, int mem);
using Work = int (*)(long long *sz_arg, long long *sz_res, long long *sz_iw, long long *sz_w);

// A compiled and loaded function: one call evaluates all its outputs.
struct Compiled {
  Eval eval = nullptr;
  std::vector<const double *> arg;
  std::vector<double *> res;
  std::vector<long long> iw;
  std::vector<double> w;

  void operator()() { eval(arg.data(), res.data(), iw.data(), w.data(), 0); }
};

// Writes `f`'s C under `dir`, compiles it unless a library built from the same
// source and command is there, loads it and allocates its work arrays.
Compiled compile(const casadi::Function &f, const std::string &dir, const std::string &cc_command,
                 const std::string &cache_key) {
  const std::string name = "casadi_" + f.name();
  casadi::CodeGenerator gen(name + ".c");
  gen.add(f);
  const std::string source = gen.dump();
  const std::string c_file = gen.generate(dir + "/");
  const std::string lib = dir + "/" + name + ".so";
  const std::string key =
      cache_key + " " + cc_command + " " + std::to_string(std::hash<std::string>{}(source));
  if (!cached(lib, key)) {
    const std::string command = cc_command + " " + c_file + " -o " + lib + " -lm";
    std::fprintf(stderr, "casadi: %s\n", command.c_str());
    if (std::system(command.c_str()) != 0) throw std::runtime_error("casadi: compilation failed: " + command);
    mark_cached(lib, key);
  }
  void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw std::runtime_error(std::string("casadi: dlopen: ") + dlerror());
  Compiled c;
  c.eval = reinterpret_cast<Eval>(dlsym(handle, f.name().c_str()));
  auto work = reinterpret_cast<Work>(dlsym(handle, (f.name() + "_work").c_str()));
  if (!c.eval || !work) throw std::runtime_error("casadi: " + lib + " lacks " + f.name());
  long long sz_arg, sz_res, sz_iw, sz_w;
  if (work(&sz_arg, &sz_res, &sz_iw, &sz_w)) throw std::runtime_error("casadi: " + f.name() + "_work failed");
  c.arg.assign(sz_arg, nullptr);
  c.res.assign(sz_res, nullptr);
  c.iw.assign(std::max(sz_iw, 1LL), 0);
  c.w.assign(std::max(sz_w, 1LL), 0.0);
  return c;
}

// The number of operations of `f`: its instructions without inputs, outputs
// and constants.
long operations(const casadi::Function &f) {
  long ops = 0;
  for (casadi_int k = 0; k < f.n_instructions(); ++k) {
    const casadi_int id = f.instruction_id(k);
    if (id != casadi::OP_CONST && id != casadi::OP_INPUT && id != casadi::OP_OUTPUT &&
        id != casadi::OP_PARAMETER)
      ++ops;
  }
  return ops;
}

}  // namespace

void bench_casadi(const pinocchio::Model &model, const std::vector<State> &states,
                  const std::vector<Reference> &refs, const Options &options,
                  const std::string &cc_command) {
  const int nq = model.nq, nv = model.nv;
  const ADModel ad_model = model.cast<SX>();
  const SX cs_q = SX::sym("q", nq), cs_v = SX::sym("v", nv), cs_a = SX::sym("a", nv),
           cs_tau = SX::sym("tau", nv);
  const ADVector q = entries(cs_q), v = entries(cs_v), a = entries(cs_a), tau = entries(cs_tau);

  // Builds the function `function` from `in` to `out` twice, as CasADi's
  // default (the graph as Pinocchio's templates build it) and with the option
  // cse (common subexpressions merged), reports their sizes, then generates,
  // compiles, checks on every state and times each. `inputs(s)`: the input
  // vectors at state s; `shapes`: the outputs'; `check_state(k, out)`.
  auto run = [&](const char *function, const std::vector<SX> &in, const std::vector<SX> &out,
                 auto inputs, std::vector<std::pair<int, int>> shapes, auto check_state) {
    const casadi::Function plain(function, in, out);
    const casadi::Function merged(std::string(function) + "_cse", in, out, {{"cse", true}});
    for (const auto &[generator, f] : {std::pair{"casadi", &plain}, std::pair{"casadi-cse", &merged}}) {
      report(generator, function, "instructions", static_cast<double>(f->n_instructions()));
      report(generator, function, "operations", static_cast<double>(operations(*f)));
      Compiled c = compile(*f, options.work_dir, cc_command, options.cache_key);
      std::vector<Eigen::MatrixXd> results;
      for (const auto &[rows, cols] : shapes) results.emplace_back(rows, cols);
      for (std::size_t i = 0; i < results.size(); ++i) c.res[i] = results[i].data();
      auto set_state = [&](int k) {
        const std::vector<const Eigen::VectorXd *> x = inputs(states[k]);
        for (std::size_t i = 0; i < x.size(); ++i) c.arg[i] = x[i]->data();
      };
      for (int k = 0; k < kStates; ++k) {
        for (auto &m : results) m.setConstant(NAN);
        set_state(k);
        c();
        check_state(std::string(generator) + " " + function, k, results);
      }
      const double ns = time_ns(options.batches, options.batch_ms, [&](int k) {
        set_state(k);
        c();
        keep(results);
      });
      report(generator, function, "ns", ns);
    }
  };
  auto qva = [](const State &s) { return std::vector<const Eigen::VectorXd *>{&s.q, &s.v, &s.a}; };
  auto qvtau = [](const State &s) { return std::vector<const Eigen::VectorXd *>{&s.q, &s.v, &s.tau}; };
  auto only_q = [](const State &s) { return std::vector<const Eigen::VectorXd *>{&s.q}; };
  const std::pair<int, int> vector{nv, 1}, square{nv, nv};

  using Results = std::vector<Eigen::MatrixXd>;
  {
    std::fprintf(stderr, "casadi: rnea: building the graph\n");
    ADData data(ad_model);
    pinocchio::rnea(ad_model, data, q, v, a);
    run("rnea", {cs_q, cs_v, cs_a}, {dense(data.tau)}, qva, {vector},
        [&](const std::string &what, int k, const Results &out) { check(what, k, out[0], refs[k].tau); });
  }
  {
    std::fprintf(stderr, "casadi: crba: building the graph\n");
    ADData data(ad_model);
    pinocchio::crba(ad_model, data, q);
    run("crba", {cs_q}, {dense(data.M, true)}, only_q, {square},
        [&](const std::string &what, int k, const Results &out) {
          check(what, k, out[0], symmetric(refs[k].M));
        });
  }
  {
    std::fprintf(stderr, "casadi: aba: building the graph\n");
    ADData data(ad_model);
    pinocchio::aba(ad_model, data, q, v, tau);
    run("aba", {cs_q, cs_v, cs_tau}, {dense(data.ddq)}, qvtau, {vector},
        [&](const std::string &what, int k, const Results &out) { check(what, k, out[0], refs[k].ddq); });
  }
  {
    std::fprintf(stderr, "casadi: minverse: building the graph\n");
    ADData data(ad_model);
    pinocchio::computeMinverse(ad_model, data, q);
    run("minverse", {cs_q}, {dense(data.Minv, true)}, only_q, {square},
        [&](const std::string &what, int k, const Results &out) {
          check(what, k, out[0], symmetric(refs[k].Minv));
        });
  }
  {
    std::fprintf(stderr, "casadi: rnea_derivatives: building the graph\n");
    ADData data(ad_model);
    ADMatrix dq = ADMatrix::Zero(nv, nv), dv = ADMatrix::Zero(nv, nv), da = ADMatrix::Zero(nv, nv);
    pinocchio::computeRNEADerivatives(ad_model, data, q, v, a, dq, dv, da);
    run("rnea_derivatives", {cs_q, cs_v, cs_a}, {dense(dq), dense(dv), dense(da, true)}, qva,
        {square, square, square}, [&](const std::string &what, int k, const Results &out) {
          check(what + " dtau_dq", k, out[0], refs[k].dtau_dq);
          check(what + " dtau_dv", k, out[1], refs[k].dtau_dv);
          check(what + " dtau_da", k, out[2], symmetric(refs[k].dtau_da));
        });
  }
  {
    std::fprintf(stderr, "casadi: aba_derivatives: building the graph\n");
    ADData data(ad_model);
    ADMatrix dq = ADMatrix::Zero(nv, nv), dv = ADMatrix::Zero(nv, nv), dtau = ADMatrix::Zero(nv, nv);
    pinocchio::computeABADerivatives(ad_model, data, q, v, tau, dq, dv, dtau);
    run("aba_derivatives", {cs_q, cs_v, cs_tau}, {dense(dq), dense(dv), dense(dtau)}, qvtau,
        {square, square, square}, [&](const std::string &what, int k, const Results &out) {
          check(what + " ddq_dq", k, out[0], refs[k].ddq_dq);
          check(what + " ddq_dv", k, out[1], refs[k].ddq_dv);
          check(what + " ddq_dtau", k, out[2], refs[k].ddq_dtau);
        });
  }
}

}  // namespace codegen_bench
