"""MUXLEQ: a two-instruction computer (SUBLEQ plus a bitwise multiplexer).

Read `reference.py` first: it is the machine, in a page. Then:

    state.py       one machine (`MuxleqState`) and a batch (`MuxleqBatch`),
                   the `.dec` image format
    reference.py   the semantics, readable Python (the oracle)
    compute.py     the same semantics compiled by numba (one machine or many)
    fast.py        B machines as torch tensors, one instruction per step
    neural.py      the fast engine with SUBLEQ's subtraction through the
                   neural adder and MUX through the neural multiplexer cells
    engines.py     engines by name
    assembler.py   a macro assembler for SUBLEQ/MUXLEQ
    programs/      programs of our own, in that assembler
"""
