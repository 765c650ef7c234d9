"""Shared helpers for the synthesis tests."""


def spec_of(f, inputs, n_out=1, **extra):
    """A spec from a Python function and a list of input tuples."""
    from ncpu.synth import parse_spec

    examples = []
    for xs in inputs:
        out = f(*xs)
        examples.append({"in": list(xs), "out": list(out) if isinstance(out, tuple) else [out]})
    return parse_spec({"name": "t", "inputs": [f"R{i}" for i in range(len(inputs[0]))],
                       "outputs": [f"R{i}" for i in range(n_out)], "examples": examples, **extra})
