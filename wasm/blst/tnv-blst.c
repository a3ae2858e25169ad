/*
 * tnv's BLS12-381 operations on blst (https://github.com/supranational/blst), compiled to
 * WebAssembly by scripts/build-blst-wasm.mjs. Minimum-signature variant: public keys on G2,
 * signatures on G1, hash_to_curve with the DST below (RFC 9380 suite
 * BLS12381G1_XMD:SHA-256_SSWU_RO_).
 *
 * The module has no imports. JavaScript writes inputs into one static buffer (tnv_io) at the
 * offsets of src/lib/keys/blst.ts and reads results from it; every function returns 0 on
 * success and a non-zero code otherwise. Points read from outside are checked for encoding,
 * curve membership, subgroup membership and the identity before use.
 */
#include "blst.h"

typedef unsigned char byte;

static const byte DST[] = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";
#define DST_LEN (sizeof(DST) - 1)

/* Layout of the I/O buffer; mirrored in src/lib/keys/blst.ts. */
#define OFF_SK 0          /* 32-byte big-endian secret key */
#define OFF_PK 32         /* 96-byte compressed G2 public key */
#define OFF_PK_RAW 128    /* 192-byte uncompressed G2 public key */
#define OFF_SIG 320       /* 48-byte compressed G1 signature */
#define OFF_SIG_RAW 368   /* 96-byte uncompressed G1 signature */
#define OFF_MSG 464       /* message */
#define IO_SIZE 65536
#define MSG_MAX (IO_SIZE - OFF_MSG)

enum { OK = 0, BAD_SECRET = 1, BAD_POINT = 2, BAD_LENGTH = 3, NOT_VERIFIED = 4 };

static byte io[IO_SIZE];

__attribute__((export_name("tnv_io"))) byte *tnv_io(void) { return io; }
__attribute__((export_name("tnv_msg_max"))) int tnv_msg_max(void) { return MSG_MAX; }

/* The secret key at OFF_SK as a scalar, when it is in [1, r). */
static int read_secret(blst_scalar *s) {
  blst_scalar_from_bendian(s, io + OFF_SK);
  return blst_sk_check(s) ? OK : BAD_SECRET;
}

static void wipe(void *p, unsigned long n) {
  volatile byte *b = (volatile byte *)p;
  while (n--) *b++ = 0;
}

/* sk -> compressed public key at OFF_PK. */
__attribute__((export_name("tnv_sk_to_pk"))) int tnv_sk_to_pk(void) {
  blst_scalar s;
  blst_p2 pk;
  int rc = read_secret(&s);
  if (rc == OK) {
    blst_sk_to_pk_in_g2(&pk, &s);
    blst_p2_compress(io + OFF_PK, &pk);
  }
  wipe(&s, sizeof(s));
  return rc;
}

/* sk, message of msg_len bytes -> compressed signature at OFF_SIG. */
__attribute__((export_name("tnv_sign"))) int tnv_sign(int msg_len) {
  blst_scalar s;
  blst_p1 h, sig;
  if (msg_len < 0 || msg_len > MSG_MAX) return BAD_LENGTH;
  int rc = read_secret(&s);
  if (rc == OK) {
    blst_hash_to_g1(&h, io + OFF_MSG, (size_t)msg_len, DST, DST_LEN, 0, 0);
    blst_sign_pk_in_g2(&sig, &h, &s);
    blst_p1_compress(io + OFF_SIG, &sig);
  }
  wipe(&s, sizeof(s));
  return rc;
}

/* A G1 point given compressed (48) or uncompressed (96) bytes at OFF_SIG / OFF_SIG_RAW. */
static int read_g1(blst_p1_affine *p, int uncompressed) {
  if (blst_p1_deserialize(p, io + (uncompressed ? OFF_SIG_RAW : OFF_SIG)) != BLST_SUCCESS) return BAD_POINT;
  if (blst_p1_affine_is_inf(p) || !blst_p1_affine_in_g1(p)) return BAD_POINT;
  return OK;
}

/* The compressed G2 public key at OFF_PK. */
static int read_g2(blst_p2_affine *p) {
  if ((io[OFF_PK] & 0x80) == 0) return BAD_POINT; /* compressed form only */
  if (blst_p2_uncompress(p, io + OFF_PK) != BLST_SUCCESS) return BAD_POINT;
  if (blst_p2_affine_is_inf(p) || !blst_p2_affine_in_g2(p)) return BAD_POINT;
  return OK;
}

/*
 * Core verify of the compressed signature at OFF_SIG over the message for the compressed key at
 * OFF_PK: e(sig, g2) = e(H(msg), pk). Both points are decoded here (encoding, curve, identity)
 * and checked for subgroup membership once, by blst_core_verify_pk_in_g2 itself (it always
 * checks both; checking them here as well doubled the costliest part of a verification).
 */
__attribute__((export_name("tnv_verify"))) int tnv_verify(int msg_len) {
  blst_p1_affine sig;
  blst_p2_affine pk;
  if (msg_len < 0 || msg_len > MSG_MAX) return BAD_LENGTH;
  if ((io[OFF_SIG] & 0x80) == 0 || (io[OFF_PK] & 0x80) == 0) return BAD_POINT; /* compressed forms only */
  if (blst_p1_uncompress(&sig, io + OFF_SIG) != BLST_SUCCESS || blst_p1_affine_is_inf(&sig)) return BAD_POINT;
  if (blst_p2_uncompress(&pk, io + OFF_PK) != BLST_SUCCESS || blst_p2_affine_is_inf(&pk)) return BAD_POINT;
  BLST_ERROR e = blst_core_verify_pk_in_g2(&pk, &sig, 1, io + OFF_MSG, (size_t)msg_len, DST, DST_LEN, 0, 0);
  if (e == BLST_POINT_NOT_IN_GROUP || e == BLST_PK_IS_INFINITY) return BAD_POINT;
  return e == BLST_SUCCESS ? OK : NOT_VERIFIED;
}

/* The compressed key at OFF_PK, checked, written uncompressed at OFF_PK_RAW. */
__attribute__((export_name("tnv_g2_decompress"))) int tnv_g2_decompress(void) {
  blst_p2_affine pk;
  if (read_g2(&pk) != OK) return BAD_POINT;
  blst_p2_affine_serialize(io + OFF_PK_RAW, &pk);
  return OK;
}

/*
 * A G1 point, uncompressed at OFF_SIG_RAW when `uncompressed` is set and compressed at OFF_SIG
 * otherwise, checked, then written in both forms.
 */
__attribute__((export_name("tnv_g1_forms"))) int tnv_g1_forms(int uncompressed) {
  blst_p1_affine p;
  if (!uncompressed && (io[OFF_SIG] & 0x80) == 0) return BAD_POINT;
  if (uncompressed && (io[OFF_SIG_RAW] & 0x80) != 0) return BAD_POINT;
  if (read_g1(&p, uncompressed) != OK) return BAD_POINT;
  blst_p1_affine_compress(io + OFF_SIG, &p);
  blst_p1_affine_serialize(io + OFF_SIG_RAW, &p);
  return OK;
}

/*
 * IETF KeyGen (draft-irtf-cfrg-bls-signature-05 §2.3, blst_keygen): IKM of ikm_len bytes at
 * OFF_MSG, key_info of info_len bytes right after it -> the secret key at OFF_SK (big-endian).
 * The inputs are wiped.
 */
__attribute__((export_name("tnv_keygen"))) int tnv_keygen(int ikm_len, int info_len) {
  blst_scalar s;
  if (ikm_len < 32 || info_len < 0 || ikm_len > MSG_MAX || info_len > MSG_MAX - ikm_len) return BAD_LENGTH;
  blst_keygen(&s, io + OFF_MSG, (size_t)ikm_len, io + OFF_MSG + ikm_len, (size_t)info_len);
  blst_bendian_from_scalar(io + OFF_SK, &s);
  wipe(&s, sizeof(s));
  wipe(io + OFF_MSG, (unsigned long)(ikm_len + info_len));
  return OK;
}

/* EIP-2333 derive_master_SK (blst_derive_master_eip2333): seed of len bytes at OFF_MSG -> OFF_SK; the seed is wiped. */
__attribute__((export_name("tnv_derive_master_eip2333"))) int tnv_derive_master_eip2333(int len) {
  blst_scalar s;
  if (len < 32 || len > MSG_MAX) return BAD_LENGTH;
  blst_derive_master_eip2333(&s, io + OFF_MSG, (size_t)len);
  blst_bendian_from_scalar(io + OFF_SK, &s);
  wipe(&s, sizeof(s));
  wipe(io + OFF_MSG, (unsigned long)len);
  return OK;
}

/* EIP-2333 derive_child_SK (blst_derive_child_eip2333): the parent at OFF_SK and index -> the child at OFF_SK. */
__attribute__((export_name("tnv_derive_child_eip2333"))) int tnv_derive_child_eip2333(unsigned int index) {
  blst_scalar parent, child;
  blst_scalar_from_bendian(&parent, io + OFF_SK);
  blst_derive_child_eip2333(&child, &parent, index);
  blst_bendian_from_scalar(io + OFF_SK, &child);
  wipe(&parent, sizeof(parent));
  wipe(&child, sizeof(child));
  return OK;
}
