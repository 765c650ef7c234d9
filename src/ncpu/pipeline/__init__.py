"""Source to pixels: nsl -> compiler -> assembler -> neural CPU -> neural display.

    stages.py          the exact pipeline and its check against the exact path (read first)
    terminal.py        standard output laid out on the display's text screen
    soft_machine.py    the machine with every value as bits on torch's tape
    differentiable.py  pixels as a differentiable function of inputs; descent on an input

docs/pipeline.md says what is differentiable and where straight-through
estimators stand in.
"""
