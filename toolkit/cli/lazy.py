"""Modules the command line names at the top of a command module but loads on first use.

Every `patchwork` run builds every command's options, so whatever a command module imports at
its top is paid by every command, `--help` and each refusal included. A command module names
the library modules its commands call through `lazy(...)`: the name is bound at once and the
module is imported the first time one of its attributes is read (the standard library's
importlib.util.LazyLoader), so a refusal decided from the options alone never loads them.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType


def lazy(name: str) -> ModuleType:
    """The module `name` (a module, not a package: a package's submodules would be imported
    through a half-made parent), imported when one of its attributes is first read."""
    if name in sys.modules:
        return sys.modules[name]
    parent, _, child = name.rpartition(".")
    if parent:
        importlib.import_module(parent)
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is not None:
        return importlib.import_module(name)
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    if parent:
        setattr(sys.modules[parent], child, module)
    return module
