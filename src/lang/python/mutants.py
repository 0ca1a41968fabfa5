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
function from a broken one. For a surviving mutant of a function of the
module (not a method), an "example" may come with it: {"call", "value",
"changed"}, a call of the function whose value the mutant changes, found
among the calls the tests made (recorded as they ran) with one argument
changed at a time, the value the function gives and the one the mutant
gives, each as Python writes it. A small model told "add a test where the
first item does not decide" wrote `[30, 32]` again and again (t108's
temps-tests); a call to copy is what it can use.

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


# Calls of one function recorded, at most, and bytes of what is recorded.
MAX_RECORDED, MAX_RECORD_BYTES = 12, 32 * 1024
# Calls tried for an example, at most, per mutant, and seconds for them.
MAX_TRIED, EXAMPLE_SECONDS = 80, 5.0


def literal(value):
    """`value` as Python writes it, when that reads back as the same value
    (numbers, strings, lists, tuples, dicts, sets, booleans, None)."""
    try:
        text = repr(value)
        return text if ast.literal_eval(text) == value and len(text) <= MAX_SHOWN else None
    except (ValueError, SyntaxError, TypeError, RecursionError, MemoryError):
        return None


def recorder(path, names, calls):
    """A profile function that keeps the arguments of the calls of
    `names` (functions of the module at `path`), as literals."""
    def profile(frame, event, arg):
        code = frame.f_code
        if event != "call" or code.co_name not in names:
            return
        if os.path.realpath(code.co_filename) != path:
            return
        kept = calls.setdefault(code.co_name, [])
        if len(kept) >= MAX_RECORDED or code.co_flags & 0x0C:  # *args, **kwargs
            return
        values = [frame.f_locals.get(n) for n in code.co_varnames[:code.co_argcount]]
        texts = [literal(v) for v in values]
        if all(t is not None for t in texts) and texts not in kept:
            kept.append(texts)
    return profile


def run(args, path, code, limit, record=None):
    """pytest's exit code in a forked process, with `code` loaded for
    `path` when given; None when it did not end within `limit` seconds.
    With `record` (function names), the arguments the tests called them
    with are put in `record_out` (a dict, name -> lists of literals)."""
    reader = writer = None
    if record:
        reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            sys.dont_write_bytecode = True
            calls = {}
            if record:
                os.close(reader)
                sys.setprofile(recorder(path, set(record), calls))
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
            if record:
                sys.setprofile(None)
                data = json.dumps(calls).encode()
                os.write(writer, data if len(data) <= MAX_RECORD_BYTES else b"{}")
                os.close(writer)
        except BaseException:
            status = 3
        os._exit(min(max(status, 0), 255))
    if record:
        os.close(writer)
        os.set_blocking(reader, False)
    got = b""
    end = time.monotonic() + limit
    while True:
        if record:
            try:
                chunk = os.read(reader, 65536)
                got += chunk
            except BlockingIOError:
                pass
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            if record:
                os.set_blocking(reader, True)
                got += os.read(reader, 65536)
                os.close(reader)
                try:
                    record_out.update(json.loads(got.decode() or "{}"))
                except ValueError:
                    pass
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > end:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            if record:
                os.close(reader)
            return None
        time.sleep(0.02)


# What the baseline run recorded: function name -> argument lists.
record_out = {}


def changed_values(value):
    """Values beside `value`, one change each: other numbers, other
    orders and lengths of a list, longer and other strings."""
    out = []
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        out = [value + 1, value - 1, value * 2 + 1, -value - 1, 0, value * 10 + 7]
    elif isinstance(value, float):
        out = [value + 1.5, value - 1.5, value * 2 + 0.25, -value, 0.0]
    elif isinstance(value, str):
        words = value.split()
        out = [value + " " + (max(words, key=len) if words else value) * 2 + "x",
               " ".join(reversed(words)), value[::-1], value + value, value.upper(), ""]
    elif isinstance(value, (list, tuple)):
        items = list(value)
        made = [items[::-1], items[1:] + items[:1], items[-1:] + items[:-1]]
        numbers = [x for x in items if isinstance(x, (int, float)) and not isinstance(x, bool)]
        if numbers and len(numbers) == len(items):
            top, low = max(numbers), min(numbers)
            made += [items + [top + 5], [top + 5] + items, items[:1] + [top + 5] + items[1:],
                     items + [low - 5], [low - 5] + items, sorted(items), sorted(items)[::-1]]
        if items:
            made += [items + items[:1], items[:-1], items * 2]
        out = [type(value)(m) for m in made]
    return [v for v in out if v != value or type(v) is not type(value)]


def candidates(recorded):
    """Argument lists to try: each recorded one as it is, then with one
    argument changed at a time."""
    seen = []
    for texts in recorded:
        values = [ast.literal_eval(t) for t in texts]
        if values not in seen:
            seen.append(values)
    for texts in recorded:
        values = [ast.literal_eval(t) for t in texts]
        for at, value in enumerate(values):
            for other in changed_values(value):
                tried = values[:at] + [other] + values[at + 1:]
                if tried not in seen:
                    seen.append(tried)
    return seen[:MAX_TRIED]


def example(path, tree, changed, name, recorded):
    """The first call of `name` (a function of the module) whose value
    `changed` (the mutant's module) changes, as {call, value, changed};
    None when none is found. Run in a forked process, within
    EXAMPLE_SECONDS; the module is run under another name than
    `__main__`."""
    if "." in name or not recorded:
        return None
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(reader)
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            sys.dont_write_bytecode = True
            sys.setrecursionlimit(200)
            found = None

            def load(module):
                space = {"__name__": "__mutants_example__", "__file__": path}
                exec(compile(module, path, "exec", dont_inherit=True), space)
                return space.get(name)

            right, wrong = load(tree), load(changed)
            for values in candidates(recorded):
                try:
                    value = right(*copy.deepcopy(values))
                except Exception:
                    continue
                shown = literal(value)
                if shown is None:
                    continue
                try:
                    other = wrong(*copy.deepcopy(values))
                    if other == value and type(other) is type(value):
                        continue
                    said = literal(other) or repr(other)[:MAX_SHOWN]
                except Exception as error:
                    said = f"raises {type(error).__name__}"
                call = "%s(%s)" % (name, ", ".join(literal(v) or repr(v) for v in values))
                found = {"call": call, "value": shown, "changed": said}
                break
            os.write(writer, json.dumps(found).encode())
        except BaseException:
            pass
        os._exit(0)
    os.close(writer)
    end = time.monotonic() + EXAMPLE_SECONDS
    while True:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > end:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(reader)
            return None
        time.sleep(0.02)
    got = b""
    while True:
        chunk = os.read(reader, 65536)
        if not chunk:
            break
        got += chunk
    os.close(reader)
    try:
        found = json.loads(got.decode() or "null")
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


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
    status = run(args, real, None, MOST, record=[n for n in names if "." not in n])
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
                if time.monotonic() - began <= IN_ALL:
                    found = example(real, tree, changed, shown, record_out.get(shown))
                    if found:
                        said.update(example=found)
                say(**said, killed=False)
            else:
                say(**said, unusable=f"pytest ended with {status}")


main()
