import sys, json; sys.path.insert(0, __import__('os').path.dirname(__file__)); from ask import ask, TK, CV, SL, PL
cases=[
 (TK,"reverse_words","def reverse_words(s):\n    return s[::-1]\n",False),
 (TK,"reverse_words","def reverse_words(s):\n    return ' '.join(reversed(s.split()))\n",True),
 (TK,"reverse_words","def reverse_words(s):\n    return ' '.join(w[::-1] for w in s.split())\n",False),
 (TK,"is_blank","def is_blank(s):\n    return not s.strip()\n",True),
 (TK,"is_blank","def is_blank(s):\n    return s == ''\n",False),
 (CV,"count_vowels","def count_vowels(text):\n    return sum(1 for c in text.lower() if c in 'aeiou')\n",True),
 (CV,"count_vowels","def count_vowels(text):\n    return len(text)\n",False),
 (SL,"slugify","def slugify(title):\n    return '-'.join(title.lower().split())\n",True),
 (SL,"slugify","def slugify(title):\n    return title.replace(' ', '_')\n",False),
 (PL,"is_palindrome","def is_palindrome(word):\n    w = word.lower()\n    return w == w[::-1]\n",True),
 (PL,"is_palindrome","def is_palindrome(word):\n    return word == word[::-1]\n",False),
]
mode=sys.argv[1]
ok=0
for goal,name,code,right in cases:
    if mode=="a":
        sch={"type":"object","properties":{"code_does":{"type":"string","maxLength":200},"goal_asks":{"type":"string","maxLength":200},"same":{"type":"boolean"}},"required":["code_does","goal_asks","same"]}
        q=f"No tool call now. This is `{name}` as written:\n```python\n{code}```\nFirst say in one sentence what this code does. Then say in one sentence what the GOAL's words and the name `{name}` ask it to do. Then whether the two are the same behaviour. Answer with JSON: {{\"code_does\": \"...\", \"goal_asks\": \"...\", \"same\": true or false}}"
    else:
        sch={"type":"object","properties":{"code_does":{"type":"string","maxLength":200},"goal_asks":{"type":"string","maxLength":200},"differs_on":{"type":"string","maxLength":200},"same":{"type":"boolean"}},"required":["goal_asks","code_does","differs_on","same"]}
        q=f"No tool call now. First say in one sentence what the GOAL's words and the name `{name}` ask `{name}` to do. This is `{name}` as written:\n```python\n{code}```\nSay in one sentence what this code does, then an input on which the two differ (or \"none\"), then whether they are the same behaviour. Answer with JSON: {{\"goal_asks\": \"...\", \"code_does\": \"...\", \"differs_on\": \"...\", \"same\": true or false}}"
    r=json.loads(ask(f"GOAL: {goal}\n\n{q}", sch))
    ok+= r['same']==right
    print(r['same']==right, name, repr(code.splitlines()[-1].strip()), r)
print(mode, ok, len(cases))
