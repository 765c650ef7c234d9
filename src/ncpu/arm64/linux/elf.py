"""Load an AArch64 ELF executable (ET_EXEC or PIE ET_DYN) or its interpreter into guest memory.

A dynamically linked program names its interpreter (PT_INTERP, e.g.
/lib/ld-linux-aarch64.so.1); the kernel loads both (`Image.interp` says
which file to load next) and starts the interpreter, as Linux does.

Every way a file can be wrong is turned into one ElfError with a one-line
message; pyelftools exceptions never escape.
"""

from __future__ import annotations

import io
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


def _malformed_errors() -> tuple:
    """What pyelftools raises on a malformed file (its own errors, its parser's, short reads);
    anything else is a bug and surfaces."""
    from elftools.common.exceptions import ELFError as PyElfError
    from elftools.construct import ConstructError

    return (PyElfError, ConstructError, struct.error, ValueError, EOFError)


def _open_aarch64(data: bytes, name: str):
    """pyelftools' view of an AArch64 ELF file (pyelftools errors pass through: callers convert)."""
    from elftools.elf.elffile import ELFFile

    elf = ELFFile(io.BytesIO(data))
    if elf.header["e_machine"] != "EM_AARCH64":
        raise ElfError(f"{name}: wrong machine {elf.header['e_machine']} (need AArch64)")
    return elf


def code_sections(data: bytes, name: str = "file") -> list[tuple[str, int, bytes]]:
    """(name, address, bytes) of each executable PROGBITS section, for the disassembler.

    Any AArch64 ELF file qualifies (dynamic, relocatable), not only what `load` runs.
    """
    _check_ident(data, name)
    try:
        elf = _open_aarch64(data, name)
        return [(section.name, section["sh_addr"], section.data()) for section in elf.iter_sections()
                if section["sh_type"] == "SHT_PROGBITS" and section["sh_flags"] & SHF_EXECINSTR]
    except _malformed_errors() as error:
        raise ElfError(f"{name}: malformed ELF file ({error})") from None


def parse(data: bytes, name: str = "file"):
    """Check the header and return it with the list of program headers as dicts."""
    _check_ident(data, name)
    try:
        elf = _open_aarch64(data, name)
        header = elf.header
        if header["e_type"] not in ("ET_EXEC", "ET_DYN"):
            raise ElfError(f"{name}: not an executable (type {header['e_type']})")
        phoff, phnum, phent = header["e_phoff"], header["e_phnum"], header["e_phentsize"]
        if phnum == 0 or phoff + phnum * phent > len(data):
            raise ElfError(f"{name}: truncated program headers")
        segments = []
        for i in range(phnum):
            seg = elf.get_segment(i)
            h = seg.header
            segments.append({"type": h["p_type"], "offset": h["p_offset"], "vaddr": h["p_vaddr"],
                             "filesz": h["p_filesz"], "memsz": h["p_memsz"], "flags": h["p_flags"]})
    except _malformed_errors() as error:
        raise ElfError(f"{name}: malformed ELF file ({error})") from None
    return header, segments


def _interp(data: bytes, segments: list[dict], name: str) -> bytes | None:
    for seg in segments:
        if seg["type"] in ("PT_INTERP", PT_INTERP):
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
    loads = [s for s in segments if s["type"] in ("PT_LOAD", PT_LOAD) and s["memsz"] > 0]
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
        if seg["type"] in ("PT_PHDR", PT_PHDR):
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
