"""catbox's local analysis board, served to the browser (``catbox serve``).

A front door like the command line (``catbox.cli``): it reads input through the library's
formats, answers with the library's JSON shapes (:mod:`catbox.solver.shapes`) and runs every
solve in a worker process (:mod:`.jobs`). :mod:`.app` is the Starlette application,
:mod:`.server` runs it with uvicorn on 127.0.0.1.
"""
