"""catbox's player, by its stable names: :func:`choose_play` (one play from a seat's view),
:func:`choose_aside` and :func:`choose_prediction` (the round's opening decisions, S2 and S3).

Scripts outside the project import them from here (and from :mod:`catbox.solver`); they live
in the estimates wing, beside the playouts and sampled deals they are made of:
:mod:`.estimates.player` (the plays) and :mod:`.estimates.opening` (the round start).
"""

from .estimates.decision import choose_play
from .estimates.opening import choose_aside, choose_prediction
from .estimates.player import DEFAULT_LEVEL, MAX_LEVEL

__all__ = ["DEFAULT_LEVEL", "MAX_LEVEL", "choose_aside", "choose_play", "choose_prediction"]
