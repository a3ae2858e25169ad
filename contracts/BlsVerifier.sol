// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.28;

/// @title BlsVerifier: the devnet's stand-in for the node's native BLS precompile at 0x…b151.
/// @notice `blsVerify(signature, pubkey, message)` checks a BLS12-381 minimum-signature-variant
/// signature (public key on G2, 96 bytes compressed; signature on G1, 48 bytes compressed) over
/// `message` with the DST `BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_`.
/// Any malformed input answers false; the function never reverts on its inputs.
/// @dev Built on the Prague precompiles (EIP-2537) and MODEXP (0x05):
///  1. decompress both points (ZCash flag bits, x < p, square roots via MODEXP since p ≡ 3 mod 4,
///     Fp2 square root by the norm method, sign chosen by the sort flag);
///  2. hash_to_curve G1 (RFC 9380 §3, suite BLS12381G1_XMD:SHA-256_SSWU_RO_): expand_message_xmd
///     with SHA-256 (§5.3.1) into 128 bytes, two field elements reduced mod p with MODEXP
///     (hash_to_field, §5.2), MAP_FP_TO_G1 on each (it clears the cofactor) and G1ADD;
///  3. PAIRING_CHECK e(sig, -G2) · e(H(m), pk) == 1, which also performs the subgroup checks
///     on the signature and the public key.
/// An Fp element is kept in memory as two words [hi][lo] (value = hi·2^256 + lo, hi < 2^128),
/// which is exactly EIP-2537's 64-byte field encoding (16 zero bytes, then 48 bytes).
/// The function body is one assembly block that owns all memory from 0x80 and ends with
/// `return`, so it uses fixed addresses and never touches the free memory pointer.
contract BlsVerifier {
    function blsVerify(bytes calldata signature, bytes calldata pubkey, bytes calldata message)
        external
        view
        returns (bool)
    {
        assembly {
            // ---- memory map (absolute addresses) ----
            // 0x080 P              0x0c0 (P+1)/4 (square-root exponent)   0x100 P-2 (inverse exponent)
            // 0x140 (P-1)/2        0x180 (P+1)/2 = 1/2 mod P               0x1c0..0x300 MODEXP scratch
            // 0x300..0x580 field temporaries (see below)
            // 0x580..0x880 PAIRING_CHECK input: sig (G1) | -G2 generator | H(m) (G1) | pubkey (G2)
            // 0x880..0x8e1 expand_message_xmd block b_i input; 0x900..0x980 b_1..b_4
            // 0x980..0xa80 MAP_FP_TO_G1 outputs (G1ADD input); 0xa80.. msg_prime (grows with the message)

            function setFp(dst, h, l) {
                mstore(dst, h)
                mstore(add(dst, 0x20), l)
            }
            function isZeroFp(a) -> z {
                z := iszero(or(mload(a), mload(add(a, 0x20))))
            }
            function eqFp(a, b) -> e {
                e := and(eq(mload(a), mload(b)), eq(mload(add(a, 0x20)), mload(add(b, 0x20))))
            }
            // a < b as 384-bit integers
            function ltFp(a, b) -> r {
                let ah := mload(a)
                let bh := mload(b)
                r := or(lt(ah, bh), and(eq(ah, bh), lt(mload(add(a, 0x20)), mload(add(b, 0x20)))))
            }
            // dst = a + b mod P (a, b < P)
            function addFp(dst, a, b) {
                let al := mload(add(a, 0x20))
                let l := add(al, mload(add(b, 0x20)))
                let h := add(add(mload(a), mload(b)), lt(l, al))
                let ph := mload(0x80)
                let pl := mload(0xa0)
                if iszero(or(lt(h, ph), and(eq(h, ph), lt(l, pl)))) {
                    h := sub(sub(h, ph), lt(l, pl))
                    l := sub(l, pl)
                }
                setFp(dst, h, l)
            }
            // dst = a - b mod P (a, b < P; also a = P, b in (0, P) for negation)
            function subFp(dst, a, b) {
                let ah := mload(a)
                let al := mload(add(a, 0x20))
                let bh := mload(b)
                let bl := mload(add(b, 0x20))
                let h := sub(sub(ah, bh), lt(al, bl))
                let l := sub(al, bl)
                if or(lt(ah, bh), and(eq(ah, bh), lt(al, bl))) {
                    let nl := add(l, mload(0xa0))
                    h := add(add(h, mload(0x80)), lt(nl, l))
                    l := nl
                }
                setFp(dst, h, l)
            }
            function negFp(dst, a) {
                switch isZeroFp(a)
                case 1 { setFp(dst, 0, 0) }
                default { subFp(dst, 0x80, a) }
            }
            // out[0..96) = a * b as a 768-bit big-endian integer (three words), schoolbook on
            // (hi, lo) halves; each 256x256 product is split with the mulmod(x, y, 2^256-1) trick.
            function mul768(out, a, b) {
                let al := mload(add(a, 0x20))
                let bl := mload(add(b, 0x20))
                let t := mul(al, bl)
                let mm := mulmod(al, bl, not(0))
                mstore(add(out, 0x40), t)
                let w1 := sub(sub(mm, t), lt(mm, t))
                let ah := mload(a)
                t := mul(ah, bl)
                mm := mulmod(ah, bl, not(0))
                let w2 := sub(sub(mm, t), lt(mm, t))
                w1 := add(w1, t)
                let c := lt(w1, t)
                let bh := mload(b)
                t := mul(al, bh)
                mm := mulmod(al, bh, not(0))
                w2 := add(w2, sub(sub(mm, t), lt(mm, t)))
                w1 := add(w1, t)
                c := add(c, lt(w1, t))
                w2 := add(add(w2, mul(ah, bh)), c)
                mstore(out, w2)
                mstore(add(out, 0x20), w1)
            }
            // dst = a * b mod P: 768-bit product reduced by MODEXP(product, 1, P); the 64-byte
            // modulus makes MODEXP write the result straight in [hi][lo] form.
            function mulFp(dst, a, b) {
                let s := 0x1c0
                mstore(s, 96)
                mstore(add(s, 0x20), 1)
                mstore(add(s, 0x40), 64)
                mul768(add(s, 0x60), a, b)
                mstore8(add(s, 0xc0), 1)
                mstore(add(s, 0xc1), mload(0x80))
                mstore(add(s, 0xe1), mload(0xa0))
                if iszero(staticcall(gas(), 0x05, s, 0x101, dst, 0x40)) { revert(0, 0) }
            }
            // dst = a^e mod P with 48-byte base, exponent and modulus (cheapest MODEXP pricing)
            function powFp(dst, a, e) {
                let s := 0x1c0
                mstore(s, 48)
                mstore(add(s, 0x20), 48)
                mstore(add(s, 0x40), 48)
                mstore(add(s, 0x60), shl(128, mload(a)))
                mstore(add(s, 0x70), mload(add(a, 0x20)))
                mstore(add(s, 0x90), shl(128, mload(e)))
                mstore(add(s, 0xa0), mload(add(e, 0x20)))
                mstore(add(s, 0xc0), shl(128, mload(0x80)))
                mstore(add(s, 0xd0), mload(0xa0))
                if iszero(staticcall(gas(), 0x05, s, 0xf0, s, 0x30)) { revert(0, 0) }
                setFp(dst, shr(128, mload(s)), mload(add(s, 0x10)))
            }
            // dst = sqrt(a) when a is a square (p ≡ 3 mod 4: a^((p+1)/4)); ok = 0 otherwise
            function sqrtFp(dst, a) -> ok {
                powFp(dst, a, 0xc0)
                mulFp(0x300, dst, dst)
                ok := eqFp(0x300, a)
            }
            // "lexicographically largest" (ZCash sort flag): a > (p-1)/2
            function isLargeFp(a) -> r {
                r := ltFp(0x140, a)
            }
            // Reads a 48-byte big-endian field element from calldata; returns its top 3 bits
            // (compressed, infinity, sort) and stores the value with those bits cleared.
            function readFlaggedFp(dst, off) -> flags {
                let w := calldataload(off)
                flags := shr(253, w)
                setFp(dst, and(shr(128, w), 0x1fffffffffffffffffffffffffffffff), calldataload(add(off, 16)))
            }
            function readFp(dst, off) {
                setFp(dst, shr(128, calldataload(off)), calldataload(add(off, 16)))
            }

            // Signature: compressed G1 (48 bytes) -> uncompressed at out (x | y, 128 bytes)
            function decompressG1(out, off) -> ok {
                let x := out
                let y := add(out, 0x40)
                let flags := readFlaggedFp(x, off)
                if iszero(and(flags, 4)) { leave } // must be compressed
                if and(flags, 2) { leave } // infinity is never a valid signature
                if iszero(ltFp(x, 0x80)) { leave } // x >= p
                let rhs := 0x340
                mulFp(rhs, x, x)
                mulFp(rhs, rhs, x)
                setFp(0x380, 0, 4)
                addFp(rhs, rhs, 0x380) // x^3 + 4
                if iszero(sqrtFp(y, rhs)) { leave } // not on the curve
                if xor(isLargeFp(y), and(flags, 1)) { negFp(y, y) }
                ok := 1
            }

            // r = sqrt(a0 + a1·i) in Fp2 (i² = -1) by the norm method; ok = 0 if a is not a square.
            function sqrtFp2(r0, r1, a0, a1) -> ok {
                let t := 0x3c0
                if isZeroFp(a1) {
                    if sqrtFp(r0, a0) {
                        setFp(r1, 0, 0)
                        ok := 1
                        leave
                    }
                    negFp(t, a0)
                    if sqrtFp(r1, t) {
                        setFp(r0, 0, 0)
                        ok := 1
                    }
                    leave
                }
                let n := 0x400
                let s := 0x440
                mulFp(n, a0, a0)
                mulFp(t, a1, a1)
                addFp(n, n, t) // norm a0² + a1²
                if iszero(sqrtFp(s, n)) { leave }
                addFp(t, a0, s)
                mulFp(t, t, 0x180) // (a0 + s) / 2
                if iszero(sqrtFp(r0, t)) {
                    subFp(t, a0, s)
                    mulFp(t, t, 0x180) // (a0 - s) / 2
                    if iszero(sqrtFp(r0, t)) { leave }
                }
                addFp(t, r0, r0)
                powFp(t, t, 0x100) // 1 / (2 r0); r0 != 0 because a1 != 0
                mulFp(r1, a1, t)
                // confirm (r0 + r1 i)² = a
                mulFp(t, r0, r0)
                mulFp(n, r1, r1)
                subFp(t, t, n)
                if iszero(eqFp(t, a0)) { leave }
                mulFp(t, r0, r1)
                addFp(t, t, t)
                if iszero(eqFp(t, a1)) { leave }
                ok := 1
            }

            // Public key: compressed G2 (96 bytes: x.c1 with flags, then x.c0) -> EIP-2537
            // uncompressed at out (x.c0 | x.c1 | y.c0 | y.c1, 256 bytes)
            function decompressG2(out, off) -> ok {
                let x0 := out
                let x1 := add(out, 0x40)
                let y0 := add(out, 0x80)
                let y1 := add(out, 0xc0)
                let flags := readFlaggedFp(x1, off)
                if iszero(and(flags, 4)) { leave }
                if and(flags, 2) { leave }
                readFp(x0, add(off, 48))
                if iszero(ltFp(x1, 0x80)) { leave }
                if iszero(ltFp(x0, 0x80)) { leave }
                let t := 0x480
                let s0 := 0x4c0
                let s1 := 0x500
                // x² = (x0² - x1², 2·x0·x1)
                mulFp(s0, x0, x0)
                mulFp(t, x1, x1)
                subFp(s0, s0, t)
                mulFp(s1, x0, x1)
                addFp(s1, s1, s1)
                // x³ = x²·x, then + 4(1 + i)
                let c0 := 0x540
                mulFp(c0, s0, x0)
                mulFp(t, s1, x1)
                subFp(c0, c0, t)
                mulFp(s1, s1, x0)
                mulFp(t, s0, x1)
                addFp(s1, s1, t)
                setFp(t, 0, 4)
                addFp(c0, c0, t)
                addFp(s1, s1, t)
                if iszero(sqrtFp2(y0, y1, c0, s1)) { leave }
                // sort flag: y.c1 decides, or y.c0 when y.c1 = 0
                let large := isLargeFp(y1)
                if isZeroFp(y1) { large := isLargeFp(y0) }
                if xor(large, and(flags, 1)) {
                    negFp(y0, y0)
                    negFp(y1, y1)
                }
                ok := 1
            }

            function sha256To(dst, ptr, len) {
                if iszero(staticcall(gas(), 0x02, ptr, len, dst, 0x20)) { revert(0, 0) }
            }

            // hash_to_curve for G1 (RFC 9380) of calldata[off, off+len) -> out (128 bytes)
            function hashToG1(out, off, len) {
                let dst1 := 0x424c535f5349475f424c53313233383147315f584d443a5348412d3235365f53
                let dst2 := 0x5357555f524f5f4e554c5f2b0000000000000000000000000000000000000000
                // msg_prime = Z_pad(64) || msg || I2OSP(128, 2) || I2OSP(0, 1) || DST || I2OSP(43, 1)
                let m := 0xa80
                mstore(m, 0)
                mstore(add(m, 0x20), 0)
                calldatacopy(add(m, 0x40), off, len)
                let p := add(add(m, 0x40), len)
                mstore(p, 0x0080000000000000000000000000000000000000000000000000000000000000)
                mstore(add(p, 3), dst1)
                mstore(add(p, 35), dst2)
                let blk := 0x880
                sha256To(blk, m, add(len, 111)) // b_0
                let b0 := mload(blk)
                let prev := 0
                let u := 0x900
                for { let i := 1 } lt(i, 5) { i := add(i, 1) } {
                    // b_i = H(strxor(b_0, b_{i-1}) || I2OSP(i, 1) || DST_prime), with b_0 xor 0 for i = 1
                    mstore(blk, xor(b0, prev))
                    mstore8(add(blk, 0x20), i)
                    mstore(add(blk, 0x21), dst1)
                    mstore(add(blk, 0x41), dst2)
                    let bi := add(u, mul(sub(i, 1), 0x20))
                    sha256To(bi, blk, 77)
                    prev := mload(bi)
                }
                // hash_to_field: u_j = OS2IP(64 bytes) mod p, then MAP_FP_TO_G1 each, then G1ADD
                let q := 0x980
                for { let j := 0 } lt(j, 2) { j := add(j, 1) } {
                    let s := 0x1c0
                    mstore(s, 64)
                    mstore(add(s, 0x20), 1)
                    mstore(add(s, 0x40), 64)
                    mstore(add(s, 0x60), mload(add(u, mul(j, 0x40))))
                    mstore(add(s, 0x80), mload(add(u, add(mul(j, 0x40), 0x20))))
                    mstore8(add(s, 0xa0), 1)
                    mstore(add(s, 0xa1), mload(0x80))
                    mstore(add(s, 0xc1), mload(0xa0))
                    if iszero(staticcall(gas(), 0x05, s, 0xe1, 0x300, 0x40)) { revert(0, 0) }
                    if iszero(staticcall(gas(), 0x10, 0x300, 0x40, add(q, mul(j, 0x80)), 0x80)) { revert(0, 0) }
                }
                if iszero(staticcall(gas(), 0x0b, q, 0x100, out, 0x80)) { revert(0, 0) }
            }

            // ---- entry ----
            if or(iszero(eq(signature.length, 48)), iszero(eq(pubkey.length, 96))) {
                mstore(0, 0)
                return(0, 0x20)
            }
            setFp(0x80, 0x1a0111ea397fe69a4b1ba7b6434bacd7, 0x64774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab)
            setFp(0xc0, 0x680447a8e5ff9a692c6e9ed90d2eb35, 0xd91dd2e13ce144afd9cc34a83dac3d8907aaffffac54ffffee7fbfffffffeaab)
            setFp(0x100, 0x1a0111ea397fe69a4b1ba7b6434bacd7, 0x64774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaa9)
            setFp(0x140, 0xd0088f51cbff34d258dd3db21a5d66b, 0xb23ba5c279c2895fb39869507b587b120f55ffff58a9ffffdcff7fffffffd555)
            setFp(0x180, 0xd0088f51cbff34d258dd3db21a5d66b, 0xb23ba5c279c2895fb39869507b587b120f55ffff58a9ffffdcff7fffffffd556)

            let pairing := 0x580
            let valid := decompressG1(pairing, signature.offset)
            if valid { valid := decompressG2(add(pairing, 0x200), pubkey.offset) }
            if valid {
                // -G2 generator (x.c0, x.c1, -y.c0, -y.c1)
                let g := add(pairing, 0x80)
                setFp(g, 0x24aa2b2f08f0a91260805272dc51051, 0xc6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8)
                setFp(add(g, 0x40), 0x13e02b6052719f607dacd3a088274f65, 0x596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e)
                setFp(add(g, 0x80), 0xd1b3cc2c7027888be51d9ef691d77bc, 0xb679afda66c73f17f9ee3837a55024f78c71363275a75d75d86bab79f74782aa)
                setFp(add(g, 0xc0), 0x13fa4d4a0ad8b1ce186ed5061789213d, 0x993923066dddaf1040bc3ff59f825c78df74f2d75467e25e0f55f8a00fa030ed)
                hashToG1(add(pairing, 0x180), message.offset, message.length)
                // PAIRING_CHECK fails (and burns the gas it was given) for points outside the
                // subgroups, so give it a bounded allowance: 2 pairs cost 37,700 + 2 · 32,600.
                // Without enough gas left to hand over the whole allowance, revert (out of gas)
                // rather than answer false: the answer must depend on the inputs only.
                // (Yul evaluates arguments right to left, so read the output only after the call.)
                if lt(gas(), 155000) { revert(0, 0) }
                mstore(0x880, 0)
                let called := staticcall(150000, 0x0f, pairing, 0x300, 0x880, 0x20)
                valid := and(called, eq(mload(0x880), 1))
            }
            mstore(0, valid)
            return(0, 0x20)
        }
    }
}
