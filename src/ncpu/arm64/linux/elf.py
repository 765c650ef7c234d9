"""Load an AArch64 ELF executable (ET_EXEC or PIE ET_DYN) or its interpreter into guest memory.

A dynamically linked program names its interpreter (PT_INTERP, e.g.
/lib/ld-linux-aarch64.so.1); the kernel loads both (`Image.interp` says
which file to load next) and starts the interpreter, as Linux does.

Every way a file can be wrong is turned into one ElfError with a one-line
message.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from . import abi
from .errors import ElfError

EM_AARCH64 = 183
PT_LOAD, PT_INTERP, PT_PHDR = 1, 3, 6
PF_X, PF_W, PF_R = 1, 2, 4
SHF_EXECINSTR = 0x4
# Where a PIE (static or dynamic) lands: low enough for the 4 GiB guest space, clear of
# page 0, with its brk heap above it up to the mmap area (qemu-user uses 0x5500000000,
# outside our 4 GiB space).  Fixed, so that every run gives the same addresses.
PIE_BASE = 0x10000000
# Where the interpreter (ld.so) lands: above the mmap area (which ends at 0xE0000000),
# below the stack (which starts at 0xEF800000).
INTERP_BASE = 0xE0000000


@dataclass(frozen=True)
class Image:
    """What the loader placed, as the initial stack and brk need it."""

    entry: int
    phdr: int          # guest address of the program headers
    phent: int
    phnum: int
    brk: int           # first page after the highest segment
    bias: int          # 0 for ET_EXEC
    interp: bytes | None = None   # PT_INTERP: the guest path of the interpreter to load too


def _prot(flags: int) -> int:
    return ((abi.PROT_READ if flags & PF_R else 0) | (abi.PROT_WRITE if flags & PF_W else 0)
            | (abi.PROT_EXEC if flags & PF_X else 0))


def _check_ident(data: bytes, name: str) -> None:
    if len(data) < 4 or data[:4] != b"\x7fELF":
        raise ElfError(f"{name}: not an ELF file")
    if len(data) < 64:
        raise ElfError(f"{name}: truncated ELF header")
    if data[4] != 2:
        raise ElfError(f"{name}: not a 64-bit ELF file")
    if data[5] != 1:
        raise ElfError(f"{name}: not a little-endian ELF file")


# ELF64 little-endian layouts: the header after e_ident, a program header, a section header
_HEADER = struct.Struct("<HHIQQQIHHHHHH")
_HEADER_FIELDS = ("e_type", "e_machine", "e_version", "e_entry", "e_phoff", "e_shoff", "e_flags",
                  "e_ehsize", "e_phentsize", "e_phnum", "e_shentsize", "e_shnum", "e_shstrndx")
_PHDR = struct.Struct("<IIQQQQQQ")
_SHDR = struct.Struct("<IIQQQQIIQQ")
SHT_PROGBITS = 1
_TYPES = {0: "ET_NONE", 1: "ET_REL", 2: "ET_EXEC", 3: "ET_DYN", 4: "ET_CORE"}
_MACHINES = {3: "EM_386", 40: "EM_ARM", 62: "EM_X86_64", 243: "EM_RISCV"}


def _header(data: bytes, name: str) -> dict:
    """The ELF header of an AArch64 file as a dict (e_type by name: 'ET_EXEC', 'ET_DYN', ...).

    Read with struct rather than pyelftools: the loader needs a few fields, and
    importing pyelftools costs about 5% of `ncpu arm64`'s start-up."""
    _check_ident(data, name)
    header = dict(zip(_HEADER_FIELDS, _HEADER.unpack_from(data, 16)))
    if header["e_machine"] != EM_AARCH64:
        machine = _MACHINES.get(header["e_machine"], header["e_machine"])
        raise ElfError(f"{name}: wrong machine {machine} (need AArch64)")
    header["e_type"] = _TYPES.get(header["e_type"], header["e_type"])
    return header


def _table(data: bytes, offset: int, count: int, entry: int, layout: struct.Struct, what: str, name: str):
    """The `count` entries of a header table, each unpacked by `layout`."""
    if entry < layout.size or offset + count * entry > len(data):
        raise ElfError(f"{name}: truncated {what}")
    return [layout.unpack_from(data, offset + i * entry) for i in range(count)]


def code_sections(data: bytes, name: str = "file") -> list[tuple[str, int, bytes]]:
    """(name, address, bytes) of each executable PROGBITS section, for the disassembler.

    Any AArch64 ELF file qualifies (dynamic, relocatable), not only what `load` runs.
    """
    header = _header(data, name)
    sections = _table(data, header["e_shoff"], header["e_shnum"], header["e_shentsize"], _SHDR,
                      "section headers", name)
    if not sections:
        return []
    if header["e_shstrndx"] >= len(sections):
        raise ElfError(f"{name}: malformed ELF file (no section name table)")
    names_at, names_size = sections[header["e_shstrndx"]][4:6]
    if names_at + names_size > len(data):
        raise ElfError(f"{name}: truncated section name table")
    names = data[names_at:names_at + names_size]
    found = []
    for sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size, *_ in sections:
        if sh_type == SHT_PROGBITS and sh_flags & SHF_EXECINSTR:
            if sh_offset + sh_size > len(data) or sh_name >= max(len(names), 1):
                raise ElfError(f"{name}: truncated section at offset {sh_offset:#x}")
            label = names[sh_name:].split(b"\0", 1)[0].decode("utf-8", "replace")
            found.append((label, sh_addr, data[sh_offset:sh_offset + sh_size]))
    return found


def parse(data: bytes, name: str = "file"):
    """Check the header and return it with the list of program headers as dicts."""
    header = _header(data, name)
    if header["e_type"] not in ("ET_EXEC", "ET_DYN"):
        raise ElfError(f"{name}: not an executable (type {header['e_type']})")
    if header["e_phnum"] == 0:
        raise ElfError(f"{name}: truncated program headers")
    table = _table(data, header["e_phoff"], header["e_phnum"], header["e_phentsize"], _PHDR,
                   "program headers", name)
    segments = [{"type": p_type, "offset": offset, "vaddr": vaddr, "filesz": filesz, "memsz": memsz,
                 "flags": flags} for p_type, flags, offset, vaddr, _paddr, filesz, memsz, _align in table]
    return header, segments


def _interp(data: bytes, segments: list[dict], name: str) -> bytes | None:
    for seg in segments:
        if seg["type"] == PT_INTERP:
            path = data[seg["offset"]:seg["offset"] + seg["filesz"]].split(b"\0", 1)[0]
            if not path or seg["offset"] + seg["filesz"] > len(data):
                raise ElfError(f"{name}: malformed PT_INTERP")
            return path
    return None


def load(mem, data: bytes, name: str = "file", *, base: int = PIE_BASE) -> Image:
    """Map the PT_LOAD segments of `data` into `mem` and return where they went.

    A position-independent file (ET_DYN) is placed at `base` unless it is
    already linked above it.
    """
    header, segments = parse(data, name)
    loads = [s for s in segments if s["type"] == PT_LOAD and s["memsz"] > 0]
    if not loads:
        raise ElfError(f"{name}: no loadable segments")
    bias = base if header["e_type"] == "ET_DYN" else 0
    low = min(s["vaddr"] for s in loads)
    if header["e_type"] == "ET_DYN" and low >= base:
        bias = 0
    high = 0
    for seg in loads:
        if seg["offset"] + seg["filesz"] > len(data) or seg["filesz"] > seg["memsz"]:
            raise ElfError(f"{name}: truncated segment at offset {seg['offset']:#x}")
        start = seg["vaddr"] + bias
        end = start + seg["memsz"]
        if end > 1 << 32:
            raise ElfError(f"{name}: segment at {start:#x} lies outside the 4 GiB guest space")
        high = max(high, end)
    pool = getattr(mem, "pool", None)
    need = sum(abi.page_up(s["vaddr"] + bias + s["memsz"]) - abi.page_down(s["vaddr"] + bias) for s in loads)
    if pool is not None and need > pool.budget:
        raise ElfError(f"{name}: its segments need {need >> 20} MiB, more than the machine's memory "
                       f"({pool.budget >> 20} MiB, --memory)")
    # map page by page so that two segments sharing a page get the union of their rights
    prot_of_page: dict[int, int] = {}
    for seg in loads:
        start = abi.page_down(seg["vaddr"] + bias)
        end = abi.page_up(seg["vaddr"] + bias + seg["memsz"])
        for page in range(start, end, abi.PAGE):
            prot_of_page[page] = prot_of_page.get(page, 0) | _prot(seg["flags"])
    for page, prot in _runs(prot_of_page):
        mem.map(page[0], page[1] - page[0], prot)
    for seg in loads:
        if seg["filesz"]:
            mem.write(seg["vaddr"] + bias, data[seg["offset"]:seg["offset"] + seg["filesz"]])
    phoff = header["e_phoff"]
    phdr = 0
    for seg in segments:
        if seg["type"] == PT_PHDR:
            phdr = seg["vaddr"] + bias
    if not phdr:
        for seg in loads:
            if seg["offset"] <= phoff < seg["offset"] + seg["filesz"]:
                phdr = seg["vaddr"] + bias + phoff - seg["offset"]
    entry = header["e_entry"] + bias
    if not mem.is_mapped(entry, 4):
        raise ElfError(f"{name}: entry point {entry:#x} is not in a loaded segment")
    return Image(entry=entry, phdr=phdr, phent=header["e_phentsize"], phnum=header["e_phnum"],
                 brk=abi.page_up(high), bias=bias, interp=_interp(data, segments, name))


def _runs(prot_of_page: dict[int, int]):
    """Group consecutive pages with equal rights into ((start, end), prot)."""
    run = None
    for page in sorted(prot_of_page):
        prot = prot_of_page[page]
        if run and run[1] == page and run[2] == prot:
            run[1] = page + abi.PAGE
        else:
            if run:
                yield (run[0], run[1]), run[2]
            run = [page, page + abi.PAGE, prot]
    if run:
        yield (run[0], run[1]), run[2]
