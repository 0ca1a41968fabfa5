"""What the scripts that call a function of the workspace share (put
before each: see `EXAMPLES_SCRIPT` and `TRACE_SCRIPT`): a JSON line said,
and the literal arguments of a call read from its source."""

import ast
import json


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
