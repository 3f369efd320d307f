"""Reference checkers for the notebook exercises, one module per notebook (``chNN``).

Each module defines ``CHECKS``, a dict from exercise id ``"NN.k"`` to a function that takes
the student's callable and raises ``AssertionError`` (with a helpful message) when it is wrong.
The checkers compare against the package, never against the student's own code.
"""
