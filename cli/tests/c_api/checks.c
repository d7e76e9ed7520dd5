/* The C interface's contract, in C (so the header is checked as C too):
 * status codes for null pointers, misaligned pointers and a bad frame index
 * with nothing written, and batches equal to the single calls state by state.
 * Built and run by cli/tests/c_api.rs against examples/cpp/go2_z1_c. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "go2_z1.h"

#define N 7 /* not a multiple of the lanes: a scalar tail */

static int failures = 0;

static void expect(int got, int want, const char *what) {
    if (got != want) {
        fprintf(stderr, "%s: status %d, expected %d\n", what, got, want);
        failures++;
    }
}

int main(void) {
    double q[N][GO2_Z1_NQ], g[N][GO2_Z1_NV], gb[N][GO2_Z1_NV];
    double j[N][6 * GO2_Z1_NV], jb[N][6 * GO2_Z1_NV];
    for (int s = 0; s < N; s++) {
        memcpy(q[s], GO2_Z1_NEUTRAL, sizeof q[s]);
        for (int k = 7; k < GO2_Z1_NQ; k++) q[s][k] = 0.1 * (s + 1) * sin(k + s);
        expect(go2_z1_generalized_gravity(q[s], g[s]), GO2_Z1_OK, "generalized_gravity");
        expect(go2_z1_frame_jacobian_local_world_aligned(q[s], GO2_Z1_FRAME_GRIPPER_LINK, j[s]),
               GO2_Z1_OK, "frame_jacobian_local_world_aligned");
    }
    expect(go2_z1_generalized_gravity_batch(N, &q[0][0], &gb[0][0]), GO2_Z1_OK, "batch");
    expect(go2_z1_frame_jacobian_local_world_aligned_batch(N, &q[0][0], GO2_Z1_FRAME_GRIPPER_LINK,
                                                          &jb[0][0]),
           GO2_Z1_OK, "jacobian batch");
    for (int s = 0; s < N; s++) {
        for (int k = 0; k < GO2_Z1_NV; k++)
            if (fabs(g[s][k] - gb[s][k]) > 1e-12 * (1 + fabs(g[s][k]))) {
                fprintf(stderr, "batch state %d entry %d: %.17g vs %.17g\n", s, k, gb[s][k], g[s][k]);
                failures++;
            }
        for (int k = 0; k < 6 * GO2_Z1_NV; k++)
            if (fabs(j[s][k] - jb[s][k]) > 1e-12 * (1 + fabs(j[s][k]))) {
                fprintf(stderr, "jacobian batch state %d entry %d\n", s, k);
                failures++;
            }
    }

    /* Bad input: a status code and nothing written. */
    double out[GO2_Z1_NV];
    for (int k = 0; k < GO2_Z1_NV; k++) out[k] = 12345.0;
    expect(go2_z1_generalized_gravity(NULL, out), GO2_Z1_NULL_POINTER, "null q");
    expect(go2_z1_generalized_gravity(q[0], NULL), GO2_Z1_NULL_POINTER, "null out");
    expect(go2_z1_generalized_gravity_batch(2, NULL, &gb[0][0]), GO2_Z1_NULL_POINTER, "null batch q");
    expect(go2_z1_generalized_gravity_batch(0, NULL, NULL), GO2_Z1_OK, "empty batch");
    expect(go2_z1_frame_jacobian_local_world_aligned(q[0], GO2_Z1_NFRAMES, j[0]), GO2_Z1_BAD_FRAME,
           "frame index");
    expect(go2_z1_generalized_gravity_batch(SIZE_MAX / 8, &q[0][0], &gb[0][0]), GO2_Z1_BAD_COUNT,
           "count");
    unsigned char bytes[(GO2_Z1_NQ + 1) * sizeof(double)];
    expect(go2_z1_generalized_gravity((const double *)((uintptr_t)bytes + 1), out), GO2_Z1_MISALIGNED,
           "misaligned q");
    for (int k = 0; k < GO2_Z1_NV; k++)
        if (out[k] != 12345.0) {
            fprintf(stderr, "out[%d] written on error\n", k);
            failures++;
        }
    if (failures == 0) printf("c_api checks passed\n");
    return failures != 0;
}
