"""AES-128 on our machine: known-answer vectors, the `cryptography` package, and a
constant-time check by instruction/address traces (tests/guest/ct_trace.py)."""

from __future__ import annotations

import random
import shutil

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

import ct_trace
import guest_harness as gh

BUILDS = ["gcc", "ncc"]
ZERO_IV = "00" * 16
SP800_KEY = "2b7e151628aed2a6abf7158809cf4f3c"
SP800_PLAIN = ("6bc1bee22e409f96e93d7e117393172a" "ae2d8a571e03ac9c9eb76fac45af8e51"
               "30c81c46a35ce411e5fbc1191a0a52ef" "f69f2445df4f9b17ad2b417be66c3710")
VECTORS = [  # (mode, key, iv, plaintext, ciphertext)
    # FIPS 197 Appendix B and Appendix C.1
    ("ecb", SP800_KEY, ZERO_IV, "3243f6a8885a308d313198a2e0370734", "3925841d02dc09fbdc118597196a0b32"),
    ("ecb", "000102030405060708090a0b0c0d0e0f", ZERO_IV, "00112233445566778899aabbccddeeff",
     "69c4e0d86a7b0430d8cdb78070b4c55a"),
    # NIST SP 800-38A F.1.1 (ECB-AES128) and F.2.1 (CBC-AES128)
    ("ecb", SP800_KEY, ZERO_IV, SP800_PLAIN, "3ad77bb40d7a3660a89ecaf32466ef97" "f5d3d58503b9699de785895a96fdbaaf"
     "43b1cd7f598ece23881b00e3ed030688" "7b0c785e27e8ad3f8223207104725dd4"),
    ("cbc", SP800_KEY, "000102030405060708090a0b0c0d0e0f", SP800_PLAIN, "7649abac8119b246cee98e9b12e9197d"
     "5086cb9b507219ee95db113a917678b2" "73bed6b8e3c1743b7116e69e22229516" "3ff1caa1681fac09120eca307586e1a7"),
]


@pytest.fixture(scope="module")
def root(tree, tmp_path_factory):
    path = tmp_path_factory.mktemp("aes") / "root"
    shutil.copytree(tree, path, ignore=shutil.ignore_patterns(".done"))
    return path


def aes(root, build, args, stdin, cpu_api=None):
    name = "aes" if build == "gcc" else "aes.ncc"
    return gh.harness.run_ncpu(root / "bin" / name, [name, *args], root, stdin=stdin, cpu_api=cpu_api)


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("leaky", [False, True], ids=["ct", "table"])
def test_known_answers_both_directions(root, build, leaky):
    extra = ["-leaky"] if leaky else []
    for mode, key, iv, plain, cipher in VECTORS:
        enc = aes(root, build, [mode, "enc", *extra], f"{key} {iv} {plain}\n".encode())
        assert enc.stdout.decode().strip() == cipher
        dec = aes(root, build, [mode, "dec", *extra], f"{key} {iv} {cipher}\n".encode())
        assert dec.stdout.decode().strip() == plain


def _cryptography(mode, key, iv, data, encrypt):
    cipher = Cipher(algorithms.AES(key), modes.ECB() if mode == "ecb" else modes.CBC(iv))
    ctx = cipher.encryptor() if encrypt else cipher.decryptor()
    return ctx.update(data) + ctx.finalize()


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("mode", ["ecb", "cbc"])
def test_random_keys_against_cryptography(root, build, mode):
    rng = random.Random(197 if mode == "ecb" else 38)
    cases = [(rng.randbytes(16), rng.randbytes(16), rng.randbytes(16 * rng.randint(1, 6))) for _ in range(12)]
    for direction, encrypt in (("enc", True), ("dec", False)):
        stdin = b"".join(f"{k.hex()} {iv.hex()} {d.hex()}\n".encode() for k, iv, d in cases)
        out = aes(root, "gcc" if build == "gcc" else "ncc", [mode, direction], stdin)
        assert out.stdout.decode().split() == [_cryptography(mode, k, iv, d, encrypt).hex() for k, iv, d in cases]


def _trace(root, build, key, plain, leaky):
    trace: list = []
    out = aes(root, build, ["block", *(["-leaky"] if leaky else [])], key + plain, cpu_api=ct_trace.tracing_api(trace))
    assert out.stdout == _cryptography("ecb", key, None, plain, True)
    return trace


def _distinct_traces(root, build, leaky, n):
    rng = random.Random(16 + leaky)
    return {tuple(_trace(root, build, rng.randbytes(16), rng.randbytes(16), leaky)) for _ in range(n)}


def test_constant_time_trace_identical_gcc(root):
    assert len(_distinct_traces(root, "gcc", False, 2)) == 1


def test_table_aes_trace_depends_on_key(root):
    assert len(_distinct_traces(root, "gcc", True, 2)) == 2


@pytest.mark.slow
def test_constant_time_sixteen_keys(root):
    assert len(_distinct_traces(root, "gcc", False, 16)) == 1
    assert len(_distinct_traces(root, "gcc", True, 16)) == 16


@pytest.mark.slow
def test_constant_time_ncc_build(root):
    # ncc's code retires several times more instructions: fewer keys for the single-stepping tracer
    assert len(_distinct_traces(root, "ncc", False, 4)) == 1
    assert len(_distinct_traces(root, "ncc", True, 4)) == 4
