"""Calls a function of the workspace on the goal's examples.

Run by the runner as `python3 -c SCRIPT MODULE NAME EXAMPLES` (SCRIPT is
calls.py, then this), confined as
the model's commands are, from the workspace's root: EXAMPLES is a JSON
list of [CALL, [RETURNS, ...]], each CALL the source of a call of NAME with
literal arguments and each RETURNS what an answer of the model gave for it:
the first a literal, the others a literal or a string's bare text; they
must agree. Prints one JSON line once NAME is imported
({"imported": true}; with "alone": why, when its package could not be
imported and its file was loaded alone; or {"unusable": why} when it
cannot be), then one a
call: {"call", "wanted", "got", "same"}, {"call", "wanted", "raised"}, or
{"call", "unusable"} for an example that is not a call of literals or whose
answers disagree. Nothing is evaluated but literals.
"""

import ast
import contextlib
import io
import json
import math
import sys

MAX_SHOWN = 200


def shown(value):
    text = repr(value)
    return text if len(text) <= MAX_SHOWN else text[:MAX_SHOWN] + "..."


def same(got, wanted):
    """Equal, or a number close to it (a conversion's constant may be
    written 0.621371 or 0.621371192), or the same when printed: "the
    number as a string" for 7 is '7', and a model may write either."""
    if got == wanted:
        return True
    numbers = (int, float)
    if isinstance(got, numbers) and isinstance(wanted, numbers) and not isinstance(got, bool):
        return math.isclose(got, wanted, rel_tol=1e-5, abs_tol=1e-9)
    return type(got) is not type(wanted) and str(got) == str(wanted)


def again(answer):
    """A second answer: a literal, or the bare text of a string (asked to
    complete `assert f(3) == ...`, a small model answers `Fizz`)."""
    try:
        return ast.literal_eval(answer.strip())
    except (ValueError, SyntaxError):
        return answer.strip()


def main():
    module, name, examples = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
    sys.path.insert(0, "")
    sys.argv = [module]
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            loaded, alone = load(module)
            function = getattr(loaded, name)
    except BaseException as error:  # a program that runs when imported, exits...
        say(unusable=f"importing {name} from {module}: {type(error).__name__}: {error}"[:MAX_SHOWN])
        return
    if not callable(function):
        say(unusable=f"{name} of {module} is not a function")
        return
    if alone:
        say(imported=True, alone=alone)
    else:
        say(imported=True)
    for call, answers in examples:
        try:
            args, kwargs = arguments(call, name)
            wanted = [ast.literal_eval(answers[0].strip())] + [again(a) for a in answers[1:]]
        except Exception as error:
            say(call=call, unusable=f"{type(error).__name__}: {error}"[:MAX_SHOWN])
            continue
        if not wanted or any(not same(other, wanted[0]) for other in wanted[1:]):
            say(call=call, unusable="the answers disagree")
            continue
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                got = function(*args, **kwargs)
        except BaseException as error:
            say(call=call, wanted=shown(wanted[0]),
                raised=f"{type(error).__name__}: {error}"[:MAX_SHOWN])
            continue
        # A function the goal says prints its answer, asked what it returns.
        if got is None and printed.getvalue().strip():
            got = printed.getvalue().strip()
        say(call=call, wanted=shown(wanted[0]), got=shown(got), same=same(got, wanted[0]))


main()
