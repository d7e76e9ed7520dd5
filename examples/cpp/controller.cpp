// A control loop of the kind a ROS 2 controller runs, on the C interface of
// rbdgen's generated Go2+Z1 dynamics (examples/cpp/go2_z1_c, a staticlib):
// read q and v, compute gravity compensation plus a Jacobian-transpose force
// at the arm's gripper, write tau:
//
//     tau = g(q) + J(q)^T w,
//
// with J the 6 x NV Jacobian of `gripper_link` in LOCAL_WORLD_ALIGNED axes
// (Pinocchio's convention) and w = [f; m] the wrench the gripper should
// apply (N, N*m, world axes).
//
// Build and run (see docs/cpp.md):
//   cargo build --release --manifest-path examples/cpp/go2_z1_c/Cargo.toml
//   g++ -O2 -std=c++17 examples/cpp/controller.cpp -I examples/cpp/go2_z1_c/include
//       examples/cpp/go2_z1_c/target/release/libgo2_z1.a -lpthread -ldl -lm -o target/controller
//   python3 -c 'print(*[0] * 6, 1, *[0] * 18, *[0] * 24, 0, 0, -10, 0, 0, 0)' | target/controller
//
// Input on stdin, one state per line: NQ values of q, NV of v, 6 of w.
// Output on stdout, one line per state: NV values of tau (17 significant
// digits). `controller --bench N` instead times N calls of each step.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include "go2_z1.h"

namespace {

constexpr size_t NQ = GO2_Z1_NQ;
constexpr size_t NV = GO2_Z1_NV;

// The controller's buffers are allocated once; update() copies nothing the
// generated functions do not need.
class GravityForceController {
 public:
  // tau = g(q) + J(q)^T w. Returns the first status code that is not
  // GO2_Z1_OK (nothing useful in tau then).
  int update(const double *q, const double *wrench, double *tau) {
    int status = go2_z1_generalized_gravity(q, tau);
    if (status != GO2_Z1_OK) return status;
    status = go2_z1_frame_jacobian_local_world_aligned(q, GO2_Z1_FRAME_GRIPPER_LINK, jacobian_.data());
    if (status != GO2_Z1_OK) return status;
    // J is 6 x NV, row-major: column j of J^T w is sum_i J[i][j] w[i].
    for (size_t i = 0; i < 6; ++i) {
      const double *row = jacobian_.data() + i * NV;
      for (size_t j = 0; j < NV; ++j) tau[j] += row[j] * wrench[i];
    }
    return GO2_Z1_OK;
  }

 private:
  std::array<double, 6 * NV> jacobian_{};
};

int bench(long n) {
  std::array<double, NQ> q;
  std::memcpy(q.data(), GO2_Z1_NEUTRAL, sizeof q);
  std::array<double, NV> tau{};
  std::array<double, 6 * NV> jacobian{};
  const std::array<double, 6> wrench{0.0, 0.0, -10.0, 0.0, 0.0, 0.0};
  GravityForceController controller;
  auto time = [&](const char *name, auto &&call) {
    for (long k = 0; k < n / 10; ++k) call(k);
    auto start = std::chrono::steady_clock::now();
    for (long k = 0; k < n; ++k) call(k);
    auto stop = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(stop - start).count() / n;
    std::printf("%s %.1f ns\n", name, ns);
  };
  // The input changes every call, so no call can be hoisted out of the loop.
  time("generalized_gravity", [&](long k) {
    q[7] = 1e-6 * (k & 1023);
    go2_z1_generalized_gravity(q.data(), tau.data());
  });
  time("frame_jacobian_local_world_aligned", [&](long k) {
    q[7] = 1e-6 * (k & 1023);
    go2_z1_frame_jacobian_local_world_aligned(q.data(), GO2_Z1_FRAME_GRIPPER_LINK, jacobian.data());
  });
  time("controller_update", [&](long k) {
    q[7] = 1e-6 * (k & 1023);
    controller.update(q.data(), wrench.data(), tau.data());
  });
  std::printf("checksum %.6e %.6e\n", tau[0], jacobian[0]);
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc == 3 && std::strcmp(argv[1], "--bench") == 0) return bench(std::atol(argv[2]));
  GravityForceController controller;
  std::array<double, NQ> q;
  std::array<double, NV> v;
  std::array<double, 6> wrench;
  std::array<double, NV> tau;
  std::string line;
  while (std::getline(std::cin, line)) {
    if (line.empty()) continue;
    std::istringstream in(line);
    for (double &x : q) in >> x;
    for (double &x : v) in >> x;  // read as a controller does; gravity and J do not use it
    for (double &x : wrench) in >> x;
    if (!in) {
      std::fprintf(stderr, "controller: expected %zu + %zu + 6 numbers per line\n", NQ, NV);
      return 2;
    }
    int status = controller.update(q.data(), wrench.data(), tau.data());
    if (status != GO2_Z1_OK) {
      std::fprintf(stderr, "controller: status %d\n", status);
      return 1;
    }
    for (size_t j = 0; j < NV; ++j) std::printf(j ? " %.17g" : "%.17g", tau[j]);
    std::printf("\n");
  }
  return 0;
}
