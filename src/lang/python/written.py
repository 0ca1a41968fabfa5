"""Loads a function written again from the goal's words (put between
calls.py and examples.py: see `WRITTEN_SCRIPT`): MODULE is then the
source of that writing, run as a module of its own from the workspace's
root (it may import the project's modules), in place of a module of the
workspace."""

import types


def load(source):
    written = types.ModuleType("written")
    exec(compile(source, "<written>", "exec"), written.__dict__)
    return written, None
