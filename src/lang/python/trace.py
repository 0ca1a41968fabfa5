"""The lines one call of a function runs, and which way its tests went.

Run by the runner as `python3 -c SCRIPT MODULE NAME CALL` (SCRIPT is
calls.py, then this), confined as the
model's commands are, from the workspace's root: CALL is the source of a
call of NAME with literal arguments (a failing test's). Prints one JSON
line: {"steps": [[LINE, TEXT, TOOK], ...], "returned": REPR} or
{"steps": [...], "raised": WHY}, or {"unusable": why}. Each step is a line
of the function's own body as it ran (not of what it calls), in order, a
line run again at once counted once; TOOK is true or false for an `if`,
`elif` or `while` (whether its block ran next), null for any other line.
At most MAX_STEPS steps; "cut" is true when it ran more. Nothing is
evaluated but literals.
"""

import ast
import contextlib
import inspect
import io
import textwrap
import sys

MAX_STEPS = 24
MAX_SHOWN = 200


def tests(function):
    """For each line of an `if`, `elif` or `while` of the function: the
    first line of its block, by the file's own numbering."""
    lines, first = inspect.getsourcelines(function)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While)) and node.body:
            found[node.lineno + first - 1] = node.body[0].lineno + first - 1
    return found


def main():
    module, name, call = sys.argv[1], sys.argv[2], sys.argv[3]
    sys.path.insert(0, "")
    sys.argv = [module]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            function = getattr(load(module)[0], name)
        code = function.__code__
        blocks = tests(function)
        source = inspect.getsourcefile(function)
        with open(source) as f:
            text = f.read().splitlines()
        args, kwargs = arguments(call, name)
    except BaseException as error:
        say(unusable=f"{type(error).__name__}: {error}"[:MAX_SHOWN])
        return
    ran = []

    def local(frame, event, arg):
        if event == "line" and len(ran) <= MAX_STEPS * 4:
            ran.append(frame.f_lineno)
        return local

    def calls(frame, event, arg):
        return local if frame.f_code is code else None

    outcome = {}
    sys.settrace(calls)
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            outcome["returned"] = repr(function(*args, **kwargs))[:MAX_SHOWN]
    except BaseException as error:
        outcome["raised"] = f"{type(error).__name__}: {error}"[:MAX_SHOWN]
    finally:
        sys.settrace(None)
    steps = []
    for at, line in enumerate(ran):
        if steps and steps[-1][0] == line:
            continue
        took = None
        if line in blocks:
            took = at + 1 < len(ran) and ran[at + 1] == blocks[line]
        text_of = text[line - 1].strip() if 0 < line <= len(text) else ""
        steps.append([line, text_of, took])
    cut = len(steps) > MAX_STEPS or len(ran) > MAX_STEPS * 4
    say(steps=steps[:MAX_STEPS], cut=cut, **outcome)


main()
