"""Build of the native search core (C++17, plain CPython API); everything else is in
pyproject.toml. ``pip install -e .`` (``make setup``) compiles it with the system's g++."""

import glob
import platform

from setuptools import Extension, setup

NATIVE = "solver/search/cxx"

setup(
    ext_modules=[
        Extension(
            "catbox.solver.search._native",
            sources=[f"{NATIVE}/module.cpp", f"{NATIVE}/search.cpp", f"{NATIVE}/pn.cpp"],
            # every core header: a change to any of them rebuilds the module
            depends=sorted(glob.glob(f"{NATIVE}/*.h")),
            extra_compile_args=["-std=c++17", "-O3", "-Wall"]
            # the hardware popcount of every x86-64 CPU since 2008 (else a library call)
            + (["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []),
            language="c++",
        )
    ]
)
