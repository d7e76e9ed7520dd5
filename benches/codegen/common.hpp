// Shared by the code-generator benchmark (benches/codegen/): the states, the
// double-precision Pinocchio reference, the value check and the timing loop.
//
// The states and the timing are those of benches/pinocchio/harness.cpp: the
// same generator, seed and draws (so the same 100 states for the same URDF),
// one warm-up batch, then N batches of about T ms, median batch time divided by
// its number of calls.

#pragma once

#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace codegen_bench {

constexpr int kStates = 100;

// One state: the inputs of the six functions.
struct State {
  Eigen::VectorXd q, v, a, tau;
};

// Pinocchio's double-precision outputs at one state, as its algorithms leave
// them, from zeroed matrices: crba's M, computeMinverse's Minv and
// computeRNEADerivatives' dtau_da hold the upper triangle (crba's also the
// free flyer's whole 6x6 block); the other entries are zero.
struct Reference {
  Eigen::VectorXd tau, ddq;
  Eigen::MatrixXd M, Minv;
  Eigen::MatrixXd dtau_dq, dtau_dv, dtau_da;
  Eigen::MatrixXd ddq_dq, ddq_dv, ddq_dtau;
};

// The upper triangle, the rest zero.
inline Eigen::MatrixXd upper(const Eigen::MatrixXd &m) {
  Eigen::MatrixXd u = Eigen::MatrixXd::Zero(m.rows(), m.cols());
  u.triangularView<Eigen::Upper>() = m;
  return u;
}

// The upper triangle mirrored into the lower one.
inline Eigen::MatrixXd symmetric(const Eigen::MatrixXd &upper) {
  Eigen::MatrixXd m = upper;
  m.triangularView<Eigen::StrictlyLower>() = upper.transpose();
  return m;
}

// Throws unless every entry of `got` is within 1e-9 of `want`, relative to
// max(1, |want|).
inline void check(const std::string &what, int state, const Eigen::MatrixXd &got,
                  const Eigen::MatrixXd &want) {
  if (got.rows() != want.rows() || got.cols() != want.cols())
    throw std::runtime_error(what + ": shape differs from Pinocchio's");
  for (Eigen::Index j = 0; j < want.cols(); ++j)
    for (Eigen::Index i = 0; i < want.rows(); ++i) {
      const double w = want(i, j), g = got(i, j);
      if (!(std::abs(g - w) <= 1e-9 * std::max(1.0, std::abs(w)))) {
        char buf[256];
        std::snprintf(buf, sizeof buf, ": state %d, entry (%ld, %ld): %.17g, Pinocchio %.17g",
                      state, static_cast<long>(i), static_cast<long>(j), g, w);
        throw std::runtime_error(what + buf);
      }
    }
}

// Keeps the compiler from dropping the work whose results land in `value`.
template <typename T>
inline void keep(T &value) {
  asm volatile("" : : "g"(&value) : "memory");
}

// Median over `batches` batches of the ns per call of `call(k)`, k cycling
// over the state indices (harness.cpp's time_ns).
template <typename Call>
double time_ns(int batches, double batch_ms, Call call) {
  using clock = std::chrono::steady_clock;
  auto run = [&](long calls) {
    const auto start = clock::now();
    for (long i = 0; i < calls; ++i) call(static_cast<int>(i % kStates));
    return std::chrono::duration<double, std::nano>(clock::now() - start).count();
  };
  const double per_call = std::max(run(kStates) / kStates, 1.0);
  const long calls = std::max<long>(kStates, static_cast<long>(batch_ms * 1e6 / per_call));
  run(calls);
  std::vector<double> ns;
  for (int b = 0; b < batches; ++b) ns.push_back(run(calls) / static_cast<double>(calls));
  std::nth_element(ns.begin(), ns.begin() + ns.size() / 2, ns.end());
  return ns[ns.size() / 2];
}

// The run's settings, shared by the generators.
struct Options {
  int batches = 9;
  double batch_ms = 30.0;
  // Where the generated sources and libraries go.
  std::string work_dir;
  // Changes whenever the harness, the URDF or the flags do: a generated
  // library built under the same key is reused.
  std::string cache_key;
};

// One figure on standard output: `generator<TAB>function<TAB>kind<TAB>value`.
inline void report(const char *generator, const char *function, const char *kind, double value) {
  std::printf("%s\t%s\t%s\t%.1f\n", generator, function, kind, value);
  std::fflush(stdout);
}

// True when the library `lib` exists and `lib.key` holds `key`.
bool cached(const std::string &lib, const std::string &key);
// Records that the library `lib` was built under `key`.
void mark_cached(const std::string &lib, const std::string &key);

}  // namespace codegen_bench
