# The runner's two examples questions, each asked after a sentence of what
# the functions do, for goals that name functions and say nothing of what
# they return: each agreed value checked against a right function.
import sys, json, re, ast; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask, names as named, sides
REF = {
 "reverse_words": lambda s: ' '.join(reversed(s.split())),
 "is_blank": lambda s: not s.strip(),
 "first_upper": lambda s: s[:1].upper() + s[1:],
 "count_words": lambda s: len(s.split()),
 "area": lambda w, h: w * h, "perimeter": lambda w, h: 2 * (w + h),
 "capitalize_words": lambda s: ' '.join(w[:1].upper() + w[1:] for w in s.split(' ')),
 "unique": lambda xs: list(dict.fromkeys(xs)),
 "add": lambda a, b: a + b, "mul": lambda a, b: a * b,
 "is_even": lambda n: n % 2 == 0,
 "word_lengths": lambda s: [len(w) for w in s.split()],
}
GOALS = [
 "Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); include pytest tests",
 "Build a Python package strtools that exposes first_upper(s), which capitalizes the first letter, and count_words(s) from its top level, with tests written for pytest",
 "Make a Python package named geometry with functions area(width, height) and perimeter(width, height), tested with pytest",
 "Write a module wordtools.py with reverse_words(text) and capitalize_words(text), plus pytest tests",
 "Add a function unique(items) to listutil.py",
 "Create a mathx package with add(a, b) and mul(a, b) and pytest tests",
 "Write numbers.py with is_even(n) and word_lengths(text)",
]
def sch(k, a, b):
    return {"type": "object", "properties": {"does": {"type": "string", "maxLength": 300},
            k: {"type": "array", "minItems": a, "maxItems": b, "items": {"type": "string", "maxLength": 100}}},
            "required": ["does", k]}
tot = dict(agreed=0, wrong=0)
for g in GOALS:
    ns = named(g, REF); nl = ", ".join(f"`{n}`" for n in ns)
    p1 = (f"No tool call now. From the GOAL's words alone (not from any code): first say in one sentence what {nl} do, "
          f"as their names and the GOAL say; then write Python asserts of what they must return, each one line "
          f"`assert CALL == VALUE`: a call with literal arguments, and the value it returns, as a literal, with "
          f"arguments of several parts where that matters. At most 6. Answer with JSON: {{\"does\": \"...\", \"examples\": [\"...\"]}}")
    r1 = json.loads(ask(f"GOAL: {g}\n\n{p1}", sch("examples", 0, 6)))
    st = []
    for l in r1["examples"]:
        s = sides(l)
        if s and s[0].split('(')[0] in ns and not any(x[0] == s[0] for x in st): st.append(s)
    print(g[:70], "|", r1["does"])
    if not st: print("   NO EXAMPLES", r1); continue
    listed = "".join(f"assert {c} == ...\n" for c, _ in st)
    p2 = (f"No tool call now. From the GOAL's words alone (not from any code): first say in one sentence what {nl} do, "
          f"as their names and the GOAL say; then complete each of these lines with the value the call returns, in place of the `...`:\n"
          f"{listed}Answer with JSON, the completed lines in the same order: {{\"does\": \"...\", \"returns\": [\"...\"]}}")
    r2 = json.loads(ask(f"GOAL: {g}\n\n{p2}", sch("returns", len(st), len(st))))
    for (c, v), l2 in zip(st, r2["returns"]):
        s2 = sides(l2); v2 = s2[1] if s2 else l2
        try: e1 = ast.literal_eval(v); e2 = ast.literal_eval(v2)
        except Exception: print("   unparsable", c, v, v2); continue
        try: ref = eval(c, dict(REF))
        except Exception as e: ref = repr(e)
        mark = ""
        if e1 == e2:
            tot["agreed"] += 1
            if e1 != ref: tot["wrong"] += 1; mark = "WRONG"
        print(f"   {c} -> {v} / {v2}  right={ref!r} {'agree' if e1 == e2 else 'differ'} {mark}")
print(tot)
