"""The coprocessor: the neural ALU as a routed expert inside Hugging Face causal LMs.

    coprocessor.py  inject / eject, the config, the hooks (read this first)
    expert.py       read-out head -> keypad scan -> arithmetic unit -> write-back
    gate.py         per-token sigmoid gate or top-1 router, max_gate, confidence damping
    units.py        the neural ALU (ncpu.alu) and the NALU comparison head
    symbols.py      the written form: op symbols, read-out classes, decimal codes
    tokenizer.py    the character tokenizer (one token per digit)
    data.py         synthetic arithmetic and prose, with supervision labels
    lm.py           small Qwen2 / Llama / GPT-2 models, trained from scratch
    train.py        training the coprocessor on a frozen model; the NALU head
    evaluate.py     exact match, perplexity, routing statistics
    pipeline.py     train everything / load the shipped models
"""

from ncpu.coprocessor.coprocessor import (Coprocessor, CoprocessorConfig, CoprocessorError, eject,
                                          find_decoder_layers, inject, injected, load_coprocessor)

__all__ = ["Coprocessor", "CoprocessorConfig", "CoprocessorError", "eject", "find_decoder_layers", "inject",
           "injected", "load_coprocessor"]
