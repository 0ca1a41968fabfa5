#!/usr/bin/env python3
"""Writings of a function of their own, asked as `written` asks them
(src/agent/complete/examples.rs: "GOAL: ...", no code shown), each called on
the goal's example calls with their digits changed (`variant` below, as the
runner changes them): `python3 scripts/probes/variant-writings.py PORT` against
a llama-server's OpenAI API on 127.0.0.1:PORT. Prints, per goal, function and
call, what each of three writings (temperature 0.2, 0.6, 1.0) returned."""
import json, re, subprocess, sys, urllib.request

port = sys.argv[1]
CASES = [
    ("Create a Python package named pricing with to_cents(text), which turns a price like '3.50' into the whole number of cents 350, and format_cents(cents), which turns 350 back into '$3.50'; `from pricing import to_cents, format_cents` must work. Add pytest tests",
     [("to_cents", ["to_cents('3.50')", "to_cents('0.05')"]), ("format_cents", ["format_cents(350)"])]),
    ("Give timeutil.py a format_duration(seconds) that returns the time as H:MM:SS, for example format_duration(3725) is '1:02:05'",
     [("format_duration", ["format_duration(3725)", "format_duration(59)"])]),
    ("Make a package calendar_tools with is_leap(year) and days_in_month(year, month), so that `from calendar_tools import is_leap, days_in_month` works, and test it with pytest",
     [("is_leap", ["is_leap(2024)", "is_leap(1900)"]), ("days_in_month", ["days_in_month(2024, 2)", "days_in_month(2023, 12)"])]),
    ("Add average_word_length(text) to words.py: the mean length of the words rounded to 2 decimals, 0.0 for a text with no words",
     [("average_word_length", ["average_word_length('hi there')"])]),
    ("Create a Python package named series with fib(n), the nth Fibonacci number (fib(0) is 0 and fib(1) is 1), and test it with pytest",
     [("fib", ["fib(10)", "fib(1)"])]),
]
system = "You are a careful programmer. Write the one function asked for from its description. Answer in plain text: the code in one code block."


def variant(call):
    return re.sub(r"\d", lambda m: str((int(m.group()) + 3) * 7 % 9 + 1), call)


for goal, funcs in CASES:
    for name, calls in funcs:
        variants = [variant(c) for c in calls]
        rows = {c: [] for c in variants}
        for again, temp in enumerate([0.2, 0.6, 1.0]):
            ask = f"GOAL: {goal}\n\nWrite only the Python function `{name}` as the GOAL's words describe it: no tests, no examples, no other code."
            body = {"messages": [{"role": "system", "content": system}, {"role": "user", "content": ask}],
                    "temperature": temp, "max_tokens": 600}
            req = urllib.request.Request(f"http://127.0.0.1:{port}/v1/chat/completions", json.dumps(body).encode(), {"Content-Type": "application/json"})
            out = json.load(urllib.request.urlopen(req))["choices"][0]["message"]["content"]
            blocks = re.findall(r"```(?:\w+)?\n(.*?)```", out, re.S)
            code = blocks[-1] if blocks else out
            for c in variants:
                prog = code + f"\ntry:\n    print(repr({c}))\nexcept Exception as e:\n    print('raised', type(e).__name__)\n"
                try:
                    p = subprocess.run(["python3", "-c", prog], capture_output=True, text=True, timeout=10)
                    rows[c].append(p.stdout.strip() or (p.stderr.strip().splitlines() or ["?"])[-1])
                except subprocess.TimeoutExpired:
                    rows[c].append("hung")
        for c, got in rows.items():
            print(f"{c}: {' | '.join(got)}", flush=True)
