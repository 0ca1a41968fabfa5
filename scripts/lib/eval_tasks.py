"""The task suite of scripts/eval-real-model: goals a user gives a coding
agent, half of them on an existing project. Each task has the files the
workspace starts with, the files the goal does not ask to change (they must
be byte for byte the same afterwards), and a judge that runs what was built.
None depends on how the runner works: the same judges could judge aider.
"""

import ast
import os
import re
import subprocess
import textwrap
from pathlib import Path


def py(args, cwd, stdin="", timeout=20):
    """python3 with `args` in `cwd`: (exit code or None on timeout, output)."""
    try:
        done = subprocess.run(
            ["python3", *args], cwd=cwd, input=stdin, capture_output=True, text=True,
            timeout=timeout, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
        )
        return done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"") + (e.stderr or b"")
        return None, out.decode(errors="replace") if isinstance(out, bytes) else out


def probe(work, code, timeout=20):
    """Runs Python `code` in the workspace; (passed, what it printed)."""
    rc, out = py(["-c", textwrap.dedent(code)], work, timeout=timeout)
    return rc == 0, out.strip()[-300:]


def pytest(work):
    """(passed with at least one test, summary line)."""
    code, out = py(["-m", "pytest", "-q", "-p", "no:cacheprovider"], work, timeout=180)
    passed = re.search(r"(\d+) passed", out)
    last = [line for line in out.strip().splitlines() if line.strip()][-1:] or ["no output"]
    return code == 0 and bool(passed), last[0][:100]


def sources(work):
    return sorted(
        p for p in work.rglob("*.py")
        if ".agent_context" not in p.parts and "__pycache__" not in p.parts
        and ".venv" not in p.parts
    )


def is_test(path):
    return path.name.startswith("test_") or path.name.endswith("_test.py")


def test_files(work):
    return [p for p in sources(work) if is_test(p)]


def test_functions(path):
    try:
        tree = ast.parse(path.read_text(errors="replace"))
    except SyntaxError:
        return 0
    return sum(
        1 for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test")
    )


def probed_and_tested(work, code, failing):
    """`code` run in the workspace passes, a test file is there and pytest
    passes: (passed, why), `failing` said first when the probe fails."""
    ok, out = probe(work, code)
    if not ok:
        return False, f"{failing}: {out[-80:]}"
    if not test_files(work):
        return False, "no test file"
    ok, line = pytest(work)
    return ok, line if ok else f"pytest fails: {line}"


def package_tested(work, name, code):
    """`name` is a package (a folder, not a module), Python `code` run in the
    workspace passes, and a test file is there and pytest passes."""
    check = f"""
        import {name}
        assert hasattr({name}, "__path__"), f"{name} is the module {{{name}.__file__}}, not a package"
    """
    return probed_and_tested(work, check + code, f"the package {name} is wrong")


def fixed(work, module, code):
    """A fix of `module`: pytest passes, and Python `code` run in the
    workspace (asserts of the module's functions) passes too."""
    ok, line = pytest(work)
    if not ok:
        return False, f"pytest fails: {line}"
    ok, out = probe(work, code)
    return ok, line if ok else f"{module} broken: {out}"


CALC = """\
def add(a, b):
    return a + b


def average(numbers):
    return sum(numbers) / (len(numbers) + 1)
"""

TEST_CALC = """\
from calc import add, average


def test_add():
    assert add(2, 3) == 5


def test_average():
    assert average([2, 4, 6]) == 4


def test_average_of_one():
    assert average([5]) == 5
"""

TEXTUTIL = """\
def reverse(text):
    \"\"\"The text backwards.\"\"\"
    return text[::-1]


def shout(text):
    \"\"\"The text in capitals with an exclamation mark.\"\"\"
    return text.upper() + "!"
"""

INVENTORY = """\
class Inventory:
    \"\"\"Items and how many of each are in stock.\"\"\"

    def __init__(self):
        self.items = {}

    def add(self, name, count=1):
        self.items[name] = self.items.get(name, 0) + count

    def remove(self, name, count=1):
        if self.items.get(name, 0) < count:
            raise ValueError(f"not enough {name}")
        self.items[name] -= count

    def count(self, name):
        return self.items.get(name, 0)
"""

# Written for cli-flag, but shadowed until 2026-12-07 by the GREET further
# down, which cli-flag and greet-shout have been run on all along: kept so,
# for their figures to stay comparable, and this one left unused.
GREET_FIRST = """\
import sys


def greeting(name):
    return f"Hello, {name}!"


def main(argv):
    name = argv[1] if len(argv) > 1 else "world"
    print(greeting(name))


if __name__ == "__main__":
    main(sys.argv)
"""

HELLO_WORLD = 'print("Hello, World!")\n'

COUNT = """\
import sys


def words(text):
    return text.split()


def main(argv):
    text = " ".join(argv[1:]) if len(argv) > 1 else "one two three"
    print(len(words(text)))


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_calc_fix(work):
    return fixed(work, "calc.py", "from calc import add, average; assert add(2, 3) == 5; assert average([1, 2, 3]) == 2")


def judge_add_function(work):
    ok, out = probe(work, """
        from textutil import count_vowels, reverse, shout
        assert count_vowels("Hello World") == 3, count_vowels("Hello World")
        assert count_vowels("xyz") == 0
        assert reverse("abc") == "cba" and shout("hi") == "HI!"
    """)
    return ok, "count_vowels works and the others still do" if ok else out


BROKEN_INVENTORY = INVENTORY.replace(
    "self.items[name] = self.items.get(name, 0) + count",
    "self.items[name] = self.items.get(name, 0) - count",
)


def tests_that_test(work, module, broken, what, least=2):
    """Tests of `module` (a test file that names its stem): at least `least`
    test functions, passing, and failing when `module` holds `broken` (`what`
    is broken there)."""
    stem = module[:-3]
    tests = [t for t in test_files(work) if stem in t.read_text(errors="replace").lower()]
    if not tests:
        return False, f"no test file of {module}"
    if sum(test_functions(t) for t in tests) < least:
        return False, f"fewer than {least} test functions"
    ok, line = pytest(work)
    if not ok:
        return False, f"pytest fails: {line}"
    # The tests must test: with `what` broken they fail.
    original = (work / module).read_text()
    try:
        (work / module).write_text(broken)
        still, _ = pytest(work)
    finally:
        (work / module).write_text(original)
    if still:
        return False, f"the tests still pass with a broken {what}: they test nothing"
    return True, f"{line}; they fail on a broken {what}"


def judge_add_tests(work):
    return tests_that_test(work, "inventory.py", BROKEN_INVENTORY, "add()")


def judge_cli_flag(work):
    code, out = py(["greet.py", "Ann"], work)
    if code != 0 or out.strip() != "Hello, Ann!":
        return False, f"`greet.py Ann` printed {out.strip()[:60]!r}"
    code, out = py(["greet.py", "--shout", "Ann"], work)
    if code != 0 or out.strip() != "HELLO, ANN!":
        code2, out2 = py(["greet.py", "Ann", "--shout"], work)
        if code2 != 0 or out2.strip() != "HELLO, ANN!":
            return False, f"`greet.py --shout Ann` printed {out.strip()[:60]!r}"
    # The greeting of no name, in capitals too (t88's cli-flag printed
    # `HELLO, world!`, upper-casing only a name given).
    code, out = py(["greet.py"], work)
    if code == 0 and out.strip():
        code, shouted = py(["greet.py", "--shout"], work)
        if code != 0 or shouted.strip() != out.strip().upper():
            return False, f"`greet.py --shout` printed {shouted.strip()[:60]!r}"
    return True, "both forms print what they should"


def judge_cli_chars(work):
    code, out = py(["count.py", "hello", "world"], work)
    if code != 0 or out.strip() != "2":
        return False, f"`count.py hello world` printed {out.strip()[:60]!r}"
    # With or without the space between the words.
    right = {"10", "11"}
    code, out = py(["count.py", "--chars", "hello", "world"], work)
    if code != 0 or out.strip() not in right:
        code2, out2 = py(["count.py", "hello", "world", "--chars"], work)
        if code2 != 0 or out2.strip() not in right:
            return False, f"`count.py --chars hello world` printed {out.strip()[:60]!r}"
    return True, "both forms print what they should"


def judge_package(work):
    return probed_and_tested(
        work, "from mathx import add, mul; assert add(2, 3) == 5; assert mul(2, 3) == 6",
        "`from mathx import add, mul` fails")


def judge_fizzbuzz(work):
    return probed_and_tested(work, """
        from fizzbuzz import fizzbuzz
        want = {1: "1", 3: "Fizz", 5: "Buzz", 15: "FizzBuzz", 9: "Fizz", 10: "Buzz", 30: "FizzBuzz", 7: "7"}
        for n, text in want.items():
            assert str(fizzbuzz(n)) == text, (n, fizzbuzz(n))
    """, "fizzbuzz is wrong")


def judge_word_count(work):
    (work.parent / "words.txt").write_text("the quick brown fox\njumps\n")
    candidates = [p for p in sources(work) if not is_test(p)]
    for path in candidates:
        code, out = py([str(path.relative_to(work)), str(work.parent / "words.txt")], work)
        if code == 0 and re.search(r"\b5\b", out):
            return True, f"{path.relative_to(work)} prints 5"
    return False, "no script prints 5 for a file of 5 words"


def judge_hello(work):
    for path in sources(work):
        code, out = py([str(path.relative_to(work))], work)
        if code == 0 and "hello" in out.lower():
            return True, f"{path.relative_to(work)} prints {out.strip()[:40]!r}"
    return False, "no .py file prints hello"


STATS = """\
def mean(values):
    return sum(values) / len(values)


def median(values):
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2 == 1:
        return ordered[middle]
    return (ordered[middle] + ordered[middle + 1]) / 2
"""

TEST_STATS = """\
from stats import mean, median


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_median_odd():
    assert median([3, 1, 2]) == 2


def test_median_even():
    assert median([4, 1, 3, 2]) == 2.5
"""

STRUTIL = """\
def capitalize_words(text):
    \"\"\"Each word of the text with a capital first letter.\"\"\"
    return " ".join(word.capitalize() for word in text.split())


def initials(name):
    \"\"\"The first letter of each part of a name, in capitals.\"\"\"
    return "".join(part[0].upper() for part in name.split())
"""

STACK = """\
class Stack:
    \"\"\"A last-in, first-out stack.\"\"\"

    def __init__(self):
        self.items = []

    def push(self, item):
        self.items.append(item)

    def pop(self):
        if not self.items:
            raise IndexError("pop from an empty stack")
        return self.items.pop()

    def peek(self):
        return self.items[-1] if self.items else None

    def size(self):
        return len(self.items)
"""

BROKEN_STACK = STACK.replace("self.items.append(item)", "self.items.insert(0, item)")


def judge_stats_fix(work):
    return fixed(work, "stats.py", "from stats import mean, median; assert median([5, 1, 3, 2]) == 2.5; "
                          "assert median([7]) == 7; assert mean([2, 4]) == 3")


def judge_add_palindrome(work):
    ok, out = probe(work, """
        from strutil import is_palindrome, capitalize_words, initials
        assert is_palindrome("level") is True
        assert is_palindrome("Racecar") is True
        assert is_palindrome("python") is False
        assert capitalize_words("a b") == "A B" and initials("ada lovelace") == "AL"
    """)
    return ok, "is_palindrome works and the others still do" if ok else out


def judge_stack_tests(work):
    return tests_that_test(work, "stack.py", BROKEN_STACK, "push()")


def judge_geometry(work):
    return probed_and_tested(
        work, "from geometry import area, perimeter; assert area(2, 3) == 6; assert perimeter(2, 3) == 10",
        "`from geometry import area, perimeter` fails")


def judge_leap(work):
    return probed_and_tested(work, """
        from leap import is_leap
        want = {2000: True, 1900: False, 2024: True, 2023: False, 2100: False, 1996: True}
        for year, leap in want.items():
            assert is_leap(year) == leap, (year, is_leap(year))
    """, "is_leap is wrong")


def judge_line_count(work):
    (work.parent / "lines.txt").write_text("one\ntwo words\nthree\n")
    for path in [p for p in sources(work) if not is_test(p)]:
        code, out = py([str(path.relative_to(work)), str(work.parent / "lines.txt")], work)
        if code == 0 and re.search(r"\b3\b", out):
            return True, f"{path.relative_to(work)} prints 3"
    return False, "no script prints 3 for a file of 3 lines"


# A second batch of the suite's kinds in other words (session of 2026-11-28
# 17:38), written before any run of them: `--goals fresh`.
# temp-fix's module. Until 2026-12-07 it was named CONVERT and shadowed by
# convert-tests' CONVERT further down: temp-fix ran on a convert.py without
# the functions its tests import.
TEMP_CONVERT = """\
def celsius_to_fahrenheit(celsius):
    return celsius * 9 / 5 - 32


def fahrenheit_to_celsius(fahrenheit):
    return (fahrenheit - 32) * 5 / 9
"""

TEST_CONVERT = """\
from convert import celsius_to_fahrenheit, fahrenheit_to_celsius


def test_freezing():
    assert celsius_to_fahrenheit(0) == 32


def test_boiling():
    assert celsius_to_fahrenheit(100) == 212


def test_back():
    assert fahrenheit_to_celsius(212) == 100
"""

SHAPES = """\
class Rectangle:
    \"\"\"A rectangle of a width and a height.\"\"\"

    def __init__(self, width, height):
        self.width = width
        self.height = height

    def area(self):
        return self.width * self.height
"""

BANK = """\
class Account:
    \"\"\"A bank account with a balance.\"\"\"

    def __init__(self, balance=0):
        self.balance = balance

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("amount must be positive")
        self.balance += amount

    def withdraw(self, amount):
        if amount > self.balance:
            raise ValueError("insufficient funds")
        self.balance -= amount
"""

BROKEN_BANK = BANK.replace("self.balance += amount", "self.balance -= amount")

ECHO = """\
import sys


def main(argv):
    words = argv[1:]
    print(" ".join(words))


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_temp_fix(work):
    return fixed(work, "convert.py", "from convert import celsius_to_fahrenheit as c, fahrenheit_to_celsius as f; "
                          "assert c(10) == 50; assert f(50) == 10")


def judge_add_method(work):
    ok, out = probe(work, """
        from shapes import Rectangle
        r = Rectangle(2, 3)
        assert r.perimeter() == 10, r.perimeter()
        assert r.area() == 6
    """)
    return ok, "perimeter() works and area() still does" if ok else out


def judge_bank_tests(work):
    return tests_that_test(work, "bank.py", BROKEN_BANK, "deposit()")


def judge_echo_reverse(work):
    code, out = py(["echo.py", "a", "b", "c"], work)
    if code != 0 or out.strip() != "a b c":
        return False, f"`echo.py a b c` printed {out.strip()[:60]!r}"
    code, out = py(["echo.py", "--reverse", "a", "b", "c"], work)
    if code != 0 or out.strip() != "c b a":
        code2, out2 = py(["echo.py", "a", "b", "c", "--reverse"], work)
        if code2 != 0 or out2.strip() != "c b a":
            return False, f"`echo.py --reverse a b c` printed {out.strip()[:60]!r}"
    return True, "both forms print what they should"


def judge_strtools(work):
    return probed_and_tested(
        work, "from strtools import first_upper, count_words; "
              "assert first_upper('abc') == 'Abc'; assert count_words('a b  c') == 3",
        "`from strtools import first_upper, count_words` fails")


def judge_greets(work):
    for path in sources(work):
        code, out = py([str(path.relative_to(work))], work)
        if code == 0 and "world" in out.lower():
            return True, f"{path.relative_to(work)} prints {out.strip()[:40]!r}"
    return False, "no .py file greets the world"


def judge_sum_numbers(work):
    (work.parent / "numbers.txt").write_text("4\n10\n28\n")
    for path in [p for p in sources(work) if not is_test(p)]:
        code, out = py([str(path.relative_to(work)), str(work.parent / "numbers.txt")], work)
        if code == 0 and re.search(r"\b42(\.0)?\b", out):
            return True, f"{path.relative_to(work)} prints 42"
    return False, "no script prints 42 for a file holding 4, 10 and 28"



# A third batch of the suite's kinds in other words (session of 2026-11-29
# 23:54), written before any run of them: `--goals third`. Shapes the
# earlier batches lack: tests in a folder of their own with the project's
# pytest settings in pyproject.toml, tests of plain functions, an option
# that takes a value, a new function beside others in a module of helpers.
WORDFREQ = """\
def words(text):
    return [word.strip(".,!?").lower() for word in text.split() if word.strip(".,!?")]


def top_words(text, n):
    \"\"\"The n most frequent words of the text, most frequent first.\"\"\"
    counts = {}
    for word in words(text):
        counts[word] = counts.get(word, 0) + 1
    return sorted(counts, key=lambda word: counts[word])[:n]
"""

TEST_WORDFREQ = """\
from wordfreq import top_words, words


def test_words():
    assert words("Hi, hi there!") == ["hi", "hi", "there"]


def test_top_word():
    assert top_words("a b b c c c", 1) == ["c"]


def test_top_two():
    assert top_words("x y y z z z", 2) == ["z", "y"]
"""

PYPROJECT_WORDFREQ = """\
[project]
name = "wordfreq"
version = "0.1.0"

[tool.pytest.ini_options]
pythonpath = ["."]
testpaths = ["tests"]
"""

NUMUTIL = """\
def is_even(n):
    return n % 2 == 0


def clamp(value, low, high):
    return max(low, min(value, high))
"""

SLUG = """\
import re


def slugify(text):
    \"\"\"Lower case, words joined by hyphens, nothing but letters and digits.\"\"\"
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)


def truncate(text, width):
    \"\"\"The text cut to `width` characters, ending in ... when it was longer.\"\"\"
    if len(text) <= width:
        return text
    return text[: width - 3] + "..."
"""

BROKEN_SLUG = SLUG.replace('"-".join(words)', '"_".join(words)')

REPEAT = """\
import sys


def main(argv):
    message = " ".join(argv[1:]) or "hi"
    print(message)


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_wordfreq_fix(work):
    return fixed(work, "wordfreq.py", "from wordfreq import top_words, words; "
                          "assert top_words('p q q r r r s s s s', 3) == ['s', 'r', 'q']; "
                          "assert words('A b') == ['a', 'b']")


def judge_add_factorial(work):
    ok, out = probe(work, """
        from numutil import factorial, is_even, clamp
        assert factorial(0) == 1 and factorial(1) == 1
        assert factorial(5) == 120, factorial(5)
        assert is_even(4) and not is_even(3) and clamp(9, 0, 5) == 5
    """)
    return ok, "factorial works and the others still do" if ok else out


def judge_slug_tests(work):
    return tests_that_test(work, "slug.py", BROKEN_SLUG, "slugify()")


def judge_repeat_times(work):
    code, out = py(["repeat.py", "hey"], work)
    if code != 0 or out.strip() != "hey":
        return False, f"`repeat.py hey` printed {out.strip()[:60]!r}"
    for args in (["--times", "3", "hey"], ["hey", "--times", "3"], ["--times=3", "hey"]):
        code, out = py(["repeat.py", *args], work)
        if code == 0 and out.split() == ["hey"] * 3:
            return True, "both forms print what they should"
    return False, f"`repeat.py --times 3 hey` printed {out.strip()[:60]!r}"


def judge_textkit(work):
    # Words of more than one letter: t10's `reverse_words` reversed the
    # characters of the whole text, which `'a b c'` cannot tell from
    # reversing the order of its words.
    return probed_and_tested(
        work, "from textkit import reverse_words, is_blank; "
              "assert reverse_words('ab cd ef') == 'ef cd ab'; "
              "assert is_blank('  ') and not is_blank(' x ')",
        "`from textkit import reverse_words, is_blank` fails")


def judge_countdown(work):
    for path in [p for p in sources(work) if not is_test(p)]:
        code, out = py([str(path.relative_to(work)), "3"], work)
        if code == 0 and re.findall(r"\d+", out) == ["3", "2", "1"]:
            return True, f"{path.relative_to(work)} counts down from 3"
    return False, "no script prints 3, 2, 1 when given 3"


# A fourth batch of the suite's kinds in other words (session of 2026-11-30
# 14:58), written before any run of them: `--goals fourth`. Shapes the
# earlier batches lack: unittest-style tests run by pytest, a fix whose bug
# is a unit (a percent taken as a fraction), a function that keeps an
# order, tests of a function that maps numbers to text, a switch that
# changes what a script computes, a package of conversions.
CART = """\
def line_total(price, quantity):
    return price * quantity


def cart_total(lines, discount=0):
    \"\"\"The sum of the lines (price, quantity), less `discount` percent.\"\"\"
    total = sum(line_total(price, quantity) for price, quantity in lines)
    return total - total * discount
"""

TEST_CART = """\
import unittest

from cart import cart_total, line_total


class CartTest(unittest.TestCase):
    def test_line(self):
        self.assertEqual(line_total(2, 3), 6)

    def test_no_discount(self):
        self.assertEqual(cart_total([(2, 3), (1, 4)]), 10)

    def test_half_off(self):
        self.assertEqual(cart_total([(10, 1), (5, 2)], 50), 10)


if __name__ == "__main__":
    unittest.main()
"""

LISTUTIL = """\
def chunks(items, size):
    return [items[i:i + size] for i in range(0, len(items), size)]


def flatten(lists):
    return [item for inner in lists for item in inner]
"""

ROMAN = """\
NUMERALS = [
    (1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
    (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"),
]


def to_roman(number):
    \"\"\"The Roman numeral of a whole number from 1 to 3999.\"\"\"
    if not 1 <= number <= 3999:
        raise ValueError(f"{number} has no Roman numeral here")
    out = []
    for value, letters in NUMERALS:
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)
"""

BROKEN_ROMAN = ROMAN.replace('return "".join(out)', 'return "".join(out).lower()')

SUMARGS = """\
import sys


def main(argv):
    numbers = [float(arg) for arg in argv[1:]]
    total = sum(numbers)
    print(int(total) if total == int(total) else total)


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_cart_fix(work):
    return fixed(work, "cart.py", "from cart import cart_total, line_total; "
                          "assert cart_total([(4, 5)], 25) == 15; assert cart_total([(3, 3)]) == 9; "
                          "assert line_total(7, 2) == 14")


def judge_add_dedupe(work):
    ok, out = probe(work, """
        from listutil import dedupe, chunks, flatten
        assert dedupe([3, 1, 3, 2, 1]) == [3, 1, 2], dedupe([3, 1, 3, 2, 1])
        assert dedupe([]) == [] and dedupe(["a", "a"]) == ["a"]
        assert chunks([1, 2, 3], 2) == [[1, 2], [3]] and flatten([[1], [2, 3]]) == [1, 2, 3]
    """)
    return ok, "dedupe works and the others still do" if ok else out


def judge_roman_tests(work):
    # roman.py has one function and the goal asks for a module that checks it:
    # one test function that fails on the broken one meets it (t18's run 1
    # was judged by 2 at first, corrected after it).
    return tests_that_test(work, "roman.py", BROKEN_ROMAN, "to_roman()", least=1)


def judge_sumargs_avg(work):
    code, out = py(["sumargs.py", "1", "2", "6"], work)
    if code != 0 or out.strip() != "9":
        return False, f"`sumargs.py 1 2 6` printed {out.strip()[:60]!r}"
    for args in (["--avg", "1", "2", "6"], ["1", "2", "6", "--avg"]):
        code, out = py(["sumargs.py", *args], work)
        if code == 0 and out.strip() in ("3", "3.0"):
            return True, "both forms print what they should"
    return False, f"`sumargs.py --avg 1 2 6` printed {out.strip()[:60]!r}"


def judge_units(work):
    return probed_and_tested(
        work, "from units import km_to_miles, miles_to_km; "
              "assert abs(km_to_miles(1.609344) - 1) < 0.01, km_to_miles(1.609344); "
              "assert abs(miles_to_km(10) - 16.09) < 0.05, miles_to_km(10)",
        "`from units import km_to_miles, miles_to_km` fails")


def judge_primes(work):
    for path in [p for p in sources(work) if not is_test(p)]:
        # 23 itself is prime: "up to" includes it.
        code, out = py([str(path.relative_to(work)), "23"], work)
        if code == 0 and re.findall(r"\d+", out) == ["2", "3", "5", "7", "11", "13", "17", "19", "23"]:
            return True, f"{path.relative_to(work)} prints the primes up to 23"
    return False, "no script prints 2, 3, 5, 7, 11, 13, 17, 19, 23 when given 23"


# The fifth batch (session of 2026-11-30 20:54), written before any run of it.
GRADES = """\
def letter(score):
    \"\"\"A for 90 and over, B for 80 and over, C for 70 and over, F below.\"\"\"
    if score > 90:
        return "A"
    if score > 80:
        return "B"
    if score > 70:
        return "C"
    return "F"


def average_letter(scores):
    return letter(sum(scores) / len(scores))
"""

TEST_GRADES = """\
from grades import average_letter, letter


def test_high():
    assert letter(95) == "A"


def test_boundaries():
    assert letter(90) == "A"
    assert letter(80) == "B"
    assert letter(70) == "C"


def test_low():
    assert letter(12) == "F"


def test_average():
    assert average_letter([80, 100]) == "A"
"""

TIMEUTIL = """\
def to_seconds(hours, minutes, seconds):
    return hours * 3600 + minutes * 60 + seconds


def pad(number):
    \"\"\"Two digits: 5 -> '05'.\"\"\"
    return f"{number:02d}"
"""

TEXTSTATS = """\
def count_lines(text):
    \"\"\"How many lines the text has (a last line without a newline counts).\"\"\"
    return len(text.splitlines())


def longest_word(text):
    \"\"\"The longest word of the text, the first of them on a tie; '' when it has none.\"\"\"
    longest = ""
    for word in text.split():
        if len(word) > len(longest):
            longest = word
    return longest
"""

BROKEN_TEXTSTATS = TEXTSTATS.replace("if len(word) > len(longest):", "if len(word) < len(longest) or not longest:")

HEAD = """\
import sys


def main(argv):
    path = argv[1]
    with open(path) as f:
        lines = f.read().splitlines()
    if lines:
        print(lines[0])


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_grades_fix(work):
    return fixed(work, "grades.py", "from grades import letter, average_letter; "
                           "assert letter(85) == 'B'; assert letter(90) == 'A'; "
                           "assert letter(69.5) == 'F'; assert average_letter([70, 70]) == 'C'")


def judge_add_duration(work):
    ok, out = probe(work, """
        from timeutil import format_duration, to_seconds, pad
        assert format_duration(3725) == "1:02:05", format_duration(3725)
        assert format_duration(59) == "0:00:59", format_duration(59)
        assert to_seconds(1, 2, 5) == 3725 and pad(7) == "07"
    """)
    return ok, "format_duration works and the others still do" if ok else out


def judge_textstats_tests(work):
    return tests_that_test(work, "textstats.py", BROKEN_TEXTSTATS, "longest_word()")


def judge_head_lines(work):
    text = "one\ntwo\nthree\nfour\nfive\n"
    (work.parent / "five.txt").write_text(text)
    path = str(work.parent / "five.txt")
    code, out = py(["head.py", path], work)
    if code != 0 or out.split() != ["one"]:
        return False, f"`head.py five.txt` printed {out.strip()[:60]!r}"
    for args in (["-n", "3", path], [path, "-n", "3"], ["-n3", path]):
        code, out = py(["head.py", *args], work)
        if code == 0 and out.split() == ["one", "two", "three"]:
            return True, "both forms print what they should"
    return False, f"`head.py -n 3 five.txt` printed {out.strip()[:60]!r}"


def judge_textcase(work):
    return probed_and_tested(
        work, "from textcase import snake, kebab; "
              "assert snake('Hello World') == 'hello_world', snake('Hello World'); "
              "assert kebab('Big Red Dog') == 'big-red-dog', kebab('Big Red Dog')",
        "`from textcase import snake, kebab` fails")


def judge_times_table(work):
    for path in [p for p in sources(work) if not is_test(p)]:
        code, out = py([str(path.relative_to(work)), "7"], work)
        lines = [line for line in out.splitlines() if line.strip()]
        last = [re.findall(r"\d+", line)[-1:] for line in lines]
        if code == 0 and last == [[str(7 * n)] for n in range(1, 11)]:
            return True, f"{path.relative_to(work)} prints 7 to 70, a line each"
    return False, "no script prints the lines of 7's table, 7 to 70, when given 7"



# A sixth batch of the suite's kinds in other words (session of 2026-12-01
# 09:15), written before any run of them: `--goals sixth`. Shapes the
# earlier batches lack: a fix whose bug is a factor, a function returning a
# list, tests of a class that counts, an option whose value is text, a
# package of two number functions, and a program that reads its input.
MONEY = """\
def to_cents(amount):
    \"\"\"Dollars as a whole number of cents: 2.5 -> 250.\"\"\"
    return round(amount * 10)


def format_cents(cents):
    \"\"\"Cents as dollars: 250 -> '$2.50'.\"\"\"
    return f"${cents // 100}.{cents % 100:02d}"
"""

TEST_MONEY = """\
from money import format_cents, to_cents


def test_to_cents():
    assert to_cents(2.5) == 250
    assert to_cents(1) == 100


def test_format_cents():
    assert format_cents(250) == "$2.50"
    assert format_cents(5) == "$0.05"


def test_round_trip():
    assert format_cents(to_cents(3.75)) == "$3.75"
"""

WORDUTIL = """\
def first_word(text):
    \"\"\"The first word of the text, '' when it has none.\"\"\"
    words = text.split()
    return words[0] if words else ""


def last_word(text):
    \"\"\"The last word of the text, '' when it has none.\"\"\"
    words = text.split()
    return words[-1] if words else ""
"""

TALLY = """\
class Tally:
    \"\"\"Counts how often each key is added.\"\"\"

    def __init__(self):
        self.counts = {}

    def add(self, key):
        self.counts[key] = self.counts.get(key, 0) + 1

    def count(self, key):
        return self.counts.get(key, 0)

    def total(self):
        return sum(self.counts.values())
"""

BROKEN_TALLY = TALLY.replace("self.counts.get(key, 0) + 1", "1")

JOIN = """\
import sys


def main(argv):
    print(" ".join(argv[1:]))


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_money_fix(work):
    return fixed(work, "money.py", "from money import to_cents, format_cents; "
                           "assert to_cents(0.5) == 50; assert to_cents(12) == 1200; "
                           "assert format_cents(1999) == '$19.99'")


def judge_add_lengths(work):
    ok, out = probe(work, """
        from wordutil import word_lengths, first_word, last_word
        assert word_lengths('a bb ccc') == [1, 2, 3], word_lengths('a bb ccc')
        assert word_lengths('hello big world') == [5, 3, 5], word_lengths('hello big world')
        assert word_lengths('') == [], word_lengths('')
        assert first_word('x y') == 'x' and last_word('x y') == 'y'
    """)
    return ok, "word_lengths works and the others still do" if ok else out


def judge_tally_tests(work):
    return tests_that_test(work, "tally.py", BROKEN_TALLY, "Tally.add()")


def judge_join_sep(work):
    code, out = py(["join.py", "a", "b", "c"], work)
    if code != 0 or out.strip() != "a b c":
        return False, f"`join.py a b c` printed {out.strip()[:60]!r}"
    for args in (["--sep", ",", "a", "b", "c"], ["a", "b", "c", "--sep", ","], ["--sep=,", "a", "b", "c"]):
        code, out = py(["join.py", *args], work)
        if code == 0 and out.strip() == "a,b,c":
            return True, "both forms print what they should"
    return False, f"`join.py --sep , a b c` printed {out.strip()[:60]!r}"


def judge_mathkit(work):
    return probed_and_tested(
        work, "from mathkit import gcd, lcm; "
              "assert gcd(12, 18) == 6, gcd(12, 18); assert gcd(7, 5) == 1; "
              "assert lcm(4, 6) == 12, lcm(4, 6); assert lcm(3, 5) == 15",
        "`from mathkit import gcd, lcm` fails")


def judge_vowels(work):
    for path in [p for p in sources(work) if not is_test(p)]:
        code, out = py([str(path.relative_to(work))], work, stdin="programming is fun\n")
        # The one number it prints: t89's printed its count twice.
        if code == 0 and re.findall(r"\d+", out) == ["5"]:
            return True, f"{path.relative_to(work)} prints 5 for 'programming is fun'"
    return False, "no script prints 5 for the line 'programming is fun' on its input"


# A seventh batch of the suite's kinds in other words (session of 2026-12-01
# 15:51), written before any run of them: `--goals seventh`. Shapes the
# earlier batches lack: a fix whose bug is a sign, a function over a cycle
# of names, tests of two inverse conversions, a flag that takes no value, a
# package of float functions, and a program that reads the file it is named.
DISCOUNT = """\
def apply_discount(price, percent):
    \"\"\"The price after taking `percent` percent off: 80, 25 -> 60.0.\"\"\"
    return price + price * percent / 100


def total(prices, percent):
    \"\"\"The sum of the discounted prices.\"\"\"
    return sum(apply_discount(p, percent) for p in prices)
"""

TEST_DISCOUNT = """\
from discount import apply_discount, total


def test_apply_discount():
    assert apply_discount(80, 25) == 60
    assert apply_discount(10, 0) == 10


def test_total():
    assert total([100, 50], 10) == 135
"""

WEEK = """\
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


def is_weekend(day):
    \"\"\"True for Saturday and Sunday.\"\"\"
    return day in ("Saturday", "Sunday")


def day_number(day):
    \"\"\"1 for Monday up to 7 for Sunday.\"\"\"
    return DAYS.index(day) + 1
"""

CONVERT = """\
def c_to_f(celsius):
    \"\"\"Degrees Celsius in Fahrenheit.\"\"\"
    return celsius * 9 / 5 + 32


def f_to_c(fahrenheit):
    \"\"\"Degrees Fahrenheit in Celsius.\"\"\"
    return (fahrenheit - 32) * 5 / 9
"""

BROKEN_CONVERT = CONVERT.replace("celsius * 9 / 5 + 32", "celsius * 9 / 5")

GREET = """\
import sys


def main(argv):
    name = argv[1] if len(argv) > 1 else "world"
    print(f"Hello, {name}!")


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_discount_fix(work):
    return fixed(work, "discount.py", "from discount import apply_discount, total; "
                                      "assert apply_discount(200, 50) == 100; "
                                      "assert total([40, 60], 50) == 50")


def judge_add_next_day(work):
    ok, out = probe(work, """
        from week import next_day, is_weekend, day_number
        assert next_day('Monday') == 'Tuesday', next_day('Monday')
        assert next_day('Sunday') == 'Monday', next_day('Sunday')
        assert next_day('Friday') == 'Saturday', next_day('Friday')
        assert is_weekend('Sunday') and day_number('Wednesday') == 3
    """)
    return ok, "next_day works and the others still do" if ok else out


def judge_convert_tests(work):
    return tests_that_test(work, "convert.py", BROKEN_CONVERT, "c_to_f()")


def judge_greet_shout(work):
    code, out = py(["greet.py", "Ann"], work)
    if code != 0 or out.strip() != "Hello, Ann!":
        return False, f"`greet.py Ann` printed {out.strip()[:60]!r}"
    for args in (["--shout", "Ann"], ["Ann", "--shout"]):
        code, out = py(["greet.py", *args], work)
        if code == 0 and out.strip() == "HELLO, ANN!":
            return True, "both forms print what they should"
    return False, f"`greet.py --shout Ann` printed {out.strip()[:60]!r}"


def judge_distance(work):
    return probed_and_tested(
        work, "from distance import km_to_miles, miles_to_km; "
              "assert abs(km_to_miles(10) - 6.21371) < 0.01, km_to_miles(10); "
              "assert abs(miles_to_km(1) - 1.609344) < 0.01, miles_to_km(1); "
              "assert abs(miles_to_km(km_to_miles(42)) - 42) < 0.01",
        "`from distance import km_to_miles, miles_to_km` fails")


def judge_longest(work):
    (work / "judge_lines.txt").write_text("short\nthe longest line here\nmid line\n")
    try:
        for path in [p for p in sources(work) if not is_test(p)]:
            code, out = py([str(path.relative_to(work)), "judge_lines.txt"], work)
            if code == 0 and out.strip().splitlines()[-1:] == ["the longest line here"]:
                return True, f"{path.relative_to(work)} prints the longest line"
        return False, "no script prints the longest line of the file it is given"
    finally:
        (work / "judge_lines.txt").unlink()


# An eighth batch of the suite's kinds in other words (session of 2026-12-02
# 04:06), written before any run of them: `--goals eighth`. Shapes the
# earlier batches lack: a fix whose bug is how a text is split, a function
# over a list of records, tests of a function that raises on bad input, an
# option that changes how every line is printed, a package named in the
# goal's last words, and a program of two numeric arguments.
WORDS = """\
def word_count(text):
    \"\"\"How many words the text has; any run of spaces, tabs or newlines parts two words.\"\"\"
    return len(text.split(" "))


def longest_word(text):
    \"\"\"The longest word of the text ('' when there is none).\"\"\"
    return max(text.split(), key=len, default="")
"""

TEST_WORDS = """\
from words import longest_word, word_count


def test_word_count_simple():
    assert word_count("one two three") == 3


def test_word_count_spaces():
    assert word_count("  one   two\\tthree\\n") == 3


def test_word_count_empty():
    assert word_count("") == 0


def test_longest_word():
    assert longest_word("a bb ccc") == "ccc"
"""

PEOPLE = """\
def names(people):
    \"\"\"The names of the people, each a dict with "name" and "age".\"\"\"
    return [person["name"] for person in people]


def adults(people):
    \"\"\"The people aged 18 or more.\"\"\"
    return [person for person in people if person["age"] >= 18]
"""

TIMEPARSE = """\
def to_minutes(text):
    \"\"\"Minutes since midnight of a time written "HH:MM": "01:30" -> 90.

    Raises ValueError when the text is not such a time.
    \"\"\"
    hours, sep, minutes = text.partition(":")
    if not sep or not hours.isdigit() or not minutes.isdigit():
        raise ValueError(f"not a time: {text!r}")
    hours, minutes = int(hours), int(minutes)
    if hours > 23 or minutes > 59:
        raise ValueError(f"not a time: {text!r}")
    return hours * 60 + minutes
"""

BROKEN_TIMEPARSE = TIMEPARSE.replace("return hours * 60 + minutes", "return hours * 60")

SHOW = """\
import sys


def main(argv):
    with open(argv[1]) as f:
        for line in f:
            print(line.rstrip("\\n"))


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_words_fix(work):
    return fixed(work, "words.py", "from words import word_count, longest_word; "
                                   "assert word_count('a  b') == 2; "
                                   "assert word_count('x\\ny z') == 3; "
                                   "assert longest_word('hi there') == 'there'")


def judge_add_oldest(work):
    ok, out = probe(work, """
        from people import oldest, names, adults
        folks = [{"name": "Ann", "age": 31}, {"name": "Bob", "age": 67}, {"name": "Cy", "age": 12}]
        assert oldest(folks) == "Bob", oldest(folks)
        assert oldest([{"name": "Di", "age": 5}]) == "Di"
        assert names(folks) == ["Ann", "Bob", "Cy"] and len(adults(folks)) == 2
    """)
    return ok, "oldest works and the others still do" if ok else out


def judge_timeparse_tests(work):
    return tests_that_test(work, "timeparse.py", BROKEN_TIMEPARSE, "to_minutes()")


def judge_show_numbers(work):
    (work / "judge_show.txt").write_text("alpha\nbeta\n")
    try:
        code, out = py(["show.py", "judge_show.txt"], work)
        if code != 0 or out.strip().splitlines() != ["alpha", "beta"]:
            return False, f"`show.py FILE` printed {out.strip()[:60]!r}"
        for args in (["-n", "judge_show.txt"], ["judge_show.txt", "-n"]):
            code, out = py(["show.py", *args], work)
            lines = out.strip().splitlines()
            if (code == 0 and len(lines) == 2 and re.fullmatch(r"\s*1\W*\s*alpha", lines[0])
                    and re.fullmatch(r"\s*2\W*\s*beta", lines[1])):
                return True, "show.py prints the file, and numbers its lines with -n"
        return False, f"`show.py -n FILE` printed {out.strip()[:60]!r}"
    finally:
        (work / "judge_show.txt").unlink()


def judge_kelvin(work):
    return probed_and_tested(
        work, "from kelvin import to_kelvin, from_kelvin; "
              "assert abs(to_kelvin(0) - 273.15) < 1e-9, to_kelvin(0); "
              "assert abs(from_kelvin(373.15) - 100) < 1e-9, from_kelvin(373.15)",
        "`from kelvin import to_kelvin, from_kelvin` fails")


def judge_power(work):
    for path in [p for p in sources(work) if not is_test(p)]:
        code, out = py([str(path.relative_to(work)), "2", "10"], work)
        if code == 0 and re.findall(r"\d+(?:\.0+)?", out)[-1:] in (["1024"], ["1024.0"]):
            code, out = py([str(path.relative_to(work)), "3", "4"], work)
            if code == 0 and re.findall(r"\d+(?:\.0+)?", out)[-1:] in (["81"], ["81.0"]):
                return True, f"{path.relative_to(work)} prints 1024 for 2 10 and 81 for 3 4"
    return False, "no script prints 1024 for the arguments 2 10 and 81 for 3 4"



# A ninth batch of the suite's kinds in other words (session of 2026-12-02
# 10:30), written before any run of them: `--goals ninth`. Shapes the
# earlier batches lack: a fix of a bound left out of a range, a function
# over a dict that orders its keys by their values, tests of a function that
# raises when its bounds are the wrong way round, a program changed from
# one argument to any number of them, a package of two predicates, and a
# script that reads its numbers from standard input.
RANGES = """\
def count_between(numbers, low, high):
    \"\"\"How many of the numbers lie between low and high, both included.\"\"\"
    return sum(1 for n in numbers if low <= n < high)


def outside(numbers, low, high):
    \"\"\"The numbers below low or above high, in their order.\"\"\"
    return [n for n in numbers if n < low or n > high]
"""

TEST_RANGES = """\
from ranges import count_between, outside


def test_count_between_inner():
    assert count_between([1, 5, 9], 2, 8) == 1


def test_count_between_includes_both_ends():
    assert count_between([2, 5, 8], 2, 8) == 3


def test_outside():
    assert outside([1, 5, 9], 2, 8) == [1, 9]
"""

# Written for add-ranking, shadowed as GREET_FIRST was: add-ranking has been
# run on the SCORES further down all along, and stays so.
SCORES_FIRST = """\
def best(scores):
    \"\"\"The highest score of a dict of name -> score.\"\"\"
    return max(scores.values())


def passed(scores, mark):
    \"\"\"The names whose score is mark or more, in the dict's order.\"\"\"
    return [name for name, score in scores.items() if score >= mark]
"""

BOUNDS = """\
def clamp(value, low, high):
    \"\"\"value kept within low and high: low when below, high when above.

    Raises ValueError when low is greater than high.
    \"\"\"
    if low > high:
        raise ValueError(f"low {low} is greater than high {high}")
    return max(low, min(value, high))
"""

BROKEN_BOUNDS = BOUNDS.replace("return max(low, min(value, high))", "return min(value, high)")

WELCOME = """\
import sys


def main(argv):
    print(f"Welcome, {argv[1]}!")


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_ranges_fix(work):
    return fixed(work, "ranges.py", "from ranges import count_between, outside; "
                                    "assert count_between([0, 3, 4, 7], 3, 7) == 3; "
                                    "assert count_between([], 0, 1) == 0; "
                                    "assert outside([0, 3, 8], 1, 5) == [0, 8]")


def judge_add_ranking(work):
    ok, out = probe(work, """
        from scores import ranking, best, passed
        scores = {"ann": 3, "bob": 9, "cy": 5}
        assert ranking(scores) == ["bob", "cy", "ann"], ranking(scores)
        assert ranking({"di": 1}) == ["di"]
        assert best(scores) == 9 and passed(scores, 5) == ["bob", "cy"]
    """)
    return ok, "ranking works and the others still do" if ok else out


def judge_bounds_tests(work):
    return tests_that_test(work, "bounds.py", BROKEN_BOUNDS, "clamp()")


def judge_welcome_many(work):
    for args, want in ((["Ann", "Bob"], ["Welcome, Ann!", "Welcome, Bob!"]),
                       (["Cy"], ["Welcome, Cy!"])):
        code, out = py(["welcome.py", *args], work)
        if code != 0 or [line.strip() for line in out.strip().splitlines()] != want:
            return False, f"`welcome.py {' '.join(args)}` printed {out.strip()[:60]!r}"
    return True, "welcome.py welcomes every name, one per line"


def judge_bits(work):
    return probed_and_tested(
        work, "from bits import is_even, is_odd; "
              "assert is_even(4) and not is_even(3); "
              "assert is_odd(7) and not is_odd(0)",
        "`from bits import is_even, is_odd` fails")


def judge_biggest(work):
    for path in [p for p in sources(work) if not is_test(p)]:
        rel = str(path.relative_to(work))
        code, out = py([rel], work, stdin="3\n9\n2\n")
        if code == 0 and re.findall(r"-?\d+(?:\.\d+)?", out)[-1:] in (["9"], ["9.0"]):
            code, out = py([rel], work, stdin="-4\n-1\n-7\n")
            if code == 0 and re.findall(r"-?\d+(?:\.\d+)?", out)[-1:] in (["-1"], ["-1.0"]):
                return True, f"{rel} prints the largest number read from stdin"
    return False, "no script prints the largest of the numbers given on stdin"


# A tenth batch of the suite's kinds in other words (session of 2026-12-03
# 06:10), written before any run of it: `--goals tenth`. Shapes the earlier
# batches lack: a fix of a division that drops a part-filled last page, a
# function the reverse of one the module has (returning a tuple), tests of
# a pair of functions each the inverse of the other over letters, an
# optional second positional argument with a default, a package checked to
# be a package (a folder), and a program whose answer is a string of digits.
PAGES = """\
def page_count(total, per_page):
    \"\"\"How many pages `total` items fill at `per_page` a page; a part-filled last page counts.\"\"\"
    return total // per_page


def page_items(items, page, per_page):
    \"\"\"The items on page `page` (pages are counted from 1).\"\"\"
    start = (page - 1) * per_page
    return items[start:start + per_page]
"""

TEST_PAGES = """\
from pages import page_count, page_items


def test_full_pages():
    assert page_count(30, 10) == 3


def test_part_filled_last_page():
    assert page_count(31, 10) == 4


def test_no_items():
    assert page_count(0, 10) == 0


def test_page_items():
    assert page_items([1, 2, 3, 4, 5, 6, 7], 3, 3) == [7]
"""

COLORS = """\
def rgb_to_hex(r, g, b):
    \"\"\"The hex code of a colour: 255, 128, 0 -> '#ff8000'.\"\"\"
    return f"#{r:02x}{g:02x}{b:02x}"


def is_hex(code):
    \"\"\"True for a colour code written as '#' and six hex digits, like '#ff8000'.\"\"\"
    return len(code) == 7 and code[0] == "#" and all(c in "0123456789abcdefABCDEF" for c in code[1:])
"""

CIPHER = """\
def shift_letter(letter, shift):
    \"\"\"The letter moved `shift` places along the alphabet, from z round to a; its case kept.\"\"\"
    base = ord("a") if letter.islower() else ord("A")
    return chr(base + (ord(letter) - base + shift) % 26)


def encode(text, shift):
    \"\"\"The Caesar cipher of the text: every letter moved `shift` places, the rest kept.\"\"\"
    return "".join(shift_letter(c, shift) if c.isascii() and c.isalpha() else c for c in text)


def decode(text, shift):
    \"\"\"The text that encode(text, shift) came from.\"\"\"
    return encode(text, -shift)
"""

# Broken copies of cipher.py: letters moved the wrong way (encode('abc', 1)
# gives 'zab' and decode moves them forward: only tests that encode and
# decode back, or shift by 13, pass), and letters not wrapped from z round
# to a (what a shift by 13 of most words shows).
BROKEN_CIPHERS = {
    "encode() (letters moved the wrong way)":
        CIPHER.replace("shift_letter(c, shift) if", "shift_letter(c, -shift) if"),
    "shift_letter() (no wrap from z to a)":
        CIPHER.replace("(ord(letter) - base + shift) % 26", "ord(letter) - base + shift"),
}

TIP = """\
import sys


def main(argv):
    bill = float(argv[1])
    tip = bill * 15 / 100
    print(f"{tip:.2f}")


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_pages_fix(work):
    return fixed(work, "pages.py", "from pages import page_count, page_items; "
                                   "assert page_count(7, 2) == 4, page_count(7, 2); "
                                   "assert page_count(20, 5) == 4, page_count(20, 5); "
                                   "assert page_count(1, 50) == 1, page_count(1, 50); "
                                   "assert page_items(list('abcdefg'), 2, 3) == ['d', 'e', 'f']")


def judge_add_hex(work):
    ok, out = probe(work, """
        from colors import hex_to_rgb, rgb_to_hex, is_hex
        assert hex_to_rgb('#ff8000') == (255, 128, 0), hex_to_rgb('#ff8000')
        assert hex_to_rgb('#000000') == (0, 0, 0), hex_to_rgb('#000000')
        assert hex_to_rgb('#0a10ff') == (10, 16, 255), hex_to_rgb('#0a10ff')
        assert rgb_to_hex(*hex_to_rgb('#123abc')) == '#123abc'
        assert rgb_to_hex(1, 2, 3) == '#010203' and is_hex('#ff8000') and not is_hex('ff8000')
    """)
    return ok, "hex_to_rgb works and the others still do" if ok else out


def judge_cipher_tests(work):
    # Tests that fail on either broken copy test something.
    for what, broken in BROKEN_CIPHERS.items():
        ok, why = tests_that_test(work, "cipher.py", broken, what)
        if ok or "still pass with a broken" not in why:
            return ok, why
    return False, "the tests still pass with either broken copy of cipher.py: they test nothing"


def judge_tip_percent(work):
    for args, want in ((["40"], "6.00"), (["40", "20"], "8.00"), (["12.50", "10"], "1.25"),
                       (["80", "25"], "20.00"), (["200"], "30.00")):
        code, out = py(["tip.py", *args], work)
        if code != 0 or out.strip() != want:
            return False, f"`tip.py {' '.join(args)}` printed {out.strip()[:60]!r}, not {want}"
    return True, "tip.py takes the percentage as a second argument, 15 without it"


def judge_series(work):
    return package_tested(work, "series", """
        from series import fib, triangle
        for n, want in ((0, 0), (1, 1), (2, 1), (7, 13), (10, 55), (20, 6765)):
            assert fib(n) == want, (n, fib(n))
        for n, want in ((1, 1), (4, 10), (10, 55), (100, 5050)):
            assert triangle(n) == want, (n, triangle(n))
    """)


def judge_binary(work):
    want = {"10": "1010", "1": "1", "6": "110", "255": "11111111", "64": "1000000"}
    for path in [p for p in sources(work) if not is_test(p)]:
        rel = str(path.relative_to(work))
        for number, digits in want.items():
            code, out = py([rel, number], work)
            # The last run of 0s and 1s: "1010", "0b1010", "10 in binary is 1010".
            if code != 0 or re.findall(r"[01]+", out)[-1:] != [digits]:
                break
        else:
            return True, f"{rel} prints 10 as 1010, 255 as 11111111 and more"
    return False, "no script prints the binary digits of the number it is given (10 -> 1010)"


# An eleventh batch of the suite's kinds in other words (session of
# 2026-12-06 05:52), written before any run of it: `--goals eleventh`.
# Shapes the earlier batches lack: a median wrong on lists of even length,
# a method added to a class that removes and returns an item, tests of two
# validators (the tests must fail on a validator that accepts too much), a
# flag that switches what a program counts in a file it is given, a package
# of two string functions, and a program whose answer is a word.
SCORES = """\
def mean(values):
    \"\"\"The arithmetic mean of a non-empty list of numbers.\"\"\"
    return sum(values) / len(values)


def median(values):
    \"\"\"The middle value of the sorted list; the mean of the two middle ones when the length is even.\"\"\"
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle]
"""

TEST_SCORES = """\
from scores import mean, median


def test_mean():
    assert mean([1, 2, 3, 4]) == 2.5


def test_median_odd():
    assert median([5, 1, 3]) == 3


def test_median_even():
    assert median([4, 1, 3, 2]) == 2.5
"""

TODO = """\
class TodoList:
    \"\"\"Things to do, in the order they were added.\"\"\"

    def __init__(self):
        self.entries = []

    def add(self, text):
        self.entries.append(text)
        return len(self.entries)

    def items(self):
        return list(self.entries)
"""

VALIDATE = """\
def is_valid_username(name):
    \"\"\"3 to 12 characters, letters, digits and underscores only, not starting with a digit.\"\"\"
    if not 3 <= len(name) <= 12:
        return False
    if name[0].isdigit():
        return False
    return all(c.isascii() and (c.isalnum() or c == "_") for c in name)


def is_strong_password(password):
    \"\"\"At least 8 characters with a lower-case letter, an upper-case letter and a digit.\"\"\"
    return (
        len(password) >= 8
        and any(c.islower() for c in password)
        and any(c.isupper() for c in password)
        and any(c.isdigit() for c in password)
    )
"""

# Broken copies of validate.py: a username check without its length limits,
# and a password check that forgets the digit.
BROKEN_VALIDATES = {
    "is_valid_username() (no length limits)":
        VALIDATE.replace("if not 3 <= len(name) <= 12:", "if not name:"),
    "is_strong_password() (no digit needed)":
        VALIDATE.replace("        and any(c.isdigit() for c in password)\n", ""),
}

LINECOUNT = """\
import sys


def main(argv):
    with open(argv[1]) as f:
        text = f.read()
    print(len(text.splitlines()))


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_median_fix(work):
    return fixed(work, "scores.py", "from scores import mean, median; "
                                    "assert median([1, 2, 3, 4, 5, 6]) == 3.5, median([1, 2, 3, 4, 5, 6]); "
                                    "assert median([9, 1]) == 5, median([9, 1]); "
                                    "assert median([7]) == 7, median([7]); "
                                    "assert median([3, 9, 1]) == 3 and mean([2, 4]) == 3")


def judge_add_done(work):
    ok, out = probe(work, """
        from todo import TodoList
        todo = TodoList()
        assert todo.add("milk") == 1 and todo.add("bread") == 2 and todo.add("eggs") == 3
        assert todo.done(1) == "bread", "done(1) gave %r" % (todo.done(1),)
    """)
    if not ok:
        # done(1) may count from 1: accept either, consistently.
        ok1, out1 = probe(work, """
            from todo import TodoList
            todo = TodoList()
            for thing in ("milk", "bread", "eggs"):
                todo.add(thing)
            assert todo.done(1) == "milk", todo.done
            assert todo.items() == ["bread", "eggs"], todo.items()
        """)
        return ok1, "done() counts from 1 and removes the item" if ok1 else out
    ok, out = probe(work, """
        from todo import TodoList
        todo = TodoList()
        for thing in ("milk", "bread", "eggs"):
            todo.add(thing)
        assert todo.done(1) == "bread"
        assert todo.items() == ["milk", "eggs"], todo.items()
        assert todo.done(0) == "milk" and todo.items() == ["eggs"], todo.items()
    """)
    return ok, "done() removes the item and returns it; add and items still work" if ok else out


def judge_validate_tests(work):
    for what, broken in BROKEN_VALIDATES.items():
        ok, why = tests_that_test(work, "validate.py", broken, what)
        if ok or "still pass with a broken" not in why:
            return ok, why
    return False, "the tests still pass with either broken copy of validate.py: they test nothing"


def judge_count_words(work):
    text = "the cat sat\non the mat\n\nend\n"
    (work.parent / "story.txt").write_text(text)
    path = str(work.parent / "story.txt")
    code, out = py(["count.py", path], work)
    if code != 0 or out.split() != ["4"]:
        return False, f"`count.py story.txt` printed {out.strip()[:60]!r}, not 4"
    for args in (["--words", path], [path, "--words"]):
        code, out = py(["count.py", *args], work)
        if code == 0 and out.split() == ["7"]:
            return True, "count.py counts lines, and words with --words"
    return False, f"`count.py --words story.txt` printed {out.strip()[:60]!r}, not 7"


def judge_wordplay(work):
    return package_tested(work, "wordplay", """
        from wordplay import is_anagram, reverse_words
        assert is_anagram("listen", "silent") and is_anagram("Dormitory", "dirtyroom")
        assert not is_anagram("apple", "paper") and not is_anagram("ab", "abb")
        assert reverse_words("one two three") == "three two one", reverse_words("one two three")
        assert reverse_words("solo") == "solo"
    """)


def judge_parity(work):
    want = {"7": "odd", "10": "even", "0": "even", "-3": "odd", "1": "odd", "128": "even"}
    for path in [p for p in sources(work) if not is_test(p)]:
        rel = str(path.relative_to(work))
        for number, word in want.items():
            code, out = py([rel, number], work)
            words = re.findall(r"[a-z]+", out.lower())
            if code != 0 or word not in words or ({"even", "odd"} - {word}) & set(words):
                break
        else:
            return True, f"{rel} says odd for 7 and -3, even for 10 and 0"
    return False, "no parity.py that says odd or even for the number it is given (7 -> odd)"


# The twelfth batch (session of 2026-12-07 17:50), written before any run of
# it: a package with its tests in tests/, a function added beside tests that
# must keep passing, unittest tests of a class with state, an option with a
# value, a new program, a new package.
SHIPPING = """\
def shipping_cost(weight_kg, express=False):
    \"\"\"5.00 up to 1 kg, then 2.50 for each further kg or part of one; express doubles it.\"\"\"
    if weight_kg <= 1:
        cost = 5.0
    else:
        extra = int(weight_kg - 1)
        cost = 5.0 + 2.5 * extra
    if express:
        cost *= 2
    return round(cost, 2)
"""

TEST_SHIPPING = """\
from shop.shipping import shipping_cost


def test_light_parcel():
    assert shipping_cost(0.5) == 5.0


def test_two_kg():
    assert shipping_cost(2) == 7.5


def test_part_of_a_kg_counts_whole():
    assert shipping_cost(2.2) == 10.0


def test_express_doubles():
    assert shipping_cost(1, express=True) == 10.0
"""

AVG_WORDS = """\
def word_count(text):
    \"\"\"How many words the text has.\"\"\"
    return len(text.split())


def longest_word(text):
    \"\"\"The longest word of the text, the first of equals; '' for no words.\"\"\"
    longest = ""
    for word in text.split():
        if len(word) > len(longest):
            longest = word
    return longest
"""

TEST_AVG_WORDS = """\
from words import longest_word, word_count


def test_word_count():
    assert word_count("a b c") == 3
    assert word_count("") == 0


def test_longest_word():
    assert longest_word("a bbb cc") == "bbb"
    assert longest_word("") == ""
"""

RING = """\
class RingBuffer:
    \"\"\"At most `capacity` items; pushing onto a full buffer drops the oldest.\"\"\"

    def __init__(self, capacity):
        if capacity < 1:
            raise ValueError("capacity must be at least 1")
        self.capacity = capacity
        self.items = []

    def push(self, item):
        if len(self.items) == self.capacity:
            self.items.pop(0)
        self.items.append(item)

    def pop(self):
        \"\"\"The oldest item, taken off; IndexError when empty.\"\"\"
        if not self.items:
            raise IndexError("pop from an empty RingBuffer")
        return self.items.pop(0)

    def __len__(self):
        return len(self.items)
"""

BROKEN_RINGS = {
    "pop() (it takes the newest)": RING.replace("return self.items.pop(0)", "return self.items.pop()"),
    "push() on a full buffer (it drops the new item)": RING.replace(
        "            self.items.pop(0)\n        self.items.append(item)",
        "            return\n        self.items.append(item)"),
}

COLUMNS = """\
import sys


def main(argv):
    with open(argv[1]) as f:
        for line in f:
            fields = line.split()
            if fields:
                print(fields[0])


if __name__ == "__main__":
    main(sys.argv)
"""


def judge_shipping_fix(work):
    return fixed(work, "shop/shipping.py", "from shop.shipping import shipping_cost as c; "
                                           "assert c(3) == 10.0, c(3); assert c(3.5) == 12.5, c(3.5); "
                                           "assert c(2.2, express=True) == 20.0, c(2.2, express=True); "
                                           "assert c(1) == 5.0 and c(0.1) == 5.0")


def judge_add_average_word(work):
    ok, out = probe(work, """
        from words import average_word_length as a, longest_word, word_count
        assert a("hi there") == 3.5, a("hi there")
        assert a("a bb ccc") == 2.0, a("a bb ccc")
        assert a("") == 0 and a("   ") == 0, (a(""), a("   "))
        assert a("one two four") == 3.33, a("one two four")
        assert word_count("x y") == 2 and longest_word("ab abc") == "abc"
    """)
    if not ok:
        return False, f"average_word_length is wrong: {out[-80:]}"
    ok, line = pytest(work)
    return ok, line if ok else f"pytest fails: {line}"


def judge_ring_tests(work):
    for what, broken in BROKEN_RINGS.items():
        ok, why = tests_that_test(work, "ringbuffer.py", broken, what)
        if ok or "still pass with a broken" not in why:
            return ok, why
    return False, "the tests still pass with either broken copy of ringbuffer.py: they test nothing"


def judge_columns_field(work):
    text = "alice 30 paris\nbob 25 rome\n\ncarol 41 oslo\n"
    (work.parent / "people.txt").write_text(text)
    path = str(work.parent / "people.txt")
    code, out = py(["columns.py", path], work)
    if code != 0 or out.split() != ["alice", "bob", "carol"]:
        return False, f"`columns.py people.txt` printed {out.strip()[:60]!r}, not the names"
    for args in (["--field", "2", path], [path, "--field", "2"], ["--field=2", path]):
        code, out = py(["columns.py", *args], work)
        if code == 0 and out.split() == ["30", "25", "41"]:
            code, out = py(["columns.py", "--field", "3", path], work)
            if code == 0 and out.split() == ["paris", "rome", "oslo"]:
                return True, "columns.py prints the first field, and the field --field names"
            return False, f"`columns.py --field 3 people.txt` printed {out.strip()[:60]!r}"
    return False, f"`columns.py --field 2 people.txt` printed {out.strip()[:60]!r}, not the ages"


def judge_acronym(work):
    want = {("portable", "network", "graphics"): "PNG", ("as", "soon", "as", "possible"): "ASAP",
            ("Hyper", "text"): "HT"}
    for path in [p for p in sources(work) if not is_test(p)]:
        rel = str(path.relative_to(work))
        for words, acronym in want.items():
            code, out = py([rel, *words], work)
            if code != 0 or out.strip() != acronym:
                break
        else:
            return True, f"{rel} prints PNG, ASAP and HT"
    return False, "no acronym.py that prints PNG for `portable network graphics`"


def judge_dates_package(work):
    return package_tested(work, "calendar_tools", """
        from calendar_tools import is_leap, days_in_month
        assert is_leap(2024) and is_leap(2000) and not is_leap(1900) and not is_leap(2023)
        assert days_in_month(2024, 2) == 29 and days_in_month(2023, 2) == 28
        assert days_in_month(2023, 4) == 30 and days_in_month(2023, 12) == 31
    """)

# The thirteenth batch (session of 2026-12-07 20:56), written before any run
# of it: a bug at a boundary, a function added beside a module and its tests,
# pytest tests of functions over lists of lists, an option added to a program
# that prints, a new program of one argument, a new package with its tests.
STOCK = """\
def add_stock(stock, item, qty):
    \"\"\"Puts qty more of item in the stock dict; returns how many there are now.\"\"\"
    stock[item] = stock.get(item, 0) + qty
    return stock[item]


def remove_stock(stock, item, qty):
    \"\"\"Takes qty of item out of the stock; ValueError when fewer than qty are there.\"\"\"
    have = stock.get(item, 0)
    if have <= qty:
        raise ValueError(f"only {have} {item} left")
    stock[item] = have - qty
    return stock[item]
"""

TEST_STOCK = """\
import pytest

from stock import add_stock, remove_stock


def test_add_new_item():
    stock = {}
    assert add_stock(stock, "pen", 4) == 4


def test_remove_some():
    stock = {"pen": 5}
    assert remove_stock(stock, "pen", 2) == 3


def test_remove_everything():
    stock = {"pen": 3}
    assert remove_stock(stock, "pen", 3) == 0


def test_remove_too_many():
    with pytest.raises(ValueError):
        remove_stock({"pen": 1}, "pen", 2)
"""

NAMES = """\
def full_name(first, last):
    \"\"\"First and last name, each capitalized, with one space between.\"\"\"
    return f"{first.capitalize()} {last.capitalize()}"
"""

TEST_NAMES = """\
from names import full_name


def test_full_name():
    assert full_name("ada", "lovelace") == "Ada Lovelace"
"""

GRID = """\
def transpose(rows):
    \"\"\"The columns of a list of equal-length rows, as rows.\"\"\"
    if not rows:
        return []
    return [[row[i] for row in rows] for i in range(len(rows[0]))]


def flatten(rows):
    \"\"\"All the items of the rows, in order, as one list.\"\"\"
    out = []
    for row in rows:
        out.extend(row)
    return out
"""

BROKEN_GRIDS = {
    "transpose() (it gives the rows back)": GRID.replace(
        "return [[row[i] for row in rows] for i in range(len(rows[0]))]", "return [list(r) for r in rows]"),
    "flatten() (it drops the last row)": GRID.replace("for row in rows:\n        out.extend",
                                                      "for row in rows[:-1]:\n        out.extend"),
}

BANNER = """\
import sys


def banner(text):
    line = "*" * (len(text) + 4)
    return f"{line}\\n* {text} *\\n{line}"


if __name__ == "__main__":
    print(banner(" ".join(sys.argv[1:])))
"""


def judge_stock_fix(work):
    return fixed(work, "stock.py", "from stock import add_stock, remove_stock as r; s = {'a': 2}; "
                                   "assert r(s, 'a', 2) == 0 and s['a'] == 0; s = {'a': 5}; "
                                   "assert r(s, 'a', 1) == 4\n"
                                   "try:\n    r({'a': 1}, 'a', 2)\nexcept ValueError:\n    pass\n"
                                   "else:\n    raise SystemExit('no ValueError for too many')\n"
                                   "assert add_stock({}, 'b', 2) == 2")


def judge_add_initials(work):
    ok, out = probe(work, """
        from names import initials, full_name
        assert initials("ada lovelace") == "A.L.", initials("ada lovelace")
        assert initials("Grace Brewster Hopper") == "G.B.H.", initials("Grace Brewster Hopper")
        assert initials("bob") == "B.", initials("bob")
        assert full_name("alan", "turing") == "Alan Turing"
    """)
    if not ok:
        return False, f"initials is wrong: {out[-80:]}"
    ok, line = pytest(work)
    return ok, line if ok else f"pytest fails: {line}"


def judge_grid_tests(work):
    for what, broken in BROKEN_GRIDS.items():
        ok, why = tests_that_test(work, "grid.py", broken, what)
        if not ok:
            return ok, why
    return True, "the tests fail on a broken transpose() and on a broken flatten()"


def judge_banner_char(work):
    plain = "*****\n* x *\n*****"
    code, out = py(["banner.py", "x"], work)
    if code != 0 or out.strip() != plain:
        return False, f"`banner.py x` printed {out.strip()[:60]!r}, not as before"
    want = plain.replace("*", "#")
    for args in (["--char", "#", "x"], ["x", "--char", "#"], ["--char=#", "x"]):
        code, out = py(["banner.py", *args], work)
        if code == 0 and out.strip() == want:
            return True, "banner.py frames with * and with the --char it is given"
    return False, f"`banner.py --char # x` printed {out.strip()[:60]!r}"


def judge_run_length(work):
    want = {"aaabcc": "a3b1c2", "x": "x1", "zzzz": "z4", "abab": "a1b1a1b1"}
    for path in [p for p in sources(work) if not is_test(p)]:
        rel = str(path.relative_to(work))
        for word, code_ in want.items():
            code, out = py([rel, word], work)
            if code != 0 or out.strip() != code_:
                break
        else:
            return True, f"{rel} prints a3b1c2 for aaabcc"
    return False, "no program that prints a3b1c2 for `aaabcc`"


def judge_pricing_package(work):
    return package_tested(work, "pricing", """
        from pricing import to_cents, format_cents
        assert to_cents("3.50") == 350 and to_cents("0.05") == 5 and to_cents("12") == 1200, to_cents("3.50")
        assert to_cents("1.15") == 115 and to_cents("0.29") == 29, (to_cents("1.15"), to_cents("0.29"))
        assert format_cents(350) == "$3.50" and format_cents(5) == "$0.05", format_cents(5)
        assert format_cents(1200) == "$12.00", format_cents(1200)
    """)


# The fourteenth batch (session of 2026-12-07 23:47), written before any run
# of it: a bug in a class's method, a function added to a module with tests,
# pytest tests of functions over a list of numbers, an option with a value
# that filters what a program prints, a new program of one argument, a new
# package with its tests.
PLAYLIST = """\
class Playlist:
    \"\"\"Songs played in order; after the last song it starts again.\"\"\"

    def __init__(self, songs):
        self.songs = list(songs)
        self.position = 0

    def current(self):
        return self.songs[self.position]

    def skip(self, count=1):
        \"\"\"Moves count songs on, going round to the start; returns the song now playing.\"\"\"
        self.position = (self.position + count) % (len(self.songs) - 1)
        return self.current()
"""

TEST_PLAYLIST = """\
from playlist import Playlist


def test_starts_at_first():
    assert Playlist(["a", "b", "c"]).current() == "a"


def test_skip_one():
    assert Playlist(["a", "b", "c"]).skip() == "b"


def test_skip_goes_round():
    playlist = Playlist(["a", "b", "c"])
    assert playlist.skip(3) == "a"
    assert playlist.skip(4) == "b"
"""

TEXTFMT = """\
def center(text, width):
    \"\"\"The text centred in a line of width characters, padded with spaces.\"\"\"
    return text.center(width)
"""

TEST_TEXTFMT = """\
from textfmt import center


def test_center():
    assert center("ab", 6) == "  ab  "
"""

TEMPS = """\
def hottest(readings):
    \"\"\"The highest of the readings.\"\"\"
    best = readings[0]
    for value in readings[1:]:
        if value > best:
            best = value
    return best


def above(readings, limit):
    \"\"\"How many readings are higher than limit.\"\"\"
    return sum(1 for value in readings if value > limit)
"""

BROKEN_TEMPS = {
    "hottest() (it returns the first reading)": TEMPS.replace("            best = value", "            pass"),
    "above() (it counts readings equal to the limit)": TEMPS.replace("if value > limit)", "if value >= limit)"),
}

GREP_LINES = """\
import sys


def main(argv):
    with open(argv[0]) as f:
        for line in f:
            print(line, end="")


if __name__ == "__main__":
    main(sys.argv[1:])
"""


def judge_playlist_fix(work):
    return fixed(work, "playlist.py", """
        from playlist import Playlist
        p = Playlist(["a", "b"])
        assert p.skip() == "b" and p.skip() == "a", "two songs do not go round"
        p = Playlist(["x", "y", "z", "w"])
        assert p.skip(2) == "z" and p.skip(2) == "x" and p.skip(5) == "y"
        assert Playlist(["solo"]).skip(3) == "solo"
    """)


def judge_add_wrap(work):
    ok, out = probe(work, """
        from textfmt import wrap, center
        assert wrap("a bb ccc", 4) == ["a bb", "ccc"], wrap("a bb ccc", 4)
        assert wrap("one two three four", 9) == ["one two", "three", "four"], wrap("one two three four", 9)
        assert wrap("hi", 10) == ["hi"], wrap("hi", 10)
        assert wrap("aa bb cc dd", 5) == ["aa bb", "cc dd"], wrap("aa bb cc dd", 5)
        assert center("ab", 6) == "  ab  "
    """)
    if not ok:
        return False, f"wrap is wrong: {out[-80:]}"
    ok, line = pytest(work)
    return ok, line if ok else f"pytest fails: {line}"


def judge_temps_tests(work):
    for what, broken in BROKEN_TEMPS.items():
        ok, why = tests_that_test(work, "temps.py", broken, what)
        if not ok:
            return ok, why
    return True, "the tests fail on a broken hottest() and on a broken above()"


def judge_grep_lines(work):
    (work / "judge_in.txt").write_text("apple pie\nbanana\ncrab apple\ncherry\n")
    try:
        code, out = py(["lines.py", "judge_in.txt"], work)
        if code != 0 or out.splitlines() != ["apple pie", "banana", "crab apple", "cherry"]:
            return False, f"`lines.py FILE` printed {out[:60]!r}, not the file as before"
        for args in (["--match", "apple", "judge_in.txt"], ["judge_in.txt", "--match", "apple"],
                     ["--match=apple", "judge_in.txt"]):
            code, out = py(["lines.py", *args], work)
            if code == 0 and out.splitlines() == ["apple pie", "crab apple"]:
                return True, "lines.py prints every line, and with --match only the matching ones"
        return False, f"`lines.py --match apple FILE` printed {out[:60]!r}"
    finally:
        (work / "judge_in.txt").unlink(missing_ok=True)


def judge_digit_sum(work):
    want = {"1234": "10", "7": "7", "909": "18", "0": "0"}
    for path in [p for p in sources(work) if not is_test(p)]:
        rel = str(path.relative_to(work))
        for number, total in want.items():
            code, out = py([rel, number], work)
            if code != 0 or out.strip() != total:
                break
        else:
            return True, f"{rel} prints 10 for 1234"
    return False, "no program that prints 10 for `1234`"


def judge_vectors_package(work):
    return package_tested(work, "vectors", """
        from vectors import dot, norm
        assert dot([1, 2, 3], [4, 5, 6]) == 32, dot([1, 2, 3], [4, 5, 6])
        assert dot([], []) == 0 and dot([2], [-3]) == -6
        assert abs(norm([3, 4]) - 5) < 1e-9, norm([3, 4])
        assert abs(norm([1, 1]) - 2 ** 0.5) < 1e-9 and norm([0, 0]) == 0
    """)


# name: (goal, files at the start, files that must stay the same, judge)
TASKS = {
    "calc-fix": (
        "The tests in test_calc.py fail. Fix the bug in calc.py so that they pass",
        {"calc.py": CALC, "test_calc.py": TEST_CALC},
        ["test_calc.py"],
        judge_calc_fix,
    ),
    "add-function": (
        "Add a function count_vowels(text) to textutil.py that returns how many vowels the text has",
        {"textutil.py": TEXTUTIL},
        [],
        judge_add_function,
    ),
    "add-tests": (
        "Add pytest tests for the Inventory class in inventory.py",
        {"inventory.py": INVENTORY},
        ["inventory.py"],
        judge_add_tests,
    ),
    "cli-flag": (
        "Change greet.py so that it takes an optional --shout flag that prints the greeting in capitals",
        {"greet.py": GREET},
        [],
        judge_cli_flag,
    ),
    "cli-chars": (
        "Give count.py a --chars flag: with it, the script prints the number of characters of "
        "its text instead of the number of words",
        {"count.py": COUNT},
        [],
        judge_cli_chars,
    ),
    "existing-hello": (
        "Write a hello world script",
        {"hello_world.py": HELLO_WORLD},
        [],
        judge_hello,
    ),
    "package": (
        "Create a mathx package with add and mul functions and pytest tests",
        {},
        [],
        judge_package,
    ),
    "fizzbuzz": (
        "Write fizzbuzz.py with a function fizzbuzz(n) that returns 'Fizz' for multiples of 3, "
        "'Buzz' for multiples of 5, 'FizzBuzz' for multiples of both and the number as a string "
        "otherwise; add pytest tests for it",
        {},
        [],
        judge_fizzbuzz,
    ),
    "word-count": (
        "Write a script word_count.py that prints the number of words in the file given as its argument",
        {},
        [],
        judge_word_count,
    ),
    # Tasks of the suite's kinds in other words, left out of `--goals
    # suite` (so that its figures stay comparable) and run by name or as
    # `--goals others`: what a rule fitted to one task's words would fail.
    "stats-fix": (
        "pytest fails on test_stats.py. Find the bug in stats.py and fix it",
        {"stats.py": STATS, "test_stats.py": TEST_STATS},
        ["test_stats.py"],
        judge_stats_fix,
    ),
    "add-palindrome": (
        "In strutil.py, add is_palindrome(word). It returns True when the word reads the same "
        "backwards, ignoring case, and False otherwise",
        {"strutil.py": STRUTIL},
        [],
        judge_add_palindrome,
    ),
    "stack-tests": (
        "Write tests with pytest for the Stack class of stack.py",
        {"stack.py": STACK},
        ["stack.py"],
        judge_stack_tests,
    ),
    "geometry": (
        "Make a Python package named geometry with functions area(width, height) and "
        "perimeter(width, height), tested with pytest",
        {},
        [],
        judge_geometry,
    ),
    "leap": (
        "Create leap.py containing is_leap(year), which returns True for leap years and False "
        "otherwise, with pytest tests",
        {},
        [],
        judge_leap,
    ),
    "line-count": (
        "Create a program line_count.py that takes a file name as its argument and prints how "
        "many lines the file has",
        {},
        [],
        judge_line_count,
    ),
    "temp-fix": (
        "Running pytest shows a failing test for convert.py. Correct the code so that the whole "
        "test suite passes",
        {"convert.py": TEMP_CONVERT, "test_convert.py": TEST_CONVERT},
        ["test_convert.py"],
        judge_temp_fix,
    ),
    "add-method": (
        "Add a perimeter() method to the Rectangle class in shapes.py",
        {"shapes.py": SHAPES},
        [],
        judge_add_method,
    ),
    "bank-tests": (
        "Cover the Account class in bank.py with pytest unit tests",
        {"bank.py": BANK},
        ["bank.py"],
        judge_bank_tests,
    ),
    "echo-reverse": (
        "Extend echo.py with a --reverse option; when it is given the words are printed in reverse order",
        {"echo.py": ECHO},
        [],
        judge_echo_reverse,
    ),
    "strtools": (
        "Build a Python package strtools that exposes first_upper(s), which capitalizes the first "
        "letter, and count_words(s) from its top level, with tests written for pytest",
        {},
        [],
        judge_strtools,
    ),
    "greets": (
        "Make a small Python program that greets the world",
        {},
        [],
        judge_greets,
    ),
    "sum-numbers": (
        "I need sum_numbers.py: it reads the file named on the command line, one number per line, "
        "and prints the total",
        {},
        [],
        judge_sum_numbers,
    ),
    "wordfreq-fix": (
        "Some tests under tests/ are red. Repair wordfreq.py so the project's test suite is green again",
        {"wordfreq.py": WORDFREQ, "tests/test_wordfreq.py": TEST_WORDFREQ,
         "pyproject.toml": PYPROJECT_WORDFREQ},
        ["tests/test_wordfreq.py", "pyproject.toml"],
        judge_wordfreq_fix,
    ),
    "add-factorial": (
        "numutil.py should also offer factorial(n), which returns n! (factorial(0) is 1)",
        {"numutil.py": NUMUTIL},
        [],
        judge_add_factorial,
    ),
    "slug-tests": (
        "slug.py has no tests yet. Write some for its functions using pytest",
        {"slug.py": SLUG},
        ["slug.py"],
        judge_slug_tests,
    ),
    "repeat-times": (
        "Let repeat.py accept a --times N option that prints the message N times, one per line "
        "(once when the option is absent)",
        {"repeat.py": REPEAT},
        [],
        judge_repeat_times,
    ),
    "textkit": (
        "Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); "
        "include pytest tests",
        {},
        [],
        judge_textkit,
    ),
    "countdown": (
        "Write countdown.py: given a number as its argument, it prints the numbers from there down "
        "to 1, one per line",
        {},
        [],
        judge_countdown,
    ),
    "cart-fix": (
        "test_cart.py has a failing case. Track down the mistake in cart.py and correct it; the tests "
        "are right",
        {"cart.py": CART, "test_cart.py": TEST_CART},
        ["test_cart.py"],
        judge_cart_fix,
    ),
    "add-dedupe": (
        "listutil.py needs a dedupe(items) that drops repeated items but keeps the order in which "
        "they first appear",
        {"listutil.py": LISTUTIL},
        [],
        judge_add_dedupe,
    ),
    "roman-tests": (
        "Nothing tests roman.py. Add a pytest test module that checks to_roman",
        {"roman.py": ROMAN},
        ["roman.py"],
        judge_roman_tests,
    ),
    "sumargs-avg": (
        "Teach sumargs.py an --avg switch: with it, the script prints the average of the numbers "
        "instead of their sum",
        {"sumargs.py": SUMARGS},
        [],
        judge_sumargs_avg,
    ),
    "units": (
        "Make a Python package named units offering km_to_miles(km) and miles_to_km(miles), both "
        "importable straight from units, with pytest tests",
        {},
        [],
        judge_units,
    ),
    "primes": (
        "Write primes.py that prints every prime number up to the number given on the command line",
        {},
        [],
        judge_primes,
    ),
    "grades-fix": (
        "pytest reports a failure in test_grades.py. Find what is wrong in grades.py and repair it "
        "without changing the tests",
        {"grades.py": GRADES, "test_grades.py": TEST_GRADES},
        ["test_grades.py"],
        judge_grades_fix,
    ),
    "add-duration": (
        "Give timeutil.py a format_duration(seconds) that returns the time as H:MM:SS, for example "
        "3725 gives 1:02:05",
        {"timeutil.py": TIMEUTIL},
        [],
        judge_add_duration,
    ),
    "textstats-tests": (
        "Write pytest tests covering the functions in textstats.py",
        {"textstats.py": TEXTSTATS},
        ["textstats.py"],
        judge_textstats_tests,
    ),
    "head-lines": (
        "Add a -n option to head.py so that it prints the first N lines of the file instead of only "
        "the first one",
        {"head.py": HEAD},
        [],
        judge_head_lines,
    ),
    "textcase": (
        "Build a Python package textcase that exposes snake(s) and kebab(s) at its top level "
        "(snake('Hello World') gives 'hello_world', kebab gives 'hello-world'), and test it with "
        "pytest",
        {},
        [],
        judge_textcase,
    ),
    "times-table": (
        "Write table.py, which prints the multiplication table of the number it is given: from 1 "
        "times it up to 10 times it, one line each",
        {},
        [],
        judge_times_table,
    ),
    "money-fix": (
        "The test suite of this project is failing. Figure out what is wrong in money.py and fix "
        "it; leave the tests alone",
        {"money.py": MONEY, "test_money.py": TEST_MONEY},
        ["test_money.py"],
        judge_money_fix,
    ),
    "add-lengths": (
        "wordutil.py: add word_lengths(text), giving the length of each word of the text as a "
        "list, so word_lengths('a bb ccc') returns [1, 2, 3]",
        {"wordutil.py": WORDUTIL},
        [],
        judge_add_lengths,
    ),
    "tally-tests": (
        "I'd like pytest tests for tally.py's Tally class",
        {"tally.py": TALLY},
        ["tally.py"],
        judge_tally_tests,
    ),
    "join-sep": (
        "join.py joins its arguments with spaces. Add a --sep option whose value is the text put "
        "between them instead",
        {"join.py": JOIN},
        [],
        judge_join_sep,
    ),
    "mathkit": (
        "Create a Python package mathkit providing gcd(a, b) and lcm(a, b), both importable from "
        "mathkit itself, and cover them with pytest tests",
        {},
        [],
        judge_mathkit,
    ),
    "vowels": (
        "Write vowels.py, a program that reads one line from standard input and prints how many "
        "vowels it contains",
        {},
        [],
        judge_vowels,
    ),
    "discount-fix": (
        "Some tests in test_discount.py don't pass. Correct discount.py so that they do, without "
        "editing the test file",
        {"discount.py": DISCOUNT, "test_discount.py": TEST_DISCOUNT},
        ["test_discount.py"],
        judge_discount_fix,
    ),
    "add-next-day": (
        "In week.py, add a function next_day(day) that returns the name of the day after the given "
        "one; after Sunday comes Monday",
        {"week.py": WEEK},
        [],
        judge_add_next_day,
    ),
    "convert-tests": (
        "convert.py has no tests yet. Write some with pytest",
        {"convert.py": CONVERT},
        ["convert.py"],
        judge_convert_tests,
    ),
    "greet-shout": (
        "Give greet.py a --shout flag: with it, the greeting is printed in capital letters",
        {"greet.py": GREET},
        [],
        judge_greet_shout,
    ),
    "distance": (
        "Make a Python package called distance with km_to_miles(km) and miles_to_km(miles), "
        "importable as `from distance import km_to_miles, miles_to_km`, plus pytest tests",
        {},
        [],
        judge_distance,
    ),
    "longest": (
        "Write longest.py: given the name of a text file as its argument, it prints the longest "
        "line in that file",
        {},
        [],
        judge_longest,
    ),
    "words-fix": (
        "pytest reports failures in this project. Find the bug in words.py and repair it; the tests "
        "are right",
        {"words.py": WORDS, "test_words.py": TEST_WORDS},
        ["test_words.py"],
        judge_words_fix,
    ),
    "add-oldest": (
        "people.py needs one more function: oldest(people), giving the name of the oldest person "
        "in the list",
        {"people.py": PEOPLE},
        [],
        judge_add_oldest,
    ),
    "timeparse-tests": (
        "Cover timeparse.py with pytest tests, including the inputs it rejects",
        {"timeparse.py": TIMEPARSE},
        ["timeparse.py"],
        judge_timeparse_tests,
    ),
    "show-numbers": (
        "show.py prints a file. Add a -n option so that it numbers the lines it prints",
        {"show.py": SHOW},
        [],
        judge_show_numbers,
    ),
    "kelvin": (
        "I need to_kelvin(celsius) and from_kelvin(kelvin) in a Python package; the package is "
        "to be named kelvin and tested with pytest",
        {},
        [],
        judge_kelvin,
    ),
    "power": (
        "Write power.py: it takes two numbers as command-line arguments and prints the first "
        "raised to the power of the second",
        {},
        [],
        judge_power,
    ),
    "ranges-fix": (
        "A test in this folder fails. Track down the mistake in ranges.py and correct "
        "it without touching the tests",
        {"ranges.py": RANGES, "test_ranges.py": TEST_RANGES},
        ["test_ranges.py"],
        judge_ranges_fix,
    ),
    "add-ranking": (
        "Add ranking(scores) to scores.py. scores is a dict of name to score; ranking gives the "
        "names ordered from the highest score to the lowest",
        {"scores.py": SCORES},
        [],
        judge_add_ranking,
    ),
    "bounds-tests": (
        "bounds.py has no tests yet. Write pytest tests for clamp, the error case included",
        {"bounds.py": BOUNDS},
        ["bounds.py"],
        judge_bounds_tests,
    ),
    "welcome-many": (
        "welcome.py welcomes one person. Change it so that it welcomes every name given on the "
        "command line, each on its own line",
        {"welcome.py": WELCOME},
        [],
        judge_welcome_many,
    ),
    "bits": (
        "Create a Python package bits with is_even(n) and is_odd(n), both importable from the "
        "package itself (from bits import is_even), plus pytest tests",
        {},
        [],
        judge_bits,
    ),
    "biggest": (
        "Write biggest.py, which reads numbers from standard input, one per line, and prints the "
        "largest of them",
        {},
        [],
        judge_biggest,
    ),
    "pages-fix": (
        "test_pages.py doesn't pass: pages.py gets one case wrong. Fix pages.py and leave the "
        "test file as it is",
        {"pages.py": PAGES, "test_pages.py": TEST_PAGES},
        ["test_pages.py"],
        judge_pages_fix,
    ),
    "add-hex": (
        "colors.py turns RGB values into hex codes. Add hex_to_rgb(code) that does the opposite: "
        "hex_to_rgb('#ff8000') returns (255, 128, 0)",
        {"colors.py": COLORS},
        [],
        judge_add_hex,
    ),
    "cipher-tests": (
        "There are no tests for cipher.py. Please write pytest tests for encode and decode",
        {"cipher.py": CIPHER},
        ["cipher.py"],
        judge_cipher_tests,
    ),
    "tip-percent": (
        "tip.py prints a 15% tip for the bill given as its argument. Let it take the tip "
        "percentage as an optional second argument, so that `python tip.py 40 20` prints 8.00; "
        "without it the tip stays 15%",
        {"tip.py": TIP},
        [],
        judge_tip_percent,
    ),
    "series": (
        "Create a Python package named series with fib(n), the nth Fibonacci number (fib(0) is 0 "
        "and fib(1) is 1), and triangle(n), the sum 1 + 2 + ... + n. Both should import straight "
        "from the package (from series import fib, triangle). Add pytest tests",
        {},
        [],
        judge_series,
    ),
    "binary": (
        "Write binary.py: it takes a positive whole number as its argument and prints it in "
        "binary, for example 10 gives 1010",
        {},
        [],
        judge_binary,
    ),
    "median-fix": (
        "pytest reports a failure in test_scores.py. Find the mistake in scores.py and correct "
        "it; the tests themselves are right",
        {"scores.py": SCORES, "test_scores.py": TEST_SCORES},
        ["test_scores.py"],
        judge_median_fix,
    ),
    "add-done": (
        "todo.py has a TodoList class. Give it a method done(index) that takes the item at that "
        "position off the list and returns it",
        {"todo.py": TODO},
        [],
        judge_add_done,
    ),
    "validate-tests": (
        "validate.py has no tests yet. Add pytest tests covering is_valid_username and "
        "is_strong_password",
        {"validate.py": VALIDATE},
        ["validate.py"],
        judge_validate_tests,
    ),
    "count-words": (
        "count.py prints the number of lines in the file named on its command line. Add a "
        "--words option that makes it print the number of words instead",
        {"count.py": LINECOUNT},
        [],
        judge_count_words,
    ),
    "wordplay": (
        "Make a Python package wordplay with is_anagram(a, b), true when the two words use the "
        "same letters ignoring case, and reverse_words(text), the words of the text in reverse "
        "order. `from wordplay import is_anagram, reverse_words` must work. Include pytest tests",
        {},
        [],
        judge_wordplay,
    ),
    "parity": (
        "Create parity.py, which says whether the whole number passed to it is even or odd: "
        "`python3 parity.py 7` prints odd",
        {},
        [],
        judge_parity,
    ),
    "shipping-fix": (
        "Running the tests shows a failure in the shipping prices. Fix shop/shipping.py; the "
        "tests describe the right prices",
        {"shop/__init__.py": "", "shop/shipping.py": SHIPPING,
         "tests/test_shipping.py": TEST_SHIPPING, "conftest.py": ""},
        ["tests/test_shipping.py"],
        judge_shipping_fix,
    ),
    "add-average-word": (
        "Add average_word_length(text) to words.py: the mean length of the words rounded to 2 "
        "decimals, and 0 when the text has no words. The existing tests must keep passing",
        {"words.py": AVG_WORDS, "test_words.py": TEST_AVG_WORDS},
        ["test_words.py"],
        judge_add_average_word,
    ),
    "ring-tests": (
        "Write unit tests for the RingBuffer class in ringbuffer.py, using unittest",
        {"ringbuffer.py": RING},
        ["ringbuffer.py"],
        judge_ring_tests,
    ),
    "columns-field": (
        "columns.py prints the first field of every line of a file. Add a --field N option to "
        "choose which field to print, counting from 1; without the option it prints the first "
        "as before",
        {"columns.py": COLUMNS},
        [],
        judge_columns_field,
    ),
    "acronym": (
        "Write acronym.py that prints the acronym of the words given on the command line: "
        "`python3 acronym.py portable network graphics` prints PNG",
        {},
        [],
        judge_acronym,
    ),
    "dates-package": (
        "Make a package calendar_tools with is_leap(year) and days_in_month(year, month), so "
        "that `from calendar_tools import is_leap, days_in_month` works, and test it with pytest",
        {},
        [],
        judge_dates_package,
    ),
    "stock-fix": (
        "pytest reports a failing test in test_stock.py. Find the mistake in stock.py and "
        "correct it, leaving the tests as they are",
        {"stock.py": STOCK, "test_stock.py": TEST_STOCK},
        ["test_stock.py"],
        judge_stock_fix,
    ),
    "add-initials": (
        "names.py needs a function initials(name) that gives the first letter of each word of "
        "the name in upper case, each followed by a dot: initials('ada lovelace') is 'A.L.'. "
        "The tests that are there must still pass",
        {"names.py": NAMES, "test_names.py": TEST_NAMES},
        ["test_names.py"],
        judge_add_initials,
    ),
    "grid-tests": (
        "Add pytest tests for the functions in grid.py",
        {"grid.py": GRID},
        ["grid.py"],
        judge_grid_tests,
    ),
    "banner-char": (
        "banner.py prints its arguments framed by asterisks. Give it a --char option to frame "
        "them with another character instead; without the option it frames with * as now",
        {"banner.py": BANNER},
        [],
        judge_banner_char,
    ),
    "run-length": (
        "Write a program rle.py that prints the run-length encoding of the word given as its "
        "argument, each letter followed by how many times it repeats: `python3 rle.py aaabcc` "
        "prints a3b1c2",
        {},
        [],
        judge_run_length,
    ),
    "pricing-package": (
        "Create a Python package named pricing with to_cents(text), which turns a price like "
        "'3.50' into the whole number of cents 350, and format_cents(cents), which turns 350 "
        "back into '$3.50'; `from pricing import to_cents, format_cents` must work. Add pytest "
        "tests",
        {},
        [],
        judge_pricing_package,
    ),
    "playlist-fix": (
        "A test in test_playlist.py fails. Repair the Playlist class in playlist.py; do not "
        "change the tests",
        {"playlist.py": PLAYLIST, "test_playlist.py": TEST_PLAYLIST},
        ["test_playlist.py"],
        judge_playlist_fix,
    ),
    "add-wrap": (
        "Add wrap(text, width) to textfmt.py: it breaks the text at spaces into lines of at "
        "most width characters and returns them as a list, so wrap('a bb ccc', 4) is "
        "['a bb', 'ccc']. Keep center as it is",
        {"textfmt.py": TEXTFMT, "test_textfmt.py": TEST_TEXTFMT},
        [],
        judge_add_wrap,
    ),
    "temps-tests": (
        "temps.py has two functions and no tests. Write pytest tests for both",
        {"temps.py": TEMPS},
        ["temps.py"],
        judge_temps_tests,
    ),
    "grep-lines": (
        "lines.py prints every line of the file it is given. Add a --match WORD option: when "
        "it is given, only the lines that contain WORD are printed",
        {"lines.py": GREP_LINES},
        [],
        judge_grep_lines,
    ),
    "digit-sum": (
        "Write digit_sum.py, which prints the sum of the digits of the number given as its "
        "argument; for 1234 it prints 10",
        {},
        [],
        judge_digit_sum,
    ),
    "vectors-package": (
        "Create a package vectors offering dot(a, b), the dot product of two lists of numbers, "
        "and norm(a), the length of a vector (the square root of the sum of squares). Both "
        "must be importable from vectors. Include pytest tests",
        {},
        [],
        judge_vectors_package,
    ),
}

# The tasks of OTHER_WORDS: a suite task's kind in other words.
FRESH = ["temp-fix", "add-method", "bank-tests", "echo-reverse", "strtools", "greets", "sum-numbers"]
# The third batch (session of 2026-11-29 23:54), written before any run of it.
THIRD = ["wordfreq-fix", "add-factorial", "slug-tests", "repeat-times", "textkit", "countdown"]
# The fourth batch (session of 2026-11-30 14:58), written before any run of it.
FOURTH = ["cart-fix", "add-dedupe", "roman-tests", "sumargs-avg", "units", "primes"]
# The fifth batch (session of 2026-11-30 20:54), written before any run of it.
FIFTH = ["grades-fix", "add-duration", "textstats-tests", "head-lines", "textcase", "times-table"]
# The sixth batch (session of 2026-12-01 09:15), written before any run of it.
SIXTH = ["money-fix", "add-lengths", "tally-tests", "join-sep", "mathkit", "vowels"]
# The seventh batch (session of 2026-12-01 15:51), written before any run of it.
SEVENTH = ["discount-fix", "add-next-day", "convert-tests", "greet-shout", "distance", "longest"]
# The eighth batch (session of 2026-12-02 04:06), written before any run of it.
EIGHTH = ["words-fix", "add-oldest", "timeparse-tests", "show-numbers", "kelvin", "power"]
# The ninth batch (session of 2026-12-02 10:30), written before any run of it.
NINTH = ["ranges-fix", "add-ranking", "bounds-tests", "welcome-many", "bits", "biggest"]
# The tenth batch (session of 2026-12-03 06:10), written before any run of it.
TENTH = ["pages-fix", "add-hex", "cipher-tests", "tip-percent", "series", "binary"]
# The eleventh batch (session of 2026-12-06 05:52), written before any run of it.
ELEVENTH = ["median-fix", "add-done", "validate-tests", "count-words", "wordplay", "parity"]
# The twelfth batch (session of 2026-12-07 17:50), written before any run of it.
TWELFTH = ["shipping-fix", "add-average-word", "ring-tests", "columns-field", "acronym",
           "dates-package"]
# The thirteenth batch (session of 2026-12-07 20:56), written before any run of it.
THIRTEENTH = ["stock-fix", "add-initials", "grid-tests", "banner-char", "run-length",
              "pricing-package"]
# The fourteenth batch (session of 2026-12-07 23:47), written before any run of it.
FOURTEENTH = ["playlist-fix", "add-wrap", "temps-tests", "grep-lines", "digit-sum",
              "vectors-package"]
OTHER_WORDS = ["cli-chars", "stats-fix", "add-palindrome", "stack-tests", "geometry", "leap",
               "line-count", *FRESH, *THIRD, *FOURTH, *FIFTH, *SIXTH, *SEVENTH, *EIGHTH, *NINTH,
               *TENTH, *ELEVENTH, *TWELFTH, *THIRTEENTH, *FOURTEENTH]

# What an existing project loses when a goal that did not ask for it is done:
# the names each file defined at the start must still be defined.
def lost_definitions(work, start_files):
    lost = []
    for name, text in start_files.items():
        if not name.endswith(".py"):
            continue
        path = work / name
        if not path.exists():
            lost.append(f"{name} is gone")
            continue
        try:
            before = {n.name for n in ast.parse(text).body if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
            now = {n.name for n in ast.parse(path.read_text(errors="replace")).body
                   if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
        except SyntaxError:
            lost.append(f"{name} no longer parses")
            continue
        for gone in sorted(before - now):
            lost.append(f"{name} lost {gone}")
    return lost


def damage(work, task):
    """Files of the project the goal did not ask to change that changed, and
    definitions lost."""
    _, files, frozen, _ = TASKS[task]
    damaged = [f"{name} changed" for name in frozen
               if not (work / name).exists() or (work / name).read_text(errors="replace") != files[name]]
    return damaged + lost_definitions(work, files)


def prepare(work, task):
    for name, text in TASKS[task][1].items():
        path = Path(work) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
