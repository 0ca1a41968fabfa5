import sys, json, re, ast; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask, names as named, sides
REF = {
 "count_vowels": lambda t: sum(c in 'aeiouAEIOU' for c in t),
 "fizzbuzz": lambda n: 'FizzBuzz' if n%15==0 else 'Fizz' if n%3==0 else 'Buzz' if n%5==0 else str(n),
 "is_palindrome": lambda w: w.lower()==w.lower()[::-1],
 "area": lambda w,h: w*h, "perimeter": lambda w,h: 2*(w+h),
 "is_leap": lambda y: y%4==0 and (y%100!=0 or y%400==0),
 "count_words": lambda s: len(s.split()),
 "factorial": lambda n: 1 if n<=1 else n*REF["factorial"](n-1),
 "reverse_words": lambda s: ' '.join(reversed(s.split())),
 "is_blank": lambda s: not s.strip(),
}
GOALS = [
 "Add a function count_vowels(text) to textutil.py that returns how many vowels the text has",
 "Write fizzbuzz.py with a function fizzbuzz(n) that returns 'Fizz' for multiples of 3, 'Buzz' for multiples of 5, 'FizzBuzz' for multiples of both and the number as a string otherwise; add pytest tests for it",
 "In strutil.py, add is_palindrome(word). It returns True when the word reads the same backwards, ignoring case, and False otherwise",
 "Make a Python package named geometry with functions area(width, height) and perimeter(width, height), tested with pytest",
 "Create leap.py containing is_leap(year), which returns True for leap years and False otherwise, with pytest tests",
 "numutil.py should also offer factorial(n), which returns n! (factorial(0) is 1)",
 "Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); include pytest tests",
 "Write a module wordtools.py with reverse_words(text) and count_words(text), plus pytest tests",
]
V=sys.argv[1]; T=float(sys.argv[2]) if len(sys.argv)>2 else 0.2
sch=lambda k,a,b:{"type":"object","properties":{**({"does":{"type":"string","maxLength":200}} if V=="new" else {}),k:{"type":"array","minItems":a,"maxItems":b,"items":{"type":"string","maxLength":100}}},"required":(["does"] if V=="new" else [])+[k]}
tot=dict(agreed=0, wrong=0, tells=0)
for g in GOALS:
    ns=named(g, REF); nl=", ".join(f"`{n}`" for n in ns)
    if V=="old":
        p1=f"No tool call now. From the GOAL's words alone (not from any code), write Python asserts of what {nl} must return, each one line `assert CALL == VALUE`: a call with literal arguments, and the value the GOAL's words say it returns, as a literal. Only calls whose result the GOAL decides; none when the GOAL does not say what they return. At most 6. Answer with JSON: {{\"examples\": [\"...\"]}}"
    else:
        p1=f"No tool call now. From the GOAL's words alone (not from any code): first say in one sentence what {nl} do, as their names and the GOAL say; then write Python asserts of what they must return, each one line `assert CALL == VALUE`: a call with literal arguments, and the value the GOAL's words say it returns, as a literal. Choose arguments that tell a right function from a wrong one. Only calls whose result the GOAL decides. At most 6. Answer with JSON: {{\"does\": \"...\", \"examples\": [\"...\"]}}"
    r1=json.loads(ask(f"GOAL: {g}\n\n{p1}", sch("examples",0,6), temp=T))
    st=[]
    for l in r1["examples"]:
        s=sides(l)
        if s and s[0].split('(')[0] in ns and not any(x[0]==s[0] for x in st): st.append(s)
    if not st: print(g[:50], "NO EXAMPLES", r1); continue
    listed="".join(f"assert {c} == ...\n" for c,_ in st)
    if V=="old":
        p2=f"No tool call now. From the GOAL's words alone (not from any code), complete each of these lines with the value the GOAL's words say the call returns, in place of the `...`:\n{listed}Answer with JSON, the completed lines in the same order: {{\"returns\": [\"...\"]}}"
    else:
        p2=f"No tool call now. From the GOAL's words alone (not from any code): first say in one sentence what {nl} do, as their names and the GOAL say; then complete each of these lines with the value the GOAL's words say the call returns, in place of the `...`:\n{listed}Answer with JSON, the completed lines in the same order: {{\"does\": \"...\", \"returns\": [\"...\"]}}"
    r2=json.loads(ask(f"GOAL: {g}\n\n{p2}", sch("returns",len(st),len(st)), temp=T))
    print(g[:60], "|", r1.get("does",""), "|", r2.get("does",""))
    for (c,v),l2 in zip(st, r2["returns"]):
        s2=sides(l2); v2 = s2[1] if s2 else l2
        try: ev1=ast.literal_eval(v); ev2=ast.literal_eval(v2)
        except Exception: print("   unparsable", c, v, v2); continue
        agree = ev1==ev2
        try: ref=eval(c, {**REF})
        except Exception as e: ref=repr(e)
        mark=""
        if agree:
            tot["agreed"]+=1
            if ev1!=ref: tot["wrong"]+=1; mark="WRONG"
            if c.startswith("reverse_words") and ' ' in str(ast.literal_eval(c[len("reverse_words("):-1])).strip(): tot["tells"]+=1; mark+=" TELLS"
        print(f"   {c} -> {v!s} / {v2!s} ref={ref!r} {'agree' if agree else 'differ'} {mark}")
print(V, T, tot)
