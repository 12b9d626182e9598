"""One question over many inputs (``catbox batch``): items with stable ids, one JSON row each,
written as they are answered to a JSONL file that a later run resumes.

**Items.** :func:`expand` turns the command's inputs into :class:`Item` s, in a fixed order:
a file is one item (id: the path as given, or as found under a folder or by a glob, sorted); a
``.txt``/``.jsonl`` file is one item per non-empty line (id ``path:LINE``; a line is a
``cbx1:`` position string, a JSON string holding one, a JSON object with a ``line`` key — what
``catbox show --json`` prints — or a whole position/record/puzzle document); a ``cbx1:``
argument is one item (id ``cbx1:`` + the first 12 hex digits of its SHA-256); a generated deal
is ``deal:<players>p:<seed>`` (:func:`deal_items`). A missing file is an item too: its row is
an error.

**Rows.** Each row is the command's ``--json`` document (built by :mod:`.shapes`, as the CLI
builds it) with ``id``, ``index`` (place in the input), ``players``, ``status`` (the answer's
``proven``/``estimate``/``unknown``, or ``error``), ``error`` (``kind``, ``message``,
``rule``, ``where``; null when the row has an answer) and ``seconds``. Every field but
``seconds`` depends only on the item and the options — not on the number of workers, their
order or what a worker solved before (each item starts with empty search tables) — as long as
no wall-clock limit cut an answer short. Work budgets (``nodes`` for the game-tree search,
``work`` for CP-SAT) cut answers the same way on every run.

**Resume.** :func:`prepare` reads an existing output: a torn last line (a killed run) is cut,
finished ids are skipped, and a run with another task or other options is refused (the
``.meta.json`` beside the output records them). Items with the same content are solved once.

The package's modules, one per concern: :mod:`.items` (the inputs: ids, kinds, reading one),
:mod:`.one` (one item: options, job, result, :func:`run_job` through the task registry
:mod:`..tasks`), :mod:`.output` (the rows file, its meta file, resume), :mod:`.running` (the
pool, the order rows are written in, worker deaths) and :mod:`.stats` (``catbox stats``). This
module is their face: the names a front door uses.

>>> opts = Options("score")
>>> item = Item("cbx1:x", 0, "line", "cbx1:2A:5/5/2N2/2N1N:122334455.RBYG.0.-.1,"
...     "111223445.RBYG.0.-.2:A")
>>> row = run_job(ItemJob(opts, item.kind, item.source, item.text))
>>> row.doc["finished"], row.players, row.error
(False, 2, None)
"""

from __future__ import annotations

from .items import DOCUMENT_SUFFIXES, LINE_SUFFIXES, Item, ItemKind, deal_items, expand
from .one import TASKS, ItemJob, ItemResult, Options, run_job
from .output import META_FORMAT, Plan, Summary, input_digest, meta_path, prepare, read_output
from .running import DIED, default_workers, estimated_cost, run
from .stats import Group, Share, Spread, summarize

__all__ = [
    "DIED",
    "DOCUMENT_SUFFIXES",
    "LINE_SUFFIXES",
    "META_FORMAT",
    "TASKS",
    "Group",
    "Item",
    "ItemJob",
    "ItemKind",
    "ItemResult",
    "Options",
    "Plan",
    "Share",
    "Spread",
    "Summary",
    "deal_items",
    "default_workers",
    "estimated_cost",
    "expand",
    "input_digest",
    "meta_path",
    "prepare",
    "read_output",
    "run",
    "run_job",
    "summarize",
]
