"""Runs the tests of a file of the workspace against changed copies of its functions.

Run by the runner as `python3 -c SCRIPT PATH NAMES TESTS`, confined as the
model's commands are, from the workspace's root: PATH is a source file,
NAMES a JSON list of its functions and methods as shown (`add`,
`Stack.pop`), TESTS a JSON list of the test files to run with pytest.

Prints one JSON line for the tests as they are ({"baseline": EXIT_CODE,
"seconds": S}, or {"unusable": why}), then one a change ("mutant"):
{"name", "mutant", "killed": true|false} or {"name", "mutant", "unusable":
why}, with "was" and "now" for a change of one expression. A mutant is
"returns None" (each `return VALUE` of the function evaluates VALUE and
returns None) for a function that returns a value, and "does nothing" (its
body is `pass`) for one that returns none; then one for each expression of
it (see `changes`): "arithmetic" (`+` made `-`, or `x + 1` made `1`) or "order" (`append(x)`
made `insert(0, x)`) or "bound" (`max(low, x)` made `x`) or "once" (a `for` loop
stopped after its first pass). Tests that still pass with a mutant cannot tell the
function from a broken one.

No file is changed: each run is a forked process in which the loader of
PATH compiles the mutant instead of the file, and nothing writes bytecode.
"""

import ast
import copy
import importlib.machinery
import json
import os
import signal
import sys
import time

# pytest's exit codes that say the tests ran and some failed, or could not
# be collected with the mutant: both tell it from the code.
KILLED = (1, 2)
NOT_LOADED = 100
# Seconds a mutant's run may take, at least and at most, and in all.
LEAST, MOST, IN_ALL = 5.0, 30.0, 90.0
# Characters of an expression shown.
MAX_SHOWN = 120


def say(**fields):
    print(json.dumps(fields), flush=True)


class Returns(ast.NodeTransformer):
    """`return VALUE` -> `VALUE; return None`, in the function's own body."""

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef
    visit_Lambda = visit_FunctionDef

    def visit_Return(self, node):
        if returns_value(node):
            return [ast.Expr(value=node.value), ast.Return(value=None)]
        return node


def returns_value(node):
    return node.value is not None and not (
        isinstance(node.value, ast.Constant) and node.value.value is None)


def own_nodes(function):
    """The nodes of `function`'s body, not those of functions, classes and
    lambdas in it."""
    stack = list(function.body)
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        stack.extend(ast.iter_child_nodes(node))


def find(tree, shown):
    fns = (ast.FunctionDef, ast.AsyncFunctionDef)
    parts = shown.split(".")
    scope = tree.body
    for at, part in enumerate(parts):
        last = at == len(parts) - 1
        kinds = fns if last else (ast.ClassDef,)
        found = [n for n in scope if isinstance(n, kinds) and n.name == part]
        if not found:
            return None
        node = found[-1]
        scope = node.body
    return node


def placeholder(statement):
    return isinstance(statement, ast.Pass) or (
        isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))


SWAPPED = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


def minus_one(node):
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
        and isinstance(node.operand, ast.Constant) and node.operand.value == 1


def zero(node):
    return isinstance(node, ast.Constant) and node.value == 0 and not isinstance(node.value, bool)


def same_either_way(node):
    """`x * 1` and `x / 1`, `x + 0` and `x - 0`: the same number, a change
    no test could catch."""
    right = node.value if isinstance(node, ast.AugAssign) else node.right
    one = 1 if isinstance(node.op, (ast.Mult, ast.Div)) else 0
    return isinstance(right, ast.Constant) and right.value == one \
        and not isinstance(right.value, bool)


def counts_on(node):
    """`x + 1`: a number added to what came before (a count, a total), which
    a change that drops what came before (`1`) tells from: t36's
    tally-tests added each key once, and an `add` that set its count to 1
    passed them."""
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) \
        and isinstance(node.right, ast.Constant) and not isinstance(node.right.value, bool) \
        and isinstance(node.right.value, (int, float)) and node.right.value != 0 \
        and not isinstance(node.left, ast.Constant)


def method_call(node, name, count):
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
        and node.func.attr == name and len(node.args) == count and not node.keywords


def plain(node):
    """A name, an attribute, a number, or a bound itself: what a bound of
    `min` or `max` compares without a call whose range may make one side
    always win (`max(0, len(s))`)."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, (ast.Name, ast.Attribute)) or bound(node) or (
        isinstance(node, ast.Constant) and isinstance(node.value, (int, float))
        and not isinstance(node.value, bool))


def bound(node):
    """`min(a, b)` or `max(a, b)`: two plain values, nothing else."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id in ("min", "max") and len(node.args) == 2 and not node.keywords \
        and all(plain(a) for a in node.args) \
        and not all(isinstance(a, ast.Constant) for a in node.args)


def changes(node):
    """How `node` can be changed, as (kind, change): `kind` is "arithmetic"
    (`+` and `-`, `*` and `/` swapped), "order" (the other end of a list:
    `append(x)` and `insert(0, x)`, `pop()` and `pop(0)`, `[-1]` and `[0]`)
    or "bound" (`max(low, x)` made `x` or `low`: t68's bounds-tests
    never clamped a value below `low`, and a clamp without its lower bound
    passed them); `change` changes a copy of `node` in place."""
    if bound(node):
        def kept(at):
            def one(n):
                # `max(x, x)` is `x`; the node stays where it is.
                n.args = [n.args[at], copy.deepcopy(n.args[at])]
                n.shown = ast.unparse(n.args[0])
            return one
        return [("bound", kept(1)), ("bound", kept(0))]
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in SWAPPED \
            and not same_either_way(node):
        def swap(n):
            n.op = SWAPPED[type(n.op)]()
        found = [("arithmetic", swap)]
        if counts_on(node):
            def dropped(n):
                n.left = ast.Constant(0)
                n.shown = ast.unparse(n.right)
            found.append(("arithmetic", dropped))
        return found
    if method_call(node, "append", 1):
        def front(n):
            n.func.attr = "insert"
            n.args = [ast.Constant(0)] + n.args
        return [("order", front)]
    if method_call(node, "insert", 2) and zero(node.args[0]):
        def back(n):
            n.func.attr = "append"
            n.args = n.args[1:]
        return [("order", back)]
    if method_call(node, "pop", 0):
        def first(n):
            n.args = [ast.Constant(0)]
        return [("order", first)]
    if method_call(node, "pop", 1) and zero(node.args[0]):
        def last(n):
            n.args = []
        return [("order", last)]
    if isinstance(node, ast.For) and not node.orelse and node.body \
            and not isinstance(node.body[-1], (ast.Return, ast.Raise, ast.Break, ast.Continue)) \
            and not once_at_most(node.iter):
        def once(n):
            # The loop's first line, as shown; the loop stops after its
            # first pass: t97's textstats-tests asserted longest_word of
            # one word only, and a longest_word that kept the first word
            # passed them.
            n.was = f"for {ast.unparse(n.target)} in {ast.unparse(n.iter)}:"
            n.body = n.body + [ast.Break()]
            n.shown = "its first pass only"
        return [("once", once)]
    if isinstance(node, ast.Subscript) and (minus_one(node.slice) or zero(node.slice)):
        def other(n):
            n.slice = ast.Constant(0) if minus_one(n.slice) else \
                ast.UnaryOp(op=ast.USub(), operand=ast.Constant(1))
        return [("order", other)]
    return []


def once_at_most(node):
    """`range(1)`, `range(0)`, `[x]`, `(x,)`: a loop of one pass at most,
    which stopping after its first pass does not change."""
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return len(node.elts) <= 1
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id == "range" and len(node.args) == 1 \
        and isinstance(node.args[0], ast.Constant) and node.args[0].value in (0, 1)


def points(function):
    """The changes of `function`'s own nodes, in a fixed order: the same
    for a copy of it. An item measured by `len()` keeps its end: rows of
    one length are its use (t100's grid-tests: `len(rows[0])` made
    `len(rows[-1])` in a transpose is the same on every grid of rows of
    equal length, and no test could tell them apart)."""
    nodes = list(own_nodes(function))
    measured = {id(node.args[0]) for node in nodes
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "len" and len(node.args) == 1}
    return [(node, kind, change) for node in nodes if id(node) not in measured
            for kind, change in changes(node)]


def mutants(tree, shown):
    """The mutants of function `shown`, as (what, was, now, module tree):
    `what` is "returns None", "does nothing", or the kind of a change of
    one of its expressions, shown as it `was` and is `now`."""
    function = find(tree, shown)
    if function is None:
        return []
    nodes = list(own_nodes(function))
    if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in nodes):
        return []
    if all(placeholder(s) for s in function.body):
        return []
    found = []
    changed = copy.deepcopy(tree)
    target = find(changed, shown)
    if any(isinstance(n, ast.Return) and returns_value(n) for n in nodes):
        body = []
        for statement in target.body:
            done = Returns().visit(statement)
            body.extend(done if isinstance(done, list) else [done])
        target.body = body
        found.append(("returns None", "", "", ast.fix_missing_locations(changed)))
    else:
        target.body = [ast.Pass()]
        found.append(("does nothing", "", "", ast.fix_missing_locations(changed)))
    for at in range(len(points(function))):
        changed = copy.deepcopy(tree)
        node, kind, change = points(find(changed, shown))[at]
        was = ast.unparse(node)
        change(node)
        was = getattr(node, "was", None) or was
        now = getattr(node, "shown", None) or ast.unparse(node)
        found.append((kind, was, now, ast.fix_missing_locations(changed)))
    return found


def run(args, path, code, limit):
    """pytest's exit code in a forked process, with `code` loaded for
    `path` when given; None when it did not end within `limit` seconds."""
    pid = os.fork()
    if pid == 0:
        try:
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            sys.dont_write_bytecode = True
            loaded = []
            if code is not None:
                loader = importlib.machinery.SourceFileLoader
                original = loader.get_code

                def get_code(self, fullname):
                    if os.path.realpath(self.get_filename(fullname)) == path:
                        loaded.append(fullname)
                        return code
                    return original(self, fullname)

                loader.get_code = get_code
            import pytest
            status = int(pytest.main(args))
            if code is not None and not loaded:
                status = NOT_LOADED
        except BaseException:
            status = 3
        os._exit(min(max(status, 0), 255))
    end = time.monotonic() + limit
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > end:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return None
        time.sleep(0.02)


def main():
    path, names, tests = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
    sys.path.insert(0, "")
    if not hasattr(os, "fork"):
        say(unusable="no fork on this system")
        return
    try:
        import pytest  # noqa: F401  (once, before the forks)
    except ImportError as error:
        say(unusable=f"pytest: {error}")
        return
    try:
        with open(path, encoding="utf-8") as file:
            tree = ast.parse(file.read(), path)
    except (OSError, SyntaxError, ValueError) as error:
        say(unusable=f"{type(error).__name__}: {error}")
        return
    args = list(tests) + ["-q", "-x", "-p", "no:cacheprovider"]
    real = os.path.realpath(path)
    began = time.monotonic()
    status = run(args, real, None, MOST)
    seconds = time.monotonic() - began
    say(baseline=status, seconds=round(seconds, 3))
    if status != 0:
        return
    limit = min(MOST, max(LEAST, 10 * seconds))
    for shown in names:
        for what, was, now, changed in mutants(tree, shown):
            said = {"name": shown, "mutant": what}
            if was:
                said.update(was=was[:MAX_SHOWN], now=now[:MAX_SHOWN])
            if time.monotonic() - began > IN_ALL:
                say(**said, unusable="out of time")
                continue
            try:
                code = compile(changed, real, "exec", dont_inherit=True)
            except (SyntaxError, ValueError) as error:
                say(**said, unusable=f"{type(error).__name__}: {error}")
                continue
            status = run(args, real, code, limit)
            if status is None or status in KILLED:
                say(**said, killed=True)
            elif status == 0:
                say(**said, killed=False)
            else:
                say(**said, unusable=f"pytest ended with {status}")


main()
