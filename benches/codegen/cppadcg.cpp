// CppADCodeGen through Pinocchio's code-generation classes (CodeGenRNEA,
// CodeGenCRBA, CodeGenABA, CodeGenMinv, CodeGenRNEADerivatives,
// CodeGenABADerivatives): each tapes its Pinocchio algorithm on
// CppAD::AD<CppAD::cg::CG<double>>, CppADCodeGen writes the C of the
// zero-order forward sweep, gcc compiles it into a shared library, and the
// library's function is timed on inputs packed beforehand.
//
// The classes' own compileLib() passes one flag string to gcc; here the
// compiler gets the benchmark's flags as separate arguments instead, and only
// the forward function is generated (no Jacobian of rnea and aba, which the
// classes build by default and this benchmark does not time).

#include <pinocchio/codegen/cppadcg-algo.hpp>

#include "generators.hpp"

#include <fstream>
#include <memory>

namespace codegen_bench {
namespace {

// One of Pinocchio's CodeGen* classes, with access to its generated function.
template <class Gen>
struct Generated : Gen {
  using Gen::Gen;

  // Tapes the algorithm, writes its C (sources kept under `dir`) and, unless
  // a library built under the same key is there, compiles it; then loads it.
  void build(const std::string &dir, const std::string &name, const std::vector<std::string> &cflags,
             const std::string &key) {
    this->build_jacobian = false;
    this->initLib();
    const std::string lib =
        this->dynamicLibManager_ptr->getLibraryName() + CppAD::cg::system::SystemInfo<>::DYNAMIC_LIB_EXTENSION;
    if (!cached(lib, key)) {
      CppAD::cg::GccCompiler<double> compiler("/usr/bin/gcc");
      compiler.setCompileFlags(cflags);
      compiler.setSourcesFolder(dir + "/" + name + "_sources");
      compiler.setSaveToDiskFirst(true);
      compiler.setTemporaryFolder(dir + "/" + name + "_tmp");
      this->dynamicLibManager_ptr->createDynamicLibrary(compiler, false);
      mark_cached(lib, key);
    }
    this->loadLib(false);
  }

  Eigen::Index inputs() const { return this->getInputDimension(); }
  Eigen::Index outputs() const { return this->getOutputDimension(); }

  // The generated function alone: y = f(x).
  void eval(const double *x, double *y) {
    this->generatedFun_ptr->ForwardZero(CppAD::cg::ArrayView<const double>(x, inputs()),
                                        CppAD::cg::ArrayView<double>(y, outputs()));
  }
};

// The classes' packed upper triangle (row by row, j >= i) as an upper-triangular matrix.
Eigen::MatrixXd unpack_upper(const Eigen::VectorXd &y, Eigen::Index n) {
  Eigen::MatrixXd m = Eigen::MatrixXd::Zero(n, n);
  Eigen::Index k = 0;
  for (Eigen::Index i = 0; i < n; ++i)
    for (Eigen::Index j = i; j < n; ++j) m(i, j) = y[k++];
  return m;
}

// The k-th row-major n x n block of y.
Eigen::MatrixXd block(const Eigen::VectorXd &y, int k, Eigen::Index n) {
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const RowMajor>(y.data() + k * n * n, n, n);
}

}  // namespace

void bench_cppadcg(const pinocchio::Model &model, const std::vector<State> &states,
                   const std::vector<Reference> &refs, const Options &options,
                   const std::vector<std::string> &cflags) {
  const Eigen::Index nv = model.nv;
  std::string key = options.cache_key;
  for (const auto &flag : cflags) key += " " + flag;

  // Builds, checks on every state (`check_state(k, y)`) and times one function
  // whose input at state k is `input(state)`.
  auto run = [&](auto &gen, const char *function, auto input, auto check_state) {
    std::fprintf(stderr, "cppadcg: %s: taping, generating and compiling\n", function);
    gen.build(options.work_dir, std::string("cppadcg_") + function, cflags, key);
    std::vector<Eigen::VectorXd> xs;
    for (const auto &s : states) xs.push_back(input(s));
    Eigen::VectorXd y(gen.outputs());
    for (int k = 0; k < kStates; ++k) {
      y.setConstant(NAN);
      gen.eval(xs[k].data(), y.data());
      check_state(k, y);
    }
    const double ns = time_ns(options.batches, options.batch_ms, [&](int k) {
      gen.eval(xs[k].data(), y.data());
      keep(y);
    });
    report("cppadcg", function, "ns", ns);
  };
  auto qva = [](const Eigen::VectorXd &q, const Eigen::VectorXd &v, const Eigen::VectorXd &a) {
    Eigen::VectorXd x(q.size() + v.size() + a.size());
    x << q, v, a;
    return x;
  };
  const std::string dir = options.work_dir;

  {
    Generated<pinocchio::CodeGenRNEA<double>> gen(model, "rnea", dir + "/cppadcg_rnea");
    run(gen, "rnea", [&](const State &s) { return qva(s.q, s.v, s.a); },
        [&](int k, const Eigen::VectorXd &y) { check("cppadcg rnea", k, y, refs[k].tau); });
  }
  {
    Generated<pinocchio::CodeGenCRBA<double>> gen(model, "crba", dir + "/cppadcg_crba");
    run(gen, "crba", [](const State &s) { return s.q; }, [&](int k, const Eigen::VectorXd &y) {
      check("cppadcg crba (upper triangle)", k, unpack_upper(y, nv), upper(refs[k].M));
    });
  }
  {
    Generated<pinocchio::CodeGenABA<double>> gen(model, "aba", dir + "/cppadcg_aba");
    run(gen, "aba", [&](const State &s) { return qva(s.q, s.v, s.tau); },
        [&](int k, const Eigen::VectorXd &y) { check("cppadcg aba", k, y, refs[k].ddq); });
  }
  {
    Generated<pinocchio::CodeGenMinv<double>> gen(model, "minv", dir + "/cppadcg_minv");
    run(gen, "minverse", [](const State &s) { return s.q; }, [&](int k, const Eigen::VectorXd &y) {
      check("cppadcg minverse (upper triangle)", k, unpack_upper(y, nv), upper(refs[k].Minv));
    });
  }
  {
    Generated<pinocchio::CodeGenRNEADerivatives<double>> gen(model, "partial_rnea",
                                                              dir + "/cppadcg_partial_rnea");
    run(gen, "rnea_derivatives", [&](const State &s) { return qva(s.q, s.v, s.a); },
        [&](int k, const Eigen::VectorXd &y) {
          check("cppadcg rnea_derivatives dtau_dq", k, block(y, 0, nv), refs[k].dtau_dq);
          check("cppadcg rnea_derivatives dtau_dv", k, block(y, 1, nv), refs[k].dtau_dv);
          check("cppadcg rnea_derivatives dtau_da (upper triangle)", k, block(y, 2, nv),
                refs[k].dtau_da);
        });
  }
  {
    Generated<pinocchio::CodeGenABADerivatives<double>> gen(model, "partial_aba",
                                                             dir + "/cppadcg_partial_aba");
    run(gen, "aba_derivatives", [&](const State &s) { return qva(s.q, s.v, s.tau); },
        [&](int k, const Eigen::VectorXd &y) {
          check("cppadcg aba_derivatives ddq_dq", k, block(y, 0, nv), refs[k].ddq_dq);
          check("cppadcg aba_derivatives ddq_dv", k, block(y, 1, nv), refs[k].ddq_dv);
          check("cppadcg aba_derivatives ddq_dtau", k, block(y, 2, nv), refs[k].ddq_dtau);
        });
  }
}

}  // namespace codegen_bench
