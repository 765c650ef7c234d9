"""Disassembler driven by the same table as the decoder.

The table tells which entry a word is and gives its fields by name; the
functions below only spell the result, choosing the preferred alias the way
the ARM ARM (and capstone) do: `mov`, `cmp`, `lsl`, `cset`, `mul`, ...
Intentional differences from capstone are listed in tests/arm64/cpu.
"""
from __future__ import annotations

from . import decode_table as T
from .decoder import UNDEF, decode, decode_bitmask, imm_of, vfp_expand_imm
from .int_ops import sextn
from .sysregs import NAMES as SYSREG_NAMES

COND = ["eq", "ne", "hs", "lo", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le", "al", "nv"]
SHIFT = ["lsl", "lsr", "asr", "ror"]
EXTEND = ["uxtb", "uxth", "uxtw", "uxtx", "sxtb", "sxth", "sxtw", "sxtx"]
U64 = (1 << 64) - 1


def _x(r, sf=1, sp=False):
    if r == 31:
        return ("sp" if sf else "wsp") if sp else ("xzr" if sf else "wzr")
    return f"{'x' if sf else 'w'}{r}"


def _imm(v):
    if v < 0:
        return f"#-{-v:#x}" if v < -9 else f"#{v}"
    return f"#{v:#x}" if v > 9 else f"#{v}"


def _fp(r, ftype):
    return ("s", "d", "q", "h")[ftype] + str(r)


def _fmt_int(name, f, w, addr):
    sf = f.get("sf", 1)
    rd, rn, rm = f.get("rd"), f.get("rn"), f.get("rm")
    if name in ("ADR", "ADRP"):
        imm = int(imm_of(T.BY_NAME_ID[name], w))
        base = addr & ~0xFFF if name == "ADRP" else addr
        return name.lower(), f"{_x(rd)}, #{(base + imm) & U64:#x}"
    if name in ("ADD_I", "ADDS_I", "SUB_I", "SUBS_I"):
        imm, sh = f["imm12"], f["sh"]
        tail = f"{_imm(imm)}" + (", lsl #12" if sh else "")
        if name == "ADD_I" and not sh and imm == 0 and (rd == 31 or rn == 31):
            return "mov", f"{_x(rd, sf, True)}, {_x(rn, sf, True)}"
        if name in ("ADDS_I", "SUBS_I") and rd == 31:
            return ("cmn" if name == "ADDS_I" else "cmp"), f"{_x(rn, sf, True)}, {tail}"
        dsp = name in ("ADD_I", "SUB_I")
        return name[:-2].lower(), f"{_x(rd, sf, dsp)}, {_x(rn, sf, True)}, {tail}"
    if name in ("AND_I", "ORR_I", "EOR_I", "ANDS_I"):
        imm = int(decode_bitmask(f["n"], f["imms"], f["immr"], 64 if sf else 32)) & U64
        if name == "ANDS_I" and rd == 31:
            return "tst", f"{_x(rn, sf)}, #{imm:#x}"
        if name == "ORR_I" and rn == 31 and not _movewide_ok(imm, sf):
            return "mov", f"{_x(rd, sf, True)}, #{imm:#x}"
        return name[:-2].lower(), f"{_x(rd, sf, name != 'ANDS_I')}, {_x(rn, sf)}, #{imm:#x}"
    if name in ("MOVZ", "MOVN", "MOVK"):
        sh = 16 * f["hw"]
        if name == "MOVK" or (f["imm16"] == 0 and f["hw"]) or (name == "MOVN" and not sf and f["imm16"] == 0xFFFF):
            return name.lower(), f"{_x(rd, sf)}, {_imm(f['imm16'])}" + (f", lsl #{sh}" if sh else "")
        v = f["imm16"] << sh
        if name == "MOVN":
            v = ~v & (U64 if sf else 0xFFFFFFFF)
        v = sextn.py_func(v, 64 if sf else 32)
        return "mov", f"{_x(rd, sf)}, {_imm(v)}"
    if name in ("SBFM", "UBFM", "BFM"):
        return _fmt_bitfield(name, f, sf)
    if name == "EXTR":
        if rn == rm:
            return "ror", f"{_x(rd, sf)}, {_x(rn, sf)}, {_imm(f['imms'])}"
        return "extr", f"{_x(rd, sf)}, {_x(rn, sf)}, {_x(rm, sf)}, {_imm(f['imms'])}"
    if name.endswith("_R") and name[:-2] in ("AND", "BIC", "ORR", "ORN", "EOR", "EON", "ANDS", "BICS",
                                             "ADD", "ADDS", "SUB", "SUBS"):
        mn = name[:-2].lower()
        sh = f"{SHIFT[f['shift']]} #{f['imm6']}"
        tail = f", {sh}" if f["imm6"] or f["shift"] else ""
        if mn == "orr" and rn == 31 and not tail:
            return "mov", f"{_x(rd, sf)}, {_x(rm, sf)}"
        if mn == "orn" and rn == 31:
            return "mvn", f"{_x(rd, sf)}, {_x(rm, sf)}{tail}"
        if mn == "ands" and rd == 31:
            return "tst", f"{_x(rn, sf)}, {_x(rm, sf)}{tail}"
        if mn in ("subs", "adds") and rd == 31:
            return ("cmp" if mn == "subs" else "cmn"), f"{_x(rn, sf)}, {_x(rm, sf)}{tail}"
        if mn in ("sub", "subs") and rn == 31:
            return ("neg" if mn == "sub" else "negs"), f"{_x(rd, sf)}, {_x(rm, sf)}{tail}"
        return mn, f"{_x(rd, sf)}, {_x(rn, sf)}, {_x(rm, sf)}{tail}"
    if name in ("ADD_X", "ADDS_X", "SUB_X", "SUBS_X"):
        mn = name[:-2].lower()
        opt, sh = f["option"], f["imm3"]
        rmsf = 1 if sf and (opt & 3) == 3 else 0
        lsl_ok = (sf and opt == 3) or (not sf and opt == 2)
        if lsl_ok and (rd == 31 or rn == 31) and mn in ("add", "sub") or lsl_ok and rn == 31 and mn in ("adds", "subs"):
            ext = f", lsl #{sh}" if sh else ""
        else:
            ext = f", {EXTEND[opt]}" + (f" #{sh}" if sh else "")
        ops = f"{_x(rn, sf, True)}, {_x(rm, rmsf)}{ext}"
        if mn in ("adds", "subs") and rd == 31:
            return ("cmn" if mn == "adds" else "cmp"), ops
        return mn, f"{_x(rd, sf, mn in ('add', 'sub'))}, {ops}"
    if name in ("ADC", "ADCS", "SBC", "SBCS"):
        if name.startswith("SBC") and rn == 31:
            return "ngc" + name[3:].lower(), f"{_x(rd, sf)}, {_x(rm, sf)}"
        return name.lower(), f"{_x(rd, sf)}, {_x(rn, sf)}, {_x(rm, sf)}"
    if name.startswith("CCM"):
        b = _imm(f['imm5']) if name.endswith("_I") else _x(rm, sf)
        return name[:4].lower(), f"{_x(rn, sf)}, {b}, #{f['nzcv']}, {COND[f['cond']]}"
    if name in ("CSEL", "CSINC", "CSINV", "CSNEG"):
        c = f["cond"]
        if name != "CSEL" and c < 14 and rn == rm:
            inv = COND[c ^ 1]
            if name == "CSINC" and rn == 31:
                return "cset", f"{_x(rd, sf)}, {inv}"
            if name == "CSINV" and rn == 31:
                return "csetm", f"{_x(rd, sf)}, {inv}"
            return {"CSINC": "cinc", "CSINV": "cinv", "CSNEG": "cneg"}[name], f"{_x(rd, sf)}, {_x(rn, sf)}, {inv}"
        return name.lower(), f"{_x(rd, sf)}, {_x(rn, sf)}, {_x(rm, sf)}, {COND[c]}"
    if name in ("RBIT", "REV16", "REV_W", "REV32", "REV_X", "CLZ", "CLS"):
        mn = "rev" if name.startswith("REV_") else name.lower()
        sf = 0 if name == "REV_W" else sf
        return mn, f"{_x(rd, sf)}, {_x(rn, sf)}"
    if name == "CRC32":
        mn = "crc32" + ("c" if f["c"] else "") + "bhwx"[f["sz"]]
        return mn, f"{_x(rd, 0)}, {_x(rn, 0)}, {_x(rm, 1 if f['sz'] == 3 else 0)}"
    if name in ("UDIV", "SDIV", "LSLV", "LSRV", "ASRV", "RORV"):
        mn = name.lower() if "DIV" in name else name[:3].lower()
        return mn, f"{_x(rd, sf)}, {_x(rn, sf)}, {_x(rm, sf)}"
    # multiply family
    ra = f.get("ra", 31)
    long_ = name in ("SMADDL", "SMSUBL", "UMADDL", "UMSUBL")
    src = 0 if long_ else sf
    if name in ("SMULH", "UMULH"):
        return name.lower(), f"{_x(rd)}, {_x(rn)}, {_x(rm)}"
    if ra == 31:
        mn = {"MADD": "mul", "MSUB": "mneg", "SMADDL": "smull", "SMSUBL": "smnegl",
              "UMADDL": "umull", "UMSUBL": "umnegl"}[name]
        return mn, f"{_x(rd, sf)}, {_x(rn, src)}, {_x(rm, src)}"
    return name.lower(), f"{_x(rd, sf)}, {_x(rn, src)}, {_x(rm, src)}, {_x(ra, sf)}"


def _movewide_ok(imm, sf):
    """Would MOVZ/MOVN express this value? (then ORR is not the preferred `mov`)."""
    width = 64 if sf else 32
    for v in (imm, ~imm & ((1 << width) - 1)):
        for s in range(0, width, 16):
            if v & ~(0xFFFF << s) == 0:
                return True
    return False


def _fmt_bitfield(name, f, sf):
    r, s = f["immr"], f["imms"]
    rd, rn = _x(f["rd"], sf), _x(f["rn"], sf)
    i = _imm
    top = 63 if sf else 31
    ds = top + 1
    if name == "SBFM":
        if s == top:
            return "asr", f"{rd}, {rn}, {i(r)}"
        if r == 0 and s in (7, 15, 31):
            return {7: "sxtb", 15: "sxth", 31: "sxtw"}[s], f"{rd}, {_x(f['rn'], 0)}"
        if s < r:
            return "sbfiz", f"{rd}, {rn}, {i(ds - r)}, {i(s + 1)}"
        return "sbfx", f"{rd}, {rn}, {i(r)}, {i(s - r + 1)}"
    if name == "UBFM":
        if s != top and s + 1 == r:
            return "lsl", f"{rd}, {rn}, {i(top - s)}"
        if s == top:
            return "lsr", f"{rd}, {rn}, {i(r)}"
        if r == 0 and s in (7, 15) and not sf:
            return {7: "uxtb", 15: "uxth"}[s], f"{rd}, {_x(f['rn'], 0)}"
        if s < r:
            return "ubfiz", f"{rd}, {rn}, {i(ds - r)}, {i(s + 1)}"
        return "ubfx", f"{rd}, {rn}, {i(r)}, {i(s - r + 1)}"
    if f["rn"] == 31 and (s < r or r == 0):     # BFI of zeros (lsb 0 has immr 0): BFC
        return "bfc", f"{rd}, {i((ds - r) % ds)}, {i(s + 1)}"
    if s < r:
        return "bfi", f"{rd}, {rn}, {i(ds - r)}, {i(s + 1)}"
    return "bfxil", f"{rd}, {rn}, {i(r)}, {i(s - r + 1)}"


def _fmt_branch(name, f, w, addr):
    if name in ("BR", "BLR", "RET"):
        if name == "RET":
            return "ret", "" if f["rn"] == 30 else _x(f["rn"])
        return name.lower(), _x(f["rn"])
    target = (addr + int(imm_of(T.BY_NAME_ID[name], w))) & U64
    if name == "B_COND":
        return "b." + COND[f["cond"]], f"#{target:#x}"
    if name in ("CBZ", "CBNZ"):
        return name.lower(), f"{_x(f['rt'], f['sf'])}, #{target:#x}"
    if name in ("TBZ", "TBNZ"):
        b = (f["b5"] << 5) | f["b40"]
        return name.lower(), f"{_x(f['rt'], f['b5'])}, {_imm(b)}, #{target:#x}"
    return name.lower(), f"#{target:#x}"


HINTS = {0: "nop", 1: "yield", 2: "wfe", 3: "wfi", 4: "sev", 5: "sevl", 7: "xpaclri", 8: "pacia1716",
         10: "pacib1716", 12: "autia1716", 14: "autib1716", 16: "esb", 17: "psb", 20: "csdb",
         24: "paciaz", 25: "paciasp", 26: "pacibz", 27: "pacibsp", 28: "autiaz", 29: "autiasp",
         30: "autibz", 31: "autibsp"}
BARRIER_OPTS = {15: "sy", 14: "st", 13: "ld", 11: "ish", 10: "ishst", 9: "ishld", 7: "nsh", 6: "nshst",
                5: "nshld", 3: "osh", 2: "oshst", 1: "oshld"}
DC_OPS = {0x1BA1: ("dc", "zva"), 0x1BD1: ("dc", "cvac"), 0x1BD9: ("dc", "cvau"), 0x1BF1: ("dc", "civac"),
          0x1BA9: ("ic", "ivau")}


def _fmt_sys(name, f, w, addr):
    if name in ("SVC", "BRK"):
        return name.lower(), _imm(f["imm16"])
    if name == "HINT":
        n = (f["crm"] << 3) | f["op2"]
        if n in HINTS:
            return HINTS[n], ""
        if n & ~6 == 32:
            return "bti", {32: "", 34: "c", 36: "j", 38: "jc"}[n]
        return "hint", f"#{n:#x}" if n > 9 else f"#{n}"
    if name == "CLREX":
        return "clrex", "" if f["crm"] == 15 else f"#{f['crm']}"
    if name == "BARRIER":
        mn = {4: "dsb", 5: "dmb", 6: "isb", 7: "sb"}[f["op2"]]
        if mn == "isb":
            return "isb", "" if f["crm"] == 15 else f"#{f['crm']}"
        if mn == "dsb" and f["crm"] in (0, 4):
            return ("ssbb" if f["crm"] == 0 else "pssbb"), ""
        if mn == "sb":
            return "sb", ""
        return mn, BARRIER_OPTS.get(f["crm"], f"#{f['crm']}")
    if name in ("MRS", "MSR_R"):
        reg = SYSREG_NAMES.get(f["sysreg"], f"s{2 + (f['sysreg'] >> 14)}_{(f['sysreg'] >> 11) & 7}_c{(f['sysreg'] >> 7) & 15}_c{(f['sysreg'] >> 3) & 15}_{f['sysreg'] & 7}")
        if name == "MRS":
            return "mrs", f"{_x(f['rt'])}, {reg}"
        return "msr", f"{reg}, {_x(f['rt'])}"
    mn, opname = DC_OPS[(w >> 5) & 0x3FFF]
    return mn, f"{opname}, {_x(f['rt'])}"


_INT_LD = {(0, 0): "strb", (0, 1): "ldrb", (0, 2): "ldrsb", (0, 3): "ldrsb", (1, 0): "strh", (1, 1): "ldrh",
           (1, 2): "ldrsh", (1, 3): "ldrsh", (2, 0): "str", (2, 1): "ldr", (2, 2): "ldrsw", (3, 0): "str",
           (3, 1): "ldr", (3, 2): "prfm"}


def _prfop(rt):
    kind, target, policy = rt >> 3, (rt >> 1) & 3, rt & 1
    if kind < 3 and target < 3:
        return ("pld", "pli", "pst")[kind] + f"l{target + 1}" + ("keep", "strm")[policy]
    return f"#{rt}"


def _ldst_reg(size, v, opc, rt):
    """(mnemonic, transfer register text) of a single-register load/store."""
    if v:
        sz = 4 if opc >= 2 else size
        return ("ldr" if opc & 1 else "str"), "bhsdq"[sz] + str(rt)
    mn = _INT_LD[(size, opc)]
    if mn == "prfm":
        return mn, _prfop(rt)
    wide = size == 3 or (opc == 2)
    return mn, _x(rt, 1 if wide else 0)


def _fmt_mem(name, f, w, addr):
    rt = f.get("rt")
    if name in ("LDST_UI", "LDST_UNSC", "LDST_PRE", "LDST_POST", "LDST_REG"):
        mn, t = _ldst_reg(f["size"], f["v"], f["opc"], rt)
        base = _x(f["rn"], 1, True)
        imm = int(imm_of(T.BY_NAME_ID[name], w))
        if name == "LDST_UNSC":
            mn = mn.replace("ldr", "ldur").replace("str", "stur").replace("prfm", "prfum")
        if name == "LDST_UI" or name == "LDST_UNSC":
            return mn, f"{t}, [{base}" + (f", {_imm(imm)}]" if imm else "]")
        if name == "LDST_PRE":
            return mn, f"{t}, [{base}, {_imm(imm)}]!"
        if name == "LDST_POST":
            return mn, f"{t}, [{base}], {_imm(imm)}"
        opt = f["option"]
        scale = 4 if (f["v"] and f["opc"] >= 2) else f["size"]
        ext = "lsl" if opt == 3 else EXTEND[opt]
        amt = f" #{scale}" if f["s"] else ""
        tail = "" if opt == 3 and not f["s"] else f", {ext}{amt}"
        return mn, f"{t}, [{base}, {_x(f['rm'], opt & 1)}{tail}]"
    if name == "LDR_LIT":
        target = (addr + int(imm_of(T.LDR_LIT, w))) & U64
        opc = f["opc"]
        if f["v"]:
            return "ldr", f"{'sdq'[opc]}{rt}, #{target:#x}"
        if opc == 3:
            return "prfm", f"{_prfop(rt)}, #{target:#x}"
        return ("ldrsw" if opc == 2 else "ldr"), f"{_x(rt, 1 if opc else 0)}, #{target:#x}"
    if name.startswith("LDSTP") or name == "LDSTNP":
        opc, v, l = f["opc"], f["v"], f["l"]
        mn = ("ldnp" if l else "stnp") if name == "LDSTNP" else ("ldp" if l else "stp")
        if not v and opc == 1:
            mn = "ldpsw"
        reg = (lambda r: "sdq"[opc] + str(r)) if v else (lambda r: _x(r, 1 if opc else 0))
        imm = int(imm_of(T.BY_NAME_ID[name], w))
        base = _x(f["rn"], 1, True)
        regs = f"{reg(rt)}, {reg(f['rt2'])}"
        if name == "LDSTP_PRE":
            return mn, f"{regs}, [{base}, {_imm(imm)}]!"
        if name == "LDSTP_POST":
            return mn, f"{regs}, [{base}], {_imm(imm)}"
        return mn, f"{regs}, [{base}" + (f", {_imm(imm)}]" if imm else "]")
    if name == "LDST_EX":
        size, l, o0 = f["size"], f["l"], f["o0"]
        sfx = "b" if size == 0 else "h" if size == 1 else ""
        wide = 1 if size == 3 else 0
        base = f"[{_x(f['rn'], 1, True)}]"
        if f["o2"]:
            return ("ldar" if l else "stlr") + sfx, f"{_x(rt, wide)}, {base}"
        pair = f["o1"]
        mn = ("ld" if l else "st") + ("a" if (o0 and l) else "l" if o0 else "") + "x" + ("p" if pair else "r") + sfx
        regs = _x(rt, wide) + (f", {_x(f['rt2'], wide)}" if pair else "")
        if l:
            return mn, f"{regs}, {base}"
        return mn, f"{_x(f['rs'], 0)}, {regs}, {base}"
    if name == "CAS":
        size = f["size"]
        sfx = "b" if size == 0 else "h" if size == 1 else ""
        mn = "cas" + ("a" if f["l"] else "") + ("l" if f["o0"] else "") + sfx
        wide = 1 if size == 3 else 0
        return mn, f"{_x(f['rs'], wide)}, {_x(rt, wide)}, [{_x(f['rn'], 1, True)}]"
    if name == "CASP":
        wide = f["sz"]
        mn = "casp" + ("a" if f["l"] else "") + ("l" if f["o0"] else "")
        rs = f["rs"]
        regs = ", ".join(_x(r, wide) for r in (rs, rs + 1, rt, rt + 1))
        return mn, f"{regs}, [{_x(f['rn'], 1, True)}]"
    if name == "ATOMIC":
        size = f["size"]
        sfx = "b" if size == 0 else "h" if size == 1 else ""
        wide = 1 if size == 3 else 0
        base = f"[{_x(f['rn'], 1, True)}]"
        if f["o3"] and f["opc"] == 4:
            return "ldapr" + sfx, f"{_x(rt, wide)}, {base}"
        op = "swp" if f["o3"] else ("ldadd", "ldclr", "ldeor", "ldset", "ldsmax", "ldsmin", "ldumax", "ldumin")[f["opc"]]
        order = ("a" if f["a"] else "") + ("l" if f["r"] else "")
        if op != "swp" and rt == 31 and not f["a"]:
            return "st" + op[2:] + order + sfx, f"{_x(f['rs'], wide)}, {base}"
        return op + order + sfx, f"{_x(f['rs'], wide)}, {_x(rt, wide)}, {base}"
    raise ValueError(f"memory row {name} has no spelling")


FP_ROUND = {0: "frintn", 1: "frintp", 2: "frintm", 3: "frintz", 4: "frinta", 6: "frintx", 7: "frinti"}


def _fmt_fp(name, f, w, addr):
    ft = f.get("ftype", 0)
    r = lambda k: _fp(f[k], ft)  # noqa: E731
    if name.endswith("_S"):
        return name[:-2].lower(), f"{r('rd')}, {r('rn')}, {r('rm')}"
    if name in ("FMOV_R", "FABS", "FNEG", "FSQRT"):
        return name.split("_")[0].lower(), f"{r('rd')}, {r('rn')}"
    if name == "FCVT_SD":
        return "fcvt", f"{_fp(f['rd'], f['opc'])}, {r('rn')}"
    if name == "FRINT":
        return FP_ROUND[f["rmode"]], f"{r('rd')}, {r('rn')}"
    if name in ("FMADD", "FMSUB", "FNMADD", "FNMSUB"):
        return name.lower(), f"{r('rd')}, {r('rn')}, {r('rm')}, {r('ra')}"
    if name == "FCMP":
        mn = "fcmpe" if f["e"] else "fcmp"
        return mn, f"{r('rn')}, " + ("#0.0" if f["z"] else r("rm"))
    if name == "FCCMP":
        return ("fccmpe" if f["e"] else "fccmp"), f"{r('rn')}, {r('rm')}, #{f['nzcv']}, {COND[f['cond']]}"
    if name == "FCSEL":
        return "fcsel", f"{r('rd')}, {r('rn')}, {r('rm')}, {COND[f['cond']]}"
    if name == "FMOV_I":
        import struct
        bitsv = int(vfp_expand_imm(f["imm8"], ft == 1)) & U64
        val = struct.unpack("<d", bitsv.to_bytes(8, "little"))[0] if ft == 1 else \
            struct.unpack("<f", (bitsv & 0xFFFFFFFF).to_bytes(4, "little"))[0]
        return "fmov", f"{r('rd')}, #{val:.8f}"
    sf = f["sf"]
    if name == "XCVTF":
        return ("ucvtf" if f["u"] else "scvtf"), f"{r('rd')}, {_x(f['rn'], sf)}"
    if name == "FCVT_TOINT":
        return "fcvt" + "npmz"[f["rmode"]] + ("u" if f["u"] else "s"), f"{_x(f['rd'], sf)}, {r('rn')}"
    if name == "FCVTA_TOINT":
        return "fcvta" + ("u" if f["u"] else "s"), f"{_x(f['rd'], sf)}, {r('rn')}"
    if name == "FCVT_FIXED":
        fb = 64 - f["scale"]
        if f["rmode"] == 0:
            return ("ucvtf" if f["opcode"] & 1 else "scvtf"), f"{r('rd')}, {_x(f['rn'], sf)}, #{fb}"
        return ("fcvtzu" if f["opcode"] & 1 else "fcvtzs"), f"{_x(f['rd'], sf)}, {r('rn')}, #{fb}"
    # FMOV_GEN
    v = f"v{f['rn' if not f['tofp'] else 'rd']}.d[1]" if f["hi"] else None
    if f["tofp"]:
        return "fmov", f"{v or r('rd')}, {_x(f['rn'], sf)}"
    return "fmov", f"{_x(f['rd'], sf)}, {v or r('rn')}"


ARR = ["8b", "16b", "4h", "8h", "2s", "4s", "1d", "2d"]


# ---- operand templates (decode_table option asm=) -----------------------------------
# A token is REGFIELD.KIND: vd.T is Vd with the arrangement of size and Q,
# vd.B the same in bytes (8b/16b), vd.W lanes twice as wide over 128 bits, vd.P
# lanes twice as wide over Q's width; F, F2, S, N, L the FP forms' lanes by sz
# (single or double); HQ half-precision lanes over half of Q's width (2h, 4h);
# E/EW a scalar as wide as a lane (or twice: b0, h0, s0, d0); b/h/s/d or an arrangement (4s, 2d) a fixed one; vm.X a by-element
# operand, J/JX DUP's; vn.L1..L4 a list of 1-4 registers of 16 bytes from Vn
# on.  #E is the lane width, #NAME the value of field NAME (#imm4) or of the
# declared immediate's shift (#sh: a row with option imm=, whose lane size
# comes from immh); any other #... (#0, #0.0) is itself.  The
# mnemonic is the row's (decode_table option mn=: by default ADD_v -> add);
# _ALIAS gives the preferred spelling where the ARM ARM prefers an alias.
def _operand(tok: str, f: dict) -> str:
    if tok == "[rn]":                                # a base register (the vector structure rows)
        return f"[{_x(f['rn'], 1, True)}]"
    if tok == "#E":                                  # the lane width in bits (SHLL)
        return f"#{8 << f['size']}"
    if tok in _MODIFIED_IMM:                         # the modified immediates' operands
        return _MODIFIED_IMM[tok](f)
    if tok.startswith("#"):
        return f"#{f[tok[1:]]}" if tok[1:] in f else tok
    reg, kind = tok.split(".")
    r, q = f[reg], f.get("q", 1)
    if kind in ("L1", "L2", "L3", "L4"):
        return "{" + ", ".join(f"v{(r + i) & 31}.16b" for i in range(int(kind[1]))) + "}"
    if kind == "T":
        return f"v{r}.{ARR[f['size'] * 2 + q]}"
    if kind == "B":
        return f"v{r}.{ARR[q]}"
    if kind == "W":                                  # twice the lane width, all 128 bits
        return f"v{r}.{('8h', '4s', '2d', '1q')[f['size']]}"
    if kind == "P":                                  # twice the lane width, half the lanes (pairwise long)
        return f"v{r}.{ARR[f['size'] * 2 + 2 + q]}"
    if kind == "F":                                  # FP lanes: single or double by sz, Q's width
        return f"v{r}.{('2s', '4s', '1d', '2d')[f['sz'] * 2 + q]}"
    if kind == "F2":                                 # the two FP lanes of a scalar pairwise op
        return f"v{r}.{('2s', '2d')[f['sz']]}"
    if kind == "S":                                  # an FP scalar: s or d by sz
        return f"{'sd'[f['sz']]}{r}"
    if kind == "HQ":                                 # half-precision lanes over half of Q's width (FMLAL's sources)
        return f"v{r}.{('2h', '4h')[q]}"
    if kind == "N":                                  # FP lanes of half the width, Q's half (FCVTN, FCVTL)
        return f"v{r}.{('4h', '8h', '2s', '4s')[f['sz'] * 2 + q]}"
    if kind == "L":                                  # FP lanes of the full width over 128 bits
        return f"v{r}.{('4s', '2d')[f['sz']]}"
    if kind == "E":                                  # a scalar as wide as a lane: b h s d by size
        return f"{'bhsd'[f['size']]}{r}"
    if kind == "EW":                                 # ... twice as wide (SADDLV, UADDLV)
        return f"{'bhsd'[f['size'] + 1]}{r}"
    if kind == "J" or kind == "JX":                  # DUP (scalar): the lane size is imm5's lowest set bit
        sz = (f["imm5"] & -f["imm5"]).bit_length() - 1
        return f"{'bhsd'[sz]}{r}" if kind == "J" else f"v{r}.{'bhsd'[sz]}[{f['imm5'] >> (sz + 1)}]"
    if kind == "IT":                                 # a copy's arrangement: imm5's lane size and Q
        sz = (f["imm5"] & -f["imm5"]).bit_length() - 1
        return f"v{r}.{ARR[sz * 2 + q]}"
    if kind == "IR":                                 # a copy's general register: X for doublewords, else W
        sz = (f["imm5"] & -f["imm5"]).bit_length() - 1
        return _x(r, 1 if sz == 3 else 0)
    if kind == "I4":                                 # INS (element)'s source element: index imm4 >> size
        sz = (f["imm5"] & -f["imm5"]).bit_length() - 1
        return f"v{r}.{'bhsd'[sz]}[{f['imm4'] >> sz}]"
    if kind == "w" or kind == "x":                   # a general register of that width
        return _x(r, 1 if kind == "x" else 0)
    if kind == "S32" or kind == "S16":               # 32- or 16-bit lanes, Q's width
        return f"v{r}.{ARR[(4 if kind == 'S32' else 2) + q]}"
    if kind == "D64":                                # MOVI's 64-bit form: Dd (Q = 0) or Vd.2d
        return f"v{r}.2d" if q else f"d{r}"
    if kind[0] in "MER" and kind[1:].isdigit():     # a structure's register list: Mn registers, En a lane, Rn replicated
        return _struct_list(kind[0], int(kind[1:]), r, f)
    if kind[0] == "P" and kind[1] in "MER":          # a structure's post-index: the bytes moved, or Xm
        return _x(r) if r != 31 else f"#{_struct_bytes(kind[1], int(kind[2:]), f)}"
    if kind == "X":                                  # the element of a by-element form (exec_velem)
        return _element(f)
    if kind in ("b", "h", "s", "d"):                 # a fixed scalar register
        return f"{kind}{r}"
    if kind in ARR:                                  # a fixed arrangement
        return f"v{r}.{kind}"
    raise ValueError(f"operand template {tok}")


def _struct_lane(f: dict) -> tuple[int, int]:
    """(lane size log2, index) of a one-lane structure row: sc picks the size (exec_vstruct)."""
    q, s, size, sc = f["q"], f["s"], f["size"], f["sc"]
    if sc == 0:
        return 0, (q << 3) | (s << 2) | size
    if sc == 1:
        return 1, (q << 2) | (s << 1) | (size >> 1)
    return (2, (q << 1) | s) if size == 0 else (3, q)


def _struct_list(kind: str, n: int, r: int, f: dict) -> str:
    if kind == "E":
        sz, idx = _struct_lane(f)
        return "{" + ", ".join(f"v{(r + i) & 31}.{'bhsd'[sz]}" for i in range(n)) + f"}}[{idx}]"
    return "{" + ", ".join(f"v{(r + i) & 31}.{ARR[f['size'] * 2 + f['q']]}" for i in range(n)) + "}"


def _struct_bytes(kind: str, n: int, f: dict) -> int:
    if kind == "M":
        return n * (16 if f["q"] else 8)
    return n << (_struct_lane(f)[0] if kind == "E" else f["size"])


def _float_of(bits: int, dbl: bool) -> float:
    import struct
    return struct.unpack("<d", bits.to_bytes(8, "little"))[0] if dbl else \
        struct.unpack("<f", (bits & 0xFFFFFFFF).to_bytes(4, "little"))[0]


# #i8 the 8-bit immediate abc:defgh, LSL / MSL its shift (nothing for LSL #0), #i64 MOVI's
# byte mask, #f32 / #f64 FMOV's value (f["imm"]: the decoder's expansion, _fmt_template).
_MODIFIED_IMM = {
    "#i8": lambda f: f"#{(f['abc'] << 5) | f['defgh']:#x}",
    "LSL": lambda f: f"lsl #{8 * f['cm']}" if f["cm"] else "",
    "MSL": lambda f: f"msl #{8 << f['cm']}",
    "#i64": lambda f: f"#{f['imm'] & U64:#x}",
    "#f32": lambda f: f"#{_float_of(f['imm'] & 0xFFFFFFFF, False):.8f}",
    "#f64": lambda f: f"#{_float_of(f['imm'] & U64, True):.8f}",
}


def _element(f: dict) -> str:
    """Vm[idx] of a by-element form: vm is M:Rm; 16-bit lanes index by H:L:M from v0-v15
    (integer size 1, or a row with neither size nor sz: FMLAL's half-precision element)."""
    vm, h, l = f["vm"], f["h"], f["l"]
    if "sz" in f:                                    # FP: single (index H:L) or double (H)
        return f"v{vm}.{'sd'[f['sz']]}[{h if f['sz'] else (h << 1) | l}]"
    if f.get("size", 1) == 1:
        return f"v{vm & 15}.h[{(h << 2) | (l << 1) | (vm >> 4)}]"
    return f"v{vm}.{'bhsd'[f['size']]}[{(h << 1) | l}]"


_ALIAS = {"UMOV_w": lambda f: ("mov", ("rd.w", "vn.JX")) if f["imm5"] & 7 == 4 else None,   # a word lane
          "ORR_v": lambda f: ("mov", ("vd.B", "vn.B")) if f["vn"] == f["vm"] else None,
          "SSHLL_v": lambda f: ("sxtl", ("vd.W", "vn.T")) if f["sh"] == 0 else None,
          "USHLL_v": lambda f: ("uxtl", ("vd.W", "vn.T")) if f["sh"] == 0 else None}


def _fmt_template(op, e, w):
    f = e.extract(w)
    if e.imm == "simd":                              # a modified immediate, expanded
        f["imm"] = int(imm_of(op, w))
    elif e.imm:                                      # shift by immediate: lane size and shift from immh:immb
        imm = int(imm_of(op, w))
        f["size"], f["sh"] = imm >> 8, imm & 0xFF
    mn, asm = e.mn, e.asm
    alias = _ALIAS.get(e.name, lambda f: None)(f)
    if alias:
        mn, asm = alias
    if e.q2 and f["q"]:
        mn += "2"
    return mn, ", ".join(t for t in (_operand(tok, f) for tok in asm) if t)


_FORMAT = {"int": _fmt_int, "branch": _fmt_branch, "sys": _fmt_sys, "mem": _fmt_mem, "fp": _fmt_fp}
# (every SIMD row spells its operands by template: decode_table option asm=)


def disassemble_word(w: int, addr: int = 0) -> str:
    """Assembly text of one instruction word (`.inst 0x...` if undefined for us)."""
    op = int(decode(w))
    if op == UNDEF:
        return f".inst {w:#010x}"
    e = T.TABLE[op]
    if e.asm:
        mn, ops = _fmt_template(op, e, w)
    else:
        mn, ops = _FORMAT[e.cls](e.name, e.extract(w), w, addr)
    return f"{mn} {ops}".rstrip()


def disassemble(code: bytes, addr: int) -> list[tuple[int, str]]:
    """One (address, text) line per 4-byte word of `code`."""
    return [(addr + i, disassemble_word(int.from_bytes(code[i:i + 4], "little"), addr + i))
            for i in range(0, len(code) - 3, 4)]
