import sys; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask
GOALS = {
 "textkit": ("Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); include pytest tests", ["reverse_words","is_blank"]),
 "vowels": ("Add a function count_vowels(text) to textutil.py that returns how many vowels the text has", ["count_vowels"]),
 "slug": ("Write slug.py with a function slugify(title) that turns a title into a URL slug", ["slugify"]),
}
def schema(k,mx=6): return {"type":"object","properties":{k:{"type":"array","minItems":0,"maxItems":mx,"items":{"type":"string","maxLength":100}}},"required":[k]}
V = sys.argv[1]
for name,(goal,names) in GOALS.items():
    ns = ", ".join(f"`{n}`" for n in names)
    if V == "old":
        p = (f"No tool call now. From the GOAL's words alone (not from any code), write Python asserts of what {ns} must return, each one line `assert CALL == VALUE`: a call with literal arguments, and the value the GOAL's words say it returns, as a literal. Only calls whose result the GOAL decides; none when the GOAL does not say what they return. At most 6. Answer with JSON: {{\"examples\": [\"...\"]}}")
    else:
        p = (f"No tool call now. From the GOAL's words alone (not from any code), write Python asserts of what {ns} must return, each one line `assert CALL == VALUE`: a call with literal arguments, and the value the GOAL's words say it returns, as a literal. Only calls whose result the GOAL decides; none when the GOAL does not say what they return. Choose arguments that a wrong reading of the GOAL would get wrong: not the simplest case, but ones with several parts, where each reading gives a different value. At most 6. Answer with JSON: {{\"examples\": [\"...\"]}}")
    print(name, ask(f"GOAL: {goal}\n\n{p}", schema("examples")))
