"""What pytest collects besides tests/: the doctests of the modules in src/taash (pyproject's
testpaths and --doctest-modules), except modules that cannot or must not be imported bare."""

from __future__ import annotations

from importlib.util import find_spec

# __main__ runs the command line when imported; the migrations are loaded by Alembic (env.py
# needs its context), not imported as modules.
collect_ignore = ["src/taash/__main__.py", "src/taash/server/store/migrations"]

# The interop adapters import the `rl` extra's packages at module level; without them, their
# tests in tests/interop skip, and their doctests are left out here.
OPTIONAL = {
    "src/taash/interop/openspiel.py": ("numpy", "pyspiel", "open_spiel"),
    "src/taash/interop/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
}
collect_ignore += [path for path, needs in OPTIONAL.items()
                   if not all(find_spec(name) is not None for name in needs)]
