import sys; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask
cases = [
 ("Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); include pytest tests", "reverse_words('hello world')", "'dlrow olleh'", "'world hello'"),
 ("Add a function count_vowels(text) to textutil.py that returns how many vowels the text has", "count_vowels('Python')", "1", "2"),
 ("Add a function count_vowels(text) to textutil.py that returns how many vowels the text has", "count_vowels('python')", "1", "2"),
 ("Write slug.py with a function slugify(title) that turns a title into a URL slug", "slugify('Hello World')", "'hello-world'", "'Hello-World'"),
 ("Write slug.py with a function slugify(title) that turns a title into a URL slug", "slugify('Python 3.8')", "'python-3-8'", "'python-38'"),
]
sch={"type":"object","properties":{"does":{"type":"string","maxLength":200},"choice":{"type":"string","enum":["A","B"]}},"required":["does","choice"]}
for goal, call, right, wrong in cases:
    res=[]
    for a,b in [(right,wrong),(wrong,right)]:
        q=f"No tool call now. From the GOAL's words alone (not from any code): first say in one sentence what the function does, as its name and the GOAL say; then which value must `{call}` return?\nA: {a}\nB: {b}\nAnswer with JSON: {{\"does\": \"...\", \"choice\": \"A\" or \"B\"}}"
        import json
        r=json.loads(ask(f"GOAL: {goal}\n\n{q}", sch))
        res.append((r['choice']=='A') == (a==right))
        print(call, a, b, r)
    print("RIGHT both:", res)
