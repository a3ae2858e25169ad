/*
 * tnv's 12-limb forms of three of blst's generic field operations (src/no_asm.h: mul_mont_n,
 * add_mod_n, sub_mod_n) for the WebAssembly module, where blst's limb is 32 bits and an element
 * of the base field (384 bits) is 12 limbs.
 *
 * Why: a tnv command makes one or a few BLS operations in a fresh process, so V8 runs them in its
 * baseline compiler (Liftoff), which neither unrolls a loop nor keeps an array in registers:
 * blst's loops over `tmp[n]` (a stack array in linear memory) load and store every limb at every
 * step. Here the limbs are named locals and the inner loops are written out, with the same
 * arithmetic in the same order: a proof-of-possession check in a fresh process takes about a
 * fifth less time (docs/decisions.md, "Start-up, stop 30").
 *
 * scripts/build-blst-wasm.mjs renames blst's three definitions to *_generic and includes this file
 * just before them; every call blst makes reaches the functions at the end of this file, which
 * take the 12-limb path for n == 12 and leave every other size (the 256-bit scalar field) to
 * blst's own code. Constant time as blst's: no branch or index depends on a value.
 */

static void mul_mont_n_generic(limb_t ret[], const limb_t a[], const limb_t b[],
                               const limb_t p[], limb_t n0, size_t n);
static void add_mod_n_generic(limb_t ret[], const limb_t a[], const limb_t b[],
                              const limb_t p[], size_t n);
static void sub_mod_n_generic(limb_t ret[], const limb_t a[], const limb_t b[],
                              const limb_t p[], size_t n);

#define TNV_LIMBS(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

/*
 * ret = a * b / 2^384 mod p, for a, b < p (blst's mul_mont_n with n = 12: word-by-word
 * Montgomery multiplication, then one conditional subtraction of p). ret may be a or b.
 */
static void mul_mont_12(limb_t ret[], const limb_t a[], const limb_t b[],
                        const limb_t p[], limb_t n0)
{
#define TNV_LOAD(i) const llimb_t a##i = a[i], p##i = p[i]; llimb_t t##i = 0;
    TNV_LIMBS(TNV_LOAD)
#undef TNV_LOAD
    llimb_t t12 = 0, t13, acc, c, bj, m, d;
    limb_t r[12], borrow, mask;
    size_t j;

    for (j = 0; j < 12; j++) {
        /* t += a * b[j] */
        bj = b[j];
        c = 0;
#define TNV_MULADD(i) acc = t##i + a##i * bj + c; t##i = acc & 0xffffffff; c = acc >> 32;
        TNV_LIMBS(TNV_MULADD)
#undef TNV_MULADD
        acc = t12 + c;
        t12 = acc & 0xffffffff;
        t13 = acc >> 32;
        /* t = (t + m * p) / 2^32, with m such that the low limb becomes 0 */
        m = (t0 * n0) & 0xffffffff;
        c = (t0 + m * p0) >> 32;
#define TNV_REDUCE(i, lower) acc = t##i + m * p##i + c; t##lower = acc & 0xffffffff; c = acc >> 32;
        TNV_REDUCE(1, 0) TNV_REDUCE(2, 1) TNV_REDUCE(3, 2) TNV_REDUCE(4, 3)
        TNV_REDUCE(5, 4) TNV_REDUCE(6, 5) TNV_REDUCE(7, 6) TNV_REDUCE(8, 7)
        TNV_REDUCE(9, 8) TNV_REDUCE(10, 9) TNV_REDUCE(11, 10)
#undef TNV_REDUCE
        acc = t12 + c;
        t11 = acc & 0xffffffff;
        t12 = t13 + (acc >> 32);
    }

    /* t < 2p: r = t - p, kept unless it borrows past the top limb t12 */
    borrow = 0;
#define TNV_SUBP(i) d = t##i - (p##i + borrow); r[i] = (limb_t)d; borrow = (limb_t)(d >> 32) & 1;
    TNV_LIMBS(TNV_SUBP)
#undef TNV_SUBP
    mask = (limb_t)t12 - borrow;
    launder(mask);
#define TNV_SELECT(i) ret[i] = (r[i] & ~mask) | ((limb_t)t##i & mask);
    TNV_LIMBS(TNV_SELECT)
#undef TNV_SELECT
}

/* ret = a + b mod p, for a, b < p (blst's add_mod_n with n = 12). ret may be a or b. */
static void add_mod_12(limb_t ret[], const limb_t a[], const limb_t b[], const limb_t p[])
{
    llimb_t acc, d;
    limb_t carry = 0, borrow = 0, mask;
#define TNV_ADD(i) acc = a[i] + (b[i] + (llimb_t)carry); const limb_t t##i = (limb_t)acc; carry = (limb_t)(acc >> 32);
    TNV_LIMBS(TNV_ADD)
#undef TNV_ADD
#define TNV_SUBP(i) d = t##i - (p[i] + (llimb_t)borrow); const limb_t r##i = (limb_t)d; borrow = (limb_t)(d >> 32) & 1;
    TNV_LIMBS(TNV_SUBP)
#undef TNV_SUBP
    mask = carry - borrow;
    launder(mask);
#define TNV_SELECT(i) ret[i] = (r##i & ~mask) | (t##i & mask);
    TNV_LIMBS(TNV_SELECT)
#undef TNV_SELECT
}

/* ret = a - b mod p, for a, b < p (blst's sub_mod_n with n = 12). ret may be a or b. */
static void sub_mod_12(limb_t ret[], const limb_t a[], const limb_t b[], const limb_t p[])
{
    llimb_t acc, d;
    limb_t carry = 0, borrow = 0, mask;
#define TNV_SUB(i) d = a[i] - (b[i] + (llimb_t)borrow); const limb_t t##i = (limb_t)d; borrow = (limb_t)(d >> 32) & 1;
    TNV_LIMBS(TNV_SUB)
#undef TNV_SUB
    mask = 0 - borrow;
    launder(mask);
#define TNV_ADDP(i) acc = t##i + ((p[i] & mask) + (llimb_t)carry); ret[i] = (limb_t)acc; carry = (limb_t)(acc >> 32);
    TNV_LIMBS(TNV_ADDP)
#undef TNV_ADDP
}

#undef TNV_LIMBS

static void mul_mont_n(limb_t ret[], const limb_t a[], const limb_t b[],
                       const limb_t p[], limb_t n0, size_t n)
{
    if (n == 12)
        mul_mont_12(ret, a, b, p, n0);
    else
        mul_mont_n_generic(ret, a, b, p, n0, n);
}

static void add_mod_n(limb_t ret[], const limb_t a[], const limb_t b[],
                      const limb_t p[], size_t n)
{
    if (n == 12)
        add_mod_12(ret, a, b, p);
    else
        add_mod_n_generic(ret, a, b, p, n);
}

static void sub_mod_n(limb_t ret[], const limb_t a[], const limb_t b[],
                      const limb_t p[], size_t n)
{
    if (n == 12)
        sub_mod_12(ret, a, b, p);
    else
        sub_mod_n_generic(ret, a, b, p, n);
}
