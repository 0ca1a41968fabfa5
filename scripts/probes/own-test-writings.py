#!/usr/bin/env python3
"""Writings of a function of their own, asked as settle_own_test asks them
(src/agent/complete/examples.rs), each called on a failing assert's call:
`python3 scripts/probes/own-test-writings.py PORT [GOAL CASES_JSON]` against a
llama-server's OpenAI API on 127.0.0.1:PORT. CASES_JSON: [[name, call, expected,
actual], ...]; by default t88's three rps calls. Prints, per call and writing,
what it returned and whether that is the expected or the actual value."""
import json, sys, urllib.request, re, subprocess
port = sys.argv[1]
goal = sys.argv[2] if len(sys.argv) > 2 else "Create a rock-paper-scissors game with pytest tests"
cases = json.loads(sys.argv[3]) if len(sys.argv) > 3 else [
    ["rock_paper_scissors", "rock_paper_scissors('rock', 'paper')", "'rock wins!'", "'paper wins!'"],
    ["rock_paper_scissors", "rock_paper_scissors('rock', 'scissors')", "'scissors wins!'", "'rock wins!'"],
    ["rock_paper_scissors", "rock_paper_scissors('rock', 'rock')", "'rock wins!'", "\"It's a tie!\""],
]
system = "You are a careful programmer. Write the one function asked for from its description. Answer in plain text: the code in one code block."
for name, call, exp, act in cases:
    for again, (a, b) in enumerate([(exp, act), (act, exp), (exp, act)]):
        ask = f"GOAL: {goal}\n\nWrite only the Python function `{name}` as the GOAL's words describe it: no tests, no examples, no other code. It is called like `{call}`, and returns values in the form of {a} or {b}."
        body = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": ask}],
                "temperature": [0.2, 0.6, 1.0][again], "max_tokens": 600}
        req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"})
        out = json.load(urllib.request.urlopen(req))["choices"][0]["message"]["content"]
        blocks = re.findall(r"```(?:\w+)?\n(.*?)```", out, re.S)
        code = blocks[-1] if blocks else out
        prog = code + f"\nimport ast\nr = {call}\nprint(repr(r), r == ast.literal_eval({exp!r}), r == ast.literal_eval({act!r}))\n"
        p = subprocess.run(["python3", "-c", prog], capture_output=True, text=True, timeout=10)
        print(call, again, "->", (p.stdout.strip() or p.stderr.strip().splitlines()[-1:]), flush=True)
