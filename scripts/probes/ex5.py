import sys, json; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask, TK, CV, SL, PL
cases = [
 (TK, "reverse_words('hello world')", "'dlrow olleh'", False),
 (TK, "reverse_words('hello world')", "'world hello'", True),
 (TK, "reverse_words('hello world')", "'olleh dlrow'", False),
 (CV, "count_vowels('Python')", "1", True),
 (CV, "count_vowels('Python')", "2", False),
 (CV, "count_vowels('hello')", "2", True),
 (SL, "slugify('Hello World')", "'hello-world'", True),
 (SL, "slugify('Hello World')", "'Hello-World'", False),
 (SL, "slugify('Hello World')", "'hello world'", False),
]
sch={"type":"object","properties":{"does":{"type":"string","maxLength":200},"right":{"type":"boolean"}},"required":["does","right"]}
ok=0
for goal, call, value, want in cases:
    q=f"No tool call now. From the GOAL's words alone (not from any code): first say in one sentence what the function does, as its name and the GOAL say; then whether `{call}` returning `{value}` is what the GOAL asks for. Answer with JSON: {{\"does\": \"...\", \"right\": true or false}}"
    r=json.loads(ask(f"GOAL: {goal}\n\n{q}", sch))
    ok += r['right']==want
    print(r['right']==want, call, value, r)
print(ok, len(cases))
