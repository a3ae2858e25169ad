/*
 * A check of wasm/blst/tnv-fp384.h against the blst functions it stands in for, run natively by
 * scripts/build-blst-wasm.mjs before it writes the module: 3,000,000 pairs of base-field elements
 * (random, and at the edges: 0, 1, 2, p-1 to p-3, limbs of p with one cleared, all-ones limbs),
 * each multiplied, added and subtracted by both, also with the result written over an operand.
 * fp-generic.h is written by the build: the 32-bit limb types, this header, and blst's own
 * mul_mont_n, add_mod_n and sub_mod_n renamed *_generic, as the module compiles them.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "fp-generic.h"

static const limb_t P[12] = { 0xffffaaab, 0xb9feffff, 0xb153ffff, 0x1eabfffe, 0xf6b0f624, 0x6730d2a0, 0xf38512bf, 0x64774b84, 0x434bacd7, 0x4b1ba7b6, 0x397fe69a, 0x1a0111ea };
static const limb_t N0 = 0xfffcfffd;
/* xorshift64, fixed seed: the same cases at every build */
static uint64_t s = 88172645463325252ULL;
static uint32_t rnd(void){ s ^= s<<13; s ^= s>>7; s ^= s<<17; return (uint32_t)s; }
/* a random element < p, biased to the edges */
static void elem(limb_t x[12]) {
  int k = rnd() % 8;
  if (k == 0) { memset(x, 0, 48); x[0] = rnd() % 3; return; }
  if (k == 1) { memcpy(x, P, 48); x[0] -= 1 + rnd() % 3; return; }            /* p-1 .. p-3 */
  if (k == 2) { for (int i = 0; i < 12; i++) x[i] = P[i]; x[rnd()%11] = 0; return; }
  if (k == 3) { for (int i = 0; i < 12; i++) x[i] = 0xffffffff; x[11] = 0x1a0111e9; return; }
  for (int i = 0; i < 12; i++) x[i] = rnd();
  x[11] %= 0x1a0111ea;
}
int main(void) {
  limb_t a[12], b[12], r1[12], r2[12];
  for (long it = 0; it < 3000000; it++) {
    elem(a); elem(b);
    mul_mont_n_generic(r1, a, b, P, N0, 12); mul_mont_12(r2, a, b, P, N0);
    if (memcmp(r1, r2, 48)) { fprintf(stderr, "tnv-fp384.h: mul differs from blst at case %ld\n", it); return 1; }
    add_mod_n_generic(r1, a, b, P, 12); add_mod_12(r2, a, b, P);
    if (memcmp(r1, r2, 48)) { fprintf(stderr, "tnv-fp384.h: add differs from blst at case %ld\n", it); return 1; }
    sub_mod_n_generic(r1, a, b, P, 12); sub_mod_12(r2, a, b, P);
    if (memcmp(r1, r2, 48)) { fprintf(stderr, "tnv-fp384.h: sub differs from blst at case %ld\n", it); return 1; }
    /* aliasing: ret == a, ret == b */
    memcpy(r1, a, 48); mul_mont_n_generic(r1, r1, b, P, N0, 12); memcpy(r2, a, 48); mul_mont_12(r2, r2, b, P, N0);
    if (memcmp(r1, r2, 48)) { fprintf(stderr, "tnv-fp384.h: mul alias a differs from blst at case %ld\n", it); return 1; }
    memcpy(r1, b, 48); mul_mont_n_generic(r1, a, r1, P, N0, 12); memcpy(r2, b, 48); mul_mont_12(r2, a, r2, P, N0);
    if (memcmp(r1, r2, 48)) { fprintf(stderr, "tnv-fp384.h: mul alias b differs from blst at case %ld\n", it); return 1; }
    memcpy(r1, b, 48); sub_mod_n_generic(r1, a, r1, P, 12); memcpy(r2, b, 48); sub_mod_12(r2, a, r2, P);
    if (memcmp(r1, r2, 48)) { fprintf(stderr, "tnv-fp384.h: sub alias differs from blst at case %ld\n", it); return 1; }
    memcpy(r1, a, 48); add_mod_n_generic(r1, r1, b, P, 12); memcpy(r2, a, 48); add_mod_12(r2, r2, b, P);
    if (memcmp(r1, r2, 48)) { fprintf(stderr, "tnv-fp384.h: add alias differs from blst at case %ld\n", it); return 1; }
  }
  printf("tnv-fp384.h: equal to blst on 3,000,000 cases\n");
  return 0;
}
