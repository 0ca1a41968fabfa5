import ast, json, re, sys, urllib.request
import os
SYSTEM = open(os.path.join(os.path.dirname(__file__), 'system.txt')).read()
URL = os.environ.get('PROBE_URL', 'http://127.0.0.1:18080')
def ask(user, schema=None, temp=0.0, n=600):
    body = {"messages":[{"role":"system","content":SYSTEM},{"role":"user","content":user}],
            "temperature":temp, "max_tokens":n}
    if schema: body["response_format"]={"type":"json_schema","json_schema":{"name":"a","schema":schema}}
    r = urllib.request.urlopen(urllib.request.Request(URL + "/v1/chat/completions",
        data=json.dumps(body).encode(), headers={"Content-Type":"application/json"}), timeout=600)
    return json.loads(r.read())["choices"][0]["message"]["content"]

# Goals the probes share.
TK = "Set up a package called textkit whose top level offers reverse_words(s) and is_blank(s); include pytest tests"
CV = "Add a function count_vowels(text) to textutil.py that returns how many vowels the text has"
SL = "Write slug.py with a function slugify(title) that turns a title into a URL slug"
PL = "In strutil.py, add is_palindrome(word). It returns True when the word reads the same backwards, ignoring case, and False otherwise"


def names(goal, known):
    """The names of `known` that `goal` gives in call form, each once."""
    out = []
    for m in re.finditer(r'([A-Za-z_]\w*)\(', goal):
        if m.group(1) in known and m.group(1) not in out:
            out.append(m.group(1))
    return out


def sides(line):
    """The two sides of an `assert A == B` line, or None."""
    try:
        c = ast.parse(line.strip()).body[0].test
        return ast.unparse(c.left), ast.unparse(c.comparators[0])
    except Exception:
        return None
