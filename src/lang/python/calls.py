"""What the scripts that call a function of the workspace share (put
before each: see `EXAMPLES_SCRIPT` and `TRACE_SCRIPT`): a JSON line said,
the literal arguments of a call read from its source, and the module
imported."""

import ast
import importlib
import importlib.util
import json
import os

MAX_WHY = 200


def say(**fields):
    print(json.dumps(fields), flush=True)


def arguments(call, name):
    node = ast.parse(call.strip(), mode="eval").body
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name):
        raise ValueError(f"not a call of {name}")
    if any(keyword.arg is None for keyword in node.keywords):
        raise ValueError("** arguments")
    args = [ast.literal_eval(arg) for arg in node.args]
    kwargs = {keyword.arg: ast.literal_eval(keyword.value) for keyword in node.keywords}
    return args, kwargs


def load(module):
    """MODULE imported, and None; when its package cannot be (its __init__
    imports a sibling not written yet), its file alone, as `python3 FILE`
    would load it, and why the package could not be. The first error when
    neither can be."""
    try:
        return importlib.import_module(module), None
    except ImportError as error:
        path = module.replace(".", os.sep) + ".py"
        if "." not in module or not os.path.isfile(path):
            raise
        try:
            spec = importlib.util.spec_from_file_location(module.rsplit(".", 1)[1], path)
            alone = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(alone)
        except BaseException:
            raise error from None
        return alone, f"{type(error).__name__}: {error}"[:MAX_WHY]
