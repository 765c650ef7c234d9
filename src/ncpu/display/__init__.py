"""The neural display: the nCPU machine's text screen rendered by networks.

Read `networks.py` first (the glyph network, the cursor decoder, the
convolutional compositor). Then:

    screen.py      the memory map (40 x 12 cells + cursor) and the classical
                   oracle renderer the networks are tested against
    font.py        the 8 x 16 font, data in font8x16.txt
    font_build.py  how that data was made (matplotlib's DejaVu Sans Mono)
    capture.py     frames of a running machine, rendered through the networks
    image.py       frames to PNG files and animated GIFs (Pillow)
"""
